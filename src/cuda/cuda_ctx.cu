// The GPU context: device selection, stream and events, pinned staging, error
// messages, and the small helpers every CUDA source shares.
#include <atomic>
#include <new>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_internal.cuh"

extern "C" {
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fp2.h"
#include "util/err.h"
#include "util/parallel.h"
}

#define PINNED_CHUNK ((size_t)64 << 20) // downloads go in 64 MiB pieces

extern "C" const char *cuda_status_str(cuda_status s) {
    switch (s) {
    case CUDA_OK:
        return "ok";
    case CUDA_ERR_NO_DEVICE:
        return "no CUDA device";
    case CUDA_ERR_RUNTIME:
        return "CUDA runtime error";
    case CUDA_ERR_ARG:
        return "bad argument";
    case CUDA_ERR_NO_MEMORY:
        return "out of memory";
    case CUDA_ERR_SCALAR:
        return "scalar not canonical";
    }
    return "unknown";
}

cuda_status cz_fail(cuda_error *err, cuda_status s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (err)
        err->status = s;
    err_vset(err ? err->msg : NULL, sizeof err->msg, fmt, ap);
    va_end(ap);
    return s;
}

cuda_status cz_cuda_fail(cuda_error *err, cudaError_t e, const char *what) {
    cuda_status s = e == cudaErrorMemoryAllocation ? CUDA_ERR_NO_MEMORY : CUDA_ERR_RUNTIME;
    cudaGetLastError(); // clear a sticky-free error so the context stays usable
    return cz_fail(err, s, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

// Per physical device, not per context: two provers on one GPU share it.
#define CZ_MAX_ORDINALS 64
static std::atomic<size_t> g_limit[CZ_MAX_ORDINALS];
static std::atomic<int> g_any_limit; // allocations ask the device's usage only when set

extern "C" void cuda_device_set_memory_limit(int ordinal, size_t bytes) {
    if (ordinal >= 0 && ordinal < CZ_MAX_ORDINALS) {
        g_limit[ordinal] = bytes;
        if (bytes)
            g_any_limit = 1;
    }
}

extern "C" size_t cuda_device_memory_limit(int ordinal) {
    return ordinal >= 0 && ordinal < CZ_MAX_ORDINALS ? (size_t)g_limit[ordinal] : 0;
}

// The current device's free memory and, when it has a limit, what the limit
// leaves (the limit less the device's memory in use); *limit gets it.
static size_t avail_now(size_t *limit, size_t *used) {
    int dev = 0;
    size_t free_b = 0, total_b = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        cudaGetLastError();
        *limit = *used = 0;
        return (size_t)-1; // unknown: let cudaMalloc decide
    }
    *limit = cuda_device_memory_limit(dev);
    *used = total_b - free_b;
    if (!*limit)
        return free_b;
    size_t left = *limit > *used ? *limit - *used : 0;
    return left < free_b ? left : free_b;
}

size_t cz_device_avail(void) {
    size_t limit, used;
    return avail_now(&limit, &used);
}

cuda_status cz_malloc(void **p, size_t bytes, const char *what, cuda_error *err) {
    *p = nullptr;
    size_t limit = 0, used = 0;
    if (g_any_limit) {
        size_t left = avail_now(&limit, &used);
        if (limit && bytes > left)
            return cz_fail(err, CUDA_ERR_NO_MEMORY,
                           "%zu bytes for %s would pass the device memory limit "
                           "(gpus.memory_limit %.2f GiB, %.2f GiB in use)",
                           bytes, what, (double)limit / (1 << 30), (double)used / (1 << 30));
    }
    cudaError_t e = cudaMalloc(p, bytes ? bytes : 16);
    if (e != cudaSuccess) {
        *p = nullptr;
        cudaGetLastError();
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "cudaMalloc of %zu bytes for %s failed: %s", bytes,
                       what, cudaGetErrorString(e));
    }
    return CUDA_OK;
}

cuda_status cz_reserve(dbuf &b, size_t bytes, cuda_error *err) {
    if (b.bytes >= bytes)
        return CUDA_OK;
    cz_release(b);
    if (bytes == 0)
        return CUDA_OK;
    cuda_status s = cz_malloc(&b.p, bytes, "a work buffer", err);
    if (s)
        return s;
    b.bytes = bytes;
    return CUDA_OK;
}

void cz_release(dbuf &b) {
    if (b.p)
        cudaFree(b.p);
    b.p = nullptr;
    b.bytes = 0;
}

cuda_status cz_pinned(cuda_ctx *c, size_t bytes, cuda_error *err) {
    if (c->pinned_bytes >= bytes)
        return CUDA_OK;
    if (c->pinned)
        cudaFreeHost(c->pinned);
    c->pinned = nullptr;
    c->pinned_bytes = 0;
    cudaError_t e = cudaHostAlloc(&c->pinned, bytes, cudaHostAllocDefault);
    if (e != cudaSuccess) {
        c->pinned = nullptr;
        cudaGetLastError();
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "cudaHostAlloc of %zu bytes failed: %s", bytes,
                       cudaGetErrorString(e));
    }
    c->pinned_bytes = bytes;
    return CUDA_OK;
}

// ---- uploads: the pinned pool and the copy stream ----------------------------

static cuda_status stage_pool(cuda_ctx *c, cuda_error *err) {
    for (int i = 0; i < CZ_STAGES; i++) {
        if (c->stage[i])
            continue;
        cudaError_t e = cudaHostAlloc(&c->stage[i], CZ_STAGE_BYTES, cudaHostAllocDefault);
        if (e != cudaSuccess) {
            c->stage[i] = nullptr;
            cudaGetLastError();
            return cz_fail(err, CUDA_ERR_NO_MEMORY,
                           "cudaHostAlloc of the pinned pool (%d x %zu MiB) failed: %s", CZ_STAGES,
                           CZ_STAGE_BYTES >> 20, cudaGetErrorString(e));
        }
    }
    return CUDA_OK;
}

cuda_status cz_copy_fence(cuda_ctx *c, cuda_error *err) {
    CZ_TRY(cudaEventRecord(c->fence, c->stream));
    CZ_TRY(cudaStreamWaitEvent(c->copy, c->fence, 0));
    return CUDA_OK;
}

// Staged copies: the host fills up to half the pool at once (copy_threads
// threads, in pieces), then queues those buffers' DMAs; the other half's DMAs
// run meanwhile.  One thread: one buffer at a time, as before.
#define CZ_PIECE ((size_t)2 << 20)
struct stage_fill_job {
    char *dst[CZ_STAGES];
    const char *src[CZ_STAGES];
    size_t len[CZ_STAGES];
};

static void stage_fill_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    stage_fill_job *j = (stage_fill_job *)ctx;
    size_t b = task / (CZ_STAGE_BYTES / CZ_PIECE),
           off = task % (CZ_STAGE_BYTES / CZ_PIECE) * CZ_PIECE;
    if (off < j->len[b])
        memcpy(j->dst[b] + off, j->src[b] + off,
               j->len[b] - off < CZ_PIECE ? j->len[b] - off : CZ_PIECE);
}

static cuda_status stage_copy(cuda_ctx *c, char *out, const char *in, size_t bytes,
                              cuda_error *err) {
    unsigned threads = c->copy_threads > 1 ? c->copy_threads : 1;
    unsigned group = threads > 1 ? CZ_STAGES / 2 : 1;
    for (size_t off = 0; off < bytes;) {
        stage_fill_job j;
        unsigned slot[CZ_STAGES], g = 0;
        for (size_t o = off; g < group && o < bytes; g++) {
            size_t len = bytes - o < CZ_STAGE_BYTES ? bytes - o : CZ_STAGE_BYTES;
            unsigned k = c->stage_next++ % CZ_STAGES;
            CZ_TRY(cudaEventSynchronize(c->stage_done[k])); // its last DMA is done
            slot[g] = k;
            j.dst[g] = (char *)c->stage[k];
            j.src[g] = in + o;
            j.len[g] = len;
            o += len;
        }
        if (threads > 1)
            par_run(threads, g * (CZ_STAGE_BYTES / CZ_PIECE), stage_fill_task, &j);
        else
            for (unsigned i = 0; i < g; i++)
                memcpy(j.dst[i], j.src[i], j.len[i]);
        for (unsigned i = 0; i < g; i++) {
            CZ_TRY(cudaMemcpyAsync(out + off, j.dst[i], j.len[i], cudaMemcpyHostToDevice, c->copy));
            CZ_TRY(cudaEventRecord(c->stage_done[slot[i]], c->copy));
            off += j.len[i];
        }
    }
    return CUDA_OK;
}

extern "C" void cuda_ctx_set_copy_threads(cuda_ctx *c, unsigned threads) {
    if (c)
        c->copy_threads = threads;
}

cuda_status cz_upload_async(cuda_ctx *c, void *dst, const void *src, size_t bytes, cudaEvent_t done,
                            cuda_error *err) {
    if (bytes) {
        cuda_status s = stage_pool(c, err);
        if (s || (s = stage_copy(c, (char *)dst, (const char *)src, bytes, err)))
            return s;
    }
    if (done)
        CZ_TRY(cudaEventRecord(done, c->copy));
    return CUDA_OK;
}

cuda_status cz_upload_wait(cuda_ctx *c, cuda_error *err) {
    cudaError_t e = cudaStreamSynchronize(c->copy);
    if (e != cudaSuccess)
        return cz_cuda_fail(err, e, "copy stream");
    return CUDA_OK;
}

cuda_status cz_upload(cuda_ctx *c, void *dst, const void *src, size_t bytes, cuda_error *err) {
    if (bytes == 0)
        return CUDA_OK;
    cuda_status s = cz_copy_fence(c, err);
    if (s || (s = cz_upload_async(c, dst, src, bytes, nullptr, err)))
        return s;
    CZ_TRY(cudaStreamSynchronize(c->copy));
    return CUDA_OK;
}

cuda_status cz_download(cuda_ctx *c, void *dst, const void *src, size_t bytes, cuda_error *err) {
    if (bytes == 0)
        return CUDA_OK;
    cuda_status s = cz_pinned(c, PINNED_CHUNK, err);
    if (s)
        return s;
    const char *in = (const char *)src;
    char *out = (char *)dst;
    for (size_t off = 0; off < bytes; off += PINNED_CHUNK) {
        size_t len = bytes - off < PINNED_CHUNK ? bytes - off : PINNED_CHUNK;
        CZ_TRY(cudaMemcpyAsync(c->pinned, in + off, len, cudaMemcpyDeviceToHost, c->stream));
        CZ_TRY(cudaStreamSynchronize(c->stream));
        memcpy(out + off, c->pinned, len);
    }
    return CUDA_OK;
}

extern "C" cuda_status cuda_ctx_create(cuda_ctx **out, int ordinal, cuda_error *err) {
    *out = nullptr;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        cudaGetLastError();
        return cz_fail(err, CUDA_ERR_NO_DEVICE, "no CUDA device (%s)",
                       e == cudaSuccess ? "none visible" : cudaGetErrorString(e));
    }
    if (ordinal < 0 || ordinal >= n)
        return cz_fail(err, CUDA_ERR_NO_DEVICE, "GPU ordinal %d does not exist (%d visible)",
                       ordinal, n);
    CZ_TRY(cudaSetDevice(ordinal));
    // Room for the G2 kernels' spills and any call: when the point operations
    // were calls nested two deep, the default 1 KiB stack overflowed in x_add
    // -> x_dbl (compute-sanitizer: invalid __local__ read), so 16 KiB.
    CZ_TRY(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
    cudaDeviceProp prop;
    CZ_TRY(cudaGetDeviceProperties(&prop, ordinal));
    if (prop.major < 7)
        return cz_fail(err, CUDA_ERR_NO_DEVICE, "GPU %d (%s) is sm_%d%d; sm_70 or newer needed",
                       ordinal, prop.name, prop.major, prop.minor);
    cuda_ctx *c = new (std::nothrow) cuda_ctx();
    if (!c)
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory");
    c->ordinal = ordinal;
    c->sms = prop.multiProcessorCount;
    e = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(&c->copy, cudaStreamNonBlocking);
    for (int i = 0; i < 8 && e == cudaSuccess; i++)
        e = cudaEventCreate(&c->ev[i]);
    for (int i = 0; i < CZ_STAGES && e == cudaSuccess; i++)
        e = cudaEventCreateWithFlags(&c->stage_done[i], cudaEventDisableTiming);
    for (int i = 0; i < CZ_UPLOAD_EVENTS && e == cudaSuccess; i++)
        e = cudaEventCreateWithFlags(&c->up[i], cudaEventDisableTiming);
    if (e == cudaSuccess)
        e = cudaEventCreateWithFlags(&c->fence, cudaEventDisableTiming);
    if (e != cudaSuccess) {
        delete c;
        return cz_cuda_fail(err, e, "stream/event creation");
    }
    *out = c;
    return CUDA_OK;
}

void cz_ntt_tables_free(cuda_ctx *c); // cuda_ntt.cu

extern "C" void cuda_ctx_destroy(cuda_ctx *c) {
    if (!c)
        return;
    cudaSetDevice(c->ordinal);
    cudaStreamSynchronize(c->stream);
    cz_ntt_tables_free(c);
    dbuf *bufs[] = {&c->scal,    &c->flags,   &c->idx_one,     &c->idx_other, &c->keys,
                    &c->vals,    &c->keys2,   &c->vals2,       &c->cub_tmp,   &c->buckets,
                    &c->part[0], &c->part[1], &c->pkeys[0],    &c->pkeys[1],  &c->dens,
                    &c->misc,    &c->count,   &c->dens_prefix, &c->nbuf[0],   &c->nbuf[1],
                    &c->nbuf[2]};
    for (dbuf *b : bufs)
        cz_release(*b);
    cz_upload_wait(c, nullptr);
    if (c->pinned)
        cudaFreeHost(c->pinned);
    for (int i = 0; i < CZ_STAGES; i++) {
        if (c->stage[i])
            cudaFreeHost(c->stage[i]);
        cudaEventDestroy(c->stage_done[i]);
    }
    for (int i = 0; i < CZ_UPLOAD_EVENTS; i++)
        cudaEventDestroy(c->up[i]);
    cudaEventDestroy(c->fence);
    for (int i = 0; i < 8; i++)
        cudaEventDestroy(c->ev[i]);
    cudaStreamDestroy(c->copy);
    cudaStreamDestroy(c->stream);
    delete c;
}

extern "C" int cuda_ctx_ordinal(const cuda_ctx *c) { return c->ordinal; }

void cz_g1x_to_jac(g1_jac *out, const g1x *p) {
    fp x, y, zz, zzz, t;
    memcpy(&x, &p->x, sizeof x);
    memcpy(&y, &p->y, sizeof y);
    memcpy(&zz, &p->zz, sizeof zz);
    memcpy(&zzz, &p->zzz, sizeof zzz);
    if (fp_is_zero(&zz)) {
        g1_jac_set_infinity(out);
        return;
    }
    // Z = ZZ ZZZ, X = X ZZ ZZZ^2, Y = Y ZZZ^4 (ZZ^3 = ZZZ^2)
    fp_mul(&out->z, &zz, &zzz);
    fp_sqr(&t, &zzz);
    fp_mul(&out->x, &x, &zz);
    fp_mul(&out->x, &out->x, &t);
    fp_sqr(&t, &t);
    fp_mul(&out->y, &y, &t);
}

void cz_g2x_to_jac(g2_jac *out, const g2x *p) {
    fp2 x, y, zz, zzz, t;
    memcpy(&x, &p->x, sizeof x);
    memcpy(&y, &p->y, sizeof y);
    memcpy(&zz, &p->zz, sizeof zz);
    memcpy(&zzz, &p->zzz, sizeof zzz);
    if (fp_is_zero(&zz.c0) && fp_is_zero(&zz.c1)) {
        g2_jac_set_infinity(out);
        return;
    }
    fp2_mul(&out->z, &zz, &zzz);
    fp2_sqr(&t, &zzz);
    fp2_mul(&out->x, &x, &zz);
    fp2_mul(&out->x, &out->x, &t);
    fp2_sqr(&t, &t);
    fp2_mul(&out->y, &y, &t);
}

void cz_jac_to_g1x(g1x *out, const g1_jac *p) {
    fp zz, zzz;
    fp_sqr(&zz, &p->z);
    fp_mul(&zzz, &zz, &p->z);
    memcpy(&out->x, &p->x, sizeof(fp));
    memcpy(&out->y, &p->y, sizeof(fp));
    memcpy(&out->zz, &zz, sizeof(fp));
    memcpy(&out->zzz, &zzz, sizeof(fp));
}

void cz_jac_to_g2x(g2x *out, const g2_jac *p) {
    fp2 zz, zzz;
    fp2_sqr(&zz, &p->z);
    fp2_mul(&zzz, &zz, &p->z);
    memcpy(&out->x, &p->x, sizeof(fp2));
    memcpy(&out->y, &p->y, sizeof(fp2));
    memcpy(&out->zz, &zz, sizeof(fp2));
    memcpy(&out->zzz, &zzz, sizeof(fp2));
}

// ---- field self-check ------------------------------------------------------------

__global__ void k_field_mul(const dfp *a, const dfp *b, dfp *o, const dfr *x, const dfr *y, dfr *r,
                            size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    // exercise add, sub and the multiply (a square too):
    // o = a b + a b + a - b + a^2
    dfp t, t2, q;
    dfr u, u2, v;
    f_mul(t, a[i], b[i]);
    f_mul(t2, b[i], a[i]);
    f_mul(u, x[i], y[i]);
    f_mul(u2, y[i], x[i]);
    f_sqr(q, a[i]);
    f_sqr(v, x[i]);
    f_add(t, t, t2);
    f_add(t, t, a[i]);
    f_sub(t, t, b[i]);
    f_add(u, u, u2);
    f_add(u, u, x[i]);
    f_sub(u, u, y[i]);
    f_add(o[i], t, q);
    f_add(r[i], u, v);
}

extern "C" cuda_status cuda_field_mul_check(cuda_ctx *c, const fp *a, const fp *b, fp *out_p,
                                            const fr *x, const fr *y, fr *out_r, size_t n,
                                            cuda_error *err) {
    CZ_TRY(cudaSetDevice(c->ordinal));
    size_t pb = n * sizeof(fp), rb = n * sizeof(fr);
    cuda_status s = cz_reserve(c->misc, 3 * pb + 3 * rb, err);
    if (s)
        return s;
    char *m = (char *)c->misc.p;
    dfp *da = (dfp *)m, *db = (dfp *)(m + pb), *dout = (dfp *)(m + 2 * pb);
    dfr *dx = (dfr *)(m + 3 * pb), *dy = (dfr *)(m + 3 * pb + rb),
        *dr = (dfr *)(m + 3 * pb + 2 * rb);
    if ((s = cz_upload(c, da, a, pb, err)) || (s = cz_upload(c, db, b, pb, err)) ||
        (s = cz_upload(c, dx, x, rb, err)) || (s = cz_upload(c, dy, y, rb, err)))
        return s;
    k_field_mul<<<(unsigned)((n + 255) / 256), 256, 0, c->stream>>>(da, db, dout, dx, dy, dr, n);
    CZ_LAUNCHED("k_field_mul");
    if ((s = cz_download(c, out_p, dout, pb, err)) || (s = cz_download(c, out_r, dr, rb, err)))
        return s;
    return CUDA_OK;
}
