/* CPU backend of the Groth16 prover (see prover.h). */
#include "groth16/prover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/random.h"
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

static groth16_status check_shape(const r1cs_partition *p, const groth16_params_data *srs, size_t m,
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

static void g1_add_msm(g1_jac *acc, const g1_jac *x) { g1_jac_add_vartime(acc, acc, x); }

static groth16_status prove_one(groth16_proof *proof, const r1cs_partition *p,
                                const groth16_params_data *srs, const fr *r, const fr *s,
                                unsigned threads, groth16_prove_timing *t, groth16_error *err) {
    double t0 = timing_now_ms();
    memset(t, 0, sizeof *t);
    const groth16_vk *vk = srs->vk;
    if (g1_affine_is_infinity(&vk->delta_g1) || g2_affine_is_infinity(&vk->delta_g2))
        return groth16_fail(err, GROTH16_ERR_INFINITY, "prove: delta is the identity");
    int k = h_poly_log_domain(p->num_constraints);
    if (k < 0)
        return groth16_fail(err, GROTH16_ERR_ARG, "prove: %zu rows exceed the largest domain",
                            p->num_constraints);
    size_t m = (size_t)1 << k, b_inputs = 0, n_in = p->num_inputs, n_aux = p->num_aux;
    groth16_status st = check_shape(p, srs, m, &b_inputs, err);
    if (st != GROTH16_OK)
        return st;

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
    if (k > 0 &&
        (ntt_domain_init(&dom, (unsigned)k, threads) != NTT_OK ||
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
    g1_jac l, a_part, b1, h, x;
    g2_jac b2, y;
    int bad = 0;
    bad |= msm_g1(&l, srs->l, aux_b, n_aux, &cfg, NULL, NULL) != MSM_OK;
    double t3 = timing_now_ms();
    bad |= msm_g1(&a_part, srs->a, in_b, n_in, &cfg, NULL, NULL) != MSM_OK;
    bad |= msm_g1_masked(&x, srs->a + n_in, aux_b, p->a_aux_density, n_aux, &cfg, NULL, NULL) !=
           MSM_OK;
    g1_add_msm(&a_part, &x);
    double t4 = timing_now_ms();
    bad |=
        msm_g1_masked(&b1, srs->b_g1, in_b, p->b_input_density, n_in, &cfg, NULL, NULL) != MSM_OK;
    bad |= msm_g1_masked(&x, srs->b_g1 + b_inputs, aux_b, p->b_aux_density, n_aux, &cfg, NULL,
                         NULL) != MSM_OK;
    g1_add_msm(&b1, &x);
    double t5 = timing_now_ms();
    bad |=
        msm_g2_masked(&b2, srs->b_g2, in_b, p->b_input_density, n_in, &cfg, NULL, NULL) != MSM_OK;
    bad |= msm_g2_masked(&y, srs->b_g2 + b_inputs, aux_b, p->b_aux_density, n_aux, &cfg, NULL,
                         NULL) != MSM_OK;
    g2_jac_add_vartime(&b2, &b2, &y);
    double t6 = timing_now_ms();
    bad |= msm_g1(&h, srs->h, h_b, m - 1, &cfg, NULL, NULL) != MSM_OK;
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

    /* assembly */
    g1_jac alpha1, beta1, delta1, pa, pc, tmp;
    g2_jac beta2, delta2, pb, tmp2;
    g1_jac_from_affine(&alpha1, &vk->alpha_g1);
    g1_jac_from_affine(&beta1, &vk->beta_g1);
    g1_jac_from_affine(&delta1, &vk->delta_g1);
    g2_jac_from_affine(&beta2, &vk->beta_g2);
    g2_jac_from_affine(&delta2, &vk->delta_g2);
    fr rs;
    fr_mul(&rs, r, s);
    /* A = alpha1 + A' + r delta1 */
    g1_jac_mul_vartime(&tmp, &delta1, r);
    g1_jac_add_vartime(&pa, &alpha1, &a_part);
    g1_jac_add_vartime(&pa, &pa, &tmp);
    /* B = beta2 + B2 + s delta2 */
    g2_jac_mul_vartime(&tmp2, &delta2, s);
    g2_jac_add_vartime(&pb, &beta2, &b2);
    g2_jac_add_vartime(&pb, &pb, &tmp2);
    /* C = s A' + r B1 + r s delta1 + s alpha1 + r beta1 + H + L */
    g1_jac_add_vartime(&pc, &h, &l);
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
    t->assemble_ms = timing_now_ms() - t7;
done:
    t->total_ms = timing_now_ms() - t0;
    ntt_domain_destroy(&dom);
    free(ha);
    free(hb);
    free(hc);
    free(in_b);
    free(aux_b);
    free(h_b);
    return st;
}

groth16_status groth16_prove_cpu(groth16_proof *proofs, const r1cs_partition *parts, size_t n,
                                 const groth16_params_data *srs, const fr *r, const fr *s,
                                 unsigned threads, groth16_prove_timing *timing,
                                 groth16_error *err) {
    const char *env = getenv("CUZK_TIMING");
    int print = env && env[0] == '1';
    for (size_t i = 0; i < n; i++) {
        fr ri, si;
        if (r && s) {
            ri = r[i];
            si = s[i];
        } else if (groth16_random_fr(&ri) || groth16_random_fr(&si)) {
            return groth16_fail(err, GROTH16_ERR_IO, "prove: getrandom failed");
        }
        groth16_prove_timing t;
        groth16_status st = prove_one(&proofs[i], &parts[i], srs, &ri, &si, threads, &t, err);
        if (st != GROTH16_OK)
            return st;
        if (timing)
            timing[i] = t;
        if (print)
            groth16_prove_timing_print(&t, i);
    }
    return GROTH16_OK;
}

void groth16_prove_timing_add(groth16_prove_timing *a, const groth16_prove_timing *b) {
    a->h_steps.intt_ms += b->h_steps.intt_ms;
    a->h_steps.coset_ntt_ms += b->h_steps.coset_ntt_ms;
    a->h_steps.pointwise_ms += b->h_steps.pointwise_ms;
    a->h_steps.coset_intt_ms += b->h_steps.coset_intt_ms;
    a->h_ms += b->h_ms;
    a->scalars_ms += b->scalars_ms;
    a->msm_l_ms += b->msm_l_ms;
    a->msm_a_ms += b->msm_a_ms;
    a->msm_b1_ms += b->msm_b1_ms;
    a->msm_b2_ms += b->msm_b2_ms;
    a->msm_h_ms += b->msm_h_ms;
    a->assemble_ms += b->assemble_ms;
    a->total_ms += b->total_ms;
    a->dev_h_ms += b->dev_h_ms;
    a->dev_l_ms += b->dev_l_ms;
    a->dev_a_ms += b->dev_a_ms;
    a->dev_b1_ms += b->dev_b1_ms;
    a->dev_b2_ms += b->dev_b2_ms;
    a->dev_hm_ms += b->dev_hm_ms;
}

void groth16_prove_timing_print(const groth16_prove_timing *t, size_t index) {
    const h_poly_timing *h = &t->h_steps;
    char steps[160] = ""; /* a backend that times the H step as a whole leaves them 0 */
    if (h->intt_ms + h->coset_ntt_ms + h->pointwise_ms + h->coset_intt_ms > 0)
        snprintf(steps, sizeof steps,
                 " (iNTT %.1f, coset NTT %.1f, pointwise %.1f, coset iNTT %.1f)", h->intt_ms,
                 h->coset_ntt_ms, h->pointwise_ms, h->coset_intt_ms);
    fprintf(stderr,
            "cuzk timing: proof %zu: total %.1f ms | H %.1f%s | scalars %.1f | MSM L %.1f, A "
            "%.1f, B1 %.1f, B2 %.1f, H %.1f | assemble %.1f\n",
            index, t->total_ms, t->h_ms, steps, t->scalars_ms, t->msm_l_ms, t->msm_a_ms,
            t->msm_b1_ms, t->msm_b2_ms, t->msm_h_ms, t->assemble_ms);
}
