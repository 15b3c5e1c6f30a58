/* Fp2 arithmetic: Karatsuba multiply (3 Fp muls), complex squaring (2 Fp muls),
 * inversion through the norm, and the p = 3 mod 4 square root of
 * Adj & Rodriguez-Henriquez (eprint 2012/685, Algorithm 9). */
#include "field/fp2.h"

#include <string.h>

#include "field/constants.h"
#include "field/pow_template.h"

void fp2_set_zero(fp2 *r) { memset(r, 0, sizeof *r); }
void fp2_set_one(fp2 *r) {
    r->c0 = FP_ONE;
    fp_set_zero(&r->c1);
}
int fp2_is_zero(const fp2 *a) { return fp_is_zero(&a->c0) & fp_is_zero(&a->c1); }
int fp2_is_one(const fp2 *a) { return fp_is_one(&a->c0) & fp_is_zero(&a->c1); }
int fp2_equal(const fp2 *a, const fp2 *b) {
    return fp_equal(&a->c0, &b->c0) & fp_equal(&a->c1, &b->c1);
}

void fp2_add(fp2 *r, const fp2 *a, const fp2 *b) {
    fp_add(&r->c0, &a->c0, &b->c0);
    fp_add(&r->c1, &a->c1, &b->c1);
}

void fp2_sub(fp2 *r, const fp2 *a, const fp2 *b) {
    fp_sub(&r->c0, &a->c0, &b->c0);
    fp_sub(&r->c1, &a->c1, &b->c1);
}

void fp2_neg(fp2 *r, const fp2 *a) {
    fp_neg(&r->c0, &a->c0);
    fp_neg(&r->c1, &a->c1);
}

void fp2_dbl(fp2 *r, const fp2 *a) {
    fp_dbl(&r->c0, &a->c0);
    fp_dbl(&r->c1, &a->c1);
}

void fp2_conj(fp2 *r, const fp2 *a) {
    r->c0 = a->c0;
    fp_neg(&r->c1, &a->c1);
}

void fp2_mul(fp2 *r, const fp2 *a, const fp2 *b) {
    /* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u */
    fp t0, t1, s0, s1;
    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_add(&s0, &a->c0, &a->c1);
    fp_add(&s1, &b->c0, &b->c1);
    fp_mul(&s0, &s0, &s1);
    fp_sub(&r->c0, &t0, &t1);
    fp_sub(&s0, &s0, &t0);
    fp_sub(&r->c1, &s0, &t1);
}

void fp2_sqr(fp2 *r, const fp2 *a) {
    /* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
    fp s, d, m;
    fp_add(&s, &a->c0, &a->c1);
    fp_sub(&d, &a->c0, &a->c1);
    fp_mul(&m, &a->c0, &a->c1);
    fp_mul(&r->c0, &s, &d);
    fp_dbl(&r->c1, &m);
}

void fp2_mul_fp(fp2 *r, const fp2 *a, const fp *b) {
    fp_mul(&r->c0, &a->c0, b);
    fp_mul(&r->c1, &a->c1, b);
}

void fp2_mul_by_nonresidue(fp2 *r, const fp2 *a) {
    /* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
    fp t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

void fp2_frobenius(fp2 *r, const fp2 *a, unsigned power) {
    if (power & 1)
        fp2_conj(r, a);
    else
        *r = *a;
}

void fp2_inv(fp2 *r, const fp2 *a) {
    /* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2) */
    fp n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    fp_inv(&n, &n);
    fp_mul(&r->c0, &a->c0, &n);
    fp_mul(&t, &a->c1, &n);
    fp_neg(&r->c1, &t);
}

POW_VARTIME_DEFINE(fp2_pow_vartime, fp2, fp2_sqr, fp2_mul, fp2_set_one)

int fp2_is_square(const fp2 *a) {
    /* a is a square in Fp2 iff its norm a0^2 + a1^2 is a square in Fp. */
    fp n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    return fp_is_square(&n);
}

int fp2_sqrt(fp2 *r, const fp2 *a) {
    if (fp2_is_zero(a)) {
        fp2_set_zero(r);
        return 1;
    }
    fp2 a1, alpha, x0, x, check, minus_one;
    fp2_pow_vartime(&a1, a, FP_EXP_SQRT_FP2.l, 6); /* a^((p-3)/4) */
    fp2_sqr(&alpha, &a1);
    fp2_mul(&alpha, &alpha, a); /* a^((p-1)/2) */
    fp2_mul(&x0, &a1, a);       /* a^((p+1)/4) */
    fp2_set_one(&minus_one);
    fp2_neg(&minus_one, &minus_one);
    if (fp2_equal(&alpha, &minus_one)) {
        /* x = u * x0 */
        fp_neg(&x.c0, &x0.c1);
        x.c1 = x0.c0;
    } else {
        fp2 b;
        fp2_set_one(&b);
        fp2_add(&b, &b, &alpha);
        fp2_pow_vartime(&b, &b, FP_EXP_LEGENDRE.l, 6); /* (1 + alpha)^((p-1)/2) */
        fp2_mul(&x, &b, &x0);
    }
    fp2_sqr(&check, &x);
    if (!fp2_equal(&check, a))
        return 0;
    *r = x;
    return 1;
}

int fp2_is_lexicographically_largest(const fp2 *a) {
    return fp_is_lexicographically_largest(&a->c1) |
           (fp_is_zero(&a->c1) & fp_is_lexicographically_largest(&a->c0));
}

int fp2_from_bytes_be(fp2 *r, const uint8_t in[FP2_BYTES]) {
    fp c0, c1;
    if (!fp_from_bytes_be(&c1, in) || !fp_from_bytes_be(&c0, in + FP_BYTES))
        return 0;
    r->c0 = c0;
    r->c1 = c1;
    return 1;
}

void fp2_to_bytes_be(uint8_t out[FP2_BYTES], const fp2 *a) {
    fp_to_bytes_be(out, &a->c1);
    fp_to_bytes_be(out + FP_BYTES, &a->c0);
}
