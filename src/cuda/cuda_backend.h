/* The CUDA prover backend: H step and every MSM (G1 and G2) on the GPU as
 * groth16_sums_ops (groth16/backend.h); the shape check, r, s and the
 * assembly are groth16_prove_with's, the CPU backend's too, so for the same
 * r, s the proofs are byte-identical.
 *
 * A cuda_prover is the backend's state on one GPU: its context (streams,
 * pinned pool, NTT tables, MSM scratch: cuda_gpu.h), its resident parameter
 * sets (uploaded on first use, kept until evicted: cuda_srs_cache.cuh) and its
 * witness buffers.  A process may hold one per GPU.  Its calls are
 * serialized by its own lock, so any thread may call them.
 *
 * The groth16_backend of cuda_backend() proves on a default prover, opened on
 * first use on GPU cuda_backend_device() (CUZK_GPU in the environment,
 * default 0) and closed by cuda_backend_release. */
#ifndef CUZK_CUDA_BACKEND_H
#define CUZK_CUDA_BACKEND_H

#ifdef __cplusplus
extern "C" {
#endif

#include "cuda/cuda_gpu.h"
#include "groth16/backend.h"

typedef struct cuda_prover cuda_prover;

/* Opens a prover on GPU `ordinal`; *out is NULL on failure. */
cuda_status cuda_prover_create(cuda_prover **out, int ordinal, cuda_error *err);
/* Frees its resident parameters, buffers and context. */
void cuda_prover_destroy(cuda_prover *p);
int cuda_prover_ordinal(const cuda_prover *p);
/* As groth16_backend's prove, on p's GPU. */
groth16_status cuda_prover_prove(cuda_prover *p, groth16_proof *proofs, const r1cs_partition *parts,
                                 size_t n, const groth16_params_data *srs, const fr *r, const fr *s,
                                 unsigned threads, groth16_prove_timing *timing,
                                 groth16_error *err);
/* As groth16_backend's preload: srs resident on p's GPU (the G2 bases too
 * when B_G2 runs there), uploaded now if it is not. */
groth16_status cuda_prover_preload(cuda_prover *p, const groth16_params_data *srs, unsigned threads,
                                   groth16_error *err);
/* As groth16_backend's forget: drops p's resident copy of srs. */
void cuda_prover_forget(cuda_prover *p, const groth16_params_data *srs);
/* Drops p's device copy of a recorded circuit (the caller is about to free
 * pce; NULL: every copy). */
void cuda_prover_forget_pce(cuda_prover *p, const struct r1cs_pce *pce);
/* Bytes of recorded circuits resident on p's GPU. */
size_t cuda_prover_pce_bytes(cuda_prover *p);
/* What cuda_prover_abc did: bytes sent, and the device times (CUDA events)
 * of the upload, the witness's expansion and the SpMV; total_ms is wall time
 * without the copies back. */
typedef struct {
    double upload_ms, expand_ms, spmv_ms, total_ms;
    size_t bytes;
} cuda_abc_stats;
/* For the device check and the benchmark: a deferred partition's a, b, c
 * (rows each) and its expanded witness (num_aux) made on p's GPU exactly as a
 * proof makes them, then copied back into those that are not NULL.  st may
 * be NULL. */
cuda_status cuda_prover_abc(cuda_prover *p, const r1cs_partition *deferred, fr *a, fr *b, fr *c,
                            fr *aux, cuda_abc_stats *st, cuda_error *err);
/* How many parameter sets are resident on p's GPU now (CUZK_GPU_SRS_SETS
 * caps it, default 4; least recently used out first). */
unsigned cuda_prover_resident_sets(cuda_prover *p);

/* ---- the default prover --------------------------------------------------------- */

/* The backend, or NULL when no usable GPU is present (the reason goes to
 * why, if given). */
const groth16_backend *cuda_backend(void);
const groth16_backend *cuda_backend_why(char *why, size_t whylen);
/* Selects the default prover's GPU by ordinal before first use (default:
 * CUZK_GPU, else 0).  -1 if it already runs on another device. */
int cuda_backend_set_device(int ordinal);
/* The ordinal in use (or to be used). */
int cuda_backend_device(void);
/* cuda_prover_resident_sets of the default prover (0 before first use). */
unsigned cuda_backend_resident_sets(void);
/* Closes the default prover (a later proof opens it again). */
void cuda_backend_release(void);

/* ---- one backend per GPU (the engine's devices) ---------------------------------- */

/* The backend that proves on GPU `ordinal` (0 .. CUDA_BACKEND_MAX_GPUS-1),
 * with its own prover opened on first use and kept until
 * cuda_backend_release_all; NULL (reason in why) when the ordinal is out of
 * range or no such GPU is visible.  Its forget drops that GPU's copy only. */
#define CUDA_BACKEND_MAX_GPUS 16
const groth16_backend *cuda_backend_for(int ordinal, char *why, size_t whylen);
/* Closes every prover opened by cuda_backend_for. */
void cuda_backend_release_all(void);

#ifdef __cplusplus
}
#endif

#endif
