/* The snarkjs-compatible Groth16 prover (prove_zkey.h). */
#include "groth16/prove_zkey.h"

#include <stdlib.h>
#include <string.h>

#include "msm/msm.h"
#include "ntt/ntt.h"
#include "groth16/random.h"
#include "util/parallel.h"

void zkey_root_of_unity(fr *omega, unsigned log_n) {
    /* t = (r - 1) / 2^32, little-endian limbs */
    static const uint64_t t[4] = {0xfffe5bfeffffffffULL, 0x09a1d80553bda402ULL,
                                  0x299d7d483339d808ULL, 0x0000000073eda753ULL};
    fr five;
    fr_set_u64(&five, 5);
    fr_pow_vartime(omega, &five, t, 4);
    for (unsigned k = 32; k > log_n; k--)
        fr_sqr(omega, omega);
}

typedef struct {
    fr *a, *b, *c;
    size_t n;
} abc_job;

#define ABC_CHUNK 4096

static void mul_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    const abc_job *j = ctx;
    size_t end = (task + 1) * ABC_CHUNK < j->n ? (task + 1) * ABC_CHUNK : j->n;
    for (size_t i = task * ABC_CHUNK; i < end; i++)
        fr_mul(&j->c[i], &j->a[i], &j->b[i]);
}

/* h_i = a_i b_i - c_i, stored over a as canonical 32-byte LE scalars in place of
 * the fr array (same size: 32 bytes each). */
static void h_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    const abc_job *j = ctx;
    size_t end = (task + 1) * ABC_CHUNK < j->n ? (task + 1) * ABC_CHUNK : j->n;
    for (size_t i = task * ABC_CHUNK; i < end; i++) {
        fr h;
        fr_mul(&h, &j->a[i], &j->b[i]);
        fr_sub(&h, &h, &j->c[i]);
        fr_to_bytes_le((uint8_t *)&j->a[i], &h);
    }
}

static groth16_status msm_fail(groth16_error *err, const char *what, msm_status st) {
    return groth16_fail(err, st == MSM_ERR_NO_MEMORY ? GROTH16_ERR_NO_MEMORY : GROTH16_ERR_ARG,
                        "prove: %s MSM: %s", what, msm_status_str(st));
}

groth16_status zkey_prove(groth16_proof *out, const zkey *z, const wtns *w, const fr *r,
                          const fr *s, unsigned threads, groth16_error *err) {
    if (w->n != z->n_vars)
        return groth16_fail(err, GROTH16_ERR_ARG,
                            "prove: the witness has %u values, the zkey expects nVars = %u", w->n,
                            z->n_vars);
    if (threads < 1)
        threads = 1;
    fr rr, ss;
    if (r && s) {
        rr = *r;
        ss = *s;
    } else if (groth16_random_fr(&rr) != 0 || groth16_random_fr(&ss) != 0) {
        return groth16_fail(err, GROTH16_ERR_IO, "prove: getrandom failed");
    }

    size_t n = z->domain_size, nv = z->n_vars;
    groth16_status st = GROTH16_OK;
    fr *wit = malloc(nv * sizeof(fr));
    fr *pa = aligned_alloc(64, n * sizeof(fr)), *pb = aligned_alloc(64, n * sizeof(fr)),
       *pc = aligned_alloc(64, n * sizeof(fr));
    ntt_domain dom;
    memset(&dom, 0, sizeof dom);
    if (!wit || !pa || !pb || !pc) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "prove: out of memory");
        goto done;
    }
    for (size_t i = 0; i < nv; i++)
        fr_from_bytes_le(&wit[i], w->bytes + i * 32); /* checked < r by wtns_parse */

    /* 1. a and b from section 4, c = a * b. */
    memset(pa, 0, n * sizeof(fr));
    memset(pb, 0, n * sizeof(fr));
    for (size_t i = 0; i < z->n_coefs; i++) {
        const zkey_coef *c = &z->coefs[i];
        fr t;
        fr_mul(&t, &c->value, &wit[c->signal]);
        fr *dst = c->matrix == 0 ? &pa[c->constraint] : &pb[c->constraint];
        fr_add(dst, dst, &t);
    }
    abc_job job = {pa, pb, pc, n};
    size_t tasks = (n + ABC_CHUNK - 1) / ABC_CHUNK;
    par_run(threads, tasks, mul_task, &job);

    /* 2. each to the odd coset of the 2n-domain: inc = the 2n-th root. */
    fr omega, inc;
    zkey_root_of_unity(&omega, z->log_n);
    zkey_root_of_unity(&inc, z->log_n + 1);
    ntt_status ns = ntt_domain_init_root(&dom, z->log_n, &omega, threads);
    fr *polys[3] = {pa, pb, pc};
    for (int k = 0; k < 3 && ns == NTT_OK; k++) {
        ns = ntt_inverse(polys[k], &dom, NTT_NN, threads);
        if (ns == NTT_OK)
            ns = ntt_coset_forward(polys[k], &dom, &inc, NTT_NN, threads);
    }
    if (ns != NTT_OK) {
        st = groth16_fail(err, ns == NTT_ERR_NO_MEMORY ? GROTH16_ERR_NO_MEMORY : GROTH16_ERR_ARG,
                          "prove: NTT: %s", ntt_status_str(ns));
        goto done;
    }
    /* 3. h = a*b - c, as scalar bytes (over pa). */
    par_run(threads, tasks, h_task, &job);

    /* 4. the MSMs. */
    msm_config cfg = msm_config_default(threads);
    g1_jac msm_a, msm_b1, msm_c, msm_h;
    g2_jac msm_b2;
    msm_status ms;
    if ((ms = msm_g1(&msm_a, z->a, w->bytes, nv, &cfg, NULL, NULL)) != MSM_OK) {
        st = msm_fail(err, "A", ms);
        goto done;
    }
    if ((ms = msm_g1(&msm_b1, z->b1, w->bytes, nv, &cfg, NULL, NULL)) != MSM_OK) {
        st = msm_fail(err, "B1", ms);
        goto done;
    }
    if ((ms = msm_g2(&msm_b2, z->b2, w->bytes, nv, &cfg, NULL, NULL)) != MSM_OK) {
        st = msm_fail(err, "B2", ms);
        goto done;
    }
    size_t np1 = (size_t)z->n_public + 1;
    if ((ms = msm_g1(&msm_c, z->c, w->bytes + np1 * 32, nv - np1, &cfg, NULL, NULL)) != MSM_OK) {
        st = msm_fail(err, "C", ms);
        goto done;
    }
    if ((ms = msm_g1(&msm_h, z->h, (const uint8_t *)pa, n, &cfg, NULL, NULL)) != MSM_OK) {
        st = msm_fail(err, "H", ms);
        goto done;
    }

    /* 5. blinding. */
    g1_jac delta1, t1, pia, b1, pic;
    g2_jac delta2, t2, pib;
    g1_jac_from_affine(&delta1, &z->delta_g1);
    g2_jac_from_affine(&delta2, &z->delta_g2);

    g1_jac_add_affine_vartime(&pia, &msm_a, &z->alpha_g1);
    g1_jac_mul_vartime(&t1, &delta1, &rr);
    g1_jac_add_vartime(&pia, &pia, &t1);

    g2_jac_add_affine_vartime(&pib, &msm_b2, &z->beta_g2);
    g2_jac_mul_vartime(&t2, &delta2, &ss);
    g2_jac_add_vartime(&pib, &pib, &t2);

    g1_jac_add_affine_vartime(&b1, &msm_b1, &z->beta_g1);
    g1_jac_mul_vartime(&t1, &delta1, &ss);
    g1_jac_add_vartime(&b1, &b1, &t1);

    g1_jac_add_vartime(&pic, &msm_c, &msm_h);
    g1_jac_mul_vartime(&t1, &pia, &ss);
    g1_jac_add_vartime(&pic, &pic, &t1);
    g1_jac_mul_vartime(&t1, &b1, &rr);
    g1_jac_add_vartime(&pic, &pic, &t1);
    fr rs;
    fr_mul(&rs, &rr, &ss);
    fr_neg(&rs, &rs);
    g1_jac_mul_vartime(&t1, &delta1, &rs);
    g1_jac_add_vartime(&pic, &pic, &t1);

    g1_jac_to_affine(&out->a, &pia);
    g2_jac_to_affine(&out->b, &pib);
    g1_jac_to_affine(&out->c, &pic);
done:
    ntt_domain_destroy(&dom);
    free(wit);
    free(pa);
    free(pb);
    free(pc);
    return st;
}
