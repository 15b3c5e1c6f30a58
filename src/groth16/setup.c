/* Test-only Groth16 parameter generation (see setup.h).  Every point is a
 * fixed-base multiplication of one of the two generators, through window
 * tables (curve/fixed_base.h). */
#include "groth16/setup.h"

#include <stdlib.h>
#include <string.h>

#include "curve/fixed_base.h"
#include "groth16/h_poly.h"
#include "groth16/random.h"

groth16_status groth16_toxic_random(groth16_toxic *t, groth16_error *err) {
    fr *f[5] = {&t->tau, &t->alpha, &t->beta, &t->gamma, &t->delta};
    for (int i = 0; i < 5; i++)
        do {
            if (groth16_random_fr(f[i]) != 0)
                return groth16_fail(err, GROTH16_ERR_IO, "setup: getrandom failed");
        } while (fr_is_zero(f[i]));
    return GROTH16_OK;
}

void groth16_setup_free(groth16_setup_result *s) {
    groth16_vk_free(&s->vk);
    free(s->h);
    free(s->l);
    free(s->a);
    free(s->b_g1);
    free(s->b_g2);
    memset(s, 0, sizeof *s);
}

groth16_params_data groth16_setup_data(const groth16_setup_result *s) {
    groth16_params_data d = {&s->vk, s->h,    s->n_h,  s->l,   s->n_l, s->a,
                             s->n_a, s->b_g1, s->b_g2, s->n_b, NULL,   0};
    return d;
}

/* out[col] += val * lag[row] over every term of m. */
static void eval_columns(fr *out, const r1cs_csr *m, const fr *lag) {
    for (size_t j = 0; j < m->rows; j++)
        for (uint32_t k = m->row_ptr[j]; k < m->row_ptr[j + 1]; k++) {
            fr t;
            fr_mul(&t, &m->val[k], &lag[j]);
            fr_add(&out[m->col[k]], &out[m->col[k]], &t);
        }
}

/* Keeps the non-zero scalars (in order) and returns how many. */
static size_t compact_nonzero(fr *dst, const fr *src, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!fr_is_zero(&src[i]))
            dst[k++] = src[i];
    return k;
}

groth16_status groth16_setup(groth16_setup_result *out, const r1cs_matrices *mx,
                             const groth16_toxic *t, unsigned threads, groth16_error *err) {
    memset(out, 0, sizeof *out);
    size_t rows = mx->num_constraints, n_in = mx->num_inputs, n_aux = mx->num_aux;
    size_t vars = n_in + n_aux;
    int k = h_poly_log_domain(rows);
    if (k < 0 || rows == 0)
        return groth16_fail(err, GROTH16_ERR_ARG, "setup: %zu rows exceed the largest domain 2^%d",
                            rows, NTT_MAX_LOG_N);
    size_t m = (size_t)1 << k;
    groth16_status st = GROTH16_OK;
    fr *lag = calloc(m, sizeof *lag), *at = calloc(vars, sizeof *at);
    fr *bt = calloc(vars, sizeof *bt), *ct = calloc(vars, sizeof *ct);
    fr *sc = malloc((vars > m ? vars : m) * sizeof *sc);
    g1_fixed_table t1 = {0};
    g2_fixed_table t2 = {0};
    ntt_domain dom = {0};
    if (!lag || !at || !bt || !ct || !sc) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: out of memory for %zu rows", rows);
        goto done;
    }
    /* powers of tau, then Lagrange coefficients at tau */
    fr_set_one(&lag[0]);
    for (size_t i = 1; i < m; i++)
        fr_mul(&lag[i], &lag[i - 1], &t->tau);
    fr z_tau, delta_inv, gamma_inv, one;
    fr_set_one(&one);
    fr_mul(&z_tau, &lag[m - 1], &t->tau);
    fr_sub(&z_tau, &z_tau, &one); /* tau^m - 1 */
    fr_inv(&delta_inv, &t->delta);
    fr_inv(&gamma_inv, &t->gamma);
    g1_affine g1;
    g2_affine g2;
    g1_affine_generator(&g1);
    g2_affine_generator(&g2);
    /* h, ic, l, a, b and the vk; a and b counted at most (vars each) */
    if (g1_fixed_table_init(&t1, &g1, fixed_base_window(m + 3 * vars + 3), threads)) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: out of memory for tables");
        goto done;
    }
    /* H: tau^i Z(tau) / delta, i < m - 1 (uses the powers before the iNTT) */
    out->n_h = m - 1;
    out->h = malloc((m ? m : 1) * sizeof *out->h);
    if (!out->h) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: out of memory for h");
        goto done;
    }
    fr zd;
    fr_mul(&zd, &z_tau, &delta_inv);
    for (size_t i = 0; i + 1 < m; i++)
        fr_mul(&sc[i], &lag[i], &zd);
    if (g1_fixed_mul_many(out->h, &t1, sc, out->n_h, threads)) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: out of memory in h");
        goto done;
    }
    if (k > 0) {
        if (ntt_domain_init(&dom, (unsigned)k, threads) != NTT_OK ||
            ntt_inverse(lag, &dom, NTT_NN, threads) != NTT_OK) {
            st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: NTT of size 2^%d failed", k);
            goto done;
        }
    }
    eval_columns(at, &mx->a, lag);
    eval_columns(bt, &mx->b, lag);
    eval_columns(ct, &mx->c, lag);

    /* ic (inputs, / gamma) and l (aux, / delta): beta A + alpha B + C */
    for (size_t v = 0; v < vars; v++) {
        fr e, x;
        fr_mul(&e, &at[v], &t->beta);
        fr_mul(&x, &bt[v], &t->alpha);
        fr_add(&e, &e, &x);
        fr_add(&e, &e, &ct[v]);
        fr_mul(&sc[v], &e, v < n_in ? &gamma_inv : &delta_inv);
        if (v >= n_in && fr_is_zero(&sc[v])) {
            st = groth16_fail(err, GROTH16_ERR_ARG,
                              "setup: aux variable %zu is unconstrained (its l point would be "
                              "the identity)",
                              v - n_in);
            goto done;
        }
    }
    out->vk.n_ic = n_in;
    out->vk.ic = malloc(n_in * sizeof *out->vk.ic);
    out->n_l = n_aux;
    out->l = malloc((n_aux ? n_aux : 1) * sizeof *out->l);
    out->a = malloc(vars * sizeof *out->a);
    out->b_g1 = malloc(vars * sizeof *out->b_g1);
    out->b_g2 = malloc(vars * sizeof *out->b_g2);
    if (!out->vk.ic || !out->l || !out->a || !out->b_g1 || !out->b_g2 ||
        g1_fixed_mul_many(out->vk.ic, &t1, sc, n_in, threads) ||
        g1_fixed_mul_many(out->l, &t1, sc + n_in, n_aux, threads)) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: out of memory for ic/l");
        goto done;
    }
    /* A and B queries over all variables, identities (zero scalars) dropped */
    out->n_a = compact_nonzero(sc, at, vars);
    if (g1_fixed_mul_many(out->a, &t1, sc, out->n_a, threads)) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: out of memory in a");
        goto done;
    }
    out->n_b = compact_nonzero(sc, bt, vars);
    if (g2_fixed_table_init(&t2, &g2, fixed_base_window(out->n_b + 3), threads)) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: out of memory for tables");
        goto done;
    }
    if (g1_fixed_mul_many(out->b_g1, &t1, sc, out->n_b, threads) ||
        g2_fixed_mul_many(out->b_g2, &t2, sc, out->n_b, threads)) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: out of memory in b");
        goto done;
    }
    /* the verifying key's six points */
    fr ks[3] = {t->alpha, t->beta, t->delta};
    g1_affine p1[3];
    g2_affine p2[3];
    fr ks2[3] = {t->beta, t->gamma, t->delta};
    if (g1_fixed_mul_many(p1, &t1, ks, 3, 1) || g2_fixed_mul_many(p2, &t2, ks2, 3, 1)) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: out of memory for the vk");
        goto done;
    }
    out->vk.alpha_g1 = p1[0];
    out->vk.beta_g1 = p1[1];
    out->vk.delta_g1 = p1[2];
    out->vk.beta_g2 = p2[0];
    out->vk.gamma_g2 = p2[1];
    out->vk.delta_g2 = p2[2];
done:
    if (st != GROTH16_OK)
        groth16_setup_free(out);
    ntt_domain_destroy(&dom);
    g1_fixed_table_free(&t1);
    g2_fixed_table_free(&t2);
    free(lag);
    free(at);
    free(bt);
    free(ct);
    free(sc);
    return st;
}
