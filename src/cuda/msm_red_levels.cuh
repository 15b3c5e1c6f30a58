// The levelled bucket reduction's kernels (msm_reduce.cuh plans and launches
// them), for one field type's translation unit (cuda_msm_g1_levels.cu,
// cuda_msm_g2_levels.cu), which instantiates their launchers.
#ifndef CUZK_CUDA_MSM_RED_LEVELS_CUH
#define CUZK_CUDA_MSM_RED_LEVELS_CUH

#include "cuda/msm_reduce.cuh"

// The levelled reduction (gpu_msm_red_levels): two live points per thread
// where k_red1 holds three (G2 at 255 registers spilled 5 KB), the second
// read from memory as the addition needs it (x_add_mem: ~50 bytes of
// spills), and no double-and-add.  Per window,
// with V_i the n = 2^n_log values of a level (level 1: the buckets, weights
// i + 1; later: the previous level's T, weights i), parts j of 2^s_log:
//   sum_i (i + 1) V_i = sum_j R_j + 2^s_log red0(T),
//   red0(V) = sum_i i V_i = sum_j R'_j + 2^s_log red0(T),
// T_j = sum of part j, R_j = sum over the part of its suffix sums U_l =
// sum_(k >= l) V_(j s + k), R'_j the same without U_0 (= T_j); red0 of a
// single value is zero, so the levels end when one part is left.
//
// One level: thread id takes part id (windows are contiguous), first the
// suffix sums in place (V_(js+l) = U_l, T_id = U_0), then R_id = the sum of
// U_l from `from` on (1: R'_j).  Each loop holds two points.
template <class F>
__global__ void __launch_bounds__(128)
    k_red_level(xyzz<F> *v, unsigned n_log, unsigned windows, unsigned s_log, int from, xyzz<F> *T,
                xyzz<F> *R) {
    uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= windows << (n_log - s_log))
        return;
    xyzz<F> *b = v + ((size_t)id << s_log);
    {
        xyzz<F> run;
        x_set_inf(run);
        for (int i = (1 << s_log) - 1; i >= 0; i--) {
            x_add_mem(run, b + i);
            stv(b + i, run);
        }
        stv(T + id, run);
    }
    xyzz<F> acc;
    x_set_inf(acc);
    for (int i = from; i < (1 << s_log); i++)
        x_add_mem(acc, b + i);
    stv(R + id, acc);
}

template <class F> __global__ void k_red_trees(const xyzz<F> *R, red_trees t, xyzz<F> *win) {
    extern __shared__ uint4 smem_raw[];
    xyzz<F> *sh = (xyzz<F> *)smem_raw;
    int l = 0;
    while (l + 1 < t.nlev && blockIdx.x >= t.first[l + 1])
        l++;
    unsigned local = blockIdx.x - t.first[l], w = local / t.groups[l], g = local % t.groups[l];
    const xyzz<F> *r = R + t.roff[l] + (size_t)w * t.pw[l];
    xyzz<F> acc;
    x_set_inf(acc);
    for (unsigned j = g * blockDim.x + threadIdx.x; j < t.pw[l]; j += t.groups[l] * blockDim.x)
        x_add_mem(acc, r + j);
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned h = blockDim.x / 2; h; h >>= 1) {
        if (threadIdx.x < h) {
            xyzz<F> a = sh[threadIdx.x];
            x_add_mem(a, sh + threadIdx.x + h);
            sh[threadIdx.x] = a;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        win[(size_t)w * t.per + t.eoff[l] + g] = sh[0];
}

template <class F>
void cz_launch_red_level(cuda_ctx *c, unsigned grid, xyzz<F> *v, unsigned n_log, unsigned windows,
                         unsigned s_log, int from, xyzz<F> *T, xyzz<F> *R) {
    k_red_level<F><<<grid, 128, 0, c->stream>>>(v, n_log, windows, s_log, from, T, R);
}

template <class F>
void cz_launch_red_trees(cuda_ctx *c, unsigned grid, unsigned block, size_t smem, const xyzz<F> *R,
                         const red_trees &t, xyzz<F> *win) {
    k_red_trees<F><<<grid, block, smem, c->stream>>>(R, t, win);
}

#define CZ_RED_LEVELS_INSTANCE(F)                                                                 \
    template void cz_launch_red_level<F>(cuda_ctx *, unsigned, xyzz<F> *, unsigned, unsigned,     \
                                         unsigned, int, xyzz<F> *, xyzz<F> *);                    \
    template void cz_launch_red_trees<F>(cuda_ctx *, unsigned, unsigned, size_t, const xyzz<F> *, \
                                         const red_trees &, xyzz<F> *)

#endif
