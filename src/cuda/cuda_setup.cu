// The test-only setup's GPU steps (cuda_setup.h).  Correctness first: each
// kernel is the plain loop of the CPU code, one thread per output.
#include <cub/cub.cuh>
#include <new>

#include "cuda/cuda_internal.cuh"
#include "cuda/cuda_setup.h"

extern "C" {
#include "curve/fixed_base.h"
}

namespace {

struct setup_gpu {
    cuda_ctx *c;
    unsigned threads;
    g1a *t1; // device copies of the CPU's window-8 generator tables
    g2a *t2;
    unsigned windows;
    dbuf sc, pts;                                      // one chunk of scalars and points
    dbuf lag, rp, col, coef, dict, cnt, off, ent, out; // the per-variable sums
};

const unsigned WIN = 8, DIGITS = (1u << WIN) - 1;

// z column of a pce column: inputs first, then aux.
__device__ __forceinline__ uint32_t zcol(uint32_t c, uint32_t n_in) {
    return c & PCE_INPUT_TAG ? c & ~PCE_INPUT_TAG : n_in + c;
}

__global__ void k_count(const uint32_t *col, size_t nnz, uint32_t n_in, uint32_t *cnt) {
    size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (k < nnz)
        atomicAdd(&cnt[zcol(col[k], n_in)], 1u);
}

// A transposed copy: the (row, coefficient) pairs of each column gathered at
// off[v].. in any order (field addition does not care about it); cur starts
// as a copy of off.
__global__ void k_scatter(const uint32_t *rp, const uint32_t *col, const void *coef, int wide,
                          size_t rows, uint32_t n_in, uint32_t *cur, uint2 *ent) {
    size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    for (uint32_t k = rp[r]; k < rp[r + 1]; k++) {
        uint32_t d = wide ? ((const uint32_t *)coef)[k] : ((const uint16_t *)coef)[k];
        uint32_t pos = atomicAdd(&cur[zcol(col[k], n_in)], 1u);
        ent[pos] = make_uint2((uint32_t)r, d);
    }
}

// out[v] = sum of dict[d] * lag[r] over the column's pairs (0: +1, 1: -1).
__global__ void k_colsum(const uint32_t *off, const uint2 *ent, const dfr *dict, const dfr *lag,
                         size_t vars, dfr *out) {
    size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (v >= vars)
        return;
    dfr acc, t;
    f_zero(acc);
    for (uint32_t i = off[v]; i < off[v + 1]; i++) {
        uint2 e = ent[i];
        t = lag[e.x];
        if (e.y == 1)
            f_sub(acc, acc, t);
        else {
            if (e.y != 0)
                f_mul(t, dict[e.y], t);
            f_add(acc, acc, t);
        }
    }
    out[v] = acc;
}

__constant__ uint32_t c_fp_p[12] = CZ_FP_P;

__device__ __forceinline__ uint32_t fp_limb(int i) { return c_fp_p[i]; }

// a^(p-2) = 1/a in Fp (a != 0), square and multiply over p's limbs.
__device__ __forceinline__ void fp_inv(dfp &r, const dfp &a) {
    dfp x;
    set_one(x);
    // not unrolled: 384 inlined squarings would make the kernels huge
#pragma unroll 1
    for (int i = dfp::N - 1; i >= 0; i--) {
        uint32_t e = fp_limb(i) - (i == 0 ? 2u : 0u); // p ends ...aaab: no borrow
#pragma unroll 1
        for (int b = 31; b >= 0; b--) {
            f_sqr(x, x);
            if ((e >> b) & 1)
                f_mul(x, x, a);
        }
    }
    r = x;
}

__device__ __forceinline__ void f_inv(dfp &r, const dfp &a) { fp_inv(r, a); }

// 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2).
__device__ __forceinline__ void f_inv(dfp2 &r, const dfp2 &a) {
    dfp t, u;
    f_sqr(t, a.c0);
    f_sqr(u, a.c1);
    f_add(t, t, u);
    fp_inv(t, t);
    f_mul(r.c0, a.c0, t);
    f_mul(u, a.c1, t);
    f_neg(r.c1, u);
}

// out[i] = k[i] G through the table (digit d of window j at j*255 + d - 1),
// then affine: x = X/ZZ, y = Y/ZZZ with one inversion of ZZ ZZZ; the
// identity as (0, 0), the CPU's layout.
template <class F>
__global__ void k_fixed(const dfr *k, size_t n, const affine<F> *tab, unsigned windows,
                        affine<F> *out) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    dfr s;
    f_from_mont(s, k[i]);
    xyzz<F> acc;
    x_set_inf(acc);
#pragma unroll 1
    for (unsigned j = 0; j < windows; j++) {
        uint32_t d = (s.v[j / 4] >> (8 * (j % 4))) & 0xff;
        if (d)
            x_add_aff(acc, tab[j * DIGITS + d - 1]);
    }
    affine<F> r;
    if (x_is_inf(acc)) {
        f_zero(r.x);
        f_zero(r.y);
    } else {
        F t, ti;
        f_mul(t, acc.zz, acc.zzz);
        f_inv(ti, t);
        f_mul(t, acc.x, acc.zzz);
        f_mul(r.x, t, ti);
        f_mul(t, acc.y, acc.zz);
        f_mul(r.y, t, ti);
    }
    out[i] = r;
}

unsigned blocks(size_t n, unsigned bs) { return (unsigned)((n + bs - 1) / bs); }

int fail(char *err, size_t cap, const cuda_error &ce) {
    snprintf(err, cap, "setup on the GPU: %s", ce.msg);
    return -1;
}

cuda_status copy_in(cuda_ctx *c, dbuf &b, const void *src, size_t bytes, cuda_error *err) {
    cuda_status s = cz_reserve(b, bytes ? bytes : 1, err);
    if (s == CUDA_OK && bytes)
        CZ_TRY(cudaMemcpy(b.p, src, bytes, cudaMemcpyHostToDevice));
    (void)c;
    return s;
}

cuda_status columns_one(setup_gpu *g, const r1cs_pce *p, unsigned mi, fr *host_out,
                        cuda_error *err) {
    cuda_ctx *c = g->c;
    size_t rows = (size_t)p->rows, nnz = p->row_ptr[mi][rows];
    size_t vars = (size_t)(p->num_inputs + p->num_aux);
    uint32_t n_in = (uint32_t)p->num_inputs;
    int wide = p->coef_width != 2;
    cuda_status s;
    if ((s = copy_in(c, g->rp, p->row_ptr[mi], (rows + 1) * 4, err)) ||
        (s = copy_in(c, g->col, p->col[mi], nnz * 4, err)) ||
        (s = copy_in(c, g->coef, p->coef[mi], nnz * (wide ? 4 : 2), err)) ||
        (s = cz_reserve(g->cnt, (vars + 1) * 4, err)) ||
        (s = cz_reserve(g->off, (vars + 1) * 4, err)) ||
        (s = cz_reserve(g->ent, (nnz ? nnz : 1) * sizeof(uint2), err)) ||
        (s = cz_reserve(g->out, vars * sizeof(dfr), err)))
        return s;
    uint32_t *cnt = (uint32_t *)g->cnt.p, *off = (uint32_t *)g->off.p;
    CZ_TRY(cudaMemsetAsync(cnt, 0, (vars + 1) * 4, c->stream));
    if (nnz) {
        k_count<<<blocks(nnz, 256), 256, 0, c->stream>>>((const uint32_t *)g->col.p, nnz, n_in,
                                                         cnt);
        CZ_LAUNCHED("setup count");
    }
    size_t tmp = 0;
    CZ_TRY(cub::DeviceScan::ExclusiveSum(nullptr, tmp, cnt, off, vars + 1, c->stream));
    if ((s = cz_reserve(c->cub_tmp, tmp, err)))
        return s;
    CZ_TRY(cub::DeviceScan::ExclusiveSum(c->cub_tmp.p, tmp, cnt, off, vars + 1, c->stream));
    CZ_TRY(cudaMemcpyAsync(cnt, off, (vars + 1) * 4, cudaMemcpyDeviceToDevice, c->stream));
    k_scatter<<<blocks(rows, 128), 128, 0, c->stream>>>((const uint32_t *)g->rp.p,
                                                        (const uint32_t *)g->col.p, g->coef.p, wide,
                                                        rows, n_in, cnt, (uint2 *)g->ent.p);
    CZ_LAUNCHED("setup scatter");
    k_colsum<<<blocks(vars, 128), 128, 0, c->stream>>>(
        off, (const uint2 *)g->ent.p, (const dfr *)g->dict.p, (const dfr *)g->lag.p, vars,
        (dfr *)g->out.p);
    CZ_LAUNCHED("setup column sums");
    CZ_TRY(cudaStreamSynchronize(c->stream));
    CZ_TRY(cudaMemcpy(host_out, g->out.p, vars * sizeof(dfr), cudaMemcpyDeviceToHost));
    return CUDA_OK;
}

int op_columns(void *ctx, const r1cs_pce *p, const fr *lag, fr *at, fr *bt, fr *ct, char *err,
               size_t cap) {
    setup_gpu *g = (setup_gpu *)ctx;
    cuda_error ce = {};
    fr *outs[3] = {at, bt, ct};
    cuda_status s = copy_in(g->c, g->lag, lag, (size_t)p->rows * sizeof(fr), &ce);
    if (!s)
        s = copy_in(g->c, g->dict, p->dict, (size_t)p->dict_len * sizeof(fr), &ce);
    for (unsigned mi = 0; mi < 3 && !s; mi++)
        s = columns_one(g, p, mi, outs[mi], &ce);
    // the sums' buffers are large: give them back for the multiplications
    dbuf *bufs[] = {&g->lag, &g->rp,  &g->col, &g->coef, &g->dict,
                    &g->cnt, &g->off, &g->ent, &g->out};
    for (dbuf *b : bufs)
        cz_release(*b);
    return s ? fail(err, cap, ce) : 0;
}

int op_lagrange(void *ctx, fr *a, unsigned log_m, char *err, size_t cap) {
    setup_gpu *g = (setup_gpu *)ctx;
    cuda_error ce = {};
    cuda_status s = cuda_ntt(g->c, a, log_m, CUDA_NTT_INVERSE, NTT_NN, NULL, &ce);
    cz_release(g->c->nbuf[0]);
    return s ? fail(err, cap, ce) : 0;
}

template <class F, class H>
cuda_status fixed_many(setup_gpu *g, const affine<F> *tab, H *out, const fr *k, size_t n,
                       cuda_error *err) {
    cuda_ctx *c = g->c;
    cuda_status s;
    if ((s = copy_in(c, g->sc, k, n * sizeof(fr), err)) ||
        (s = cz_reserve(g->pts, n * sizeof(affine<F>), err)))
        return s;
    k_fixed<F><<<blocks(n, 128), 128, 0, c->stream>>>((const dfr *)g->sc.p, n, tab, g->windows,
                                                      (affine<F> *)g->pts.p);
    CZ_LAUNCHED("setup fixed-base multiplication");
    CZ_TRY(cudaStreamSynchronize(c->stream));
    static_assert(sizeof(H) == sizeof(affine<F>), "affine layouts differ");
    CZ_TRY(cudaMemcpy(out, g->pts.p, n * sizeof(affine<F>), cudaMemcpyDeviceToHost));
    return CUDA_OK;
}

int op_g1(void *ctx, g1_affine *out, const fr *k, size_t n, char *err, size_t cap) {
    setup_gpu *g = (setup_gpu *)ctx;
    cuda_error ce = {};
    return fixed_many(g, g->t1, out, k, n, &ce) ? fail(err, cap, ce) : 0;
}

int op_g2(void *ctx, g2_affine *out, const fr *k, size_t n, char *err, size_t cap) {
    setup_gpu *g = (setup_gpu *)ctx;
    cuda_error ce = {};
    return fixed_many(g, g->t2, out, k, n, &ce) ? fail(err, cap, ce) : 0;
}

void destroy(setup_gpu *g) {
    if (!g)
        return;
    if (g->c) {
        cudaSetDevice(cuda_ctx_ordinal(g->c));
        cudaFree(g->t1);
        cudaFree(g->t2);
        dbuf *bufs[] = {&g->sc,   &g->pts, &g->lag, &g->rp,  &g->col, &g->coef,
                        &g->dict, &g->cnt, &g->off, &g->ent, &g->out};
        for (dbuf *b : bufs)
            cz_release(*b);
        cuda_ctx_destroy(g->c);
    }
    delete g;
}

// The CPU's window-8 tables (curve/fixed_base.h) uploaded as they are.
cuda_status upload_tables(setup_gpu *g, cuda_error *err) {
    g1_affine b1;
    g2_affine b2;
    g1_affine_generator(&b1);
    g2_affine_generator(&b2);
    g1_fixed_table h1 = {};
    g2_fixed_table h2 = {};
    unsigned t = g->threads ? g->threads : 1;
    if (g1_fixed_table_init(&h1, &b1, WIN, t) || g2_fixed_table_init(&h2, &b2, WIN, t)) {
        g1_fixed_table_free(&h1);
        g2_fixed_table_free(&h2);
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory for the generator tables");
    }
    g->windows = h1.windows;
    size_t n1 = (size_t)h1.windows * DIGITS, n2 = (size_t)h2.windows * DIGITS;
    cudaError_t e = cudaMalloc(&g->t1, n1 * sizeof(g1a));
    if (e == cudaSuccess)
        e = cudaMalloc(&g->t2, n2 * sizeof(g2a));
    if (e == cudaSuccess)
        e = cudaMemcpy(g->t1, h1.t, n1 * sizeof(g1a), cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(g->t2, h2.t, n2 * sizeof(g2a), cudaMemcpyHostToDevice);
    int same = h1.windows == h2.windows && h1.windows <= 32 && h1.window == WIN && h2.window == WIN;
    g1_fixed_table_free(&h1);
    g2_fixed_table_free(&h2);
    if (e != cudaSuccess)
        return cz_cuda_fail(err, e, "uploading the generator tables");
    if (!same)
        return cz_fail(err, CUDA_ERR_ARG, "generator tables of unexpected shape");
    return CUDA_OK;
}

} // namespace

extern "C" int cuda_setup_ops_init(groth16_setup_ops *ops, int ordinal, unsigned threads, char *err,
                                   size_t cap) {
    memset(ops, 0, sizeof *ops);
    static_assert(sizeof(g1a) == sizeof(g1_affine) && sizeof(g2a) == sizeof(g2_affine),
                  "affine layouts differ");
    static_assert(sizeof(dfr) == sizeof(fr), "fr layouts differ");
    setup_gpu *g = new (std::nothrow) setup_gpu();
    if (!g)
        return snprintf(err, cap, "setup on the GPU: out of host memory"), -1;
    g->threads = threads;
    cuda_error ce = {};
    cuda_status s = cuda_ctx_create(&g->c, ordinal, &ce);
    if (!s) {
        cuda_ctx_set_copy_threads(g->c, threads);
        s = upload_tables(g, &ce);
    }
    if (s) {
        destroy(g);
        return fail(err, cap, ce);
    }
    ops->ctx = g;
    ops->lagrange = op_lagrange;
    ops->columns = op_columns;
    ops->g1_mul = op_g1;
    ops->g2_mul = op_g2;
    ops->chunk = (size_t)1 << 24; // 1.5 GiB of G1 points, 3 GiB of G2 on the host per chunk
    return 0;
}

extern "C" void cuda_setup_ops_free(groth16_setup_ops *ops) {
    if (!ops)
        return;
    destroy((setup_gpu *)ops->ctx);
    memset(ops, 0, sizeof *ops);
}
