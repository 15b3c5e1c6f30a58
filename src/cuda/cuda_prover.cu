// A prover on one GPU (cuda_backend.h): the H step and the MSM sums of each
// proof on the GPU with the parameter set resident, as groth16_sums_ops for
// groth16_prove_with, which checks the shape, draws r, s and assembles.
#include <new>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_abc.cuh"
#include "cuda/cuda_backend.h"
#include "cuda/cuda_internal.cuh"
#include "cuda/cuda_srs_cache.cuh"

extern "C" {
#include "util/switches.h"
#include "util/timing.h"
}

struct cuda_prover {
    pthread_mutex_t lock; // serializes every call on this prover
    cuda_ctx *ctx;
    cz_srs_cache srs;
    cz_pce_cache pce;   // recorded circuits, for deferred partitions
    cz_witness_dev wit; // a deferred partition's compact witness
    dbuf in, aux;       // the witness, Montgomery, on the device
};

namespace {

groth16_status fail_cuda(groth16_error *err, const cuda_error &e) {
    groth16_status s = e.status == CUDA_ERR_NO_MEMORY ? GROTH16_ERR_NO_MEMORY
                       : e.status == CUDA_ERR_ARG || e.status == CUDA_ERR_SCALAR ? GROTH16_ERR_ARG
                                                                                 : GROTH16_ERR_IO;
    return groth16_fail(err, s, "cuda: %s", e.msg);
}

// The sums the GPU computes for one proof, B_G2's too (the G2 MSM on the GPU
// beat the CPU's beside the GPU work by A/B: PERFORMANCE.md).
struct gpu_sums {
    g1x xl, xa, xa2, xb, xb2, xh;
    g2_jac b2;
};

// A deferred partition's inputs on the device: the public inputs and the
// compact witness uploaded, the witness expanded into pr->aux, and a, b, c by
// SpMV into the H step's buffers, each through its H-step transform.
cuda_status deferred_inputs(cuda_prover *pr, const r1cs_partition *p, const cz_pce_dev *dp,
                            unsigned k, groth16_prove_timing *t, cuda_error *e) {
    cuda_ctx *c = pr->ctx;
    cuda_status cs = CUDA_OK;
    size_t sent = 0;
    double t0 = timing_now_ms();
    if ((cs = cz_upload_async(c, pr->in.p, p->input, p->num_inputs * sizeof(dfr), c->up[3], e)))
        return cs;
    cudaStreamWaitEvent(c->stream, c->up[3], 0);
    cudaEventRecord(c->ev[2], c->stream);
    if ((cs = cz_witness_upload_expand(c, pr->wit, p->aux_pack, c->up[4], (dfr *)pr->aux.p, &sent,
                                       e)))
        return cs;
    const dfr *din = (const dfr *)pr->in.p, *daux = (const dfr *)pr->aux.p;
    for (int i = 0; i < 3 && !cs; i++)
        cs = cz_pce_spmv(c, dp, i, din, daux, pr->wit, (dfr *)c->nbuf[i].p, e);
    if (cs)
        return cs;
    cudaEventRecord(c->ev[4], c->stream);
    cudaEventRecord(c->ev[0], c->stream); // the H step starts here
    for (int i = 0; i < 3 && !cs && k > 0; i++)
        cs = cz_h_prep(c, (dfr *)c->nbuf[i].p, p->num_constraints, k, i == 2, e);
    if (cs)
        return cs;
    float abc_ms = 0;
    cudaEventSynchronize(c->ev[4]);
    cudaEventElapsedTime(&abc_ms, c->ev[2], c->ev[4]);
    t->dev_abc_ms = abc_ms; // expansion (after the upload) and SpMV
    t->witness_bytes = (double)(sent + p->num_inputs * sizeof(dfr));
    t->abc_ms = timing_now_ms() - t0;
    return CUDA_OK;
}

groth16_status gpu_msms(cuda_prover *pr, gpu_sums *o, const r1cs_partition *p, const cz_srs *dev,
                        const groth16_shape *sh, groth16_prove_timing *t, groth16_error *err);

// H step and MSMs of one proof on the GPU (see cuda_sums).  dp: p is
// deferred and dp its circuit on the device.
groth16_status gpu_part(cuda_prover *pr, gpu_sums *o, const r1cs_partition *p, const cz_srs *dev,
                        const cz_pce_dev *dp, const groth16_shape *sh, unsigned threads,
                        groth16_prove_timing *t, groth16_error *err) {
    cuda_error e = {CUDA_OK, ""};
    cuda_status cs = CUDA_OK;
    cuda_ctx *c = pr->ctx;
    int k = (int)sh->log_m;
    size_t m = sh->m, n_in = sh->n_in, n_aux = sh->n_aux;
    double t1 = timing_now_ms();
    // Uploads go on the copy stream through the pinned pool: a, b, c, then
    // the witness; each input's transforms start as soon as it lands, while
    // the next one is staged (both measured better than uploading everything
    // first or pinning the host arrays in place: PERFORMANCE.md).  The guard
    // waits for the copies on every way out.
    struct copy_guard {
        cuda_ctx *c;
        ~copy_guard() { cz_upload_wait(c, nullptr); }
    } guard = {c};
    // The pool's fillers: this proof's threads (gpu_stage_threads caps them).
    long cap = switch_get(SW_GPU_STAGE_THREADS);
    cuda_ctx_set_copy_threads(c, cap > 0 && threads > (unsigned)cap ? (unsigned)cap : threads);
    size_t bytes = m * sizeof(dfr), rb = p->num_constraints * sizeof(dfr);
    for (int i = 0; i < 3 && (k > 0 || dp) && !cs; i++)
        cs = cz_reserve(c->nbuf[i], bytes > rb ? bytes : rb, &e);
    if (cs || (cs = cz_reserve(pr->in, (n_in + 1) * sizeof(dfr), &e)) ||
        (cs = cz_reserve(pr->aux, (n_aux + 1) * sizeof(dfr), &e)) || (cs = cz_copy_fence(c, &e)))
        return fail_cuda(err, e);
    if (dp) { // deferred: a, b, c made on the device; the H step's first half with them
        if ((cs = deferred_inputs(pr, p, dp, (unsigned)k, t, &e)))
            return fail_cuda(err, e);
        if (k > 0 && (cs = cz_h_finish(c, (dfr *)c->nbuf[0].p, (const dfr *)c->nbuf[1].p,
                                       (const dfr *)c->nbuf[2].p, (unsigned)k, &e)))
            return fail_cuda(err, e);
        cudaEventRecord(c->ev[1], c->stream);
        float ms = 0;
        cudaEventSynchronize(c->ev[1]);
        cudaEventElapsedTime(&ms, c->ev[0], c->ev[1]);
        t->dev_h_ms = ms;
        if ((cs = cz_upload_wait(c, &e)))
            return fail_cuda(err, e);
        double t2b = timing_now_ms();
        t->scalars_ms = t->abc_ms;
        t->h_ms = t2b - t1 - t->abc_ms;
        return gpu_msms(pr, o, p, dev, sh, t, err);
    }
    const fr *src[5] = {p->a, p->b, p->c, p->input, p->aux};
    void *dst[5] = {k > 0 ? c->nbuf[0].p : nullptr, k > 0 ? c->nbuf[1].p : nullptr,
                    k > 0 ? c->nbuf[2].p : nullptr, pr->in.p, pr->aux.p};
    size_t len[5] = {k > 0 ? rb : 0, k > 0 ? rb : 0, k > 0 ? rb : 0, n_in * sizeof(dfr),
                     n_aux * sizeof(dfr)};
    double t2 = timing_now_ms();
    t->scalars_ms = t2 - t1; // the uploads themselves count under "H"
    if (k > 0) {
        dfr *h = (dfr *)c->nbuf[0].p;
        for (int i = 0; i < 3 && !cs; i++) {
            if ((cs = cz_upload_async(c, dst[i], src[i], len[i], c->up[i], &e)))
                break;
            cudaStreamWaitEvent(c->stream, c->up[i], 0);
            if (i == 0)
                cudaEventRecord(c->ev[0], c->stream);
            cs = cz_h_prep(c, (dfr *)dst[i], p->num_constraints, (unsigned)k, i == 2, &e);
        }
        if (cs ||
            (cs = cz_h_finish(c, h, (const dfr *)dst[1], (const dfr *)dst[2], (unsigned)k, &e)))
            return fail_cuda(err, e);
        cudaEventRecord(c->ev[1], c->stream);
    }
    // the witness, staged while the H step runs
    for (int i = 3; i < 5 && !cs; i++)
        if (!(cs = cz_upload_async(c, dst[i], src[i], len[i], c->up[i], &e)))
            cudaStreamWaitEvent(c->stream, c->up[i], 0);
    if (cs || (cs = cz_upload_wait(c, &e)))
        return fail_cuda(err, e);
    if (k > 0) {
        float ms = 0;
        cudaEventSynchronize(c->ev[1]);
        cudaEventElapsedTime(&ms, c->ev[0], c->ev[1]);
        t->dev_h_ms = ms;
    }
    t->h_ms = timing_now_ms() - t2;
    return gpu_msms(pr, o, p, dev, sh, t, err);
}

// The MSMs of one proof over the witness on the device (pr->in, pr->aux) and
// H's coefficients in nbuf[0].
groth16_status gpu_msms(cuda_prover *pr, gpu_sums *o, const r1cs_partition *p, const cz_srs *dev,
                        const groth16_shape *sh, groth16_prove_timing *t, groth16_error *err) {
    cuda_error e = {CUDA_OK, ""};
    cuda_ctx *c = pr->ctx;
    size_t m = sh->m, n_in = sh->n_in, n_aux = sh->n_aux, b_inputs = sh->b_inputs;
    const dfr *h = sh->log_m > 0 ? (const dfr *)c->nbuf[0].p : nullptr;
    double t3 = timing_now_ms();
    const dfr *din = (const dfr *)pr->in.p, *daux = (const dfr *)pr->aux.p;
    g2x yb, yb2;
    cuda_msm_stats ms;
    unsigned win = (unsigned)switch_get(SW_GPU_MSM_WINDOW); /* CUZK_MSM_WINDOW; 0 = auto */
#define MSM(call, slot)                 \
    do {                                \
        if ((call) != CUDA_OK)          \
            return fail_cuda(err, e);   \
        t->slot += ms.total_ms;         \
        t->dev_msm_pieces += ms.pieces; \
    } while (0)
    MSM(cz_msm_g1_dev(c, &o->xl, dev->l, 0, daux, 1, NULL, n_aux, win, 1, &ms, &e), dev_l_ms);
    double t4 = timing_now_ms();
    MSM(cz_msm_g1_dev(c, &o->xa, dev->a, 0, din, 1, NULL, n_in, win, 1, &ms, &e), dev_a_ms);
    MSM(cz_msm_g1_dev(c, &o->xa2, dev->a, n_in, daux, 1, p->a_aux_density, n_aux, win, 1, &ms, &e),
        dev_a_ms);
    double t5 = timing_now_ms();
    MSM(cz_msm_g1_dev(c, &o->xb, dev->b1, 0, din, 1, p->b_input_density, n_in, win, 1, &ms, &e),
        dev_b1_ms);
    MSM(cz_msm_g1_dev(c, &o->xb2, dev->b1, b_inputs, daux, 1, p->b_aux_density, n_aux, win, 1, &ms,
                      &e),
        dev_b1_ms);
    double t6 = timing_now_ms();
    MSM(cz_msm_g2_dev(c, &yb, dev->b2, 0, din, 1, p->b_input_density, n_in, win, 1, &ms, &e),
        dev_b2_ms);
    MSM(cz_msm_g2_dev(c, &yb2, dev->b2, b_inputs, daux, 1, p->b_aux_density, n_aux, win, 1, &ms,
                      &e),
        dev_b2_ms);
    g2_jac y;
    cz_g2x_to_jac(&o->b2, &yb);
    cz_g2x_to_jac(&y, &yb2);
    g2_jac_add_vartime(&o->b2, &o->b2, &y);
    double t7 = timing_now_ms();
    x_set_inf(o->xh);
    if (m > 1)
        MSM(cz_msm_g1_dev(c, &o->xh, dev->h, 0, h, 1, NULL, m - 1, win, 1, &ms, &e), dev_hm_ms);
    double t8 = timing_now_ms();
#undef MSM
    t->msm_l_ms = t4 - t3;
    t->msm_a_ms = t5 - t4;
    t->msm_b1_ms = t6 - t5;
    t->msm_b2_ms = t7 - t6;
    t->msm_h_ms = t8 - t7;
    return GROTH16_OK;
}

// The other circuits' matrices dropped (their copies are rebuilt on demand).
unsigned evict_other_pces(cuda_prover *pr, const r1cs_pce *keep) {
    unsigned n = 0;
    for (cz_pce_dev &d : pr->pce.sets)
        if (d.key && d.key != keep) {
            cz_pce_forget(&pr->pce, d.key);
            n++;
        }
    return n;
}

// groth16_sums_ops' sums on prover self: the set made resident, the GPU's
// part (once more after evicting the other sets if its scratch did not fit),
// then the XYZZ sums brought to Jacobian.
groth16_status cuda_sums(void *self, groth16_sums *out, const r1cs_partition *p,
                         const groth16_params_data *srs, const groth16_shape *sh, unsigned threads,
                         groth16_prove_timing *t, groth16_error *err) {
    cuda_prover *pr = (cuda_prover *)self;
    threads = threads ? threads : 1;
    cuda_error e = {CUDA_OK, ""};
    const cz_srs *dev_srs = nullptr;
    if (cz_srs_get(&pr->srs, pr->ctx, srs, threads, &dev_srs, &e))
        return fail_cuda(err, e);
    // a deferred partition: its circuit resident
    const cz_pce_dev *dp = nullptr;
    if (r1cs_partition_deferred(p) && cz_pce_get(&pr->pce, pr->ctx, p->abc_pce, &dp, &e))
        return fail_cuda(err, e);
    gpu_sums o;
    groth16_prove_timing t0 = *t;
    groth16_status st = gpu_part(pr, &o, p, dev_srs, dp, sh, threads, t, err);
    if (st == GROTH16_ERR_NO_MEMORY &&
        cz_srs_evict_others(&pr->srs, srs) + (dp ? evict_other_pces(pr, p->abc_pce) : 0) > 0) {
        *t = t0; // the scratch did not fit beside the other sets: again without them
        st = gpu_part(pr, &o, p, dev_srs, dp, sh, threads, t, err);
    }
    if (st != GROTH16_OK)
        return st;
    g1_jac x;
    cz_g1x_to_jac(&out->l, &o.xl);
    cz_g1x_to_jac(&out->a, &o.xa);
    cz_g1x_to_jac(&x, &o.xa2);
    g1_jac_add_vartime(&out->a, &out->a, &x);
    cz_g1x_to_jac(&out->b1, &o.xb);
    cz_g1x_to_jac(&x, &o.xb2);
    g1_jac_add_vartime(&out->b1, &out->b1, &x);
    cz_g1x_to_jac(&out->h, &o.xh);
    out->b2 = o.b2;
    return GROTH16_OK;
}

void cuda_note(void *self, const groth16_prove_timing *t, size_t index) {
    const cuda_prover *pr = (const cuda_prover *)self;
    fprintf(stderr,
            "cuzk timing: proof %zu: GPU %d device time (CUDA events): H %.2f ms | MSM L %.2f, A "
            "%.2f, B1 %.2f, B2 (G2) %.2f, H %.2f ms; %.0f MSM pieces\n",
            index, pr->ctx->ordinal, t->dev_h_ms, t->dev_l_ms, t->dev_a_ms, t->dev_b1_ms,
            t->dev_b2_ms, t->dev_hm_ms, t->dev_msm_pieces);
}

const groth16_sums_ops cuda_ops = {"cuda", CUDA_NTT_MAX_LOG_N, cuda_sums, cuda_note, 1};

// p's GPU current on this thread; a failure is the device's (GROTH16_ERR_IO).
groth16_status set_device(cuda_prover *p, groth16_error *err) {
    cudaError_t ce = cudaSetDevice(p->ctx->ordinal);
    if (ce == cudaSuccess)
        return GROTH16_OK;
    cudaGetLastError();
    return groth16_fail(err, GROTH16_ERR_IO, "cuda: cudaSetDevice(%d): %s", p->ctx->ordinal,
                        cudaGetErrorString(ce));
}

struct prover_lock {
    cuda_prover *p;
    explicit prover_lock(cuda_prover *pr) : p(pr) { pthread_mutex_lock(&p->lock); }
    ~prover_lock() { pthread_mutex_unlock(&p->lock); }
};

} // namespace

extern "C" cuda_status cuda_prover_create(cuda_prover **out, int ordinal, cuda_error *err) {
    *out = nullptr;
    cuda_ctx *c = nullptr;
    cuda_status s = cuda_ctx_create(&c, ordinal, err);
    if (s)
        return s;
    cuda_prover *p = new (std::nothrow) cuda_prover();
    if (!p) {
        cuda_ctx_destroy(c);
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory for the GPU %d prover",
                       ordinal);
    }
    pthread_mutex_init(&p->lock, nullptr);
    p->ctx = c;
    *out = p;
    return CUDA_OK;
}

extern "C" void cuda_prover_destroy(cuda_prover *p) {
    if (!p)
        return;
    cudaSetDevice(p->ctx->ordinal);
    cz_srs_evict_others(&p->srs, nullptr);
    cz_pce_forget(&p->pce, nullptr);
    cz_witness_release(p->wit);
    cz_release(p->in);
    cz_release(p->aux);
    cuda_ctx_destroy(p->ctx);
    pthread_mutex_destroy(&p->lock);
    delete p;
}

extern "C" int cuda_prover_ordinal(const cuda_prover *p) { return p->ctx->ordinal; }

extern "C" groth16_status cuda_prover_prove(cuda_prover *p, groth16_proof *proofs,
                                            const r1cs_partition *parts, size_t n,
                                            const groth16_params_data *srs, const fr *r,
                                            const fr *s, unsigned threads,
                                            groth16_prove_timing *timing, groth16_error *err) {
    prover_lock hold(p);
    if (groth16_status st = set_device(p, err))
        return st;
    return groth16_prove_with(&cuda_ops, p, proofs, parts, n, srs, r, s, threads, timing, err);
}

extern "C" groth16_status cuda_prover_preload(cuda_prover *p, const groth16_params_data *srs,
                                              unsigned threads, groth16_error *err) {
    prover_lock hold(p);
    if (groth16_status st = set_device(p, err))
        return st;
    cuda_error e = {CUDA_OK, ""};
    const cz_srs *dev = nullptr;
    if (cz_srs_get(&p->srs, p->ctx, srs, threads ? threads : 1, &dev, &e))
        return fail_cuda(err, e);
    return GROTH16_OK;
}

extern "C" void cuda_prover_forget(cuda_prover *p, const groth16_params_data *srs) {
    prover_lock hold(p);
    cz_srs_forget(&p->srs, srs);
}

extern "C" unsigned cuda_prover_resident_sets(cuda_prover *p) {
    prover_lock hold(p);
    return cz_srs_count(&p->srs);
}

extern "C" void cuda_prover_forget_pce(cuda_prover *p, const struct r1cs_pce *pce) {
    prover_lock hold(p);
    cudaSetDevice(p->ctx->ordinal);
    cz_pce_forget(&p->pce, pce);
}

extern "C" size_t cuda_prover_pce_bytes(cuda_prover *p) {
    prover_lock hold(p);
    return cz_pce_bytes(&p->pce);
}

extern "C" cuda_status cuda_prover_abc(cuda_prover *p, const r1cs_partition *q, fr *a, fr *b, fr *c,
                                       fr *aux, cuda_abc_stats *st, cuda_error *err) {
    prover_lock hold(p);
    if (!r1cs_partition_deferred(q) || !q->aux_pack)
        return cz_fail(err, CUDA_ERR_ARG, "cuda_prover_abc: the partition is not deferred");
    CZ_TRY(cudaSetDevice(p->ctx->ordinal));
    cuda_ctx *cx = p->ctx;
    const cz_pce_dev *dp = nullptr;
    cuda_status s;
    size_t rb = q->num_constraints * sizeof(dfr);
    if ((s = cz_pce_get(&p->pce, cx, q->abc_pce, &dp, err)))
        return s;
    for (int i = 0; i < 3; i++)
        if ((s = cz_reserve(cx->nbuf[i], rb + sizeof(dfr), err)))
            return s;
    if ((s = cz_reserve(p->in, (q->num_inputs + 1) * sizeof(dfr), err)) ||
        (s = cz_reserve(p->aux, (q->num_aux + 1) * sizeof(dfr), err)) ||
        (s = cz_copy_fence(cx, err)))
        return s;
    CZ_TRY(cudaStreamSynchronize(cx->stream));
    double t0 = timing_now_ms();
    cudaEventRecord(cx->ev[5], cx->copy);
    if ((s = cz_upload_async(cx, p->in.p, q->input, q->num_inputs * sizeof(dfr), cx->up[3], err)))
        return s;
    cudaStreamWaitEvent(cx->stream, cx->up[3], 0);
    size_t sent = 0;
    if ((s = cz_witness_upload_expand(cx, p->wit, q->aux_pack, cx->up[4], (dfr *)p->aux.p, &sent,
                                      err)))
        return s;
    cudaEventRecord(cx->ev[6], cx->copy);
    cudaEventRecord(cx->ev[3], cx->stream);
    for (int i = 0; i < 3 && !s; i++)
        s = cz_pce_spmv(cx, dp, i, (const dfr *)p->in.p, (const dfr *)p->aux.p, p->wit,
                        (dfr *)cx->nbuf[i].p, err);
    cudaEventRecord(cx->ev[4], cx->stream);
    if (s || (s = cz_upload_wait(cx, err)))
        return s;
    CZ_TRY(cudaStreamSynchronize(cx->stream));
    if (st) {
        float up = 0, ex = 0, sp = 0;
        cudaEventElapsedTime(&up, cx->ev[5], cx->ev[6]);
        cudaEventElapsedTime(&ex, cx->ev[6], cx->ev[3]);
        cudaEventElapsedTime(&sp, cx->ev[3], cx->ev[4]);
        st->upload_ms = up;
        st->expand_ms = ex;
        st->spmv_ms = sp;
        st->total_ms = timing_now_ms() - t0;
        st->bytes = sent + q->num_inputs * sizeof(dfr);
    }
    fr *outs[3] = {a, b, c};
    for (int i = 0; i < 3 && !s; i++)
        if (outs[i])
            s = cz_download(cx, outs[i], cx->nbuf[i].p, rb, err);
    if (!s && aux)
        s = cz_download(cx, aux, p->aux.p, q->num_aux * sizeof(dfr), err);
    return s;
}
