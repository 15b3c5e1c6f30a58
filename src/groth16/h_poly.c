/* H = (A B - C) / Z evaluated on the coset 7<omega>, back to coefficients.
 * Order plan: iNTT natural -> bit-reversed, coset NTT bit-reversed -> natural,
 * so the first two transforms need no permutation pass; the coset iNTT ends
 * in natural order because the H MSM pairs h_i with params.h[i].
 *
 * C once: interpolation on the coset is linear and gives back C itself
 * (degree < m), and Z is the constant g^m - 1 there, so
 *   H = (interp_coset(A B) - C) / Z:
 * C needs only its iNTT, six transforms instead of seven, and the same H;
 * the division by Z comes last, with the subtraction, in one pass (the
 * seven-transform way was the h_c_once switch's other side, retired; the
 * test keeps it as the reference). */
#include "groth16/h_poly.h"

#include <string.h>

#include "field/constants.h"
#include "util/parallel.h"
#include "util/timing.h"

int h_poly_log_domain(size_t rows) {
    int k = 0;
    while (((size_t)1 << k) < rows) {
        if (++k > NTT_MAX_LOG_N)
            return -1;
    }
    return k; /* k = 0 (one row): m = 1 and H is empty, no transform needed */
}

typedef struct {
    fr *a;
    const fr *b;
    size_t n;
} pointwise_job;

#define PW_CHUNK 16384

/* a = a b */
static void pointwise_task(void *ctx, size_t task, unsigned worker) {
    pointwise_job *j = ctx;
    (void)worker;
    size_t end = (task + 1) * PW_CHUNK < j->n ? (task + 1) * PW_CHUNK : j->n;
    for (size_t i = task * PW_CHUNK; i < end; i++) {
        fr_mul(&j->a[i], &j->a[i], &j->b[i]);
    }
}

typedef struct {
    fr *h;
    const fr *c;
    fr zinv;
    size_t n;
} sub_c_job;

/* h = (h - c) / Z (c: C's coefficients, natural order) */
static void sub_c_task(void *ctx, size_t task, unsigned worker) {
    sub_c_job *j = ctx;
    (void)worker;
    size_t end = (task + 1) * PW_CHUNK < j->n ? (task + 1) * PW_CHUNK : j->n;
    for (size_t i = task * PW_CHUNK; i < end; i++) {
        fr_sub(&j->h[i], &j->h[i], &j->c[i]);
        fr_mul(&j->h[i], &j->h[i], &j->zinv);
    }
}

ntt_status h_poly_compute(fr *a, fr *b, fr *c, size_t rows, const ntt_domain *d, unsigned threads,
                          h_poly_timing *timing) {
    size_t m = d->n;
    h_poly_timing t = {0};
    fr g;
    fr_set_u64(&g, FR_GENERATOR);
    fr *v[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        memset(v[i] + rows, 0, (m - rows) * sizeof(fr));
    double t0 = timing_now_ms();
    ntt_status st = NTT_OK;
    for (int i = 0; i < 3 && st == NTT_OK; i++) /* C natural -> natural */
        st = ntt_inverse(v[i], d, i == 2 ? NTT_NN : NTT_NR, threads);
    double t1 = timing_now_ms();
    for (int i = 0; i < 2 && st == NTT_OK; i++)
        st = ntt_coset_forward(v[i], d, &g, NTT_RN, threads);
    double t2 = timing_now_ms();
    if (st == NTT_OK) {
        pointwise_job j = {a, b, m};
        par_run(threads, (m + PW_CHUNK - 1) / PW_CHUNK, pointwise_task, &j);
    }
    double t3 = timing_now_ms();
    if (st == NTT_OK)
        st = ntt_coset_inverse(a, d, &g, NTT_NN, threads);
    if (st == NTT_OK) {
        sub_c_job j = {a, c, {{0}}, m};
        st = ntt_vanishing_on_coset_inv(&j.zinv, d, &g);
        if (st == NTT_OK)
            par_run(threads, (m + PW_CHUNK - 1) / PW_CHUNK, sub_c_task, &j);
    }
    double t4 = timing_now_ms();
    t.intt_ms = t1 - t0;
    t.coset_ntt_ms = t2 - t1;
    t.pointwise_ms = t3 - t2;
    t.coset_intt_ms = t4 - t3;
    if (timing)
        *timing = t;
    return st;
}
