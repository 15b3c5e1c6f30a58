/* Optimal ate pairing on BLS12-381.
 *
 * Miller loop.  G2 is the M-twist E': y^2 = x^3 + b', b' = 4(u + 1) = 4 xi;
 * psi(x', y') = (x' / w^2, y' / w^3) maps it into E(Fp12) since w^6 = xi.  A line
 * through twist points with slope L', evaluated at P = (xP, yP) in G1 and scaled
 * by w^3 (killed by the final exponentiation, like every factor from a proper
 * subfield), is
 *     (L' xT' - yT') + (-L' xP) v + (yP) v w,
 * so lines hit slots 0, 1, 4 of Fp12 (fp12_mul_by_014).  The accumulator T
 * stays in homogeneous projective coordinates (x = X/Z, y = Y/Z), and lines
 * are scaled by whatever Fp2 factor keeps them polynomial: no inversions.
 * Formulas: Costello, Lange, Naehrig, "Faster pairing computations on curves
 * with high-degree twists" (eprint 2009/615), as derived in the step comments.
 * The loop runs over |x| = 0xd201000000010000 and conjugates at the end
 * (f_{-k,Q} = 1/f_{k,Q} up to a vertical line, and 1/f = conj f after the easy
 * part of the final exponentiation).
 *
 * Final exponentiation.  (p^12 - 1)/r = (p^6 - 1)(p^2 + 1) * (p^4 - p^2 + 1)/r.
 * Easy part by conjugation, one inversion and a Frobenius; the hard part
 * raises to 3 (p^4 - p^2 + 1)/r, written (Hayashida, Hayasaka, Teruya,
 * eprint 2020/875) as
 *     l3 = (x - 1)^2, l2 = l3 x, l1 = l2 x - l3, l0 = l1 x + 3,
 *     3 (p^4 - p^2 + 1)/r = l0 + l1 p + l2 p^2 + l3 p^3,
 * which costs five exponentiations by x in the cyclotomic subgroup. */
#include "curve/pairing.h"

#include "field/constants.h"

/* Pairs whose Miller loops run side by side; more pairs go in several passes,
 * each costing one extra chain of Fp12 squarings. */
#define PAIRING_CHUNK 8

typedef struct {
    fp2 x, y, z;
} g2_proj;

/* One pair's state in the loop: T, the affine Q to add, and P's coordinates
 * as the lines use them (xP and -yP). */
typedef struct {
    g2_proj t;
    g2_affine q;
    fp xp, nyp;
} miller_pair;

static int g1_is_inf(const g1_affine *p) { return fp_is_zero(&p->x) & fp_is_zero(&p->y); }
static int g2_is_inf(const g2_affine *q) { return fp2_is_zero(&q->x) & fp2_is_zero(&q->y); }

/* T = 2T and the tangent line at T (l0, l1, l4, before P is put in).
 * Tangent slope 3 X^2 / (2 Y Z); the line times 2YZ, simplified with
 * Y^2 Z = X^3 + b' Z^3, is (Y^2 - 3b' Z^2) - 3 X^2 xP v + 2 Y Z yP v w; we keep
 * its negative: l0 = 3b' Z^2 - Y^2, l1 = 3 X^2 (times xP), l4 = 2YZ (times -yP).
 * With E = 3b' Z^2, B = Y^2, H = 2YZ the doubled point, scaled by 4 to avoid
 * halving, is X3 = 2XY (B - 3E), Y3 = (B + 3E)^2 - 12 E^2, Z3 = 4 B H.
 * 3 Fp2 multiplications and 6 squarings. */
static void miller_dbl(fp2 l[3], g2_proj *t) {
    fp2 a, b, c, e, f, h, j, s;
    fp2_mul(&a, &t->x, &t->y); /* XY */
    fp2_sqr(&b, &t->y);
    fp2_sqr(&c, &t->z);
    fp2_add(&h, &t->y, &t->z);
    fp2_sqr(&h, &h);
    fp2_sub(&h, &h, &b);
    fp2_sub(&h, &h, &c); /* 2YZ */
    fp2_sqr(&j, &t->x);
    /* E = 3b' C = 12 xi C */
    fp2_mul_by_nonresidue(&e, &c);
    fp2_dbl(&e, &e);
    fp2_dbl(&e, &e);
    fp2_dbl(&s, &e);
    fp2_add(&e, &e, &s);
    fp2_dbl(&f, &e);
    fp2_add(&f, &f, &e); /* F = 3E */

    fp2_sub(&l[0], &e, &b);
    fp2_dbl(&l[1], &j);
    fp2_add(&l[1], &l[1], &j);
    l[2] = h;

    fp2_sub(&s, &b, &f);
    fp2_mul(&t->x, &a, &s);
    fp2_dbl(&t->x, &t->x);
    fp2_add(&s, &b, &f);
    fp2_sqr(&t->y, &s);
    fp2_sqr(&s, &e); /* 12 E^2 = 4 E^2 + 8 E^2 */
    fp2_dbl(&s, &s);
    fp2_dbl(&s, &s);
    fp2_sub(&t->y, &t->y, &s);
    fp2_dbl(&s, &s);
    fp2_sub(&t->y, &t->y, &s);
    fp2_mul(&t->z, &b, &h);
    fp2_dbl(&t->z, &t->z);
    fp2_dbl(&t->z, &t->z);
}

/* T = T + Q (Q affine, T != +-Q, which holds inside the loop for Q of order r)
 * and the line through them.  With theta = Y - yQ Z, lambda = X - xQ Z the
 * slope is theta/lambda; the line through Q times -lambda is
 * (lambda yQ - theta xQ) + theta xP v - lambda yP v w.
 * Sum: C = theta^2, D = lambda^2, E = lambda D, F = Z C, G = X D,
 * H = E + F - 2G, X3 = lambda H, Y3 = theta (G - H) - E Y, Z3 = Z E.
 * 11 Fp2 multiplications and 2 squarings. */
static void miller_add(fp2 l[3], g2_proj *t, const g2_affine *q) {
    fp2 theta, lambda, c, d, e, f, g, h, s;
    fp2_mul(&theta, &q->y, &t->z);
    fp2_sub(&theta, &t->y, &theta);
    fp2_mul(&lambda, &q->x, &t->z);
    fp2_sub(&lambda, &t->x, &lambda);

    fp2_mul(&l[0], &lambda, &q->y);
    fp2_mul(&s, &theta, &q->x);
    fp2_sub(&l[0], &l[0], &s);
    l[1] = theta;
    l[2] = lambda;

    fp2_sqr(&c, &theta);
    fp2_sqr(&d, &lambda);
    fp2_mul(&e, &lambda, &d);
    fp2_mul(&f, &t->z, &c);
    fp2_mul(&g, &t->x, &d);
    fp2_add(&h, &e, &f);
    fp2_dbl(&s, &g);
    fp2_sub(&h, &h, &s);
    fp2_mul(&t->x, &lambda, &h);
    fp2_sub(&s, &g, &h);
    fp2_mul(&s, &theta, &s);
    fp2_mul(&t->y, &e, &t->y);
    fp2_sub(&t->y, &s, &t->y);
    fp2_mul(&t->z, &t->z, &e);
}

/* f *= l0 + (l1 xP) v + (l4 (-yP)) v w */
static void miller_apply(fp12 *f, fp2 l[3], const miller_pair *m) {
    fp2_mul_fp(&l[1], &l[1], &m->xp);
    fp2_mul_fp(&l[2], &l[2], &m->nyp);
    fp12_mul_by_014(f, f, &l[0], &l[1], &l[2]);
}

/* Miller loops of up to PAIRING_CHUNK pairs (none at infinity) into g. */
static void miller_chunk(fp12 *g, miller_pair *m, size_t n) {
    fp2 l[3];
    int first = 1;
    for (int i = 62; i >= 0; i--) {
        if (!first)
            fp12_sqr(g, g);
        for (size_t k = 0; k < n; k++) {
            miller_dbl(l, &m[k].t);
            if (first && k == 0) {
                /* g = 1: take the first line as it is */
                fp12_set_zero(g);
                g->c0.c0 = l[0];
                fp2_mul_fp(&g->c0.c1, &l[1], &m[k].xp);
                fp2_mul_fp(&g->c1.c1, &l[2], &m[k].nyp);
            } else {
                miller_apply(g, l, &m[k]);
            }
        }
        first = 0;
        if ((BLS_X_ABS >> i) & 1) {
            for (size_t k = 0; k < n; k++) {
                miller_add(l, &m[k].t, &m[k].q);
                miller_apply(g, l, &m[k]);
            }
        }
    }
}

void pairing_miller_loop(fp12 *f, const g1_affine *p, const g2_affine *q, size_t n) {
    miller_pair m[PAIRING_CHUNK];
    fp12 g, acc;
    int have = 0;
    size_t i = 0;
    fp12_set_one(&acc);
    while (i < n) {
        size_t k = 0;
        for (; i < n && k < PAIRING_CHUNK; i++) {
            if (g1_is_inf(&p[i]) | g2_is_inf(&q[i]))
                continue; /* e(O, Q) = e(P, O) = 1 */
            m[k].t.x = q[i].x;
            m[k].t.y = q[i].y;
            fp2_set_one(&m[k].t.z);
            m[k].q = q[i];
            m[k].xp = p[i].x;
            fp_neg(&m[k].nyp, &p[i].y);
            k++;
        }
        if (k == 0)
            continue;
        miller_chunk(&g, m, k);
        if (have)
            fp12_mul(&acc, &acc, &g);
        else
            acc = g;
        have = 1;
    }
    fp12_conj(f, &acc); /* x < 0 */
}

/* r = a^|x| for a in the cyclotomic subgroup: 63 squarings, 5 multiplications. */
static void cyclotomic_exp_x_abs(fp12 *r, const fp12 *a) {
    fp12 acc = *a;
    for (int i = 62; i >= 0; i--) {
        fp12_cyclotomic_sqr(&acc, &acc);
        if ((BLS_X_ABS >> i) & 1)
            fp12_mul(&acc, &acc, a);
    }
    *r = acc;
}

/* r = a^x, x = -|x|: conjugation inverts in the cyclotomic subgroup. */
static void cyclotomic_exp_x(fp12 *r, const fp12 *a) {
    cyclotomic_exp_x_abs(r, a);
    fp12_conj(r, r);
}

void pairing_final_exp(fp12 *r, const fp12 *f) {
    fp12 m, t, a, b, c, d, e, g;
    /* easy part: m = f^((p^6 - 1)(p^2 + 1)), now in the cyclotomic subgroup */
    fp12_inv(&t, f);
    fp12_conj(&m, f);
    fp12_mul(&m, &m, &t);
    fp12_frobenius(&t, &m, 2);
    fp12_mul(&m, &m, &t);

    /* hard part, exponents of m in brackets (l0..l3 as in the file comment) */
    cyclotomic_exp_x(&a, &m); /* [x] */
    fp12_cyclotomic_sqr(&t, &m);
    fp12_conj(&t, &t);
    fp12_mul(&b, &t, &a);     /* [x - 2] */
    cyclotomic_exp_x(&c, &b); /* [x^2 - 2x] = [l3 - 1] */
    cyclotomic_exp_x(&d, &c); /* [l3 x - x] = [l2 - x] */
    cyclotomic_exp_x(&e, &d); /* [l2 x - x^2] */
    fp12_cyclotomic_sqr(&t, &a);
    fp12_mul(&e, &e, &t);     /* [l2 x - x^2 + 2x] = [l1 + 1] */
    cyclotomic_exp_x(&g, &e); /* [l1 x + x] */

    fp12_mul(&a, &a, &d); /* [l2] */
    fp12_frobenius(&a, &a, 2);
    fp12_mul(&c, &c, &m); /* [l3] */
    fp12_frobenius(&c, &c, 3);
    fp12_conj(&t, &m);
    fp12_mul(&e, &e, &t); /* [l1] */
    fp12_frobenius(&e, &e, 1);
    fp12_conj(&b, &b);
    fp12_mul(&g, &g, &b);
    fp12_mul(&g, &g, &m); /* [l1 x + 3] = [l0] */

    fp12_mul(&a, &a, &c);
    fp12_mul(&a, &a, &e);
    fp12_mul(r, &a, &g);
}

void pairing(fp12 *r, const g1_affine *p, const g2_affine *q) {
    fp12 f;
    pairing_miller_loop(&f, p, q, 1);
    pairing_final_exp(r, &f);
}

int pairing_product_is_one(const g1_affine *p, const g2_affine *q, size_t n) {
    fp12 f;
    pairing_miller_loop(&f, p, q, n);
    pairing_final_exp(&f, &f);
    return fp12_is_one(&f);
}
