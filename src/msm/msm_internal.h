/* Shared between msm_common.c and the per-group instantiations of
 * msm_template.h: the scalar split, signed digits and window choice. */
#ifndef CUZK_MSM_INTERNAL_H
#define CUZK_MSM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "msm/msm.h"

/* Where each non-zero scalar goes: the base indices of the one-scalars, and
 * the (scalar, base) index pairs of the rest.  Indices, never scalar copies. */
typedef struct {
    uint32_t *one_base;
    uint32_t *other_scalar;
    uint32_t *other_base;
    size_t n_zero, n_one, n_other;
} msm_split;

/* Classifies the scalars (dense when density is NULL).  Returns MSM_OK, or
 * the first non-canonical scalar's error with its index in *bad_index. */
msm_status msm_split_scalars(msm_split *s, const uint8_t *scalars, const uint64_t *density,
                             size_t n_scalars, unsigned threads, size_t *bad_index);
void msm_split_free(msm_split *s);

/* Signed window digits of the others: digits[w * n_other + j] for window w of
 * scalar other_scalar[j], in [-2^(c-1), 2^(c-1)], sum_w digit_w 2^(c w) = k. */
int16_t *msm_signed_digits(const msm_split *s, const uint8_t *scalars, unsigned c, unsigned windows,
                           unsigned threads);

/* ceil(256 / c): enough windows for any scalar below r < 2^255 with signed
 * digits (the top window keeps a positive digit, see msm_common.c). */
unsigned msm_window_count(unsigned c);

/* How many point ranges each window is cut into so threads stay busy. */
unsigned msm_chunks_per_window(unsigned windows, unsigned threads, size_t n_other);

#endif
