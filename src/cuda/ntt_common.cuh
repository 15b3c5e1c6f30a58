// What the NTT kernels share: the root tables, element loads and stores, and
// the scale folded into a transform's first or last pass.
#ifndef CUZK_NTT_COMMON_CUH
#define CUZK_NTT_COMMON_CUH

#include "cuda/cuda_internal.cuh"

#define TLOG 14 // two-level tables: 2^14 entries each, exponents < 2^28
#define TSIZE (1u << TLOG)
#define NTT_SMALL_LOG 10 // block passes' roots: omega_1024^i, i < 512
#define NTT_SMALL (1u << (NTT_SMALL_LOG - 1))

// Two-level tables (hi[e >> 14] lo[e & 0x3fff]): omega_n^e (W), omega_n^-e
// (WI), g^e (G), g^e / n (GN), g^-e / n (GIN); GINZ is GIN times 1/Z, WIK
// is WI times 1/(nZ) and WIN WI times 1/n (the H step folds these constants
// into its transforms: cuda_ntt.cu).
enum {
    T_W_HI,
    T_W_LO,
    T_WI_HI,
    T_WI_LO,
    T_G_LO,
    T_GI_LO,
    T_G_HI,
    T_GN_HI,
    T_GIN_HI,
    T_GINZ_HI,
    T_WIK_HI,
    T_WIN_HI,
    T_COUNT
};

// Column twiddles of sub-transforms up to 2^NTT_FULL_LOG come from one full
// table: omega_(2^F)^i, i < 2^F, F = min(log_n, NTT_FULL_LOG), 8 MiB at F = 18,
// small enough to stay in L2.
#define NTT_FULL_LOG 18

struct ntt_tables {
    dfr *d;            // T_COUNT tables of TSIZE, the small roots (forward, inverse),
                       // then the full tables (forward, inverse)
    unsigned full_log; // F
    fr n_inv;          // 1/n
    fr zinv;           // 1/(g^n - 1)
};

// The block passes' roots omega_1024^(+-i), i < 512, after the big tables.
static inline const dfr *ntt_small_roots(const ntt_tables *t, bool inverse) {
    return t->d + (size_t)T_COUNT * TSIZE + (inverse ? NTT_SMALL : 0);
}

// omega_(2^F)^(+-i), i < 2^F, after the small roots.
static inline const dfr *ntt_full_roots(const ntt_tables *t, bool inverse) {
    return t->d + (size_t)T_COUNT * TSIZE + 2 * NTT_SMALL +
           (inverse ? (size_t)1 << t->full_log : 0);
}

// The inverse DIF's stage tables with a coset shift (the H step), after
// the full tables: set 0 for g^j (A's and B's inverse), set 1 for g^-j (the
// last transform's); pass i's at i NTT_KF_PASS; its stage of half-size h
// (over the pass's stride) has omega_2h^-e s^(2^b), e < h, at h - 1 + e,
// where b is the bit of the output index j that the stage decides.
#define NTT_KF_PASS 512
#define NTT_KF_PASSES 4 // passes of the block plan up to 2^28
static inline const dfr *ntt_kf_roots(const ntt_tables *t, unsigned set, unsigned pass) {
    return t->d + (size_t)T_COUNT * TSIZE + 2 * NTT_SMALL + ((size_t)2 << t->full_log) +
           ((size_t)set * NTT_KF_PASSES + pass) * NTT_KF_PASS;
}

// Shoup's multiply's copies of the block passes' roots
// omega_1024^(+-i), i < 512, then of the stage tables (ntt_kf_roots'
// layout), after the stage tables: each root plain with its quotient
// floor(w 2^288 / p), 80 bytes (five 16-byte loads).
struct shoup_root {
    uint32_t w[8], q[9], pad[3];
};
#define NTT_SHOUP_ROOTS (2 * NTT_SMALL + 2 * NTT_KF_PASSES * NTT_KF_PASS)
#define NTT_SHOUP_FR (sizeof(shoup_root) * NTT_SHOUP_ROOTS / sizeof(dfr)) // in table entries
static inline const shoup_root *ntt_shoup_roots(const ntt_tables *t, bool inverse) {
    const dfr *base = ntt_kf_roots(t, 0, 0) + 2 * NTT_KF_PASSES * NTT_KF_PASS;
    return (const shoup_root *)base + (inverse ? NTT_SMALL : 0);
}
// The Shoup copy of a stage table wst (a pointer ntt_kf_roots gave).
static inline const shoup_root *ntt_shoup_kf(const ntt_tables *t, const dfr *wst) {
    return ntt_shoup_roots(t, false) + 2 * NTT_SMALL + (wst - ntt_kf_roots(t, 0, 0));
}

struct scale_op {
    int mode;    // 0 none, 1 multiply by c, 2 multiply by hi[e >> 14] lo[e & mask]
    int pre;     // 1: on load (first pass), 0: before store (last pass)
    int brev;    // e = bitrev(position) instead of position
    int c0_only; // block passes: only in column 0, the others have it in their twiddles
    const dfr *hi, *lo;
    const dfr *sub; // then x -= sub[position] (the H step's C)
    dfr c;
};

static __device__ __forceinline__ dfr ld(const dfr *p) {
    const uint4 *q = (const uint4 *)p;
    uint4 a = q[0], b = q[1];
    dfr r;
    r.v[0] = a.x, r.v[1] = a.y, r.v[2] = a.z, r.v[3] = a.w;
    r.v[4] = b.x, r.v[5] = b.y, r.v[6] = b.z, r.v[7] = b.w;
    return r;
}

// Read-only tables: through the non-coherent cache.
static __device__ __forceinline__ dfr ldg(const dfr *p) {
    const uint4 *q = (const uint4 *)p;
    uint4 a = __ldg(q), b = __ldg(q + 1);
    dfr r;
    r.v[0] = a.x, r.v[1] = a.y, r.v[2] = a.z, r.v[3] = a.w;
    r.v[4] = b.x, r.v[5] = b.y, r.v[6] = b.z, r.v[7] = b.w;
    return r;
}

static __device__ __forceinline__ void st(dfr *p, const dfr &r) {
    uint4 *q = (uint4 *)p;
    q[0] = make_uint4(r.v[0], r.v[1], r.v[2], r.v[3]);
    q[1] = make_uint4(r.v[4], r.v[5], r.v[6], r.v[7]);
}

static __device__ __forceinline__ dfr table_pow(const dfr *hi, const dfr *lo, uint32_t e) {
    dfr r;
    f_mul(r, ldg(hi + (e >> TLOG)), ldg(lo + (e & (TSIZE - 1))));
    return r;
}

static __device__ __forceinline__ void apply_scale(dfr &x, const scale_op &sc, uint32_t pos,
                                                   unsigned log_n) {
    if (sc.mode == 1) {
        f_mul(x, x, sc.c);
    } else if (sc.mode == 2) {
        uint32_t e = sc.brev ? (__brev(pos) >> (32 - log_n)) : pos;
        dfr f = table_pow(sc.hi, sc.lo, e);
        f_mul(x, x, f);
    }
    if (sc.sub) {
        dfr y = ld(sc.sub + pos);
        f_sub(x, x, y);
    }
}

// Block passes (cuda_ntt_block.cu): k stages (3 <= k <= NTT_BLOCK_MAX_K) of a
// DIF or DIT transform of 2^log_n on every sub-transform of stride 2^log_s;
// `pre` scales on load, `post` before the store (mode 0: none).
#define NTT_BLOCK_MAX_K 9
// whi: the column twiddles' hi table instead of the direction's own (a
// factor folded into it), or nullptr.  wst: a DIF pass's stage table
// (ntt_kf_roots), or nullptr.  The stage roots are multiplied by Shoup's
// method (their copies at ntt_shoup_roots and ntt_shoup_kf).
void cz_ntt_block_pass(cuda_ctx *c, dfr *a, unsigned log_n, unsigned log_s, int k, bool dit,
                       bool inverse, const ntt_tables *t, const scale_op &pre, const scale_op &post,
                       const dfr *whi = nullptr, const dfr *wst = nullptr);

#endif
