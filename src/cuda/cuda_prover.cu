// The GPU prover backend (cuda_backend.h): H step and the five MSMs on the
// GPU with the parameter set resident, then the CPU backend's assembly.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_backend.h"
#include "cuda/cuda_internal.cuh"
#include "cuda/cuda_srs_cache.cuh"

extern "C" {
#include "cuda/cuda_device.h"
#include "groth16/prover.h"
#include "groth16/random.h"
#include "msm/msm.h"
#include "util/parallel.h"
#include "util/switches.h"
#include "util/timing.h"
}

namespace {

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
cuda_ctx *g_ctx = nullptr;
dbuf g_in, g_aux; // the witness, Montgomery, on the device

groth16_status fail_cuda(groth16_error *err, const cuda_error &e) {
    groth16_status s = e.status == CUDA_ERR_NO_MEMORY ? GROTH16_ERR_NO_MEMORY
                       : e.status == CUDA_ERR_ARG || e.status == CUDA_ERR_SCALAR ? GROTH16_ERR_ARG
                                                                                 : GROTH16_ERR_IO;
    return groth16_fail(err, s, "cuda: %s", e.msg);
}

int g_ordinal = -1; // -1: CUZK_GPU, else 0

int ordinal_wanted() {
    if (g_ordinal >= 0)
        return g_ordinal;
    const char *env = getenv("CUZK_GPU");
    return env && *env ? atoi(env) : 0;
}

cuda_status ensure_ctx(cuda_error *e) {
    if (g_ctx)
        return CUDA_OK;
    return cuda_ctx_create(&g_ctx, ordinal_wanted(), e);
}

// The CPU prover's shape check (prover.c), repeated: the GPU must refuse the
// same inputs with the same messages.
groth16_status check_shape(const r1cs_partition *p, const groth16_params_data *srs, size_t m,
                           size_t *b_inputs, groth16_error *err) {
    size_t n_in = p->num_inputs, n_aux = p->num_aux;
    size_t a_aux = r1cs_bitmap_popcount(p->a_aux_density, n_aux);
    size_t b_in = r1cs_bitmap_popcount(p->b_input_density, n_in);
    size_t b_aux = r1cs_bitmap_popcount(p->b_aux_density, n_aux);
    const char *what = NULL;
    size_t want = 0, have = 0;
    if (srs->vk->n_ic != n_in)
        what = "vk ic (inputs)", want = n_in, have = srs->vk->n_ic;
    else if (srs->n_l != n_aux)
        what = "l (aux variables)", want = n_aux, have = srs->n_l;
    else if (srs->n_a != n_in + a_aux)
        what = "a (inputs + aux in A)", want = n_in + a_aux, have = srs->n_a;
    else if (srs->n_b != b_in + b_aux)
        what = "b (inputs + aux in B)", want = b_in + b_aux, have = srs->n_b;
    else if (srs->n_h != m - 1)
        what = "h (domain size - 1)", want = m - 1, have = srs->n_h;
    if (what)
        return groth16_fail(err, GROTH16_ERR_ARG,
                            "prove: parameters do not match the circuit: %s has %zu points, the "
                            "circuit needs %zu",
                            what, have, want);
    *b_inputs = b_in;
    return GROTH16_OK;
}

struct gpu_times {
    float h, l, a, b1, b2, hm;
    int b2_mode;
};

// Canonical little-endian bytes of n Montgomery elements (for the CPU G2 MSM).
struct canon_job {
    uint8_t *out;
    const fr *in;
    size_t n;
};
#define CANON_CHUNK 65536
void canon_task(void *ctx, size_t task, unsigned worker) {
    canon_job *j = (canon_job *)ctx;
    (void)worker;
    size_t end = (task + 1) * CANON_CHUNK < j->n ? (task + 1) * CANON_CHUNK : j->n;
    for (size_t i = task * CANON_CHUNK; i < end; i++)
        fr_to_bytes_le(j->out + FR_BYTES * i, &j->in[i]);
}
uint8_t *canonical(const fr *in, size_t n, unsigned threads) {
    uint8_t *out = (uint8_t *)malloc(FR_BYTES * (n ? n : 1));
    if (out) {
        canon_job j = {out, in, n};
        par_run(threads, (n + CANON_CHUNK - 1) / CANON_CHUNK, canon_task, &j);
    }
    return out;
}

// B_G2 on the CPU (CUZK_GPU_G2=0), as prover.c does it.
groth16_status b2_on_cpu(g2_jac *b2, const r1cs_partition *p, const groth16_params_data *srs,
                         size_t b_inputs, unsigned threads, groth16_error *err) {
    uint8_t *in_b = canonical(p->input, p->num_inputs, threads);
    uint8_t *aux_b = canonical(p->aux, p->num_aux, threads);
    groth16_status st = GROTH16_OK;
    msm_config cfg = msm_config_default(threads);
    g2_jac y;
    if (!in_b || !aux_b ||
        msm_g2_masked(b2, srs->b_g2, in_b, p->b_input_density, p->num_inputs, &cfg, NULL, NULL) !=
            MSM_OK ||
        msm_g2_masked(&y, srs->b_g2 + b_inputs, aux_b, p->b_aux_density, p->num_aux, &cfg, NULL,
                      NULL) != MSM_OK)
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: the CPU G2 MSM ran out of memory");
    else
        g2_jac_add_vartime(b2, b2, &y);
    free(in_b);
    free(aux_b);
    return st;
}

// B_G2: on the GPU by default (CUZK_GPU_G2=1: with the PTX G2 MSM it beat
// the overlapped CPU MSM by A/B, see PERFORMANCE.md); otherwise on the CPU,
// overlapped with the GPU's H step and G1 MSMs in a thread of its own (it
// reads only the host witness and G2 bases) unless CUZK_B2_OVERLAP=0.  Read
// per proof (switches).
enum b2_mode { B2_CPU_SERIAL, B2_CPU_OVERLAP, B2_GPU };
b2_mode b2_mode_get() {
    if (switch_get(SW_GPU_G2))
        return B2_GPU;
    return switch_get(SW_GPU_B2_OVERLAP) ? B2_CPU_OVERLAP : B2_CPU_SERIAL;
}
const char *b2_mode_name(int m) {
    return m == B2_GPU          ? "on the GPU"
           : m == B2_CPU_SERIAL ? "on the CPU, serial"
                                : "on the CPU, overlapped";
}

struct b2_job {
    g2_jac b2;
    const r1cs_partition *p;
    const groth16_params_data *srs;
    size_t b_inputs;
    unsigned threads;
    groth16_status st;
    groth16_error err;
    double ms;
};
void *b2_thread(void *arg) {
    b2_job *j = (b2_job *)arg;
    double t0 = timing_now_ms();
    j->st = b2_on_cpu(&j->b2, j->p, j->srs, j->b_inputs, j->threads, &j->err);
    j->ms = timing_now_ms() - t0;
    return nullptr;
}

// The sums the GPU computes for one proof (B_G2 too unless it runs overlapped).
struct gpu_sums {
    g1x xl, xa, xa2, xb, xb2, xh;
    g2_jac b2;
};

// H step and MSMs of one proof on the GPU (see prove_one).
groth16_status gpu_part(gpu_sums *o, const r1cs_partition *p, const groth16_params_data *srs,
                        const cz_srs *dev, int k, size_t m, size_t n_in, size_t n_aux,
                        size_t b_inputs, b2_mode mode, unsigned threads, groth16_prove_timing *t,
                        gpu_times *gt, groth16_error *err) {
    cuda_error e = {CUDA_OK, ""};
    cuda_status cs = CUDA_OK;
    cuda_ctx *c = g_ctx;
    double t1 = timing_now_ms();
    // Uploads go on the copy stream: a, b, c, then the witness.  With
    // gpu_upload_overlap each input's transforms start as soon as it lands,
    // while the next one is staged; otherwise every upload ends first.
    // gpu_host_register pins the host arrays in place instead of staging them
    // through the pinned pool.  The guard unpins them on every way out.
    struct release_guard {
        cuda_ctx *c;
        ~release_guard() { cz_upload_release(c, nullptr); }
    } guard = {c};
    bool overlap = switch_get(SW_GPU_UPLOAD_OVERLAP) != 0;
    // The pool's fillers: this proof's threads (gpu_stage_threads caps them),
    // none of them while B_G2 runs on the CPU beside this (its threads).
    long cap = switch_get(SW_GPU_STAGE_THREADS);
    unsigned ct = mode == B2_CPU_OVERLAP ? 1 : threads;
    cuda_ctx_set_copy_threads(c, cap > 0 && ct > (unsigned)cap ? (unsigned)cap : ct);
    int in_place = (int)switch_get(SW_GPU_HOST_REGISTER);
    size_t bytes = m * sizeof(dfr), rb = p->num_constraints * sizeof(dfr);
    for (int i = 0; i < 3 && k > 0 && !cs; i++)
        cs = cz_reserve(c->nbuf[i], bytes, &e);
    if (cs || (cs = cz_reserve(g_in, (n_in + 1) * sizeof(dfr), &e)) ||
        (cs = cz_reserve(g_aux, (n_aux + 1) * sizeof(dfr), &e)) || (cs = cz_copy_fence(c, &e)))
        return fail_cuda(err, e);
    const fr *src[5] = {p->a, p->b, p->c, p->input, p->aux};
    void *dst[5] = {k > 0 ? c->nbuf[0].p : nullptr, k > 0 ? c->nbuf[1].p : nullptr,
                    k > 0 ? c->nbuf[2].p : nullptr, g_in.p, g_aux.p};
    size_t len[5] = {k > 0 ? rb : 0, k > 0 ? rb : 0, k > 0 ? rb : 0, n_in * sizeof(dfr),
                     n_aux * sizeof(dfr)};
    int first = k > 0 ? 0 : 3;
    if (!overlap) {
        for (int i = first; i < 5 && !cs; i++)
            cs = cz_upload_async(c, dst[i], src[i], len[i], in_place, c->up[i], &e);
        if (cs || (cs = cz_upload_release(c, &e)))
            return fail_cuda(err, e);
    }
    double t2 = timing_now_ms();
    t->scalars_ms = t2 - t1; // every upload when serial; under "H" when overlapped
    dfr *h = nullptr;
    if (k > 0) {
        h = (dfr *)c->nbuf[0].p;
        for (int i = 0; i < 3 && !cs; i++) {
            if (overlap &&
                (cs = cz_upload_async(c, dst[i], src[i], len[i], in_place, c->up[i], &e)))
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
    for (int i = 3; i < 5 && overlap && !cs; i++)
        if (!(cs = cz_upload_async(c, dst[i], src[i], len[i], in_place, c->up[i], &e)))
            cudaStreamWaitEvent(c->stream, c->up[i], 0);
    if (cs || (cs = cz_upload_release(c, &e)))
        return fail_cuda(err, e);
    if (k > 0) {
        cudaEventSynchronize(c->ev[1]);
        cudaEventElapsedTime(&gt->h, c->ev[0], c->ev[1]);
    }
    double t3 = timing_now_ms();
    t->h_ms = t3 - t2;
    const dfr *din = (const dfr *)g_in.p, *daux = (const dfr *)g_aux.p;
    g1x &xl = o->xl, &xa = o->xa, &xa2 = o->xa2, &xb = o->xb, &xb2 = o->xb2, &xh = o->xh;
    g2x yb, yb2;
    cuda_msm_stats ms;
    unsigned win = (unsigned)switch_get(SW_GPU_MSM_WINDOW); /* CUZK_MSM_WINDOW; 0 = auto */
#define MSM(call, slot)               \
    do {                              \
        if ((cs = (call)))            \
            return fail_cuda(err, e); \
        slot += ms.total_ms;          \
    } while (0)
    MSM(cz_msm_g1_dev(c, &xl, dev->l, 0, daux, 1, NULL, n_aux, win, 1, &ms, &e), gt->l);
    double t4 = timing_now_ms();
    MSM(cz_msm_g1_dev(c, &xa, dev->a, 0, din, 1, NULL, n_in, win, 1, &ms, &e), gt->a);
    MSM(cz_msm_g1_dev(c, &xa2, dev->a, n_in, daux, 1, p->a_aux_density, n_aux, win, 1, &ms, &e),
        gt->a);
    double t5 = timing_now_ms();
    MSM(cz_msm_g1_dev(c, &xb, dev->b1, 0, din, 1, p->b_input_density, n_in, win, 1, &ms, &e),
        gt->b1);
    MSM(cz_msm_g1_dev(c, &xb2, dev->b1, b_inputs, daux, 1, p->b_aux_density, n_aux, win, 1, &ms,
                      &e),
        gt->b1);
    double t6 = timing_now_ms();
    g2_jac &b2 = o->b2;
    if (mode == B2_GPU) {
        MSM(cz_msm_g2_dev(c, &yb, dev->b2, 0, din, 1, p->b_input_density, n_in, win, 1, &ms, &e),
            gt->b2);
        MSM(cz_msm_g2_dev(c, &yb2, dev->b2, b_inputs, daux, 1, p->b_aux_density, n_aux, win, 1, &ms,
                          &e),
            gt->b2);
        g2_jac y;
        cz_g2x_to_jac(&b2, &yb);
        cz_g2x_to_jac(&y, &yb2);
        g2_jac_add_vartime(&b2, &b2, &y);
    } else if (mode == B2_CPU_SERIAL) {
        groth16_status st = b2_on_cpu(&b2, p, srs, b_inputs, threads, err);
        if (st != GROTH16_OK)
            return st;
    }
    double t7 = timing_now_ms();
    x_set_inf(xh);
    if (m > 1)
        MSM(cz_msm_g1_dev(c, &xh, dev->h, 0, h, 1, NULL, m - 1, win, 1, &ms, &e), gt->hm);
    double t8 = timing_now_ms();
#undef MSM
    t->msm_l_ms = t4 - t3;
    t->msm_a_ms = t5 - t4;
    t->msm_b1_ms = t6 - t5;
    t->msm_b2_ms = t7 - t6;
    t->msm_h_ms = t8 - t7;
    return GROTH16_OK;
}

groth16_status prove_one(groth16_proof *proof, const r1cs_partition *p,
                         const groth16_params_data *srs, const fr *r, const fr *s, unsigned threads,
                         groth16_prove_timing *t, gpu_times *gt, groth16_error *err) {
    double t0 = timing_now_ms();
    memset(t, 0, sizeof *t);
    memset(gt, 0, sizeof *gt);
    const groth16_vk *vk = srs->vk;
    if (g1_affine_is_infinity(&vk->delta_g1) || g2_affine_is_infinity(&vk->delta_g2))
        return groth16_fail(err, GROTH16_ERR_INFINITY, "prove: delta is the identity");
    int k = h_poly_log_domain(p->num_constraints);
    if (k < 0 || k > CUDA_NTT_MAX_LOG_N)
        return groth16_fail(err, GROTH16_ERR_ARG, "prove: %zu rows exceed the largest domain",
                            p->num_constraints);
    size_t m = (size_t)1 << k, b_inputs = 0, n_in = p->num_inputs, n_aux = p->num_aux;
    groth16_status st = check_shape(p, srs, m, &b_inputs, err);
    if (st != GROTH16_OK)
        return st;
    cuda_error e = {CUDA_OK, ""};
    b2_mode mode = b2_mode_get();
    const cz_srs *dev_srs = nullptr;
    if (cz_srs_get(g_ctx, srs, mode == B2_GPU, &dev_srs, &e))
        return fail_cuda(err, e);
    b2_job job;
    memset(&job, 0, sizeof job);
    job.p = p;
    job.srs = srs;
    job.b_inputs = b_inputs;
    job.threads = threads;
    pthread_t tid;
    int started = mode == B2_CPU_OVERLAP && pthread_create(&tid, nullptr, b2_thread, &job) == 0;
    if (mode == B2_CPU_OVERLAP && !started)
        mode = B2_CPU_SERIAL; // no thread to be had: in line, slower, the same proof
    gt->b2_mode = (int)mode;
    gpu_sums o;
    st = gpu_part(&o, p, srs, dev_srs, k, m, n_in, n_aux, b_inputs, mode, threads, t, gt, err);
    if (st == GROTH16_ERR_NO_MEMORY && cz_srs_evict_others(srs) > 0) // scratch did not fit
        st = gpu_part(&o, p, srs, dev_srs, k, m, n_in, n_aux, b_inputs, mode, threads, t, gt, err);
    if (started)
        pthread_join(tid, nullptr);
    if (st != GROTH16_OK)
        return st;
    if (started) {
        if (job.st != GROTH16_OK) {
            *err = job.err;
            return job.st;
        }
        o.b2 = job.b2;
        t->msm_b2_ms = job.ms; // CPU time, hidden behind the GPU's
    }
    double t8 = timing_now_ms();
    const g1x &xl = o.xl, &xa = o.xa, &xa2 = o.xa2, &xb = o.xb, &xb2 = o.xb2, &xh = o.xh;
    const g2_jac &b2 = o.b2;

    // assembly, as prover.c
    g1_jac l, a_part, b1, hh, x;
    cz_g1x_to_jac(&l, &xl);
    cz_g1x_to_jac(&a_part, &xa);
    cz_g1x_to_jac(&x, &xa2);
    g1_jac_add_vartime(&a_part, &a_part, &x);
    cz_g1x_to_jac(&b1, &xb);
    cz_g1x_to_jac(&x, &xb2);
    g1_jac_add_vartime(&b1, &b1, &x);
    cz_g1x_to_jac(&hh, &xh);

    g1_jac alpha1, beta1, delta1, pa, pc, tmp;
    g2_jac beta2, delta2, pb, tmp2;
    g1_jac_from_affine(&alpha1, &vk->alpha_g1);
    g1_jac_from_affine(&beta1, &vk->beta_g1);
    g1_jac_from_affine(&delta1, &vk->delta_g1);
    g2_jac_from_affine(&beta2, &vk->beta_g2);
    g2_jac_from_affine(&delta2, &vk->delta_g2);
    fr rs;
    fr_mul(&rs, r, s);
    g1_jac_mul_vartime(&tmp, &delta1, r);
    g1_jac_add_vartime(&pa, &alpha1, &a_part);
    g1_jac_add_vartime(&pa, &pa, &tmp);
    g2_jac_mul_vartime(&tmp2, &delta2, s);
    g2_jac_add_vartime(&pb, &beta2, &b2);
    g2_jac_add_vartime(&pb, &pb, &tmp2);
    g1_jac_add_vartime(&pc, &hh, &l);
    g1_jac_add_vartime(&tmp, &a_part, &alpha1);
    g1_jac_mul_vartime(&tmp, &tmp, s);
    g1_jac_add_vartime(&pc, &pc, &tmp);
    g1_jac_add_vartime(&tmp, &b1, &beta1);
    g1_jac_mul_vartime(&tmp, &tmp, r);
    g1_jac_add_vartime(&pc, &pc, &tmp);
    g1_jac_mul_vartime(&tmp, &delta1, &rs);
    g1_jac_add_vartime(&pc, &pc, &tmp);
    g1_jac_to_affine(&proof->a, &pa);
    g2_jac_to_affine(&proof->b, &pb);
    g1_jac_to_affine(&proof->c, &pc);
    t->assemble_ms = timing_now_ms() - t8;
    t->total_ms = timing_now_ms() - t0;
    return GROTH16_OK;
}

groth16_status cuda_prove(groth16_proof *proofs, const r1cs_partition *parts, size_t n,
                          const groth16_params_data *srs, const fr *r, const fr *s,
                          unsigned threads, groth16_prove_timing *timing, groth16_error *err) {
    const char *env = getenv("CUZK_TIMING");
    int print = env && env[0] == '1';
    pthread_mutex_lock(&g_lock);
    cuda_error e = {CUDA_OK, ""};
    groth16_status st = GROTH16_OK;
    if (ensure_ctx(&e) || cudaSetDevice(g_ctx->ordinal) != cudaSuccess) {
        st = fail_cuda(err, e);
        n = 0;
    }
    for (size_t i = 0; i < n; i++) {
        fr ri, si;
        if (r && s) {
            ri = r[i];
            si = s[i];
        } else if (groth16_random_fr(&ri) || groth16_random_fr(&si)) {
            st = groth16_fail(err, GROTH16_ERR_IO, "prove: getrandom failed");
            break;
        }
        groth16_prove_timing t;
        gpu_times gt;
        st = prove_one(&proofs[i], &parts[i], srs, &ri, &si, threads ? threads : 1, &t, &gt, err);
        if (st != GROTH16_OK)
            break;
        t.dev_h_ms = gt.h;
        t.dev_l_ms = gt.l;
        t.dev_a_ms = gt.a;
        t.dev_b1_ms = gt.b1;
        t.dev_b2_ms = gt.b2;
        t.dev_hm_ms = gt.hm;
        if (timing)
            timing[i] = t;
        if (print) {
            groth16_prove_timing_print(&t, i);
            fprintf(stderr,
                    "cuzk timing: proof %zu: GPU %d device time (CUDA events): H %.2f ms | MSM L "
                    "%.2f, A %.2f, B1 %.2f, B2 (G2) %s, H %.2f ms\n",
                    i, g_ctx->ordinal, gt.h, gt.l, gt.a, gt.b1, b2_mode_name(gt.b2_mode), gt.hm);
        }
    }
    pthread_mutex_unlock(&g_lock);
    return st;
}

void cuda_forget(const groth16_params_data *srs) {
    pthread_mutex_lock(&g_lock);
    cz_srs_forget(srs);
    pthread_mutex_unlock(&g_lock);
}

const groth16_backend g_backend = {"cuda", cuda_prove, cuda_forget};

} // namespace

extern "C" const groth16_backend *cuda_backend_why(char *why, size_t whylen) {
    char msg[256] = "";
    int n = cuda_device_count(msg, sizeof msg);
    if (n <= 0) {
        if (why && whylen)
            snprintf(why, whylen, "%s", n < 0 ? msg : "no CUDA device visible");
        return NULL;
    }
    return &g_backend;
}

extern "C" const groth16_backend *cuda_backend(void) { return cuda_backend_why(NULL, 0); }

extern "C" int cuda_backend_set_device(int ordinal) {
    pthread_mutex_lock(&g_lock);
    int rc = g_ctx && g_ctx->ordinal != ordinal ? -1 : 0;
    if (!rc)
        g_ordinal = ordinal;
    pthread_mutex_unlock(&g_lock);
    return rc;
}

extern "C" int cuda_backend_device(void) {
    pthread_mutex_lock(&g_lock);
    int o = g_ctx ? g_ctx->ordinal : ordinal_wanted();
    pthread_mutex_unlock(&g_lock);
    return o;
}

extern "C" unsigned cuda_backend_resident_sets(void) {
    pthread_mutex_lock(&g_lock);
    unsigned n = cz_srs_count();
    pthread_mutex_unlock(&g_lock);
    return n;
}

extern "C" void cuda_backend_release(void) {
    pthread_mutex_lock(&g_lock);
    cz_srs_evict_others(nullptr);
    cz_release(g_in);
    cz_release(g_aux);
    cuda_ctx_destroy(g_ctx);
    g_ctx = nullptr;
    pthread_mutex_unlock(&g_lock);
}
