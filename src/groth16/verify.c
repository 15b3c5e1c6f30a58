/* Groth16 verification, single and batched (equations in verify.h). */
#include "groth16/verify.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "curve/pairing.h"
#include "msm/msm.h"

groth16_status groth16_pvk_prepare(groth16_pvk *pvk, const groth16_vk *vk, groth16_error *err) {
    memset(pvk, 0, sizeof *pvk);
    if (vk->n_ic > 0) {
        pvk->ic = malloc(vk->n_ic * sizeof *pvk->ic);
        if (!pvk->ic)
            return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "verify: no memory for %zu ic points",
                                vk->n_ic);
        memcpy(pvk->ic, vk->ic, vk->n_ic * sizeof *pvk->ic);
    }
    pvk->n_ic = vk->n_ic;
    pairing(&pvk->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    pvk->gamma_g2 = vk->gamma_g2;
    pvk->delta_g2 = vk->delta_g2;
    g2_affine_neg(&pvk->neg_gamma_g2, &vk->gamma_g2);
    g2_affine_neg(&pvk->neg_delta_g2, &vk->delta_g2);
    return GROTH16_OK;
}

void groth16_pvk_free(groth16_pvk *pvk) {
    free(pvk->ic);
    memset(pvk, 0, sizeof *pvk);
}

static groth16_status check_count(const groth16_pvk *pvk, size_t n_inputs, groth16_error *err) {
    if (n_inputs + 1 != pvk->n_ic)
        return groth16_fail(err, GROTH16_ERR_MALFORMED_VK,
                            "verify: %zu public inputs need a vk with %zu ic points, this one has "
                            "%zu (MalformedVerifyingKey)",
                            n_inputs, n_inputs + 1, pvk->n_ic);
    return GROTH16_OK;
}

/* out = sum_i k[i] bases[i], one thread (verifier sizes are small). */
static groth16_status msm_fr(g1_jac *out, const g1_affine *bases, const fr *k, size_t n,
                             groth16_error *err) {
    g1_jac_set_infinity(out);
    if (n == 0)
        return GROTH16_OK;
    uint8_t *bytes = malloc(n * FR_BYTES);
    if (!bytes)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "verify: no memory for %zu scalars", n);
    for (size_t i = 0; i < n; i++)
        fr_to_bytes_le(bytes + FR_BYTES * i, &k[i]);
    msm_config cfg = msm_config_default(1);
    msm_status s = msm_g1(out, bases, bytes, n, &cfg, NULL, NULL);
    free(bytes);
    if (s != MSM_OK) /* canonical by construction: only memory can fail */
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "verify: msm: %s", msm_status_str(s));
    return GROTH16_OK;
}

groth16_status groth16_verify(const groth16_pvk *pvk, const groth16_proof *proof, const fr *inputs,
                              size_t n_inputs, groth16_error *err) {
    groth16_status s = check_count(pvk, n_inputs, err);
    if (s != GROTH16_OK)
        return s;
    g1_jac acc;
    s = msm_fr(&acc, pvk->ic + 1, inputs, n_inputs, err);
    if (s != GROTH16_OK)
        return s;
    g1_jac_add_affine_vartime(&acc, &acc, &pvk->ic[0]);
    g1_affine p[3], acc_aff;
    g1_jac_to_affine(&acc_aff, &acc);
    p[0] = proof->a;
    p[1] = acc_aff;
    p[2] = proof->c;
    g2_affine q[3] = {proof->b, pvk->neg_gamma_g2, pvk->neg_delta_g2};
    fp12 f;
    pairing_miller_loop(&f, p, q, 3);
    pairing_final_exp(&f, &f);
    if (!fp12_equal(&f, &pvk->alpha_beta))
        return groth16_fail(err, GROTH16_ERR_INVALID_PROOF,
                            "verify: e(A,B) e(acc,-gamma) e(C,-delta) != e(alpha,beta)");
    groth16_error_clear(err);
    return GROTH16_OK;
}

/* The batch check's Miller loop inputs and target; buffers freed by the caller. */
typedef struct {
    g1_affine *p;
    g2_affine *q;
    g1_jac *za;    /* z_j A_j before the batch conversion */
    g1_affine *cs; /* the C_j, gathered for the MSM */
    fr *scal;      /* sum z, then sum_j z_j x_ji per input */
} batch_bufs;

static void batch_free(batch_bufs *b) {
    free(b->p);
    free(b->q);
    free(b->za);
    free(b->cs);
    free(b->scal);
}

groth16_status groth16_verify_batch_with_coeffs(const groth16_pvk *pvk, const groth16_proof *proofs,
                                                size_t n_proofs, const fr *inputs, size_t n_inputs,
                                                const fr *z, groth16_error *err) {
    groth16_status s = check_count(pvk, n_inputs, err);
    if (s != GROTH16_OK)
        return s;
    if (n_proofs == 0)
        return groth16_fail(err, GROTH16_ERR_ARG, "verify batch: no proofs");
    size_t n = n_proofs;
    batch_bufs b = {
        .p = malloc((n + 2) * sizeof *b.p),
        .q = malloc((n + 2) * sizeof *b.q),
        .za = malloc(n * sizeof *b.za),
        .cs = malloc(n * sizeof *b.cs),
        .scal = malloc((n_inputs + 1) * sizeof *b.scal),
    };
    if (!b.p || !b.q || !b.za || !b.cs || !b.scal) {
        batch_free(&b);
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "verify batch: no memory for %zu proofs",
                            n);
    }
    /* scal[0] = sum_j z_j (the ic[0] coefficient), scal[1 + i] = sum_j z_j x_ji */
    for (size_t i = 0; i <= n_inputs; i++)
        fr_set_zero(&b.scal[i]);
    for (size_t j = 0; j < n; j++) {
        fr_add(&b.scal[0], &b.scal[0], &z[j]);
        for (size_t i = 0; i < n_inputs; i++) {
            fr t;
            fr_mul(&t, &z[j], &inputs[j * n_inputs + i]);
            fr_add(&b.scal[1 + i], &b.scal[1 + i], &t);
        }
        g1_jac a;
        g1_jac_from_affine(&a, &proofs[j].a);
        g1_jac_mul_vartime(&b.za[j], &a, &z[j]);
        g2_affine_neg(&b.q[j], &proofs[j].b);
        b.cs[j] = proofs[j].c;
    }
    g1_jac acc_pi, acc_c;
    s = msm_fr(&acc_pi, pvk->ic, b.scal, n_inputs + 1, err);
    if (s == GROTH16_OK)
        s = msm_fr(&acc_c, b.cs, z, n, err);
    if (s != GROTH16_OK) {
        batch_free(&b);
        return s;
    }
    g1_jac_batch_to_affine(b.p, b.za, n);
    g1_jac_to_affine(&b.p[n], &acc_c);
    b.q[n] = pvk->delta_g2;
    g1_jac_to_affine(&b.p[n + 1], &acc_pi);
    b.q[n + 1] = pvk->gamma_g2;

    fp12 f, y;
    pairing_miller_loop(&f, b.p, b.q, n + 2);
    pairing_final_exp(&f, &f);
    /* y = e(alpha, beta)^(-sum z): the inverse of a GT element is its conjugate */
    uint64_t e[4];
    fr_to_raw(e, &b.scal[0]);
    fp12_pow_vartime(&y, &pvk->alpha_beta, e, 4);
    fp12_conj(&y, &y);
    batch_free(&b);
    if (!fp12_equal(&f, &y))
        return groth16_fail(err, GROTH16_ERR_INVALID_PROOF,
                            "verify batch: the combined pairing check over %zu proofs failed", n);
    groth16_error_clear(err);
    return GROTH16_OK;
}

/* 128-bit non-zero coefficients, as bellperson draws them (u128 from OsRng). */
static groth16_status random_coeffs(fr *z, size_t n, groth16_error *err) {
    for (size_t j = 0; j < n; j++) {
        uint64_t raw[4] = {0, 0, 0, 0};
        do {
            uint8_t *buf = (uint8_t *)raw;
            size_t got = 0;
            while (got < 16) {
                ssize_t r = getrandom(buf + got, 16 - got, 0);
                if (r < 0 && errno == EINTR)
                    continue;
                if (r <= 0)
                    return groth16_fail(err, GROTH16_ERR_IO, "verify batch: getrandom failed: %s",
                                        r < 0 ? strerror(errno) : "no bytes");
                got += (size_t)r;
            }
        } while (raw[0] == 0 && raw[1] == 0);
        fr_from_raw(&z[j], raw);
    }
    return GROTH16_OK;
}

groth16_status groth16_verify_batch(const groth16_pvk *pvk, const groth16_proof *proofs,
                                    size_t n_proofs, const fr *inputs, size_t n_inputs,
                                    groth16_error *err) {
    groth16_status s = check_count(pvk, n_inputs, err);
    if (s != GROTH16_OK)
        return s;
    if (n_proofs == 0)
        return groth16_fail(err, GROTH16_ERR_ARG, "verify batch: no proofs");
    if (n_proofs == 1)
        return groth16_verify(pvk, proofs, inputs, n_inputs, err);
    fr *z = malloc(n_proofs * sizeof *z);
    if (!z)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "verify batch: no memory");
    s = random_coeffs(z, n_proofs, err);
    if (s == GROTH16_OK)
        s = groth16_verify_batch_with_coeffs(pvk, proofs, n_proofs, inputs, n_inputs, z, err);
    free(z);
    return s;
}
