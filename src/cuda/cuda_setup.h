/* The test-only setup's steps on the GPU (groth16/setup_pce.h): Lagrange
 * coefficients by the GPU inverse NTT, the per-variable sums of the recorded
 * matrices, and the fixed-base multiplications of the two generators with
 * the points made affine on the device.  Every step gives the CPU's values
 * exactly, so the files are byte-identical to the CPU setup's. */
#ifndef CUZK_CUDA_SETUP_H
#define CUZK_CUDA_SETUP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "groth16/setup_pce.h"

/* Fills ops (ops->ctx owns a context on GPU `ordinal` and the generator
 * tables; free with cuda_setup_ops_free).  0, or -1 with a message. */
int cuda_setup_ops_init(groth16_setup_ops *ops, int ordinal, unsigned threads, char *err,
                        size_t cap);
/* Safe on a zeroed or CPU-only ops (ctx NULL). */
void cuda_setup_ops_free(groth16_setup_ops *ops);

#ifdef __cplusplus
}
#endif

#endif
