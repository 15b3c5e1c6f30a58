/* Groth16 parameter generation from a recorded circuit (r1cs/pce.h), streamed
 * to the .params file -- FOR TESTS AND BENCHMARKS ONLY (see setup.h).
 *
 * The same parameters as groth16_setup (byte for byte, from the same toxic
 * waste) without classic CSR matrices and without the whole file in memory:
 *   1. powers of tau -> Lagrange coefficients L_j(tau) (inverse NTT);
 *   2. A_v(tau), B_v(tau), C_v(tau) = sum over rows j of coef * L_j(tau),
 *      read straight from the pce's compact rows;
 *   3. the vk, then h, l, a, b_g1, b_g2, each made and written in chunks of
 *      fixed-base multiplications.
 * Memory: the domain (m Fr) and three Fr per variable, plus one chunk.
 *
 * The steps 1, 2 and the multiplications go through groth16_setup_ops, so
 * a GPU backend (cuda/cuda_setup.h) can do them; a NULL op is done on the
 * CPU.  Every op must give the CPU's values exactly. */
#ifndef CUZK_GROTH16_SETUP_PCE_H
#define CUZK_GROTH16_SETUP_PCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "groth16/setup.h"
#include "r1cs/pce.h"

typedef struct {
    void *ctx;
    /* a: 2^log_m powers of tau in, their inverse NTT (natural order) out. */
    int (*lagrange)(void *ctx, fr *a, unsigned log_m, char *err, size_t cap);
    /* at, bt, ct (num_inputs + num_aux each, zero on entry): the
     * per-variable sums of p's A, B, C against lag (p->rows entries), in z
     * numbering (inputs first). */
    int (*columns)(void *ctx, const r1cs_pce *p, const fr *lag, fr *at, fr *bt, fr *ct, char *err,
                   size_t cap);
    /* out[i] = k[i] * generator (affine; k Montgomery, non-zero). */
    int (*g1_mul)(void *ctx, g1_affine *out, const fr *k, size_t n, char *err, size_t cap);
    int (*g2_mul)(void *ctx, g2_affine *out, const fr *k, size_t n, char *err, size_t cap);
    size_t chunk; /* points per chunk; 0: 2^20 */
} groth16_setup_ops;

typedef struct {
    size_t rows, n_in, n_aux;
    size_t n_h, n_l, n_a, n_b;
    uint64_t params_bytes;
    double lagrange_ms, columns_ms, points_ms; /* points: multiplications and writing */
} groth16_setup_info;

/* Writes the .params of p for toxic waste t to f (from its current
 * position) and gives the verifying key in *vk (groth16_vk_free it; write it
 * as the .vk).  ops NULL: all on the CPU with threads threads.  info may be
 * NULL.  An unconstrained aux variable, a domain too large, a failed op or
 * write: an error naming it (f then holds a partial file). */
groth16_status groth16_setup_pce_write(FILE *f, groth16_vk *vk, const r1cs_pce *p,
                                       const groth16_toxic *t, const groth16_setup_ops *ops,
                                       unsigned threads, groth16_setup_info *info,
                                       groth16_error *err);

/* TEST ONLY: toxic waste derived from a hex seed (SHA-256 based, as
 * groth16_rs_from_seed), so two backends can be compared byte for byte.
 * Whoever knows the seed can forge proofs.  -1 with a message if the seed is
 * not 1..64 bytes of hex. */
int groth16_toxic_from_seed(groth16_toxic *t, const char *seed_hex, char *err, size_t cap);

/* The CPU's per-variable sums (groth16_setup_ops.columns), for tests and
 * for backends that check themselves against it. */
int groth16_setup_columns_cpu(const r1cs_pce *p, const fr *lag, fr *at, fr *bt, fr *ct,
                              unsigned threads);

#endif
