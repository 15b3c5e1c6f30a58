/* zcash point encodings, written once for G1 and G2 (see encode.h).
 * Included by encode.c with PT (g1/g2), FE (fp/fp2), FE_SIZE (48/96) and
 * CURVE_B defined. */
#ifndef PT
#error "define PT, FE, FE_SIZE, CURVE_B before including encode_template.h"
#endif

#define ET_CAT_(a, b) a##b
#define ET_CAT(a, b) ET_CAT_(a, b)
#define F(op) ET_CAT(FE, _##op)
#define P_(op) ET_CAT(PT, _##op)
#define AFF P_(affine)
typedef ET_CAT(FE, ) ET_CAT(PT, _fe_t);
#define FE_T ET_CAT(PT, _fe_t)

void P_(to_compressed)(uint8_t out[FE_SIZE], const AFF *p) {
    if (P_(affine_is_infinity)(p)) {
        memset(out, 0, FE_SIZE);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    F(to_bytes_be)(out, &p->x);
    out[0] |= FLAG_COMPRESSED;
    if (F(is_lexicographically_largest)(&p->y))
        out[0] |= FLAG_SORT;
}

void P_(to_uncompressed)(uint8_t out[2 * FE_SIZE], const AFF *p) {
    if (P_(affine_is_infinity)(p)) {
        memset(out, 0, 2 * FE_SIZE);
        out[0] = FLAG_INFINITY;
        return;
    }
    F(to_bytes_be)(out, &p->x);
    F(to_bytes_be)(out + FE_SIZE, &p->y);
}

/* x with the flag bits cleared, as a field element. */
static curve_err P_(read_x)(FE_T *x, const uint8_t in[FE_SIZE]) {
    uint8_t tmp[FE_SIZE];
    memcpy(tmp, in, FE_SIZE);
    tmp[0] &= (uint8_t)~FLAG_MASK;
    return F(from_bytes_be)(x, tmp) ? CURVE_OK : CURVE_ERR_NOT_CANONICAL;
}

static int P_(all_zero_after_flags)(const uint8_t *in, size_t n) {
    uint8_t acc = in[0] & (uint8_t)~FLAG_MASK;
    for (size_t i = 1; i < n; i++)
        acc |= in[i];
    return acc == 0;
}

/* The curve equation for a finite point ((0, 0) is not on it). */
static int P_(satisfies_equation)(const FE_T *x, const FE_T *y) {
    FE_T lhs, rhs;
    F(sqr)(&lhs, y);
    F(sqr)(&rhs, x);
    F(mul)(&rhs, &rhs, x);
    F(add)(&rhs, &rhs, &CURVE_B);
    return F(equal)(&lhs, &rhs);
}

static curve_err P_(decode_compressed)(AFF *r, const uint8_t in[FE_SIZE], int check_subgroup) {
    uint8_t flags = in[0] & FLAG_MASK;
    if (!(flags & FLAG_COMPRESSED))
        return CURVE_ERR_FLAGS;
    if (flags & FLAG_INFINITY) {
        if ((flags & FLAG_SORT) || !P_(all_zero_after_flags)(in, FE_SIZE))
            return CURVE_ERR_FLAGS;
        P_(affine_set_infinity)(r);
        return CURVE_OK;
    }
    FE_T x, y, rhs;
    curve_err e = P_(read_x)(&x, in);
    if (e != CURVE_OK)
        return e;
    F(sqr)(&rhs, &x);
    F(mul)(&rhs, &rhs, &x);
    F(add)(&rhs, &rhs, &CURVE_B);
    if (!F(sqrt)(&y, &rhs))
        return CURVE_ERR_NOT_ON_CURVE;
    if (F(is_lexicographically_largest)(&y) != !!(flags & FLAG_SORT))
        F(neg)(&y, &y);
    AFF p = {x, y};
    if (check_subgroup && !P_(affine_in_subgroup)(&p))
        return CURVE_ERR_NOT_IN_SUBGROUP;
    *r = p;
    return CURVE_OK;
}

static curve_err P_(decode_uncompressed)(AFF *r, const uint8_t in[2 * FE_SIZE], int check_point) {
    uint8_t flags = in[0] & FLAG_MASK;
    if (flags & (FLAG_COMPRESSED | FLAG_SORT))
        return CURVE_ERR_FLAGS;
    if (flags & FLAG_INFINITY) {
        if (!P_(all_zero_after_flags)(in, 2 * FE_SIZE))
            return CURVE_ERR_FLAGS;
        P_(affine_set_infinity)(r);
        return CURVE_OK;
    }
    FE_T x, y;
    curve_err e = P_(read_x)(&x, in);
    if (e != CURVE_OK)
        return e;
    if (!F(from_bytes_be)(&y, in + FE_SIZE))
        return CURVE_ERR_NOT_CANONICAL;
    AFF p = {x, y};
    if (check_point) {
        if (!P_(satisfies_equation)(&x, &y))
            return CURVE_ERR_NOT_ON_CURVE;
        if (!P_(affine_in_subgroup)(&p))
            return CURVE_ERR_NOT_IN_SUBGROUP;
    }
    *r = p;
    return CURVE_OK;
}

curve_err P_(from_compressed)(AFF *r, const uint8_t in[FE_SIZE]) {
    return P_(decode_compressed)(r, in, 1);
}
curve_err P_(from_compressed_unchecked)(AFF *r, const uint8_t in[FE_SIZE]) {
    return P_(decode_compressed)(r, in, 0);
}
curve_err P_(from_uncompressed)(AFF *r, const uint8_t in[2 * FE_SIZE]) {
    return P_(decode_uncompressed)(r, in, 1);
}
curve_err P_(from_uncompressed_unchecked)(AFF *r, const uint8_t in[2 * FE_SIZE]) {
    return P_(decode_uncompressed)(r, in, 0);
}

#undef F
#undef P_
#undef AFF
#undef FE_T
#undef ET_CAT
#undef ET_CAT_
