// The one-level bucket reduction's second kernel, k_red2 (msm_reduce.cuh
// launches it), for one field type's translation unit (cuda_msm_g1_red2.cu,
// cuda_msm_g2_red2.cu), which instantiates its launcher: with its
// double-and-add it is the longest kernel for ptxas.
#ifndef CUZK_CUDA_MSM_RED2_CUH
#define CUZK_CUDA_MSM_RED2_CUH

#include "cuda/msm_reduce.cuh"

template <class F> static __device__ void x_mul_small(xyzz<F> &r, const xyzz<F> &p, uint32_t k) {
    x_set_inf(r);
    for (int bit = 31 - __clz(k | 1); bit >= 0; bit--) {
        x_dbl(r, r);
        if ((k >> bit) & 1)
            x_add(r, p);
    }
}

// Block w G + g: partial sum of window w over parts j = g b + i + k G b
// (b = blockDim.x, i < b): sum R_j + (j s) T_j, reduced through shared
// memory.  G groups per window keep every SM busy: with one block per window
// the 13 windows of a large MSM ran on 13 SMs.
template <class F>
__global__ void k_red2(const xyzz<F> *R, const xyzz<F> *T, unsigned parts, unsigned groups,
                       unsigned s_log, xyzz<F> *win) {
    extern __shared__ uint4 smem_raw[];
    xyzz<F> *sh = (xyzz<F> *)smem_raw;
    unsigned w = blockIdx.x / groups, g = blockIdx.x % groups;
    xyzz<F> acc, q;
    x_set_inf(acc);
    for (unsigned j = g * blockDim.x + threadIdx.x; j < parts; j += groups * blockDim.x) {
        size_t id = (size_t)w * parts + j;
        xyzz<F> r = x_ld(R + id), t = x_ld(T + id);
        x_add(acc, r);
        if (j) {
            x_mul_small(q, t, j << s_log);
            x_add(acc, q);
        }
    }
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned h = blockDim.x / 2; h; h >>= 1) {
        if (threadIdx.x < h) {
            xyzz<F> a = sh[threadIdx.x];
            x_add(a, sh[threadIdx.x + h]);
            sh[threadIdx.x] = a;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        win[blockIdx.x] = sh[0];
}

template <class F>
void cz_launch_red2(cuda_ctx *c, unsigned grid, unsigned block, size_t smem, const xyzz<F> *R,
                    const xyzz<F> *T, unsigned parts, unsigned groups, unsigned s_log,
                    xyzz<F> *win) {
    k_red2<F><<<grid, block, smem, c->stream>>>(R, T, parts, groups, s_log, win);
}

#define CZ_RED2_INSTANCE(F)                                                                  \
    template void cz_launch_red2<F>(cuda_ctx *, unsigned, unsigned, size_t, const xyzz<F> *, \
                                    const xyzz<F> *, unsigned, unsigned, unsigned, xyzz<F> *)

#endif
