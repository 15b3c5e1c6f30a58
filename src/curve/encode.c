/* zcash/bellperson point encodings for G1 and G2 (see encode.h). */
#include "curve/encode.h"

#include <string.h>

#include "field/constants.h"

/* The three flag bits in the top of byte 0. */
enum { FLAG_COMPRESSED = 0x80, FLAG_INFINITY = 0x40, FLAG_SORT = 0x20, FLAG_MASK = 0xe0 };

const char *curve_err_str(curve_err e) {
    switch (e) {
    case CURVE_OK:
        return "ok";
    case CURVE_ERR_FLAGS:
        return "invalid flag bits for this encoding";
    case CURVE_ERR_NOT_CANONICAL:
        return "coordinate is not below the field modulus";
    case CURVE_ERR_NOT_ON_CURVE:
        return "point is not on the curve";
    case CURVE_ERR_NOT_IN_SUBGROUP:
        return "point is not in the prime-order subgroup";
    }
    return "unknown curve error";
}

#define PT g1
#define FE fp
#define FE_SIZE 48
#define CURVE_B G1_B
#include "curve/encode_template.h"
#undef PT
#undef FE
#undef FE_SIZE
#undef CURVE_B

#define PT g2
#define FE fp2
#define FE_SIZE 96
#define CURVE_B G2_B
#include "curve/encode_template.h"
#undef PT
#undef FE
#undef FE_SIZE
#undef CURVE_B
