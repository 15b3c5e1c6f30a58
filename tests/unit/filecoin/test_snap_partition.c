/* SnapDeals partition preparation: a generated update is accepted with the
 * right public inputs and circuit values; every native check of
 * snap_partition.h refuses its fault with its code and a message naming the
 * partition, challenge and part.  `test_snap_partition 8m` adds 8 MiB (4
 * partitions, h = 10) and an update encoded with another h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "filecoin/snap/snap_challenges.h"
#include "filecoin/snap/snap_partition.h"
#include "gadget/poseidon.h"
#include "r1cs/cs.h"
#include "snap_test_util.h"
#include "util/hex.h"

static int prepare(snap_partition *pp, const snap_fixture *f, unsigned h, uint8_t *const *v,
                   const size_t *len, size_t n, const uint8_t *r_old, const uint8_t *r_new,
                   const uint8_t *d_new, char *err, size_t cap) {
    return snap_partition_prepare_h(pp, &f->p, h, (const uint8_t *const *)v, len, n, r_old, r_new,
                                    d_new, err, cap);
}

/* prepare must fail with code and a message holding needle. */
static int refuses(const snap_fixture *f, unsigned h, uint8_t *const *v, const size_t *len,
                   size_t n, const uint8_t *r_old, const uint8_t *r_new, const uint8_t *d_new,
                   int code, const char *needle) {
    snap_partition pp;
    char err[512] = "";
    int rc = prepare(&pp, f, h, v, len, n, r_old, r_new, d_new, err, sizeof err);
    if (rc == SNAP_OK)
        snap_partition_free(&pp);
    if (rc != code || !strstr(err, needle)) {
        fprintf(stderr, "  got %s \"%s\", wanted %s with \"%s\"\n", snap_status_name(rc), err,
                snap_status_name(code), needle);
        return 0;
    }
    return 1;
}

static int refuses_f(const snap_fixture *f, int code, const char *needle) {
    return refuses(f, 0, f->vanilla, f->len, f->p.partitions, f->u.comm_r_old, f->u.comm_r_new,
                   f->u.comm_d_new, code, needle);
}

typedef struct {
    const snap_shape *s;
    const snap_witness *w;
} synth_ctx;
static int synth(r1cs_cs *cs, void *v) {
    synth_ctx *x = v;
    return snap_circuit_synthesize(cs, x->s, x->w);
}

/* The circuit of partition k with the prepared witness is satisfied and its
 * public inputs are the prepared ones. */
static void check_circuit(const snap_partition *pp, size_t k, const snap_shape *s) {
    snap_witness w;
    snap_partition_witness(&w, pp, k);
    synth_ctx x = {s, &w};
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    r1cs_counts c;
    CHECK(cs && r1cs_synthesize(cs, synth, &x) == R1CS_OK);
    CHECK(r1cs_get_counts(cs, &c) == R1CS_OK && c.checked && c.satisfied && c.inputs == 5);
    if (!c.satisfied)
        fprintf(stderr, "  partition %zu: unsatisfied at %s\n", k,
                c.unsatisfied_path ? c.unsatisfied_path : "?");
    for (uint32_t i = 0; i < 4; i++) {
        fr got;
        CHECK(r1cs_get_value(&got, cs, r1cs_input_var(i + 1)) &&
              fr_equal(&got, &pp->parts[k].inputs[i]));
    }
    r1cs_cs_free(cs);
}

/* circuit: a bit mask of the partitions whose circuit is checked too (a
 * 2 KiB partition is 1.7 M rows, an 8 MiB one 10 M) */
static void check_accepted(const snap_fixture *f, unsigned h, unsigned circuit) {
    const fc_update_proof *p = &f->p;
    snap_partition pp;
    char err[512] = "";
    int rc = prepare(&pp, f, h, f->vanilla, f->len, p->partitions, f->u.comm_r_old, f->u.comm_r_new,
                     f->u.comm_d_new, err, sizeof err);
    CHECK(rc == SNAP_OK);
    if (rc != SNAP_OK) {
        fprintf(stderr, "  %s: %s\n", snap_status_name(rc), err);
        return;
    }
    CHECK(pp.n_parts == p->partitions);
    fr want[3];
    fr_from_bytes_le(&want[0], f->u.comm_r_old);
    fr_from_bytes_le(&want[1], f->u.comm_d_new);
    fr_from_bytes_le(&want[2], f->u.comm_r_new);
    const unsigned hh = h ? h : p->h_default;
    for (unsigned k = 0; k < p->partitions; k++) {
        const snap_partition_values *v = &pp.parts[k];
        fr x;
        fr_set_u64(&x, k | fc_update_h_select(p, hh) << p->partition_bits);
        CHECK(fr_equal(&v->inputs[0], &x));
        for (int i = 0; i < 3; i++)
            CHECK(fr_equal(&v->inputs[1 + i], &want[i]));
        for (unsigned t = 0; t < p->challenges; t++) {
            const uint64_t c = v->challenges[t];
            CHECK(c >> p->rand_bits == k);
            fr leaf;
            fr_from_bytes_le(&leaf, merkle_tree_node(&f->u.tree_r_old, 0, c));
            CHECK(fr_equal(&leaf, &v->leaf_r_old[t]));
            fr_from_bytes_le(&leaf, merkle_tree_node(&f->u.tree_d_new, 0, c));
            CHECK(fr_equal(&leaf, &v->leaf_d_new[t]));
            /* first tree R sibling and first tree D sibling of the challenge */
            fr s;
            fr_from_bytes_le(&s,
                             merkle_tree_node(&f->u.tree_r_new, 0, (c & 7) ? c - (c & 7) : c + 1));
            CHECK(fr_equal(&s, &v->path_r_new[t * pp.r_siblings]));
            fr_from_bytes_le(&s, merkle_tree_node(&f->u.tree_d_new, 0, c ^ 1));
            CHECK(fr_equal(&s, &v->path_d[t * pp.l_ap]));
        }
        for (unsigned j = 0; j < p->partition_bits; j++) {
            unsigned l = p->bits - p->partition_bits + j;
            fr s;
            fr_from_bytes_le(&s, merkle_tree_node(&f->u.tree_d_new, l, (k >> j) ^ 1));
            CHECK(fr_equal(&s, &v->partition_path[j]));
        }
        snap_shape shape;
        if ((circuit >> k & 1) && snap_shape_for_nodes(&shape, p->nodes) == 0)
            check_circuit(&pp, k, &shape);
        fr apex0;
        fr_from_bytes_le(&apex0,
                         merkle_tree_node(&f->u.tree_d_new, pp.l_ap, (size_t)k * p->apex_leaves));
        CHECK(fr_equal(&apex0, &v->apex_leaves[0]));
    }
    snap_partition_free(&pp);
}

/* Partition k re-encoded after edit() changed its decoded form. */
typedef void (*edit_fn)(fc_snap_vanilla *v);
static void re_encode(snap_fixture *f, unsigned k, edit_fn edit) {
    fc_snap_vanilla v;
    char err[256];
    if (fc_snap_vanilla_decode(&v, f->vanilla[k], f->len[k], &f->p, err, sizeof err) != SNAP_OK)
        return;
    edit(&v);
    fc_snap_vanilla_encode(f->vanilla[k], &v);
    fc_snap_vanilla_free(&v);
}

static uint8_t *mut(const uint8_t (*h)[32]) { return (uint8_t *)h[0]; }
static void flip_r_new_sibling(fc_snap_vanilla *v) {
    mut(v->challenges[4].r_new.elems[1].hashes)[0] ^= 1;
}
static void flip_r_old_sibling(fc_snap_vanilla *v) {
    mut(v->challenges[2].r_old.elems[0].hashes)[5] ^= 0x10;
}
static void flip_d_sibling(fc_snap_vanilla *v) {
    mut(v->challenges[7].d_new.elems[0].hashes)[0] ^= 1;
}
static void flip_apex(fc_snap_vanilla *v) {
    for (size_t i = 0; i < v->n_apex; i++)
        mut(&v->apex_leaves[i])[0] ^= 1;
}
static void flip_top_sibling(fc_snap_vanilla *v) {
    const fc_inclusion_proof *d = &v->challenges[3].d_new;
    mut(d->elems[d->n_base - 1].hashes)[0] ^= 1;
}
static void other_comm_c(fc_snap_vanilla *v) { v->comm_c[0] ^= 1; }

/* The new replica re-encoded wrongly (every node + 1), tree R new and
 * comm_r_new rebuilt from it, and every partition generated again. */
static int misencode(snap_fixture *f) {
    merkle_tree *t = &f->u.tree_r_new;
    size_t n = t->leaves;
    uint8_t *leaves = malloc(n * 32);
    if (!leaves)
        return -1;
    fr one, x;
    fr_set_one(&one);
    for (size_t i = 0; i < n; i++) {
        fr_from_bytes_le(&x, merkle_tree_node(t, 0, i));
        fr_add(&x, &x, &one);
        fr_to_bytes_le(leaves + 32 * i, &x);
    }
    merkle_tree_free(t);
    int rc = merkle_tree_build(t, TREE_HASH_POSEIDON, f->p.arity_base, f->p.arity_sub,
                               f->p.arity_top, leaves, n);
    free(leaves);
    if (rc != MERKLE_OK)
        return -1;
    memcpy(f->u.root_r_new, merkle_tree_root(t), 32);
    fr in[2], h;
    fr_from_bytes_le(&in[0], f->u.comm_c);
    fr_from_bytes_le(&in[1], f->u.root_r_new);
    poseidon_hash(&h, in, 2);
    fr_to_bytes_le(f->u.comm_r_new, &h);
    char err[256];
    for (unsigned k = 0; k < f->p.partitions; k++) {
        free(f->vanilla[k]);
        if (fc_snap_vanilla_generate(&f->vanilla[k], &f->len[k], &f->u, k, err, sizeof err))
            return -1;
    }
    return 0;
}

static void faults_2k(void) {
    const fc_update_proof *p = fc_update_proof_by_id(0);
    snap_fixture f;
    if (snap_fixture_make(&f, p, 0) != 0) {
        CHECK(0);
        return;
    }
    const uint8_t *ro = f.u.comm_r_old, *rn = f.u.comm_r_new, *dn = f.u.comm_d_new;
    uint8_t other[32], big[32];
    snap_rand_nodes(other, 1);
    memset(big, 0xff, 32);
    CHECK(refuses(&f, 0, f.vanilla, f.len, 1, rn, rn, dn, SNAP_E_COMM_R,
                  "vanilla_proofs[0] (partition 0): Poseidon2(comm_c, "
                  "challenge_proofs[0].proof_r_old.root) is not comm_r_old"));
    CHECK(refuses(&f, 0, f.vanilla, f.len, 1, ro, ro, dn, SNAP_E_COMM_R,
                  "challenge_proofs[0].proof_r_new.root) is not comm_r_new"));
    CHECK(refuses(&f, 0, f.vanilla, f.len, 1, ro, rn, other, SNAP_E_ROOT_MISMATCH,
                  "vanilla_proofs[0] (partition 0): challenge_proofs[0].proof_d_new: root is not "
                  "comm_d_new"));
    CHECK(refuses(&f, 0, f.vanilla, f.len, 1, ro, rn, big, SNAP_E_COMM,
                  "comm_d_new: not a canonical field element"));
    CHECK(refuses(&f, 0, f.vanilla, f.len, 1, NULL, rn, dn, SNAP_E_COMM, "comm_r_old: missing"));
    CHECK(refuses(&f, 2, f.vanilla, f.len, 1, ro, rn, dn, SNAP_E_PROOF_TYPE,
                  "h = 2 is not one of StackedDrg2KiBV1's allowed values"));
    CHECK(refuses(&f, 0, f.vanilla, f.len, 0, ro, rn, dn, SNAP_E_COUNT,
                  "vanilla_proofs: 0 partition proofs, StackedDrg2KiBV1 has 1 partitions"));
    CHECK(refuses(&f, 0, f.vanilla, f.len, 2, ro, rn, dn, SNAP_E_COUNT, "2 partition proofs"));
    /* decoder faults carry the partition */
    size_t short_len[1] = {f.len[0] - 1};
    CHECK(refuses(&f, 0, f.vanilla, short_len, 1, ro, rn, dn, SNAP_E_TRUNCATED,
                  "vanilla_proofs[0] (partition 0): challenge_proofs[9].proof_r_new.path[1].index: "
                  "truncated"));

    uint8_t *keep = malloc(f.len[0]);
    if (!keep) {
        snap_fixture_free(&f);
        return;
    }
    memcpy(keep, f.vanilla[0], f.len[0]);
    struct {
        edit_fn edit;
        int code;
        const char *needle;
    } cases[] = {
        {flip_r_new_sibling, SNAP_E_ROOT,
         "vanilla_proofs[0] (partition 0): challenge_proofs[4].proof_r_new: path does not hash to "
         "its root"},
        {flip_r_old_sibling, SNAP_E_ROOT, "challenge_proofs[2].proof_r_old: path does not hash"},
        {flip_d_sibling, SNAP_E_ROOT, "challenge_proofs[7].proof_d_new: path does not hash"},
        {flip_apex, SNAP_E_APEX,
         "challenge_proofs[0].proof_d_new: the node at height 3 is not apex_leafs["},
        {other_comm_c, SNAP_E_COMM_R, "is not comm_r_old"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(f.vanilla[0], keep, f.len[0]);
        re_encode(&f, 0, cases[i].edit);
        CHECK(refuses_f(&f, cases[i].code, cases[i].needle));
    }
    memcpy(f.vanilla[0], keep, f.len[0]);
    check_accepted(&f, 0, 0); /* the restored proof passes again */
    free(keep);
    /* a replica not encoded as old + data * rho */
    CHECK(misencode(&f) == 0);
    CHECK(refuses_f(&f, SNAP_E_ENCODING,
                    "vanilla_proofs[0] (partition 0): challenge_proofs[0] (node "));
    snap_fixture_free(&f);
}

/* 32 KiB test size: 2 partitions, Top trees, a partition path of 1 level. */
static void faults_two_partitions(void) {
    fc_update_proof tp;
    snap_fixture f;
    if (fc_update_proof_for_nodes(&tp, 1u << 10) != 0 || snap_fixture_make(&f, &tp, 0) != 0) {
        CHECK(0);
        return;
    }
    check_accepted(&f, 0, 0);
    uint8_t *swapped[2] = {f.vanilla[1], f.vanilla[0]};
    size_t swapped_len[2] = {f.len[1], f.len[0]};
    CHECK(refuses(&f, 0, swapped, swapped_len, 2, f.u.comm_r_old, f.u.comm_r_new, f.u.comm_d_new,
                  SNAP_E_CHALLENGE,
                  "vanilla_proofs[0] (partition 0): challenge_proofs[0].proof_r_old opens node "));
    size_t short_len[2] = {f.len[0], 100};
    CHECK(refuses(&f, 0, f.vanilla, short_len, 2, f.u.comm_r_old, f.u.comm_r_new, f.u.comm_d_new,
                  SNAP_E_TRUNCATED, "vanilla_proofs[1] (partition 1): apex_leafs"));
    re_encode(&f, 1, flip_top_sibling);
    CHECK(refuses_f(&f, SNAP_E_PARTITION_PATH,
                    "vanilla_proofs[1] (partition 1): challenge_proofs[3].proof_d_new: partition "
                    "path sibling 0 differs"));
    snap_fixture_free(&f);
}

static uint8_t *slurp(const char *dir, const char *name, size_t *len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = b ? (size_t)n : 0;
    return b;
}

static int hex_field(uint8_t out[32], json_t *j, const char *key) {
    json_t *v = json_object_get(j, key);
    return v && json_is_string(v) && hex_decode(out, 32, json_string_value(v)) == 32 ? 0 : -1;
}

/* What `cuzk seal update` wrote into dir: snap.json's proof, h and commitments;
 * every vanilla-<k> passes snap_partition_prepare; the update file's tree R
 * root is comm_r_last_new (when there is one: an invented update has none). */
static int check_update_dir(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/snap.json", dir);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    uint8_t ro[32], rn[32], dn[32], last_new[32];
    json_t *id = j ? json_object_get(j, "registered_update_proof_id") : NULL;
    json_t *h = j ? json_object_get(j, "h") : NULL;
    const fc_update_proof *p = id ? fc_update_proof_by_id((uint64_t)json_integer_value(id)) : NULL;
    CHECK(p && h && hex_field(ro, j, "comm_r_old") == 0 && hex_field(rn, j, "comm_r_new") == 0 &&
          hex_field(dn, j, "comm_d_new") == 0 && hex_field(last_new, j, "comm_r_last_new") == 0);
    if (!p || !h) {
        fprintf(stderr, "%s: unreadable\n", path);
        json_decref(j);
        return check_finish();
    }
    unsigned hv = (unsigned)json_integer_value(h);
    json_decref(j);
    uint8_t *v[16] = {0};
    size_t len[16] = {0};
    for (unsigned k = 0; k < p->partitions; k++) {
        char name[32];
        snprintf(name, sizeof name, "vanilla-%u", k);
        v[k] = slurp(dir, name, &len[k]);
        CHECK(v[k] && len[k] == fc_snap_vanilla_size(p));
    }
    snap_partition pp;
    char err[512] = "";
    int rc = snap_partition_prepare_h(&pp, p, hv, (const uint8_t *const *)v, len, p->partitions, ro,
                                      rn, dn, err, sizeof err);
    CHECK(rc == SNAP_OK);
    if (rc == SNAP_OK)
        snap_partition_free(&pp);
    else
        fprintf(stderr, "  %s: %s\n", snap_status_name(rc), err);
    size_t n_update = 0;
    snprintf(path, sizeof path, "%s/update", dir);
    int invented = access(path, F_OK) != 0; /* `seal update --valid` writes no replica */
    uint8_t *update = invented ? NULL : slurp(dir, "update", &n_update);
    merkle_tree t;
    memset(&t, 0, sizeof t);
    CHECK(invented || (update && n_update == p->sector_size &&
                       merkle_tree_build(&t, TREE_HASH_POSEIDON, p->arity_base, p->arity_sub,
                                         p->arity_top, update, p->nodes) == MERKLE_OK &&
                       memcmp(merkle_tree_root(&t), last_new, 32) == 0));
    merkle_tree_free(&t);
    free(update);
    for (unsigned k = 0; k < 16; k++)
        free(v[k]);
    printf("%s: %s, %u partitions of %zu bytes, h %u: accepted%s\n", dir, p->name, p->partitions,
           len[0], hv, invented ? " (invented: no update file)" : "");
    return check_finish();
}

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "dir") == 0)
        return check_update_dir(argv[2]);
    check_seed("test_snap_partition");
    const fc_update_proof *p;
    char err[256];
    CHECK(snap_request_proof(&p, 0, 0, err, sizeof err) == SNAP_OK &&
          p == fc_update_proof_by_id(0));
    CHECK(snap_request_proof(&p, 3, 34359738368ull, err, sizeof err) == SNAP_OK);
    CHECK(snap_request_proof(&p, 5, 0, err, sizeof err) == SNAP_E_PROOF_TYPE && !p &&
          strstr(err, "registered_proof: 5 is not a RegisteredUpdateProof"));
    CHECK(snap_request_proof(&p, 0, 4096, err, sizeof err) == SNAP_E_PROOF_TYPE &&
          strstr(err, "sector_size: 4096, but StackedDrg2KiBV1 sectors hold 2048 bytes"));

    snap_fixture f;
    CHECK(snap_fixture_make(&f, fc_update_proof_by_id(0), 0) == 0);
    check_accepted(&f, 0, 1);
    snap_fixture_free(&f);
    fc_update_proof tp;
    CHECK(fc_update_proof_for_nodes(&tp, 1u << 9) == 0 && snap_fixture_make(&f, &tp, 0) == 0);
    check_accepted(&f, 0, 0);
    snap_fixture_free(&f);
    faults_2k();
    faults_two_partitions();

    if (argc > 1 && strcmp(argv[1], "8m") == 0) {
        p = fc_update_proof_by_id(1);
        CHECK(snap_fixture_make(&f, p, 0) == 0);
        check_accepted(&f, 0, 2);
        snap_fixture_free(&f);
        /* encoded with h = 7, checked with the default h = 10 */
        CHECK(snap_fixture_make(&f, p, 7) == 0);
        check_accepted(&f, 7, 0);
        CHECK(refuses_f(&f, SNAP_E_ENCODING, "proof_d_new.leaf * rho (h = 10)"));
        snap_fixture_free(&f);
    }
    return check_finish();
}
