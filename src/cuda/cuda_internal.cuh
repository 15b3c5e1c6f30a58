// What the CUDA sources share: the context, error helpers and the internal
// (device-pointer) entry points the prover chains without host copies.
#ifndef CUZK_CUDA_INTERNAL_CUH
#define CUZK_CUDA_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>

#include "cuda/cuda_gpu.h"
#include "cuda/curve.cuh"

extern "C" {
#include "util/switches.h"
}

// Grow-only device scratch buffer.
struct dbuf {
    void *p = nullptr;
    size_t bytes = 0;
};

struct ntt_tables; // cuda_ntt.cu

#define CZ_STAGES 4                       // pinned staging buffers in the pool
#define CZ_STAGE_BYTES ((size_t)16 << 20) // each
#define CZ_UPLOAD_EVENTS 8

struct cuda_ctx {
    int ordinal;
    int sms;
    cudaStream_t stream; // compute
    cudaStream_t copy;   // host -> device copies, overlapped with the compute stream
    cudaEvent_t ev[8];
    // The pinned pool: CZ_STAGES buffers of CZ_STAGE_BYTES (cudaHostAlloc'd
    // once); each copy takes the next one once its previous DMA is done.
    void *stage[CZ_STAGES];
    cudaEvent_t stage_done[CZ_STAGES];
    unsigned stage_next;
    // Host threads that fill the pool (cuda_ctx_set_copy_threads; 0 or 1: the
    // calling thread): one thread's memcpy cannot keep up with the DMA
    // (PERFORMANCE.md).
    unsigned copy_threads;
    cudaEvent_t fence, up[CZ_UPLOAD_EVENTS]; // upload k done (on the copy stream)
    // pinned buffer for device -> host copies
    void *pinned;
    size_t pinned_bytes;
    // NTT tables per log_n (built on first use)
    ntt_tables *ntt[CUDA_NTT_MAX_LOG_N + 1];
    // MSM scratch
    dbuf scal, flags, idx_one, idx_other, keys, vals, keys2, vals2, cub_tmp, buckets, part[2],
        pkeys[2], dens, dens_prefix, misc, count;
    dbuf nbuf[3]; // NTT / H-step operands
};

cuda_status cz_fail(cuda_error *err, cuda_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
// Turns a CUDA error into CUDA_ERR_RUNTIME / CUDA_ERR_NO_MEMORY naming `what`.
cuda_status cz_cuda_fail(cuda_error *err, cudaError_t e, const char *what);

#define CZ_TRY(call)                             \
    do {                                         \
        cudaError_t e_ = (call);                 \
        if (e_ != cudaSuccess)                   \
            return cz_cuda_fail(err, e_, #call); \
    } while (0)
#define CZ_LAUNCHED(what)                       \
    do {                                        \
        cudaError_t e_ = cudaGetLastError();    \
        if (e_ != cudaSuccess)                  \
            return cz_cuda_fail(err, e_, what); \
    } while (0)

// Ensures b holds at least `bytes` (contents not kept).
cuda_status cz_reserve(dbuf &b, size_t bytes, cuda_error *err);
// cudaMalloc on the current device within its memory limit
// (cuda_device_set_memory_limit); `what` names the buffer in the error.
cuda_status cz_malloc(void **p, size_t bytes, const char *what, cuda_error *err);
// Bytes the current device can still give: its free memory, within the limit.
size_t cz_device_avail(void);
void cz_release(dbuf &b);
// Ensures the pinned staging buffer holds `bytes`.
cuda_status cz_pinned(cuda_ctx *c, size_t bytes, cuda_error *err);
// Host -> device, returning when the bytes are on the device (for inputs the
// next kernels read): the copy waits for the compute stream's work so far.
cuda_status cz_upload(cuda_ctx *c, void *dst, const void *src, size_t bytes, cuda_error *err);
// The copy stream waits for the work queued on the compute stream so far (a
// device buffer about to be overwritten may still be read by it).
cuda_status cz_copy_fence(cuda_ctx *c, cuda_error *err);
// Queues a host -> device copy on the copy stream, staged through the pinned
// pool, and records `done` after it; returns once src may change.  No fence:
// see cz_copy_fence.
cuda_status cz_upload_async(cuda_ctx *c, void *dst, const void *src, size_t bytes, cudaEvent_t done,
                            cuda_error *err);
// Waits for the copy stream.
cuda_status cz_upload_wait(cuda_ctx *c, cuda_error *err);
// Device -> host through the pinned buffer (chunked).
cuda_status cz_download(cuda_ctx *c, void *dst, const void *src, size_t bytes, cuda_error *err);

// ---- internal NTT / H step on device arrays (cuda_ntt.cu) ---------------------
cuda_status cz_ntt_dev(cuda_ctx *c, dfr *a, unsigned log_n, cuda_ntt_kind kind, ntt_order order,
                       cuda_error *err);
// H step over device arrays a, b, cc (2^log_n each, rows valid, rest any):
// a ends as H's coefficients in natural order; b and cc are clobbered.
cuda_status cz_h_poly_dev(cuda_ctx *c, dfr *a, dfr *b, dfr *cc, size_t rows, unsigned log_n,
                          cuda_error *err);
// Its two parts, so each input's transforms can start as soon as that input
// is on the device: prep takes one input (rows valid) to its evaluations on
// the coset, or (coeffs_only, for c) only to its coefficients times 1/Z;
// finish forms a b, takes it back to coefficients and subtracts c's:
// (a b mod (x^n - g^n) - c) / Z, six transforms instead of seven.
cuda_status cz_h_prep(cuda_ctx *c, dfr *v, size_t rows, unsigned log_n, bool coeffs_only,
                      cuda_error *err);
cuda_status cz_h_finish(cuda_ctx *c, dfr *a, const dfr *b, const dfr *cc, unsigned log_n,
                        cuda_error *err);

// ---- internal MSM over device scalars (cuda_msm.cu) -----------------------------
// scalars: device array of n fr (Montgomery if mont, else canonical); density
// is a host bitmap or NULL.  out is the XYZZ sum, on the host.
struct cuda_bases {
    cuda_ctx *ctx;
    void *d;
    size_t n;
    int g2;
};
// Bases in two steps, for a set uploaded a chunk at a time: room for n
// points (G2 if g2), then points [first, first + count) written.
cuda_status cz_bases_alloc(cuda_ctx *c, cuda_bases **out, size_t n, int g2, cuda_error *err);
cuda_status cz_bases_write(cuda_bases *b, size_t first, const void *pts, size_t count,
                           cuda_error *err);
cuda_status cz_msm_g1_dev(cuda_ctx *c, g1x *out, const cuda_bases *b, size_t first,
                          const dfr *dev_scalars, int mont, const uint64_t *density, size_t n,
                          unsigned window, int fast, cuda_msm_stats *st, cuda_error *err);
cuda_status cz_msm_g2_dev(cuda_ctx *c, g2x *out, const cuda_bases *b, size_t first,
                          const dfr *dev_scalars, int mont, const uint64_t *density, size_t n,
                          unsigned window, int fast, cuda_msm_stats *st, cuda_error *err);
// XYZZ (host copy) -> CPU Jacobian.
void cz_g1x_to_jac(g1_jac *out, const g1x *p);
void cz_g2x_to_jac(g2_jac *out, const g2x *p);
// CPU Jacobian -> XYZZ (ZZ = Z^2, ZZZ = Z^3).
void cz_jac_to_g1x(g1x *out, const g1_jac *p);
void cz_jac_to_g2x(g2x *out, const g2_jac *p);

#endif
