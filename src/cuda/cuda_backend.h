/* The CUDA prover backend: the groth16_backend interface (groth16/backend.h)
 * with the H step and every MSM (G1 and G2) on the GPU; the assembly with r
 * and s stays on the CPU and is the CPU backend's, so for the same r, s the
 * proofs are byte-identical.  A parameter set is uploaded on first use and
 * stays resident (cuda_srs_cache.cuh) until evicted or cuda_backend_release.
 * The GPU is ordinal CUZK_GPU (environment, default 0). */
#ifndef CUZK_CUDA_BACKEND_H
#define CUZK_CUDA_BACKEND_H

#ifdef __cplusplus
extern "C" {
#endif

#include "groth16/backend.h"

/* The backend, or NULL when no usable GPU is present (the reason goes to
 * why, if given). */
const groth16_backend *cuda_backend(void);
const groth16_backend *cuda_backend_why(char *why, size_t whylen);
/* Selects the GPU by ordinal before first use (default: CUZK_GPU, else 0).
 * -1 if the backend already runs on another device. */
int cuda_backend_set_device(int ordinal);
/* The ordinal in use (or to be used). */
int cuda_backend_device(void);
/* How many parameter sets are resident on the GPU now (CUZK_GPU_SRS_SETS
 * caps it, default 4; least recently used out first). */
unsigned cuda_backend_resident_sets(void);
/* Frees the resident parameters and the GPU context. */
void cuda_backend_release(void);

#ifdef __cplusplus
}
#endif

#endif
