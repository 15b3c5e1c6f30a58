/* snarkjs' JSON files for Groth16 on BLS12-381 (oracles.md section 4.5):
 *   proof.json  {pi_a: [x, y, "1"], pi_b: [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]],
 *                pi_c: [x, y, "1"], protocol: "groth16", curve: "bls12381"}
 *   public.json [w[1], ..., w[nPublic]]
 *   verification_key.json {protocol, curve, nPublic, vk_alpha_1, vk_beta_2, vk_gamma_2,
 *                vk_delta_2, IC: [...]} (vk_alphabeta_12 is not read or written)
 * Numbers are decimal strings of the standard-form coordinates; infinity is
 * ["0", "1", "0"] / [["0","0"],["1","0"],["0","0"]] (snarkjs' projective zero);
 * on reading, a third coordinate of "0" means infinity and "1" an affine point.
 * Readers check every point is on its curve and in the prime-order subgroup
 * (GROTH16_ERR_POINT otherwise) and every public value is < r. */
#ifndef CUZK_GROTH16_SNARKJS_JSON_H
#define CUZK_GROTH16_SNARKJS_JSON_H

#include <stddef.h>

#include "field/fr.h"
#include "groth16/error.h"
#include "groth16/proof.h"
#include "groth16/vk.h"
#include "groth16/zkey.h"

/* Decimal string of a field element's standard form; out has room for 117 + 1. */
#define SNARKJS_DEC_MAX 118
void snarkjs_fp_to_dec(char out[SNARKJS_DEC_MAX], const fp *a);
void snarkjs_fr_to_dec(char out[SNARKJS_DEC_MAX], const fr *a);

groth16_status snarkjs_write_proof(const char *path, const groth16_proof *p, groth16_error *err);
/* w[1..n_public] of the witness. */
groth16_status snarkjs_write_public(const char *path, const wtns *w, unsigned n_public,
                                    groth16_error *err);
groth16_status snarkjs_write_vk(const char *path, const zkey *z, groth16_error *err);

groth16_status snarkjs_read_proof(groth16_proof *p, const char *path, groth16_error *err);
/* *inputs is malloc'd (free it); *n its length. */
groth16_status snarkjs_read_public(fr **inputs, size_t *n, const char *path, groth16_error *err);
/* A groth16_vk (beta_g1, delta_g1 are not in the JSON: left at infinity). */
groth16_status snarkjs_read_vk(groth16_vk *vk, const char *path, groth16_error *err);

#endif
