/* Fp2 = Fp[u]/(u^2 + 1).  An element is c0 + c1*u.
 * Byte encoding (zcash/bellperson): c1 then c0, each 48 bytes big-endian. */
#ifndef CUZK_FIELD_FP2_H
#define CUZK_FIELD_FP2_H

#include "field/fp.h"

typedef struct {
    fp c0, c1;
} fp2;

#define FP2_BYTES 96

void fp2_set_zero(fp2 *r);
void fp2_set_one(fp2 *r);
int fp2_is_zero(const fp2 *a);
int fp2_is_one(const fp2 *a);
int fp2_equal(const fp2 *a, const fp2 *b);

void fp2_add(fp2 *r, const fp2 *a, const fp2 *b);
void fp2_sub(fp2 *r, const fp2 *a, const fp2 *b);
void fp2_neg(fp2 *r, const fp2 *a);
void fp2_dbl(fp2 *r, const fp2 *a);
void fp2_conj(fp2 *r, const fp2 *a);
void fp2_mul(fp2 *r, const fp2 *a, const fp2 *b);
void fp2_sqr(fp2 *r, const fp2 *a);
void fp2_mul_fp(fp2 *r, const fp2 *a, const fp *b);
/* r = a * (u + 1), the non-residue that builds Fp6. */
void fp2_mul_by_nonresidue(fp2 *r, const fp2 *a);
/* r = a^(p^power): conjugation when power is odd. */
void fp2_frobenius(fp2 *r, const fp2 *a, unsigned power);
/* r = 1/a; 0 when a = 0. */
void fp2_inv(fp2 *r, const fp2 *a);
/* r = a^e, e plain little-endian limbs; variable time in e. */
void fp2_pow_vartime(fp2 *r, const fp2 *a, const uint64_t *e, size_t n);
int fp2_is_square(const fp2 *a);
/* 1 and a root in r if a is a square; 0 otherwise (r unspecified). */
int fp2_sqrt(fp2 *r, const fp2 *a);
/* zcash ordering: c1 decides, c0 only when c1 = 0. */
int fp2_is_lexicographically_largest(const fp2 *a);

/* Decoding returns 0 (r untouched) when either coordinate is >= p. */
int fp2_from_bytes_be(fp2 *r, const uint8_t in[FP2_BYTES]);
void fp2_to_bytes_be(uint8_t out[FP2_BYTES], const fp2 *a);

#endif
