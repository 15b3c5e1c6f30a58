/* Native Merkle trees and proofs against the PoR circuit.
 *
 *  - the SHA-256 tree over 64 zero leaves has the published 2 KiB comm_d
 *    (filecoin-facts.md 5.4), and every level of a zero tree is z_{i+1} =
 *    trim(SHA-256(z_i || z_i)) computed here with OpenSSL directly;
 *  - for every shape (Poseidon 2-0-0, 4-0-0, 8-0-0, 8-2-0, 8-4-0, 8-8-0,
 *    8-4-2, 8-8-2; SHA-256 2-0-0, 4-0-0, 8-0-0) over random leaves: proofs
 *    of random leaves verify, encode their leaf index, have the Single / Sub /
 *    Top structure; tampered proofs (sibling, leaf, root, index) fail;
 *  - the PoR circuit with the proof as witness is satisfied, its public
 *    inputs are por_public_inputs (leaf index, root) and its computed root is
 *    the native root; a flipped sibling, index bit, leaf or root is reported
 *    unsatisfied; the same for por_no_challenge_input; the proving mode
 *    gives the same shape and inputs;
 *  - bad input: leaf counts that do not fill the shape, non-canonical
 *    Poseidon leaves, out-of-range indices.
 *
 * With --roots the program prints the roots of fixed trees instead, for
 * tests/merkle_oracle.py to compare against independent Python hashing. */
#include <openssl/sha.h>

#include "check.h"
#include "field_rand.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/hash/sha256_native.h"
#include "util/hex.h"

typedef struct {
    tree_hasher h;
    unsigned base, sub, top;
    size_t leaves;
} shape_case;

static const shape_case shapes[] = {
    {TREE_HASH_POSEIDON, 2, 0, 0, 64},  {TREE_HASH_POSEIDON, 4, 0, 0, 64},
    {TREE_HASH_POSEIDON, 8, 0, 0, 64},  {TREE_HASH_POSEIDON, 8, 2, 0, 128},
    {TREE_HASH_POSEIDON, 8, 4, 0, 256}, {TREE_HASH_POSEIDON, 8, 8, 0, 512},
    {TREE_HASH_POSEIDON, 8, 4, 2, 512}, {TREE_HASH_POSEIDON, 8, 8, 2, 1024},
    {TREE_HASH_SHA256, 2, 0, 0, 64},    {TREE_HASH_SHA256, 4, 0, 0, 64},
    {TREE_HASH_SHA256, 8, 0, 0, 64},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static uint8_t *random_leaves(size_t n) {
    uint8_t *l = malloc(n * 32);
    for (size_t i = 0; l && i < n; i++) {
        fr v = rand_fr();
        fr_to_bytes_le(l + 32 * i, &v);
    }
    return l;
}

static void test_zero_tree(void) {
    uint8_t *leaves = calloc(64, 32), z[32] = {0}, buf[64];
    merkle_tree t;
    CHECK(merkle_tree_build(&t, TREE_HASH_SHA256, 2, 0, 0, leaves, 64) == MERKLE_OK);
    for (unsigned l = 0; l <= t.levels; l++) {
        for (size_t j = 0; j < t.width[l]; j++)
            CHECK_MEM(merkle_tree_node(&t, l, j), z, 32);
        memcpy(buf, z, 32);
        memcpy(buf + 32, z, 32);
        SHA256(buf, 64, z);
        z[31] &= 0x3f;
    }
    uint8_t want[32];
    hex_decode(want, 32, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    CHECK(t.levels == 6);
    CHECK_MEM(merkle_tree_root(&t), want, 32);
    merkle_tree_free(&t);
    free(leaves);
}

/* Runs PoRCircuit over proof p in the checking mode; corrupt selects what
 * the circuit is given wrongly.  Returns 1 when satisfied. */
enum { OK_WITNESS, BAD_SIBLING, BAD_INDEX, BAD_LEAF, BAD_ROOT };

static int run_por(const merkle_proof *p, int private_root, int corrupt, size_t *constraints) {
    const por_shape *s = &p->shape;
    uint32_t index[POR_MAX_LEVELS];
    fr sib[POR_MAX_LEVELS * (POR_MAX_ARITY - 1)], leaf, root, one;
    fr_set_one(&one);
    CHECK(merkle_proof_witness(p, index, sib, &leaf, &root) == MERKLE_OK);
    unsigned last = por_shape_levels(s) - 1;
    if (corrupt == BAD_SIBLING)
        fr_add(&sib[por_shape_siblings(s) / 2], &sib[por_shape_siblings(s) / 2], &one);
    if (corrupt == BAD_INDEX)
        index[last] ^= 1;
    if (corrupt == BAD_LEAF)
        fr_add(&leaf, &leaf, &one);
    if (corrupt == BAD_ROOT)
        fr_add(&root, &root, &one);
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    por_root v = por_root_val(&leaf), r = por_root_val(&root);
    por_path path = {index, sib};
    CHECK(por_circuit(cs, s, &v, &path, &r, private_root) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked);
    *constraints = k.constraints;
    if (corrupt == OK_WITNESS) {
        fr want[2], got;
        size_t n = por_public_inputs(want, merkle_proof_leaf_index(p), &root, private_root);
        CHECK(k.inputs == n + 1);
        for (size_t i = 0; i < n; i++)
            CHECK(r1cs_get_value(&got, cs, r1cs_input_var((uint32_t)(i + 1))) &&
                  fr_equal(&got, &want[i]));
    }
    r1cs_cs_free(cs);
    if (corrupt == OK_WITNESS && !private_root) {
        /* the proving mode: same shape, same public inputs */
        r1cs_cs *pc = r1cs_cs_new(R1CS_PROVE, R1CS_VALUES, NULL);
        CHECK(por_circuit(pc, s, &v, &path, &r, 0) == 0);
        CHECK(r1cs_finish(pc) == R1CS_OK);
        r1cs_counts kp;
        fr in;
        CHECK(r1cs_get_counts(pc, &kp) == R1CS_OK);
        CHECK(kp.constraints == k.constraints && kp.aux == k.aux && kp.nnz_a == k.nnz_a &&
              kp.nnz_b == k.nnz_b && kp.nnz_c == k.nnz_c);
        CHECK(r1cs_get_value(&in, pc, r1cs_input_var(2)) && fr_equal(&in, &root));
        r1cs_cs_free(pc);
    }
    return k.satisfied;
}

/* PoRCircuit with Root::Var leaf and root (as the PoRep circuit calls it:
 * both allocated before, private root): satisfied, no extra variables. */
static void run_por_vars(const merkle_proof *p, size_t public_constraints) {
    uint32_t index[POR_MAX_LEVELS];
    fr sib[POR_MAX_LEVELS * (POR_MAX_ARITY - 1)], leaf, root;
    CHECK(merkle_proof_witness(p, index, sib, &leaf, &root) == MERKLE_OK);
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    por_root v = por_root_var(gnum_alloc(cs, &leaf)), r = por_root_var(gnum_alloc(cs, &root));
    por_path path = {index, sib};
    size_t aux0 = r1cs_num_aux(cs);
    CHECK(por_circuit(cs, &p->shape, &v, &path, &r, 1) == 0);
    size_t aux = r1cs_num_aux(cs) - aux0;
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked && k.satisfied);
    CHECK(k.constraints == public_constraints - 1 && k.inputs == 2);
    /* the same circuit with Root::Val allocates exactly the two roots more */
    r1cs_cs *c2 = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    por_root v2 = por_root_val(NULL), r2 = por_root_val(NULL);
    por_path none = {NULL, NULL};
    CHECK(por_circuit(c2, &p->shape, &v2, &none, &r2, 1) == 0);
    CHECK(r1cs_num_aux(c2) == aux + 2);
    r1cs_cs_free(c2);
    r1cs_cs_free(cs);
}

/* por_no_challenge_input over proof p, the root allocated first. */
static int run_no_input(const merkle_proof *p, int corrupt) {
    const por_shape *s = &p->shape;
    uint32_t index[POR_MAX_LEVELS];
    fr sib[POR_MAX_LEVELS * (POR_MAX_ARITY - 1)], leaf, root, one;
    fr_set_one(&one);
    CHECK(merkle_proof_witness(p, index, sib, &leaf, &root) == MERKLE_OK);
    if (corrupt == BAD_ROOT)
        fr_add(&root, &root, &one);
    uint64_t c = merkle_proof_leaf_index(p);
    if (corrupt == BAD_INDEX)
        c ^= 1;
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    gnum rt = gnum_alloc(cs, &root), lf = gnum_alloc(cs, &leaf);
    gbool bits[64];
    gnum sv[POR_MAX_LEVELS * (POR_MAX_ARITY - 1)];
    unsigned nbits = por_shape_index_bits(s);
    for (unsigned b = 0; b < nbits; b++)
        bits[b] = gbool_is(gbit_alloc(cs, (int)((c >> b) & 1)));
    for (size_t k = 0; k < por_shape_siblings(s); k++)
        sv[k] = gnum_alloc(cs, &sib[k]);
    CHECK(por_no_challenge_input(cs, s, bits, nbits, &lf, sv, &rt) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked);
    r1cs_cs_free(cs);
    return k.satisfied;
}

static void test_shape(const shape_case *c) {
    uint8_t *leaves = random_leaves(c->leaves);
    merkle_tree t;
    CHECK(merkle_tree_build(&t, c->h, c->base, c->sub, c->top, leaves, c->leaves) == MERKLE_OK);
    const int sha = c->h == TREE_HASH_SHA256;
    const int proofs = sha ? 2 : 6;
    for (int rep = 0; rep < proofs; rep++) {
        uint64_t i = rep == 0 ? c->leaves - 1 : check_rand64() % c->leaves;
        merkle_proof p;
        CHECK(merkle_proof_gen(&p, &t, i) == MERKLE_OK);
        CHECK(merkle_proof_verify(&p) == MERKLE_OK);
        CHECK(merkle_proof_leaf_index(&p) == i);
        CHECK(merkle_proof_get_kind(&p) == (c->top   ? MERKLE_TOP
                                            : c->sub ? MERKLE_SUB
                                                     : MERKLE_SINGLE));
        CHECK_MEM(p.leaf, leaves + 32 * i, 32);
        CHECK_MEM(p.root, merkle_tree_root(&t), 32);

        /* tampering */
        merkle_proof q = p;
        uint8_t save[32];
        memcpy(save, p.siblings, 32);
        p.siblings[0] ^= 1;
        CHECK(merkle_proof_verify(&q) != MERKLE_OK);
        memcpy(p.siblings, save, 32);
        q.leaf[0] ^= 1;
        CHECK(merkle_proof_verify(&q) == MERKLE_ERR_ROOT);
        q = p;
        q.root[5] ^= 0x10;
        CHECK(merkle_proof_verify(&q) == MERKLE_ERR_ROOT);
        q = p;
        q.index[0] ^= 1;
        CHECK(merkle_proof_verify(&q) == MERKLE_ERR_ROOT);
        q.index[0] = c->base;
        CHECK(merkle_proof_verify(&q) == MERKLE_ERR_INDEX);

        /* circuits */
        size_t n, n_priv;
        CHECK(run_por(&p, 0, OK_WITNESS, &n));
        if (rep < 2 || !sha)
            CHECK(run_por(&p, 1, OK_WITNESS, &n_priv) && n_priv == n - 1);
        if (rep == 0) {
            printf("  %s %u-%u-%u, %zu leaves: %zu constraints\n", sha ? "sha256" : "poseidon",
                   c->base, c->sub, c->top, c->leaves, n);
            run_por_vars(&p, n);
            for (int bad = BAD_SIBLING; bad <= BAD_ROOT; bad++)
                CHECK(!run_por(&p, bad & 1, bad, &n));
            if (!sha) {
                CHECK(run_no_input(&p, OK_WITNESS));
                CHECK(!run_no_input(&p, BAD_INDEX));
                CHECK(!run_no_input(&p, BAD_ROOT));
            }
        }
        merkle_proof_free(&p);
    }
    merkle_proof tmp;
    CHECK(merkle_proof_gen(&tmp, &t, c->leaves) == MERKLE_ERR_INDEX);
    merkle_tree_free(&t);
    free(leaves);
}

static void test_bad_input(void) {
    uint8_t *leaves = random_leaves(64);
    merkle_tree t;
    CHECK(merkle_tree_build(&t, TREE_HASH_POSEIDON, 8, 0, 0, leaves, 63) == MERKLE_ERR_LEAVES);
    CHECK(merkle_tree_build(&t, TREE_HASH_POSEIDON, 8, 0, 0, leaves, 32) == MERKLE_ERR_LEAVES);
    CHECK(merkle_tree_build(&t, TREE_HASH_POSEIDON, 8, 8, 0, leaves, 8) == MERKLE_ERR_LEAVES);
    CHECK(merkle_tree_build(&t, TREE_HASH_POSEIDON, 8, 8, 0, leaves, 0) == MERKLE_ERR_LEAVES);
    CHECK(merkle_tree_build(&t, TREE_HASH_POSEIDON, 3, 0, 0, leaves, 9) == MERKLE_ERR_SHAPE);
    CHECK(merkle_tree_build(&t, TREE_HASH_POSEIDON, 8, 0, 2, leaves, 16) == MERKLE_ERR_SHAPE);
    memset(leaves + 32 * 5, 0xff, 32); /* 2^256 - 1 >= r */
    CHECK(merkle_tree_build(&t, TREE_HASH_POSEIDON, 8, 0, 0, leaves, 64) == MERKLE_ERR_NOT_FR);
    CHECK(t.row[0] == NULL);
    merkle_tree_free(&t);
    /* SHA-256 nodes are bytes; any leaf hashes */
    CHECK(merkle_tree_build(&t, TREE_HASH_SHA256, 2, 0, 0, leaves, 64) == MERKLE_OK);
    merkle_proof p;
    CHECK(merkle_proof_gen(&p, &t, 5) == MERKLE_OK && merkle_proof_verify(&p) == MERKLE_OK);
    uint32_t idx[POR_MAX_LEVELS];
    fr sib[POR_MAX_LEVELS], leaf, root;
    CHECK(merkle_proof_witness(&p, idx, sib, &leaf, &root) == MERKLE_ERR_NOT_FR);
    merkle_proof_free(&p);
    merkle_tree_free(&t);
    CHECK(strlen(merkle_strerror(MERKLE_ERR_NOT_FR)) > 10);
    free(leaves);
}

/* --roots: fixed leaves (leaf i = trimmed SHA-256 of "cuzk merkle leaf" ||
 * i as u32 LE), one line "hasher base-sub-top leaves root-hex" per tree. */
static int print_roots(void) {
    static const shape_case fixed[] = {
        {TREE_HASH_POSEIDON, 2, 0, 0, 8},  {TREE_HASH_POSEIDON, 4, 0, 0, 16},
        {TREE_HASH_POSEIDON, 8, 0, 0, 64}, {TREE_HASH_POSEIDON, 8, 2, 0, 16},
        {TREE_HASH_POSEIDON, 8, 4, 2, 64}, {TREE_HASH_SHA256, 2, 0, 0, 64},
        {TREE_HASH_SHA256, 8, 0, 0, 64},   {TREE_HASH_SHA256, 4, 2, 0, 32},
    };
    for (size_t s = 0; s < sizeof fixed / sizeof fixed[0]; s++) {
        const shape_case *c = &fixed[s];
        uint8_t *leaves = malloc(c->leaves * 32), msg[20];
        if (!leaves)
            return 1;
        for (size_t i = 0; i < c->leaves; i++) {
            memcpy(msg, "cuzk merkle leaf", 16);
            for (int b = 0; b < 4; b++)
                msg[16 + b] = (uint8_t)(i >> (8 * b));
            sha256_trunc_native(leaves + 32 * i, msg, 20);
        }
        merkle_tree t;
        int err = merkle_tree_build(&t, c->h, c->base, c->sub, c->top, leaves, c->leaves);
        if (err) {
            fprintf(stderr, "build failed: %s\n", merkle_strerror(err));
            return 1;
        }
        char hex[65];
        hex_encode(hex, merkle_tree_root(&t), 32);
        printf("%s %u-%u-%u %zu %s\n", c->h == TREE_HASH_SHA256 ? "sha256" : "poseidon", c->base,
               c->sub, c->top, c->leaves, hex);
        merkle_tree_free(&t);
        free(leaves);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--roots") == 0)
        return print_roots();
    check_seed("test_merkle_por");
    test_zero_tree();
    for (size_t s = 0; s < NSHAPES; s++)
        test_shape(&shapes[s]);
    test_bad_input();
    return check_finish();
}
