/* Batched affine addition, written once for G1 and G2.
 *
 * Included by g1.c and g2.c after jac_template.h, with PT and FE defined.
 * Montgomery's trick: the n slope denominators are inverted with one field
 * inversion, then each sum is finished in affine coordinates, about 6
 * multiplications per addition against 11 for a mixed Jacobian one.  Used
 * by the MSM's buckets and by the fixed-base multiplications. */
#ifndef PT
#error "define PT and FE before including batch_add_template.h"
#endif

#include <stdint.h>
#include <stdlib.h>

#define BA_CAT_(a, b) a##b
#define BA_CAT(a, b) BA_CAT_(a, b)
#define F(op) BA_CAT(FE, _##op)
#define P_(op) BA_CAT(PT, _##op)
#define AFF P_(affine)
#define SCR P_(batch_scratch)
typedef BA_CAT(FE, ) ba_fe;

enum { BA_ADD, BA_DBL, BA_ZERO, BA_TAKE_A, BA_TAKE_B };

int P_(batch_scratch_init)(SCR *s, size_t n) {
    size_t m = n ? n : 1;
    s->den = malloc(m * sizeof *s->den);
    s->pre = malloc(m * sizeof *s->pre);
    s->kind = malloc(m);
    s->cap = m;
    if (s->den && s->pre && s->kind)
        return 0;
    P_(batch_scratch_free)(s);
    return -1;
}

void P_(batch_scratch_free)(SCR *s) {
    free(s->den);
    free(s->pre);
    free(s->kind);
    s->den = s->pre = NULL;
    s->kind = NULL;
    s->cap = 0;
}

void P_(affine_batch_add_vartime)(AFF *out, const AFF *a, const AFF *b, size_t n, SCR *s) {
    ba_fe acc;
    F(set_one)(&acc);
    for (size_t k = 0; k < n; k++) {
        uint8_t kind;
        if (P_(affine_is_infinity)(&a[k]))
            kind = BA_TAKE_B;
        else if (P_(affine_is_infinity)(&b[k]))
            kind = BA_TAKE_A;
        else if (!F(equal)(&a[k].x, &b[k].x))
            kind = BA_ADD;
        else if (F(equal)(&a[k].y, &b[k].y) && !F(is_zero)(&a[k].y))
            kind = BA_DBL;
        else
            kind = BA_ZERO; /* P + (-P) */
        s->kind[k] = kind;
        if (kind == BA_ADD) {
            F(sub)(&s->den[k], &b[k].x, &a[k].x);
        } else if (kind == BA_DBL) {
            F(dbl)(&s->den[k], &a[k].y);
        } else {
            continue; /* no denominator */
        }
        s->pre[k] = acc;
        F(mul)(&acc, &acc, &s->den[k]);
    }
    ba_fe inv;
    F(inv)(&inv, &acc);
    /* backwards, so out[k] may overwrite a[k] or b[k] once they are read */
    for (size_t k = n; k-- > 0;) {
        uint8_t kind = s->kind[k];
        if (kind == BA_TAKE_A) {
            out[k] = a[k];
            continue;
        }
        if (kind == BA_TAKE_B) {
            out[k] = b[k];
            continue;
        }
        if (kind == BA_ZERO) {
            P_(affine_set_infinity)(&out[k]);
            continue;
        }
        ba_fe inv_k, lambda, t, x3;
        F(mul)(&inv_k, &inv, &s->pre[k]);
        F(mul)(&inv, &inv, &s->den[k]);
        if (kind == BA_ADD) {
            F(sub)(&t, &b[k].y, &a[k].y);
        } else { /* 3 x^2 */
            F(sqr)(&t, &a[k].x);
            F(add)(&lambda, &t, &t);
            F(add)(&t, &t, &lambda);
        }
        F(mul)(&lambda, &t, &inv_k);
        F(sqr)(&x3, &lambda);
        F(sub)(&x3, &x3, &a[k].x);
        F(sub)(&x3, &x3, &b[k].x);
        F(sub)(&t, &a[k].x, &x3);
        F(mul)(&t, &t, &lambda);
        F(sub)(&out[k].y, &t, &a[k].y);
        out[k].x = x3;
    }
}

#undef F
#undef P_
#undef AFF
#undef SCR
#undef BA_CAT
#undef BA_CAT_
