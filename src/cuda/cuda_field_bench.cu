// Field-multiply throughput on the device, the PTX carry chains against the
// portable C, in one binary (both are compiled here whatever the build's
// CUZK_NO_PTX_FIELD): the A/B for field_ptx.cuh.  Each thread runs four
// independent chains x_k = x_k * y so the multiplier is kept busy; the
// results of both variants are compared.
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_internal.cuh"

namespace {

template <class P, bool PTX>
__device__ __forceinline__ void mul(field<P> &r, const field<P> &a, const field<P> &b) {
#ifdef __CUDA_ARCH__ // ptx_mul exists only in the device pass
    if constexpr (PTX) {
        ptx_mul<P>(r.v, a.v, b.v);
        return;
    }
#endif
    f_mul_c(r, a, b);
}

template <class P, bool PTX>
__global__ void __launch_bounds__(256) k_mul_chain(field<P> *x, const field<P> *y, unsigned iters) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    field<P> a[4], b = y[i];
#pragma unroll
    for (int k = 0; k < 4; k++)
        a[k] = x[4 * i + k];
    for (unsigned it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < 4; k++)
            mul<P, PTX>(a[k], a[k], b);
    }
#pragma unroll
    for (int k = 0; k < 4; k++)
        x[4 * i + k] = a[k];
}

// Runs both variants of one field on copies of the same data: times (ms) and
// whether the results agree.
template <class P>
cuda_status bench_one(cuda_ctx *c, size_t threads, unsigned iters, const void *x_host,
                      const void *y_host, float *ms_ptx, float *ms_c, int *equal, cuda_error *err) {
    size_t xb = 4 * threads * sizeof(field<P>), yb = threads * sizeof(field<P>);
    cuda_status s = cz_reserve(c->misc, 3 * xb + yb, err);
    if (s)
        return s;
    char *m = (char *)c->misc.p;
    field<P> *x1 = (field<P> *)m, *x2 = (field<P> *)(m + xb), *y = (field<P> *)(m + 2 * xb);
    if ((s = cz_upload(c, x1, x_host, xb, err)) || (s = cz_upload(c, x2, x_host, xb, err)) ||
        (s = cz_upload(c, y, y_host, yb, err)))
        return s;
    unsigned blocks = (unsigned)(threads / 256);
    CZ_TRY(cudaEventRecord(c->ev[0], c->stream));
    k_mul_chain<P, true><<<blocks, 256, 0, c->stream>>>(x1, y, iters);
    CZ_LAUNCHED("k_mul_chain");
    CZ_TRY(cudaEventRecord(c->ev[1], c->stream));
    k_mul_chain<P, false><<<blocks, 256, 0, c->stream>>>(x2, y, iters);
    CZ_LAUNCHED("k_mul_chain");
    CZ_TRY(cudaEventRecord(c->ev[2], c->stream));
    CZ_TRY(cudaEventSynchronize(c->ev[2]));
    CZ_TRY(cudaEventElapsedTime(ms_ptx, c->ev[0], c->ev[1]));
    CZ_TRY(cudaEventElapsedTime(ms_c, c->ev[1], c->ev[2]));
    char *h = (char *)malloc(2 * xb);
    if (!h)
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory");
    if ((s = cz_download(c, h, x1, xb, err)) || (s = cz_download(c, h + xb, x2, xb, err))) {
        free(h);
        return s;
    }
    *equal = memcmp(h, h + xb, xb) == 0;
    free(h);
    return CUDA_OK;
}

} // namespace

extern "C" cuda_status cuda_field_bench(cuda_ctx *c, int which_fr, size_t threads, unsigned iters,
                                        const void *x, const void *y, float *ms_ptx, float *ms_c,
                                        int *equal, cuda_error *err) {
    if (!c || !x || !y || !threads || threads % 256)
        return cz_fail(err, CUDA_ERR_ARG, "cuda_field_bench: threads must be a multiple of 256");
    CZ_TRY(cudaSetDevice(c->ordinal));
    return which_fr ? bench_one<fr_params>(c, threads, iters, x, y, ms_ptx, ms_c, equal, err)
                    : bench_one<fp_params>(c, threads, iters, x, y, ms_ptx, ms_c, equal, err);
}
