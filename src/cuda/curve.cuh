// Short-Weierstrass points with a = 0 for the GPU: G1 over Fp, G2 over Fp2.
// Affine points use the CPU layout (x, y; infinity = (0, 0)); buckets and
// sums are XYZZ (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2, infinity ZZ = 0), whose
// additions need no inversion and, for a = 0, no curve constant at all.
// Formulas: hyperelliptic.org EFD, "xyzz" (madd-2008-s, add-2008-s,
// dbl-2008-s-1, mdbl-2008-s-1).
#ifndef CUZK_CUDA_CURVE_CUH
#define CUZK_CUDA_CURVE_CUH

#include "cuda/field.cuh"

// Each operation has an inline body and a call (CZ_HDN) wrapping it; the
// kernels pick one through xk_* at the end of this file (inline, but calls for
// G2 over the portable Fp).
#define CZ_HDN __host__ __device__ __noinline__

template <class F> struct affine { F x, y; };
template <class F> struct xyzz { F x, y, zz, zzz; };

typedef affine<dfp> g1a;
typedef affine<dfp2> g2a;
typedef xyzz<dfp> g1x;
typedef xyzz<dfp2> g2x;
typedef affine<dfp2x> g2ax; // the same points over the PTX Fp (gpu_g2_ptx)
typedef xyzz<dfp2x> g2xx;

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
template <class F> CZ_HD void x_dbl_body(xyzz<F> &r, const xyzz<F> &p) {
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
template <class F> CZ_HD void x_dbl_aff_body(xyzz<F> &r, const affine<F> &q) {
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

// The doublings as calls for the kernels; inside the additions the bodies
// are inlined (a call nested in a call read out of bounds of the stack on
// sm_90: compute-sanitizer, invalid __local__ read in x_add -> x_dbl).
template <class F> CZ_HDN void x_dbl(xyzz<F> &r, const xyzz<F> &p) { x_dbl_body(r, p); }

// p += q for affine q (madd-2008-s); q may be infinity (0, 0); complete.
// The body is inlined where its operands must stay in registers (the G1
// bucket loop); elsewhere x_add_aff is a call.
template <class F> CZ_HD void x_add_aff_body(xyzz<F> &p, const affine<F> &q) {
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
            x_dbl_aff_body(p, q);
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

template <class F> CZ_HDN void x_add_aff(xyzz<F> &p, const affine<F> &q) { x_add_aff_body(p, q); }

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
template <class F> CZ_HD void x_add_body(xyzz<F> &p, const xyzz<F> &q) {
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
            x_dbl_body(p, t2);
        } else
            x_set_inf(p);
        return;
    }
    f_mul(p.zz, p.zz, q.zz);
    f_mul(p.zzz, p.zzz, q.zzz);
    x_add_tail(p, u1, s1, u2, s2);
}

template <class F> CZ_HDN void x_add(xyzz<F> &p, const xyzz<F> &q) { x_add_body(p, q); }

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

// p += *qp, the same formula and the same result as x_add_body, for q in
// memory: each coordinate of q is loaded where the formula first needs it,
// ZZ1 ZZ2 and ZZZ1 ZZZ2 are formed early and the rare doubling reloads q, so
// about seven coordinates are live instead of eleven (G2's reduction kernels
// spilled 1.1 KB a thread with q in registers, 52 bytes this way).
template <class F> CZ_HD void x_add_mem_body(xyzz<F> &p, const xyzz<F> *qp) {
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
            x_dbl_body(p, q);
        } else {
            x_set_inf(p);
        }
        return;
    }
    x_add_tail(p, u1, s1, u2, s2);
}

template <class F> CZ_HDN void x_add_mem(xyzz<F> &p, const xyzz<F> *qp) { x_add_mem_body(p, qp); }

// p += (neg ? -q : q) for affine q in memory (madd-2008-s, as x_add_aff_body
// computes it): x is loaded first, y only where the formula needs it, and the
// rare doubling reloads q.  G2's bucket loop with q in registers spilled 248
// bytes a thread, this way about 100 (ptxas, sm_90).
template <class F> CZ_HD void x_add_aff_mem_body(xyzz<F> &p, const affine<F> *qp, bool neg) {
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
            x_dbl_aff_body(p, q);
        } else {
            x_set_inf(p);
        }
        return;
    }
    F u1 = p.x;
    x_add_tail(p, u1, p.y, u2, s2);
}

template <class F> CZ_HDN void x_add_aff_mem(xyzz<F> &p, const affine<F> *qp, bool neg) {
    x_add_aff_mem_body(p, qp, neg);
}

// The kernels' entry points: G1 and G2 over the PTX Fp (dfp, dfp2x and the
// MSM's fixed-multiply dfp_m1, dfp_m2 and their Fp2) inlined, so
// their operands stay in registers (or spill) and no call carries the PTX
// arithmetic (field.cuh says why); G2 over the portable Fp (dfp2) as calls,
// the other side of the gpu_g2_ptx switch.
template <class F> struct x_calls { static constexpr bool value = false; };
template <> struct x_calls<dfp2> { static constexpr bool value = true; };
template <class F> CZ_HD constexpr bool x_inline() { return !x_calls<F>::value; }
template <class F> CZ_HD void xk_add(xyzz<F> &p, const xyzz<F> &q) {
    if constexpr (x_inline<F>())
        x_add_body(p, q);
    else
        x_add(p, q);
}
template <class F> CZ_HD void xk_add_mem(xyzz<F> &p, const xyzz<F> *qp) {
    if constexpr (x_inline<F>())
        x_add_mem_body(p, qp);
    else
        x_add_mem(p, qp);
}
template <class F> CZ_HD void xk_add_aff_mem(xyzz<F> &p, const affine<F> *qp, bool neg) {
    if constexpr (x_inline<F>())
        x_add_aff_mem_body(p, qp, neg);
    else
        x_add_aff_mem(p, qp, neg);
}
template <class F> CZ_HD void xk_add_aff(xyzz<F> &p, const affine<F> &q) {
    if constexpr (x_inline<F>())
        x_add_aff_body(p, q);
    else
        x_add_aff(p, q);
}
template <class F> CZ_HD void xk_dbl(xyzz<F> &r, const xyzz<F> &p) {
    if constexpr (x_inline<F>())
        x_dbl_body(r, p);
    else
        x_dbl(r, p);
}

#endif
