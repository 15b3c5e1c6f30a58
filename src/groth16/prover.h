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
 * same bytes.  This header: the CPU backend's entry point and the timing. */
#ifndef CUZK_GROTH16_PROVER_H
#define CUZK_GROTH16_PROVER_H

#include "groth16/h_poly.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "msm/msm.h"
#include "r1cs/partition.h"

/* Per-phase timing of one proof (ms), for CUZK_TIMING and the API. */
typedef struct {
    h_poly_timing h_steps;
    double h_ms, scalars_ms, msm_l_ms, msm_a_ms, msm_b1_ms, msm_b2_ms, msm_h_ms, assemble_ms;
    double total_ms;
    /* device time of each stage (CUDA events, without copies) where the
     * backend is a GPU; 0 on the CPU backend */
    double dev_h_ms, dev_l_ms, dev_a_ms, dev_b1_ms, dev_b2_ms, dev_hm_ms;
} groth16_prove_timing;

/* Proves n partitions that share one parameter set.  r and s hold n values
 * each, or are NULL for fresh values from getrandom(2).  timing (n entries)
 * may be NULL.  The parameter set must match every partition's shape
 * (counts and densities); a mismatch is an error naming the section. */
groth16_status groth16_prove_cpu(groth16_proof *proofs, const r1cs_partition *parts, size_t n,
                                 const groth16_params_data *srs, const fr *r, const fr *s,
                                 unsigned threads, groth16_prove_timing *timing,
                                 groth16_error *err);

/* a += b, stage by stage (sums over partitions). */
void groth16_prove_timing_add(groth16_prove_timing *a, const groth16_prove_timing *b);

/* Prints one proof's timing on stderr (what CUZK_TIMING=1 shows). */
void groth16_prove_timing_print(const groth16_prove_timing *t, size_t index);

#endif
