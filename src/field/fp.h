/* Fp: the BLS12-381 base field, p = 0x1a0111ea...aaab (381 bits).
 *
 * Elements are 6 little-endian 64-bit limbs in Montgomery form (a * 2^384 mod p),
 * always fully reduced.  Outputs come first; outputs may alias inputs.
 * fp_mul / fp_sqr pick the MULX/ADCX/ADOX path at run time when the CPU has
 * BMI2 + ADX (and CUZK_FIELD_ASM is not 0); the portable path is always built. */
#ifndef CUZK_FIELD_FP_H
#define CUZK_FIELD_FP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t l[6];
} fp;

#define FP_BYTES 48

void fp_set_zero(fp *r);
void fp_set_one(fp *r);
void fp_set_u64(fp *r, uint64_t v);
int fp_is_zero(const fp *a);
int fp_is_one(const fp *a);
int fp_equal(const fp *a, const fp *b);

void fp_add(fp *r, const fp *a, const fp *b);
void fp_sub(fp *r, const fp *a, const fp *b);
void fp_neg(fp *r, const fp *a);
void fp_dbl(fp *r, const fp *a);
void fp_mul(fp *r, const fp *a, const fp *b);
void fp_sqr(fp *r, const fp *a);
/* Both implementations, for tests and benchmarks; fp_mul dispatches. */
void fp_mul_portable(fp *r, const fp *a, const fp *b);
void fp_mul_adx(fp *r, const fp *a, const fp *b);
void fp_sqr_adx(fp *r, const fp *a);
void fp_add_portable(fp *r, const fp *a, const fp *b);
void fp_sub_portable(fp *r, const fp *a, const fp *b);
void fp_add_x86(fp *r, const fp *a, const fp *b);
void fp_sub_x86(fp *r, const fp *a, const fp *b);
/* 1 when the ADX path is in use (CPU support and CUZK_FIELD_ASM != 0). */
int fp_asm_enabled(void);
/* Force the portable path (0) or the CPU's best (1); returns the previous state. */
int fp_asm_select(int use_asm);

/* r = a^e, e given as n little-endian limbs (plain integer); variable time in e. */
void fp_pow_vartime(fp *r, const fp *a, const uint64_t *e, size_t n);
/* r = 1/a; r = 0 when a = 0. */
void fp_inv(fp *r, const fp *a);
/* 1 if a is a square (0 counts as a square). */
int fp_is_square(const fp *a);
/* r = a square root of a and 1 if a is a square; otherwise 0 and r unspecified. */
int fp_sqrt(fp *r, const fp *a);

/* Montgomery <-> plain integer limbs. fp_from_raw requires raw < p. */
void fp_from_raw(fp *r, const uint64_t raw[6]);
void fp_to_raw(uint64_t raw[6], const fp *a);
/* 48-byte big-endian canonical encoding; decoding returns 0 (r untouched) if >= p. */
int fp_from_bytes_be(fp *r, const uint8_t in[FP_BYTES]);
void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp *a);
/* 1 if a > (p-1)/2 as an integer: the zcash "lexicographically largest" test. */
int fp_is_lexicographically_largest(const fp *a);
/* Parity of the canonical value (sign convention of RFC 9380's sgn0). */
int fp_is_odd(const fp *a);

#endif
