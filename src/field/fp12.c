/* Fp12 arithmetic over Fp6 with w^2 = v.  Outputs may alias inputs: every
 * function finishes its reads before it writes r. */
#include "field/fp12.h"

#include <string.h>

#include "field/constants.h"

void fp12_set_zero(fp12 *r) { memset(r, 0, sizeof *r); }

void fp12_set_one(fp12 *r) {
    fp6_set_one(&r->c0);
    fp6_set_zero(&r->c1);
}

int fp12_is_one(const fp12 *a) { return fp6_is_one(&a->c0) & fp6_is_zero(&a->c1); }

int fp12_equal(const fp12 *a, const fp12 *b) {
    return fp6_equal(&a->c0, &b->c0) & fp6_equal(&a->c1, &b->c1);
}

void fp12_mul(fp12 *r, const fp12 *a, const fp12 *b) {
    /* (a0 + a1 w)(b0 + b1 w) = (a0 b0 + v a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) w */
    fp6 t0, t1, s, t;
    fp6_mul(&t0, &a->c0, &b->c0);
    fp6_mul(&t1, &a->c1, &b->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_add(&t, &b->c0, &b->c1);
    fp6_mul(&s, &s, &t);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

void fp12_sqr(fp12 *r, const fp12 *a) {
    /* (a0 + a1 w)^2 = (a0^2 + v a1^2) + 2 a0 a1 w, with
     * a0^2 + v a1^2 = (a0 + a1)(a0 + v a1) - a0 a1 - v a0 a1 */
    fp6 m, s, t;
    fp6_mul(&m, &a->c0, &a->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_nonresidue(&t, &a->c1);
    fp6_add(&t, &t, &a->c0);
    fp6_mul(&s, &s, &t);
    fp6_sub(&s, &s, &m);
    fp6_mul_by_nonresidue(&t, &m);
    fp6_sub(&r->c0, &s, &t);
    fp6_dbl(&r->c1, &m);
}

void fp12_inv(fp12 *r, const fp12 *a) {
    /* 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2) */
    fp6 d, t;
    fp6_sqr(&d, &a->c0);
    fp6_sqr(&t, &a->c1);
    fp6_mul_by_nonresidue(&t, &t);
    fp6_sub(&d, &d, &t);
    fp6_inv(&d, &d);
    fp6_mul(&r->c0, &a->c0, &d);
    fp6_mul(&t, &a->c1, &d);
    fp6_neg(&r->c1, &t);
}

void fp12_conj(fp12 *r, const fp12 *a) {
    r->c0 = a->c0;
    fp6_neg(&r->c1, &a->c1);
}

void fp12_frobenius(fp12 *r, const fp12 *a, unsigned power) {
    /* (c w)^(p^i) = c^(p^i) w xi^((p^i - 1)/6): one Fp2 constant on all of c1 */
    unsigned i = power % 12;
    fp6_frobenius(&r->c0, &a->c0, power);
    fp6_frobenius(&r->c1, &a->c1, power);
    fp6_mul_by_fp2(&r->c1, &r->c1, &FP12_FROB_C1[i]);
}

void fp12_mul_by_014(fp12 *r, const fp12 *a, const fp2 *b0, const fp2 *b1, const fp2 *b4) {
    /* l = L0 + L1 w with L0 = b0 + b1 v, L1 = b4 v; Karatsuba as in fp12_mul,
     * each Fp6 product sparse: a0 L0 (5 Fp2 muls), a1 L1 (3), (a0 + a1)(L0 + L1) (5). */
    fp6 t0, t1, s;
    fp2 b14;
    fp6_mul_by_01(&t0, &a->c0, b0, b1);
    fp6_mul_by_1(&t1, &a->c1, b4);
    fp2_add(&b14, b1, b4);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_01(&s, &s, b0, &b14);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

/* (x + y s)^2 in Fp4 = Fp2[s]/(s^2 - xi): (x^2 + xi y^2) + ((x + y)^2 - x^2 - y^2) s */
static void fp4_sqr(fp2 *r0, fp2 *r1, const fp2 *x, const fp2 *y) {
    fp2 x2, y2, t;
    fp2_sqr(&x2, x);
    fp2_sqr(&y2, y);
    fp2_add(&t, x, y);
    fp2_sqr(&t, &t);
    fp2_sub(&t, &t, &x2);
    fp2_sub(r1, &t, &y2);
    fp2_mul_by_nonresidue(&y2, &y2);
    fp2_add(r0, &x2, &y2);
}

/* r = 3 t - 2 a (the "minus" half of Granger-Scott) */
static void gs_minus(fp2 *r, const fp2 *t, const fp2 *a) {
    fp2 u;
    fp2_sub(&u, t, a);
    fp2_dbl(&u, &u);
    fp2_add(r, &u, t);
}

/* r = 3 t + 2 a */
static void gs_plus(fp2 *r, const fp2 *t, const fp2 *a) {
    fp2 u;
    fp2_add(&u, t, a);
    fp2_dbl(&u, &u);
    fp2_add(r, &u, t);
}

void fp12_cyclotomic_sqr(fp12 *r, const fp12 *a) {
    /* View Fp12 as Fp4[w]/(w^3 - s), s = v w, Fp4 = Fp2[s]/(s^2 - xi):
     * a = A0 + A1 w + A2 w^2 with A0 = c0.c0 + c1.c1 s, A1 = c1.c0 + c0.c2 s,
     * A2 = c0.c1 + c1.c2 s.  For a in the cyclotomic subgroup,
     * a^2 = (3 A0^2 - 2 conj A0) + (3 s A2^2 + 2 conj A1) w + (3 A1^2 - 2 conj A2) w^2,
     * conj being s -> -s. */
    fp2 t00, t01, t10, t11, t20, t21;
    fp4_sqr(&t00, &t01, &a->c0.c0, &a->c1.c1); /* A0^2 */
    fp4_sqr(&t10, &t11, &a->c1.c0, &a->c0.c2); /* A1^2 */
    fp4_sqr(&t20, &t21, &a->c0.c1, &a->c1.c2); /* A2^2 */
    fp2_mul_by_nonresidue(&t21, &t21);         /* s A2^2 = xi t21 + t20 s */

    gs_minus(&r->c0.c0, &t00, &a->c0.c0);
    gs_plus(&r->c1.c1, &t01, &a->c1.c1);
    gs_plus(&r->c1.c0, &t21, &a->c1.c0);
    gs_minus(&r->c0.c2, &t20, &a->c0.c2);
    gs_minus(&r->c0.c1, &t10, &a->c0.c1);
    gs_plus(&r->c1.c2, &t11, &a->c1.c2);
}

void fp12_pow_vartime(fp12 *r, const fp12 *a, const uint64_t *e, size_t n) {
    fp12 acc, base = *a;
    fp12_set_one(&acc);
    size_t top = n * 64;
    while (top > 0 && !((e[(top - 1) / 64] >> ((top - 1) % 64)) & 1))
        top--;
    for (size_t i = top; i-- > 0;) {
        fp12_sqr(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1)
            fp12_mul(&acc, &acc, &base);
    }
    *r = acc;
}

void fp12_to_bytes_be(uint8_t out[FP12_BYTES], const fp12 *a) {
    const fp6 *h[2] = {&a->c0, &a->c1};
    for (int i = 0; i < 2; i++) {
        const fp2 *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            fp_to_bytes_be(out, &c[j]->c0);
            fp_to_bytes_be(out + FP_BYTES, &c[j]->c1);
            out += 2 * FP_BYTES;
        }
    }
}
