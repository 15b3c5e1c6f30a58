/* Groth16 parameter generation -- FOR TESTS AND BENCHMARKS ONLY.
 *
 * Whoever knows the toxic waste (tau, alpha, beta, gamma, delta) can forge
 * proofs.  Filecoin's real parameters come from a multi-party ceremony; these
 * never replace them.  The CLI says so, and the generated files are only ever
 * named as test files.
 *
 * The QAP is evaluated at tau exactly as bellperson's generator does
 * (filecoin-facts.md s.1.3, s.7): rows = constraints + the x*0 = 0 input rows
 * (already in the recorded matrices), m = 2^k >= rows, Lagrange coefficients
 * L_j(tau) = iNTT(tau^0..tau^(m-1)) on bellperson's domain, and
 *   a_v = A_v(tau) G1, b_v = B_v(tau) G1 / G2 (identities filtered out),
 *   ic_i = (beta A_i + alpha B_i + C_i)(tau) / gamma G1 for inputs,
 *   l_i  = (beta A_i + alpha B_i + C_i)(tau) / delta G1 for aux (an identity
 *          means an unconstrained variable: an error, as in bellperson),
 *   h_i  = tau^i (tau^m - 1) / delta G1 for i < m - 1. */
#ifndef CUZK_GROTH16_SETUP_H
#define CUZK_GROTH16_SETUP_H

#include "field/fr.h"
#include "groth16/params.h"
#include "r1cs/csr.h"

typedef struct {
    fr tau, alpha, beta, gamma, delta;
} groth16_toxic;

/* Fresh toxic waste from getrandom(2). */
groth16_status groth16_toxic_random(groth16_toxic *t, groth16_error *err);

/* In-memory parameters: every array owned (free with groth16_setup_free). */
typedef struct {
    groth16_vk vk;
    g1_affine *h, *l, *a, *b_g1;
    g2_affine *b_g2;
    size_t n_h, n_l, n_a, n_b;
} groth16_setup_result;

groth16_status groth16_setup(groth16_setup_result *out, const r1cs_matrices *m,
                             const groth16_toxic *t, unsigned threads, groth16_error *err);
void groth16_setup_free(groth16_setup_result *s);
/* The view groth16_params_write takes. */
groth16_params_data groth16_setup_data(const groth16_setup_result *s);

#endif
