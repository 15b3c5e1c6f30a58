/* Fixed-base scalar multiplication with precomputed window tables.
 *
 * For one base P and window w, the table holds d * 2^(w j) * P for every window
 * j and digit d in [1, 2^w), so k * P is one mixed addition per non-zero
 * window of k and no doublings: ~32 additions for w = 8, against ~300
 * group operations for a variable-base ladder.  Parameter generation
 * multiplies the two generators by millions of scalars this way.
 * Variable time (setup's secrets are test-only; see groth16/setup.h). */
#ifndef CUZK_CURVE_FIXED_BASE_H
#define CUZK_CURVE_FIXED_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "curve/g2.h"

typedef struct {
    unsigned window, windows;
    g1_affine *t; /* windows * (2^window - 1) entries, digit d of window j at j*(2^w-1) + d-1 */
} g1_fixed_table;

typedef struct {
    unsigned window, windows;
    g2_affine *t;
} g2_fixed_table;

/* 0 on success, -1 if the table cannot be allocated.  window in [1, 16]. */
int g1_fixed_table_init(g1_fixed_table *tab, const g1_affine *base, unsigned window);
int g2_fixed_table_init(g2_fixed_table *tab, const g2_affine *base, unsigned window);
void g1_fixed_table_free(g1_fixed_table *tab);
void g2_fixed_table_free(g2_fixed_table *tab);

/* out[i] = k[i] * base (affine), k canonical Fr in Montgomery form; threads
 * through par_run; one inversion per chunk for the affine conversion. */
int g1_fixed_mul_many(g1_affine *out, const g1_fixed_table *tab, const fr *k, size_t n,
                      unsigned threads);
int g2_fixed_mul_many(g2_affine *out, const g2_fixed_table *tab, const fr *k, size_t n,
                      unsigned threads);

#endif
