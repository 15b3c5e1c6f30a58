/* The quotient polynomial H of a Groth16 proof, exactly as bellperson computes
 * it (filecoin-facts.md s.7.2): with m = 2^k >= rows and a, b, c the rows'
 * evaluations zero-padded to m,
 *   iNTT each; coset NTT with g = 7; h = (a*b - c) / (g^m - 1) pointwise;
 *   coset iNTT; keep the first m - 1 coefficients.
 * Here c skips its coset NTT and its coefficients are subtracted after the
 * coset iNTT instead: the same h (h_poly.c says why).
 * They are the scalars of the H MSM (params.h has m - 1 points). */
#ifndef CUZK_GROTH16_H_POLY_H
#define CUZK_GROTH16_H_POLY_H

#include <stddef.h>

#include "field/fr.h"
#include "ntt/ntt.h"

/* Smallest k with 2^k >= rows (rows >= 1); -1 if that exceeds NTT_MAX_LOG_N.
 * k = 0 means m = 1: H has m - 1 = 0 coefficients and h_poly_compute is not
 * called (the NTT's smallest domain is 2). */
int h_poly_log_domain(size_t rows);

/* Per-step timing (ms) of one computation. */
typedef struct {
    double intt_ms, coset_ntt_ms, pointwise_ms, coset_intt_ms;
} h_poly_timing;

/* a, b, c: arrays of m = d->n elements whose first `rows` entries hold the
 * evaluations (the rest is overwritten with zeros here).  On return a[0..m-2]
 * holds h; b and c are scratch.  Returns NTT_OK or the NTT's error. */
ntt_status h_poly_compute(fr *a, fr *b, fr *c, size_t rows, const ntt_domain *d, unsigned threads,
                          h_poly_timing *timing);

#endif
