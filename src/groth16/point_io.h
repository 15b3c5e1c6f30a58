/* Decoding the uncompressed points of .vk / .params files at a chosen level of
 * checking, and the big-endian u32 counts between them.
 *
 * Levels, from strict to fast:
 *   FULL   flags, coordinates < p, on the curve, in the order-r subgroup:
 *          blstrs from_uncompressed (bellperson's "checked" reads, every .vk).
 *   CURVE  flags, coordinates < p, on the curve; G1 x = 0 rejected:
 *          blst_p1_deserialize, i.e. blstrs from_uncompressed_unchecked, which
 *          rust-fil-proofs uses for the mapped .params.
 *   NONE   flags and coordinates < p only: for files this program wrote.
 * Identity rules belong to the callers (the formats differ on them). */
#ifndef CUZK_GROTH16_POINT_IO_H
#define CUZK_GROTH16_POINT_IO_H

#include <stdint.h>

#include "curve/encode.h"

typedef enum {
    GROTH16_CHECK_FULL = 0,
    GROTH16_CHECK_CURVE,
    GROTH16_CHECK_NONE,
} groth16_check;

curve_err groth16_g1_decode(g1_affine *r, const uint8_t in[G1_UNCOMPRESSED_BYTES],
                            groth16_check check);
curve_err groth16_g2_decode(g2_affine *r, const uint8_t in[G2_UNCOMPRESSED_BYTES],
                            groth16_check check);

static inline uint32_t groth16_get_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void groth16_put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
