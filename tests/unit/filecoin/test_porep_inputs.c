/* The C1 -> PoRep circuit adapter (porep_inputs.h), on sectors sealed here
 * (sealer.h) with random data, miner, sector number, ticket and seed:
 *  - the witness is the sealed instance: commitments, comm_c and comm_r_last
 *    from the sealer, data leaves = tree D leaves, every column's rows = the
 *    labels of the node the graph names (challenge, DRG, expander parents);
 *  - the public inputs derived natively are exactly what synthesis inputizes
 *    (checking mode, satisfied; first and last partition), for V1, V1_1,
 *    Synthetic and NI 2 KiB;
 *  - porep_c1_check accepts it, and refuses with a message naming the part a
 *    flipped label row, tree D / tree R / tree C path hash, data leaf,
 *    challenge node, seed (challenges no longer derived), swapped parent
 *    columns, comm_r or a root that disagrees across the partition;
 *  - a non-canonical node or a partition out of range is an error. */
#include "check.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/porep/porep_inputs.h"
#include "sealer/sealer.h"
#include "sealer/sealer_data.h"

typedef struct {
    fc_sealed s;
    c1_output *c;
    fc_graph g;
} sealed_c1;

static void seal(sealed_c1 *x, const fc_seal_proof *p) {
    fc_seal_params sp;
    memset(&sp, 0, sizeof sp);
    sp.proof = p;
    sp.miner_id = check_rand64() % 100000;
    sp.sector_number = check_rand64() % 1000;
    check_rand_bytes(sp.ticket, 32);
    check_rand_bytes(sp.seed, 32);
    sp.ticket[31] &= 0x3f;
    const uint64_t size = p->shape->sector_size;
    size_t raw_len = fc_fr32_unpadded_size(size);
    uint8_t *raw = malloc(raw_len);
    check_rand_bytes(raw, raw_len);
    uint8_t *padded = fc_seal_pad_sector(raw, raw_len, size);
    free(raw);
    char err[256];
    CHECK(padded && fc_seal_precommit(&x->s, &sp, padded, err, sizeof err) == 0);
    free(padded);
    CHECK(fc_seal_commit1(&x->c, &x->s, err, sizeof err) == 0);
    CHECK(fc_graph_init_proof(&x->g, p) == 0);
}

static void unseal(sealed_c1 *x) {
    c1_output_free(x->c);
    fc_sealed_free(&x->s);
    fc_graph_free(&x->g);
}

static int fr_is(const fr *a, const uint8_t *b) {
    fr t;
    return fr_from_bytes_le(&t, b) && fr_equal(a, &t);
}

/* The witness equals the sealed instance. */
static void check_witness_is_instance(const sealed_c1 *x, const porep_c1_witness *w,
                                      const porep_public *pub) {
    const fc_sealed *s = &x->s;
    CHECK(fr_is(&w->w.replica_id, s->replica_id) && fr_is(&w->w.comm_d, s->comm_d) &&
          fr_is(&w->w.comm_r, s->comm_r));
    CHECK(fr_is(&w->w.comm_c, s->comm_c) && fr_is(&w->w.comm_r_last, s->comm_r_last));
    const size_t C = w->shape.challenges, L = w->shape.layers;
    int ok = 1;
    for (size_t i = 0; i < C; i++) {
        const uint64_t v = pub->challenge[i];
        ok &= w->w.challenge[i] == v;
        ok &= fr_is(&w->w.data_leaf[i], merkle_tree_node(&s->tree_d, 0, v));
        uint32_t par[FC_GRAPH_DEGREE];
        fc_graph_parents(&x->g, (uint32_t)v, par);
        for (unsigned k = 0; k < POREP_COLUMNS; k++) {
            uint64_t node = k == 0 ? v : par[k - 1];
            for (size_t l = 0; l < L; l++)
                ok &= fr_is(&w->w.rows[(i * POREP_COLUMNS + k) * L + l],
                            fc_sealed_label(s, (unsigned)l + 1, node));
        }
        for (unsigned k = 0; k < POREP_DRG_PARENTS; k++)
            ok &= pub->drg[i * POREP_DRG_PARENTS + k] == par[k];
        for (unsigned k = 0; k < POREP_EXP_PARENTS; k++)
            ok &= pub->exp[i * POREP_EXP_PARENTS + k] == par[POREP_DRG_PARENTS + k];
    }
    CHECK(ok);
}

/* Public inputs = what synthesis inputizes; the witness satisfies the circuit. */
static void check_synthesis(const porep_c1_witness *w, const porep_public *pub) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    CHECK(porep_circuit_synthesize(cs, &w->shape, &w->w) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    CHECK(k.checked && k.satisfied);
    if (!k.satisfied)
        fprintf(stderr, "  unsatisfied at %s\n", k.unsatisfied_path ? k.unsatisfied_path : "?");
    CHECK(r1cs_num_inputs(cs) == pub->n_inputs + 1);
    int same = 1;
    fr got;
    for (size_t i = 0; i < pub->n_inputs; i++)
        same &= r1cs_get_value(&got, cs, r1cs_input_var((uint32_t)(i + 1))) &&
                fr_equal(&got, &pub->inputs[i]);
    CHECK(same);
    r1cs_cs_free(cs);
}

/* Adapts partition k of c and checks it; returns 0 or -1 with err. */
static int adapt(const c1_output *c, const fc_graph *g, unsigned k, char *err, size_t cap) {
    porep_public pub;
    porep_c1_witness w;
    if (porep_c1_public(&pub, c, k, g, err, cap))
        return -1;
    int rc = porep_c1_witness_get(&w, c, k, err, cap);
    if (rc == 0)
        rc = porep_c1_check(&w, &pub, err, cap);
    porep_c1_witness_free(&w);
    porep_public_free(&pub);
    return rc;
}

enum {
    BAD_ROW,
    BAD_D_PATH,
    BAD_R_PATH,
    BAD_C_PATH,
    BAD_DATA_LEAF,
    BAD_NODE,
    BAD_SEED,
    BAD_SWAP,
    BAD_COMM_R,
    BAD_ROOT,
    BAD_CASES
};

/* Corrupts c (a copy) in one place; returns a substring the message must have. */
static const char *corrupt(c1_output *c, int what, unsigned i) {
    c1_challenge *x = c1_at(c, 0, i);
    switch (what) {
    case BAD_ROW: /* a DRG parent's label in layer 1 */
        x->drg[check_rand64() % 6].rows[0][0] ^= 1;
        return "drg parent";
    case BAD_D_PATH:
        c1_path_hashes(&x->comm_d, (unsigned)(check_rand64() % x->comm_d.tree->len))[0][0] ^= 1;
        return "";
    case BAD_R_PATH:
        c1_path_hashes(&x->comm_r_last, 0)[check_rand64() % 7][0] ^= 1;
        return "";
    case BAD_C_PATH:
        c1_path_hashes(&x->exp[check_rand64() % 8].proof, 0)[0][0] ^= 1;
        return "";
    case BAD_DATA_LEAF:
        x->comm_d.nodes[1][0] ^= 1;
        return "";
    case BAD_NODE:
        for (unsigned l = 0; l < c->layers; l++)
            x->labeling[l].node ^= 1;
        return "derived";
    case BAD_SEED: { /* a seed whose challenges differ (a flip may keep them) */
        uint64_t before[64], after[64];
        char e[128];
        CHECK(c->challenges <= 64);
        CHECK(fc_porep_challenges(before, c->proof, 0, c->replica_id, c->comm_r, c->seed, e,
                                  sizeof e) == 0);
        for (unsigned j = 0; j < 32 * 8; j++) {
            c->seed[j / 8] ^= (uint8_t)(1u << (j % 8));
            CHECK(fc_porep_challenges(after, c->proof, 0, c->replica_id, c->comm_r, c->seed, e,
                                      sizeof e) == 0);
            if (memcmp(before, after, c->challenges * sizeof(uint64_t)) != 0)
                break;
        }
        return "derived";
    }
    case BAD_SWAP: { /* two parent columns of different nodes exchanged (parents repeat) */
        c1_column *col[POREP_COLUMNS - 1];
        for (unsigned k = 0; k < POREP_DRG_PARENTS; k++)
            col[k] = &x->drg[k];
        for (unsigned k = 0; k < POREP_EXP_PARENTS; k++)
            col[POREP_DRG_PARENTS + k] = &x->exp[k];
        for (unsigned a = 0; a < POREP_COLUMNS - 1; a++)
            for (unsigned b = a + 1; b < POREP_COLUMNS - 1; b++)
                if (col[a]->index != col[b]->index) {
                    c1_column t = *col[a];
                    *col[a] = *col[b];
                    *col[b] = t;
                    return "";
                }
        CHECK(!"every parent column opens the same node");
        return "";
    }
    case BAD_COMM_R:
        c->comm_r[0] ^= 1;
        return "";
    default: /* i > 0: this challenge's tree R root is not challenge 0's */
        x->comm_r_last.nodes[0][0] ^= 1;
        return "differs";
    }
}

static c1_output *copy(const c1_output *c) {
    uint8_t *json;
    size_t len;
    c1_error e;
    CHECK(c1_encode(&json, &len, c, &e) == C1_OK);
    c1_output *out = NULL;
    CHECK(c1_decode(&out, json, len, &e) == C1_OK);
    free(json);
    return out;
}

static void test_proof(const char *name, int corruptions) {
    const fc_seal_proof *p = fc_seal_proof_by_name(name);
    CHECK(p != NULL);
    sealed_c1 x;
    seal(&x, p);
    char err[512] = "";
    for (unsigned k = 0; k < x.c->partitions; k++) {
        porep_public pub;
        porep_c1_witness w;
        CHECK(porep_c1_public(&pub, x.c, k, &x.g, err, sizeof err) == 0);
        CHECK(porep_c1_witness_get(&w, x.c, k, err, sizeof err) == 0);
        CHECK(porep_c1_check(&w, &pub, err, sizeof err) == 0);
        if (*err)
            fprintf(stderr, "  %s: %s\n", name, err);
        check_witness_is_instance(&x, &w, &pub);
        if (k == 0 || k + 1 == x.c->partitions) /* the checking mode is the slow part */
            check_synthesis(&w, &pub);
        porep_c1_witness_free(&w);
        porep_public_free(&pub);
    }
    printf("  %s: %u partition(s) of %u challenges: witness = sealed instance, public inputs = "
           "synthesis's, satisfied\n",
           name, x.c->partitions, x.c->challenges);
    CHECK(adapt(x.c, &x.g, x.c->partitions, err, sizeof err) == -1 && strstr(err, "partition"));

    for (int what = 0; corruptions && what < BAD_CASES; what++) {
        c1_output *c = copy(x.c);
        unsigned i = what == BAD_ROOT ? 1 : (unsigned)(check_rand64() % c->challenges);
        const char *want = corrupt(c, what, i);
        err[0] = 0;
        int rc = adapt(c, &x.g, 0, err, sizeof err);
        CHECK(rc == -1 && strlen(err) > 10 && strstr(err, want));
        if (rc != -1 || !strstr(err, want))
            fprintf(stderr, "  corruption %d: rc %d, message \"%s\" (want \"%s\")\n", what, rc, err,
                    want);
        else
            printf("  corruption %d refused: %s\n", what, err);
        c1_output_free(c);
    }
    /* a node that is not a canonical field element */
    c1_output *c = copy(x.c);
    memset(c1_at(c, 0, 0)->exp[3].rows[1], 0xff, 32);
    porep_c1_witness w;
    CHECK(porep_c1_witness_get(&w, c, 0, err, sizeof err) == -1 && strstr(err, "exp_parents[3]") &&
          strstr(err, "canonical"));
    c1_output_free(c);
    unseal(&x);
}

int main(void) {
    check_seed("test_porep_inputs");
    test_proof("StackedDrg2KiBV1_1", 1);
    test_proof("StackedDrg2KiBV1", 0);
    if (fc_seal_proof_by_id(10) && fc_seal_proof_by_id(10)->variant == FC_POREP_SYNTHETIC)
        test_proof(fc_seal_proof_by_id(10)->name, 0);
    if (fc_seal_proof_by_id(15) && fc_seal_proof_by_id(15)->variant == FC_POREP_NI)
        test_proof(fc_seal_proof_by_id(15)->name, 0);
    return check_finish();
}
