/* Readers for snarkjs' Groth16 .zkey and circom's .wtns on BLS12-381
 * (curve "bls12381"; docs: shared/reference/oracles.md section 4).
 *
 * Both files are "binfile" containers: magic[4], u32 version, u32 nSections,
 * then per section u32 id, u64 size, bytes[size], all little-endian.
 * Sections may come in any order and their payloads are not aligned (the
 * readers copy).  The readers are strict: a wrong magic, version, prime or
 * size, a duplicate or missing section, trailing bytes, a coordinate >= p, a
 * point off its curve, a scalar >= r or an index out of range is an error
 * whose message names the section and the byte offset in the file.
 *
 * zkey points are affine x||y with each Fq 48 bytes little-endian in
 * Montgomery form (x * 2^384 mod p), the same limbs as our fp; G2
 * coordinates are c0||c1; infinity is all zero bytes, which is our (0, 0).
 * The verification-key points (header, IC) are also checked to lie in the
 * prime-order subgroup; the query points only on the curve. */
#ifndef CUZK_GROTH16_ZKEY_H
#define CUZK_GROTH16_ZKEY_H

#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"
#include "groth16/error.h"

/* One entry of section 4: matrix 0 = A, 1 = B; value is the coefficient c
 * itself (Montgomery form; the file stores c * 2^512 mod r). */
typedef struct {
    uint32_t matrix, constraint, signal;
    fr value;
} zkey_coef;

typedef struct {
    uint32_t n_vars, n_public, domain_size;
    unsigned log_n; /* domain_size = 2^log_n */
    g1_affine alpha_g1, beta_g1, delta_g1;
    g2_affine beta_g2, gamma_g2, delta_g2;
    g1_affine *ic; /* n_public + 1 */
    zkey_coef *coefs;
    size_t n_coefs;
    g1_affine *a;  /* n_vars (section 5) */
    g1_affine *b1; /* n_vars (section 6) */
    g2_affine *b2; /* n_vars (section 7) */
    g1_affine *c;  /* n_vars - n_public - 1 (section 8), for signals n_public+1.. */
    g1_affine *h;  /* domain_size (section 9) */
} zkey;

/* A witness: n values, each 32 bytes little-endian standard form (< r),
 * w[0] = 1, then the public signals.  bytes is what msm_g1 takes. */
typedef struct {
    uint32_t n;
    uint8_t *bytes; /* n * 32 */
} wtns;

groth16_status zkey_parse(zkey *z, const uint8_t *buf, size_t len, groth16_error *err);
groth16_status zkey_load(zkey *z, const char *path, groth16_error *err);
void zkey_free(zkey *z);

groth16_status wtns_parse(wtns *w, const uint8_t *buf, size_t len, groth16_error *err);
groth16_status wtns_load(wtns *w, const char *path, groth16_error *err);
void wtns_free(wtns *w);

/* Reads a whole file into a malloc'd buffer (for the loaders and the CLI). */
groth16_status zkey_read_whole_file(uint8_t **buf, size_t *len, const char *path,
                                    groth16_error *err);

#endif
