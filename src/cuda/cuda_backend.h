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
 * cuda_backend_open wraps one prover as a groth16_backend object. */
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
/* As groth16_backend's preload: srs resident on p's GPU (the G2 bases
 * included), uploaded now if it is not. */
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

/* ---- the backend object ----------------------------------------------------------- */

/* A groth16_backend that proves on GPU `ordinal`, owned by the caller
 * (groth16_backend_close), whatever layer holds it: the engine's devices and
 * the CLI's --backend cuda alike.  Its prover (cuda_prover) is opened on
 * first use, so that a GPU that cannot be opened fails its first call as a
 * device fault; its calls are serialized, so any thread may make them.
 * NULL, with the reason in why, when no such GPU is visible or memory is
 * short. */
groth16_backend *cuda_backend_open(int ordinal, char *why, size_t whylen);
/* The prover behind a backend from cuda_backend_open (NULL before its first
 * use), for the device checks and benchmarks that look inside it. */
cuda_prover *cuda_backend_prover(const groth16_backend *b);
/* cuda_prover_resident_sets of the backend's prover (0 before first use). */
unsigned cuda_backend_resident_sets(const groth16_backend *b);

#ifdef __cplusplus
}
#endif

#endif
