/* Fr arithmetic on the shared portable Montgomery core (mont.h). */
#include "field/fr.h"

#include <string.h>

#include "field/constants.h"
#include "field/pow_template.h"
#include "field/fp.h"
#include "field/mont.h"
#include "util/verify.h"

static const uint64_t MOD[4] = {FR_MOD0, FR_MOD1, FR_MOD2, FR_MOD3};

void fr_set_zero(fr *r) { memset(r, 0, sizeof *r); }
void fr_set_one(fr *r) { *r = FR_ONE; }

void fr_set_u64(fr *r, uint64_t v) {
    uint64_t raw[4] = {v, 0, 0, 0};
    fr_from_raw(r, raw);
}

int fr_is_zero(const fr *a) { return mont_is_zero(a->l, 4); }
int fr_is_one(const fr *a) { return mont_equal(a->l, FR_ONE.l, 4); }
int fr_equal(const fr *a, const fr *b) { return mont_equal(a->l, b->l, 4); }

void fr_add_portable(fr *r, const fr *a, const fr *b) { mont_add(r->l, a->l, b->l, MOD, 4); }
void fr_sub_portable(fr *r, const fr *a, const fr *b) { mont_sub(r->l, a->l, b->l, MOD, 4); }

void fr_add(fr *r, const fr *a, const fr *b) {
#if defined(CUZK_HAVE_X86_ASM)
    if (__builtin_expect(fp_asm_enabled(), 1)) {
        fr_add_x86(r, a, b);
        return;
    }
#endif
    fr_add_portable(r, a, b);
}

void fr_sub(fr *r, const fr *a, const fr *b) {
#if defined(CUZK_HAVE_X86_ASM)
    if (__builtin_expect(fp_asm_enabled(), 1)) {
        fr_sub_x86(r, a, b);
        return;
    }
#endif
    fr_sub_portable(r, a, b);
}
void fr_neg(fr *r, const fr *a) { mont_neg(r->l, a->l, MOD, 4); }
void fr_dbl(fr *r, const fr *a) { fr_add(r, a, a); }
void fr_mul_portable(fr *r, const fr *a, const fr *b) {
    mont_mul(r->l, a->l, b->l, MOD, FR_INV, 4);
}

/* Same run-time choice as Fp (fp.c decides it once at start-up). */
void fr_mul(fr *r, const fr *a, const fr *b) {
    VERIFY_CHECK(mont_less_than(a->l, MOD, 4) && mont_less_than(b->l, MOD, 4));
#if defined(CUZK_HAVE_X86_ASM)
    if (__builtin_expect(fp_asm_enabled(), 1)) {
        fr_mul_adx(r, a, b);
        return;
    }
#endif
    fr_mul_portable(r, a, b);
}

void fr_sqr(fr *r, const fr *a) { fr_mul(r, a, a); }

POW_VARTIME_DEFINE(fr_pow_vartime, fr, fr_sqr, fr_mul, fr_set_one)

void fr_inv(fr *r, const fr *a) { fr_pow_vartime(r, a, FR_EXP_INV.l, 4); }

void fr_from_raw(fr *r, const uint64_t raw[4]) {
    VERIFY_CHECK(mont_less_than(raw, MOD, 4));
    fr t;
    memcpy(t.l, raw, sizeof t.l);
    fr_mul(r, &t, &FR_R2);
}

void fr_to_raw(uint64_t raw[4], const fr *a) {
    static const fr one_plain = {{1, 0, 0, 0}};
    fr t;
    fr_mul(&t, a, &one_plain);
    memcpy(raw, t.l, sizeof t.l);
}

static void load_le(uint64_t raw[4], const uint8_t in[FR_BYTES]) {
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--)
            w = (w << 8) | in[i * 8 + j];
        raw[i] = w;
    }
}

int fr_from_bytes_le(fr *r, const uint8_t in[FR_BYTES]) {
    uint64_t raw[4];
    load_le(raw, in);
    if (!mont_less_than(raw, MOD, 4))
        return 0;
    fr_from_raw(r, raw);
    return 1;
}

void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr *a) {
    uint64_t raw[4];
    fr_to_raw(raw, a);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            out[i * 8 + j] = (uint8_t)(raw[i] >> (8 * j));
}

void fr_from_bytes_le_reduce(fr *r, const uint8_t in[FR_BYTES]) {
    /* v < 2^256 < 3r: subtract r at most twice, then convert. */
    uint64_t raw[4];
    load_le(raw, in);
    for (int k = 0; k < 2 && !mont_less_than(raw, MOD, 4); k++) {
        uint64_t borrow = 0;
        for (int i = 0; i < 4; i++) {
            mont_u128 x = (mont_u128)raw[i] - MOD[i] - borrow;
            raw[i] = (uint64_t)x;
            borrow = (uint64_t)(x >> 64) & 1;
        }
    }
    fr_from_raw(r, raw);
}

void fr_root_of_unity(fr *r, unsigned log_n) {
    fr w = FR_ROOT_OF_UNITY; /* order 2^32 */
    for (unsigned i = log_n; i < FR_TWO_ADICITY; i++)
        fr_sqr(&w, &w);
    *r = w;
}
