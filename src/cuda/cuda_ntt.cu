// NTTs over Fr on the GPU, resident in device memory, and the Groth16 H step.
//
// A transform is a few passes over memory, each of up to 9 stages in a
// thread block (cuda_ntt_block.cu: three passes at 2^27); the smallest
// domains (2 and 4 elements) take one pass of radix-2 stages in registers
// (k_ntt_pass).  Decimation in frequency (natural in, bit-reversed out) runs
// the stages from the largest half-size down; decimation in time
// (bit-reversed in, natural out) from 1 up.  Coset shifts and the 1/n factor
// are folded into the first or last pass (no extra memory pass), or in the H
// step into the root tables themselves (no multiply of their own).
#include <new>
#include <stdlib.h>
#include <string.h>

#include "cuda/ntt_common.cuh"

extern "C" {
#include "field/constants.h"
}

#define NTT_MAX_S 2 // k_ntt_pass: the domains below the block passes' 2^3

struct small_roots {
    dfr w[(1 << NTT_MAX_S) - 1]; // w[2^m - 1 + j] = omega_(2^(m+1))^j, j < 2^m
};

template <int S, bool DIT>
__global__ void __launch_bounds__(128)
    k_ntt_pass(dfr *a, unsigned log_n, unsigned log_st, const dfr *whi, const dfr *wlo,
               small_roots sr, scale_op sc) {
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (1u << (log_n - S)))
        return;
    uint32_t i_lo = t & ((1u << log_st) - 1);
    uint32_t base = ((t >> log_st) << (log_st + S)) + i_lo;
    uint32_t stp = 1u << log_st;
    dfr x[1 << S];
    CZ_UNROLL
    for (int k = 0; k < (1 << S); k++)
        x[k] = ld(a + base + k * stp);
    if (sc.mode && sc.pre) {
        CZ_UNROLL
        for (int k = 0; k < (1 << S); k++)
            apply_scale(x[k], sc, base + k * stp, log_n);
    }
    // tb[m] = omega_(2 st 2^m)^(i_lo)
    dfr tb[S];
    tb[S - 1] = table_pow(whi, wlo, i_lo << (log_n - log_st - S));
    CZ_UNROLL
    for (int m = S - 2; m >= 0; m--)
        f_sqr(tb[m], tb[m + 1]);
    CZ_UNROLL
    for (int mm = 0; mm < S; mm++) {
        const int m = DIT ? mm : S - 1 - mm;
        CZ_UNROLL
        for (int j = 0; j < (1 << m); j++) {
            dfr w = tb[m];
            if (j)
                f_mul(w, w, sr.w[(1 << m) - 1 + j]);
            CZ_UNROLL
            for (int h = 0; h < (1 << (S - 1 - m)); h++) {
                const int k = (h << (m + 1)) | j;
                dfr u = x[k], v = x[k + (1 << m)];
                if (DIT) {
                    f_mul(v, v, w);
                    f_add(x[k], u, v);
                    f_sub(x[k + (1 << m)], u, v);
                } else {
                    f_add(x[k], u, v);
                    f_sub(u, u, v);
                    f_mul(x[k + (1 << m)], u, w);
                }
            }
        }
    }
    if (sc.mode && !sc.pre) {
        CZ_UNROLL
        for (int k = 0; k < (1 << S); k++)
            apply_scale(x[k], sc, base + k * stp, log_n);
    }
    CZ_UNROLL
    for (int k = 0; k < (1 << S); k++)
        st(a + base + k * stp, x[k]);
}

__global__ void k_bitrev(dfr *a, unsigned log_n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (1u << log_n))
        return;
    uint32_t j = __brev(i) >> (32 - log_n);
    if (i < j) {
        dfr x = ld(a + i), y = ld(a + j);
        st(a + i, y);
        st(a + j, x);
    }
}

// a = a b on the coset (C is subtracted after the last transform and 1/Z is
// in its table: cz_h_finish).
__global__ void k_pointwise(dfr *a, const dfr *b, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        dfr x = ld(a + i), y = ld(b + i);
        f_mul(x, x, y);
        st(a + i, x);
    }
}

static dfr to_d(const fr &x) {
    dfr r;
    memcpy(&r, &x, sizeof r);
    return r;
}

// lo[j] = b^j, hi[j] = c b^(j 2^14), j < 2^14.
static void fill_pow_table(fr *lo, fr *hi, const fr *b, const fr *c) {
    fr x;
    fr_set_one(&x);
    for (unsigned j = 0; j < TSIZE; j++) {
        if (lo)
            lo[j] = x;
        fr_mul(&x, &x, b);
    }
    // x = b^(2^14)
    fr y = *c;
    for (unsigned j = 0; j < TSIZE; j++) {
        hi[j] = y;
        fr_mul(&y, &y, &x);
    }
}

// x[j] = b^j, j < n.
static void fill_pow_table_n(fr *x, size_t n, const fr *b) {
    fr_set_one(&x[0]);
    for (size_t j = 1; j < n; j++)
        fr_mul(&x[j], &x[j - 1], b);
}

// The roots for Shoup's multiply (ntt_shoup_roots): each of n roots plain,
// with its quotient.
static void fill_shoup_roots(shoup_root *s, const fr *roots, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint64_t raw[4];
        fr_to_raw(raw, &roots[i]);
        memset(&s[i], 0, sizeof s[i]);
        memcpy(s[i].w, raw, sizeof s[i].w);
        shoup_quotient(s[i].q, s[i].w);
    }
}

// The block plan's pass i (np passes): its stage count and, DIF, its stride.
static unsigned plan_k(unsigned log_n, unsigned np, unsigned i) {
    return log_n / np + (i < log_n % np ? 1 : 0);
}

// One set of the inverse DIF's stage tables with a coset shift
// (ntt_kf_roots): pass i's stage of half-size h = 2^s over stride 2^log_s
// decides bit b = log_n - 1 - s - log_s of the output index j (its odd
// branch has that bit set), so it gets g^(2^b) in its roots: every element
// ends up times g^j.  wi512[e] = omega_1024^-e.
static void fill_kf_tables(fr *kf, const fr *wi512, unsigned log_n, const fr *g) {
    fr gp[CUDA_NTT_MAX_LOG_N]; // g^(2^b)
    gp[0] = *g;
    for (unsigned b = 1; b < log_n; b++)
        fr_sqr(&gp[b], &gp[b - 1]);
    memset(kf, 0, (size_t)NTT_KF_PASSES * NTT_KF_PASS * sizeof(fr));
    unsigned np = (log_n + NTT_BLOCK_MAX_K - 1) / NTT_BLOCK_MAX_K, done = 0;
    for (unsigned i = 0; i < np && i < NTT_KF_PASSES; i++) {
        unsigned k = plan_k(log_n, np, i), log_s = log_n - done - k;
        for (unsigned s = 0; s < k; s++) {
            unsigned h = 1u << s, b = log_n - 1 - s - log_s;
            for (unsigned e = 0; e < h; e++) // omega_2h^-e = omega_1024^-(e 512 / h)
                fr_mul(&kf[i * NTT_KF_PASS + h - 1 + e], &wi512[e << (NTT_SMALL_LOG - 1 - s)],
                       &gp[b]);
        }
        done += k;
    }
}

void cz_ntt_tables_free(cuda_ctx *c) {
    for (int i = 0; i <= CUDA_NTT_MAX_LOG_N; i++) {
        if (c->ntt[i]) {
            cudaFree(c->ntt[i]->d);
            delete c->ntt[i];
            c->ntt[i] = nullptr;
        }
    }
}

static cuda_status get_tables(cuda_ctx *c, unsigned log_n, ntt_tables **out, cuda_error *err) {
    if (c->ntt[log_n]) {
        *out = c->ntt[log_n];
        return CUDA_OK;
    }
    unsigned full_log = log_n < NTT_FULL_LOG ? log_n : NTT_FULL_LOG;
    size_t full = (size_t)1 << full_log;
    size_t bytes = ((size_t)T_COUNT * TSIZE + 2 * NTT_SMALL + 2 * full +
                    2 * NTT_KF_PASSES * NTT_KF_PASS + NTT_SHOUP_FR) *
                   sizeof(fr);
    fr *h = (fr *)malloc(bytes);
    if (!h)
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory for NTT tables");
    fr w, wi, g, gi, one, n_fr, ninv;
    fr_root_of_unity(&w, log_n);
    fr_inv(&wi, &w);
    fr_set_u64(&g, FR_GENERATOR);
    fr_inv(&gi, &g);
    fr_set_one(&one);
    fr_set_u64(&n_fr, (uint64_t)1 << log_n);
    fr_inv(&ninv, &n_fr);
    fr zinv, ninv_z; // 1 / (g^n - 1), 1 / (n (g^n - 1))
    uint64_t nexp = (uint64_t)1 << log_n;
    fr_pow_vartime(&zinv, &g, &nexp, 1);
    fr_sub(&zinv, &zinv, &one);
    fr_inv(&zinv, &zinv);
    fr_mul(&ninv_z, &ninv, &zinv);
    fill_pow_table(h + T_W_LO * TSIZE, h + T_W_HI * TSIZE, &w, &one);
    fill_pow_table(h + T_WI_LO * TSIZE, h + T_WI_HI * TSIZE, &wi, &one);
    fill_pow_table(h + T_G_LO * TSIZE, h + T_G_HI * TSIZE, &g, &one);
    fill_pow_table(NULL, h + T_GN_HI * TSIZE, &g, &ninv);
    fill_pow_table(h + T_GI_LO * TSIZE, h + T_GIN_HI * TSIZE, &gi, &ninv);
    fill_pow_table(NULL, h + T_GINZ_HI * TSIZE, &gi, &ninv_z);
    fill_pow_table(NULL, h + T_WIK_HI * TSIZE, &wi, &ninv_z);
    fill_pow_table(NULL, h + T_WIN_HI * TSIZE, &wi, &ninv);
    fr *small = h + (size_t)T_COUNT * TSIZE; // omega_1024^(+-i), i < 512
    fr w10, w10i;
    fr_root_of_unity(&w10, NTT_SMALL_LOG);
    fr_inv(&w10i, &w10);
    fill_pow_table_n(small, NTT_SMALL, &w10);
    fill_pow_table_n(small + NTT_SMALL, NTT_SMALL, &w10i);
    fr wf, wfi; // omega_(2^F) and its inverse: the full tables
    fr_root_of_unity(&wf, full_log);
    fr_inv(&wfi, &wf);
    fill_pow_table_n(small + 2 * NTT_SMALL, full, &wf);
    fill_pow_table_n(small + 2 * NTT_SMALL + full, full, &wfi);
    fr *kf = small + 2 * NTT_SMALL + 2 * full;
    fill_kf_tables(kf, small + NTT_SMALL, log_n, &g);
    fill_kf_tables(kf + NTT_KF_PASSES * NTT_KF_PASS, small + NTT_SMALL, log_n, &gi);
    shoup_root *sh = (shoup_root *)(kf + 2 * NTT_KF_PASSES * NTT_KF_PASS);
    fill_shoup_roots(sh, small, 2 * NTT_SMALL);
    fill_shoup_roots(sh + 2 * NTT_SMALL, kf, 2 * NTT_KF_PASSES * NTT_KF_PASS);
    ntt_tables *t = new (std::nothrow) ntt_tables();
    if (!t) {
        free(h);
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory for NTT tables");
    }
    t->n_inv = ninv;
    t->full_log = full_log;
    t->zinv = zinv;
    cuda_status ms = cz_malloc((void **)&t->d, bytes, "NTT tables", err);
    if (ms) {
        free(h);
        delete t;
        return ms;
    }
    cudaError_t e = cudaMemcpy(t->d, h, bytes, cudaMemcpyHostToDevice);
    free(h);
    if (e != cudaSuccess) {
        cudaFree(t->d);
        delete t;
        return cz_cuda_fail(err, e, "NTT table upload");
    }
    c->ntt[log_n] = t;
    *out = t;
    return CUDA_OK;
}

// The tables for a domain of 2^log_n, refusing sizes outside [2^1, 2^max]
// with a message naming `what`.
static cuda_status tables_for(cuda_ctx *c, unsigned log_n, const char *what, ntt_tables **out,
                              cuda_error *err) {
    if (log_n < 1 || log_n > CUDA_NTT_MAX_LOG_N)
        return cz_fail(err, CUDA_ERR_ARG, "%s 2^%u outside [2^1, 2^%d]", what, log_n,
                       CUDA_NTT_MAX_LOG_N);
    return get_tables(c, log_n, out, err);
}

static small_roots make_small_roots(int inverse) {
    small_roots s;
    for (int m = 0; m < NTT_MAX_S; m++) {
        fr w, x;
        fr_root_of_unity(&w, (unsigned)m + 1);
        if (inverse)
            fr_inv(&w, &w);
        fr_set_one(&x);
        for (int j = 0; j < (1 << m); j++) {
            s.w[(1 << m) - 1 + j] = to_d(x);
            fr_mul(&x, &x, &w);
        }
    }
    return s;
}

template <int S, bool DIT>
static void launch_pass(cuda_ctx *c, dfr *a, unsigned log_n, unsigned log_st, const dfr *hi,
                        const dfr *lo, const small_roots &sr, const scale_op &sc) {
    uint32_t threads = 1u << (log_n - S);
    unsigned block = threads < 128 ? threads : 128;
    k_ntt_pass<S, DIT>
        <<<(threads + block - 1) / block, block, 0, c->stream>>>(a, log_n, log_st, hi, lo, sr, sc);
}

static void pass(cuda_ctx *c, bool dit, int s, dfr *a, unsigned log_n, unsigned log_st,
                 const dfr *hi, const dfr *lo, const small_roots &sr, const scale_op &sc) {
    if (s == 1)
        dit ? launch_pass<1, true>(c, a, log_n, log_st, hi, lo, sr, sc)
            : launch_pass<1, false>(c, a, log_n, log_st, hi, lo, sr, sc);
    else
        dit ? launch_pass<2, true>(c, a, log_n, log_st, hi, lo, sr, sc)
            : launch_pass<2, false>(c, a, log_n, log_st, hi, lo, sr, sc);
}

// The block-pass plan: ceil(log_n / 9) passes of near-equal stage counts.
static cuda_status block_transform(cuda_ctx *c, dfr *a, unsigned log_n, bool dit, bool inverse,
                                   const ntt_tables *t, const scale_op &pre, const scale_op &post,
                                   cuda_error *err) {
    unsigned np = (log_n + NTT_BLOCK_MAX_K - 1) / NTT_BLOCK_MAX_K, done = 0;
    scale_op none;
    memset(&none, 0, sizeof none);
    for (unsigned i = 0; i < np; i++) {
        unsigned k = plan_k(log_n, np, i);
        unsigned log_s = dit ? done : log_n - done - k;
        cz_ntt_block_pass(c, a, log_n, log_s, (int)k, dit, inverse, t, i == 0 ? pre : none,
                          i == np - 1 ? post : none);
        CZ_LAUNCHED("k_ntt_block");
        done += k;
    }
    return CUDA_OK;
}

// One whole transform without permutation: DIF (natural -> bit-reversed) or
// DIT (bit-reversed -> natural) with root table (hi, lo); `pre` is applied
// on the first pass's loads, `post` before the last pass's stores.
static cuda_status transform(cuda_ctx *c, dfr *a, unsigned log_n, bool dit, bool inverse,
                             const ntt_tables *t, scale_op pre, scale_op post, cuda_error *err) {
    if (log_n >= 3)
        return block_transform(c, a, log_n, dit, inverse, t, pre, post, err);
    // 2 or 4 elements: one pass of log_n stages, so at most one scale
    if (pre.mode && post.mode)
        return cz_fail(err, CUDA_ERR_ARG, "internal: pre and post scale in one pass");
    scale_op sc = pre.mode ? pre : post;
    sc.pre = pre.mode ? 1 : 0;
    pass(c, dit, (int)log_n, a, log_n, 0, t->d + (inverse ? T_WI_HI : T_W_HI) * TSIZE,
         t->d + (inverse ? T_WI_LO : T_W_LO) * TSIZE, make_small_roots(inverse), sc);
    CZ_LAUNCHED("k_ntt_pass");
    return CUDA_OK;
}

static scale_op scale_const(const fr &c) {
    scale_op s;
    memset(&s, 0, sizeof s);
    s.mode = 1;
    s.c = to_d(c);
    return s;
}

static scale_op scale_table(const ntt_tables *t, int hi, int lo, int brev) {
    scale_op s;
    memset(&s, 0, sizeof s);
    s.mode = 2;
    s.brev = brev;
    s.hi = t->d + hi * TSIZE;
    s.lo = t->d + lo * TSIZE;
    return s;
}

static cuda_status bitrev(cuda_ctx *c, dfr *a, unsigned log_n, cuda_error *err) {
    uint32_t n = 1u << log_n;
    k_bitrev<<<(n + 255) / 256, 256, 0, c->stream>>>(a, log_n);
    CZ_LAUNCHED("k_bitrev");
    return CUDA_OK;
}

cuda_status cz_ntt_dev(cuda_ctx *c, dfr *a, unsigned log_n, cuda_ntt_kind kind, ntt_order order,
                       cuda_error *err) {
    ntt_tables *t;
    cuda_status s = tables_for(c, log_n, "NTT size", &t, err);
    if (s)
        return s;
    scale_op none;
    memset(&none, 0, sizeof none);
    bool inverse = kind == CUDA_NTT_INVERSE || kind == CUDA_NTT_COSET_INVERSE;
    bool dit = order == NTT_RN;
    scale_op pre = none, post = none;
    switch (kind) {
    case CUDA_NTT_FORWARD:
        break;
    case CUDA_NTT_INVERSE:
        post = scale_const(t->n_inv);
        break;
    case CUDA_NTT_COSET_FORWARD: // a_j *= g^j on the input (bit-reversed input: j = brev(pos))
        pre = scale_table(t, T_G_HI, T_G_LO, dit);
        break;
    case CUDA_NTT_COSET_INVERSE: // a_j *= g^-j / n on the output (DIF output is bit-reversed)
        post = scale_table(t, T_GIN_HI, T_GI_LO, !dit);
        break;
    }
    if (pre.mode && post.mode)
        return cz_fail(err, CUDA_ERR_ARG, "internal: both scales on a one-pass NTT");
    if ((s = transform(c, a, log_n, dit, inverse, t, pre, post, err)))
        return s;
    if (order == NTT_NN && (s = bitrev(c, a, log_n, err)))
        return s;
    return CUDA_OK;
}

// An inverse DIF (natural in, bit-reversed out) times the constant k, with k
// folded into the first pass: its column twiddles come from the hi table
// hi_id (WI's times k), and column 0, which has none, multiplies by k.  With
// kf_set >= 0, also times g^j (set 0) or g^-j (set 1): the stage tables
// (ntt_kf_roots) hold the shift.  sub: subtracted in the last pass (at the
// same positions), or nullptr.  Only where the first pass takes its twiddles
// from the two-level table (above 2^NTT_FULL_LOG) or has column 0 alone (one
// pass); false: not done, the caller scales in the last pass instead.
static bool idif_folded(cuda_ctx *c, dfr *v, unsigned log_n, const ntt_tables *t, int hi_id,
                        const fr &k, int kf_set, const dfr *sub) {
    if (log_n < 3)
        return false;
    unsigned np = (log_n + NTT_BLOCK_MAX_K - 1) / NTT_BLOCK_MAX_K;
    if (np > 1 && log_n <= t->full_log)
        return false;
    scale_op none;
    memset(&none, 0, sizeof none);
    const dfr *whik = t->d + hi_id * TSIZE;
    for (unsigned i = 0, done = 0; i < np; i++) { // block_transform's plan, DIF
        unsigned kk = plan_k(log_n, np, i);
        scale_op post = none;
        if (i == 0) { // one pass: column 0 only, so the subtraction is never skipped
            post = scale_const(k);
            post.c0_only = 1;
        }
        if (i == np - 1)
            post.sub = sub;
        cz_ntt_block_pass(c, v, log_n, log_n - done - kk, (int)kk, false, true, t, none, post,
                          i == 0 ? whik : nullptr,
                          kf_set >= 0 ? ntt_kf_roots(t, (unsigned)kf_set, i) : nullptr);
        done += kk;
    }
    return true;
}

cuda_status cz_h_prep(cuda_ctx *c, dfr *v, size_t rows, unsigned log_n, bool coeffs_only,
                      cuda_error *err) {
    ntt_tables *t;
    cuda_status s = tables_for(c, log_n, "H domain", &t, err);
    if (s)
        return s;
    size_t n = (size_t)1 << log_n;
    if (rows > n)
        return cz_fail(err, CUDA_ERR_ARG, "%zu rows exceed the domain 2^%u", rows, log_n);
    scale_op none;
    memset(&none, 0, sizeof none);
    CZ_TRY(cudaMemsetAsync(v + rows, 0, (n - rows) * sizeof(dfr), c->stream));
    if (coeffs_only) { // C's coefficients times 1/Z, bit-reversed: finish subtracts them
        fr k;
        fr_mul(&k, &t->n_inv, &t->zinv);
        if (idif_folded(c, v, log_n, t, T_WIK_HI, k, -1, nullptr)) {
            CZ_LAUNCHED("k_ntt_block");
            return CUDA_OK;
        }
        return transform(c, v, log_n, false, true, t, none, scale_const(k), err);
    }
    // iNTT to bit-reversed coefficients, times g^j / n (the coset shift):
    // folded into the roots or in the last pass
    if (idif_folded(c, v, log_n, t, T_WIN_HI, t->n_inv, 0, nullptr))
        CZ_LAUNCHED("k_ntt_block");
    else if ((s = transform(c, v, log_n, false, true, t, none, scale_table(t, T_GN_HI, T_G_LO, 1),
                            err)))
        return s;
    // evaluations on the coset, natural order
    return transform(c, v, log_n, true, false, t, none, none, err);
}

cuda_status cz_h_finish(cuda_ctx *c, dfr *a, const dfr *b, const dfr *cc, unsigned log_n,
                        cuda_error *err) {
    ntt_tables *t;
    cuda_status s = tables_for(c, log_n, "H domain", &t, err);
    if (s)
        return s;
    scale_op none;
    memset(&none, 0, sizeof none);
    size_t n = (size_t)1 << log_n;
    k_pointwise<<<(unsigned)((n + 255) / 256), 256, 0, c->stream>>>(a, b, (uint32_t)n);
    CZ_LAUNCHED("k_pointwise");
    // coset iNTT times 1/Z, then minus C / Z (cc: at bit-reversed positions):
    // g^-j in the stage roots, 1/(nZ) in the column twiddles, or g^-j / (nZ)
    // from one table in the last pass
    fr k;
    fr_mul(&k, &t->n_inv, &t->zinv);
    if (idif_folded(c, a, log_n, t, T_WIK_HI, k, 1, cc)) {
        CZ_LAUNCHED("k_ntt_block");
        return bitrev(c, a, log_n, err);
    }
    scale_op post = scale_table(t, T_GINZ_HI, T_GI_LO, 1);
    post.sub = cc; // both bit-reversed
    if ((s = transform(c, a, log_n, false, true, t, none, post, err)))
        return s;
    return bitrev(c, a, log_n, err);
}

cuda_status cz_h_poly_dev(cuda_ctx *c, dfr *a, dfr *b, dfr *cc, size_t rows, unsigned log_n,
                          cuda_error *err) {
    dfr *v[3] = {a, b, cc};
    cuda_status s = CUDA_OK;
    for (int i = 0; i < 3 && !s; i++)
        s = cz_h_prep(c, v[i], rows, log_n, i == 2, err);
    return s ? s : cz_h_finish(c, a, b, cc, log_n, err);
}

extern "C" cuda_status cuda_ntt(cuda_ctx *c, fr *a, unsigned log_n, cuda_ntt_kind kind,
                                ntt_order order, float *ms, cuda_error *err) {
    if (!c || !a)
        return cz_fail(err, CUDA_ERR_ARG, "cuda_ntt: NULL argument");
    if (log_n < 1 || log_n > CUDA_NTT_MAX_LOG_N)
        return cz_fail(err, CUDA_ERR_ARG, "NTT size 2^%u outside [2^1, 2^%d]", log_n,
                       CUDA_NTT_MAX_LOG_N);
    CZ_TRY(cudaSetDevice(c->ordinal));
    size_t bytes = sizeof(fr) << log_n;
    cuda_status s = cz_reserve(c->nbuf[0], bytes, err);
    if (s || (s = cz_upload(c, c->nbuf[0].p, a, bytes, err)))
        return s;
    // tables first, so their upload stays out of the timing
    ntt_tables *t;
    if ((s = get_tables(c, log_n, &t, err)))
        return s;
    CZ_TRY(cudaEventRecord(c->ev[0], c->stream));
    if ((s = cz_ntt_dev(c, (dfr *)c->nbuf[0].p, log_n, kind, order, err)))
        return s;
    CZ_TRY(cudaEventRecord(c->ev[1], c->stream));
    CZ_TRY(cudaEventSynchronize(c->ev[1]));
    if (ms)
        CZ_TRY(cudaEventElapsedTime(ms, c->ev[0], c->ev[1]));
    return cz_download(c, a, c->nbuf[0].p, bytes, err);
}

extern "C" cuda_status cuda_h_poly(cuda_ctx *c, fr *a, const fr *b, const fr *cc, size_t rows,
                                   unsigned log_n, float *ms, cuda_error *err) {
    if (!c || !a || !b || !cc)
        return cz_fail(err, CUDA_ERR_ARG, "cuda_h_poly: NULL argument");
    if (log_n < 1 || log_n > CUDA_NTT_MAX_LOG_N || rows > ((size_t)1 << log_n))
        return cz_fail(err, CUDA_ERR_ARG, "cuda_h_poly: %zu rows on a domain of 2^%u", rows, log_n);
    CZ_TRY(cudaSetDevice(c->ordinal));
    size_t bytes = sizeof(fr) << log_n;
    cuda_status s = CUDA_OK;
    for (int i = 0; i < 3 && !s; i++)
        s = cz_reserve(c->nbuf[i], bytes, err);
    if (s || (s = cz_upload(c, c->nbuf[0].p, a, rows * sizeof(fr), err)) ||
        (s = cz_upload(c, c->nbuf[1].p, b, rows * sizeof(fr), err)) ||
        (s = cz_upload(c, c->nbuf[2].p, cc, rows * sizeof(fr), err)))
        return s;
    ntt_tables *t;
    if ((s = get_tables(c, log_n, &t, err)))
        return s;
    CZ_TRY(cudaEventRecord(c->ev[0], c->stream));
    if ((s = cz_h_poly_dev(c, (dfr *)c->nbuf[0].p, (dfr *)c->nbuf[1].p, (dfr *)c->nbuf[2].p, rows,
                           log_n, err)))
        return s;
    CZ_TRY(cudaEventRecord(c->ev[1], c->stream));
    CZ_TRY(cudaEventSynchronize(c->ev[1]));
    if (ms)
        CZ_TRY(cudaEventElapsedTime(ms, c->ev[0], c->ev[1]));
    return cz_download(c, a, c->nbuf[0].p, bytes, err);
}
