/* A valid C1 without sealing (sealer/seal_synth_valid.h) and the sparse
 * trees under it (sealer/sparse_tree.h):
 *
 *  - a sparse tree equals the dense merkle_tree over the same leaves (root
 *    and every proof byte for byte) for binary SHA-256 and Poseidon
 *    base/sub/top shapes; a repeated set replaces; bad leaves are refused;
 *  - an invented 2 KiB sector (V1 and V1_1, with and without data nodes):
 *    its C1 survives the JSON codec, fc_vanilla_verify accepts it with the
 *    miner and sector checked, the circuit's relations hold (C2
 *    preparation) and for V1_1 the checking mode is satisfied, the challenged nodes' labels are the
 * real labelling function of their parents; the same seed gives the same bytes, another seed
 * another sector;
 *  - against a really sealed 2 KiB sector: each of a list of one-byte
 *    damages is refused by both with the same message, by vanilla
 *    verification and by the circuit preparation;
 *  - synthetic and NI-PoRep proofs are refused with the reason;
 *  - Winning and WindowPoSt vanilla proofs of an invented sector: the PoSt
 *    preparation accepts them (at 2 KiB the circuit is satisfied in the
 *    checking mode; 32 GiB with the 32g argument), other randomness not;
 *  - 32 GiB and 64 GiB: made and vanilla-verified in seconds (arguments).
 *
 * With an argument it runs one size instead: 32g, 64g (V1 and V1_1, made
 * and vanilla-verified), 8m and 512m (also every partition's circuit in
 * the checking mode), 32g-circuit (the last 32 GiB partition's circuit,
 * the highest challenge indices: minutes and gigabytes). */
#include <time.h>

#include "sealer_test_util.h"

#include "filecoin/circuit_counts.h"
#include "filecoin/merkle/comm_d_zero.h"
#include "filecoin/porep/porep_partition.h"
#include "filecoin/post/post_partition.h"
#include "filecoin/sdr/label.h"
#include "r1cs/cs.h"
#include "sealer/seal_synth_valid.h"
#include "sealer/sparse_tree.h"

/* ---- sparse tree against the dense one -------------------------------------- */

static void sparse_case(tree_hasher h, unsigned base, unsigned sub, unsigned top, size_t leaves,
                        unsigned set) {
    uint8_t *dense = calloc(leaves, 32);
    sparse_tree t;
    CHECK(sparse_tree_init(&t, h, base, sub, top, leaves) == MERKLE_OK);
    for (unsigned k = 0; k < set; k++) {
        uint64_t i = check_rand64() % leaves;
        uint8_t v[32];
        check_rand_bytes(v, 32);
        v[31] &= 0x3f;
        CHECK(sparse_tree_set(&t, i, v) == MERKLE_OK);
        memcpy(dense + 32 * i, v, 32); /* a repeated index: the last value wins in both */
    }
    CHECK(sparse_tree_build(&t) == MERKLE_OK);
    merkle_tree d;
    CHECK(merkle_tree_build(&d, h, base, sub, top, dense, leaves) == MERKLE_OK);
    CHECK_MEM(sparse_tree_root(&t), merkle_tree_root(&d), 32);
    CHECK(t.levels == d.levels);
    int same = 1;
    for (size_t i = 0; i < leaves; i++) {
        merkle_proof a, b;
        CHECK(sparse_tree_proof(&a, &t, i) == MERKLE_OK);
        CHECK(merkle_proof_gen(&b, &d, i) == MERKLE_OK);
        same &= memcmp(a.leaf, b.leaf, 32) == 0 && memcmp(a.root, b.root, 32) == 0 &&
                memcmp(a.index, b.index, sizeof a.index) == 0 &&
                memcmp(a.siblings, b.siblings, 32 * por_shape_siblings(&a.shape)) == 0 &&
                merkle_proof_verify(&a) == MERKLE_OK;
        merkle_proof_free(&a);
        merkle_proof_free(&b);
    }
    CHECK(same);
    merkle_proof p;
    CHECK(sparse_tree_proof(&p, &t, leaves) == MERKLE_ERR_INDEX);
    uint8_t v[32] = {0};
    CHECK(sparse_tree_set(&t, 0, v) == MERKLE_ERR_INDEX); /* built */
    merkle_tree_free(&d);
    sparse_tree_free(&t);
    free(dense);
}

static void test_sparse_tree(void) {
    sparse_case(TREE_HASH_SHA256, 2, 0, 0, 64, 5);
    sparse_case(TREE_HASH_SHA256, 2, 0, 0, 256, 0);
    sparse_case(TREE_HASH_POSEIDON, 8, 0, 0, 64, 9);
    sparse_case(TREE_HASH_POSEIDON, 8, 4, 0, 256, 30);
    sparse_case(TREE_HASH_POSEIDON, 8, 8, 2, 1024, 40);
    sparse_tree t;
    uint8_t big[32];
    memset(big, 0xff, 32);
    CHECK(sparse_tree_init(&t, TREE_HASH_POSEIDON, 8, 0, 0, 64) == MERKLE_OK);
    CHECK(sparse_tree_set(&t, 3, big) == MERKLE_ERR_NOT_FR);
    CHECK(sparse_tree_set(&t, 64, big) == MERKLE_ERR_INDEX);
    sparse_tree_free(&t);
    CHECK(sparse_tree_init(&t, TREE_HASH_POSEIDON, 8, 0, 0, 63) != MERKLE_OK);
    sparse_tree_free(&t);
    /* a 64 GiB tree D: 2^31 leaves, 31 levels, kilobytes */
    CHECK(sparse_tree_init(&t, TREE_HASH_SHA256, 2, 0, 0, 1ull << 31) == MERKLE_OK);
    CHECK(t.levels == 31 && sparse_tree_build(&t) == MERKLE_OK);
    sparse_tree_free(&t);
}

/* ---- the invented sector -------------------------------------------------------- */

static c1_output *roundtrip(const c1_output *c) {
    uint8_t *text;
    size_t len;
    c1_output *d = NULL;
    CHECK(c1_encode(&text, &len, c, NULL) == C1_OK);
    CHECK(c1_decode(&d, text, len, NULL) == C1_OK);
    free(text);
    if (d)
        CHECK(c1_output_equal(c, d));
    return d;
}

static c1_output *invent(unsigned id, uint64_t seed, unsigned data_nodes, fc_synth_sector *keep) {
    fc_synth_valid_params p = {fc_seal_proof_by_id(id), ST_MINER, ST_SECTOR, seed, data_nodes};
    fc_synth_sector s;
    char err[512];
    c1_output *c = NULL;
    int rc = fc_synth_valid_sector(&s, &p, err, sizeof err);
    if (rc == 0)
        rc = fc_synth_valid_commit1(&c, &s, err, sizeof err);
    CHECK(rc == 0);
    if (rc != 0)
        fprintf(stderr, "invent %u: %s\n", id, err);
    if (keep)
        *keep = s;
    else
        fc_synth_sector_free(&s);
    if (!c)
        return NULL;
    c1_output *d = roundtrip(c);
    c1_output_free(c);
    return d;
}

/* The C2 preparation (porep_c1_check: every relation of the circuit,
 * natively) and, with synth, every partition (all) or the last one
 * synthesized in the checking mode: 1 if all hold; why not in msg. */
/* The synthesized partition's counts equal its circuit's row of the counts
 * table (the blank circuit's: values change no count), and the 32 GiB one's
 * densities are curio's production R1CS's (facts 3.7).  This is where the
 * 32 GiB PoRep row is counted in CI. */
static int counts_ok(const c1_output *c, const r1cs_counts *n, char *msg, size_t cap) {
    char id[32];
    snprintf(id, sizeof id, "porep-%s", c->proof->shape->short_name);
    const fc_circuit_counts *row = fc_circuit_counts_find(id);
    if (!row || n->constraints_total != row->rows || n->inputs != row->inputs ||
        n->aux != row->aux || n->nnz_a != row->nnz[0] || n->nnz_b != row->nnz[1] ||
        n->nnz_c != row->nnz[2]) {
        snprintf(msg, cap, "%s: counts differ from the table's row", id);
        return 0;
    }
    if (strcmp(id, "porep-32g") == 0 && (n->a_aux_density != 129753292 || n->b_input_density != 1 ||
                                         n->b_aux_density != 33112281)) {
        snprintf(msg, cap, "porep-32g: densities A aux %zu, B inputs %zu aux %zu", n->a_aux_density,
                 n->b_input_density, n->b_aux_density);
        return 0;
    }
    return 1;
}

static int circuit_ok(const c1_output *c, int synth, int all, char *msg, size_t cap) {
    porep_c2 c2;
    if (porep_c2_prepare(&c2, c, msg, cap) != 0)
        return 0;
    int ok = 1;
    for (unsigned k = 0; k < c2.n_partitions && ok && synth; k++) {
        if (!all && k != c2.n_partitions - 1) /* the 8 MiB and 512 MiB runs check all */
            continue;
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
        r1cs_counts n;
        ok = cs && porep_partition_synthesize(cs, &c2.parts[k]) == 0 &&
             r1cs_finish(cs) == R1CS_OK && r1cs_get_counts(cs, &n) == R1CS_OK && n.checked &&
             n.satisfied;
        if (!ok)
            snprintf(msg, cap, "partition %u unsatisfied", k);
        else
            ok = counts_ok(c, &n, msg, cap);
        r1cs_cs_free(cs);
    }
    porep_c2_free(&c2);
    return ok;
}

/* The challenged nodes' labels recomputed with the sealer's fc_label over
 * the map (every parent a column). */
static void check_labels(const fc_synth_sector *s, const c1_output *c) {
    fc_graph g;
    CHECK(fc_graph_init_proof(&g, c->proof) == 0);
    int same = 1;
    for (unsigned k = 0; k < c->partitions; k++)
        for (unsigned i = 0; i < c->challenges; i++) {
            const c1_challenge *ch = c1_at(c, k, i);
            uint32_t v = ch->c_x.index, par[FC_GRAPH_DEGREE];
            fc_graph_parents(&g, v, par);
            /* dense layer buffers holding only the parents' labels */
            uint64_t n = c->nodes;
            uint8_t *cur = calloc(n, 32), *prev = calloc(n, 32);
            for (unsigned l = 1; l <= c->layers; l++) {
                for (unsigned q = 0; q < FC_GRAPH_DEGREE; q++) {
                    fc_synth_valid_label(s, l, par[q], cur + 32 * (size_t)par[q]);
                    if (l > 1)
                        fc_synth_valid_label(s, l - 1, par[q], prev + 32 * (size_t)par[q]);
                }
                uint8_t lab[32];
                fc_label(lab, c->replica_id, l, v, par, cur, l > 1 ? prev : NULL);
                same &= memcmp(lab, ch->c_x.rows[l - 1], 32) == 0;
            }
            free(cur);
            free(prev);
        }
    CHECK(same);
    fc_graph_free(&g);
}

static void test_2k(void) {
    static const unsigned ids[] = {0, 5};
    for (unsigned k = 0; k < 2; k++)
        for (unsigned data = 0; data <= 40; data += 40) {
            fc_synth_sector s;
            c1_output *c = invent(ids[k], 7 + data, data, &s);
            if (!c) {
                fc_synth_sector_free(&s);
                continue;
            }
            char msg[512];
            int rc = st_verify(c, 1, msg, sizeof msg);
            CHECK(rc == 0);
            if (rc)
                fprintf(stderr, "2k id %u: %s\n", ids[k], msg);
            fc_vanilla_info info;
            CHECK(fc_vanilla_verify(c, NULL, &info, NULL, 0) == 0);
            CHECK_MEM(info.comm_c, s.hdr.comm_c, 32);
            CHECK_MEM(info.comm_r_last, s.hdr.comm_r_last, 32);
            CHECK(info.challenges_checked == c->partitions * c->challenges);
            CHECK(circuit_ok(c, ids[k] == 5 && data, 1, msg, sizeof msg));
            check_labels(&s, c);
            if (data == 0) {
                uint8_t z[32];
                CHECK(fc_comm_d_zero(z, 2048) == 0);
                CHECK_MEM(c->comm_d, z, 32);
            }
            fc_synth_sector_free(&s);
            /* the same seed: the same C1; another: another sector */
            c1_output *again = invent(ids[k], 7 + data, data, NULL);
            CHECK(again && c1_output_equal(c, again));
            c1_output *other = invent(ids[k], 8 + data, data, NULL);
            CHECK(other && memcmp(other->comm_r, c->comm_r, 32) != 0);
            c1_output_free(again);
            c1_output_free(other);
            c1_output_free(c);
        }
}

/* ---- against a really sealed sector -------------------------------------------- */

static void flip(uint8_t *b) { b[0] ^= 1; }
static void d_cx_row(c1_output *c) { flip(c1_at(c, 0, 1)->c_x.rows[0]); }
static void d_label_parent(c1_output *c) { flip(c1_at(c, 0, 1)->labeling[0].parents[3]); }
static void d_comm_d_path(c1_output *c) { flip(c1_path_hashes(&c1_at(c, 0, 1)->comm_d, 2)[0]); }
static void d_r_path(c1_output *c) { flip(c1_path_hashes(&c1_at(c, 0, 0)->comm_r_last, 1)[3]); }
static void d_drg_path(c1_output *c) { flip(c1_path_hashes(&c1_at(c, 0, 1)->drg[3].proof, 0)[2]); }
static void d_exp_row(c1_output *c) { flip(c1_at(c, 0, 0)->exp[5].rows[1]); }
static void d_comm_r(c1_output *c) { flip(c->comm_r); }
static void d_ticket(c1_output *c) { flip(c->ticket); }
static void d_r_leaf(c1_output *c) { flip(c1_at(c, 0, 1)->comm_r_last.nodes[1]); }
static void d_data_leaf(c1_output *c) { flip(c1_at(c, 0, 0)->comm_d.nodes[1]); }
static void d_encoding(c1_output *c) { flip(c1_at(c, 0, 1)->encoding.parents[0]); }

/* Damages and whether the circuit sees them: it takes the labels' parents
 * from the columns, recomputes the tree R leaf from label and data, and has
 * no ticket, so those copies are vanilla verification's alone. */
static const struct {
    void (*fn)(c1_output *);
    int circuit;
} damages[] = {
    {d_cx_row, 1},   {d_label_parent, 0}, {d_comm_d_path, 1}, {d_r_path, 1},
    {d_drg_path, 1}, {d_exp_row, 1},      {d_comm_r, 1},      {d_ticket, 0},
    {d_r_leaf, 0},   {d_encoding, 0},     {d_data_leaf, 1},
};

/* Vanilla and circuit messages of a damaged copy. */
static void damaged(const c1_output *good, size_t i, char *vmsg, char *cmsg, size_t cap) {
    c1_output *c = roundtrip(good);
    if (!c) {
        vmsg[0] = cmsg[0] = 0;
        return;
    }
    damages[i].fn(c);
    CHECK(st_verify(c, 1, vmsg, cap) != 0);
    if (circuit_ok(c, 0, 1, cmsg, cap))
        snprintf(cmsg, cap, "circuit satisfied");
    int sat = strcmp(cmsg, "circuit satisfied") == 0;
    CHECK(damages[i].circuit != sat);
    if (damages[i].circuit == sat)
        fprintf(stderr, "damage %zu: vanilla \"%s\", circuit \"%s\"\n", i, vmsg, cmsg);
    c1_output_free(c);
}

static void test_against_sealed(void) {
    fc_sealed sealed;
    uint8_t raw[2032];
    check_rand_bytes(raw, sizeof raw);
    c1_output *real = st_seal(&sealed, 5, raw, sizeof raw);
    c1_output *fake = invent(5, 99, 16, NULL);
    if (!real || !fake) {
        CHECK(0);
        fc_sealed_free(&sealed);
        c1_output_free(real);
        c1_output_free(fake);
        return;
    }
    char msg[512];
    CHECK(st_verify(real, 1, msg, sizeof msg) == 0 && st_verify(fake, 1, msg, sizeof msg) == 0);
    CHECK(circuit_ok(real, 1, 1, msg, sizeof msg) && circuit_ok(fake, 1, 1, msg, sizeof msg));
    for (size_t i = 0; i < sizeof damages / sizeof damages[0]; i++) {
        char rv[512], rc[512], fv[512], fcm[512];
        damaged(real, i, rv, rc, sizeof rv);
        damaged(fake, i, fv, fcm, sizeof fv);
        int same = strcmp(rv, fv) == 0 && strcmp(rc, fcm) == 0;
        CHECK(same);
        if (!same)
            fprintf(stderr, "damage %zu:\n  sealed:   %s | %s\n  invented: %s | %s\n", i, rv, rc,
                    fv, fcm);
    }
    c1_output_free(real);
    c1_output_free(fake);
    fc_sealed_free(&sealed);
}

static void test_refused(void) {
    static const unsigned ids[] = {10, 15, 13, 18}; /* synthetic, NI at 2 KiB and 32 GiB */
    for (unsigned k = 0; k < 4; k++) {
        fc_synth_valid_params p = {fc_seal_proof_by_id(ids[k]), 1, 1, 1, 0};
        fc_synth_sector s;
        char err[512];
        CHECK(fc_synth_valid_sector(&s, &p, err, sizeof err) == -1);
        CHECK(strstr(err, "challenges depend on comm_r") != NULL);
        CHECK(strstr(err, p.proof->name) != NULL);
        fc_synth_sector_free(&s);
    }
}

/* PoSt vanilla proofs of an invented sector of seal proof id: the PoSt
 * preparation (paths, comm_r, the challenged leaves) accepts them, with
 * synth the circuit is satisfied in the checking mode, and other randomness
 * is refused. */
static void test_post(unsigned seal_id, const unsigned *post_ids, unsigned n, int synth) {
    fc_synth_valid_params vp = {fc_seal_proof_by_id(seal_id), ST_MINER, ST_SECTOR, 11, 8};
    fc_synth_sector s;
    char err[512];
    if (fc_synth_valid_sector(&s, &vp, err, sizeof err) != 0) {
        CHECK(0);
        fprintf(stderr, "post sector: %s\n", err);
        return;
    }
    for (unsigned k = 0; k < n; k++) {
        const fc_post_proof *pp = fc_post_proof_by_id(post_ids[k]);
        uint8_t rnd[32], *bin = NULL;
        size_t len = 0;
        check_rand_bytes(rnd, 32);
        rnd[31] &= 0x3f;
        int rc = fc_synth_valid_post(&bin, &len, &s, pp, rnd, 0, err, sizeof err);
        CHECK(rc == 0);
        if (rc != 0) {
            fprintf(stderr, "post %s: %s\n", pp->name, err);
            continue;
        }
        const uint8_t *v = bin;
        post_partition part;
        rc = post_partition_prepare(&part, pp, &v, &len, 1, rnd, 0, err, sizeof err);
        CHECK(rc == POST_PARTITION_OK);
        if (rc != POST_PARTITION_OK)
            fprintf(stderr, "post %s: %s\n", pp->name, err);
        if (rc == POST_PARTITION_OK && synth) {
            r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
            r1cs_counts c;
            CHECK(cs && post_circuit_synthesize(cs, &part.shape, &part.witness) == 0 &&
                  r1cs_finish(cs) == R1CS_OK && r1cs_get_counts(cs, &c) == R1CS_OK && c.checked &&
                  c.satisfied);
            r1cs_cs_free(cs);
        }
        if (rc == POST_PARTITION_OK)
            post_partition_free(&part);
        rnd[0] ^= 1;
        CHECK(post_partition_prepare(&part, pp, &v, &len, 1, rnd, 0, err, sizeof err) ==
              POST_PARTITION_INVALID);
        free(bin);
    }
    /* a PoSt proof of another size is refused */
    uint8_t *bin;
    size_t len;
    uint8_t rnd[32] = {1};
    const fc_post_proof *other = fc_post_proof_by_id(seal_id == 5 ? 13 : 10);
    CHECK(fc_synth_valid_post(&bin, &len, &s, other, rnd, 0, err, sizeof err) == -1);
    fc_synth_sector_free(&s);
}

/* A size with (all = 1) or without the full circuit check. */
static void test_size(unsigned id, int circuit, int all) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    c1_output *c = invent(id, 3, 16, NULL);
    if (!c)
        return;
    char msg[512];
    int rc = st_verify(c, 1, msg, sizeof msg);
    CHECK(rc == 0);
    if (rc)
        fprintf(stderr, "id %u: %s\n", id, msg);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%s: invented, encoded, decoded, verified in %.2f s\n", c->proof->name,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    if (circuit) {
        rc = circuit_ok(c, 1, all, msg, sizeof msg);
        CHECK(rc);
        if (!rc)
            fprintf(stderr, "id %u circuit: %s\n", id, msg);
    }
    c1_output_free(c);
}

int main(int argc, char **argv) {
    check_seed("test_synth_valid");
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "") == 0) {
        test_sparse_tree();
        test_2k();
        test_against_sealed();
        test_refused();
        static const unsigned post_2k[] = {0, 5, 10}; /* Winning, Window V1, V1_1 */
        test_post(5, post_2k, 3, 1);
    } else if (strcmp(what, "8m") == 0) {
        test_size(1, 1, 1);
        test_size(6, 1, 1);
    } else if (strcmp(what, "512m") == 0) {
        test_size(7, 1, 1);
    } else if (strcmp(what, "32g") == 0) {
        test_size(8, 0, 0);
        test_size(3, 0, 0);
        static const unsigned post_32g[] = {3, 13}; /* Winning, Window V1_1 */
        test_post(8, post_32g, 2, 0);
    } else if (strcmp(what, "64g") == 0) {
        test_size(9, 0, 0);
        test_size(4, 0, 0);
    } else if (strcmp(what, "32g-circuit") == 0) {
        test_size(8, 1, 0); /* the last partition */
    } else {
        fprintf(stderr, "usage: test_synth_valid [8m|512m|32g|64g|32g-circuit]\n");
        return 2;
    }
    return check_finish();
}
