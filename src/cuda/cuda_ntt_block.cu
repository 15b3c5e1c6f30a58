// NTT passes of up to 9 radix-2 stages each, done in a thread block: a
// 2^27 transform is three passes over memory instead of nine.
//
// A pass with stride S runs k stages on every sub-transform of M = 2^k
// elements {g N + c + S p : p < M} (N = S M, column c < S).  Threads hold
// two elements each and do the stages one at a time in registers,
// exchanging between stages: between lanes of a warp by shuffles where the
// partner is in the same warp, else through shared memory.  The twiddles are
// split the "six-step" way: inside a pass every butterfly uses a root of order
// <= M (a 512-entry table, no multiply to form it), and the column's share
// omega_N^(c brev(p)) multiplies each element once, after the stages (DIF)
// or before them (DIT).  It comes from the full root table when N <= 2^F (one
// load), else from the two-level table (two loads and a multiply).  The
// values between passes are those of the radix-2 transform, so any pass plan
// gives the same result.  The threads are numbered warp-major, so whole warps
// skip the roots equal to 1, and the stage roots, fixed per size, are
// multiplied by Shoup's method (ptx_mul_shoup).  Other plans (2 or 8
// elements a thread, all exchanges through shared memory, plain thread
// order, Montgomery stage roots, column twiddles always from the two-level
// table) were measured slower and removed: PERFORMANCE.md and git keep them.
#include "cuda/ntt_common.cuh"

// Two elements a thread (E = 1); a block of 256 threads holds whole
// sub-transforms (2^(k - 1) threads each); ptxas fits 4 blocks per SM in 64
// registers.
#define NB_E 1
#define NB_THREADS 256
#define NB_MIN_BLOCKS 4

// Padding of one word in 16 spreads the exchanges of the warp-major order,
// which step 16 slots a lane, over the banks (no conflicts:
// tools/ntt_bank_model.py).
__host__ __device__ constexpr uint32_t nb_pad(uint32_t s) { return s + (s >> 4); }

// Shared-memory exchange: limb-major, so a warp's accesses to consecutive
// slots fall in distinct banks.
struct nb_shared {
    uint32_t w[8][nb_pad(NB_THREADS << NB_E)];
};

static __device__ __forceinline__ void sh_put(nb_shared &s, uint32_t slot, const dfr &x) {
    uint32_t q = nb_pad(slot);
    CZ_UNROLL
    for (int l = 0; l < 8; l++)
        s.w[l][q] = x.v[l];
}

static __device__ __forceinline__ dfr sh_get(const nb_shared &s, uint32_t slot) {
    uint32_t q = nb_pad(slot);
    dfr x;
    CZ_UNROLL
    for (int l = 0; l < 8; l++)
        x.v[l] = s.w[l][q];
    return x;
}

// Between rounds whose positions differ in bit m of the thread index tt,
// where that bit is bit lb < 5 of the lane: thread tt keeps x[a], a = bit m
// of tt, and trades x[1 - a] with lane ^ 2^lb, a 2x2 transpose in registers:
// no shared memory, no barrier.
static __device__ __forceinline__ void nb_swap_lanes(dfr (&x)[2], uint32_t tt, int m, int lb) {
    const bool a = (tt >> m) & 1;
    const unsigned mask = blockDim.x >= 32 ? 0xffffffffu : (1u << blockDim.x) - 1;
    CZ_UNROLL
    for (int l = 0; l < 8; l++) {
        uint32_t got = __shfl_xor_sync(mask, a ? x[0].v[l] : x[1].v[l], 1u << lb);
        if (a)
            x[0].v[l] = got;
        else
            x[1].v[l] = got;
    }
}

// Round r of a k-stage pass (DIF order: round 0 has the largest stage) works
// on sub-blocks of 2^a elements, a = k - r; with ls = max(a - 1, 0) a thread
// tt holds p(j) = (tt >> ls) 2^(ls+1) + (tt mod 2^ls) + j 2^ls, j < 2.
template <int K> struct nb_round {
    static constexpr int rounds = K;
    static __device__ __forceinline__ int ls(int r) { return K - r > 1 ? K - r - 1 : 0; }
};

static __device__ __forceinline__ uint32_t nb_pos(uint32_t tt, int ls, int j) {
    return ((tt >> ls) << (ls + 1)) + (tt & ((1u << ls) - 1)) + ((uint32_t)j << ls);
}

// x *= the root of a stage: omega_2h^e (h = 2^ls) from the Shoup copy of the
// small roots, or (KF) of the pass's stage table, by Shoup's multiply.
template <bool KF>
static __device__ __forceinline__ void nb_root_mul(dfr &x, int ls, uint32_t e,
                                                   const shoup_root *wsh) {
#ifdef __CUDA_ARCH__ // the PTX multiplies exist only in the device pass
    const uint32_t i = KF ? ((1u << ls) - 1) + e : e << (9 - ls);
    const uint4 *q = (const uint4 *)(wsh + i);
    uint4 r[5];
    CZ_UNROLL
    for (int k = 0; k < 5; k++)
        r[k] = __ldg(q + k);
    const uint32_t *rw = (const uint32_t *)r;
    ptx_mul_shoup<fr_params>(x.v, x.v, rw, rw + 8);
#else
    (void)x, (void)ls, (void)e, (void)wsh;
#endif
}

// The stage of one round on x[2]; the stage of half-size h = 2^ls uses
// omega_2h^lo (wsh[i]: omega_1024^i).  KF (DIF only): the roots come from
// this pass's stage table (wsh[h - 1 + lo]) instead, each stage's times the
// factor its odd branch gets (the coset shift), so no stage is trivial.
// WB > 0 (warp-major order): lo's low WB bits are the warp's, so at
// 1 <= ls <= WB whole warps have omega^0 and skip it.
template <bool DIT, bool KF, int WB>
static __device__ __forceinline__ void nb_stage(dfr (&x)[2], int ls, uint32_t lo,
                                                const shoup_root *wsh) {
    bool trivial = !KF && ls == 0; // omega^0
    if (!KF && WB > 0 && ls >= 1 && ls <= WB)
        trivial = lo == 0; // the same in every lane: a branch, not a predicate
    dfr u = x[0], v = x[1];
    if (DIT) {
        if (!trivial)
            nb_root_mul<KF>(v, ls, lo, wsh);
        f_add(x[0], u, v);
        f_sub(x[1], u, v);
    } else {
        f_add(x[0], u, v);
        f_sub(u, u, v);
        if (!trivial)
            nb_root_mul<KF>(u, ls, lo, wsh);
        x[1] = u;
    }
}

// x *= omega_N^(c brev_k(p)), N = 2^(log_s+k): one load from the full table
// (wfull: omega_(2^full_log)^i) when N <= 2^full_log, else two from the
// two-level table of omega_n and a multiply.
static __device__ __forceinline__ void nb_column_twiddle(dfr &x, uint32_t c, uint32_t p, int k,
                                                         unsigned log_n, unsigned log_s,
                                                         const dfr *whi, const dfr *wlo,
                                                         const dfr *wfull, unsigned full_log) {
    uint32_t e = c * (__brev(p) >> (32 - k));
    dfr f;
    if (log_s + k <= full_log)
        f = ldg(wfull + (e << (full_log - log_s - k)));
    else
        f = table_pow(whi, wlo, e << (log_n - log_s - k));
    f_mul(x, x, f);
}

// The sub-transform's thread index tt is warp-major, its low WB bits the
// warp's and the next five the lane's, so the stages whose twiddle index is
// tt mod 2^ls, ls <= WB, have it the same across a warp.  Any order of tt
// gives the same transform.
template <int K> struct nb_order {
    static constexpr int WB = K - 1 > 5 ? K - 1 - 5 : 0;
    static __device__ __forceinline__ uint32_t tt(uint32_t t) {
        return WB ? ((t & 31) << WB) | (t >> 5) : t;
    }
    // the lane bit holding tt's bit m, or -1 (another warp's)
    static __device__ __forceinline__ int lane_bit(int m) {
        return m >= WB && m - WB < 5 ? m - WB : -1;
    }
};

template <int K, bool DIT, bool KF>
__global__ void __launch_bounds__(NB_THREADS, NB_MIN_BLOCKS)
    k_ntt_block(dfr *a, unsigned log_n, unsigned log_s, const dfr *whi, const dfr *wlo,
                const dfr *wfull, unsigned full_log, scale_op pre, scale_op post,
                const shoup_root *wsh) {
    __shared__ nb_shared sh;
    typedef nb_round<K> R;
    typedef nb_order<K> O;
    const uint32_t gt = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t tt = O::tt(gt & ((1u << (K - 1)) - 1));
    const uint32_t sub = gt >> (K - 1);
    const uint32_t c = sub & ((1u << log_s) - 1);
    const uint32_t base = ((sub >> log_s) << (log_s + K)) + c;
    const uint32_t slot0 = (threadIdx.x >> (K - 1)) << K; // this sub-transform in sh
    dfr x[2];

    // global loads in the first round's positions
    const int r_first = DIT ? R::rounds - 1 : 0;
    CZ_UNROLL
    for (int j = 0; j < 2; j++) {
        uint32_t p = nb_pos(tt, R::ls(r_first), j);
        x[j] = ld(a + base + (p << log_s));
        if (pre.mode && !(pre.c0_only && c))
            apply_scale(x[j], pre, base + (p << log_s), log_n);
        if (DIT && c)
            nb_column_twiddle(x[j], c, p, K, log_n, log_s, whi, wlo, wfull, full_log);
    }
    CZ_UNROLL
    for (int i = 0; i < R::rounds; i++) {
        const int r = DIT ? R::rounds - 1 - i : i;
        if (i) { // positions of round r from those of the previous round
            const int rp = DIT ? r + 1 : r - 1;
            const int m = R::ls(rp) < R::ls(r) ? R::ls(rp) : R::ls(r);
            if (O::lane_bit(m) >= 0) {
                nb_swap_lanes(x, tt, m, O::lane_bit(m));
            } else {
                __syncthreads(); // the previous exchange's reads are done
                CZ_UNROLL
                for (int j = 0; j < 2; j++)
                    sh_put(sh, slot0 + nb_pos(tt, R::ls(rp), j), x[j]);
                __syncthreads();
                CZ_UNROLL
                for (int j = 0; j < 2; j++)
                    x[j] = sh_get(sh, slot0 + nb_pos(tt, R::ls(r), j));
            }
        }
        nb_stage<DIT, KF, O::WB>(x, R::ls(r), tt & ((1u << R::ls(r)) - 1), wsh);
    }
    const int r_last = DIT ? 0 : R::rounds - 1;
    CZ_UNROLL
    for (int j = 0; j < 2; j++) {
        uint32_t p = nb_pos(tt, R::ls(r_last), j);
        if (!DIT && c)
            nb_column_twiddle(x[j], c, p, K, log_n, log_s, whi, wlo, wfull, full_log);
        if ((post.mode || post.sub) && !(post.c0_only && c))
            apply_scale(x[j], post, base + (p << log_s), log_n);
        st(a + base + (p << log_s), x[j]);
    }
}

template <int K, bool DIT, bool KF>
static void nb_launch(cuda_ctx *c, dfr *a, unsigned log_n, unsigned log_s, const dfr *whi,
                      const dfr *wlo, const dfr *wfull, unsigned full_log, const scale_op &pre,
                      const scale_op &post, const shoup_root *wsh) {
    uint32_t threads = 1u << (log_n - 1);
    unsigned block = threads < NB_THREADS ? threads : NB_THREADS;
    k_ntt_block<K, DIT, KF><<<threads / block, block, 0, c->stream>>>(
        a, log_n, log_s, whi, wlo, wfull, full_log, pre, post, wsh);
}

typedef void (*nb_launcher)(cuda_ctx *, dfr *, unsigned, unsigned, const dfr *, const dfr *,
                            const dfr *, unsigned, const scale_op &, const scale_op &,
                            const shoup_root *);

// [DIF, DIT, DIF with the stage tables (KF)][k - 3]
#define NB_ROW(D, KF)                                                                       \
    {                                                                                       \
        nb_launch<3, D, KF>, nb_launch<4, D, KF>, nb_launch<5, D, KF>, nb_launch<6, D, KF>, \
            nb_launch<7, D, KF>, nb_launch<8, D, KF>, nb_launch<9, D, KF>                   \
    }
static const nb_launcher nb_table[3][NTT_BLOCK_MAX_K - 2] = {
    NB_ROW(false, false), NB_ROW(true, false), NB_ROW(false, true)};
#undef NB_ROW

void cz_ntt_block_pass(cuda_ctx *c, dfr *a, unsigned log_n, unsigned log_s, int k, bool dit,
                       bool inverse, const ntt_tables *t, const scale_op &pre, const scale_op &post,
                       const dfr *whi, const dfr *wst) {
    if (!whi)
        whi = t->d + (inverse ? T_WI_HI : T_W_HI) * TSIZE;
    const dfr *wlo = t->d + (inverse ? T_WI_LO : T_W_LO) * TSIZE;
    const dfr *wfull = ntt_full_roots(t, inverse);
    int ki = k < 3 ? 0 : k > NTT_BLOCK_MAX_K ? NTT_BLOCK_MAX_K - 3 : k - 3;
    const shoup_root *wsh = wst ? ntt_shoup_kf(t, wst) : ntt_shoup_roots(t, inverse);
    int row = wst ? 2 : dit ? 1 : 0; // the caller passes wst only with a DIF
    nb_table[row][ki](c, a, log_n, log_s, whi, wlo, wfull, t->full_log, pre, post, wsh);
}
