// Multi-scalar multiplication on the GPU (G1 and G2), Pippenger with signed
// digits, all on the device:
//   1. classify: scalars to canonical form (from Montgomery, or checked < r);
//      density bitmaps map scalar i to its base by rank; zeros are dropped,
//      ones listed apart (bit_fast_path), the rest listed for Pippenger.
//   2. digits: each listed scalar gives W = ceil(256 / c) signed c-bit digits
//      d in (-2^(c-1), 2^(c-1)]; entry key = window << (c-1) | (|d| - 1),
//      value = base index | sign << 31; zero digits get a key past all buckets.
//   3. one CUB radix sort of the entries by key.
//   4. accumulation by segments: thread t adds up entries [tL, tL + L) run by
//      run; runs wholly inside a segment are whole buckets and are written
//      out, the first and last run of each segment go to a partial list that
//      is reduced the same way (level by level) until one segment is left.
//      Every thread does the same work whatever the scalar distribution.
//   5. bucket reduction: per window, parts of buckets by running sums, then
//      G blocks per window combine the parts (sum R_j + (j s) T_j) into G
//      partial window sums, which the CPU adds up and combines (Horner in
//      2^c) with the sum of the ones.
// Buckets and sums are XYZZ (curve.cuh).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <new>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_internal.cuh"

extern "C" {
#include "curve/g1.h"
#include "curve/g2.h"
#include "util/switches.h"
}

#define KEY_NONE 0xffffffffu // an empty slot in a partial list

// G2's coordinate field over the PTX Fp with the multiply fixed (gpu_g2_ptx;
// gpu_ptx_mul2 picks which).
typedef fp2_t<dfp_m1> g2f_m1;
typedef fp2_t<dfp_m2> g2f_m2;

// 16-byte vector copies for the 32/96/192/384-byte records.
template <class T> static __device__ __forceinline__ T ldv(const T *p) {
    static_assert(sizeof(T) % 16 == 0, "record size");
    T r;
    const uint4 *s = (const uint4 *)p;
    uint4 *d = (uint4 *)&r;
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 16; i++)
        d[i] = s[i];
    return r;
}
template <class T> static __device__ __forceinline__ void stv(T *p, const T &v) {
    const uint4 *s = (const uint4 *)&v;
    uint4 *d = (uint4 *)p;
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 16; i++)
        d[i] = s[i];
}

// ---- 1. classify -------------------------------------------------------------

__global__ void k_popc(const uint64_t *w, uint32_t *out, size_t words) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < words)
        out[i] = (uint32_t)__popcll(w[i]);
}

// Appends v to list at a warp-aggregated slot of *count.
static __device__ __forceinline__ void append(bool want, uint32_t *count, uint32_t *list,
                                              uint32_t v, uint32_t *list2, uint32_t v2) {
    unsigned mask = __ballot_sync(0xffffffffu, want);
    if (!mask)
        return;
    int lane = threadIdx.x & 31, leader = __ffs(mask) - 1;
    uint32_t base = 0;
    if (lane == leader)
        base = atomicAdd(count, (uint32_t)__popc(mask));
    base = __shfl_sync(0xffffffffu, base, leader);
    if (want) {
        uint32_t slot = base + (uint32_t)__popc(mask & ((1u << lane) - 1));
        list[slot] = v;
        if (list2)
            list2[slot] = v2;
    }
}

// counts[0] = ones, counts[1] = others; bad = lowest non-canonical index.
__global__ void k_classify(const dfr *in, dfr *canon, size_t n, int mont, const uint64_t *dens,
                           const uint32_t *dens_prefix, int fast, uint32_t *counts, uint32_t *ones,
                           uint32_t *oth_s, uint32_t *oth_b, unsigned long long *bad) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    bool live = i < n;
    int cls = 0;
    uint32_t bi = (uint32_t)i;
    if (live) {
        bool present = true;
        if (dens) {
            uint64_t w = dens[i >> 6];
            unsigned bit = (unsigned)(i & 63);
            present = (w >> bit) & 1;
            bi = dens_prefix[i >> 6] + (uint32_t)__popcll(w & ((1ull << bit) - 1));
        }
        if (present) {
            dfr s = ldv(in + i);
            if (mont) {
                f_from_mont(s, s);
            } else if (!f_is_canonical(s)) {
                atomicMin(bad, (unsigned long long)i);
                present = false;
            }
            if (present) {
                stv(canon + i, s);
                uint32_t hi = 0;
#pragma unroll
                for (int k = 1; k < 8; k++)
                    hi |= s.v[k];
                if (hi == 0 && s.v[0] == 0)
                    cls = 0;
                else if (fast && hi == 0 && s.v[0] == 1)
                    cls = 1;
                else
                    cls = 2;
            }
        }
    }
    append(cls == 1, counts, ones, bi, nullptr, 0);
    append(cls == 2, counts + 1, oth_s, (uint32_t)i, oth_b, bi);
}

// ---- 2. digits -----------------------------------------------------------------

__global__ void k_digits(const dfr *canon, const uint32_t *oth_s, const uint32_t *oth_b, uint32_t m,
                         unsigned c, unsigned windows, uint32_t *keys, uint32_t *vals) {
    uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m)
        return;
    dfr s = ldv(canon + oth_s[j]);
    uint32_t b = oth_b[j];
    uint32_t half = 1u << (c - 1), mask = (1u << c) - 1, carry = 0;
    uint32_t none = windows << (c - 1);
    for (unsigned w = 0; w < windows; w++) {
        unsigned off = w * c, limb = off >> 5, sh = off & 31;
        uint64_t two = s.v[limb];
        if (limb + 1 < 8)
            two |= (uint64_t)s.v[limb + 1] << 32;
        uint32_t d = (uint32_t)(two >> sh) & mask;
        d += carry;
        uint32_t key, val;
        if (d > half) {
            uint32_t neg = (1u << c) - d; // digit d - 2^c <= 0
            carry = 1;
            // d = 2^c (all ones plus a carry) is the digit 0 with a carry out
            key = neg ? ((w << (c - 1)) | (neg - 1)) : none;
            val = b | 0x80000000u;
        } else {
            carry = 0;
            key = d ? ((w << (c - 1)) | (d - 1)) : none;
            val = b;
        }
        keys[(size_t)w * m + j] = key;
        vals[(size_t)w * m + j] = val;
    }
}

// ---- 4. accumulation -------------------------------------------------------------

template <class F>
static __device__ __forceinline__ void add_entry(xyzz<F> &acc, const affine<F> *bases, uint32_t v) {
    affine<F> q = ldv(bases + (v & 0x7fffffffu));
    if (v >> 31)
        f_neg(q.y, q.y);
    xk_add_aff(acc, q);
}

// Level 0: entries are (key, base reference).  keys == NULL: every key is 0
// (the list of ones).  A run that may continue in a neighbouring segment goes
// to slot 2t (first run) or 2t + 1 (last run) of the partial list.
template <class F>
__global__ void __launch_bounds__(128)
    k_acc0(const uint32_t *keys, const uint32_t *vals, size_t m, uint32_t none, uint32_t seg,
           const affine<F> *bases, xyzz<F> *buckets, uint32_t *pkeys, xyzz<F> *parts,
           size_t threads) {
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= threads)
        return;
    size_t s = t * seg, e = s + seg < m ? s + seg : m;
    pkeys[2 * t] = KEY_NONE;
    pkeys[2 * t + 1] = KEY_NONE;
#define KEY(i) (keys ? keys[i] : 0u)
    uint32_t cur = KEY(s);
    if (cur >= none)
        return;
    bool start_open = s > 0 && KEY(s - 1) == cur, first = true;
    xyzz<F> acc;
    x_set_inf(acc);
    for (size_t i = s; i < e; i++) {
        uint32_t k = KEY(i);
        if (k != cur) {
            if (first && start_open) {
                pkeys[2 * t] = cur;
                stv(parts + 2 * t, acc);
            } else {
                stv(buckets + cur, acc);
            }
            first = false;
            cur = k;
            x_set_inf(acc);
            if (k >= none)
                return;
        }
        add_entry(acc, bases, vals[i]);
    }
    bool end_open = e < m && KEY(e) == cur;
    if ((first && start_open) || end_open) {
        size_t slot = first ? 2 * t : 2 * t + 1;
        pkeys[slot] = cur;
        stv(parts + slot, acc);
    } else {
        stv(buckets + cur, acc);
    }
#undef KEY
}

// Later levels: entries are (key, partial sum), KEY_NONE slots skipped.  The
// first and last run of a segment stay partial unless this is the last level.
template <class F>
__global__ void __launch_bounds__(128)
    k_accn(const uint32_t *keys, const xyzz<F> *pts, size_t m, uint32_t seg, int last,
           xyzz<F> *buckets, uint32_t *pkeys, xyzz<F> *parts, size_t threads) {
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= threads)
        return;
    size_t s = t * seg, e = s + seg < m ? s + seg : m;
    if (!last) {
        pkeys[2 * t] = KEY_NONE;
        pkeys[2 * t + 1] = KEY_NONE;
    }
    uint32_t cur = KEY_NONE;
    bool first = true;
    xyzz<F> acc;
    x_set_inf(acc);
    for (size_t i = s; i < e; i++) {
        uint32_t k = keys[i];
        if (k == KEY_NONE)
            continue;
        if (k != cur) {
            if (cur != KEY_NONE) {
                if (first && !last) {
                    pkeys[2 * t] = cur;
                    stv(parts + 2 * t, acc);
                } else {
                    stv(buckets + cur, acc);
                }
                first = false;
            }
            cur = k;
            x_set_inf(acc);
        }
        xyzz<F> q = ldv(pts + i);
        xk_add(acc, q);
    }
    if (cur == KEY_NONE)
        return;
    if (last) {
        stv(buckets + cur, acc);
    } else {
        size_t slot = first ? 2 * t : 2 * t + 1;
        pkeys[slot] = cur;
        stv(parts + slot, acc);
    }
}

// ---- 5. reduction ------------------------------------------------------------------

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
        xyzz<F> q = ldv(b + i);
        xk_add(run, q);
        xk_add(tot, run);
    }
    stv(R + id, tot);
    stv(T + id, run);
}

// The levelled reduction (gpu_msm_red_levels): two live points per thread
// where k_red1 holds three (G2 at 255 registers spilled 5 KB), the second
// read from memory as the addition needs it (xk_add_mem: ~50 bytes of
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
            xk_add_mem(run, b + i);
            stv(b + i, run);
        }
        stv(T + id, run);
    }
    xyzz<F> acc;
    x_set_inf(acc);
    for (int i = from; i < (1 << s_log); i++)
        xk_add_mem(acc, b + i);
    stv(R + id, acc);
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
        xk_add_mem(acc, r + j);
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned h = blockDim.x / 2; h; h >>= 1) {
        if (threadIdx.x < h) {
            xyzz<F> a = sh[threadIdx.x];
            xk_add_mem(a, sh + threadIdx.x + h);
            sh[threadIdx.x] = a;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        win[(size_t)w * t.per + t.eoff[l] + g] = sh[0];
}

template <class F> static __device__ void x_mul_small(xyzz<F> &r, const xyzz<F> &p, uint32_t k) {
    x_set_inf(r);
    for (int bit = 31 - __clz(k | 1); bit >= 0; bit--) {
        xk_dbl(r, r);
        if ((k >> bit) & 1)
            xk_add(r, p);
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
        xyzz<F> r = ldv(R + id), t = ldv(T + id);
        xk_add(acc, r);
        if (j) {
            x_mul_small(q, t, j << s_log);
            xk_add(acc, q);
        }
    }
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned h = blockDim.x / 2; h; h >>= 1) {
        if (threadIdx.x < h) {
            xyzz<F> a = sh[threadIdx.x];
            xk_add(a, sh[threadIdx.x + h]);
            sh[threadIdx.x] = a;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        win[blockIdx.x] = sh[0];
}

// ---- host side --------------------------------------------------------------------

// The bucket reduction's shape.  One level (k_red1, k_red2) or several
// (gpu_msm_red_levels: k_red_level per level, then k_red_trees): level l has
// 2^n_log[l] values per window in parts of 2^s_log[l], and its tree gives
// groups[l] of a window's `per` entries.
struct red_plan {
    bool levels;
    int nlev;
    unsigned n_log[RED_MAX_LEVELS], s_log[RED_MAX_LEVELS], groups[RED_MAX_LEVELS],
        p2[RED_MAX_LEVELS];
    size_t parts; // R and T slots, all levels
    unsigned per;
};

// out = sum_w 2^(c w) W_w + w[windows per] (the ones), on the CPU, in
// Jacobian.  W_w from window w's entries w[w per ...]: the sum of its groups;
// with levels, W = S_0 + 2^s_0 (S_1 + 2^s_1 (S_2 + ...)), S_l the sum of
// level l's groups (a few dozen doublings a window: ~0.1 ms here against
// ~30 us per dependent G2 addition on one GPU thread).
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
        unsigned eoff[RED_MAX_LEVELS], o = 0;
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

static void combine(g1x *out, const g1x *w, unsigned windows, const red_plan &p, unsigned c) {
    combine_t<g1x, g1_jac>(out, w, windows, p, c, cz_g1x_to_jac, cz_jac_to_g1x, g1_jac_dbl,
                           g1_jac_add_vartime);
}

static void combine(g2x *out, const g2x *w, unsigned windows, const red_plan &p, unsigned c) {
    combine_t<g2x, g2_jac>(out, w, windows, p, c, cz_g2x_to_jac, cz_jac_to_g2x, g2_jac_dbl,
                           g2_jac_add_vartime);
}

// The kernels' Fp with the multiply fixed (dfp_m1, dfp_m2) and G2 over it:
// the same bytes as g1x and g2x.
template <int M>
static void combine(xyzz<field<fp_params_m<M>>> *out, const xyzz<field<fp_params_m<M>>> *w,
                    unsigned windows, const red_plan &p, unsigned c) {
    combine((g1x *)out, (const g1x *)w, windows, p, c);
}
template <int M>
static void combine(xyzz<fp2_t<field<fp_params_m<M>>>> *out,
                    const xyzz<fp2_t<field<fp_params_m<M>>>> *w, unsigned windows,
                    const red_plan &p, unsigned c) {
    combine((g2x *)out, (const g2x *)w, windows, p, c);
}

static unsigned auto_window(size_t n) {
    if (n <= 1024)
        return 8;
    unsigned lg = 0;
    while (((size_t)1 << (lg + 1)) <= n)
        lg++;
    int c = (int)lg - 4;
    if (c < 8)
        c = 8;
    if (c > 20)
        c = 20;
    return (unsigned)c;
}

static unsigned ceil_log2(size_t x) {
    unsigned l = 0;
    while (((size_t)1 << l) < x)
        l++;
    return l;
}

// A tree kernel's shape for pw values per window: blocks of p2 threads (a
// power of two), `groups` blocks per window with about two values per thread.
static void tree_shape(size_t pw, size_t xs, unsigned *p2, unsigned *groups) {
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
// (porep-2k's small MSMs ran 1-2 ms slower).  2: always (the tests), 0: never.
#define RED_LEVELS_MIN_LOG 18

static red_plan plan_reduction(unsigned nb_log, unsigned windows, size_t xs, long levels) {
    red_plan p;
    memset(&p, 0, sizeof p);
    p.levels = levels == 2 || (levels == 1 && nb_log + ceil_log2(windows) >= RED_LEVELS_MIN_LOG);
    // level 1 runs 2^s_log buckets per thread: enough threads (~2^16) to fill
    // the GPU, at most 128 buckets each; later levels parts of 4 (each level
    // is a few dependent additions: the latency, not the work, counts there)
    int sl = (int)nb_log + (int)ceil_log2(windows) - 16;
    unsigned s_log = sl < 1 ? 1 : sl > 7 ? 7 : (unsigned)sl;
    if (s_log > nb_log)
        s_log = nb_log;
    unsigned n_log = nb_log, bd = 0;
    for (;;) {
        int l = p.nlev++;
        p.n_log[l] = n_log;
        p.s_log[l] = s_log;
        size_t pw = (size_t)1 << (n_log - s_log);
        p.parts += windows * pw;
        tree_shape(pw, xs, &p.p2[l], &p.groups[l]);
        if (l == 0)
            bd = p.p2[0]; // one tree launch: level 1's block size for all
        else
            p.groups[l] = pw > 2 * bd ? (unsigned)(pw / (2 * bd)) : 1;
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
        k_red2<F><<<windows * p.groups[0], p.p2[0], p.p2[0] * xs, c->stream>>>(
            R, T, pw, p.groups[0], s_log, win);
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
        k_red_level<F><<<(th + 127) / 128, 128, 0, c->stream>>>(v, n_log, windows, s_log, l ? 1 : 0,
                                                                T + off, R + off);
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
    k_red_trees<F><<<blocks, p.p2[0], p.p2[0] * xs, c->stream>>>(R, t, win);
    CZ_LAUNCHED("k_red_trees");
    return CUDA_OK;
}

// Accumulates m sorted entries into buckets (already set to infinity).
template <class F>
static cuda_status accumulate(cuda_ctx *c, const uint32_t *keys, const uint32_t *vals, size_t m,
                              uint32_t none, const affine<F> *bases, xyzz<F> *buckets,
                              cuda_error *err) {
    if (m == 0)
        return CUDA_OK;
    // level 0: about 2^19 threads, 8..512 entries each
    size_t seg = m >> 19;
    if (seg < 8)
        seg = 8;
    if (seg > 512)
        seg = 512;
    size_t threads = (m + seg - 1) / seg;
    size_t cap = 2 * threads;
    cuda_status s;
    if ((s = cz_reserve(c->pkeys[0], cap * 4, err)) ||
        (s = cz_reserve(c->pkeys[1], cap * 4, err)) ||
        (s = cz_reserve(c->part[0], cap * sizeof(xyzz<F>), err)) ||
        (s = cz_reserve(c->part[1], cap * sizeof(xyzz<F>), err)))
        return s;
    uint32_t *pk[2] = {(uint32_t *)c->pkeys[0].p, (uint32_t *)c->pkeys[1].p};
    xyzz<F> *pp[2] = {(xyzz<F> *)c->part[0].p, (xyzz<F> *)c->part[1].p};
    k_acc0<F><<<(unsigned)((threads + 127) / 128), 128, 0, c->stream>>>(
        keys, vals, m, none, (uint32_t)seg, bases, buckets, pk[0], pp[0], threads);
    CZ_LAUNCHED("k_acc0");
    size_t n = 2 * threads;
    int cur = 0;
    const size_t segn = 16;
    for (;;) {
        size_t th = (n + segn - 1) / segn;
        int last = th == 1;
        size_t sg = last ? n : segn;
        k_accn<F><<<(unsigned)((th + 127) / 128), 128, 0, c->stream>>>(
            pk[cur], pp[cur], n, (uint32_t)sg, last, buckets, pk[cur ^ 1], pp[cur ^ 1], th);
        CZ_LAUNCHED("k_accn");
        if (last)
            break;
        n = 2 * th;
        cur ^= 1;
    }
    return CUDA_OK;
}

template <class F>
static cuda_status msm_dev(cuda_ctx *c, xyzz<F> *out, const cuda_bases *bs, size_t first,
                           const dfr *scal, int mont, const uint64_t *density, size_t n,
                           unsigned window, int fast, cuda_msm_stats *st, cuda_error *err) {
    cuda_msm_stats stats;
    memset(&stats, 0, sizeof stats);
    x_set_inf(*out);
    if (n == 0) {
        if (st)
            *st = stats;
        return CUDA_OK;
    }
    if (n >= 0x80000000u)
        return cz_fail(err, CUDA_ERR_ARG, "MSM of %zu scalars: at most 2^31 - 1", n);
    CZ_TRY(cz_field_switches(c->stream, true)); // read per MSM (field.cuh)
    size_t need = 0;
    size_t words = (n + 63) / 64;
    cuda_status s;
    CZ_TRY(cudaEventRecord(c->ev[0], c->stream));
    const uint64_t *d_dens = nullptr;
    const uint32_t *d_pref = nullptr;
    if (density) {
        if ((s = cz_reserve(c->dens, words * 8, err)) ||
            (s = cz_reserve(c->dens_prefix, words * 4 + 4, err)) ||
            (s = cz_upload(c, c->dens.p, density, words * 8, err)))
            return s;
        uint32_t *pc = (uint32_t *)c->dens_prefix.p;
        k_popc<<<(unsigned)((words + 255) / 256), 256, 0, c->stream>>>((const uint64_t *)c->dens.p,
                                                                       pc, words);
        CZ_LAUNCHED("k_popc");
        size_t tmp = 0;
        CZ_TRY(cub::DeviceScan::ExclusiveSum(nullptr, tmp, pc, pc, words, c->stream));
        if ((s = cz_reserve(c->cub_tmp, tmp, err)))
            return s;
        CZ_TRY(cub::DeviceScan::ExclusiveSum(c->cub_tmp.p, tmp, pc, pc, words, c->stream));
        d_dens = (const uint64_t *)c->dens.p;
        d_pref = pc;
        // the number of bases the density selects
        uint64_t last_w = density[words - 1];
        if (n % 64)
            last_w &= (1ull << (n % 64)) - 1;
        uint32_t pre_last = 0;
        CZ_TRY(cudaMemcpyAsync(&pre_last, pc + words - 1, 4, cudaMemcpyDeviceToHost, c->stream));
        CZ_TRY(cudaStreamSynchronize(c->stream));
        need = pre_last + (size_t)__builtin_popcountll(last_w);
    } else {
        need = n;
    }
    if (first + need > bs->n)
        return cz_fail(err, CUDA_ERR_ARG, "MSM needs bases [%zu, %zu) but only %zu are resident",
                       first, first + need, bs->n);
    const affine<F> *bases = (const affine<F> *)bs->d + first;
    // classify
    if ((s = cz_reserve(c->scal, n * sizeof(dfr), err)) ||
        (s = cz_reserve(c->idx_one, n * 4, err)) || (s = cz_reserve(c->idx_other, n * 8, err)) ||
        (s = cz_reserve(c->count, 64, err)))
        return s;
    uint32_t *counts = (uint32_t *)c->count.p;
    unsigned long long *bad = (unsigned long long *)((char *)c->count.p + 8);
    CZ_TRY(cudaMemsetAsync(counts, 0, 8, c->stream));
    CZ_TRY(cudaMemsetAsync(bad, 0xff, 8, c->stream));
    uint32_t *ones = (uint32_t *)c->idx_one.p;
    uint32_t *oth_s = (uint32_t *)c->idx_other.p, *oth_b = oth_s + n;
    k_classify<<<(unsigned)((n + 255) / 256), 256, 0, c->stream>>>(
        scal, (dfr *)c->scal.p, n, mont, d_dens, d_pref, fast, counts, ones, oth_s, oth_b, bad);
    CZ_LAUNCHED("k_classify");
    uint32_t hc[2];
    unsigned long long hbad;
    CZ_TRY(cudaMemcpyAsync(hc, counts, 8, cudaMemcpyDeviceToHost, c->stream));
    CZ_TRY(cudaMemcpyAsync(&hbad, bad, 8, cudaMemcpyDeviceToHost, c->stream));
    CZ_TRY(cudaEventRecord(c->ev[1], c->stream));
    CZ_TRY(cudaStreamSynchronize(c->stream));
    if (hbad != ~0ull)
        return cz_fail(err, CUDA_ERR_SCALAR, "MSM scalar %llu is not canonical (>= r)", hbad);
    size_t n_one = hc[0], n_oth = hc[1];
    stats.n_one = n_one;
    stats.n_other = n_oth;
    stats.n_zero = n - n_one - n_oth;
    // digits and sort
    unsigned cw = window ? window : auto_window(n_oth);
    if (cw < 8 || cw > 24)
        return cz_fail(err, CUDA_ERR_ARG, "MSM window %u outside [8, 24]", cw);
    unsigned windows = (256 + cw - 1) / cw;
    stats.window_bits = cw;
    stats.windows = windows;
    size_t m = n_oth * windows;
    uint32_t none = windows << (cw - 1);
    unsigned end_bit = ceil_log2((size_t)none + 1);
    size_t nb = (size_t)windows << (cw - 1);
    // buckets + parts (R, T) + windows + ones + out, one allocation
    unsigned nb_log = cw - 1;
    size_t xs = sizeof(xyzz<F>);
    red_plan rp = plan_reduction(nb_log, windows, xs, switch_get(SW_GPU_MSM_RED_LEVELS));
    size_t nw = (size_t)windows * rp.per; // partial window sums
    size_t total = nb + 2 * rp.parts + nw + 1;
    if ((s = cz_reserve(c->buckets, total * xs, err)))
        return s;
    xyzz<F> *buckets = (xyzz<F> *)c->buckets.p;
    xyzz<F> *R = buckets + nb, *T = R + rp.parts, *win = T + rp.parts, *onesum = win + nw;
    CZ_TRY(cudaMemsetAsync(buckets, 0, total * xs, c->stream));
    if (m) {
        if ((s = cz_reserve(c->keys, m * 4, err)) || (s = cz_reserve(c->vals, m * 4, err)) ||
            (s = cz_reserve(c->keys2, m * 4, err)) || (s = cz_reserve(c->vals2, m * 4, err)))
            return s;
        k_digits<<<(unsigned)((n_oth + 127) / 128), 128, 0, c->stream>>>(
            (const dfr *)c->scal.p, oth_s, oth_b, (uint32_t)n_oth, cw, windows,
            (uint32_t *)c->keys.p, (uint32_t *)c->vals.p);
        CZ_LAUNCHED("k_digits");
        size_t tmp = 0;
        CZ_TRY(cub::DeviceRadixSort::SortPairs(
            nullptr, tmp, (uint32_t *)c->keys.p, (uint32_t *)c->keys2.p, (uint32_t *)c->vals.p,
            (uint32_t *)c->vals2.p, m, 0, (int)end_bit, c->stream));
        if ((s = cz_reserve(c->cub_tmp, tmp, err)))
            return s;
        CZ_TRY(cub::DeviceRadixSort::SortPairs(
            c->cub_tmp.p, tmp, (uint32_t *)c->keys.p, (uint32_t *)c->keys2.p, (uint32_t *)c->vals.p,
            (uint32_t *)c->vals2.p, m, 0, (int)end_bit, c->stream));
    }
    CZ_TRY(cudaEventRecord(c->ev[2], c->stream));
    if (m && (s = accumulate<F>(c, (const uint32_t *)c->keys2.p, (const uint32_t *)c->vals2.p, m,
                                none, bases, buckets, err)))
        return s;
    if (n_one && (s = accumulate<F>(c, nullptr, ones, n_one, 1, bases, onesum, err)))
        return s;
    CZ_TRY(cudaEventRecord(c->ev[3], c->stream));
    if (m && (s = reduce<F>(c, rp, buckets, R, T, windows, nb_log, win, err)))
        return s;
    // The partial window sums and the ones come back (W G + 1 points) and are
    // combined on the CPU: Horner in 2^c is ~256 dependent doublings, ~20 ms
    // on one GPU thread (measured) against ~0.1 ms here.
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
    stats.classify_ms = a;
    stats.sort_ms = b;
    stats.buckets_ms = d;
    stats.reduce_ms = e;
    stats.total_ms = a + b + d + e;
    if (st)
        *st = stats;
    return CUDA_OK;
}

cuda_status cz_msm_g1_dev(cuda_ctx *c, g1x *out, const cuda_bases *b, size_t first,
                          const dfr *dev_scalars, int mont, const uint64_t *density, size_t n,
                          unsigned window, int fast, cuda_msm_stats *st, cuda_error *err) {
    if (b->g2)
        return cz_fail(err, CUDA_ERR_ARG, "G1 MSM given G2 bases");
    if (switch_get(SW_GPU_PTX_MUL2))
        return msm_dev<dfp_m2>(c, (xyzz<dfp_m2> *)out, b, first, dev_scalars, mont, density, n,
                               window, fast, st, err);
    return msm_dev<dfp_m1>(c, (xyzz<dfp_m1> *)out, b, first, dev_scalars, mont, density, n, window,
                           fast, st, err);
}

cuda_status cz_msm_g2_dev(cuda_ctx *c, g2x *out, const cuda_bases *b, size_t first,
                          const dfr *dev_scalars, int mont, const uint64_t *density, size_t n,
                          unsigned window, int fast, cuda_msm_stats *st, cuda_error *err) {
    if (!b->g2)
        return cz_fail(err, CUDA_ERR_ARG, "G2 MSM given G1 bases");
    if (switch_get(SW_GPU_G2_PTX) && switch_get(SW_GPU_PTX_MUL2))
        return msm_dev<g2f_m2>(c, (xyzz<g2f_m2> *)out, b, first, dev_scalars, mont, density, n,
                               window, fast, st, err);
    if (switch_get(SW_GPU_G2_PTX))
        return msm_dev<g2f_m1>(c, (xyzz<g2f_m1> *)out, b, first, dev_scalars, mont, density, n,
                               window, fast, st, err);
    return msm_dev<dfp2>(c, out, b, first, dev_scalars, mont, density, n, window, fast, st, err);
}

// ---- public C API ------------------------------------------------------------------

static cuda_status upload_bases(cuda_ctx *c, cuda_bases **out, const void *pts, size_t n,
                                size_t size, int g2, cuda_error *err) {
    *out = nullptr;
    if (!c || (!pts && n))
        return cz_fail(err, CUDA_ERR_ARG, "cuda_bases_upload: NULL argument");
    CZ_TRY(cudaSetDevice(c->ordinal));
    cuda_bases *b = new (std::nothrow) cuda_bases();
    if (!b)
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory");
    b->ctx = c;
    b->n = n;
    b->g2 = g2;
    cudaError_t e = cudaMalloc(&b->d, n ? n * size : 16);
    if (e != cudaSuccess) {
        delete b;
        cudaGetLastError();
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "cudaMalloc of %zu bytes for %zu bases failed",
                       n * size, n);
    }
    cuda_status s = cz_upload(c, b->d, pts, n * size, err);
    if (s) {
        cudaFree(b->d);
        delete b;
        return s;
    }
    *out = b;
    return CUDA_OK;
}

extern "C" cuda_status cuda_bases_upload_g1(cuda_ctx *c, cuda_bases **out, const g1_affine *pts,
                                            size_t n, cuda_error *err) {
    static_assert(sizeof(g1_affine) == sizeof(g1a), "G1 layout");
    return upload_bases(c, out, pts, n, sizeof(g1_affine), 0, err);
}

extern "C" cuda_status cuda_bases_upload_g2(cuda_ctx *c, cuda_bases **out, const g2_affine *pts,
                                            size_t n, cuda_error *err) {
    static_assert(sizeof(g2_affine) == sizeof(g2a), "G2 layout");
    return upload_bases(c, out, pts, n, sizeof(g2_affine), 1, err);
}

extern "C" void cuda_bases_free(cuda_bases *b) {
    if (!b)
        return;
    cudaSetDevice(b->ctx->ordinal);
    cudaFree(b->d);
    delete b;
}

extern "C" size_t cuda_bases_count(const cuda_bases *b) { return b ? b->n : 0; }

extern "C" cuda_msm_config cuda_msm_config_default(void) {
    cuda_msm_config c;
    c.window_bits = 0;
    c.bit_fast_path = 1;
    c.montgomery = 0;
    return c;
}

// XYZZ over the kernels' field types (the same bytes) to the CPU's Jacobian.
template <class F> static void g1_to_jac(g1_jac *out, const xyzz<F> *p) {
    cz_g1x_to_jac(out, (const g1x *)p);
}
template <class F> static void g2_to_jac(g2_jac *out, const xyzz<F> *p) {
    cz_g2x_to_jac(out, (const g2x *)p);
}

template <class F, class J>
static cuda_status msm_host(cuda_ctx *c, J *out, const cuda_bases *b, size_t first,
                            const void *scalars, const uint64_t *density, size_t n,
                            const cuda_msm_config *cfg, cuda_msm_stats *st, cuda_error *err,
                            void (*conv)(J *, const xyzz<F> *)) {
    if (!c || !out || !b || (!scalars && n))
        return cz_fail(err, CUDA_ERR_ARG, "cuda_msm: NULL argument");
    cuda_msm_config d = cuda_msm_config_default();
    if (!cfg)
        cfg = &d;
    CZ_TRY(cudaSetDevice(c->ordinal));
    cuda_status s = cz_reserve(c->misc, n * sizeof(dfr) + 16, err);
    if (s)
        return s;
    cudaEvent_t e0, e1;
    CZ_TRY(cudaEventCreate(&e0));
    CZ_TRY(cudaEventCreate(&e1));
    cudaEventRecord(e0, c->stream);
    s = cz_upload(c, c->misc.p, scalars, n * sizeof(dfr), err);
    cudaEventRecord(e1, c->stream);
    cudaEventSynchronize(e1);
    float copy_ms = 0;
    cudaEventElapsedTime(&copy_ms, e0, e1);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (s)
        return s;
    xyzz<F> r;
    cuda_msm_stats stats;
    s = msm_dev<F>(c, &r, b, first, (const dfr *)c->misc.p, cfg->montgomery, density, n,
                   cfg->window_bits, cfg->bit_fast_path, &stats, err);
    if (s)
        return s;
    stats.copy_ms = copy_ms;
    if (st)
        *st = stats;
    conv(out, &r);
    return CUDA_OK;
}

extern "C" cuda_status cuda_msm_g1(cuda_ctx *c, g1_jac *out, const cuda_bases *b, size_t first,
                                   const void *scalars, const uint64_t *density, size_t n,
                                   const cuda_msm_config *cfg, cuda_msm_stats *st,
                                   cuda_error *err) {
    if (b && b->g2)
        return cz_fail(err, CUDA_ERR_ARG, "G1 MSM given G2 bases");
    if (switch_get(SW_GPU_PTX_MUL2))
        return msm_host<dfp_m2, g1_jac>(c, out, b, first, scalars, density, n, cfg, st, err,
                                        g1_to_jac<dfp_m2>);
    return msm_host<dfp_m1, g1_jac>(c, out, b, first, scalars, density, n, cfg, st, err,
                                    g1_to_jac<dfp_m1>);
}

extern "C" cuda_status cuda_msm_g2(cuda_ctx *c, g2_jac *out, const cuda_bases *b, size_t first,
                                   const void *scalars, const uint64_t *density, size_t n,
                                   const cuda_msm_config *cfg, cuda_msm_stats *st,
                                   cuda_error *err) {
    if (b && !b->g2)
        return cz_fail(err, CUDA_ERR_ARG, "G2 MSM given G1 bases");
    if (switch_get(SW_GPU_G2_PTX) && switch_get(SW_GPU_PTX_MUL2))
        return msm_host<g2f_m2, g2_jac>(c, out, b, first, scalars, density, n, cfg, st, err,
                                        g2_to_jac<g2f_m2>);
    if (switch_get(SW_GPU_G2_PTX))
        return msm_host<g2f_m1, g2_jac>(c, out, b, first, scalars, density, n, cfg, st, err,
                                        g2_to_jac<g2f_m1>);
    return msm_host<dfp2, g2_jac>(c, out, b, first, scalars, density, n, cfg, st, err,
                                  cz_g2x_to_jac);
}
