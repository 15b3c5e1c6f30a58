/* The CUDA backend's C interface: a context on one GPU, and the GPU versions
 * of the NTT, the H-polynomial step and the MSMs, each checked against the
 * CPU code (tests/unit/cuda/gpu_check.c) and giving the same values.
 *
 * Errors are codes with a message (cuda_error), never aborts.  Every call
 * that takes host arrays copies them through the context's pinned staging
 * buffer.  A context is not thread safe: one caller at a time. */
#ifndef CUZK_CUDA_GPU_H
#define CUZK_CUDA_GPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"
#include "ntt/ntt.h"

typedef enum {
    CUDA_OK = 0,
    CUDA_ERR_NO_DEVICE, /* no GPU, no driver, or the ordinal does not exist */
    CUDA_ERR_RUNTIME,   /* a CUDA call failed; the message names it */
    CUDA_ERR_ARG,       /* a caller error: size out of range, NULL array */
    CUDA_ERR_NO_MEMORY, /* device or pinned host memory ran out */
    CUDA_ERR_SCALAR     /* an MSM scalar is >= r; the message names the index */
} cuda_status;

typedef struct {
    cuda_status status;
    char msg[256];
} cuda_error;

const char *cuda_status_str(cuda_status s);

typedef struct cuda_ctx cuda_ctx;

/* Opens GPU `ordinal` (0-based; CUZK_GPU in the environment is the CLI's
 * way to choose).  *out is NULL on failure. */
cuda_status cuda_ctx_create(cuda_ctx **out, int ordinal, cuda_error *err);
void cuda_ctx_destroy(cuda_ctx *c);
/* Host threads the context may use to fill its pinned staging buffers (the
 * caller's share of the cores; 0 or 1: the calling thread only). */
void cuda_ctx_set_copy_threads(cuda_ctx *c, unsigned threads);
int cuda_ctx_ordinal(const cuda_ctx *c);
/* The device memory this process may use on GPU `ordinal` (gpus.memory_limit:
 * a 16 or 24 GiB card's share, enforced on a larger one), 0 = all of it.
 * Every allocation of the prover (parameter sets, recorded circuits, NTT
 * tables, work buffers; not the setup's generator tables) checks it against
 * the device's memory in use (the CUDA context's own included), so one that
 * would pass it fails as out of memory, and an MSM is cut into smaller
 * pieces, as on a card of that size. */
void cuda_device_set_memory_limit(int ordinal, size_t bytes);
size_t cuda_device_memory_limit(int ordinal);

/* ---- NTT (cuda_ntt.cu) --------------------------------------------------------
 * The CPU's transforms (ntt.h) on the GPU: same domain (omega = 7^((r-1)/n)),
 * same orders, coset shift g = 7.  a (2^log_n elements, host) is copied in,
 * transformed and copied back; *ms (may be NULL) gets the device time of the
 * transform alone (CUDA events), without the copies. */
typedef enum {
    CUDA_NTT_FORWARD,
    CUDA_NTT_INVERSE,
    CUDA_NTT_COSET_FORWARD,
    CUDA_NTT_COSET_INVERSE
} cuda_ntt_kind;

#define CUDA_NTT_MAX_LOG_N 28

cuda_status cuda_ntt(cuda_ctx *c, fr *a, unsigned log_n, cuda_ntt_kind kind, ntt_order order,
                     float *ms, cuda_error *err);

/* The Groth16 H step (groth16/h_poly.h) on the GPU: a, b, c hold `rows`
 * evaluations each (host); on return a holds the 2^log_n coefficients of
 * H = (A B - C) / Z in natural order, as h_poly_compute leaves them.  b and c
 * are left untouched.  *ms: device time without the copies. */
cuda_status cuda_h_poly(cuda_ctx *c, fr *a, const fr *b, const fr *cc, size_t rows, unsigned log_n,
                        float *ms, cuda_error *err);

/* ---- MSM (cuda_msm.cu) --------------------------------------------------------
 * Bases are uploaded once and stay resident (cuda_bases); an MSM then names a
 * range of them.  Scalars come from the host either as canonical 32-byte
 * little-endian integers (as msm.h; >= r is CUDA_ERR_SCALAR) or as Montgomery
 * fr (the prover's witness, converted on the GPU). */
typedef struct cuda_bases cuda_bases;

cuda_status cuda_bases_upload_g1(cuda_ctx *c, cuda_bases **out, const g1_affine *pts, size_t n,
                                 cuda_error *err);
cuda_status cuda_bases_upload_g2(cuda_ctx *c, cuda_bases **out, const g2_affine *pts, size_t n,
                                 cuda_error *err);
void cuda_bases_free(cuda_bases *b);
size_t cuda_bases_count(const cuda_bases *b);

typedef struct {
    unsigned window_bits; /* 0: chosen from the size of the non-trivial part */
    int bit_fast_path;    /* 1: zero scalars skipped, ones summed apart (default) */
    int montgomery;       /* 1: scalars are fr (Montgomery); 0: canonical bytes */
} cuda_msm_config;

cuda_msm_config cuda_msm_config_default(void);

/* Device-side times (CUDA events) of one MSM, and its split. */
typedef struct {
    size_t n_zero, n_one, n_other;
    unsigned window_bits, windows;
    unsigned pieces; /* the MSM's pieces (more than 1 when its working set passed free memory) */
    float copy_ms, classify_ms, sort_ms, buckets_ms, reduce_ms, total_ms;
} cuda_msm_stats;

/* out = sum over i < n_scalars of k_i * base[first + j(i)], where j(i) = i
 * without density, else the rank of i among the set bits of density (as
 * msm_g1_masked; unset scalars are skipped).  stats may be NULL. */
cuda_status cuda_msm_g1(cuda_ctx *c, g1_jac *out, const cuda_bases *b, size_t first,
                        const void *scalars, const uint64_t *density, size_t n_scalars,
                        const cuda_msm_config *cfg, cuda_msm_stats *stats, cuda_error *err);
cuda_status cuda_msm_g2(cuda_ctx *c, g2_jac *out, const cuda_bases *b, size_t first,
                        const void *scalars, const uint64_t *density, size_t n_scalars,
                        const cuda_msm_config *cfg, cuda_msm_stats *stats, cuda_error *err);

/* Field self-check: out = a b + a - b + a^2 for n Fp and n Fr pairs on the
 * GPU (the square by the PTX squaring), for the CPU to compare. */
cuda_status cuda_field_mul_check(cuda_ctx *c, const fp *a, const fp *b, fp *out_p, const fr *x,
                                 const fr *y, fr *out_r, size_t n, cuda_error *err);

/* Field-multiply throughput, the PTX carry chains (ptx_mul2) and the
 * portable C (both in this binary): `threads` (a multiple of 256) threads
 * each run 4 chains of `iters` multiplies, starting from x (4 * threads
 * elements) times y (threads elements), all Montgomery limbs of Fr
 * (which_fr) or Fp.  ms gets the two times in that order; equal is set when
 * both end with the same values. */
cuda_status cuda_field_bench(cuda_ctx *c, int which_fr, size_t threads, unsigned iters,
                             const void *x, const void *y, float ms[2], int *equal,
                             cuda_error *err);

#ifdef __cplusplus
}
#endif

#endif
