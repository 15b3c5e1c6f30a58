// Short-Weierstrass points with a = 0 for the GPU: G1 over Fp, G2 over Fp2.
// Affine points use the CPU layout (x, y; infinity = (0, 0)); buckets and
// sums are XYZZ (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2, infinity ZZ = 0), whose
// additions need no inversion and, for a = 0, no curve constant at all.
// Formulas: hyperelliptic.org EFD, "xyzz" (madd-2008-s, add-2008-s,
// dbl-2008-s-1, mdbl-2008-s-1).
#ifndef CUZK_CUDA_CURVE_CUH
#define CUZK_CUDA_CURVE_CUH

#include "cuda/field.cuh"

// Every operation is inlined into the kernels, so the operands stay in
// registers (or spill) and no call carries the PTX arithmetic (as calls,
// sm_90 code once read and wrote out of bounds of the stack: compute-sanitizer,
// invalid __local__ access in x_add -> x_dbl).

template <class F> struct affine { F x, y; };
template <class F> struct xyzz { F x, y, zz, zzz; };

typedef affine<dfp> g1a;
typedef affine<dfp2> g2a;
typedef xyzz<dfp> g1x;
typedef xyzz<dfp2> g2x;

template <class F> CZ_HD bool aff_is_inf(const affine<F> &p) {
    return f_is_zero(p.x) && f_is_zero(p.y);
}

template <class F> CZ_HD void x_set_inf(xyzz<F> &r) {
    f_zero(r.x);
    f_zero(r.y);
    f_zero(r.zz);
    f_zero(r.zzz);
}

template <class F> CZ_HD bool x_is_inf(const xyzz<F> &p) { return f_is_zero(p.zz); }

// r = 2 p (dbl-2008-s-1).
template <class F> CZ_HD void x_dbl(xyzz<F> &r, const xyzz<F> &p) {
    if (x_is_inf(p)) {
        r = p;
        return;
    }
    F u, v, w, s, m, t;
    f_dbl(u, p.y);
    f_sqr(v, u);
    f_mul(w, u, v);
    f_mul(s, p.x, v);
    f_sqr(m, p.x);
    f_add(t, m, m);
    f_add(m, m, t);
    f_mul(r.zz, v, p.zz);
    f_mul(r.zzz, w, p.zzz);
    f_mul(w, w, p.y);
    f_sqr(t, m);
    f_sub(t, t, s);
    f_sub(r.x, t, s);
    f_sub(s, s, r.x);
    f_mul(s, s, m);
    f_sub(r.y, s, w);
}

// r = 2 q for affine q (mdbl-2008-s-1); q not infinity.
template <class F> CZ_HD void x_dbl_aff(xyzz<F> &r, const affine<F> &q) {
    F u, v, w, s, m, t;
    f_dbl(u, q.y);
    f_sqr(v, u);
    f_mul(w, u, v);
    f_mul(s, q.x, v);
    f_sqr(m, q.x);
    f_add(t, m, m);
    f_add(m, m, t);
    r.zz = v;
    r.zzz = w;
    f_mul(w, w, q.y);
    f_sqr(t, m);
    f_sub(t, t, s);
    f_sub(r.x, t, s);
    f_sub(s, s, r.x);
    f_mul(s, s, m);
    f_sub(r.y, s, w);
}

// p += q for affine q (madd-2008-s); q may be infinity (0, 0); complete.
template <class F> CZ_HD void x_add_aff(xyzz<F> &p, const affine<F> &q) {
    if (aff_is_inf(q))
        return;
    if (x_is_inf(p)) {
        p.x = q.x;
        p.y = q.y;
        set_one(p.zz);
        set_one(p.zzz);
        return;
    }
    F u2, s2, pp, r, ppp, qq, t;
    f_mul(u2, q.x, p.zz);
    f_mul(s2, q.y, p.zzz);
    f_sub(pp, u2, p.x); // P
    f_sub(r, s2, p.y);  // R
    if (f_is_zero(pp)) {
        if (f_is_zero(r))
            x_dbl_aff(p, q);
        else
            x_set_inf(p);
        return;
    }
    f_sqr(t, pp);      // PP
    f_mul(ppp, pp, t); // PPP
    f_mul(qq, p.x, t); // Q
    f_mul(p.zz, p.zz, t);
    f_mul(p.zzz, p.zzz, ppp);
    f_sqr(t, r);
    f_sub(t, t, ppp);
    f_sub(t, t, qq);
    f_sub(p.x, t, qq);
    f_sub(qq, qq, p.x);
    f_mul(qq, qq, r);
    f_mul(t, p.y, ppp);
    f_sub(p.y, qq, t);
}

// The end of add-2008-s, shared by the additions below: given P = U2 - U1
// (not zero), R = S2 - S1, and ZZ1, ZZZ1 already times ZZ2, ZZZ2.  u1 is
// used up; s1 may alias p.y (read before p.y is written).
template <class F> CZ_HD void x_add_tail(xyzz<F> &p, F &u1, const F &s1, const F &P, const F &R) {
    F pp, ppp, t;
    f_sqr(pp, P);
    f_mul(ppp, P, pp);
    f_mul(u1, u1, pp); // Q
    f_mul(p.zz, p.zz, pp);
    f_mul(p.zzz, p.zzz, ppp);
    f_sqr(t, R);
    f_sub(t, t, ppp);
    f_sub(t, t, u1);
    f_sub(p.x, t, u1);
    f_sub(u1, u1, p.x);
    f_mul(u1, u1, R);
    f_mul(t, s1, ppp);
    f_sub(p.y, u1, t);
}

// p += q (add-2008-s); complete.
template <class F> CZ_HD void x_add(xyzz<F> &p, const xyzz<F> &q) {
    if (x_is_inf(q))
        return;
    if (x_is_inf(p)) {
        p = q;
        return;
    }
    F u1, u2, s1, s2;
    f_mul(u1, p.x, q.zz);
    f_mul(u2, q.x, p.zz);
    f_mul(s1, p.y, q.zzz);
    f_mul(s2, q.y, p.zzz);
    f_sub(u2, u2, u1); // P
    f_sub(s2, s2, s1); // R
    if (f_is_zero(u2)) {
        if (f_is_zero(s2)) {
            xyzz<F> t2 = p;
            x_dbl(p, t2);
        } else
            x_set_inf(p);
        return;
    }
    f_mul(p.zz, p.zz, q.zz);
    f_mul(p.zzz, p.zzz, q.zzz);
    x_add_tail(p, u1, s1, u2, s2);
}

// Word by word through volatile: a load the compiler may not merge with an
// earlier one, so the value need not stay live until it is needed again.
template <class T> CZ_HD T x_reload(const T *p) {
    T r;
    const volatile uint32_t *s = (const volatile uint32_t *)p;
    uint32_t *d = (uint32_t *)&r;
    for (unsigned i = 0; i < sizeof(T) / 4; i++)
        d[i] = s[i];
    return r;
}

// A coordinate or record from memory in 16-byte pieces (16-byte aligned).
template <class F> CZ_HD F x_ld(const F *p) {
    static_assert(sizeof(F) % 16 == 0, "coordinate size");
    F r;
    const uint4 *s = (const uint4 *)p;
    uint4 *d = (uint4 *)&r;
    CZ_UNROLL
    for (unsigned i = 0; i < sizeof(F) / 16; i++)
        d[i] = s[i];
    return r;
}

// p += *qp, the same formula and the same result as x_add, for q in
// memory: each coordinate of q is loaded where the formula first needs it,
// ZZ1 ZZ2 and ZZZ1 ZZZ2 are formed early and the rare doubling reloads q, so
// about seven coordinates are live instead of eleven (G2's reduction kernels
// spilled 1.1 KB a thread with q in registers, 52 bytes this way).
template <class F> CZ_HD void x_add_mem(xyzz<F> &p, const xyzz<F> *qp) {
    F zz2 = x_ld(&qp->zz);
    if (f_is_zero(zz2))
        return;
    if (x_is_inf(p)) {
        p.x = x_ld(&qp->x);
        p.y = x_ld(&qp->y);
        p.zz = zz2;
        p.zzz = x_ld(&qp->zzz);
        return;
    }
    F u1, u2, s1, s2, t;
    f_mul(u1, p.x, zz2);
    t = x_ld(&qp->x);
    f_mul(u2, t, p.zz);
    f_mul(p.zz, p.zz, zz2);
    F zzz2 = x_ld(&qp->zzz);
    f_mul(s1, p.y, zzz2);
    t = x_ld(&qp->y);
    f_mul(s2, t, p.zzz);
    f_mul(p.zzz, p.zzz, zzz2);
    f_sub(u2, u2, u1); // P
    f_sub(s2, s2, s1); // R
    if (f_is_zero(u2)) {
        if (f_is_zero(s2)) {
            xyzz<F> q = x_reload(qp);
            x_dbl(p, q);
        } else {
            x_set_inf(p);
        }
        return;
    }
    x_add_tail(p, u1, s1, u2, s2);
}

// p += (neg ? -q : q) for affine q in memory (madd-2008-s, as x_add_aff
// computes it): x is loaded first, y only where the formula needs it, and the
// rare doubling reloads q.  G2's bucket loop with q in registers spilled 248
// bytes a thread, this way about 100 (ptxas, sm_90).
template <class F> CZ_HD void x_add_aff_mem(xyzz<F> &p, const affine<F> *qp, bool neg) {
    F t = x_ld(&qp->x);
    if (f_is_zero(t) && f_is_zero(x_ld(&qp->y)))
        return; // infinity (0, 0)
    if (x_is_inf(p)) {
        p.x = t;
        p.y = x_ld(&qp->y);
        if (neg)
            f_neg(p.y, p.y);
        set_one(p.zz);
        set_one(p.zzz);
        return;
    }
    F u2, s2;
    f_mul(u2, t, p.zz);
    t = x_ld(&qp->y);
    if (neg)
        f_neg(t, t);
    f_mul(s2, t, p.zzz);
    f_sub(u2, u2, p.x); // P
    f_sub(s2, s2, p.y); // R
    if (f_is_zero(u2)) {
        if (f_is_zero(s2)) {
            affine<F> q = x_reload(qp);
            if (neg)
                f_neg(q.y, q.y);
            x_dbl_aff(p, q);
        } else {
            x_set_inf(p);
        }
        return;
    }
    F u1 = p.x;
    x_add_tail(p, u1, p.y, u2, s2);
}

#endif
