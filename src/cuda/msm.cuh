// The MSM's two halves and what passes between them.  cuda_msm.cu does the
// field-independent half for every MSM: the scalars classified (zeros
// dropped, ones listed apart), the rest cut into signed digits and sorted
// by bucket (cz_msm_prepare).  cz_msm_sum<F> does the rest for one field
// type: the buckets accumulated (msm_accumulate.cuh), reduced
// (msm_reduce.cuh) and combined on the CPU (msm_sum.cuh).  Each field type's
// kernels are in three files (cuda_msm_g1.cu with cuda_msm_g1_red2.cu and
// cuda_msm_g1_levels.cu; the same for G2) so that ptxas, most of their
// build, runs on them side by side.
#ifndef CUZK_CUDA_MSM_CUH
#define CUZK_CUDA_MSM_CUH

#include "cuda/cuda_internal.cuh"

extern "C" {
#include "util/switches.h"
}

#define KEY_NONE 0xffffffffu // an empty slot in a partial list

// 16-byte vector copies for the 32/96/192/384-byte records: loads by x_ld
// (curve.cuh), stores here.
template <class T> static __device__ __forceinline__ void stv(T *p, const T &v) {
    const uint4 *s = (const uint4 *)&v;
    uint4 *d = (uint4 *)p;
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 16; i++)
        d[i] = s[i];
}

static inline unsigned ceil_log2(size_t x) {
    unsigned l = 0;
    while (((size_t)1 << l) < x)
        l++;
    return l;
}

// A prepared MSM: n_oth scalars as m = n_oth * windows entries sorted by
// key (window << (cw - 1) | (|digit| - 1); none = past every bucket), values
// base index | sign << 31; the n_one bases of the one-scalars listed apart.
struct msm_prep {
    size_t n_one, m;
    unsigned cw, windows;
    uint32_t none;
    const uint32_t *keys, *vals, *ones; // device
    const void *bases;                  // device, the first base of this MSM
};

// Classifies, digits and sorts (events ev[0..2]; stats: classify, sort,
// counts, window).  rec: the bytes of one affine base.
cuda_status cz_msm_prepare(cuda_ctx *c, const cuda_bases *bs, size_t first, size_t rec,
                           const dfr *scal, int mont, const uint64_t *density, size_t n,
                           unsigned window, int fast, msm_prep *p, cuda_msm_stats *stats,
                           cuda_error *err);

// out = the prepared MSM's sum (events ev[2..4]; stats: buckets, reduce,
// total).  p comes from a prepare of n > 0 scalars.
template <class F>
cuda_status cz_msm_sum(cuda_ctx *c, const msm_prep &p, xyzz<F> *out, cuda_msm_stats *stats,
                       cuda_error *err);

extern template cuda_status cz_msm_sum<dfp>(cuda_ctx *, const msm_prep &, xyzz<dfp> *,
                                            cuda_msm_stats *, cuda_error *);
extern template cuda_status cz_msm_sum<dfp2>(cuda_ctx *, const msm_prep &, xyzz<dfp2> *,
                                             cuda_msm_stats *, cuda_error *);

#endif
