/* Every gadget in witness mode (R1CS_WITNESS, LC building skipped) allocates
 * the same variables with the same values as in proving mode: one small
 * circuit per gadget file with random values (booleans of every kind, SHA-256
 * ch/maj, enforce_equal; uint32 addmany of allocated and constant operands;
 * num to_bits_le, to_bits_le_strict, add/mul/square, inputize; multipack into
 * inputs and pack_bits; Poseidon arities 2, 4, 8, 11 (direct path); insertion
 * of 2, 4, 8, 16; a PoR in a sub/top tree; SHA-256 of 1 and 2 blocks), input
 * and aux memcmp-equal, and the proving run satisfies the checking mode where
 * the circuit is meant to (so the values are not trivially empty). */
#include "check.h"
#include "field_rand.h"
#include "gadget/insertion.h"
#include "gadget/multipack.h"
#include "gadget/num.h"
#include "gadget/por.h"
#include "gadget/poseidon_circuit.h"
#include "gadget/sha256.h"
#include "gadget/uint32.h"

typedef int (*circuit)(r1cs_cs *cs, uint64_t seed);

/* Random values from a per-circuit seed, identical in both runs. */
static uint64_t rng;
static uint64_t next(void) {
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static fr next_fr(void) {
    uint8_t b[32];
    for (int i = 0; i < 4; i++) {
        uint64_t v = next();
        memcpy(b + 8 * i, &v, 8);
    }
    fr r;
    fr_from_bytes_le_reduce(&r, b);
    return r;
}
/* A boolean of a random kind: constant, allocated, negated allocated. */
static gbool any_bool(r1cs_cs *cs) {
    int k = (int)(next() % 3), v = (int)(next() & 1);
    if (k == 0)
        return gbool_const(v);
    gbool b = gbool_alloc(cs, v);
    return k == 2 ? gbool_not(b) : b;
}

static int c_boolean(r1cs_cs *cs, uint64_t seed) {
    rng = seed;
    for (int i = 0; i < 200; i++) {
        gbool a = any_bool(cs), b = any_bool(cs), c = any_bool(cs);
        gbool x = gbool_xor(cs, a, b), y = gbool_and(cs, b, c);
        gbool ch = gbool_sha256_ch(cs, a, b, c), maj = gbool_sha256_maj(cs, a, b, c);
        gbool_enforce_equal(cs, gbool_xor(cs, x, y), gbool_xor(cs, y, x));
        gbool_enforce_equal(cs, ch, ch);
        gbool_enforce_equal(cs, maj, maj);
        gbit p = gbit_alloc(cs, (int)(next() & 1)), q = gbit_alloc(cs, (int)(next() & 1));
        gbit_nor(cs, p, q);
        gbit_and_not(cs, p, q);
        gbit_xor(cs, p, q);
    }
    return 0;
}

static int c_uint32(r1cs_cs *cs, uint64_t seed) {
    rng = seed;
    gmultieq m;
    gmultieq_init(&m, cs);
    for (int i = 0; i < 30; i++) {
        unsigned n = 2 + (unsigned)(next() % 9);
        gu32 ops[10];
        for (unsigned k = 0; k < n; k++) {
            uint32_t v = (uint32_t)next();
            ops[k] = (next() % 4 == 0) ? gu32_constant(v) : gu32_alloc(cs, &v);
        }
        gu32 s = gu32_addmany(&m, ops, n);
        gu32 r = gu32_rotr(&s, 7);
        gu32 x = gu32_xor(cs, &r, &ops[0]);
        gu32_sha256_maj(cs, &x, &ops[1], &s);
        gu32_sha256_ch(cs, &x, &ops[1], &s);
    }
    gmultieq_finish(&m);
    return 0;
}

static int c_num(r1cs_cs *cs, uint64_t seed) {
    rng = seed;
    for (int i = 0; i < 6; i++) {
        fr v = next_fr(), w = next_fr();
        if (i == 0)
            fr_set_zero(&v);
        if (i == 1) { /* r - 1: every strict bit at its limit */
            fr_set_one(&v);
            fr_neg(&v, &v);
        }
        gnum a = gnum_alloc(cs, &v), b = gnum_alloc(cs, &w);
        gbool bits[GNUM_BITS];
        gnum_to_bits_le(cs, &a, bits);
        gnum_to_bits_le_strict(cs, &b, bits);
        gnum_to_bits_le_strict(cs, &a, bits);
        gnum s = gnum_add(cs, &a, &b), p = gnum_mul(cs, &s, &b), q = gnum_square(cs, &p);
        gnum_inputize(cs, &q);
    }
    return 0;
}

static int c_multipack(r1cs_cs *cs, uint64_t seed) {
    rng = seed;
    gbool bits[600];
    for (int i = 0; i < 600; i++)
        bits[i] = any_bool(cs);
    multipack_pack_into_inputs(cs, bits, 600);
    multipack_pack_into_inputs(cs, bits + 3, 64);
    multipack_pack_bits(cs, bits, 256);
    multipack_pack_bits(cs, bits + 100, 200);
    return 0;
}

static int c_poseidon(r1cs_cs *cs, uint64_t seed) {
    rng = seed;
    static const unsigned arity[] = {2, 4, 8, 11};
    for (int i = 0; i < 4; i++) {
        gnum pre[11], out;
        for (unsigned k = 0; k < arity[i]; k++) {
            fr v = next_fr();
            pre[k] = gnum_alloc(cs, &v);
        }
        if (poseidon_circuit_hash(cs, pre, arity[i], &out))
            return -1;
        gnum_inputize(cs, &out);
    }
    return 0;
}

static int c_insertion(r1cs_cs *cs, uint64_t seed) {
    rng = seed;
    for (unsigned nb = 1; nb <= 4; nb++) {
        gnum el[16], x, out[16];
        for (unsigned k = 0; k + 1 < (1u << nb); k++) {
            fr v = next_fr();
            el[k] = gnum_alloc(cs, &v);
        }
        fr v = next_fr();
        x = gnum_alloc(cs, &v);
        gbool bits[4];
        for (unsigned b = 0; b < nb; b++)
            bits[b] = gbool_alloc(cs, (int)(next() & 1));
        if (insertion_insert(cs, out, &x, bits, nb, el))
            return -1;
    }
    return 0;
}

static int c_por(r1cs_cs *cs, uint64_t seed) {
    rng = seed;
    por_shape s = {TREE_HASH_POSEIDON, 8, 4, 2, 2};
    const unsigned lv = por_shape_levels(&s);
    uint32_t index[8];
    fr sib[64], leaf = next_fr(), root = next_fr();
    for (unsigned l = 0; l < lv; l++)
        index[l] = (uint32_t)(next() % por_shape_arity(&s, l));
    for (size_t k = 0; k < por_shape_siblings(&s); k++)
        sib[k] = next_fr();
    por_root v = por_root_val(&leaf), r = por_root_val(&root);
    por_path p = {index, sib};
    return por_circuit(cs, &s, &v, &p, &r, 0);
}

static int c_sha256(r1cs_cs *cs, uint64_t seed) {
    rng = seed;
    gbool in[512 + 256], out[256];
    for (int i = 0; i < 768; i++)
        in[i] = any_bool(cs);
    if (gsha256(cs, out, in, 256) || gsha256(cs, out, in, 768))
        return -1;
    return 0;
}

static void compare(const char *name, circuit fn) {
    uint64_t seed = check_rand64();
    r1cs_cs *p = r1cs_cs_new(R1CS_PROVE, 0, NULL), *w = r1cs_cs_new(R1CS_WITNESS, 0, NULL);
    CHECK(fn(p, seed) == 0);
    CHECK(fn(w, seed) == 0);
    CHECK(r1cs_finish(p) == R1CS_OK && r1cs_finish(w) == R1CS_OK);
    CHECK(r1cs_num_constraints(w) == 0 && r1cs_num_constraints(p) > 0);
    r1cs_partition part;
    fr *in, *aux;
    size_t ni, na;
    CHECK(r1cs_take_partition(p, &part) == R1CS_OK);
    CHECK(r1cs_take_witness(w, &in, &ni, &aux, &na) == R1CS_OK);
    CHECK(ni == part.num_inputs && na == part.num_aux && na > 0);
    if (ni == part.num_inputs && na == part.num_aux) {
        CHECK_MEM(in, part.input, ni * sizeof(fr));
        CHECK_MEM(aux, part.aux, na * sizeof(fr));
        if (memcmp(aux, part.aux, na * sizeof(fr)))
            fprintf(stderr, "%s: aux differs\n", name);
    } else {
        fprintf(stderr, "%s: %zu/%zu inputs, %zu/%zu aux\n", name, ni, part.num_inputs, na,
                part.num_aux);
    }
    free(in);
    free(aux);
    r1cs_partition_free(&part);
    r1cs_cs_free(p);
    r1cs_cs_free(w);
}

/* The proving-mode circuits that should hold do hold (checking mode). */
static void satisfied(circuit fn) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    CHECK(fn(cs, check_rand64()) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked && k.satisfied);
    r1cs_cs_free(cs);
}

int main(void) {
    check_seed("test_witness_gadgets");
    static const struct {
        const char *name;
        circuit fn;
        int sat;
    } cases[] = {
        {"boolean", c_boolean, 1},   {"uint32", c_uint32, 1},
        {"num", c_num, 1},           {"multipack", c_multipack, 1},
        {"poseidon", c_poseidon, 1}, {"insertion", c_insertion, 1},
        {"por", c_por, 0},           {"sha256", c_sha256, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int rep = 0; rep < 3; rep++)
            compare(cases[i].name, cases[i].fn);
        if (cases[i].sat)
            satisfied(cases[i].fn);
    }
    return check_finish();
}
