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

/* B_G2 from the canonical witness: inputs, then aux from b_inputs on. */
static int sum_b2(g2_jac *out, const r1cs_partition *p, const groth16_params_data *srs,
                  size_t b_inputs, const uint8_t *in_b, const uint8_t *aux_b,
                  const msm_config *cfg) {
    g2_jac y;
    if (msm_g2_masked(out, srs->b_g2, in_b, p->b_input_density, p->num_inputs, cfg, NULL, NULL) !=
            MSM_OK ||
        msm_g2_masked(&y, srs->b_g2 + b_inputs, aux_b, p->b_aux_density, p->num_aux, cfg, NULL,
                      NULL) != MSM_OK)
        return -1;
    g2_jac_add_vartime(out, out, &y);
    return 0;
}

groth16_status groth16_sum_b2_cpu(g2_jac *out, const r1cs_partition *p,
                                  const groth16_params_data *srs, const groth16_shape *shape,
                                  unsigned threads, groth16_error *err) {
    uint8_t *in_b = canonical(p->input, p->num_inputs, threads);
    uint8_t *aux_b = canonical(p->aux, p->num_aux, threads);
    msm_config cfg = msm_config_default(threads);
    groth16_status st = GROTH16_OK;
    if (!in_b || !aux_b || sum_b2(out, p, srs, shape->b_inputs, in_b, aux_b, &cfg))
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: the CPU G2 MSM ran out of memory");
    free(in_b);
    free(aux_b);
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
    int bad = 0;
    bad |= msm_g1(&o->l, srs->l, aux_b, n_aux, &cfg, NULL, NULL) != MSM_OK;
    double t3 = timing_now_ms();
    bad |= msm_g1(&o->a, srs->a, in_b, n_in, &cfg, NULL, NULL) != MSM_OK;
    bad |= msm_g1_masked(&x, srs->a + n_in, aux_b, p->a_aux_density, n_aux, &cfg, NULL, NULL) !=
           MSM_OK;
    g1_jac_add_vartime(&o->a, &o->a, &x);
    double t4 = timing_now_ms();
    bad |= msm_g1_masked(&o->b1, srs->b_g1, in_b, p->b_input_density, n_in, &cfg, NULL, NULL) !=
           MSM_OK;
    bad |= msm_g1_masked(&x, srs->b_g1 + b_inputs, aux_b, p->b_aux_density, n_aux, &cfg, NULL,
                         NULL) != MSM_OK;
    g1_jac_add_vartime(&o->b1, &o->b1, &x);
    double t5 = timing_now_ms();
    bad |= sum_b2(&o->b2, p, srs, b_inputs, in_b, aux_b, &cfg) != 0;
    double t6 = timing_now_ms();
    bad |= msm_g1(&o->h, srs->h, h_b, m - 1, &cfg, NULL, NULL) != MSM_OK;
    double t7 = timing_now_ms();
    if (bad) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: an MSM ran out of memory");
        goto done;
    }
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
