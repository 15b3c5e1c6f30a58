/* Fr: the BLS12-381 scalar field, r = 0x73eda753...00000001 (255 bits).
 *
 * Elements are 4 little-endian 64-bit limbs in Montgomery form (a * 2^256 mod r),
 * fully reduced.  Byte encoding is bellperson's to_repr: 32 bytes little-endian
 * canonical.  Two-adicity 32; roots of unity come from the generator 7. */
#ifndef CUZK_FIELD_FR_H
#define CUZK_FIELD_FR_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t l[4];
} fr;

#define FR_BYTES 32

void fr_set_zero(fr *r);
void fr_set_one(fr *r);
void fr_set_u64(fr *r, uint64_t v);
int fr_is_zero(const fr *a);
int fr_is_one(const fr *a);
int fr_equal(const fr *a, const fr *b);

void fr_add(fr *r, const fr *a, const fr *b);
void fr_sub(fr *r, const fr *a, const fr *b);
void fr_neg(fr *r, const fr *a);
void fr_dbl(fr *r, const fr *a);
void fr_mul(fr *r, const fr *a, const fr *b);
void fr_sqr(fr *r, const fr *a);
/* Both implementations; fr_mul/fr_add/fr_sub dispatch like fp_mul.  Hot loops
 * that already know the path (the NTT kernels) may call the _adx one directly. */
void fr_mul_portable(fr *r, const fr *a, const fr *b);
void fr_mul_adx(fr *r, const fr *a, const fr *b);
void fr_add_portable(fr *r, const fr *a, const fr *b);
void fr_sub_portable(fr *r, const fr *a, const fr *b);
void fr_add_x86(fr *r, const fr *a, const fr *b);
void fr_sub_x86(fr *r, const fr *a, const fr *b);
void fr_pow_vartime(fr *r, const fr *a, const uint64_t *e, size_t n);
/* r = 1/a; r = 0 when a = 0. */
void fr_inv(fr *r, const fr *a);

/* Montgomery <-> plain limbs; fr_from_raw requires raw < r. */
void fr_from_raw(fr *r, const uint64_t raw[4]);
void fr_to_raw(uint64_t raw[4], const fr *a);
/* 32-byte little-endian canonical; decoding returns 0 (r untouched) if >= r. */
int fr_from_bytes_le(fr *r, const uint8_t in[FR_BYTES]);
void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr *a);
/* Any 256-bit little-endian value, reduced mod r (for scalars given as bytes). */
void fr_from_bytes_le_reduce(fr *r, const uint8_t in[FR_BYTES]);

/* omega = a primitive 2^log_n-th root of unity, 7^((r-1)/2^log_n); 0 <= log_n <= 32. */
void fr_root_of_unity(fr *r, unsigned log_n);

#endif
