/* G1 group operations (shared Jacobian formulas in jac_template.h) plus the
 * generator and the endomorphism subgroup check. */
#include "curve/g1.h"

#include "field/constants.h"

#define PT g1
#define FE fp
#define CURVE_B G1_B
#include "curve/jac_template.h"
#include "curve/batch_add_template.h"
#undef PT
#undef FE
#undef CURVE_B

void g1_affine_generator(g1_affine *r) {
    r->x = G1_GEN_X;
    r->y = G1_GEN_Y;
}

/* r = [|x|] p, |x| = 0xd201000000010000 (6 set bits: mostly doublings). */
static void g1_mul_by_x_abs(g1_jac *r, const g1_jac *p) {
    const uint64_t x_abs = BLS_X_ABS;
    g1_jac_mul_raw_vartime(r, p, &x_abs, 1);
}

int g1_jac_in_subgroup(const g1_jac *p) {
    /* P in G1  <=>  phi(P) = -[x^2] P with phi(x, y) = (beta x, y), for P on
     * the curve (eprint 2021/1130 s.6; corrected proof in 2022/352). */
    if (g1_jac_is_infinity(p))
        return 1;
    g1_jac t, phi = *p;
    g1_mul_by_x_abs(&t, p);
    g1_mul_by_x_abs(&t, &t); /* [x^2] P, x^2 = |x|^2 */
    g1_jac_neg(&t, &t);
    fp_mul(&phi.x, &p->x, &G1_BETA); /* Jacobian: x = X/Z^2, so scale X */
    return g1_jac_equal(&phi, &t);
}

int g1_affine_in_subgroup(const g1_affine *p) {
    g1_jac j;
    g1_jac_from_affine(&j, p);
    return g1_jac_in_subgroup(&j);
}
