/* Fixed-base scalar multiplication with precomputed window tables.
 *
 * For one base P and window w, the table holds d * 2^(w j) * P for every window
 * j and digit d in [1, 2^w), so k * P is one addition per non-zero window of k
 * and no doublings: 16 additions for w = 16, against ~300 group operations
 * for a variable-base ladder.  Parameter generation multiplies the two
 * generators by millions of scalars this way.  The additions are affine and
 * batched (g1_affine_batch_add_vartime): a task keeps one affine accumulator
 * per scalar and adds a whole window's table entries with one inversion.
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

/* 0 on success, -1 (tab->t NULL) if the table cannot be allocated.  window in
 * [1, 16]; threads through par_run, one window's row per task. */
int g1_fixed_table_init(g1_fixed_table *tab, const g1_affine *base, unsigned window,
                        unsigned threads);
int g2_fixed_table_init(g2_fixed_table *tab, const g2_affine *base, unsigned window,
                        unsigned threads);
void g1_fixed_table_free(g1_fixed_table *tab);
void g2_fixed_table_free(g2_fixed_table *tab);

/* out[i] = k[i] * base (affine), k canonical Fr in Montgomery form; threads
 * through par_run.  0, or -1 when a task's scratch cannot be allocated. */
int g1_fixed_mul_many(g1_affine *out, const g1_fixed_table *tab, const fr *k, size_t n,
                      unsigned threads);
int g2_fixed_mul_many(g2_affine *out, const g2_fixed_table *tab, const fr *k, size_t n,
                      unsigned threads);

/* The window for n multiplications by one table: the w in [1, 16] that
 * minimises ceil(255 / w) * (n + 2^w - 1), the batched additions of the
 * multiplications plus those that build the table (the gathers from a large
 * table cost a little more per addition, which the rule ignores: near its
 * switch points the neighbours cost about the same).  It gives 16 from about
 * 2^19 scalars (porep-2k's 10M G1 and 0.7M G2); a w = 16 table is
 * 16 * 65535 points, ~100 MB for G1 and ~200 MB for G2, which test-only
 * setup accepts. */
unsigned fixed_base_window(size_t n);

#endif
