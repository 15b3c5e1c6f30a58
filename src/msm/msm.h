/* Multi-scalar multiplication on the CPU: out = sum_i k_i * P_i over G1 or G2.
 *
 * Scalars are canonical Fr as 32-byte little-endian integers (< r; anything
 * else is an error), bases are affine (infinity = (0, 0)).  The work splits in
 * three: zero scalars are skipped, one-scalars are summed with batched affine
 * additions, and the rest go through Pippenger's bucket method with signed
 * digits.  Every call says how many threads it may use (no global pool).
 * Variable time: the prover's MSMs run over its own witness. */
#ifndef CUZK_MSM_MSM_H
#define CUZK_MSM_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "curve/g2.h"

#define MSM_SCALAR_BYTES 32

typedef struct {
    unsigned threads;     /* threads this call may use; 0 means 1 */
    unsigned window_bits; /* Pippenger window c; 0 = chosen from the size (the per-MSM knob) */
} msm_config;

/* The defaults: `threads` threads (0 means 1), automatic window. */
msm_config msm_config_default(unsigned threads);

/* Per-phase timing and the zero / one / other split of one call. */
typedef struct {
    size_t n_zero, n_one, n_other;
    unsigned window_bits, windows;
    double classify_ms; /* scan scalars: check, split, signed digits */
    double ones_ms;     /* sum of the bases with scalar 1 */
    double buckets_ms;  /* Pippenger bucket accumulation (summed over tasks) */
    double reduce_ms;   /* bucket reduction and window combination (summed over tasks) */
    double total_ms;    /* wall clock of the call */
} msm_stats;

typedef enum {
    MSM_OK = 0,
    MSM_ERR_SCALAR_NOT_CANONICAL, /* a scalar is >= r; *bad_index names it */
    MSM_ERR_NO_MEMORY
} msm_status;

const char *msm_status_str(msm_status s);

/* Dense form: n bases, n scalars (scalars + 32*i is the i-th).  stats and
 * bad_index may be NULL. */
msm_status msm_g1(g1_jac *out, const g1_affine *bases, const uint8_t *scalars, size_t n,
                  const msm_config *cfg, msm_stats *stats, size_t *bad_index);
msm_status msm_g2(g2_jac *out, const g2_affine *bases, const uint8_t *scalars, size_t n,
                  const msm_config *cfg, msm_stats *stats, size_t *bad_index);

/* Density form (Groth16's A and B queries): of n_scalars scalars, those whose
 * bit is set in density (bit i = word i/64, bit i%64) pair in order with the
 * compact array bases (as many entries as set bits).  Scalars are read in
 * place, never copied. */
msm_status msm_g1_masked(g1_jac *out, const g1_affine *bases, const uint8_t *scalars,
                         const uint64_t *density, size_t n_scalars, const msm_config *cfg,
                         msm_stats *stats, size_t *bad_index);
msm_status msm_g2_masked(g2_jac *out, const g2_affine *bases, const uint8_t *scalars,
                         const uint64_t *density, size_t n_scalars, const msm_config *cfg,
                         msm_stats *stats, size_t *bad_index);

/* The window msm uses for n non-trivial scalars when window_bits is 0. */
unsigned msm_auto_window(size_t n, int g2);

#endif
