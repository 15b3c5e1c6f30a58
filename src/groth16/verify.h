/* The Groth16 verifier, as bellperson 0.27 checks proofs (verifier.rs).
 *
 * Single proof: with acc = ic[0] + sum_i x_i ic[i+1], accept iff
 *   e(A, B) * e(acc, -gamma) * e(C, -delta) = e(alpha, beta),
 * three Miller loops and one final exponentiation against the precomputed
 * e(alpha, beta).
 *
 * Batch (same vk, rust-fil-proofs' verify_proofs_batch): random 128-bit z_j,
 *   prod_j e(z_j A_j, -B_j) * e(sum_j z_j C_j, delta)
 *     * e(sum_j z_j ic[0] + sum_i (sum_j z_j x_ji) ic[i+1], gamma)
 *   = e(alpha, beta)^(-sum_j z_j),
 * n + 2 Miller loops and one final exponentiation.  A batch with a bad proof
 * passes with probability about 2^-128 over the z_j.
 *
 * Proof points must be on their curves and in the subgroups
 * (groth16_proof_read checks that); the vk likewise (groth16_vk_read).
 * Public inputs are Fr elements, hence canonical.  Single-threaded. */
#ifndef CUZK_GROTH16_VERIFY_H
#define CUZK_GROTH16_VERIFY_H

#include <stddef.h>

#include "field/fp12.h"
#include "field/fr.h"
#include "groth16/error.h"
#include "groth16/proof.h"
#include "groth16/vk.h"

/* A vk made ready for verifying; owns a copy of ic. */
typedef struct {
    fp12 alpha_beta; /* e(alpha_g1, beta_g2) */
    g2_affine neg_gamma_g2, neg_delta_g2;
    g2_affine gamma_g2, delta_g2; /* the batch check pairs with these */
    g1_affine *ic;
    size_t n_ic;
} groth16_pvk;

groth16_status groth16_pvk_prepare(groth16_pvk *pvk, const groth16_vk *vk, groth16_error *err);
void groth16_pvk_free(groth16_pvk *pvk);

/* GROTH16_OK iff the proof is accepted; GROTH16_ERR_INVALID_PROOF if the
 * equation fails; GROTH16_ERR_MALFORMED_VK if n_inputs + 1 != n_ic. */
groth16_status groth16_verify(const groth16_pvk *pvk, const groth16_proof *proof, const fr *inputs,
                              size_t n_inputs, groth16_error *err);

/* n_proofs proofs; inputs holds n_proofs rows of n_inputs (row j for proof j).
 * GROTH16_OK iff all are accepted (with overwhelming probability).  The
 * coefficients come from getrandom(2); 0 proofs is GROTH16_ERR_ARG, 1 proof
 * is checked by groth16_verify. */
groth16_status groth16_verify_batch(const groth16_pvk *pvk, const groth16_proof *proofs,
                                    size_t n_proofs, const fr *inputs, size_t n_inputs,
                                    groth16_error *err);

/* The same with caller-chosen coefficients z[0..n_proofs): for tests only.
 * Sound only when the z_j are secret, random and unknown to the prover. */
groth16_status groth16_verify_batch_with_coeffs(const groth16_pvk *pvk, const groth16_proof *proofs,
                                                size_t n_proofs, const fr *inputs, size_t n_inputs,
                                                const fr *z, groth16_error *err);

#endif
