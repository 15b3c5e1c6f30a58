// The MSM's bucket accumulation (step 4 of cuda_msm.cu's outline), for each
// field type: thread t adds up the sorted entries [tL, tL + L) run by run;
// runs wholly inside a segment are whole buckets and are written out, the
// first and last run of each segment go to a partial list that is reduced
// the same way (level by level) until one segment is left.  Every thread does
// the same work whatever the scalar distribution.
#ifndef CUZK_CUDA_MSM_ACCUMULATE_CUH
#define CUZK_CUDA_MSM_ACCUMULATE_CUH

#include "cuda/msm.cuh"

// G2 (Fp2 coordinates) reads each base coordinate where the mixed addition
// first needs it, with the next entry's base prefetched: fewer live registers
// and spills (G2 2^24 faster); G1, which does not spill, was faster with the
// whole base loaded first and no prefetch (PERFORMANCE.md, gpu_msm_acc_mem and
// gpu_msm_prefetch, measured and retired).
// G2's bucket kernel runs over Fp2 with the PTX chains one instruction at a
// time (dfp2_i, the same bytes): with one asm block per operation ptxas
// spilled more there and the bucket phase ran slower (PERFORMANCE.md);
// everything else keeps the blocks, which cicc compiles in a fraction of the
// time.
template <class F> struct acc_plan {
    static constexpr bool g2 = sizeof(affine<F>) > 100;
    typedef F kf; // the bucket kernel's field type
};
template <> struct acc_plan<dfp2> {
    static constexpr bool g2 = true;
    typedef dfp2_i kf;
};

// Entry v: base v & 0x7fffffff, negated if bit 31 is set.
template <class F>
static __device__ __forceinline__ void add_entry(xyzz<F> &acc, const affine<F> *bases, uint32_t v) {
    if constexpr (acc_plan<F>::g2) {
        x_add_aff_mem(acc, bases + (v & 0x7fffffffu), (v >> 31) != 0);
    } else {
        affine<F> q = x_ld(bases + (v & 0x7fffffffu));
        if (v >> 31)
            f_neg(q.y, q.y);
        x_add_aff(acc, q);
    }
}

// Entry v's base into L1 (both of the 128-byte lines it may span) while the
// thread adds the one before (G2): the bases are gathered at random, one
// dependent load per addition otherwise.
template <class F>
static __device__ __forceinline__ void prefetch_base(const affine<F> *bases, uint32_t v) {
    const char *p = (const char *)(bases + (v & 0x7fffffffu));
    asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
    asm volatile("prefetch.global.L1 [%0];" ::"l"(p + sizeof(affine<F>) - 1));
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
        uint32_t v = vals[i];
        if (acc_plan<F>::g2 && i + 1 < e)
            prefetch_base(bases, vals[i + 1]);
        add_entry<F>(acc, bases, v);
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
        xyzz<F> q = x_ld(pts + i);
        x_add(acc, q);
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

// ---- host side ----------------------------------------------------------------

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
    unsigned blocks = (unsigned)((threads + 127) / 128);
    typedef typename acc_plan<F>::kf K;
    k_acc0<K><<<blocks, 128, 0, c->stream>>>(keys, vals, m, none, (uint32_t)seg,
                                             (const affine<K> *)bases, (xyzz<K> *)buckets, pk[0],
                                             (xyzz<K> *)pp[0], threads);
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

#endif
