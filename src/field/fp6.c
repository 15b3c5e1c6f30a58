/* Fp6 arithmetic over Fp2 with xi = u + 1 (v^3 = xi).  Every function writes its
 * result through temporaries, so outputs may alias inputs.
 * Multiplication and squaring follow Devegili, O hEigeartaigh, Scott, Dahab,
 * "Multiplication and squaring on pairing-friendly fields" (eprint 2006/471):
 * Karatsuba for the product, Chung-Hasan SQR2 for the square. */
#include "field/fp6.h"

#include <string.h>

#include "field/constants.h"

void fp6_set_zero(fp6 *r) { memset(r, 0, sizeof *r); }

void fp6_set_one(fp6 *r) {
    fp2_set_one(&r->c0);
    fp2_set_zero(&r->c1);
    fp2_set_zero(&r->c2);
}

int fp6_is_zero(const fp6 *a) {
    return fp2_is_zero(&a->c0) & fp2_is_zero(&a->c1) & fp2_is_zero(&a->c2);
}

int fp6_is_one(const fp6 *a) {
    return fp2_is_one(&a->c0) & fp2_is_zero(&a->c1) & fp2_is_zero(&a->c2);
}

int fp6_equal(const fp6 *a, const fp6 *b) {
    return fp2_equal(&a->c0, &b->c0) & fp2_equal(&a->c1, &b->c1) & fp2_equal(&a->c2, &b->c2);
}

void fp6_add(fp6 *r, const fp6 *a, const fp6 *b) {
    fp2_add(&r->c0, &a->c0, &b->c0);
    fp2_add(&r->c1, &a->c1, &b->c1);
    fp2_add(&r->c2, &a->c2, &b->c2);
}

void fp6_sub(fp6 *r, const fp6 *a, const fp6 *b) {
    fp2_sub(&r->c0, &a->c0, &b->c0);
    fp2_sub(&r->c1, &a->c1, &b->c1);
    fp2_sub(&r->c2, &a->c2, &b->c2);
}

void fp6_neg(fp6 *r, const fp6 *a) {
    fp2_neg(&r->c0, &a->c0);
    fp2_neg(&r->c1, &a->c1);
    fp2_neg(&r->c2, &a->c2);
}

void fp6_dbl(fp6 *r, const fp6 *a) {
    fp2_dbl(&r->c0, &a->c0);
    fp2_dbl(&r->c1, &a->c1);
    fp2_dbl(&r->c2, &a->c2);
}

void fp6_mul(fp6 *r, const fp6 *a, const fp6 *b) {
    /* v0 = a0 b0, v1 = a1 b1, v2 = a2 b2;
     * c0 = v0 + xi((a1 + a2)(b1 + b2) - v1 - v2)
     * c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2
     * c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1 */
    fp2 v0, v1, v2, s, t, c0, c1, c2;
    fp2_mul(&v0, &a->c0, &b->c0);
    fp2_mul(&v1, &a->c1, &b->c1);
    fp2_mul(&v2, &a->c2, &b->c2);

    fp2_add(&s, &a->c1, &a->c2);
    fp2_add(&t, &b->c1, &b->c2);
    fp2_mul(&c0, &s, &t);
    fp2_sub(&c0, &c0, &v1);
    fp2_sub(&c0, &c0, &v2);
    fp2_mul_by_nonresidue(&c0, &c0);
    fp2_add(&c0, &c0, &v0);

    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&t, &b->c0, &b->c1);
    fp2_mul(&c1, &s, &t);
    fp2_sub(&c1, &c1, &v0);
    fp2_sub(&c1, &c1, &v1);
    fp2_mul_by_nonresidue(&t, &v2);
    fp2_add(&c1, &c1, &t);

    fp2_add(&s, &a->c0, &a->c2);
    fp2_add(&t, &b->c0, &b->c2);
    fp2_mul(&c2, &s, &t);
    fp2_sub(&c2, &c2, &v0);
    fp2_sub(&c2, &c2, &v2);
    fp2_add(&c2, &c2, &v1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void fp6_sqr(fp6 *r, const fp6 *a) {
    /* s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2;
     * c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4
     * (c2 = a1^2 + 2 a0 a2, which the sum reproduces). */
    fp2 s0, s1, s2, s3, s4, t;
    fp2_sqr(&s0, &a->c0);
    fp2_mul(&s1, &a->c0, &a->c1);
    fp2_dbl(&s1, &s1);
    fp2_sub(&t, &a->c0, &a->c1);
    fp2_add(&t, &t, &a->c2);
    fp2_sqr(&s2, &t);
    fp2_mul(&s3, &a->c1, &a->c2);
    fp2_dbl(&s3, &s3);
    fp2_sqr(&s4, &a->c2);

    fp2_mul_by_nonresidue(&t, &s3);
    fp2_add(&r->c0, &s0, &t);
    fp2_add(&t, &s1, &s2);
    fp2_add(&t, &t, &s3);
    fp2_sub(&t, &t, &s0);
    fp2_sub(&r->c2, &t, &s4);
    fp2_mul_by_nonresidue(&t, &s4);
    fp2_add(&r->c1, &s1, &t);
}

void fp6_mul_by_nonresidue(fp6 *r, const fp6 *a) {
    /* (a0 + a1 v + a2 v^2) v = xi a2 + a0 v + a1 v^2 */
    fp2 t;
    fp2_mul_by_nonresidue(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

void fp6_mul_by_fp2(fp6 *r, const fp6 *a, const fp2 *b) {
    fp2 t = *b; /* b may alias a coefficient of r */
    fp2_mul(&r->c0, &a->c0, &t);
    fp2_mul(&r->c1, &a->c1, &t);
    fp2_mul(&r->c2, &a->c2, &t);
}

void fp6_mul_by_01(fp6 *r, const fp6 *a, const fp2 *b0, const fp2 *b1) {
    /* (a0 + a1 v + a2 v^2)(b0 + b1 v):
     * c0 = a0 b0 + xi a2 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1,
     * c2 = a1 b1 + a2 b0 */
    fp2 v0, v1, s, t, c0, c1, c2;
    fp2_mul(&v0, &a->c0, b0);
    fp2_mul(&v1, &a->c1, b1);

    fp2_mul(&c0, &a->c2, b1);
    fp2_mul_by_nonresidue(&c0, &c0);
    fp2_add(&c0, &c0, &v0);

    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&t, b0, b1);
    fp2_mul(&c1, &s, &t);
    fp2_sub(&c1, &c1, &v0);
    fp2_sub(&c1, &c1, &v1);

    fp2_mul(&c2, &a->c2, b0);
    fp2_add(&c2, &c2, &v1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void fp6_mul_by_1(fp6 *r, const fp6 *a, const fp2 *b1) {
    /* (a0 + a1 v + a2 v^2) b1 v = xi a2 b1 + a0 b1 v + a1 b1 v^2 */
    fp2 c0, c1, c2;
    fp2_mul(&c0, &a->c2, b1);
    fp2_mul_by_nonresidue(&c0, &c0);
    fp2_mul(&c1, &a->c0, b1);
    fp2_mul(&c2, &a->c1, b1);
    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void fp6_inv(fp6 *r, const fp6 *a) {
    /* The adjugate of multiplication by a:
     * t0 = a0^2 - xi a1 a2, t1 = xi a2^2 - a0 a1, t2 = a1^2 - a0 a2,
     * a (t0 + t1 v + t2 v^2) = a0 t0 + xi (a2 t1 + a1 t2) =: d in Fp2. */
    fp2 t0, t1, t2, s, d;
    fp2_sqr(&t0, &a->c0);
    fp2_mul(&s, &a->c1, &a->c2);
    fp2_mul_by_nonresidue(&s, &s);
    fp2_sub(&t0, &t0, &s);

    fp2_sqr(&t1, &a->c2);
    fp2_mul_by_nonresidue(&t1, &t1);
    fp2_mul(&s, &a->c0, &a->c1);
    fp2_sub(&t1, &t1, &s);

    fp2_sqr(&t2, &a->c1);
    fp2_mul(&s, &a->c0, &a->c2);
    fp2_sub(&t2, &t2, &s);

    fp2_mul(&d, &a->c2, &t1);
    fp2_mul(&s, &a->c1, &t2);
    fp2_add(&d, &d, &s);
    fp2_mul_by_nonresidue(&d, &d);
    fp2_mul(&s, &a->c0, &t0);
    fp2_add(&d, &d, &s);
    fp2_inv(&d, &d); /* 0 when a = 0, making r = 0 */

    fp2_mul(&r->c0, &t0, &d);
    fp2_mul(&r->c1, &t1, &d);
    fp2_mul(&r->c2, &t2, &d);
}

void fp6_frobenius(fp6 *r, const fp6 *a, unsigned power) {
    /* (c v^k)^(p^i) = c^(p^i) v^k xi^(k (p^i - 1)/3): the constants are
     * xi^((p^i - 1)/3) and its square, with period 6 in i. */
    unsigned i = power % 6;
    fp2_frobenius(&r->c0, &a->c0, power);
    fp2_frobenius(&r->c1, &a->c1, power);
    fp2_frobenius(&r->c2, &a->c2, power);
    fp2_mul(&r->c1, &r->c1, &FP6_FROB_C1[i]);
    fp2_mul(&r->c2, &r->c2, &FP6_FROB_C2[i]);
}
