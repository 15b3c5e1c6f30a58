// The device's XYZZ point additions (curve.cuh) run on the CPU, with the PTX
// field through its instruction model (CZ_PTX_EMULATE), against the CPU's
// Jacobian group law: x_add and x_add_mem (q read from memory in
// the order the formula needs it) must give the same bytes, as must the mixed
// x_add_aff and x_add_aff_mem (also with q negated), and the point
// the CPU gets.  Cases: random points with random Z, q or p at infinity,
// p = q in different coordinates (the doubling) and p = -q.  No GPU needed,
// so CI checks the formulas the reduction kernels run.
#define CZ_PTX_EMULATE 1
#include "cuda/curve.cuh"

extern "C" {
#include "curve/g1.h"
#include "curve/g2.h"
#include "field_rand.h"
}

namespace {

// The CPU's field ops for the coordinate type C (fp or fp2).
struct ops_fp {
    typedef fp C;
    typedef g1_affine A;
    typedef g1_jac J;
    static void mul(C *r, const C *a, const C *b) { fp_mul(r, a, b); }
    static void inv(C *r, const C *a) { fp_inv(r, a); }
    static C rnd() { return rand_fp(); }
    static void random_point(A *p) {
        J g;
        A a;
        g1_affine_generator(&a);
        g1_jac_from_affine(&g, &a);
        fr k = rand_fr();
        g1_jac_mul_vartime(&g, &g, &k);
        g1_jac_to_affine(p, &g);
    }
    static void add(A *r, const A *p, const A *q) {
        J a, b;
        g1_jac_from_affine(&a, p);
        g1_jac_from_affine(&b, q);
        g1_jac_add_vartime(&a, &a, &b);
        g1_jac_to_affine(r, &a);
    }
    static void neg(A *r, const A *p) { g1_affine_neg(r, p); }
    static int equal(const A *a, const A *b) { return g1_affine_equal(a, b); }
    static int is_inf(const A *a) { return g1_affine_is_infinity(a); }
    static void set_inf(A *a) { g1_affine_set_infinity(a); }
};

struct ops_fp2 {
    typedef fp2 C;
    typedef g2_affine A;
    typedef g2_jac J;
    static void mul(C *r, const C *a, const C *b) { fp2_mul(r, a, b); }
    static void inv(C *r, const C *a) { fp2_inv(r, a); }
    static C rnd() { return rand_fp2(); }
    static void random_point(A *p) {
        J g;
        A a;
        g2_affine_generator(&a);
        g2_jac_from_affine(&g, &a);
        fr k = rand_fr();
        g2_jac_mul_vartime(&g, &g, &k);
        g2_jac_to_affine(p, &g);
    }
    static void add(A *r, const A *p, const A *q) {
        J a, b;
        g2_jac_from_affine(&a, p);
        g2_jac_from_affine(&b, q);
        g2_jac_add_vartime(&a, &a, &b);
        g2_jac_to_affine(r, &a);
    }
    static void neg(A *r, const A *p) { g2_affine_neg(r, p); }
    static int equal(const A *a, const A *b) { return g2_affine_equal(a, b); }
    static int is_inf(const A *a) { return g2_affine_is_infinity(a); }
    static void set_inf(A *a) { g2_affine_set_infinity(a); }
};

// XYZZ of affine a with a random z: ZZ = z^2, ZZZ = z^3, X = x ZZ, Y = y ZZZ.
template <class O, class F> xyzz<F> to_xyzz(const typename O::A &a) {
    typedef typename O::C C;
    static_assert(sizeof(C) == sizeof(F), "same bytes on both sides");
    C c[4];
    if (O::is_inf(&a)) {
        memset(c, 0, sizeof c);
    } else {
        C z = O::rnd();
        O::mul(&c[2], &z, &z);
        O::mul(&c[3], &c[2], &z);
        O::mul(&c[0], &a.x, &c[2]);
        O::mul(&c[1], &a.y, &c[3]);
    }
    xyzz<F> r;
    memcpy(&r, c, sizeof r);
    return r;
}

template <class O, class F> typename O::A to_affine(const xyzz<F> &p) {
    typedef typename O::C C;
    C c[4];
    memcpy(c, &p, sizeof c);
    typename O::A a;
    if (x_is_inf(p)) {
        O::set_inf(&a);
        return a;
    }
    C i;
    O::inv(&i, &c[2]);
    O::mul(&a.x, &c[0], &i);
    O::inv(&i, &c[3]);
    O::mul(&a.y, &c[1], &i);
    return a;
}

// One case: returns the number of failures (0 to 9).  The doubling case
// doubles q where x_add doubles p: the same point in other coordinates,
// so only there the bytes may differ.
template <class O, class F>
int one(const typename O::A &pa, const typename O::A &qa, bool dbl, const char *what) {
    xyzz<F> p = to_xyzz<O, F>(pa), q = to_xyzz<O, F>(qa);
    xyzz<F> r1 = p, r2 = p;
    x_add(r1, q);
    x_add_mem(r2, &q);
    typename O::A want, got1 = to_affine<O, F>(r1), got2 = to_affine<O, F>(r2);
    O::add(&want, &pa, &qa);
    int bad = (!dbl && memcmp(&r1, &r2, sizeof r1) != 0) + !O::equal(&got1, &want) +
              !O::equal(&got2, &want);
    // the mixed additions: q affine (the bases' layout), added and subtracted
    affine<F> qf, nqf;
    typename O::A nqa, want_sub;
    static_assert(sizeof(qf) == sizeof(qa), "affine layout");
    memcpy(&qf, &qa, sizeof qf);
    O::neg(&nqa, &qa);
    memcpy(&nqf, &nqa, sizeof nqf);
    O::add(&want_sub, &pa, &nqa);
    xyzz<F> m1 = p, m2 = p, m3 = p, m4 = p;
    x_add_aff(m1, qf);
    x_add_aff_mem(m2, &qf, false);
    x_add_aff(m3, nqf);
    x_add_aff_mem(m4, &qf, true);
    typename O::A g3 = to_affine<O, F>(m1), g4 = to_affine<O, F>(m2), g5 = to_affine<O, F>(m3),
                  g6 = to_affine<O, F>(m4);
    bad += (memcmp(&m1, &m2, sizeof m1) != 0) + (memcmp(&m3, &m4, sizeof m3) != 0) +
           !O::equal(&g3, &want) + !O::equal(&g4, &want) + !O::equal(&g5, &want_sub) +
           !O::equal(&g6, &want_sub);
    if (bad)
        fprintf(stderr, "%s: %d failures\n", what, bad);
    return bad;
}

template <class O, class F> void run(const char *name, int n) {
    int bad = 0, cases = 0;
    typename O::A inf;
    O::set_inf(&inf);
    for (int k = 0; k < n; k++) {
        typename O::A p, q, nq;
        O::random_point(&p);
        O::random_point(&q);
        O::neg(&nq, &p);
        bad += one<O, F>(p, q, false, "p + q");
        bad += one<O, F>(p, inf, false, "p + infinity");
        bad += one<O, F>(inf, q, false, "infinity + q");
        bad += one<O, F>(p, p, true, "p + p (different z)");
        bad += one<O, F>(p, nq, false, "p - p");
        bad += one<O, F>(nq, p, false, "-p + p");
        bad += one<O, F>(inf, inf, false, "infinity + infinity");
        cases += 7;
    }
    CHECK(bad == 0);
    printf("%s: %d additions, x_add, x_add_mem, x_add_aff, x_add_aff_mem "
           "against the CPU: %d failures\n",
           name, cases, bad);
}

} // namespace

int main() {
    check_seed("cuda_curve_model");
    run<ops_fp, dfp>("G1", 200);
    run<ops_fp2, dfp2>("G2", 100);
    return check_finish();
}
