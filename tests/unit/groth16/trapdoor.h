/* Valid Groth16 proofs without a prover, from a known trapdoor.
 *
 * The vk is alpha G1, beta G1/G2, gamma G2, delta G1/G2 and ic[i] = k_i G1 for
 * random scalars.  For inputs x, kappa = k_0 + sum x_i k_{i+1}; with random a,
 * b the proof A = a G1, B = b G2, C = c G1 where
 *   c = (a b - alpha beta - kappa gamma) / delta
 * satisfies e(A,B) = e(alpha,beta) e(acc,gamma) e(C,delta) in the exponent:
 * a b = alpha beta + kappa gamma + c delta.  Shared by the groth16 tests. */
#ifndef CUZK_TEST_GROTH16_TRAPDOOR_H
#define CUZK_TEST_GROTH16_TRAPDOOR_H

#include "check.h"
#include "groth16/verify.h"

static fr td_rand_fr(void) {
    for (;;) {
        uint8_t b[32];
        check_rand_bytes(b, 32);
        fr k;
        fr_from_bytes_le_reduce(&k, b);
        if (!fr_is_zero(&k))
            return k;
    }
}

static void td_g1(g1_affine *r, const fr *k) {
    g1_affine g;
    g1_jac j;
    g1_affine_generator(&g);
    g1_jac_from_affine(&j, &g);
    g1_jac_mul_vartime(&j, &j, k);
    g1_jac_to_affine(r, &j);
}

static void td_g2(g2_affine *r, const fr *k) {
    g2_affine g;
    g2_jac j;
    g2_affine_generator(&g);
    g2_jac_from_affine(&j, &g);
    g2_jac_mul_vartime(&j, &j, k);
    g2_jac_to_affine(r, &j);
}

typedef struct {
    fr alpha, beta, gamma, delta;
    fr k[64]; /* ic scalars, n_ic <= 64 */
    size_t n_ic;
} trapdoor;

/* A random trapdoor and its vk (vk->ic malloc'd: groth16_vk_free). */
static void trapdoor_new(trapdoor *t, groth16_vk *vk, size_t n_ic) {
    t->alpha = td_rand_fr();
    t->beta = td_rand_fr();
    t->gamma = td_rand_fr();
    t->delta = td_rand_fr();
    t->n_ic = n_ic;
    td_g1(&vk->alpha_g1, &t->alpha);
    td_g1(&vk->beta_g1, &t->beta);
    td_g2(&vk->beta_g2, &t->beta);
    td_g2(&vk->gamma_g2, &t->gamma);
    td_g1(&vk->delta_g1, &t->delta);
    td_g2(&vk->delta_g2, &t->delta);
    vk->n_ic = n_ic;
    vk->ic = malloc(n_ic * sizeof *vk->ic);
    for (size_t i = 0; i < n_ic; i++) {
        t->k[i] = td_rand_fr();
        td_g1(&vk->ic[i], &t->k[i]);
    }
}

/* A valid proof for the t->n_ic - 1 inputs x. */
static void trapdoor_prove(const trapdoor *t, groth16_proof *p, const fr *x) {
    fr a = td_rand_fr(), b = td_rand_fr(), kappa = t->k[0], c, tmp;
    for (size_t i = 0; i + 1 < t->n_ic; i++) {
        fr_mul(&tmp, &x[i], &t->k[i + 1]);
        fr_add(&kappa, &kappa, &tmp);
    }
    fr_mul(&c, &a, &b);
    fr_mul(&tmp, &t->alpha, &t->beta);
    fr_sub(&c, &c, &tmp);
    fr_mul(&tmp, &kappa, &t->gamma);
    fr_sub(&c, &c, &tmp);
    fr_inv(&tmp, &t->delta);
    fr_mul(&c, &c, &tmp);
    td_g1(&p->a, &a);
    td_g2(&p->b, &b);
    td_g1(&p->c, &c);
}

#endif
