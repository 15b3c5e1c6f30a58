/* The Groth16 verifying key and its .vk file, byte for byte as bellperson 0.27
 * writes it (VerifyingKey::write):
 *
 *   offset   0  alpha_g1   G1 uncompressed  96
 *           96  beta_g1    G1               96
 *          192  beta_g2    G2 uncompressed 192
 *          384  gamma_g2   G2              192
 *          576  delta_g1   G1               96
 *          672  delta_g2   G2              192
 *          864  n_ic       u32 big-endian    4
 *          868  ic[0..n_ic) G1          96 each
 *
 * ic[0] belongs to the implicit ONE input, so n_ic = public inputs + 1.
 * Reading checks every point fully (flags, < p, on curve, subgroup) and
 * rejects an ic point at infinity, as VerifyingKey::read does; alpha .. delta
 * may be infinity there, so they may be here. */
#ifndef CUZK_GROTH16_VK_H
#define CUZK_GROTH16_VK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "groth16/error.h"

#define GROTH16_VK_HEADER_BYTES 868 /* six points and the u32 count */

typedef struct {
    g1_affine alpha_g1, beta_g1;
    g2_affine beta_g2, gamma_g2;
    g1_affine delta_g1;
    g2_affine delta_g2;
    g1_affine *ic; /* n_ic points, owned: malloc'd, released by groth16_vk_free */
    size_t n_ic;
} groth16_vk;

/* The file size for n_ic ic points: 868 + 96 n_ic. */
size_t groth16_vk_size(size_t n_ic);

/* out must hold groth16_vk_size(vk->n_ic) bytes; n_ic <= UINT32_MAX.  The
 * writers encode whatever they are given (no validation). */
void groth16_vk_write(uint8_t *out, const groth16_vk *vk);
groth16_status groth16_vk_write_file(FILE *f, const groth16_vk *vk, groth16_error *err);

/* Parses a vk from in[0..len).  With used == NULL the vk must fill the buffer
 * exactly (bytes after it are an error); otherwise *used gets its size and the
 * rest is the caller's (.params continues there).  On success *vk owns a new
 * ic array; on failure *vk is left empty (ic NULL, n_ic 0). */
groth16_status groth16_vk_read(groth16_vk *vk, const uint8_t *in, size_t len, size_t *used,
                               groth16_error *err);

/* Reads a whole .vk file through groth16_vk_read. */
groth16_status groth16_vk_load(groth16_vk *vk, const char *path, groth16_error *err);

/* A deep copy (ic duplicated). */
groth16_status groth16_vk_copy(groth16_vk *dst, const groth16_vk *src, groth16_error *err);

void groth16_vk_free(groth16_vk *vk);

#endif
