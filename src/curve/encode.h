/* Point encodings exactly as zcash/bls12_381 and bellperson write them.
 *
 * Big-endian coordinates; G2 writes each Fp2 as c1 then c0.  The top three
 * bits of byte 0 are flags: 0x80 compressed, 0x40 point at infinity,
 * 0x20 (compressed only) y is the lexicographically larger root.
 *   G1: compressed 48 B, uncompressed 96 B.  G2: 96 B and 192 B.
 * Checked decoders accept exactly the encodings the writers produce for
 * points of the order-r subgroup: flags consistent, coordinates < p, on the
 * curve, in the subgroup.  _unchecked decoders (for trusted parameter files)
 * check flags and canonical coordinates only. */
#ifndef CUZK_CURVE_ENCODE_H
#define CUZK_CURVE_ENCODE_H

#include <stdint.h>

#include "curve/g1.h"
#include "curve/g2.h"

#define G1_COMPRESSED_BYTES 48
#define G1_UNCOMPRESSED_BYTES 96
#define G2_COMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192

typedef enum {
    CURVE_OK = 0,
    CURVE_ERR_FLAGS,          /* flag bits do not fit the encoding */
    CURVE_ERR_NOT_CANONICAL,  /* a coordinate is >= p */
    CURVE_ERR_NOT_ON_CURVE,   /* no such point (or no square root for x) */
    CURVE_ERR_NOT_IN_SUBGROUP /* on the curve, outside the order-r subgroup */
} curve_err;

const char *curve_err_str(curve_err e);

void g1_to_compressed(uint8_t out[G1_COMPRESSED_BYTES], const g1_affine *p);
void g1_to_uncompressed(uint8_t out[G1_UNCOMPRESSED_BYTES], const g1_affine *p);
curve_err g1_from_compressed(g1_affine *r, const uint8_t in[G1_COMPRESSED_BYTES]);
curve_err g1_from_uncompressed(g1_affine *r, const uint8_t in[G1_UNCOMPRESSED_BYTES]);
curve_err g1_from_compressed_unchecked(g1_affine *r, const uint8_t in[G1_COMPRESSED_BYTES]);
curve_err g1_from_uncompressed_unchecked(g1_affine *r, const uint8_t in[G1_UNCOMPRESSED_BYTES]);

void g2_to_compressed(uint8_t out[G2_COMPRESSED_BYTES], const g2_affine *p);
void g2_to_uncompressed(uint8_t out[G2_UNCOMPRESSED_BYTES], const g2_affine *p);
curve_err g2_from_compressed(g2_affine *r, const uint8_t in[G2_COMPRESSED_BYTES]);
curve_err g2_from_uncompressed(g2_affine *r, const uint8_t in[G2_UNCOMPRESSED_BYTES]);
curve_err g2_from_compressed_unchecked(g2_affine *r, const uint8_t in[G2_COMPRESSED_BYTES]);
curve_err g2_from_uncompressed_unchecked(g2_affine *r, const uint8_t in[G2_UNCOMPRESSED_BYTES]);

#endif
