/* NTT: every size 2^1 .. 2^10 against a naive O(n^2) evaluation (with roots
 * computed here from 7^((r-1)/n), not taken from the domain), under the
 * default plan and under tunings that force many small passes, so the column
 * passes are checked against the naive answer too; coset forms against
 * naive evaluation at g omega^k; bit-reversed orders against natural order
 * plus an explicit permutation; round trips up to 2^22; identical results
 * for 1..4 threads; the element-wise helpers and Z on a coset.  The naive
 * comparison and small round trips run again on the portable field path.
 * usage: test_ntt [max_log]  (largest round trip, default 22) */
#include <stdlib.h>

#include "check.h"
#include "field_rand.h"
#include "field/constants.h"
#include "field/fp.h"
#include "field/fr.h"
#include "ntt/ntt.h"

static fr *alloc_vec(size_t n) {
    fr *v = malloc(n * sizeof(fr));
    if (!v) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return v;
}

/* Any four limbs below r are a valid (Montgomery-form) element: no multiply
 * per element, which matters for 2^22 of them under ASan. */
static void fill_random(fr *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++)
            v[i].l[k] = check_rand64();
        v[i].l[3] &= 0x3fffffffffffffffULL; /* < 2^254 < r */
    }
}

static int vec_equal(const fr *a, const fr *b, size_t n) {
    return memcmp(a, b, n * sizeof(fr)) == 0; /* reduced Montgomery form is canonical */
}

static fr fr_u64(uint64_t v) {
    fr r;
    fr_set_u64(&r, v);
    return r;
}

static fr pow_u64(const fr *a, uint64_t e) {
    fr r;
    fr_pow_vartime(&r, a, &e, 1);
    return r;
}

/* 7^((r-1)/2^log_n), straight from the definition. */
static fr root_by_definition(unsigned log_n) {
    uint64_t e[4];
    memcpy(e, FR_MODULUS_RAW.l, sizeof e); /* r as a plain integer */
    e[0] -= 1;                             /* r is odd: no borrow */
    for (unsigned k = 0; k < log_n; k++) {
        for (int i = 0; i < 3; i++)
            e[i] = (e[i] >> 1) | (e[i + 1] << 63);
        e[3] >>= 1;
    }
    fr seven = fr_u64(7), w;
    fr_pow_vartime(&w, &seven, e, 4);
    return w;
}

/* out[k] = sum_j a_j (x0 step^k)^j, by Horner. */
static void naive_eval(fr *out, const fr *a, size_t n, const fr *x0, const fr *step) {
    fr x = *x0;
    for (size_t k = 0; k < n; k++) {
        fr acc;
        fr_set_zero(&acc);
        for (size_t j = n; j-- > 0;) {
            fr_mul(&acc, &acc, &x);
            fr_add(&acc, &acc, &a[j]);
        }
        out[k] = acc;
        fr_mul(&x, &x, step);
    }
}

/* The naive inverse of naive_eval: a_j = n^-1 x0^-j sum_k A_k step^(-jk). */
static void naive_inverse(fr *out, const fr *A, size_t n, const fr *x0, const fr *step) {
    fr one, step_inv, x0_inv, ninv = fr_u64(n), f;
    fr_set_one(&one);
    fr_inv(&step_inv, step);
    fr_inv(&x0_inv, x0);
    fr_inv(&ninv, &ninv);
    naive_eval(out, A, n, &one, &step_inv);
    f = ninv;
    for (size_t j = 0; j < n; j++) {
        fr_mul(&out[j], &out[j], &f);
        fr_mul(&f, &f, &x0_inv);
    }
}

static size_t bitrev(size_t i, unsigned bits) {
    size_t r = 0;
    for (unsigned k = 0; k < bits; k++)
        r |= ((i >> k) & 1) << (bits - 1 - k);
    return r;
}

static void permute_copy(fr *out, const fr *in, unsigned log_n) {
    size_t n = (size_t)1 << log_n;
    for (size_t i = 0; i < n; i++)
        out[bitrev(i, log_n)] = in[i];
}

/* Tunings: the default, and plans of many tiny passes over small domains. */
static const ntt_tuning tunings[] = {
    {0, 0, 0, 0}, /* placeholder: the domain's default */
    {1, 1, 1, 0}, /* one stage per pass */
    {2, 3, 2, 0}, /* blocks of 4, column passes of up to 8 rows */
    {3, 2, 4, 0}, /* more column passes than block stages */
    {4, 5, 3, 0}, /* 3 columns: cut to a divisor of the stride */
    {3, 4, 0, 0}, /* the automatic column count */
};
#define N_TUNINGS (sizeof tunings / sizeof tunings[0])

typedef enum { FWD, INV, COSET_FWD, COSET_INV } kind;

static ntt_status apply(kind k, fr *a, const ntt_domain *d, const fr *g, ntt_order o,
                        unsigned threads) {
    switch (k) {
    case FWD:
        return ntt_forward(a, d, o, threads);
    case INV:
        return ntt_inverse(a, d, o, threads);
    case COSET_FWD:
        return ntt_coset_forward(a, d, g, o, threads);
    case COSET_INV:
        return ntt_coset_inverse(a, d, g, o, threads);
    }
    return NTT_ERR_SIZE;
}

/* Runs transform k on input in every order, tuning and thread count and
 * compares with want (natural order): NR output permuted back, RN input
 * permuted first. */
static void check_all_orders(ntt_domain *d, kind k, const fr *g, const fr *in, const fr *want,
                             int all_tunings) {
    size_t n = d->n;
    fr *a = alloc_vec(n), *t = alloc_vec(n);
    ntt_tuning def = d->tune;
    for (size_t tu = 0; tu < (all_tunings ? N_TUNINGS : 2); tu++) {
        d->tune = tu == 0 ? def : tunings[tu];
        for (unsigned threads = 1; threads <= (tu == 0 ? 1u : 3u); threads += 2) {
            memcpy(a, in, n * sizeof(fr));
            CHECK(apply(k, a, d, g, NTT_NN, threads) == NTT_OK);
            CHECK(vec_equal(a, want, n));

            memcpy(a, in, n * sizeof(fr));
            CHECK(apply(k, a, d, g, NTT_NR, threads) == NTT_OK);
            permute_copy(t, a, d->log_n);
            CHECK(vec_equal(t, want, n));

            permute_copy(a, in, d->log_n);
            CHECK(apply(k, a, d, g, NTT_RN, threads) == NTT_OK);
            CHECK(vec_equal(a, want, n));
        }
    }
    d->tune = def;
    free(a);
    free(t);
}

static void test_domain(void) {
    ntt_domain d;
    CHECK(ntt_domain_init(&d, 0, 1) == NTT_ERR_SIZE);
    CHECK(ntt_domain_init(&d, NTT_MAX_LOG_N + 1, 1) == NTT_ERR_SIZE);
    CHECK(ntt_domain_init(&d, 64, 1) == NTT_ERR_SIZE);
    ntt_domain_destroy(&d); /* harmless after a failed init */
    for (unsigned L = 1; L <= 16; L++) {
        CHECK(ntt_domain_init(&d, L, 2) == NTT_OK);
        fr w = root_by_definition(L), t, one;
        fr_set_one(&one);
        CHECK(d.n == (size_t)1 << L && d.log_n == L);
        CHECK(fr_equal(&d.omega, &w));
        fr_mul(&t, &d.omega, &d.omega_inv);
        CHECK(fr_is_one(&t));
        t = fr_u64(d.n);
        fr_mul(&t, &t, &d.n_inv);
        CHECK(fr_is_one(&t));
        t = pow_u64(&w, d.n / 2);
        fr_add(&t, &t, &one);
        CHECK(fr_is_zero(&t)); /* primitive: omega^(n/2) = -1 */
        CHECK(fr_is_one(&d.powers[0]));
        for (int k = 0; k < 8; k++) {
            size_t e = (size_t)(check_rand64() % (d.n / 2 + 1));
            t = pow_u64(&w, e);
            CHECK(fr_equal(&d.powers[e], &t));
        }
        ntt_domain_destroy(&d);
    }
}

static void test_against_naive(unsigned max_log) {
    for (unsigned L = 1; L <= max_log; L++) {
        ntt_domain d;
        CHECK(ntt_domain_init(&d, L, 1) == NTT_OK);
        size_t n = d.n;
        fr w = root_by_definition(L), one, g7 = fr_u64(FR_GENERATOR), gr = rand_fr();
        fr_set_one(&one);
        fr *in = alloc_vec(n), *want = alloc_vec(n);
        for (int input = 0; input < 5; input++) {
            switch (input) {
            case 0: /* zeros */
                memset(in, 0, n * sizeof(fr));
                break;
            case 1: /* a single 1 at 0: all ones out */
            case 2: /* a single 1 elsewhere */
                memset(in, 0, n * sizeof(fr));
                in[input == 1 ? 0 : check_rand64() % n] = one;
                break;
            case 3: /* all ones: n at 0, zeros elsewhere */
                for (size_t i = 0; i < n; i++)
                    in[i] = one;
                break;
            default:
                fill_random(in, n);
            }
            naive_eval(want, in, n, &one, &w);
            if (input == 1)
                for (size_t i = 0; i < n; i++)
                    CHECK(fr_is_one(&want[i]));
            check_all_orders(&d, FWD, NULL, in, want, input == 4);
            naive_inverse(want, in, n, &one, &w);
            check_all_orders(&d, INV, NULL, in, want, input == 4);
            if (L <= 8 && input >= 3) {
                const fr *gs[2] = {&g7, &gr};
                for (int gi = 0; gi < 2; gi++) {
                    naive_eval(want, in, n, gs[gi], &w);
                    check_all_orders(&d, COSET_FWD, gs[gi], in, want, input == 4);
                    naive_inverse(want, in, n, gs[gi], &w);
                    check_all_orders(&d, COSET_INV, gs[gi], in, want, input == 4);
                }
            }
        }
        free(in);
        free(want);
        ntt_domain_destroy(&d);
    }
}

/* A_k for one k by Horner: the spot check for domains too big for naive. */
static fr eval_at(const fr *a, size_t n, const fr *x) {
    fr acc;
    fr_set_zero(&acc);
    for (size_t j = n; j-- > 0;) {
        fr_mul(&acc, &acc, x);
        fr_add(&acc, &acc, &a[j]);
    }
    return acc;
}

/* Round trips with spot checks against direct evaluation: every size from
 * 2^11 to 2^18 in all forms, then 2^20 and 2^max_log once (the ASan budget). */
static void test_round_trips(unsigned max_log) {
    fr g7 = fr_u64(FR_GENERATOR);
    for (unsigned L = 11; L <= max_log; L++) {
        int full = L <= 18;
        if (!full && L != 20 && L != max_log)
            continue;
        ntt_domain d;
        CHECK(ntt_domain_init(&d, L, 2) == NTT_OK);
        size_t n = d.n;
        fr *x = alloc_vec(n), *a = alloc_vec(n);
        fill_random(x, n);
        memcpy(a, x, n * sizeof(fr));
        unsigned threads = full ? 1 + L % 3 : 2;
        CHECK(ntt_forward(a, &d, NTT_NN, threads) == NTT_OK);
        for (int s = 0; s < 2; s++) {
            size_t k = check_rand64() % n;
            fr xk = pow_u64(&d.omega, k), want = eval_at(x, n, &xk);
            CHECK(fr_equal(&a[k], &want));
        }
        CHECK(ntt_inverse(a, &d, NTT_NN, threads) == NTT_OK);
        CHECK(vec_equal(a, x, n));
        if (full) {
            /* the prover's permutation-free chain, and the coset pair */
            CHECK(ntt_inverse(a, &d, NTT_NR, threads) == NTT_OK);
            CHECK(ntt_forward(a, &d, NTT_RN, threads) == NTT_OK);
            CHECK(vec_equal(a, x, n));
            CHECK(ntt_coset_forward(a, &d, &g7, NTT_NR, threads) == NTT_OK);
            size_t k = check_rand64() % n;
            fr xk = pow_u64(&d.omega, k);
            fr_mul(&xk, &xk, &g7);
            fr want = eval_at(x, n, &xk);
            CHECK(fr_equal(&a[bitrev(k, L)], &want));
            CHECK(ntt_coset_inverse(a, &d, &g7, NTT_RN, threads) == NTT_OK);
            CHECK(vec_equal(a, x, n));
        }
        free(x);
        free(a);
        ntt_domain_destroy(&d);
    }
}

/* Same output for 1..4 threads, default plan, every order and kind. */
static void test_threads(void) {
    static const unsigned sizes[] = {11, 12, 14, 16};
    fr g7 = fr_u64(FR_GENERATOR);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        ntt_domain d;
        CHECK(ntt_domain_init(&d, sizes[si], 3) == NTT_OK);
        size_t n = d.n;
        fr *x = alloc_vec(n), *ref = alloc_vec(n), *a = alloc_vec(n);
        fill_random(x, n);
        for (int k = FWD; k <= COSET_INV; k++)
            for (int o = NTT_NN; o <= NTT_RN; o++) {
                memcpy(ref, x, n * sizeof(fr));
                CHECK(apply((kind)k, ref, &d, &g7, (ntt_order)o, 1) == NTT_OK);
                for (unsigned t = 2; t <= 4; t++) {
                    memcpy(a, x, n * sizeof(fr));
                    CHECK(apply((kind)k, a, &d, &g7, (ntt_order)o, t) == NTT_OK);
                    CHECK(vec_equal(a, ref, n));
                }
            }
        free(x);
        free(ref);
        free(a);
        ntt_domain_destroy(&d);
    }
}

static void test_helpers(void) {
    /* bit reversal, both the simple and the tiled path */
    for (unsigned L = 1; L <= 14; L++) {
        size_t n = (size_t)1 << L;
        fr *x = alloc_vec(n), *a = alloc_vec(n), *want = alloc_vec(n);
        fill_random(x, n);
        memcpy(a, x, n * sizeof(fr));
        ntt_bit_reverse(a, L, 1 + L % 3);
        permute_copy(want, x, L);
        CHECK(vec_equal(a, want, n));
        ntt_bit_reverse(a, L, 2);
        CHECK(vec_equal(a, x, n));
        free(x);
        free(a);
        free(want);
    }
    /* distribute powers, scale, and mul_powers over several chunks */
    size_t n = 10000;
    fr *x = alloc_vec(n), *a = alloc_vec(n);
    fr g = rand_fr(), c = rand_fr(), f;
    fill_random(x, n);
    memcpy(a, x, n * sizeof(fr));
    ntt_distribute_powers(a, n, &g, 3);
    fr_set_one(&f);
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        fr t;
        fr_mul(&t, &x[i], &f);
        ok &= fr_equal(&t, &a[i]);
        fr_mul(&f, &f, &g);
    }
    CHECK(ok);
    memcpy(a, x, n * sizeof(fr));
    ntt_scale(a, n, &c, 2);
    ok = 1;
    for (size_t i = 0; i < n; i++) {
        fr t;
        fr_mul(&t, &x[i], &c);
        ok &= fr_equal(&t, &a[i]);
    }
    CHECK(ok);
    memcpy(a, x, n * sizeof(fr));
    ntt_mul_powers(a, n, &c, &g, 4);
    f = c;
    ok = 1;
    for (size_t i = 0; i < n; i++) {
        fr t;
        fr_mul(&t, &x[i], &f);
        ok &= fr_equal(&t, &a[i]);
        fr_mul(&f, &f, &g);
    }
    CHECK(ok);
    free(x);
    free(a);

    /* Z on a coset: (g omega^k)^n - 1 is the same g^n - 1 for every k */
    ntt_domain d;
    CHECK(ntt_domain_init(&d, 6, 1) == NTT_OK);
    fr g7 = fr_u64(FR_GENERATOR), z, zinv, one, t, v[64];
    fr_set_one(&one);
    ntt_vanishing_on_coset(&z, &d, &g7);
    for (int k = 0; k < 64; k += 9) {
        fr p = pow_u64(&d.omega, (uint64_t)k);
        fr_mul(&p, &p, &g7);
        p = pow_u64(&p, 64);
        fr_sub(&p, &p, &one);
        CHECK(fr_equal(&p, &z));
    }
    CHECK(ntt_vanishing_on_coset_inv(&zinv, &d, &g7) == NTT_OK);
    fr_mul(&t, &z, &zinv);
    CHECK(fr_is_one(&t));
    for (int i = 0; i < 64; i++)
        v[i] = z;
    CHECK(ntt_divide_by_vanishing_on_coset(v, &d, &g7, 2) == NTT_OK);
    for (int i = 0; i < 64; i++)
        CHECK(fr_is_one(&v[i]));
    /* shifts inside the domain (g^n = 1) and g = 0 are refused, data untouched */
    fr w3 = pow_u64(&d.omega, 3), zero;
    fr_set_zero(&zero);
    CHECK(ntt_vanishing_on_coset_inv(&zinv, &d, &w3) == NTT_ERR_NOT_INVERTIBLE);
    CHECK(ntt_divide_by_vanishing_on_coset(v, &d, &w3, 1) == NTT_ERR_NOT_INVERTIBLE);
    CHECK(ntt_coset_inverse(v, &d, &zero, NTT_NN, 1) == NTT_ERR_NOT_INVERTIBLE);
    CHECK(fr_is_one(&v[0]) && fr_is_one(&v[63]));
    CHECK(ntt_status_str(NTT_ERR_NO_MEMORY)[0] != '\0');
    ntt_domain_destroy(&d);
}

int main(int argc, char **argv) {
    check_seed("test_ntt");
    /* argument: the largest round-trip size (default 2^22) */
    unsigned max_log = argc > 1 ? (unsigned)atoi(argv[1]) : 22;
    test_domain();
    test_helpers();
    test_against_naive(10);
    test_threads();
    test_round_trips(max_log);
    /* again on the portable C field path (no MULX/ADX, no ADC/SBB butterflies) */
    fp_asm_select(0);
    test_against_naive(7);
    test_round_trips(14);
    return check_finish();
}
