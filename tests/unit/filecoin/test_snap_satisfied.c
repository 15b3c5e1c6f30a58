/* The SnapDeals circuit with a real witness: a random old replica and new
 * data, trees R old / D new / R new built natively, the encoding
 * new = old + data * rho(high bits), challenges from snap_challenges, paths
 * from merkle_proof_gen.  The checking mode must find every row satisfied
 * and the public inputs equal to snap_public_inputs; a tampered witness
 * must name an unsatisfied constraint of the part it broke.
 * Sizes: 2 KiB (P = 1, tree R 8-0-0); with the argument "16k" (label
 * slow) 16 KiB partition 1 (P = 2, a partition path, tree R 8-8-0); with
 * "8m" (slow) 8 MiB partition 2 with h = 7. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/snap/snap_challenges.h"
#include "filecoin/snap/snap_circuit.h"
#include "gadget/poseidon.h"

static uint64_t rng(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* 32 random bytes below 2^254: a canonical Fr, a valid Fr32 node */
static void rand_node(uint8_t out[32], uint64_t *s) {
    for (int i = 0; i < 4; i++) {
        uint64_t v = rng(s);
        memcpy(out + 8 * i, &v, 8);
    }
    out[31] &= 0x3f;
}
static fr node_fr(const uint8_t *b) {
    fr f;
    CHECK(fr_from_bytes_le(&f, b) != 0);
    return f;
}

typedef struct {
    snap_shape s;
    merkle_tree r_old, r_new, d;
    fr comm_c, comm_r_old, comm_r_new, comm_d_new;
    unsigned h; /* the encoding's */
    /* one partition's witness arrays */
    fr *mem;
    snap_witness w;
} fixture;

static void p2(fr *out, const fr *a, const fr *b) {
    fr in[2] = {*a, *b};
    poseidon_hash(out, in, 2);
}

static int build(fixture *f, uint64_t nodes, uint64_t seed, unsigned h) {
    memset(f, 0, sizeof *f);
    if (snap_shape_for_nodes(&f->s, nodes))
        return -1;
    const fc_update_proof *p = &f->s.p;
    uint64_t st = seed;
    uint8_t *old = malloc(nodes * 32), *data = malloc(nodes * 32), *nw = malloc(nodes * 32);
    uint8_t b[32];
    for (uint64_t i = 0; i < nodes; i++) {
        rand_node(old + 32 * i, &st);
        rand_node(data + 32 * i, &st);
    }
    rand_node(b, &st);
    f->comm_c = node_fr(b);
    CHECK(merkle_tree_build(&f->r_old, TREE_HASH_POSEIDON, 8, p->arity_sub, p->arity_top, old,
                            nodes) == MERKLE_OK);
    CHECK(merkle_tree_build(&f->d, TREE_HASH_SHA256, 2, 0, 0, data, nodes) == MERKLE_OK);
    fr root = node_fr(merkle_tree_root(&f->r_old));
    p2(&f->comm_r_old, &f->comm_c, &root);
    f->comm_d_new = node_fr(merkle_tree_root(&f->d));
    f->h = h;
    fr phi;
    snap_phi(&phi, &f->comm_d_new, &f->comm_r_old);
    for (uint64_t i = 0; i < nodes; i++) {
        fr rho, o = node_fr(old + 32 * i), d = node_fr(data + 32 * i), n;
        snap_rho(&rho, &phi, snap_high(i, p->bits, h));
        fr_mul(&n, &d, &rho);
        fr_add(&n, &n, &o);
        fr_to_bytes_le(nw + 32 * i, &n);
    }
    CHECK(merkle_tree_build(&f->r_new, TREE_HASH_POSEIDON, 8, p->arity_sub, p->arity_top, nw,
                            nodes) == MERKLE_OK);
    root = node_fr(merkle_tree_root(&f->r_new));
    p2(&f->comm_r_new, &f->comm_c, &root);
    free(old);
    free(data);
    free(nw);
    return 0;
}

/* Fills f->w for partition k from the trees. */
static void witness(fixture *f, unsigned k) {
    const fc_update_proof *p = &f->s.p;
    snap_witness_sizes z;
    snap_witness_sizes_get(&f->s, &z);
    const size_t sr = f->s.r_siblings, C = p->challenges, lap = f->s.l_ap;
    size_t n = z.apex_leaves + z.partition_path + 2 * z.leaves + 2 * z.path_r + z.path_d;
    free(f->mem);
    f->mem = calloc(n, sizeof(fr));
    snap_witness *w = &f->w;
    memset(w, 0, sizeof *w);
    w->k = k;
    w->h = f->h;
    w->comm_r_old = f->comm_r_old;
    w->comm_d_new = f->comm_d_new;
    w->comm_r_new = f->comm_r_new;
    w->comm_c = f->comm_c;
    w->root_r_old = node_fr(merkle_tree_root(&f->r_old));
    w->root_r_new = node_fr(merkle_tree_root(&f->r_new));
    fr *apex = f->mem, *part = apex + z.apex_leaves, *lo = part + z.partition_path, *ld = lo + C,
       *pro = ld + C, *prn = pro + z.path_r, *pd = prn + z.path_r;
    const unsigned apex_row = p->bits - p->partition_bits - p->apex_bits;
    for (unsigned i = 0; i < p->apex_leaves; i++)
        apex[i] = node_fr(merkle_tree_node(&f->d, apex_row, (size_t)k * p->apex_leaves + i));
    uint64_t c[86];
    CHECK(snap_challenges(c, p, &f->comm_r_new, k) == 0);
    uint32_t idx[POR_MAX_LEVELS];
    fr dsib[POR_MAX_LEVELS], leaf, root;
    for (size_t t = 0; t < C; t++) {
        merkle_proof mp;
        CHECK(merkle_proof_gen(&mp, &f->r_old, c[t]) == MERKLE_OK);
        CHECK(merkle_proof_witness(&mp, idx, pro + t * sr, &lo[t], &root) == MERKLE_OK);
        merkle_proof_free(&mp);
        CHECK(merkle_proof_gen(&mp, &f->r_new, c[t]) == MERKLE_OK);
        CHECK(merkle_proof_witness(&mp, idx, prn + t * sr, &leaf, &root) == MERKLE_OK);
        merkle_proof_free(&mp);
        CHECK(merkle_proof_gen(&mp, &f->d, c[t]) == MERKLE_OK);
        CHECK(merkle_proof_witness(&mp, idx, dsib, &ld[t], &root) == MERKLE_OK);
        merkle_proof_free(&mp);
        memcpy(pd + t * lap, dsib, lap * sizeof(fr));
        if (t == 0)
            memcpy(part, dsib + p->bits - p->partition_bits, p->partition_bits * sizeof(fr));
    }
    w->apex_leaves = apex;
    w->partition_path = part;
    w->leaf_r_old = lo;
    w->leaf_d_new = ld;
    w->path_r_old = pro;
    w->path_r_new = prn;
    w->path_d = pd;
}

static void fixture_free(fixture *f) {
    merkle_tree_free(&f->r_old);
    merkle_tree_free(&f->r_new);
    merkle_tree_free(&f->d);
    free(f->mem);
}

typedef struct {
    const snap_shape *s;
    const snap_witness *w;
} ctx_t;
static int synth(r1cs_cs *cs, void *v) {
    ctx_t *x = v;
    return snap_circuit_synthesize(cs, x->s, x->w);
}

/* Checks w; returns 1 if satisfied.  path (may be NULL) receives a copy of
 * the first unsatisfied constraint's path. */
static int check(fixture *f, char *path, size_t cap, int want_inputs) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    ctx_t x = {&f->s, &f->w};
    CHECK(cs && r1cs_synthesize(cs, synth, &x) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked);
    CHECK(k.constraints == snap_circuit_constraints(&f->s));
    if (path)
        snprintf(path, cap, "%s", k.unsatisfied_path ? k.unsatisfied_path : "");
    if (want_inputs) {
        fr in[4], got;
        CHECK(snap_public_inputs(in, &f->s.p, f->w.k, f->w.h, &f->comm_r_old, &f->comm_d_new,
                                 &f->comm_r_new) == 0);
        CHECK(k.inputs == 5);
        for (uint32_t i = 0; i < 4; i++)
            CHECK(r1cs_get_value(&got, cs, r1cs_input_var(i + 1)) && fr_equal(&got, &in[i]));
    }
    int sat = k.satisfied;
    r1cs_cs_free(cs);
    return sat;
}

static void expect_broken(fixture *f, const char *part) {
    char path[512];
    CHECK(!check(f, path, sizeof path, 0));
    CHECK(strstr(path, part) != NULL);
    if (!strstr(path, part))
        fprintf(stderr, "  unsatisfied at \"%s\", expected a part of \"%s\"\n", path, part);
}

/* 16 KiB partition 1: a partition path, tree R 8-8-0 (label slow). */
static void check_16k(void) {
    fixture f;
    fr one;
    fr_set_one(&one);
    CHECK(build(&f, 512, 11, 1) == 0);
    witness(&f, 1);
    CHECK(check(&f, NULL, 0, 1));
    fr *mut = (fr *)f.w.partition_path;
    fr_add(&mut[0], &mut[0], &one);
    expect_broken(&f, "partition-tree por");
    fixture_free(&f);
}

/* 8 MiB partition 2 with h = 7 (h_select 1, not the default 10): P = 4,
 * 128 apex leaves, the h choice (label slow).  A witness encoded with h = 7
 * but claiming h = 10 breaks tree R new's path. */
static void check_8m(void) {
    fixture f;
    CHECK(build(&f, 1u << 18, 5, 7) == 0);
    witness(&f, 2);
    CHECK(check(&f, NULL, 0, 1));
    f.w.h = 10;
    expect_broken(&f, "por tree_r_new (c_index=0)");
    fixture_free(&f);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "16k") == 0) {
        check_16k();
        return check_finish();
    }
    if (argc > 1 && strcmp(argv[1], "8m") == 0) {
        check_8m();
        return check_finish();
    }
    fixture f;
    /* 2 KiB: satisfied, then one tamper per part */
    CHECK(build(&f, 64, 7, 1) == 0);
    witness(&f, 0);
    CHECK(check(&f, NULL, 0, 1));

    /* proving mode with the witness and the blank recording agree with
     * the checking mode's shape */
    r1cs_counts kc, kp, kr;
    r1cs_cs *c1 = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    r1cs_cs *c2 = r1cs_cs_new(R1CS_PROVE, R1CS_VALUES, NULL);
    r1cs_cs *c3 = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    ctx_t full = {&f.s, &f.w}, blank = {&f.s, NULL};
    CHECK(c1 && r1cs_synthesize(c1, synth, &full) == R1CS_OK);
    CHECK(c2 && r1cs_synthesize(c2, synth, &full) == R1CS_OK);
    CHECK(c3 && r1cs_synthesize(c3, synth, &blank) == R1CS_OK);
    CHECK(r1cs_get_counts(c1, &kc) == R1CS_OK && r1cs_get_counts(c2, &kp) == R1CS_OK &&
          r1cs_get_counts(c3, &kr) == R1CS_OK);
    CHECK(kp.constraints == kc.constraints && kr.constraints == kc.constraints);
    CHECK(kp.aux == kc.aux && kr.aux == kc.aux && kp.inputs == 5 && kr.inputs == 5);
    CHECK(kp.nnz_a == kc.nnz_a && kp.nnz_b == kc.nnz_b && kp.nnz_c == kc.nnz_c);
    printf("  nnz A/B/C count %llu/%llu/%llu, record %llu/%llu/%llu\n",
           (unsigned long long)kc.nnz_a, (unsigned long long)kc.nnz_b, (unsigned long long)kc.nnz_c,
           (unsigned long long)kr.nnz_a, (unsigned long long)kr.nnz_b,
           (unsigned long long)kr.nnz_c);
    r1cs_cs_free(c1);
    r1cs_cs_free(c2);
    r1cs_cs_free(c3);

    fr one, saved;
    fr_set_one(&one);
    fr *mut = (fr *)f.w.leaf_d_new;
    saved = mut[3];
    fr_add(&mut[3], &mut[3], &one); /* new data at challenge 3: tree R new's root differs */
    expect_broken(&f, "por tree_r_new (c_index=3)");
    mut[3] = saved;

    mut = (fr *)f.w.path_r_old;
    saved = mut[5 * f.s.r_siblings + 2];
    fr_add(&mut[5 * f.s.r_siblings + 2], &saved, &one);
    expect_broken(&f, "por tree_r_old (c_index=5)");
    mut[5 * f.s.r_siblings + 2] = saved;

    mut = (fr *)f.w.apex_leaves;
    saved = mut[1];
    fr_add(&mut[1], &saved, &one);
    expect_broken(&f, "apex_gadget");
    mut[1] = saved;

    fr_add(&f.w.comm_c, &f.w.comm_c, &one);
    expect_broken(&f, "comm_r_old_calc");
    fr_sub(&f.w.comm_c, &f.w.comm_c, &one);
    CHECK(check(&f, NULL, 0, 0)); /* restored */

    f.w.k = 1; /* no such partition at 2 KiB */
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    CHECK(snap_circuit_synthesize(cs, &f.s, &f.w) == -1);
    r1cs_cs_free(cs);
    fixture_free(&f);

    return check_finish();
}
