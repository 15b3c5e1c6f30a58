/* The Groth16 prover for snarkjs .zkey + .wtns (BLS12-381), the algorithm of
 * snarkjs groth16_prove.js / rapidsnark groth16.cpp (oracles.md section 4.4):
 *
 *   a[c] += coef * w[s] over section 4 (matrix A), b likewise (matrix B),
 *   c[i] = a[i] * b[i];
 *   each of a, b, c: inverse NTT, times inc^i (inc the 2n-th root), NTT:
 *   the values on the odd coset of the 2n-domain; h = a*b - c (no division
 *   by Z: section 9 absorbs it);
 *   A = alpha1 + sum w A_i + r delta1,  B = beta2 + sum w B2_i + s delta2,
 *   C = sum_{i > nPublic} w C_i + sum h H_i + s A + r B1 - r s delta1
 *   with B1 = beta1 + sum w B1_i + s delta1.
 * The roots of unity are ffjavascript's, 5^((r-1)/2^k) (not bellman's 7).
 * Results do not depend on the thread count. */
#ifndef CUZK_GROTH16_PROVE_ZKEY_H
#define CUZK_GROTH16_PROVE_ZKEY_H

#include "field/fr.h"
#include "groth16/error.h"
#include "groth16/proof.h"
#include "groth16/zkey.h"

/* omega = 5^((r-1)/2^log_n), a primitive 2^log_n-th root (log_n <= 32):
 * ffjavascript's w[log_n]. */
void zkey_root_of_unity(fr *omega, unsigned log_n);

/* Proves with blinding r, s (both NULL: fresh random values from
 * getrandom; giving them is for tests that compare with another prover).
 * The witness must have z->n_vars values. */
groth16_status zkey_prove(groth16_proof *out, const zkey *z, const wtns *w, const fr *r,
                          const fr *s, unsigned threads, groth16_error *err);

#endif
