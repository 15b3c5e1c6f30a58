// NTT passes of up to 9 radix-2 stages each, done in a thread block: a
// 2^27 transform is three passes over memory instead of nine.
//
// A pass with stride S runs k stages on every sub-transform of M = 2^k
// elements {g N + c + S p : p < M} (N = S M, column c < S).  Threads hold
// 2^E elements each (E = gpu_ntt_round, 1 to 3, 1 by default: fewer
// elements, fewer registers and more resident warps, but more exchanges)
// and do the stages as radix-2^E rounds in registers, exchanging through
// shared memory between rounds (at E = 1, between lanes of a warp by shuffles
// where the partner is in the same warp: gpu_ntt_shfl).  The twiddles are split the "six-step" way:
// inside a pass every butterfly uses a root of order <= M (a 512-entry table, no multiply to form
// it), and the column's share omega_N^(c brev(p)) multiplies each element once, after the stages
// (DIF) or before them (DIT).  It comes from the full root table when N <= 2^F (one load;
// gpu_ntt_tw_full), else from the two-level table (two loads and a multiply).  The values between
// passes are those of the radix-2 transform, so any pass plan gives the same result.
// In the default plan the threads are numbered warp-major, so whole warps skip
// the roots equal to 1 (gpu_ntt_warp_trivial), and the stage roots, fixed per
// size, are multiplied by Shoup's method (gpu_ntt_shoup, ptx_mul_shoup).
#include "cuda/ntt_common.cuh"

// Threads per block (a block holds whole sub-transforms, 2^(9 - E) threads
// each at k = 9) and the blocks per SM that ptxas is asked to fit.
// Registers: E = 3 holds 64 for its 8 elements and takes 115-170 (3 or 4
// blocks); E = 2 fits 6 blocks of 128 in 80 registers, E = 1 4 blocks of 256
// in 64.
template <int E> struct nb_block {
    static constexpr int threads = E == 1 ? 256 : 128;
    static constexpr int min_blocks = E == 3 ? 1 : E == 2 ? 6 : 4;
};
// Padding that spreads the strided exchanges over the banks: one word in 8
// for the plain thread order (2-way conflicts), one in 16 for the warp-major
// order (P, gpu_ntt_warp_trivial), whose exchanges step 16 slots a lane (none:
// tools/ntt_bank_model.py).
template <bool P> __host__ __device__ constexpr uint32_t nb_pad(uint32_t s) {
    return s + (s >> (P ? 4 : 3));
}

// Shared-memory exchange: limb-major, so a warp's accesses to consecutive
// slots fall in distinct banks.
template <int E, bool P> struct nb_shared { uint32_t w[8][nb_pad<P>(nb_block<E>::threads << E)]; };

template <int E, bool P>
static __device__ __forceinline__ void sh_put(nb_shared<E, P> &s, uint32_t slot, const dfr &x) {
    uint32_t q = nb_pad<P>(slot);
    CZ_UNROLL
    for (int l = 0; l < 8; l++)
        s.w[l][q] = x.v[l];
}

// Between rounds whose positions differ in bit m of the thread index tt,
// where that bit is bit lb < 5 of the lane (E = 1): thread tt keeps x[a], a =
// bit m of tt, and trades x[1 - a] with lane ^ 2^lb, a 2x2 transpose in
// registers: no shared memory, no barrier (gpu_ntt_shfl).
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

template <int E, bool P>
static __device__ __forceinline__ dfr sh_get(const nb_shared<E, P> &s, uint32_t slot) {
    uint32_t q = nb_pad<P>(slot);
    dfr x;
    CZ_UNROLL
    for (int l = 0; l < 8; l++)
        x.v[l] = s.w[l][q];
    return x;
}

// Round r of a k-stage pass (DIF order: round 0 has the largest stages) works
// on sub-blocks of 2^a elements, a = k - E r; with ls = max(a - E, 0) a thread
// tt holds p(j) = (tt >> ls) 2^(ls+E) + (tt mod 2^ls) + j 2^ls, j < 2^E.
template <int K, int E> struct nb_round {
    static constexpr int rounds = (K + E - 1) / E;
    static __device__ __forceinline__ int ls(int r) { return K - E * r > E ? K - E * r - E : 0; }
    static __device__ __forceinline__ int nst(int r) { return K - E * r < E ? K - E * r : E; }
};

template <int E> static __device__ __forceinline__ uint32_t nb_pos(uint32_t tt, int ls, int j) {
    return ((tt >> ls) << (ls + E)) + (tt & ((1u << ls) - 1)) + ((uint32_t)j << ls);
}

// x *= the root of a stage: omega_2h^e (h = d 2^ls) from w512 by the kernel's
// multiply or from wsh by Shoup's, or (KF) the stage table's entry, from wst
// or (with SHOUP) from its Shoup copy wsh.
template <int M, bool KF, bool SHOUP>
static __device__ __forceinline__ void nb_root_mul(dfr &x, int d, int ls, int ld, uint32_t e,
                                                   const dfr *w512, const dfr *wst,
                                                   const shoup_root *wsh) {
    const uint32_t i = KF ? ((d << ls) - 1) + e : e << (9 - ld - ls);
    if (SHOUP) {
#if CZ_PTX
        const uint4 *q = (const uint4 *)(wsh + i);
        uint4 r[5];
        CZ_UNROLL
        for (int k = 0; k < 5; k++)
            r[k] = __ldg(q + k);
        const uint32_t *rw = (const uint32_t *)r;
        ptx_mul_shoup<fr_params>(x.v, x.v, rw, rw + 8);
#else // no PTX field (CUZK_NO_PTX_FIELD): the same root in Montgomery form
        f_mul_v<M>(x, x, ldg((KF ? wst : w512) + i));
#endif
    } else {
        f_mul_v<M>(x, x, ldg((KF ? wst : w512) + i));
    }
}

// The stages of one round on x[2^E]; w512[i] = omega_1024^i.  The stage of
// distance d (half-size h = d 2^ls) uses omega_2h^(lo + 2^ls (j mod d)).
// M: the multiply (f_mul_v), fixed per kernel.  KF (DIF only): the roots
// come from this pass's stage table wst[h - 1 + e] instead, each stage's
// times the factor its odd branch gets (gpu_h_fold = 2: the coset shift), so
// no stage is trivial.  WB > 0 (E = 1, warp-major order): lo's low WB bits
// are the warp's, so at 1 <= ls <= WB whole warps have omega^0 and skip it.
// SHOUP: the same roots from wsh (plain, with their quotients) by Shoup's
// multiply.
template <bool DIT, int M, int E, bool KF, int WB = 0, bool SHOUP = false>
static __device__ __forceinline__ void nb_stages(dfr (&x)[1 << E], int ls, int nst, uint32_t lo,
                                                 const dfr *w512, const dfr *wst,
                                                 const shoup_root *wsh) {
    CZ_UNROLL
    for (int q = 0; q < nst; q++) {
        const int ld = DIT ? q : nst - 1 - q;
        const int d = 1 << ld;
        CZ_UNROLL
        for (int j = 0; j < (1 << E); j++) {
            if (j & d)
                continue;
            bool trivial = !KF && ls == 0 && (j & (d - 1)) == 0; // omega^0
            if (!KF && WB > 0 && ls >= 1 && ls <= WB)
                trivial = lo == 0; // the same in every lane: a branch, not a predicate
            const uint32_t e = lo + ((uint32_t)(j & (d - 1)) << ls);
            dfr u = x[j], v = x[j + d];
            if (DIT) {
                if (!trivial)
                    nb_root_mul<M, KF, SHOUP>(v, d, ls, ld, e, w512, wst, wsh);
                f_add(x[j], u, v);
                f_sub(x[j + d], u, v);
            } else {
                f_add(x[j], u, v);
                f_sub(u, u, v);
                if (!trivial)
                    nb_root_mul<M, KF, SHOUP>(u, d, ls, ld, e, w512, wst, wsh);
                x[j + d] = u;
            }
        }
    }
}

// x *= omega_N^(c brev_k(p)), N = 2^(log_s+k): one load from the full table
// (wfull: omega_(2^full_log)^i) when N <= 2^full_log, else two from the
// two-level table of omega_n and a multiply.
template <int M>
static __device__ __forceinline__ void
nb_column_twiddle(dfr &x, uint32_t c, uint32_t p, int k, unsigned log_n, unsigned log_s,
                  const dfr *whi, const dfr *wlo, const dfr *wfull, unsigned full_log) {
    uint32_t e = c * (__brev(p) >> (32 - k));
    dfr f;
    if (wfull && log_s + k <= full_log)
        f = ldg(wfull + (e << (full_log - log_s - k)));
    else
        f = table_pow<M>(whi, wlo, e << (log_n - log_s - k));
    f_mul_v<M>(x, x, f);
}

// P (E = 1, gpu_ntt_warp_trivial): the sub-transform's thread index tt is
// warp-major, its low WB bits the warp's and the next five the lane's, so
// the stages whose twiddle index is tt mod 2^ls, ls <= WB, have it the same
// across a warp.  Any order of tt gives the same transform.
template <int K, int E, bool P> struct nb_order {
    static constexpr int WB = P && E == 1 && K - E > 5 ? K - E - 5 : 0;
    static __device__ __forceinline__ uint32_t tt(uint32_t t) {
        return WB ? ((t & 31) << WB) | (t >> 5) : t;
    }
    // the lane bit holding tt's bit m, or -1 (another warp's)
    static __device__ __forceinline__ int lane_bit(int m) {
        return m >= WB && m - WB < 5 ? m - WB : -1;
    }
};

template <int K, bool DIT, int M, int E, bool SH, bool KF, bool P, bool SHOUP>
__global__ void __launch_bounds__(nb_block<E>::threads, nb_block<E>::min_blocks)
    k_ntt_block(dfr *a, unsigned log_n, unsigned log_s, const dfr *w512, const dfr *whi,
                const dfr *wlo, const dfr *wfull, unsigned full_log, scale_op pre, scale_op post,
                const dfr *wst, const shoup_root *wsh) {
    __shared__ nb_shared<E, P> sh;
    typedef nb_round<K, E> R;
    typedef nb_order<K, E, P> O;
    constexpr int EL = 1 << E;
    const uint32_t gt = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t tt = O::tt(gt & ((1u << (K - E)) - 1));
    const uint32_t sub = gt >> (K - E);
    const uint32_t c = sub & ((1u << log_s) - 1);
    const uint32_t base = ((sub >> log_s) << (log_s + K)) + c;
    const uint32_t slot0 = (threadIdx.x >> (K - E)) << K; // this sub-transform in sh
    dfr x[EL];

    // global loads in the first round's positions
    const int r_first = DIT ? R::rounds - 1 : 0;
    CZ_UNROLL
    for (int j = 0; j < EL; j++) {
        uint32_t p = nb_pos<E>(tt, R::ls(r_first), j);
        x[j] = ld(a + base + (p << log_s));
        if (pre.mode && !(pre.c0_only && c))
            apply_scale<M>(x[j], pre, base + (p << log_s), log_n);
        if (DIT && c)
            nb_column_twiddle<M>(x[j], c, p, K, log_n, log_s, whi, wlo, wfull, full_log);
    }
    CZ_UNROLL
    for (int i = 0; i < R::rounds; i++) {
        const int r = DIT ? R::rounds - 1 - i : i;
        if (i) { // positions of round r from those of the previous round
            const int rp = DIT ? r + 1 : r - 1;
            const int m = R::ls(rp) < R::ls(r) ? R::ls(rp) : R::ls(r);
            bool lanes = false;
            if constexpr (SH && E == 1) {
                if (O::lane_bit(m) >= 0) {
                    nb_swap_lanes(x, tt, m, O::lane_bit(m));
                    lanes = true;
                }
            }
            if (!lanes) {
                __syncthreads(); // the previous exchange's reads are done
                CZ_UNROLL
                for (int j = 0; j < EL; j++)
                    sh_put(sh, slot0 + nb_pos<E>(tt, R::ls(rp), j), x[j]);
                __syncthreads();
                CZ_UNROLL
                for (int j = 0; j < EL; j++)
                    x[j] = sh_get(sh, slot0 + nb_pos<E>(tt, R::ls(r), j));
            }
        }
        nb_stages<DIT, M, E, KF, O::WB, SHOUP>(x, R::ls(r), R::nst(r), tt & ((1u << R::ls(r)) - 1),
                                               w512, wst, wsh);
    }
    const int r_last = DIT ? 0 : R::rounds - 1;
    CZ_UNROLL
    for (int j = 0; j < EL; j++) {
        uint32_t p = nb_pos<E>(tt, R::ls(r_last), j);
        if (!DIT && c)
            nb_column_twiddle<M>(x[j], c, p, K, log_n, log_s, whi, wlo, wfull, full_log);
        if ((post.mode || post.sub) && !(post.c0_only && c))
            apply_scale<M>(x[j], post, base + (p << log_s), log_n);
        st(a + base + (p << log_s), x[j]);
    }
}

template <int K, bool DIT, int M, int E, bool SH, bool KF = false, bool P = false,
          bool SHOUP = false>
static void nb_launch(cuda_ctx *c, dfr *a, unsigned log_n, unsigned log_s, const dfr *w512,
                      const dfr *whi, const dfr *wlo, const dfr *wfull, unsigned full_log,
                      const scale_op &pre, const scale_op &post, const dfr *wst,
                      const shoup_root *wsh) {
    uint32_t threads = 1u << (log_n - E);
    unsigned block = threads < nb_block<E>::threads ? threads : nb_block<E>::threads;
    k_ntt_block<K, DIT, M, E, SH, KF, P, SHOUP><<<threads / block, block, 0, c->stream>>>(
        a, log_n, log_s, w512, whi, wlo, wfull, full_log, pre, post, wst, wsh);
}

typedef void (*nb_launcher)(cuda_ctx *, dfr *, unsigned, unsigned, const dfr *, const dfr *,
                            const dfr *, const dfr *, unsigned, const scale_op &, const scale_op &,
                            const dfr *, const shoup_root *);

// [plan: E = 1, 2, 3, E = 1 with lane swaps, the same warp-major]
// [multiply: ptx_mul, ptx_mul2][DIF, DIT][k - 3]: the switches
// gpu_ntt_round, gpu_ntt_shfl, gpu_ntt_warp_trivial and gpu_ptx_mul2 pick a
// kernel, so each kernel holds one multiply and one plan.
#define NB_ROW(D, M, E, S, P)                                                       \
    {                                                                               \
        nb_launch<3, D, M, E, S, false, P>, nb_launch<4, D, M, E, S, false, P>,     \
            nb_launch<5, D, M, E, S, false, P>, nb_launch<6, D, M, E, S, false, P>, \
            nb_launch<7, D, M, E, S, false, P>, nb_launch<8, D, M, E, S, false, P>, \
            nb_launch<9, D, M, E, S, false, P>                                      \
    }
#define NB_MUL(M, E, S, P) \
    { NB_ROW(false, M, E, S, P), NB_ROW(true, M, E, S, P) }
static const nb_launcher nb_table[5][2][2][NTT_BLOCK_MAX_K - 2] = {
    {NB_MUL(1, 1, false, false), NB_MUL(2, 1, false, false)},
    {NB_MUL(1, 2, false, false), NB_MUL(2, 2, false, false)},
    {NB_MUL(1, 3, false, false), NB_MUL(2, 3, false, false)},
    {NB_MUL(1, 1, true, false), NB_MUL(2, 1, true, false)},
    {NB_MUL(1, 1, true, true), NB_MUL(2, 1, true, true)}};
#undef NB_MUL
#undef NB_ROW

// The stage-table DIF passes (KF), for the default plan only (E = 1 with
// lane swaps): [multiply][k - 3].
#define NB_KF(M)                                                                          \
    {                                                                                     \
        nb_launch<3, false, M, 1, true, true>, nb_launch<4, false, M, 1, true, true>,     \
            nb_launch<5, false, M, 1, true, true>, nb_launch<6, false, M, 1, true, true>, \
            nb_launch<7, false, M, 1, true, true>, nb_launch<8, false, M, 1, true, true>, \
            nb_launch<9, false, M, 1, true, true>                                         \
    }
static const nb_launcher nb_kf_table[2][NTT_BLOCK_MAX_K - 2] = {NB_KF(1), NB_KF(2)};
#undef NB_KF

// Shoup's multiply for the stage roots (gpu_ntt_shoup), for the default
// plan (E = 1, lane swaps, warp-major) with ptx_mul2 elsewhere: [DIF, DIT][k - 3].
#define NB_SHOUP(D)                                         \
    {                                                       \
        nb_launch<3, D, 2, 1, true, false, true, true>,     \
            nb_launch<4, D, 2, 1, true, false, true, true>, \
            nb_launch<5, D, 2, 1, true, false, true, true>, \
            nb_launch<6, D, 2, 1, true, false, true, true>, \
            nb_launch<7, D, 2, 1, true, false, true, true>, \
            nb_launch<8, D, 2, 1, true, false, true, true>, \
            nb_launch<9, D, 2, 1, true, false, true, true>  \
    }
static const nb_launcher nb_shoup_table[2][NTT_BLOCK_MAX_K - 2] = {NB_SHOUP(false), NB_SHOUP(true)};
#undef NB_SHOUP

// The stage-table DIF passes with Shoup's multiply for their roots.
#define NB_KF_SHOUP(K) nb_launch<K, false, 2, 1, true, true, false, true>
static const nb_launcher nb_kf_shoup_table[NTT_BLOCK_MAX_K - 2] = {
    NB_KF_SHOUP(3), NB_KF_SHOUP(4), NB_KF_SHOUP(5), NB_KF_SHOUP(6),
    NB_KF_SHOUP(7), NB_KF_SHOUP(8), NB_KF_SHOUP(9)};
#undef NB_KF_SHOUP

bool cz_ntt_block_kf_plan(void) {
    return switch_get(SW_GPU_NTT_ROUND) == 1 && switch_get(SW_GPU_NTT_SHFL) != 0;
}

void cz_ntt_block_pass(cuda_ctx *c, dfr *a, unsigned log_n, unsigned log_s, int k, bool dit,
                       bool inverse, const ntt_tables *t, const scale_op &pre, const scale_op &post,
                       const dfr *whi, const dfr *wst) {
    const dfr *w512 = ntt_small_roots(t, inverse);
    if (!whi)
        whi = t->d + (inverse ? T_WI_HI : T_W_HI) * TSIZE;
    const dfr *wlo = t->d + (inverse ? T_WI_LO : T_W_LO) * TSIZE;
    const dfr *wfull = switch_get(SW_GPU_NTT_TW_FULL) ? ntt_full_roots(t, inverse) : nullptr;
    int ki = k < 3 ? 0 : k > NTT_BLOCK_MAX_K ? NTT_BLOCK_MAX_K - 3 : k - 3;
    int mi = switch_get(SW_GPU_PTX_MUL2) ? 1 : 0;
    long e = switch_get(SW_GPU_NTT_ROUND);
    int ei = e >= 1 && e <= 3 ? (int)e - 1 : 1;
    if (ei == 0 && switch_get(SW_GPU_NTT_SHFL))
        ei = switch_get(SW_GPU_NTT_WARP_TRIVIAL) ? 4 : 3;
    const bool shoup = mi == 1 && switch_get(SW_GPU_NTT_SHOUP);
    if (wst && shoup) // the caller checked cz_ntt_block_kf_plan and !dit
        nb_kf_shoup_table[ki](c, a, log_n, log_s, w512, whi, wlo, wfull, t->full_log, pre, post,
                              wst, ntt_shoup_kf(t, wst));
    else if (wst)
        nb_kf_table[mi][ki](c, a, log_n, log_s, w512, whi, wlo, wfull, t->full_log, pre, post, wst,
                            nullptr);
    else if (ei == 4 && shoup)
        nb_shoup_table[dit ? 1 : 0][ki](c, a, log_n, log_s, w512, whi, wlo, wfull, t->full_log, pre,
                                        post, nullptr, ntt_shoup_roots(t, inverse));
    else
        nb_table[ei][mi][dit ? 1 : 0][ki](c, a, log_n, log_s, w512, whi, wlo, wfull, t->full_log,
                                          pre, post, nullptr, nullptr);
}
