/* G2 group operations (shared Jacobian formulas in jac_template.h) plus the
 * generator and the psi-endomorphism subgroup check. */
#include "curve/g2.h"

#include "field/constants.h"

#define PT g2
#define FE fp2
#define CURVE_B G2_B
#include "curve/jac_template.h"
#include "curve/batch_add_template.h"
#undef PT
#undef FE
#undef CURVE_B

void g2_affine_generator(g2_affine *r) {
    r->x = G2_GEN_X;
    r->y = G2_GEN_Y;
}

/* psi = untwist o Frobenius o twist: (x, y) -> (cx conj(x), cy conj(y)).
 * On Jacobian coordinates conj(Z) carries over because conj is a field map. */
static void g2_psi(g2_jac *r, const g2_jac *p) {
    fp2_conj(&r->x, &p->x);
    fp2_mul(&r->x, &r->x, &G2_PSI_CX);
    fp2_conj(&r->y, &p->y);
    fp2_mul(&r->y, &r->y, &G2_PSI_CY);
    fp2_conj(&r->z, &p->z);
}

int g2_jac_in_subgroup(const g2_jac *p) {
    /* P in G2  <=>  psi(P) = [x] P for P on the twist (eprint 2021/1130 s.4,
     * 2022/352).  x < 0, so [x]P = -[|x|]P. */
    if (g2_jac_is_infinity(p))
        return 1;
    const uint64_t x_abs = BLS_X_ABS;
    g2_jac xp, ps;
    g2_jac_mul_raw_vartime(&xp, p, &x_abs, 1);
    g2_jac_neg(&xp, &xp);
    g2_psi(&ps, p);
    return g2_jac_equal(&ps, &xp);
}

int g2_affine_in_subgroup(const g2_affine *p) {
    g2_jac j;
    g2_jac_from_affine(&j, p);
    return g2_jac_in_subgroup(&j);
}
