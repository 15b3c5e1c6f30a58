/* Precomputation for the fast Poseidon permutation (same output as the
 * reference form).  Column vectors; a partial round is x <- M * S0(x + c),
 * S0 = x^5 on x[0] only.  Derived here rather than ported from neptune (whose
 * circuit form pushes the other way); the tests compare with the reference.
 *
 * 1. Constants: c = c[0] e0 + chat with chat[0] = 0 passes the S-box
 *    untouched, so M * S0(x + c) = M * S0(x + c[0] e0) + M * chat: M * chat is
 *    pushed into the next round's constants, and out of the last partial round
 *    into the first full round after it.  Each partial round adds one scalar.
 * 2. Matrices: with Mhat = M[1..][1..], round k's matrix (after absorbing the
 *    leftovers of earlier rounds) is A_k = M * diag(1, Mhat^k), which factors as
 *    diag(1, Mhat^(k+1)) * S_k with S_k sparse: [[M00, v_k^T], [w_k, I]],
 *    v_k^T = M[0][1..] * Mhat^k and w_k = Mhat^-(k+1) * M[1..][0].  diag(1, B)
 *    commutes with S0 and with adding to x[0], so it moves to the next round;
 *    after the last partial round diag(1, Mhat^rp) is applied once. */
#include "gadget/poseidon_internal.h"

#include <stdlib.h>
#include <string.h>

/* c = a * b (poseidon_internal.h). */
void poseidon_mat_mul(fr *c, const fr *a, const fr *b, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            fr acc, prod;
            fr_set_zero(&acc);
            for (unsigned k = 0; k < n; k++) {
                fr_mul(&prod, &a[i * n + k], &b[k * n + j]);
                fr_add(&acc, &acc, &prod);
            }
            c[i * n + j] = acc;
        }
}

/* inv = a^-1 by Gauss-Jordan (a is destroyed); 0 if singular.  A Cauchy
 * submatrix never is, but pivoting costs nothing here. */
int poseidon_mat_inv(fr *inv, fr *a, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            (i == j ? fr_set_one : fr_set_zero)(&inv[i * n + j]);
    for (unsigned col = 0; col < n; col++) {
        unsigned piv = col;
        while (piv < n && fr_is_zero(&a[piv * n + col]))
            piv++;
        if (piv == n)
            return 0;
        for (unsigned j = 0; j < n && piv != col; j++) {
            fr t = a[col * n + j];
            a[col * n + j] = a[piv * n + j];
            a[piv * n + j] = t;
            t = inv[col * n + j];
            inv[col * n + j] = inv[piv * n + j];
            inv[piv * n + j] = t;
        }
        fr s;
        fr_inv(&s, &a[col * n + col]);
        for (unsigned j = 0; j < n; j++) {
            fr_mul(&a[col * n + j], &a[col * n + j], &s);
            fr_mul(&inv[col * n + j], &inv[col * n + j], &s);
        }
        for (unsigned i = 0; i < n; i++) {
            if (i == col || fr_is_zero(&a[i * n + col]))
                continue;
            fr f = a[i * n + col], t;
            for (unsigned j = 0; j < n; j++) {
                fr_mul(&t, &f, &a[col * n + j]);
                fr_sub(&a[i * n + j], &a[i * n + j], &t);
                fr_mul(&t, &f, &inv[col * n + j]);
                fr_sub(&inv[i * n + j], &inv[i * n + j], &t);
            }
        }
    }
    return 1;
}

/* out_i = sum_j a[i][j] * x_j (transpose: out_j = sum_i x_i * a[i][j]) */
static void mat_vec(fr *out, const fr *a, const fr *x, unsigned n, int transpose) {
    for (unsigned i = 0; i < n; i++) {
        fr acc, prod;
        fr_set_zero(&acc);
        for (unsigned j = 0; j < n; j++) {
            fr_mul(&prod, transpose ? &a[j * n + i] : &a[i * n + j], &x[j]);
            fr_add(&acc, &acc, &prod);
        }
        out[i] = acc;
    }
}

/* Pushes partial-round constants forward (step 1 above). */
static void push_constants(struct poseidon_opt *o, const poseidon_params *p, fr *c, fr *z) {
    const unsigned t = p->t, h = p->rf / 2, rp = p->rp;
    fr *first_after = o->full_rc + (size_t)h * t; /* first full round after the partial ones */
    memcpy(o->full_rc, p->rc, (size_t)h * t * sizeof(fr));
    memcpy(first_after, p->rc + (size_t)(h + rp) * t, (size_t)(p->rf - h) * t * sizeof(fr));
    memcpy(c, p->rc + (size_t)h * t, t * sizeof(fr));
    for (unsigned k = 0; k < rp; k++) {
        o->part_rc[k] = c[0];
        fr_set_zero(&c[0]);
        mat_vec(z, p->mds, c, t, 0); /* z = M * chat */
        const fr *next = k + 1 < rp ? p->rc + (size_t)(h + k + 1) * t : first_after;
        fr *dst = k + 1 < rp ? c : first_after;
        for (unsigned i = 0; i < t; i++)
            fr_add(&dst[i], &next[i], &z[i]);
    }
}

struct poseidon_opt *poseidon_opt_build(const poseidon_params *p) {
    const unsigned t = p->t, n = t - 1, rp = p->rp;
    const size_t nn = (size_t)n * n;
    const size_t count = (size_t)p->rf * t + rp + 2 * (size_t)rp * n + nn;
    struct poseidon_opt *o = malloc(sizeof *o);
    fr *mem = malloc(count * sizeof(fr));
    fr *scratch = malloc((4 * nn + 2 * t) * sizeof(fr));
    if (!o || !mem || !scratch)
        goto fail;
    o->full_rc = mem;
    o->part_rc = o->full_rc + (size_t)p->rf * t;
    o->sparse_v = o->part_rc + rp;
    o->sparse_w = o->sparse_v + (size_t)rp * n;
    o->tail = o->sparse_w + (size_t)rp * n;
    fr *mhat = scratch, *minv = mhat + nn, *pw = minv + nn, *tmp = pw + nn;
    fr *c = tmp + nn, *z = c + t;
    const fr *m = p->mds;

    push_constants(o, p, c, z);

    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            mhat[i * n + j] = m[(i + 1) * t + j + 1];
    memcpy(tmp, mhat, nn * sizeof(fr));
    if (!poseidon_mat_inv(minv, tmp, n))
        goto fail;
    /* v_0 = M[0][1..], v_k = v_(k-1) * Mhat; w_0 = Mhat^-1 * M[1..][0], w_k = Mhat^-1 * w_(k-1) */
    for (unsigned i = 0; i < n; i++)
        c[i] = m[(i + 1) * t];
    memcpy(o->sparse_v, m + 1, n * sizeof(fr));
    mat_vec(o->sparse_w, minv, c, n, 0);
    for (unsigned k = 1; k < rp; k++) {
        mat_vec(o->sparse_v + (size_t)k * n, mhat, o->sparse_v + (size_t)(k - 1) * n, n, 1);
        mat_vec(o->sparse_w + (size_t)k * n, minv, o->sparse_w + (size_t)(k - 1) * n, n, 0);
    }

    /* tail = Mhat^rp by square-and-multiply */
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            (i == j ? fr_set_one : fr_set_zero)(&o->tail[i * n + j]);
    memcpy(pw, mhat, nn * sizeof(fr));
    for (unsigned e = rp; e; e >>= 1) {
        if (e & 1) {
            poseidon_mat_mul(tmp, o->tail, pw, n);
            memcpy(o->tail, tmp, nn * sizeof(fr));
        }
        if (e > 1) {
            poseidon_mat_mul(tmp, pw, pw, n);
            memcpy(pw, tmp, nn * sizeof(fr));
        }
    }
    free(scratch);
    return o;
fail:
    free(scratch);
    free(mem);
    free(o);
    return NULL;
}
