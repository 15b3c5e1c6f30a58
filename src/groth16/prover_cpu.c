/* The CPU backend's sums (backend.h): H by the CPU NTT (h_poly.h), then the
 * five MSMs (msm.h) over canonical scalar bytes. */
#include <stdlib.h>
#include <string.h>

#include "groth16/backend.h"
#include "util/parallel.h"
#include "util/timing.h"

/* Canonical little-endian bytes of n Montgomery elements, for the MSMs. */
typedef struct {
    uint8_t *out;
    const fr *in;
    size_t n;
} canon_job;

#define CANON_CHUNK 65536

static void canon_task(void *ctx, size_t task, unsigned worker) {
    canon_job *j = ctx;
    (void)worker;
    size_t end = (task + 1) * CANON_CHUNK < j->n ? (task + 1) * CANON_CHUNK : j->n;
    for (size_t i = task * CANON_CHUNK; i < end; i++)
        fr_to_bytes_le(j->out + FR_BYTES * i, &j->in[i]);
}

static uint8_t *canonical(const fr *in, size_t n, unsigned threads) {
    uint8_t *out = malloc(FR_BYTES * (n ? n : 1));
    if (out) {
        canon_job j = {out, in, n};
        par_run(threads, (n + CANON_CHUNK - 1) / CANON_CHUNK, canon_task, &j);
    }
    return out;
}

/* Set bits of density among scalars [i, i + k) (i a multiple of 64). */
static size_t bits_in(const uint64_t *density, size_t i, size_t k) {
    size_t n = 0, w = i / 64, end = i + k;
    for (size_t at = i; at < end; at += 64, w++) {
        uint64_t word = density[w];
        if (end - at < 64)
            word &= ((uint64_t)1 << (end - at)) - 1;
        n += (size_t)__builtin_popcountll(word);
    }
    return n;
}

/* Scalars per MSM call over srs: all of them when its points are in memory,
 * else a chunk (params.h), whose points are decoded for that call only. */
static size_t msm_chunk(const groth16_params_data *srs, size_t n) {
    size_t c = groth16_params_data_on_host(srs) ? n : groth16_params_data_chunk(srs);
    return c && c < n ? c : n ? n : 1;
}

static groth16_status msm_failed(groth16_error *err, groth16_section sec, msm_status ms) {
    return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: the %s MSM failed: %s",
                        groth16_section_name(sec), msm_status_str(ms));
}

/* out = the sum over scalars [0, n) with section sec's points from base0 on
 * (density: the masked form; NULL: dense). */
static groth16_status sum_g1(g1_jac *out, const groth16_params_data *srs, groth16_section sec,
                             size_t base0, const uint8_t *scalars, const uint64_t *density,
                             size_t n, const msm_config *cfg, groth16_error *err) {
    size_t chunk = msm_chunk(srs, n), base = base0;
    int host = groth16_params_data_on_host(srs);
    g1_affine *buf = host ? NULL : malloc(chunk * sizeof *buf);
    if (!host && !buf)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: out of memory for points");
    groth16_status st = GROTH16_OK;
    g1_jac_set_infinity(out);
    for (size_t i = 0; st == GROTH16_OK && i < n; i += chunk) {
        size_t k = n - i < chunk ? n - i : chunk, nb = density ? bits_in(density, i, k) : k;
        const g1_affine *pts = groth16_params_data_g1(srs, sec, base, nb, buf, cfg->threads, err);
        const uint8_t *sc = scalars + MSM_SCALAR_BYTES * i;
        g1_jac y;
        msm_status ms = MSM_OK;
        if (!pts)
            st = err->status;
        else if (density)
            ms = msm_g1_masked(&y, pts, sc, density + i / 64, k, cfg, NULL, NULL);
        else
            ms = msm_g1(&y, pts, sc, k, cfg, NULL, NULL);
        if (pts && ms != MSM_OK)
            st = msm_failed(err, sec, ms);
        else if (pts)
            g1_jac_add_vartime(out, out, &y);
        base += nb;
    }
    free(buf);
    return st;
}

/* sum_g1's form for b_g2 (always masked). */
static groth16_status sum_g2(g2_jac *out, const groth16_params_data *srs, size_t base0,
                             const uint8_t *scalars, const uint64_t *density, size_t n,
                             const msm_config *cfg, groth16_error *err) {
    size_t chunk = msm_chunk(srs, n), base = base0;
    int host = groth16_params_data_on_host(srs);
    g2_affine *buf = host ? NULL : malloc(chunk * sizeof *buf);
    if (!host && !buf)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: out of memory for points");
    groth16_status st = GROTH16_OK;
    g2_jac_set_infinity(out);
    for (size_t i = 0; st == GROTH16_OK && i < n; i += chunk) {
        size_t k = n - i < chunk ? n - i : chunk, nb = bits_in(density, i, k);
        const g2_affine *pts = groth16_params_data_g2(srs, base, nb, buf, cfg->threads, err);
        g2_jac y;
        msm_status ms = MSM_OK;
        if (!pts)
            st = err->status;
        else if ((ms = msm_g2_masked(&y, pts, scalars + MSM_SCALAR_BYTES * i, density + i / 64, k,
                                     cfg, NULL, NULL)) != MSM_OK)
            st = msm_failed(err, GROTH16_SEC_B_G2, ms);
        else
            g2_jac_add_vartime(out, out, &y);
        base += nb;
    }
    free(buf);
    return st;
}

/* B_G2 from the canonical witness: inputs, then aux from b_inputs on. */
static groth16_status sum_b2(g2_jac *out, const r1cs_partition *p, const groth16_params_data *srs,
                             size_t b_inputs, const uint8_t *in_b, const uint8_t *aux_b,
                             const msm_config *cfg, groth16_error *err) {
    g2_jac y;
    groth16_status st = sum_g2(out, srs, 0, in_b, p->b_input_density, p->num_inputs, cfg, err);
    if (st == GROTH16_OK && (st = sum_g2(&y, srs, b_inputs, aux_b, p->b_aux_density, p->num_aux,
                                         cfg, err)) == GROTH16_OK)
        g2_jac_add_vartime(out, out, &y);
    return st;
}

static groth16_status cpu_sums(void *self, groth16_sums *o, const r1cs_partition *p,
                               const groth16_params_data *srs, const groth16_shape *sh,
                               unsigned threads, groth16_prove_timing *t, groth16_error *err) {
    (void)self;
    double t0 = timing_now_ms();
    size_t m = sh->m, n_in = sh->n_in, n_aux = sh->n_aux, b_inputs = sh->b_inputs;
    groth16_status st = GROTH16_OK;
    fr *ha = malloc(m * sizeof *ha), *hb = malloc(m * sizeof *hb), *hc = malloc(m * sizeof *hc);
    uint8_t *in_b = NULL, *aux_b = NULL, *h_b = NULL;
    ntt_domain dom = {0};
    if (!ha || !hb || !hc) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: out of memory for H (m = %zu)", m);
        goto done;
    }
    memcpy(ha, p->a, p->num_constraints * sizeof *ha);
    memcpy(hb, p->b, p->num_constraints * sizeof *hb);
    memcpy(hc, p->c, p->num_constraints * sizeof *hc);
    if (sh->log_m > 0 &&
        (ntt_domain_init(&dom, sh->log_m, threads) != NTT_OK ||
         h_poly_compute(ha, hb, hc, p->num_constraints, &dom, threads, &t->h_steps) != NTT_OK)) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: NTT of size %zu failed", m);
        goto done;
    }
    double t1 = timing_now_ms();
    t->h_ms = t1 - t0;
    in_b = canonical(p->input, n_in, threads);
    aux_b = canonical(p->aux, n_aux, threads);
    h_b = canonical(ha, m - 1, threads);
    if (!in_b || !aux_b || !h_b) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: out of memory for scalars");
        goto done;
    }
    double t2 = timing_now_ms();
    t->scalars_ms = t2 - t1;

    msm_config cfg = msm_config_default(threads);
    g1_jac x;
    const uint64_t *ad = p->a_aux_density, *bi = p->b_input_density, *ba = p->b_aux_density;
    if ((st = sum_g1(&o->l, srs, GROTH16_SEC_L, 0, aux_b, NULL, n_aux, &cfg, err)))
        goto done;
    double t3 = timing_now_ms();
    if ((st = sum_g1(&o->a, srs, GROTH16_SEC_A, 0, in_b, NULL, n_in, &cfg, err)) ||
        (st = sum_g1(&x, srs, GROTH16_SEC_A, n_in, aux_b, ad, n_aux, &cfg, err)))
        goto done;
    g1_jac_add_vartime(&o->a, &o->a, &x);
    double t4 = timing_now_ms();
    if ((st = sum_g1(&o->b1, srs, GROTH16_SEC_B_G1, 0, in_b, bi, n_in, &cfg, err)) ||
        (st = sum_g1(&x, srs, GROTH16_SEC_B_G1, b_inputs, aux_b, ba, n_aux, &cfg, err)))
        goto done;
    g1_jac_add_vartime(&o->b1, &o->b1, &x);
    double t5 = timing_now_ms();
    if ((st = sum_b2(&o->b2, p, srs, b_inputs, in_b, aux_b, &cfg, err)))
        goto done;
    double t6 = timing_now_ms();
    if ((st = sum_g1(&o->h, srs, GROTH16_SEC_H, 0, h_b, NULL, m - 1, &cfg, err)))
        goto done;
    double t7 = timing_now_ms();
    t->msm_l_ms = t3 - t2;
    t->msm_a_ms = t4 - t3;
    t->msm_b1_ms = t5 - t4;
    t->msm_b2_ms = t6 - t5;
    t->msm_h_ms = t7 - t6;
done:
    ntt_domain_destroy(&dom);
    free(ha);
    free(hb);
    free(hc);
    free(in_b);
    free(aux_b);
    free(h_b);
    return st;
}

const groth16_sums_ops groth16_sums_cpu = {"cpu", NTT_MAX_LOG_N, cpu_sums, NULL, 0};
