/* Fp6 = Fp2[v]/(v^3 - (u + 1)).  An element is c0 + c1*v + c2*v^2.
 *
 * The tower of zkcrypto bls12_381, blst and @noble/curves, so coefficients
 * compare one for one with theirs.  Outputs come first and may alias inputs.
 * Constant time (no branches on values). */
#ifndef CUZK_FIELD_FP6_H
#define CUZK_FIELD_FP6_H

#include "field/fp2.h"

typedef struct {
    fp2 c0, c1, c2;
} fp6;

void fp6_set_zero(fp6 *r);
void fp6_set_one(fp6 *r);
int fp6_is_zero(const fp6 *a);
int fp6_is_one(const fp6 *a);
int fp6_equal(const fp6 *a, const fp6 *b);

void fp6_add(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_sub(fp6 *r, const fp6 *a, const fp6 *b);
void fp6_neg(fp6 *r, const fp6 *a);
void fp6_dbl(fp6 *r, const fp6 *a);
/* Karatsuba: 6 Fp2 multiplications. */
void fp6_mul(fp6 *r, const fp6 *a, const fp6 *b);
/* Chung-Hasan SQR2: 2 Fp2 multiplications + 3 squarings. */
void fp6_sqr(fp6 *r, const fp6 *a);
/* r = a * v (v^3 = u + 1): a rotation and one Fp2 non-residue multiply. */
void fp6_mul_by_nonresidue(fp6 *r, const fp6 *a);
/* r = a * b, b in Fp2. */
void fp6_mul_by_fp2(fp6 *r, const fp6 *a, const fp2 *b);
/* Sparse products for Miller-loop lines: r = a * (b0 + b1 v) (5 Fp2 muls)
 * and r = a * (b1 v) (3 Fp2 muls). */
void fp6_mul_by_01(fp6 *r, const fp6 *a, const fp2 *b0, const fp2 *b1);
void fp6_mul_by_1(fp6 *r, const fp6 *a, const fp2 *b1);
/* r = 1/a; 0 when a = 0. */
void fp6_inv(fp6 *r, const fp6 *a);
/* r = a^(p^power), any power (the map has period 6). */
void fp6_frobenius(fp6 *r, const fp6 *a, unsigned power);

#endif
