/* UInt32 and MultiEq: re-wirings, xor costs, addmany widths and values for
 * 2..10 operands, and MultiEq's flush points (when the packed equality would
 * reach 254 bits, and at finish). */
#include "check.h"
#include "gadget/uint32.h"

static uint32_t rnd32(void) { return (uint32_t)check_rand64(); }

static int satisfied(r1cs_cs *cs) {
    r1cs_counts k;
    if (r1cs_finish(cs) != R1CS_OK || r1cs_get_counts(cs, &k) != R1CS_OK)
        return 0;
    return k.checked && k.satisfied;
}

static uint32_t bits_value(const gu32 *a, int *unknown) {
    uint32_t v = 0;
    *unknown = 0;
    for (int i = 0; i < 32; i++) {
        int b = gbool_value(a->bits[i]);
        if (b < 0)
            *unknown = 1;
        else
            v |= (uint32_t)b << i;
    }
    return v;
}

static void test_rewire(void) {
    for (int t = 0; t < 20; t++) {
        uint32_t x = rnd32();
        unsigned by = (unsigned)(check_rand64() % 40);
        gu32 c = gu32_constant(x);
        gu32 r = gu32_rotr(&c, by), s = gu32_shr(&c, by % 32);
        int unk;
        uint32_t want_r = (by % 32) ? (x >> (by % 32)) | (x << (32 - by % 32)) : x;
        CHECK(r.value == want_r && bits_value(&r, &unk) == want_r && !unk);
        CHECK(s.value == x >> (by % 32) && bits_value(&s, &unk) == x >> (by % 32));
        gbool be[32];
        gu32_to_bits_be(be, &c);
        CHECK(gbool_value(be[0]) == (int)(x >> 31));
        gu32 back = gu32_from_bits_be(be);
        CHECK(back.has_value && back.value == x);
    }
}

static void test_xor(void) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    uint32_t x = rnd32(), y = rnd32();
    gu32 a = gu32_alloc(cs, &x), b = gu32_alloc(cs, &y);
    CHECK(r1cs_num_constraints(cs) == 64);
    gu32 r = gu32_xor(cs, &a, &b);
    CHECK(r1cs_num_constraints(cs) == 96); /* one per bit */
    gu32 s = gu32_shr(&b, 5);
    gu32 r2 = gu32_xor(cs, &a, &s);
    CHECK(r1cs_num_constraints(cs) == 96 + 27); /* shifted-in zeros are free */
    int unk;
    CHECK(r.value == (x ^ y) && bits_value(&r, &unk) == (x ^ y));
    CHECK(bits_value(&r2, &unk) == (x ^ (y >> 5)));
    CHECK(satisfied(cs));
    r1cs_cs_free(cs);
}

/* Result width bitlen(n * (2^32 - 1)) for n operands. */
static unsigned width(unsigned n) {
    uint64_t m = (uint64_t)n * UINT32_MAX;
    unsigned w = 0;
    while (m) {
        w++;
        m >>= 1;
    }
    return w;
}

static void test_addmany(void) {
    for (unsigned n = 2; n <= 10; n++) {
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
        gu32 ops[10];
        uint32_t sum = 0;
        for (unsigned k = 0; k < n; k++) {
            uint32_t v = k == 0 ? UINT32_MAX : rnd32(); /* force carries */
            sum += v;
            /* mix: constants, allocated, and a negated-bit word */
            if (k % 3 == 1)
                ops[k] = gu32_constant(v);
            else if (k % 3 == 2) {
                uint32_t nv = ~v;
                gu32 t = gu32_alloc(cs, &nv);
                for (int i = 0; i < 32; i++)
                    t.bits[i] = gbool_not(t.bits[i]);
                t.value = v;
                ops[k] = t;
            } else
                ops[k] = gu32_alloc(cs, &v);
        }
        size_t c0 = r1cs_num_constraints(cs), a0 = r1cs_num_aux(cs);
        gmultieq m;
        gmultieq_init(&m, cs);
        gu32 r = gu32_addmany(&m, ops, n);
        CHECK(r1cs_num_constraints(cs) - c0 == width(n)); /* result bits only */
        CHECK(r1cs_num_aux(cs) - a0 == width(n));
        gmultieq_finish(&m);
        CHECK(r1cs_num_constraints(cs) - c0 == width(n) + 1); /* the packed equality */
        int unk;
        CHECK(r.value == sum && bits_value(&r, &unk) == sum && !unk);
        CHECK(satisfied(cs));
        r1cs_cs_free(cs);
    }
    /* all constants: a constant, nothing emitted even at finish */
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    gu32 ops[3] = {gu32_constant(1), gu32_constant(UINT32_MAX), gu32_constant(7)};
    gmultieq m;
    gmultieq_init(&m, cs);
    gu32 r = gu32_addmany(&m, ops, 3);
    gmultieq_finish(&m);
    CHECK(r.has_value && r.value == 7 && gbool_is_const(r.bits[0]));
    CHECK(r1cs_num_constraints(cs) == 0);
    r1cs_cs_free(cs);
}

/* Two-operand additions are 33 bits wide: 7 fit (231 bits); the 8th would
 * make 264 >= 254, so the pending row is emitted after the 8th addition's
 * result bits and before its equality joins a fresh accumulator. */
static void test_flush_points(void) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    uint32_t x = rnd32(), y = rnd32();
    gu32 a = gu32_alloc(cs, &x), b = gu32_alloc(cs, &y);
    size_t c0 = r1cs_num_constraints(cs);
    gmultieq m;
    gmultieq_init(&m, cs);
    for (int i = 1; i <= 15; i++) {
        gu32 ops[2] = {a, b};
        gu32 r = gu32_addmany(&m, ops, 2);
        CHECK(r.value == x + y);
        size_t rows = (size_t)i * 33 + (i >= 8) + (i >= 15);
        CHECK(r1cs_num_constraints(cs) - c0 == rows);
        CHECK(m.ops == (size_t)((i >= 8) + (i >= 15)));
        CHECK(m.bits_used == (unsigned)(((i - 1) % 7 + 1) * 33));
    }
    gmultieq_finish(&m);
    CHECK(r1cs_num_constraints(cs) - c0 == 15 * 33 + 3);
    CHECK(satisfied(cs));
    r1cs_cs_free(cs);
}

int main(void) {
    check_seed("test_uint32");
    test_rewire();
    test_xor();
    test_addmany();
    test_flush_points();
    return check_finish();
}
