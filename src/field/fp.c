/* Fp arithmetic: the portable body comes from mont.h; fp_adx.c adds the
 * MULX/ADX multiply, chosen once at start-up from CPUID. */
#include "field/fp.h"

#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "field/pow_template.h"
#include "field/mont.h"
#include "util/cpu.h"
#include "util/switches.h"
#include "util/verify.h"

/* Every element handed to the arithmetic is fully reduced. */
#define VERIFY_REDUCED(x) VERIFY_CHECK(mont_less_than((x)->l, MOD, 6))

static const uint64_t MOD[6] = {FP_MOD0, FP_MOD1, FP_MOD2, FP_MOD3, FP_MOD4, FP_MOD5};

/* Decided before main() from the field_asm switch (CUZK_FIELD_ASM) and
 * again whenever the switch changes, so the hot path reads a plain flag. */
static int use_adx;

static void fp_asm_switched(long on) { use_adx = on && cpu_has_adx_bmi2(); }

__attribute__((constructor)) static void fp_decide_asm(void) {
    switch_watch(SW_FIELD_ASM, fp_asm_switched);
}

int fp_asm_enabled(void) { return use_adx; }

int fp_asm_select(int use_asm) {
    int prev = use_adx;
    use_adx = use_asm && cpu_has_adx_bmi2();
    return prev;
}

void fp_set_zero(fp *r) { memset(r, 0, sizeof *r); }
void fp_set_one(fp *r) { *r = FP_ONE; }

void fp_set_u64(fp *r, uint64_t v) {
    uint64_t raw[6] = {v, 0, 0, 0, 0, 0};
    fp_from_raw(r, raw); /* v < 2^64 < p */
}

int fp_is_zero(const fp *a) { return mont_is_zero(a->l, 6); }
int fp_is_one(const fp *a) { return mont_equal(a->l, FP_ONE.l, 6); }
int fp_equal(const fp *a, const fp *b) { return mont_equal(a->l, b->l, 6); }

void fp_add_portable(fp *r, const fp *a, const fp *b) { mont_add(r->l, a->l, b->l, MOD, 6); }
void fp_sub_portable(fp *r, const fp *a, const fp *b) { mont_sub(r->l, a->l, b->l, MOD, 6); }

/* Addition and subtraction follow the same switch as the multiply, so that
 * CUZK_FIELD_ASM=0 runs the whole field on portable C. */
void fp_add(fp *r, const fp *a, const fp *b) {
    VERIFY_REDUCED(a);
    VERIFY_REDUCED(b);
#if defined(CUZK_HAVE_X86_ASM)
    if (__builtin_expect(use_adx, 1)) {
        fp_add_x86(r, a, b);
        return;
    }
#endif
    fp_add_portable(r, a, b);
}

void fp_sub(fp *r, const fp *a, const fp *b) {
    VERIFY_REDUCED(a);
    VERIFY_REDUCED(b);
#if defined(CUZK_HAVE_X86_ASM)
    if (__builtin_expect(use_adx, 1)) {
        fp_sub_x86(r, a, b);
        return;
    }
#endif
    fp_sub_portable(r, a, b);
}

void fp_neg(fp *r, const fp *a) { mont_neg(r->l, a->l, MOD, 6); }
void fp_dbl(fp *r, const fp *a) { fp_add(r, a, a); }

void fp_mul_portable(fp *r, const fp *a, const fp *b) {
    mont_mul(r->l, a->l, b->l, MOD, FP_INV, 6);
}

void fp_mul(fp *r, const fp *a, const fp *b) {
    VERIFY_REDUCED(a);
    VERIFY_REDUCED(b);
#if defined(CUZK_HAVE_X86_ASM)
    if (__builtin_expect(use_adx, 1)) {
        fp_mul_adx(r, a, b);
        return;
    }
#endif
    fp_mul_portable(r, a, b);
}

void fp_sqr(fp *r, const fp *a) {
#if defined(CUZK_HAVE_X86_ASM)
    if (__builtin_expect(use_adx, 1)) {
        fp_sqr_adx(r, a);
        return;
    }
#endif
    fp_mul_portable(r, a, a);
}

POW_VARTIME_DEFINE(fp_pow_vartime, fp, fp_sqr, fp_mul, fp_set_one)

void fp_inv(fp *r, const fp *a) { fp_pow_vartime(r, a, FP_EXP_INV.l, 6); }

int fp_is_square(const fp *a) {
    fp t;
    fp_pow_vartime(&t, a, FP_EXP_LEGENDRE.l, 6);
    return fp_is_zero(&t) || fp_is_one(&t);
}

int fp_sqrt(fp *r, const fp *a) {
    fp s, check;
    fp_pow_vartime(&s, a, FP_EXP_SQRT.l, 6); /* p = 3 mod 4 */
    fp_sqr(&check, &s);
    if (!fp_equal(&check, a))
        return 0;
    *r = s;
    return 1;
}

void fp_from_raw(fp *r, const uint64_t raw[6]) {
    VERIFY_CHECK(mont_less_than(raw, MOD, 6));
    fp t;
    memcpy(t.l, raw, sizeof t.l);
    fp_mul(r, &t, &FP_R2);
}

void fp_to_raw(uint64_t raw[6], const fp *a) {
    static const fp one_plain = {{1, 0, 0, 0, 0, 0}};
    fp t;
    fp_mul(&t, a, &one_plain);
    memcpy(raw, t.l, sizeof t.l);
}

int fp_from_bytes_be(fp *r, const uint8_t in[FP_BYTES]) {
    uint64_t raw[6];
    for (int i = 0; i < 6; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++)
            w = (w << 8) | in[(5 - i) * 8 + j];
        raw[i] = w;
    }
    if (!mont_less_than(raw, MOD, 6))
        return 0;
    fp_from_raw(r, raw);
    return 1;
}

void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp *a) {
    uint64_t raw[6];
    fp_to_raw(raw, a);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++)
            out[(5 - i) * 8 + j] = (uint8_t)(raw[i] >> (56 - 8 * j));
}

int fp_is_lexicographically_largest(const fp *a) {
    uint64_t raw[6];
    fp_to_raw(raw, a);
    /* raw > (p-1)/2  <=>  (p-1)/2 < raw  <=>  FP_EXP_LEGENDRE < raw */
    return mont_less_than(FP_EXP_LEGENDRE.l, raw, 6);
}

int fp_is_odd(const fp *a) {
    uint64_t raw[6];
    fp_to_raw(raw, a);
    return (int)(raw[0] & 1);
}
