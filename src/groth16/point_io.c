/* Point decoding at the three check levels (see point_io.h). */
#include "groth16/point_io.h"

/* The unchecked decoders map the bytes of (0, 0) to our in-memory infinity;
 * without the infinity flag that is the point (0, 0), which is off the curve
 * (blst says so too), not an encoding of infinity. */
static int zero_without_flag(const uint8_t *in) { return (in[0] & 0x40) == 0; }

curve_err groth16_g1_decode(g1_affine *r, const uint8_t in[G1_UNCOMPRESSED_BYTES],
                            groth16_check check) {
    if (check == GROTH16_CHECK_FULL)
        return g1_from_uncompressed(r, in);
    curve_err e = g1_from_uncompressed_unchecked(r, in);
    if (e != CURVE_OK)
        return e;
    if (g1_affine_is_infinity(r))
        return zero_without_flag(in) ? CURVE_ERR_NOT_ON_CURVE : CURVE_OK;
    if (check == GROTH16_CHECK_NONE)
        return CURVE_OK;
    if (!g1_affine_is_on_curve(r))
        return CURVE_ERR_NOT_ON_CURVE;
    /* (0, +-2) has order 3; blst's deserializer turns it away even unchecked */
    if (fp_is_zero(&r->x))
        return CURVE_ERR_NOT_IN_SUBGROUP;
    return CURVE_OK;
}

curve_err groth16_g2_decode(g2_affine *r, const uint8_t in[G2_UNCOMPRESSED_BYTES],
                            groth16_check check) {
    if (check == GROTH16_CHECK_FULL)
        return g2_from_uncompressed(r, in);
    curve_err e = g2_from_uncompressed_unchecked(r, in);
    if (e != CURVE_OK)
        return e;
    if (g2_affine_is_infinity(r))
        return zero_without_flag(in) ? CURVE_ERR_NOT_ON_CURVE : CURVE_OK;
    if (check == GROTH16_CHECK_NONE)
        return CURVE_OK;
    return g2_affine_is_on_curve(r) ? CURVE_OK : CURVE_ERR_NOT_ON_CURVE;
}
