/* Fp12 = Fp6[w]/(w^2 - v).  An element is c0 + c1*w; w^6 = v^3 = u + 1.
 *
 * Same tower as zkcrypto bls12_381 and @noble/curves.  Outputs come first and
 * may alias inputs.  Constant time except where a name says _vartime. */
#ifndef CUZK_FIELD_FP12_H
#define CUZK_FIELD_FP12_H

#include <stddef.h>
#include <stdint.h>

#include "field/fp6.h"

typedef struct {
    fp6 c0, c1;
} fp12;

/* 12 Fp of 48 bytes big-endian, c0 before c1 at every level:
 * c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1. */
#define FP12_BYTES 576

void fp12_set_zero(fp12 *r);
void fp12_set_one(fp12 *r);
int fp12_is_one(const fp12 *a);
int fp12_equal(const fp12 *a, const fp12 *b);

/* Karatsuba: 3 Fp6 multiplications (54 Fp). */
void fp12_mul(fp12 *r, const fp12 *a, const fp12 *b);
/* Complex squaring: 2 Fp6 multiplications (36 Fp). */
void fp12_sqr(fp12 *r, const fp12 *a);
/* r = 1/a; 0 when a = 0. */
void fp12_inv(fp12 *r, const fp12 *a);
/* r = c0 - c1 w = a^(p^6); the inverse when a is in the cyclotomic subgroup. */
void fp12_conj(fp12 *r, const fp12 *a);
/* r = a^(p^power), any power (the map has period 12). */
void fp12_frobenius(fp12 *r, const fp12 *a, unsigned power);
/* r = a * (b0 + b1 v + b4 v w): the sparse shape of an M-twist line,
 * in the basis (1, v, v^2, w, v w, v^2 w) slots 0, 1 and 4.  13 Fp2 muls. */
void fp12_mul_by_014(fp12 *r, const fp12 *a, const fp2 *b0, const fp2 *b1, const fp2 *b4);
/* Granger-Scott squaring (eprint 2009/565 s.3.1), 9 Fp2 squarings.
 * Precondition: a is in the cyclotomic subgroup (a^(p^4 - p^2 + 1) = 1),
 * e.g. any value after the easy part of the final exponentiation;
 * otherwise r is not a^2. */
void fp12_cyclotomic_sqr(fp12 *r, const fp12 *a);
/* r = a^e, e plain little-endian limbs (n of them); variable time in e. */
void fp12_pow_vartime(fp12 *r, const fp12 *a, const uint64_t *e, size_t n);

void fp12_to_bytes_be(uint8_t out[FP12_BYTES], const fp12 *a);

#endif
