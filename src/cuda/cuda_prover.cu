// The GPU prover backend (cuda_backend.h): H step and the five MSMs on the
// GPU with the parameter set resident, then the CPU backend's assembly.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_backend.h"
#include "cuda/cuda_internal.cuh"

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

struct resident {
    const groth16_params_data *key = nullptr; // the set the bases came from
    const void *ptrs[5] = {};
    size_t counts[5] = {};
    cuda_bases *h = nullptr, *l = nullptr, *a = nullptr, *b1 = nullptr, *b2 = nullptr;
};

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
cuda_ctx *g_ctx = nullptr;
resident g_srs;
dbuf g_in, g_aux; // the witness, Montgomery, on the device

groth16_status fail_cuda(groth16_error *err, const cuda_error &e) {
    groth16_status s = e.status == CUDA_ERR_NO_MEMORY ? GROTH16_ERR_NO_MEMORY
                       : e.status == CUDA_ERR_ARG || e.status == CUDA_ERR_SCALAR ? GROTH16_ERR_ARG
                                                                                 : GROTH16_ERR_IO;
    return groth16_fail(err, s, "cuda: %s", e.msg);
}

void free_srs() {
    cuda_bases_free(g_srs.h);
    cuda_bases_free(g_srs.l);
    cuda_bases_free(g_srs.a);
    cuda_bases_free(g_srs.b1);
    cuda_bases_free(g_srs.b2);
    g_srs = resident();
}

cuda_status ensure_ctx(cuda_error *e) {
    if (g_ctx)
        return CUDA_OK;
    const char *env = getenv("CUZK_GPU");
    int ordinal = env && *env ? atoi(env) : 0;
    return cuda_ctx_create(&g_ctx, ordinal, e);
}

cuda_status ensure_srs(const groth16_params_data *srs, cuda_error *e) {
    const void *ptrs[5] = {srs->h, srs->l, srs->a, srs->b_g1, srs->b_g2};
    size_t counts[5] = {srs->n_h, srs->n_l, srs->n_a, srs->n_b, srs->n_b};
    if (g_srs.key == srs && !memcmp(ptrs, g_srs.ptrs, sizeof ptrs) &&
        !memcmp(counts, g_srs.counts, sizeof counts))
        return CUDA_OK;
    free_srs();
    cuda_status s;
    if ((s = cuda_bases_upload_g1(g_ctx, &g_srs.h, srs->h, srs->n_h, e)) ||
        (s = cuda_bases_upload_g1(g_ctx, &g_srs.l, srs->l, srs->n_l, e)) ||
        (s = cuda_bases_upload_g1(g_ctx, &g_srs.a, srs->a, srs->n_a, e)) ||
        (s = cuda_bases_upload_g1(g_ctx, &g_srs.b1, srs->b_g1, srs->n_b, e)) ||
        (s = cuda_bases_upload_g2(g_ctx, &g_srs.b2, srs->b_g2, srs->n_b, e))) {
        free_srs();
        return s;
    }
    g_srs.key = srs;
    memcpy(g_srs.ptrs, ptrs, sizeof ptrs);
    memcpy(g_srs.counts, counts, sizeof counts);
    return CUDA_OK;
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
    int b2_on_gpu;
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

// B_G2 on the CPU (default), as prover.c does it.  The GPU G2 MSM is used
// only with CUZK_GPU_G2=1: on the device, one G2 case (edge scalars with a
// density) still differed from the CPU when this was written.
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
    cuda_status cs;
    if ((cs = ensure_srs(srs, &e)))
        return fail_cuda(err, e);
    cuda_ctx *c = g_ctx;
    double t1 = timing_now_ms();
    // H on the GPU
    dfr *h = nullptr;
    if (k > 0) {
        size_t bytes = m * sizeof(dfr), rb = p->num_constraints * sizeof(dfr);
        for (int i = 0; i < 3 && !cs; i++)
            cs = cz_reserve(c->nbuf[i], bytes, &e);
        if (cs || (cs = cz_upload(c, c->nbuf[0].p, p->a, rb, &e)) ||
            (cs = cz_upload(c, c->nbuf[1].p, p->b, rb, &e)) ||
            (cs = cz_upload(c, c->nbuf[2].p, p->c, rb, &e)))
            return fail_cuda(err, e);
        cudaEventRecord(c->ev[0], c->stream);
        h = (dfr *)c->nbuf[0].p;
        if ((cs = cz_h_poly_dev(c, h, (dfr *)c->nbuf[1].p, (dfr *)c->nbuf[2].p, p->num_constraints,
                                (unsigned)k, &e)))
            return fail_cuda(err, e);
        cudaEventRecord(c->ev[1], c->stream);
        cudaEventSynchronize(c->ev[1]);
        cudaEventElapsedTime(&gt->h, c->ev[0], c->ev[1]);
    }
    double t2 = timing_now_ms();
    t->h_ms = t2 - t1;
    // the witness, once
    if ((cs = cz_reserve(g_in, (n_in + 1) * sizeof(dfr), &e)) ||
        (cs = cz_reserve(g_aux, (n_aux + 1) * sizeof(dfr), &e)) ||
        (cs = cz_upload(c, g_in.p, p->input, n_in * sizeof(dfr), &e)) ||
        (cs = cz_upload(c, g_aux.p, p->aux, n_aux * sizeof(dfr), &e)))
        return fail_cuda(err, e);
    const dfr *din = (const dfr *)g_in.p, *daux = (const dfr *)g_aux.p;
    double t3 = timing_now_ms();
    t->scalars_ms = t3 - t2;
    g1x xl, xa, xa2, xb, xb2, xh;
    g2x yb, yb2;
    cuda_msm_stats ms;
    unsigned win = (unsigned)switch_get(SW_GPU_MSM_WINDOW); /* CUZK_MSM_WINDOW; 0 = auto */
#define MSM(call, slot)               \
    do {                              \
        if ((cs = (call)))            \
            return fail_cuda(err, e); \
        slot += ms.total_ms;          \
    } while (0)
    MSM(cz_msm_g1_dev(c, &xl, g_srs.l, 0, daux, 1, NULL, n_aux, win, 1, &ms, &e), gt->l);
    double t4 = timing_now_ms();
    MSM(cz_msm_g1_dev(c, &xa, g_srs.a, 0, din, 1, NULL, n_in, win, 1, &ms, &e), gt->a);
    MSM(cz_msm_g1_dev(c, &xa2, g_srs.a, n_in, daux, 1, p->a_aux_density, n_aux, win, 1, &ms, &e),
        gt->a);
    double t5 = timing_now_ms();
    MSM(cz_msm_g1_dev(c, &xb, g_srs.b1, 0, din, 1, p->b_input_density, n_in, win, 1, &ms, &e),
        gt->b1);
    MSM(cz_msm_g1_dev(c, &xb2, g_srs.b1, b_inputs, daux, 1, p->b_aux_density, n_aux, win, 1, &ms,
                      &e),
        gt->b1);
    double t6 = timing_now_ms();
    gt->b2_on_gpu = switch_get(SW_GPU_G2) != 0; /* CUZK_GPU_G2 */
    g2_jac b2;
    if (gt->b2_on_gpu) {
        MSM(cz_msm_g2_dev(c, &yb, g_srs.b2, 0, din, 1, p->b_input_density, n_in, win, 1, &ms, &e),
            gt->b2);
        MSM(cz_msm_g2_dev(c, &yb2, g_srs.b2, b_inputs, daux, 1, p->b_aux_density, n_aux, win, 1,
                          &ms, &e),
            gt->b2);
        g2_jac y;
        cz_g2x_to_jac(&b2, &yb);
        cz_g2x_to_jac(&y, &yb2);
        g2_jac_add_vartime(&b2, &b2, &y);
    } else if ((st = b2_on_cpu(&b2, p, srs, b_inputs, threads, err)) != GROTH16_OK) {
        return st;
    }
    double t7 = timing_now_ms();
    x_set_inf(xh);
    if (m > 1)
        MSM(cz_msm_g1_dev(c, &xh, g_srs.h, 0, h, 1, NULL, m - 1, win, 1, &ms, &e), gt->hm);
    double t8 = timing_now_ms();
#undef MSM
    t->msm_l_ms = t4 - t3;
    t->msm_a_ms = t5 - t4;
    t->msm_b1_ms = t6 - t5;
    t->msm_b2_ms = t7 - t6;
    t->msm_h_ms = t8 - t7;

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
        if (timing)
            timing[i] = t;
        if (print) {
            groth16_prove_timing_print(&t, i);
            fprintf(stderr,
                    "cuzk timing: proof %zu: GPU %d device time (CUDA events): H %.2f ms | MSM L "
                    "%.2f, A %.2f, B1 %.2f, B2 (G2) %s, H %.2f ms\n",
                    i, g_ctx->ordinal, gt.h, gt.l, gt.a, gt.b1,
                    gt.b2_on_gpu ? "on the GPU" : "on the CPU", gt.hm);
        }
    }
    pthread_mutex_unlock(&g_lock);
    return st;
}

const groth16_backend g_backend = {"cuda", cuda_prove};

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

extern "C" void cuda_backend_release(void) {
    pthread_mutex_lock(&g_lock);
    free_srs();
    cz_release(g_in);
    cz_release(g_aux);
    cuda_ctx_destroy(g_ctx);
    g_ctx = nullptr;
    pthread_mutex_unlock(&g_lock);
}
