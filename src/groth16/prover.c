/* The backend-neutral prover (backend.h): r and s, the shape check and the
 * assembly, once for every backend; the backend's sums in between. */
#include "groth16/prover.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/backend.h"
#include "groth16/random.h"
#include "r1cs/pce.h"
#include "util/switches.h"
#include "util/timing.h"

groth16_status groth16_shape_check(groth16_shape *shape, const r1cs_partition *p,
                                   const groth16_params_data *srs, unsigned max_log_m,
                                   groth16_error *err) {
    const groth16_vk *vk = srs->vk;
    if (g1_affine_is_infinity(&vk->delta_g1) || g2_affine_is_infinity(&vk->delta_g2))
        return groth16_fail(err, GROTH16_ERR_INFINITY, "prove: delta is the identity");
    int k = h_poly_log_domain(p->num_constraints);
    if (k < 0 || (unsigned)k > max_log_m)
        return groth16_fail(err, GROTH16_ERR_ARG, "prove: %zu rows exceed the largest domain",
                            p->num_constraints);
    size_t m = (size_t)1 << k, n_in = p->num_inputs, n_aux = p->num_aux;
    size_t a_aux = r1cs_bitmap_popcount(p->a_aux_density, n_aux);
    size_t b_in = r1cs_bitmap_popcount(p->b_input_density, n_in);
    size_t b_aux = r1cs_bitmap_popcount(p->b_aux_density, n_aux);
    const char *what = NULL;
    size_t want = 0, have = 0;
    if (vk->n_ic != n_in)
        what = "vk ic (inputs)", want = n_in, have = vk->n_ic;
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
    shape->log_m = (unsigned)k;
    shape->m = m;
    shape->n_in = n_in;
    shape->n_aux = n_aux;
    shape->b_inputs = b_in;
    return GROTH16_OK;
}

void groth16_assemble(groth16_proof *proof, const groth16_sums *sums, const groth16_vk *vk,
                      const fr *r, const fr *s) {
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
    g1_jac_add_vartime(&pa, &alpha1, &sums->a);
    g1_jac_add_vartime(&pa, &pa, &tmp);
    /* B = beta2 + B2 + s delta2 */
    g2_jac_mul_vartime(&tmp2, &delta2, s);
    g2_jac_add_vartime(&pb, &beta2, &sums->b2);
    g2_jac_add_vartime(&pb, &pb, &tmp2);
    /* C = s A' + r B1 + r s delta1 + s alpha1 + r beta1 + H + L */
    g1_jac_add_vartime(&pc, &sums->h, &sums->l);
    g1_jac_add_vartime(&tmp, &sums->a, &alpha1);
    g1_jac_mul_vartime(&tmp, &tmp, s);
    g1_jac_add_vartime(&pc, &pc, &tmp);
    g1_jac_add_vartime(&tmp, &sums->b1, &beta1);
    g1_jac_mul_vartime(&tmp, &tmp, r);
    g1_jac_add_vartime(&pc, &pc, &tmp);
    g1_jac_mul_vartime(&tmp, &delta1, &rs);
    g1_jac_add_vartime(&pc, &pc, &tmp);
    g1_jac_to_affine(&proof->a, &pa);
    g2_jac_to_affine(&proof->b, &pb);
    g1_jac_to_affine(&proof->c, &pc);
}

static groth16_status prove_one(const groth16_sums_ops *ops, void *self, groth16_proof *proof,
                                const r1cs_partition *p, const groth16_params_data *srs,
                                const fr *r, const fr *s, unsigned threads, groth16_prove_timing *t,
                                groth16_error *err) {
    double t0 = timing_now_ms();
    memset(t, 0, sizeof *t);
    groth16_shape shape;
    groth16_sums sums;
    groth16_status st = groth16_shape_check(&shape, p, srs, ops->max_log_m, err);
    r1cs_partition full;
    const r1cs_partition *q = p;
    if (st == GROTH16_OK && r1cs_partition_deferred(p) && !ops->deferred) {
        /* this backend reads the arrays: a, b, c and aux made here, freed below */
        char why[200];
        double t1 = timing_now_ms();
        if (pce_partition_expand(&full, p, threads ? threads : 1, why, sizeof why) != 0)
            return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: %s", why);
        t->abc_ms = timing_now_ms() - t1;
        q = &full;
    }
    if (st == GROTH16_OK)
        st = ops->sums(self, &sums, q, srs, &shape, threads, t, err);
    if (q != p)
        pce_partition_expand_free(&full, p);
    if (st == GROTH16_OK) {
        double t1 = timing_now_ms();
        groth16_assemble(proof, &sums, srs->vk, r, s);
        t->assemble_ms = timing_now_ms() - t1;
    }
    t->total_ms = timing_now_ms() - t0;
    return st;
}

groth16_status groth16_prove_with(const groth16_sums_ops *ops, void *self, groth16_proof *proofs,
                                  const r1cs_partition *parts, size_t n,
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
        groth16_status st =
            prove_one(ops, self, &proofs[i], &parts[i], srs, &ri, &si, threads, &t, err);
        if (st != GROTH16_OK)
            return st;
        if (timing)
            timing[i] = t;
        if (print) {
            groth16_prove_timing_print(&t, i);
            if (ops->note)
                ops->note(self, &t, i);
        }
    }
    return GROTH16_OK;
}

groth16_status groth16_prove_cpu(groth16_proof *proofs, const r1cs_partition *parts, size_t n,
                                 const groth16_params_data *srs, const fr *r, const fr *s,
                                 unsigned threads, groth16_prove_timing *timing,
                                 groth16_error *err) {
    return groth16_prove_with(&groth16_sums_cpu, NULL, proofs, parts, n, srs, r, s, threads, timing,
                              err);
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
    a->dev_msm_pieces += b->dev_msm_pieces;
    a->abc_ms += b->abc_ms;
    a->dev_abc_ms += b->dev_abc_ms;
    a->witness_bytes += b->witness_bytes;
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
    if (t->abc_ms > 0 || t->witness_bytes > 0)
        fprintf(stderr,
                "cuzk timing: proof %zu: deferred a/b/c %.1f ms (device %.2f ms), witness sent "
                "%.1f MiB\n",
                index, t->abc_ms, t->dev_abc_ms, t->witness_bytes / 1048576.0);
}

static groth16_status cpu_prove(void *self, groth16_proof *proofs, const r1cs_partition *parts,
                                size_t n, const groth16_params_data *srs, const fr *r, const fr *s,
                                unsigned threads, groth16_prove_timing *timing,
                                groth16_error *err) {
    (void)self;
    return groth16_prove_cpu(proofs, parts, n, srs, r, s, threads, timing, err);
}

const groth16_backend groth16_backend_cpu = {.name = "cpu", .prove = cpu_prove};

int groth16_backend_defers_abc(const groth16_backend *b) {
    return b && b->abc_on_device && switch_get(SW_GPU_ABC);
}
