/* Generic Montgomery arithmetic over n 64-bit limbs (portable C).
 *
 * One implementation serves Fp (n = 6) and Fr (n = 4): callers pass a constant
 * n and modulus, and the always-inline bodies unroll and fold per field.
 * Preconditions everywhere: inputs are fully reduced (< q), and the modulus'
 * top limb is below 2^63 - 1, which lets the CIOS multiply skip the extra
 * carry word (true for both BLS12-381 primes).  Outputs are fully reduced.
 * Aliasing of outputs with inputs is allowed.  Constant time except where a
 * name says _vartime. */
#ifndef CUZK_FIELD_MONT_H
#define CUZK_FIELD_MONT_H

#include <stddef.h>
#include <stdint.h>

typedef unsigned __int128 mont_u128;

/* Carry/borrow chains: x86-64's ADC/SBB through the intrinsics (GCC turns
 * __int128 chains into much slower code), plain C elsewhere. */
#if defined(__x86_64__)
#include <x86intrin.h>
#define MONT_ADC(c, a, b, out) _addcarry_u64((c), (a), (b), (unsigned long long *)(out))
#define MONT_SBB(c, a, b, out) _subborrow_u64((c), (a), (b), (unsigned long long *)(out))
#else
static inline unsigned char mont_adc_c(unsigned char c, uint64_t a, uint64_t b, uint64_t *out) {
    mont_u128 x = (mont_u128)a + b + c;
    *out = (uint64_t)x;
    return (unsigned char)(x >> 64);
}
static inline unsigned char mont_sbb_c(unsigned char c, uint64_t a, uint64_t b, uint64_t *out) {
    mont_u128 x = (mont_u128)a - b - c;
    *out = (uint64_t)x;
    return (unsigned char)((x >> 64) & 1);
}
#define MONT_ADC(c, a, b, out) mont_adc_c((c), (a), (b), (out))
#define MONT_SBB(c, a, b, out) mont_sbb_c((c), (a), (b), (out))
#endif

#define MONT_INLINE static inline __attribute__((always_inline))
#define MONT_MAX_LIMBS 6

/* r = t - q if that does not borrow, else t (t < 2q). */
MONT_INLINE void mont_reduce_once(uint64_t *r, const uint64_t *t, const uint64_t *q, int n) {
    uint64_t s[MONT_MAX_LIMBS];
    unsigned char borrow = 0;
    for (int i = 0; i < n; i++)
        borrow = MONT_SBB(borrow, t[i], q[i], &s[i]);
    uint64_t keep_t = (uint64_t)0 - borrow;
    for (int i = 0; i < n; i++)
        r[i] = (t[i] & keep_t) | (s[i] & ~keep_t);
}

/* r = a + b mod q (a, b < q). */
MONT_INLINE void mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *q,
                          int n) {
    uint64_t t[MONT_MAX_LIMBS];
    unsigned char carry = 0;
    for (int i = 0; i < n; i++)
        carry = MONT_ADC(carry, a[i], b[i], &t[i]);
    mont_reduce_once(r, t, q, n); /* 2q < 2^(64n): no carry out */
}

/* r = a - b mod q. */
MONT_INLINE void mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *q,
                          int n) {
    uint64_t t[MONT_MAX_LIMBS];
    unsigned char borrow = 0, carry = 0;
    for (int i = 0; i < n; i++)
        borrow = MONT_SBB(borrow, a[i], b[i], &t[i]);
    uint64_t mask = (uint64_t)0 - borrow; /* add q back when a < b */
    for (int i = 0; i < n; i++)
        carry = MONT_ADC(carry, t[i], q[i] & mask, &r[i]);
}

/* r = -a mod q (0 stays 0). */
MONT_INLINE void mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *q, int n) {
    uint64_t nz = 0;
    unsigned char borrow = 0;
    for (int i = 0; i < n; i++)
        nz |= a[i];
    uint64_t mask = (uint64_t)0 - (uint64_t)(nz != 0);
    for (int i = 0; i < n; i++) {
        uint64_t d;
        borrow = MONT_SBB(borrow, q[i], a[i], &d);
        r[i] = d & mask;
    }
}

/* r = a * b * 2^(-64n) mod q: CIOS, interleaving the product and the
 * reduction row by row ("no-carry" form, valid for top limb < 2^63 - 1). */
MONT_INLINE void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *q,
                          uint64_t inv, int n) {
    uint64_t t[MONT_MAX_LIMBS] = {0};
#pragma GCC unroll 6
    for (int i = 0; i < n; i++) {
        mont_u128 x = (mont_u128)a[0] * b[i] + t[0];
        uint64_t c1 = (uint64_t)(x >> 64);
        uint64_t t0 = (uint64_t)x;
        uint64_t m = t0 * inv;
        mont_u128 y = (mont_u128)m * q[0] + t0;
        uint64_t c2 = (uint64_t)(y >> 64);
#pragma GCC unroll 6
        for (int j = 1; j < n; j++) {
            x = (mont_u128)a[j] * b[i] + t[j] + c1;
            c1 = (uint64_t)(x >> 64);
            y = (mont_u128)m * q[j] + (uint64_t)x + c2;
            c2 = (uint64_t)(y >> 64);
            t[j - 1] = (uint64_t)y;
        }
        t[n - 1] = c1 + c2;
    }
    mont_reduce_once(r, t, q, n); /* t < 2q */
}

/* 1 if a < b as n-limb integers (variable time in nothing but n). */
MONT_INLINE int mont_less_than(const uint64_t *a, const uint64_t *b, int n) {
    unsigned char borrow = 0;
    uint64_t d;
    for (int i = 0; i < n; i++)
        borrow = MONT_SBB(borrow, a[i], b[i], &d);
    return (int)borrow;
}

MONT_INLINE int mont_is_zero(const uint64_t *a, int n) {
    uint64_t acc = 0;
    for (int i = 0; i < n; i++)
        acc |= a[i];
    return acc == 0;
}

MONT_INLINE int mont_equal(const uint64_t *a, const uint64_t *b, int n) {
    uint64_t acc = 0;
    for (int i = 0; i < n; i++)
        acc |= a[i] ^ b[i];
    return acc == 0;
}

#endif
