/* PoR circuit shapes: the constraint and input counts of rust-fil-proofs'
 * storage-proofs-core tests/por_circuit.rs (64 leaves per base tree, public
 * root: 3 inputs; private root: 2), synthesized blank (no values) in the
 * counting mode and recorded; por_no_challenge_input's count; the SHA-256
 * node of two 256-bit inputs (storage-proofs-core util.rs test, 45,387);
 * invalid shapes refused.  Native agreement and satisfiability are in
 * tests/unit/filecoin/test_merkle_por.c. */
#include "check.h"
#include "gadget/por.h"
#include "gadget/poseidon_circuit.h"

typedef struct {
    const char *name;
    tree_hasher h;
    unsigned base, sub, top;
    int private_root;
    size_t constraints;
} por_case;

/* facts 3.7, quoted from por_circuit.rs */
static const por_case cases[] = {
    {"poseidon base_2", TREE_HASH_POSEIDON, 2, 0, 0, 0, 1887},
    {"poseidon base_4", TREE_HASH_POSEIDON, 4, 0, 0, 0, 1164},
    {"poseidon base_8", TREE_HASH_POSEIDON, 8, 0, 0, 0, 1063},
    {"poseidon sub_8_2", TREE_HASH_POSEIDON, 8, 2, 0, 0, 1377},
    {"poseidon top_8_4_2", TREE_HASH_POSEIDON, 8, 4, 2, 0, 1764},
    {"poseidon sub_8_8", TREE_HASH_POSEIDON, 8, 8, 0, 0, 1593},
    {"poseidon top_8_8_2", TREE_HASH_POSEIDON, 8, 8, 2, 0, 1907},
    {"poseidon top_8_2_4", TREE_HASH_POSEIDON, 8, 2, 4, 0, 1764},
    {"poseidon base_2 private root", TREE_HASH_POSEIDON, 2, 0, 0, 1, 1886},
    {"poseidon base_4 private root", TREE_HASH_POSEIDON, 4, 0, 0, 1, 1163},
    {"poseidon base_8 private root", TREE_HASH_POSEIDON, 8, 0, 0, 1, 1062},
    {"sha256 base_2", TREE_HASH_SHA256, 2, 0, 0, 0, 272295},
    {"sha256 base_4", TREE_HASH_SHA256, 4, 0, 0, 0, 216258},
    {"sha256 base_8", TREE_HASH_SHA256, 8, 0, 0, 0, 250987},
};

/* Each base tree of the test has 64 leaves. */
static por_shape shape_of(const por_case *c) {
    unsigned levels = 0;
    for (unsigned n = 64; n > 1; n /= c->base)
        levels++;
    return (por_shape){c->h, c->base, c->sub, c->top, levels};
}

typedef struct {
    const por_shape *s;
    int private_root;
} blank_ctx;

static int blank(r1cs_cs *cs, void *vctx) {
    const blank_ctx *x = vctx;
    por_root v = por_root_val(NULL), r = por_root_val(NULL);
    por_path none = {NULL, NULL};
    return por_circuit(cs, x->s, &v, &none, &r, x->private_root);
}

static void test_counts(void) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const por_case *c = &cases[i];
        por_shape s = shape_of(c);
        CHECK(por_shape_check(&s) == 0);
        blank_ctx ctx = {&s, c->private_root};
        r1cs_counts k[2];
        r1cs_cs *count = r1cs_cs_new(R1CS_COUNT, 0, NULL);
        r1cs_cs *rec = r1cs_cs_new(R1CS_RECORD, 0, NULL);
        CHECK(count && rec);
        if (!count || !rec)
            return;
        CHECK(r1cs_synthesize(count, blank, &ctx) == R1CS_OK);
        CHECK(r1cs_synthesize(rec, blank, &ctx) == R1CS_OK);
        CHECK(r1cs_get_counts(count, &k[0]) == R1CS_OK);
        CHECK(r1cs_get_counts(rec, &k[1]) == R1CS_OK);
        CHECK(k[0].constraints == c->constraints);
        CHECK(k[0].inputs == (c->private_root ? 2u : 3u));
        CHECK(k[1].constraints == k[0].constraints && k[1].aux == k[0].aux &&
              k[1].nnz_a == k[0].nnz_a && k[1].nnz_b == k[0].nnz_b && k[1].nnz_c == k[0].nnz_c);
        if (k[0].constraints != c->constraints)
            fprintf(stderr, "  %s: %zu constraints, want %zu\n", c->name, k[0].constraints,
                    c->constraints);
        printf("  %-30s %7zu constraints, %zu inputs\n", c->name, k[0].constraints, k[0].inputs);
        r1cs_cs_free(count);
        r1cs_cs_free(rec);
    }
}

/* The production trees against the constraint model of facts 3.7
 * (reference/verify/constraint_counts.py, which reproduces 11 published
 * counts): a Poseidon level costs 314 / 387 / 530 (arity 2 / 4 / 8), a
 * SHA-256 tree-D level 45,382, and a private-root PoR adds 2 (packing and
 * root rows).  Trees R/C: 2 KiB 8-0-0 x 2, 8 MiB x 6, 512 MiB x 8, 32 GiB
 * 8-8-0 with 9 base levels, 64 GiB 8-8-2; tree D depths 6 .. 31. */
static void test_production_model(void) {
    static const struct {
        tree_hasher h;
        unsigned base, sub, top, levels;
        size_t want;
    } prod[] = {
        {TREE_HASH_POSEIDON, 8, 0, 0, 2, 2 * 530 + 2},
        {TREE_HASH_POSEIDON, 8, 0, 0, 6, 6 * 530 + 2},
        {TREE_HASH_POSEIDON, 8, 0, 0, 8, 8 * 530 + 2},
        {TREE_HASH_POSEIDON, 8, 8, 0, 9, 10 * 530 + 2},
        {TREE_HASH_POSEIDON, 8, 8, 2, 9, 10 * 530 + 314 + 2},
        {TREE_HASH_SHA256, 2, 0, 0, 6, 6 * 45382 + 2},
        {TREE_HASH_SHA256, 2, 0, 0, 18, 18 * 45382 + 2},
        {TREE_HASH_SHA256, 2, 0, 0, 24, 24 * 45382 + 2},
        {TREE_HASH_SHA256, 2, 0, 0, 30, 30 * 45382 + 2},
        {TREE_HASH_SHA256, 2, 0, 0, 31, 31 * 45382 + 2},
    };
    for (size_t i = 0; i < sizeof prod / sizeof prod[0]; i++) {
        por_shape s = {prod[i].h, prod[i].base, prod[i].sub, prod[i].top, prod[i].levels};
        blank_ctx ctx = {&s, 1};
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
        CHECK(cs && r1cs_synthesize(cs, blank, &ctx) == R1CS_OK);
        r1cs_counts k;
        CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.constraints == prod[i].want);
        CHECK(k.inputs == 2);
        r1cs_cs_free(cs);
    }
}

/* por_no_challenge_input: the PoRCircuit levels less their index bits, plus
 * the root row (the Filecoin trees of test_por_no_challenge_input). */
static void test_no_challenge_input(void) {
    static const struct {
        unsigned base, sub, top, leaves;
    } shapes[] = {{8, 0, 0, 64}, {8, 8, 0, 64}, {8, 4, 0, 256}, {8, 4, 2, 512}, {8, 8, 2, 1024}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        unsigned per = shapes[i].leaves / (shapes[i].sub ? shapes[i].sub : 1) /
                       (shapes[i].top ? shapes[i].top : 1);
        unsigned levels = 0;
        for (; per > 1; per /= 8)
            levels++;
        por_shape s = {TREE_HASH_POSEIDON, shapes[i].base, shapes[i].sub, shapes[i].top, levels};
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
        CHECK(cs != NULL);
        if (!cs)
            return;
        gnum root = gnum_alloc(cs, NULL), leaf = gnum_alloc(cs, NULL);
        gbool bits[64];
        gnum sib[POR_MAX_LEVELS * (POR_MAX_ARITY - 1)];
        unsigned nbits = por_shape_index_bits(&s);
        CHECK((1u << nbits) == shapes[i].leaves);
        for (unsigned b = 0; b < nbits; b++)
            bits[b] = gbool_is(gbit_alloc(cs, -1));
        for (size_t k = 0; k < por_shape_siblings(&s); k++)
            sib[k] = gnum_alloc(cs, NULL);
        size_t r0 = r1cs_num_constraints(cs), want = 1;
        for (unsigned l = 0; l < por_shape_levels(&s); l++) {
            unsigned a = por_shape_arity(&s, l);
            want += (a == 2 ? 2 : a == 4 ? 8 : 22) + poseidon_circuit_constraints(a);
        }
        CHECK(por_no_challenge_input(cs, &s, bits, nbits, &leaf, sib, &root) == 0);
        CHECK(r1cs_num_constraints(cs) - r0 == want);
        CHECK(por_no_challenge_input(cs, &s, bits, nbits - 1, &leaf, sib, &root) == -1);
        CHECK(r1cs_finish(cs) == R1CS_OK);
        r1cs_cs_free(cs);
    }
}

/* util.rs hash_leaf_bits_circuit: 2 x 256 allocated bits, then the node. */
static void test_sha256_node(void) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    CHECK(cs != NULL);
    if (!cs)
        return;
    gbool left[256], right[256];
    for (int i = 0; i < 256; i++)
        left[i] = gbool_alloc(cs, -1);
    for (int i = 0; i < 256; i++)
        right[i] = gbool_alloc(cs, -1);
    gnum out;
    CHECK(tree_hash_sha256_leaf_bits(cs, left, 256, right, 256, &out) == 0);
    CHECK(r1cs_num_constraints(cs) == 45387);
    CHECK(tree_hash_sha256_leaf_bits(cs, left, 257, right, 256, &out) == -1);
    CHECK(tree_hash_sha256_bits(cs, left, 7, &out) == -1);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_cs_free(cs);
}

static void test_bad_shapes(void) {
    const por_shape bad[] = {
        {TREE_HASH_POSEIDON, 3, 0, 0, 2},  {TREE_HASH_POSEIDON, 8, 0, 2, 2},
        {TREE_HASH_POSEIDON, 8, 6, 0, 2},  {TREE_HASH_POSEIDON, 32, 0, 0, 1},
        {TREE_HASH_POSEIDON, 2, 0, 0, 64}, {TREE_HASH_POSEIDON, 2, 0, 0, 0},
        {(tree_hasher)7, 2, 0, 0, 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(por_shape_check(&bad[i]) == -1);
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
        blank_ctx ctx = {&bad[i], 0};
        CHECK(blank(cs, &ctx) == -1);
        CHECK(r1cs_num_constraints(cs) == 0 && r1cs_num_aux(cs) == 0);
        r1cs_cs_free(cs);
    }
}

int main(void) {
    check_seed("test_por");
    test_counts();
    test_production_model();
    test_no_challenge_input();
    test_sha256_node();
    test_bad_shapes();
    return check_finish();
}
