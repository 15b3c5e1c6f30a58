// cz_msm_sum<F> (msm.cuh): a prepared MSM's buckets accumulated, reduced and
// combined, for one field type.  Included only by that type's file
// (cuda_msm_g1.cu, cuda_msm_g2.cu), which instantiates it.
#ifndef CUZK_CUDA_MSM_SUM_CUH
#define CUZK_CUDA_MSM_SUM_CUH

#include <new>
#include <string.h>

#include "cuda/msm_accumulate.cuh"
#include "cuda/msm_reduce.cuh"

template <class F>
cuda_status cz_msm_sum(cuda_ctx *c, const msm_prep &p, xyzz<F> *out, cuda_msm_stats *stats,
                       cuda_error *err) {
    const affine<F> *bases = (const affine<F> *)p.bases;
    unsigned windows = p.windows, cw = p.cw, nb_log = cw - 1;
    size_t nb = (size_t)windows << nb_log;
    // buckets + parts (R, T) + windows + ones, one allocation
    size_t xs = sizeof(xyzz<F>);
    red_plan rp = plan_reduction(nb_log, windows, xs, switch_get(SW_GPU_MSM_RED_LEVELS),
                                 switch_get(SW_GPU_MSM_RED_PART));
    size_t nw = (size_t)windows * rp.per; // partial window sums
    size_t total = nb + 2 * rp.parts + nw + 1;
    cuda_status s;
    if ((s = cz_reserve(c->buckets, total * xs, err)))
        return s;
    xyzz<F> *buckets = (xyzz<F> *)c->buckets.p;
    xyzz<F> *R = buckets + nb, *T = R + rp.parts, *win = T + rp.parts, *onesum = win + nw;
    CZ_TRY(cudaMemsetAsync(buckets, 0, total * xs, c->stream));
    CZ_TRY(cudaEventRecord(c->ev[2], c->stream));
    if (p.m && (s = accumulate<F>(c, p.keys, p.vals, p.m, p.none, bases, buckets, err)))
        return s;
    if (p.n_one && (s = accumulate<F>(c, nullptr, p.ones, p.n_one, 1, bases, onesum, err)))
        return s;
    CZ_TRY(cudaEventRecord(c->ev[3], c->stream));
    if (p.m && (s = reduce<F>(c, rp, buckets, R, T, windows, nb_log, win, err)))
        return s;
    // The partial window sums and the ones come back (W G + 1 points) and are
    // combined on the CPU: Horner in 2^c is a chain of dependent doublings,
    // far slower on one GPU thread than here (PERFORMANCE.md).
    xyzz<F> *wins = new (std::nothrow) xyzz<F>[nw + 1];
    if (!wins)
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory");
    cudaError_t ce = cudaMemcpyAsync(wins, win, (nw + 1) * xs, cudaMemcpyDeviceToHost, c->stream);
    if (ce == cudaSuccess)
        ce = cudaEventRecord(c->ev[4], c->stream);
    if (ce == cudaSuccess)
        ce = cudaStreamSynchronize(c->stream);
    if (ce == cudaSuccess)
        combine(out, wins, windows, rp, cw);
    delete[] wins;
    if (ce != cudaSuccess)
        return cz_cuda_fail(err, ce, "MSM window sums: download");
    float a = 0, b = 0, d = 0, e = 0;
    cudaEventElapsedTime(&a, c->ev[0], c->ev[1]);
    cudaEventElapsedTime(&b, c->ev[1], c->ev[2]);
    cudaEventElapsedTime(&d, c->ev[2], c->ev[3]);
    cudaEventElapsedTime(&e, c->ev[3], c->ev[4]);
    stats->classify_ms = a;
    stats->sort_ms = b;
    stats->buckets_ms = d;
    stats->reduce_ms = e;
    stats->total_ms = a + b + d + e;
    return CUDA_OK;
}

// One field type's instantiation, for its file.
#define CZ_MSM_SUM_INSTANCE(F)                                                                    \
    template cuda_status cz_msm_sum<F>(cuda_ctx *, const msm_prep &, xyzz<F> *, cuda_msm_stats *, \
                                       cuda_error *)

#endif
