/* Short-Weierstrass (a = 0) Jacobian arithmetic, written once for G1 and G2.
 *
 * Included by g1.c and g2.c after defining:
 *   PT   the point prefix (g1 or g2)    FE   the field prefix (fp or fp2)
 *   CURVE_B  the curve constant (an FE)
 * It defines the g1_/g2_ functions declared in g1.h / g2.h that do not
 * depend on the group (everything but generators and subgroup checks).
 * Formulas: dbl-2009-l, add-2007-bl, madd-2007-bl (hyperelliptic.org EFD). */
#ifndef PT
#error "define PT and FE before including jac_template.h"
#endif

#include <stdlib.h>
#include <string.h>

#define JT_CAT_(a, b) a##b
#define JT_CAT(a, b) JT_CAT_(a, b)
#define F(op) JT_CAT(FE, _##op)
#define P_(op) JT_CAT(PT, _##op)
#define AFF P_(affine)
#define JAC P_(jac)
typedef JT_CAT(FE, ) fe_t;

void P_(affine_set_infinity)(AFF *r) { memset(r, 0, sizeof *r); }

int P_(affine_is_infinity)(const AFF *p) { return F(is_zero)(&p->x) & F(is_zero)(&p->y); }

int P_(affine_equal)(const AFF *a, const AFF *b) {
    return F(equal)(&a->x, &b->x) & F(equal)(&a->y, &b->y);
}

void P_(affine_neg)(AFF *r, const AFF *p) {
    r->x = p->x;
    if (P_(affine_is_infinity)(p))
        r->y = p->y;
    else
        F(neg)(&r->y, &p->y);
}

int P_(affine_is_on_curve)(const AFF *p) {
    if (P_(affine_is_infinity)(p))
        return 1;
    fe_t lhs, rhs;
    F(sqr)(&lhs, &p->y);
    F(sqr)(&rhs, &p->x);
    F(mul)(&rhs, &rhs, &p->x);
    F(add)(&rhs, &rhs, &CURVE_B);
    return F(equal)(&lhs, &rhs);
}

void P_(jac_set_infinity)(JAC *r) { memset(r, 0, sizeof *r); }

int P_(jac_is_infinity)(const JAC *p) { return F(is_zero)(&p->z); }

void P_(jac_from_affine)(JAC *r, const AFF *p) {
    if (P_(affine_is_infinity)(p)) {
        P_(jac_set_infinity)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    F(set_one)(&r->z);
}

void P_(jac_to_affine)(AFF *r, const JAC *p) {
    if (P_(jac_is_infinity)(p)) {
        P_(affine_set_infinity)(r);
        return;
    }
    fe_t zi, zi2, zi3;
    F(inv)(&zi, &p->z);
    F(sqr)(&zi2, &zi);
    F(mul)(&zi3, &zi2, &zi);
    F(mul)(&r->x, &p->x, &zi2);
    F(mul)(&r->y, &p->y, &zi3);
}

void P_(jac_batch_to_affine)(AFF *r, const JAC *p, size_t n) {
    /* Montgomery's trick: prefix products of the non-zero Z, one inversion,
     * then unwind.  The prefix products live in r's x slots until used. */
    if (n == 0)
        return;
    fe_t *prefix = malloc(n * sizeof *prefix);
    if (!prefix) { /* fall back to one inversion per point rather than fail */
        for (size_t i = 0; i < n; i++)
            P_(jac_to_affine)(&r[i], &p[i]);
        return;
    }
    fe_t acc;
    F(set_one)(&acc);
    for (size_t i = 0; i < n; i++) {
        prefix[i] = acc;
        if (!P_(jac_is_infinity)(&p[i]))
            F(mul)(&acc, &acc, &p[i].z);
    }
    F(inv)(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (P_(jac_is_infinity)(&p[i])) {
            P_(affine_set_infinity)(&r[i]);
            continue;
        }
        fe_t zi, zi2, zi3;
        F(mul)(&zi, &acc, &prefix[i]); /* 1/z_i */
        F(mul)(&acc, &acc, &p[i].z);
        F(sqr)(&zi2, &zi);
        F(mul)(&zi3, &zi2, &zi);
        F(mul)(&r[i].x, &p[i].x, &zi2);
        F(mul)(&r[i].y, &p[i].y, &zi3);
    }
    free(prefix);
}

int P_(jac_equal)(const JAC *a, const JAC *b) {
    int ia = P_(jac_is_infinity)(a), ib = P_(jac_is_infinity)(b);
    if (ia || ib)
        return ia && ib;
    /* X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3 */
    fe_t z1z1, z2z2, u1, u2, s1, s2;
    F(sqr)(&z1z1, &a->z);
    F(sqr)(&z2z2, &b->z);
    F(mul)(&u1, &a->x, &z2z2);
    F(mul)(&u2, &b->x, &z1z1);
    F(mul)(&s1, &a->y, &z2z2);
    F(mul)(&s1, &s1, &b->z);
    F(mul)(&s2, &b->y, &z1z1);
    F(mul)(&s2, &s2, &a->z);
    return F(equal)(&u1, &u2) && F(equal)(&s1, &s2);
}

void P_(jac_neg)(JAC *r, const JAC *p) {
    r->x = p->x;
    F(neg)(&r->y, &p->y);
    r->z = p->z;
}

void P_(jac_dbl)(JAC *r, const JAC *p) {
    /* dbl-2009-l: 2M + 5S; infinity (Z = 0) maps to Z3 = 0 by itself. */
    fe_t a, b, c, d, e, f, t;
    F(sqr)(&a, &p->x);
    F(sqr)(&b, &p->y);
    F(sqr)(&c, &b);
    F(add)(&d, &p->x, &b);
    F(sqr)(&d, &d);
    F(sub)(&d, &d, &a);
    F(sub)(&d, &d, &c);
    F(dbl)(&d, &d);
    F(dbl)(&e, &a);
    F(add)(&e, &e, &a);
    F(sqr)(&f, &e);
    F(mul)(&r->z, &p->y, &p->z); /* before x, y are overwritten (aliasing) */
    F(dbl)(&r->z, &r->z);
    F(dbl)(&t, &d);
    F(sub)(&r->x, &f, &t);
    F(sub)(&t, &d, &r->x);
    F(mul)(&t, &e, &t);
    F(dbl)(&c, &c);
    F(dbl)(&c, &c);
    F(dbl)(&c, &c);
    F(sub)(&r->y, &t, &c);
}

void P_(jac_add_vartime)(JAC *r, const JAC *p, const JAC *q) {
    /* add-2007-bl: 11M + 5S */
    if (P_(jac_is_infinity)(p)) {
        *r = *q;
        return;
    }
    if (P_(jac_is_infinity)(q)) {
        *r = *p;
        return;
    }
    fe_t z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    F(sqr)(&z1z1, &p->z);
    F(sqr)(&z2z2, &q->z);
    F(mul)(&u1, &p->x, &z2z2);
    F(mul)(&u2, &q->x, &z1z1);
    F(mul)(&s1, &p->y, &q->z);
    F(mul)(&s1, &s1, &z2z2);
    F(mul)(&s2, &q->y, &p->z);
    F(mul)(&s2, &s2, &z1z1);
    F(sub)(&h, &u2, &u1);
    F(sub)(&rr, &s2, &s1);
    if (F(is_zero)(&h)) {
        if (F(is_zero)(&rr))
            P_(jac_dbl)(r, p);
        else
            P_(jac_set_infinity)(r);
        return;
    }
    F(dbl)(&rr, &rr);
    F(dbl)(&i, &h);
    F(sqr)(&i, &i);
    F(mul)(&j, &h, &i);
    F(mul)(&v, &u1, &i);
    F(add)(&t, &p->z, &q->z);
    F(sqr)(&t, &t);
    F(sub)(&t, &t, &z1z1);
    F(sub)(&t, &t, &z2z2);
    F(mul)(&r->z, &t, &h);
    F(sqr)(&t, &rr);
    F(sub)(&t, &t, &j);
    F(sub)(&t, &t, &v);
    F(sub)(&r->x, &t, &v);
    F(sub)(&t, &v, &r->x);
    F(mul)(&t, &t, &rr);
    F(mul)(&s1, &s1, &j);
    F(dbl)(&s1, &s1);
    F(sub)(&r->y, &t, &s1);
}

void P_(jac_add_affine_vartime)(JAC *r, const JAC *p, const AFF *q) {
    /* madd-2007-bl: 7M + 4S */
    if (P_(affine_is_infinity)(q)) {
        *r = *p;
        return;
    }
    if (P_(jac_is_infinity)(p)) {
        P_(jac_from_affine)(r, q);
        return;
    }
    fe_t z1z1, u2, s2, h, hh, i, j, rr, v, t;
    F(sqr)(&z1z1, &p->z);
    F(mul)(&u2, &q->x, &z1z1);
    F(mul)(&s2, &q->y, &p->z);
    F(mul)(&s2, &s2, &z1z1);
    F(sub)(&h, &u2, &p->x);
    F(sub)(&rr, &s2, &p->y);
    if (F(is_zero)(&h)) {
        if (F(is_zero)(&rr))
            P_(jac_dbl)(r, p);
        else
            P_(jac_set_infinity)(r);
        return;
    }
    F(dbl)(&rr, &rr);
    F(sqr)(&hh, &h);
    F(dbl)(&i, &hh);
    F(dbl)(&i, &i);
    F(mul)(&j, &h, &i);
    F(mul)(&v, &p->x, &i);
    F(add)(&t, &p->z, &h);
    F(sqr)(&t, &t);
    F(sub)(&t, &t, &z1z1);
    F(sub)(&r->z, &t, &hh);
    fe_t y1 = p->y; /* r may alias p */
    F(sqr)(&t, &rr);
    F(sub)(&t, &t, &j);
    F(sub)(&t, &t, &v);
    F(sub)(&r->x, &t, &v);
    F(sub)(&t, &v, &r->x);
    F(mul)(&t, &t, &rr);
    F(mul)(&y1, &y1, &j);
    F(dbl)(&y1, &y1);
    F(sub)(&r->y, &t, &y1);
}

/* Width-5 signed-digit (wNAF) scalar multiplication over a plain integer. */
void P_(jac_mul_raw_vartime)(JAC *r, const JAC *p, const uint64_t *k, size_t n) {
    enum { W = 5, TABLE = 1 << (W - 2) };
    size_t bits = n * 64;
    int8_t *naf = calloc(bits + 1, 1);
    uint64_t *e = malloc((n + 1) * sizeof *e);
    if (!naf || !e) {
        /* plain double-and-add needs no scratch */
        free(naf);
        free(e);
        JAC acc;
        P_(jac_set_infinity)(&acc);
        for (size_t i = bits; i-- > 0;) {
            P_(jac_dbl)(&acc, &acc);
            if ((k[i / 64] >> (i % 64)) & 1)
                P_(jac_add_vartime)(&acc, &acc, p);
        }
        *r = acc;
        return;
    }
    memcpy(e, k, n * sizeof *e);
    e[n] = 0;
    /* wNAF digits: odd, |d| < 2^(W-1), at least W-1 zeros after each non-zero.
     * Subtracting d = e mod 2^W (signed) clears e's low W bits: for d > 0 no
     * borrow leaves limb 0; for d < 0 adding |d| may carry upwards. */
    size_t len = 0;
    for (size_t i = 0; i <= bits; i++) {
        int digit = 0;
        if (e[0] & 1) {
            digit = (int)(e[0] & ((1u << W) - 1));
            if (digit >= (1 << (W - 1))) {
                digit -= 1 << W;
                uint64_t carry = (uint64_t)-digit;
                for (size_t j = 0; j <= n && carry; j++) {
                    e[j] += carry;
                    carry = e[j] < carry;
                }
            } else {
                e[0] -= (uint64_t)digit;
            }
        }
        naf[i] = (int8_t)digit;
        if (digit)
            len = i + 1;
        for (size_t j = 0; j < n; j++) /* e >>= 1 */
            e[j] = (e[j] >> 1) | (e[j + 1] << 63);
        e[n] >>= 1;
    }
    JAC table[TABLE], p2; /* table[i] = (2i + 1) P */
    table[0] = *p;
    P_(jac_dbl)(&p2, p);
    for (int i = 1; i < TABLE; i++)
        P_(jac_add_vartime)(&table[i], &table[i - 1], &p2);
    JAC acc, neg;
    P_(jac_set_infinity)(&acc);
    for (size_t i = len; i-- > 0;) {
        P_(jac_dbl)(&acc, &acc);
        int d = naf[i];
        if (d > 0) {
            P_(jac_add_vartime)(&acc, &acc, &table[d / 2]);
        } else if (d < 0) {
            P_(jac_neg)(&neg, &table[-d / 2]);
            P_(jac_add_vartime)(&acc, &acc, &neg);
        }
    }
    *r = acc;
    free(naf);
    free(e);
}

void P_(jac_mul_vartime)(JAC *r, const JAC *p, const fr *k) {
    uint64_t raw[4];
    fr_to_raw(raw, k);
    P_(jac_mul_raw_vartime)(r, p, raw, 4);
}

#undef F
#undef P_
#undef AFF
#undef JAC
#undef JT_CAT
#undef JT_CAT_
