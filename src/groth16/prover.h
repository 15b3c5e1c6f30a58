/* The Groth16 prover in bellperson's algorithm (filecoin-facts.md s.7): H from
 * the partition's a/b/c evaluations (h_poly.h), the MSMs
 *   L  = sum aux_i l_i                      H = sum h_i h_i
 *   A' = sum in_i a_i + sum_(a density) aux_i a_(n_in + k)
 *   B1 / B2 = b_g1 / b_g2 over inputs and aux selected by the B densities
 * and the assembly, with randomness r, s:
 *   A = alpha1 + A' + r delta1        B = beta2 + B2 + s delta2
 *   C = s A' + r B1 + r s delta1 + s alpha1 + r beta1 + H + L.
 * The assembly is backend-neutral (backend.h: groth16_prove_with); a backend
 * computes H and the sums.  For the same (r, s) every backend must return the
 * same bytes.  This header: the CPU backend's entry point. */
#ifndef CUZK_GROTH16_PROVER_H
#define CUZK_GROTH16_PROVER_H

#include "groth16/h_poly.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "groth16/prove_timing.h"
#include "msm/msm.h"
#include "r1cs/partition.h"

/* Proves n partitions that share one parameter set.  r and s hold n values
 * each, or are NULL for fresh values from getrandom(2).  timing (n entries)
 * may be NULL.  The parameter set must match every partition's shape
 * (counts and densities); a mismatch is an error naming the section. */
groth16_status groth16_prove_cpu(groth16_proof *proofs, const r1cs_partition *parts, size_t n,
                                 const groth16_params_data *srs, const fr *r, const fr *s,
                                 unsigned threads, groth16_prove_timing *timing,
                                 groth16_error *err);

#endif
