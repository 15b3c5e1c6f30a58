// The MSM's bucket reduction (step 5 of cuda_msm.cu's outline), for each
// field type: per window, parts of buckets by running sums (one level) or
// by levels of suffix sums (gpu_msm_red_levels), then G blocks per window
// combine the parts into G partial window sums, which the CPU adds up and
// combines (Horner in 2^c) with the sum of the ones.
#ifndef CUZK_CUDA_MSM_REDUCE_CUH
#define CUZK_CUDA_MSM_REDUCE_CUH

#include "cuda/msm.cuh"

extern "C" {
#include "curve/g1.h"
#include "curve/g2.h"
}

// Part j of window w (buckets [j s, (j + 1) s)): T = sum B_b, R = sum (b - j s + 1) B_b.
template <class F>
__global__ void __launch_bounds__(128)
    k_red1(const xyzz<F> *buckets, unsigned nb_log, unsigned windows, unsigned s_log, xyzz<F> *R,
           xyzz<F> *T) {
    uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t parts = 1u << (nb_log - s_log);
    if (id >= windows * parts)
        return;
    uint32_t w = id / parts, j = id % parts;
    const xyzz<F> *b = buckets + ((size_t)w << nb_log) + ((size_t)j << s_log);
    xyzz<F> run, tot;
    x_set_inf(run);
    x_set_inf(tot);
    for (int i = (1 << s_log) - 1; i >= 0; i--) {
        xyzz<F> q = x_ld(b + i);
        x_add(run, q);
        x_add(tot, run);
    }
    stv(R + id, tot);
    stv(T + id, run);
}

// Levels: level 1 takes at least 1 of at most 23 bucket bits, the others 2.
#define RED_MAX_LEVELS 12

// Every level's tree in one launch (the levels' trees ran one after another
// before).  Block b of level l (blocks from first[l]): window w, group g of
// groups[l]; it sums R_j (R + roff[l] + w pw[l]) over j = g bd + i + k G bd
// into win[w per + eoff[l] + g].  The CPU scales and adds the levels.
struct red_trees {
    int nlev;
    unsigned pw[RED_MAX_LEVELS], groups[RED_MAX_LEVELS], first[RED_MAX_LEVELS],
        eoff[RED_MAX_LEVELS], per;
    size_t roff[RED_MAX_LEVELS];
};

// The kernels of the one-level path's second step (msm_red2.cuh) and of the
// levels (msm_red_levels.cuh) live in translation units of their own, one per
// field type (cuda_msm_g1_red2.cu, ...), so that ptxas runs on them side by
// side; these launch them.
template <class F>
void cz_launch_red2(cuda_ctx *c, unsigned grid, unsigned block, size_t smem, const xyzz<F> *R,
                    const xyzz<F> *T, unsigned parts, unsigned groups, unsigned s_log,
                    xyzz<F> *win);
template <class F>
void cz_launch_red_level(cuda_ctx *c, unsigned grid, xyzz<F> *v, unsigned n_log, unsigned windows,
                         unsigned s_log, int from, xyzz<F> *T, xyzz<F> *R);
template <class F>
void cz_launch_red_trees(cuda_ctx *c, unsigned grid, unsigned block, size_t smem, const xyzz<F> *R,
                         const red_trees &t, xyzz<F> *win);

// ---- host side ----------------------------------------------------------------

// The bucket reduction's shape.  One level (k_red1, k_red2) or several
// (gpu_msm_red_levels: k_red_level per level, then k_red_trees): level l has
// 2^n_log[l] values per window in parts of 2^s_log[l], and its tree gives
// groups[l] of a window's `per` entries; every tree block has `block`
// threads (level 1's shape: one launch builds every level's tree).
struct red_plan {
    bool levels;
    int nlev;
    unsigned n_log[RED_MAX_LEVELS], s_log[RED_MAX_LEVELS], groups[RED_MAX_LEVELS], block;
    size_t parts; // R and T slots, all levels
    unsigned per;
};

// out = sum_w 2^(c w) W_w + w[windows per] (the ones), on the CPU, in
// Jacobian.  W_w from window w's entries w[w per ...]: the sum of its groups;
// with levels, W = S_0 + 2^s_0 (S_1 + 2^s_1 (S_2 + ...)), S_l the sum of
// level l's groups (a few dozen doublings a window: cheap here, slow as a
// chain of dependent additions on one GPU thread).
template <class X, class J>
static void combine_t(X *out, const X *w, unsigned windows, const red_plan &p, unsigned c,
                      void (*to_jac)(J *, const X *), void (*from_jac)(X *, const J *),
                      void (*dbl)(J *, const J *), void (*add)(J *, const J *, const J *)) {
    J acc, win, t;
    auto add_x = [&](J *r, const X *q) {
        to_jac(&t, q);
        add(r, r, &t);
    };
    auto window_sum = [&](J *r, unsigned wi) {
        const X *e = w + (size_t)wi * p.per;
        unsigned eoff[RED_MAX_LEVELS] = {0}, o = 0;
        for (int l = 0; l < p.nlev; l++) {
            eoff[l] = o;
            o += p.groups[l];
        }
        int top = p.nlev - 1;
        to_jac(r, &e[eoff[top]]);
        for (unsigned g = 1; g < p.groups[top]; g++)
            add_x(r, &e[eoff[top] + g]);
        for (int l = top - 1; l >= 0; l--) {
            for (unsigned k = 0; k < p.s_log[l]; k++)
                dbl(r, r);
            for (unsigned g = 0; g < p.groups[l]; g++)
                add_x(r, &e[eoff[l] + g]);
        }
    };
    window_sum(&acc, windows - 1);
    for (int i = (int)windows - 2; i >= 0; i--) {
        for (unsigned k = 0; k < c; k++)
            dbl(&acc, &acc);
        window_sum(&win, (unsigned)i);
        add(&acc, &acc, &win);
    }
    add_x(&acc, &w[(size_t)windows * p.per]);
    from_jac(out, &acc);
}

static inline void combine(g1x *out, const g1x *w, unsigned windows, const red_plan &p,
                           unsigned c) {
    combine_t<g1x, g1_jac>(out, w, windows, p, c, cz_g1x_to_jac, cz_jac_to_g1x, g1_jac_dbl,
                           g1_jac_add_vartime);
}

static inline void combine(g2x *out, const g2x *w, unsigned windows, const red_plan &p,
                           unsigned c) {
    combine_t<g2x, g2_jac>(out, w, windows, p, c, cz_g2x_to_jac, cz_jac_to_g2x, g2_jac_dbl,
                           g2_jac_add_vartime);
}

// A tree kernel's shape for pw values per window: blocks of p2 threads (a
// power of two), `groups` blocks per window with about two values per thread.
static inline void tree_shape(size_t pw, size_t xs, unsigned *p2, unsigned *groups) {
    unsigned bd = xs > 200 ? 64 : 128;
    if (bd > pw)
        bd = pw < 1 ? 1 : (unsigned)pw;
    *p2 = 1;
    while (*p2 * 2 <= bd)
        *p2 *= 2;
    size_t g = pw / (2 * *p2);
    *groups = g < 1 ? 1 : g > 64 ? 64 : (unsigned)g;
}

// gpu_msm_red_levels = 1: the levels from 2^18 buckets on; below, their
// chain of short dependent kernels cost more than k_red2's double-and-add
// (porep-2k's small MSMs ran slower: PERFORMANCE.md).  2: always (the tests), 0: never.
#define RED_LEVELS_MIN_LOG 18

// part: log2 of the buckets a thread sums at level 1 (gpu_msm_red_part), 0
// from the size.
static inline red_plan plan_reduction(unsigned nb_log, unsigned windows, size_t xs, long levels,
                                      long part) {
    red_plan p;
    memset(&p, 0, sizeof p);
    p.levels = levels == 2 || (levels == 1 && nb_log + ceil_log2(windows) >= RED_LEVELS_MIN_LOG);
    // level 1 runs 2^s_log buckets per thread: enough threads (~2^16) to fill
    // the GPU, at most 128 buckets each; G2 (two blocks an SM at 255
    // registers) twice the buckets a thread, at most 64: measured best at
    // 2^20, 2^22 and 2^24 (gpu_msm_red_part, PERFORMANCE.md).  Later levels parts of 4 (each
    // level is a few dependent additions: the latency, not the work, counts)
    int sl = (int)nb_log + (int)ceil_log2(windows) - 16, cap = 7;
    if (xs > 200) {
        sl++;
        cap = 6;
    }
    unsigned s_log = sl < 1 ? 1 : sl > cap ? (unsigned)cap : (unsigned)sl;
    if (part > 0)
        s_log = (unsigned)part;
    if (s_log > nb_log)
        s_log = nb_log;
    unsigned n_log = nb_log;
    for (;;) {
        int l = p.nlev++;
        p.n_log[l] = n_log;
        p.s_log[l] = s_log;
        size_t pw = (size_t)1 << (n_log - s_log);
        p.parts += windows * pw;
        if (l == 0)
            tree_shape(pw, xs, &p.block, &p.groups[0]); // one tree launch: this block size for all
        else
            p.groups[l] = pw > 2 * p.block ? (unsigned)(pw / (2 * p.block)) : 1;
        p.per += p.groups[l];
        n_log -= s_log;
        if (!p.levels || n_log == 0)
            break;
        s_log = n_log < 2 ? n_log : 2;
    }
    return p;
}

template <class F>
static cuda_status reduce(cuda_ctx *c, const red_plan &p, xyzz<F> *buckets, xyzz<F> *R, xyzz<F> *T,
                          unsigned windows, unsigned nb_log, xyzz<F> *win, cuda_error *err) {
    size_t xs = sizeof(xyzz<F>);
    if (!p.levels) {
        unsigned s_log = p.s_log[0], pw = 1u << (nb_log - s_log);
        uint32_t th = windows * pw;
        k_red1<F><<<(th + 127) / 128, 128, 0, c->stream>>>(buckets, nb_log, windows, s_log, R, T);
        CZ_LAUNCHED("k_red1");
        cz_launch_red2<F>(c, windows * p.groups[0], p.block, p.block * xs, R, T, pw, p.groups[0],
                          s_log, win);
        CZ_LAUNCHED("k_red2");
        return CUDA_OK;
    }
    red_trees t;
    memset(&t, 0, sizeof t);
    t.nlev = p.nlev;
    t.per = p.per;
    xyzz<F> *v = buckets;
    size_t off = 0;
    unsigned blocks = 0, eoff = 0;
    for (int l = 0; l < p.nlev; l++) {
        unsigned n_log = p.n_log[l], s_log = p.s_log[l], pw = 1u << (n_log - s_log);
        uint32_t th = windows * pw;
        cz_launch_red_level<F>(c, (th + 127) / 128, v, n_log, windows, s_log, l ? 1 : 0, T + off,
                               R + off);
        CZ_LAUNCHED("k_red_level");
        v = T + off; // the next level's values
        t.pw[l] = pw;
        t.groups[l] = p.groups[l];
        t.roff[l] = off;
        t.first[l] = blocks;
        t.eoff[l] = eoff;
        blocks += windows * p.groups[l];
        eoff += p.groups[l];
        off += th;
    }
    cz_launch_red_trees<F>(c, blocks, p.block, p.block * xs, R, t, win);
    CZ_LAUNCHED("k_red_trees");
    return CUDA_OK;
}

#endif
