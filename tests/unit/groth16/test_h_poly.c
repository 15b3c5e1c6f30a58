/* The H step (groth16/h_poly.c: C through its inverse transform only,
 * subtracted after the coset iNTT) against bellperson's seven-transform way,
 * written out here from the NTT layer's pieces: the same coefficients for any
 * a, b, c, at every size from 2 to 2^12, with rows < m and rows = m.
 * Independently of both: when a b = c
 * on the domain, H Z = A B - C at a random point (A, B, C interpolated here
 * by the plain iNTT and evaluated by Horner) and H's top coefficient is 0. */
#include "check.h"
#include "field_rand.h"
#include "groth16/h_poly.h"
#include "field/constants.h"

/* p(x) for coefficients p[0..n-1] */
static fr horner(const fr *p, size_t n, const fr *x) {
    fr r;
    fr_set_zero(&r);
    for (size_t i = n; i-- > 0;) {
        fr_mul(&r, &r, x);
        fr_add(&r, &r, &p[i]);
    }
    return r;
}

/* The seven-transform way: each of A, B, C to its coset evaluations, (a b -
 * c) / Z pointwise, one coset iNTT (natural order throughout). */
static void h_seven(fr *x, fr *y, fr *z, const ntt_domain *d) {
    fr g;
    fr_set_u64(&g, FR_GENERATOR);
    fr *v[3] = {x, y, z};
    for (int i = 0; i < 3; i++) {
        CHECK(ntt_inverse(v[i], d, NTT_NN, 2) == NTT_OK);
        CHECK(ntt_coset_forward(v[i], d, &g, NTT_NN, 2) == NTT_OK);
    }
    for (size_t i = 0; i < d->n; i++) {
        fr_mul(&x[i], &x[i], &y[i]);
        fr_sub(&x[i], &x[i], &z[i]);
    }
    CHECK(ntt_divide_by_vanishing_on_coset(x, d, &g, 2) == NTT_OK);
    CHECK(ntt_coset_inverse(x, d, &g, NTT_NN, 2) == NTT_OK);
}

/* H from rows evaluations (copies; the originals stay): h_poly_compute, or
 * (seven) the reference above */
static fr *h_of(const fr *a, const fr *b, const fr *c, size_t rows, const ntt_domain *d,
                int seven) {
    size_t m = d->n;
    fr *x = calloc(m, sizeof *x), *y = calloc(m, sizeof *y), *z = calloc(m, sizeof *z);
    memcpy(x, a, rows * sizeof *x);
    memcpy(y, b, rows * sizeof *y);
    memcpy(z, c, rows * sizeof *z);
    if (seven)
        h_seven(x, y, z, d);
    else
        CHECK(h_poly_compute(x, y, z, rows, d, 2, NULL) == NTT_OK);
    free(y);
    free(z);
    return x;
}

static int check_size(unsigned lg, size_t rows, int satisfied) {
    size_t m = (size_t)1 << lg;
    ntt_domain d;
    CHECK(ntt_domain_init(&d, lg, 2) == NTT_OK);
    fr *a = calloc(m, sizeof *a), *b = calloc(m, sizeof *b), *c = calloc(m, sizeof *c);
    for (size_t i = 0; i < rows; i++) {
        a[i] = rand_fr();
        b[i] = rand_fr();
        if (satisfied)
            fr_mul(&c[i], &a[i], &b[i]);
        else
            c[i] = rand_fr();
    }
    fr *h1 = h_of(a, b, c, rows, &d, 0), *h0 = h_of(a, b, c, rows, &d, 1);
    int bad = memcmp(h1, h0, m * sizeof *h1) != 0;
    if (satisfied) {
        /* A, B, C as polynomials: the plain iNTT of the zero-padded rows */
        CHECK(ntt_inverse(a, &d, NTT_NN, 2) == NTT_OK);
        CHECK(ntt_inverse(b, &d, NTT_NN, 2) == NTT_OK);
        CHECK(ntt_inverse(c, &d, NTT_NN, 2) == NTT_OK);
        fr x = rand_fr(), xm = x, one, z, lhs, rhs, t;
        for (unsigned i = 0; i < lg; i++)
            fr_mul(&xm, &xm, &xm);
        fr_set_one(&one);
        fr_sub(&z, &xm, &one); /* Z(x) = x^m - 1 */
        lhs = horner(h1, m, &x);
        fr_mul(&lhs, &lhs, &z);
        rhs = horner(a, m, &x);
        t = horner(b, m, &x);
        fr_mul(&rhs, &rhs, &t);
        t = horner(c, m, &x);
        fr_sub(&rhs, &rhs, &t);
        bad += !fr_equal(&lhs, &rhs);
        bad += !fr_is_zero(&h1[m - 1]);
    }
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr, "H 2^%u, %zu rows%s: %d failures\n", lg, rows, satisfied ? ", a b = c" : "",
                bad);
    free(h0);
    free(h1);
    free(a);
    free(b);
    free(c);
    ntt_domain_destroy(&d);
    return bad;
}

int main(void) {
    check_seed("test_h_poly");
    int bad = 0, cases = 0;
    for (unsigned lg = 1; lg <= 12; lg++) {
        size_t m = (size_t)1 << lg;
        size_t few = m > 2 ? m - 1 - (size_t)(check_rand64() % (m / 2)) : m;
        for (int sat = 0; sat <= 1; sat++) {
            bad += check_size(lg, m, sat);
            bad += check_size(lg, few, sat);
            cases += 2;
        }
    }
    printf("H step against the seven-transform way, 2^1..2^12: %d cases, %d failures\n", cases,
           bad);
    return check_finish();
}
