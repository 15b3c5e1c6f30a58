// Field-multiply throughput on the device: the PTX carry chains (ptx_mul2,
// the multiply every kernel uses) against the portable C (the host's), in one
// binary.  Each thread
// runs four independent chains x_k = x_k * y so the multiplier is kept busy;
// the results are compared.
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_internal.cuh"

namespace {

enum { V_PTX2, V_C, V_COUNT };

template <class P, int V>
__device__ __forceinline__ void mul(field<P> &r, const field<P> &a, const field<P> &b) {
#ifdef __CUDA_ARCH__ // the PTX multiplies exist only in the device pass
    if constexpr (V == V_PTX2) {
        ptx_mul2<P>(r.v, a.v, b.v);
        return;
    }
#endif
    f_mul_c(r, a, b);
}

template <class P, int V>
__global__ void __launch_bounds__(256) k_mul_chain(field<P> *x, const field<P> *y, unsigned iters) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    field<P> a[4], b = y[i];
#pragma unroll
    for (int k = 0; k < 4; k++)
        a[k] = x[4 * i + k];
    for (unsigned it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < 4; k++)
            mul<P, V>(a[k], a[k], b);
    }
#pragma unroll
    for (int k = 0; k < 4; k++)
        x[4 * i + k] = a[k];
}

template <class P, int V>
static void launch(cuda_ctx *c, unsigned blocks, field<P> *x, const field<P> *y, unsigned iters) {
    k_mul_chain<P, V><<<blocks, 256, 0, c->stream>>>(x, y, iters);
}

// Runs the V_COUNT variants of one field on copies of the same data: times
// (ms, in the enum's order) and whether the results agree.
template <class P>
cuda_status bench_one(cuda_ctx *c, size_t threads, unsigned iters, const void *x_host,
                      const void *y_host, float ms[V_COUNT], int *equal, cuda_error *err) {
    size_t xb = 4 * threads * sizeof(field<P>), yb = threads * sizeof(field<P>);
    cuda_status s = cz_reserve(c->misc, V_COUNT * xb + yb, err);
    if (s)
        return s;
    char *m = (char *)c->misc.p;
    field<P> *x[V_COUNT], *y = (field<P> *)(m + V_COUNT * xb);
    for (int v = 0; v < V_COUNT; v++)
        if ((s = cz_upload(c, x[v] = (field<P> *)(m + v * xb), x_host, xb, err)))
            return s;
    if ((s = cz_upload(c, y, y_host, yb, err)))
        return s;
    unsigned blocks = (unsigned)(threads / 256);
    void (*run[V_COUNT])(cuda_ctx *, unsigned, field<P> *, const field<P> *,
                         unsigned) = {launch<P, V_PTX2>, launch<P, V_C>};
    CZ_TRY(cudaEventRecord(c->ev[0], c->stream));
    for (int v = 0; v < V_COUNT; v++) {
        run[v](c, blocks, x[v], y, iters);
        CZ_LAUNCHED("k_mul_chain");
        CZ_TRY(cudaEventRecord(c->ev[v + 1], c->stream));
    }
    CZ_TRY(cudaEventSynchronize(c->ev[V_COUNT]));
    for (int v = 0; v < V_COUNT; v++)
        CZ_TRY(cudaEventElapsedTime(&ms[v], c->ev[v], c->ev[v + 1]));
    char *h = (char *)malloc(V_COUNT * xb);
    if (!h)
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory");
    for (int v = 0; v < V_COUNT && !s; v++)
        s = cz_download(c, h + v * xb, x[v], xb, err);
    *equal = !s;
    for (int v = 1; v < V_COUNT && !s; v++)
        *equal &= memcmp(h, h + v * xb, xb) == 0;
    free(h);
    return s;
}

} // namespace

extern "C" cuda_status cuda_field_bench(cuda_ctx *c, int which_fr, size_t threads, unsigned iters,
                                        const void *x, const void *y, float ms[2], int *equal,
                                        cuda_error *err) {
    if (!c || !x || !y || !threads || threads % 256)
        return cz_fail(err, CUDA_ERR_ARG, "cuda_field_bench: threads must be a multiple of 256");
    CZ_TRY(cudaSetDevice(c->ordinal));
    return which_fr ? bench_one<fr_params>(c, threads, iters, x, y, ms, equal, err)
                    : bench_one<fp_params>(c, threads, iters, x, y, ms, equal, err);
}
