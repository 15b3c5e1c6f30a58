/* MSM: against naive double-and-add on small sizes with edge scalars, window
 * sizes and thread counts against each other, the density form against the
 * dense form with zeroed scalars, bucket conflicts (which send points to
 * Jacobian buckets) against plain sums, and error reporting. */
#include "check.h"
#include "field/constants.h"
#include "msm/msm.h"

static void rand_scalar(uint8_t out[32]) {
    uint8_t b[32];
    check_rand_bytes(b, 32);
    fr k;
    fr_from_bytes_le_reduce(&k, b);
    fr_to_bytes_le(out, &k);
}

static void set_small(uint8_t out[32], uint64_t v) {
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

static void set_r_minus(uint8_t out[32], uint64_t v) {
    fr t;
    fr_set_u64(&t, v);
    fr_neg(&t, &t);
    fr_to_bytes_le(out, &t);
}

/* Scalars with a mix of edge values; kind 0: random, 1: bit-heavy. */
static void fill_scalars(uint8_t *s, size_t n, int bit_heavy) {
    for (size_t i = 0; i < n; i++) {
        uint64_t r = check_rand64() % 100;
        uint8_t *k = s + 32 * i;
        if (bit_heavy && r < 45)
            set_small(k, 0);
        else if (bit_heavy && r < 90)
            set_small(k, 1);
        else if (r < 3)
            set_small(k, 0);
        else if (r < 6)
            set_small(k, 1);
        else if (r < 8)
            set_r_minus(k, 1);
        else if (r < 10)
            set_small(k, 2 + check_rand64() % 1000);
        else
            rand_scalar(k);
    }
}

/* ---- G1 ---------------------------------------------------------------------- */

static g1_affine *g1_bases(size_t n) {
    /* random multiples, chained by additions so large n stays cheap */
    g1_affine *b = malloc((n ? n : 1) * sizeof *b);
    g1_jac *j = malloc((n ? n : 1) * sizeof *j);
    g1_affine g;
    g1_affine_generator(&g);
    g1_jac step, cur;
    uint8_t k[32];
    rand_scalar(k);
    fr kf;
    fr_from_bytes_le(&kf, k);
    g1_jac_from_affine(&cur, &g);
    g1_jac_mul_vartime(&step, &cur, &kf);
    for (size_t i = 0; i < n; i++) {
        if (i % 97 == 0) {
            rand_scalar(k);
            fr_from_bytes_le(&kf, k);
            g1_jac_mul_vartime(&cur, &cur, &kf);
        }
        g1_jac_add_vartime(&cur, &cur, &step);
        j[i] = cur;
    }
    g1_jac_batch_to_affine(b, j, n);
    free(j);
    return b;
}

static void g1_naive(g1_jac *out, const g1_affine *b, const uint8_t *s, size_t n) {
    g1_jac_set_infinity(out);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        memcpy(k, s + 32 * i, 32);
        g1_jac p;
        g1_jac_from_affine(&p, &b[i]);
        g1_jac_mul_raw_vartime(&p, &p, k, 4);
        g1_jac_add_vartime(out, out, &p);
    }
}

static int g1_run(g1_jac *out, const g1_affine *b, const uint8_t *s, size_t n, unsigned threads,
                  unsigned c) {
    msm_config cfg = {threads, c};
    msm_stats st;
    return msm_g1(out, b, s, n, &cfg, &st, NULL) == MSM_OK;
}

static void test_g1_against_naive(void) {
    static const size_t sizes[] = {0, 1, 2, 3, 7, 64, 300, 1500};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        for (int heavy = 0; heavy < 2; heavy++) {
            g1_affine *b = g1_bases(n);
            uint8_t *s = malloc(32 * (n ? n : 1));
            fill_scalars(s, n, heavy);
            if (n >= 7) { /* a repeated base, a base with its negative, an infinity */
                b[3] = b[2];
                g1_affine_neg(&b[4], &b[2]);
                g1_affine_set_infinity(&b[5]);
            }
            g1_jac want, got;
            g1_naive(&want, b, s, n);
            /* c = 16 (32768 buckets a window) is exercised in the large test */
            static const unsigned windows[] = {0, 1, 3, 8, 12};
            for (size_t w = 0; w < 5; w++)
                for (unsigned threads = 1; threads <= 3; threads++) {
                    CHECK(g1_run(&got, b, s, n, threads, windows[w]));
                    CHECK(g1_jac_equal(&got, &want));
                }
            free(b);
            free(s);
        }
    }
}

static void test_g1_result_at_infinity(void) {
    /* k P + (r - k) P + 3 Q + (r - 3) Q = 0 */
    g1_affine *b = g1_bases(4);
    uint8_t s[4 * 32];
    rand_scalar(s);
    fr k;
    fr_from_bytes_le(&k, s);
    fr_neg(&k, &k);
    fr_to_bytes_le(s + 32, &k);
    set_small(s + 64, 3);
    set_r_minus(s + 96, 3);
    b[1] = b[0];
    b[3] = b[2];
    g1_jac got;
    CHECK(g1_run(&got, b, s, 4, 1, 0));
    CHECK(g1_jac_is_infinity(&got));
    free(b);
}

static void test_g1_switches_large(void) {
    /* big enough for several chunks per window and the automatic window */
    size_t n = 40000;
    g1_affine *b = g1_bases(n);
    uint8_t *s = malloc(32 * n);
    fill_scalars(s, n, 0);
    g1_jac ref, got;
    CHECK(g1_run(&ref, b, s, n, 1, 11)); /* other windows split the scalars otherwise */
    CHECK(g1_run(&got, b, s, n, 1, 0));
    CHECK(g1_jac_equal(&got, &ref));
    CHECK(g1_run(&got, b, s, n, 4, 0));
    CHECK(g1_jac_equal(&got, &ref));
    CHECK(g1_run(&got, b, s, n, 2, 16));
    CHECK(g1_jac_equal(&got, &ref));
    /* bit-heavy */
    fill_scalars(s, n, 1);
    CHECK(g1_run(&ref, b, s, n, 1, 9));
    CHECK(g1_run(&got, b, s, n, 2, 0));
    CHECK(g1_jac_equal(&got, &ref));
    /* conflicts: every scalar 2 or 3 puts all points in two buckets (the
     * queue overflows into Jacobian buckets); against 2 even + 3 odd, the
     * plain sums of the even- and odd-indexed points */
    g1_jac even, odd, p;
    g1_jac_set_infinity(&even);
    g1_jac_set_infinity(&odd);
    for (size_t i = 0; i < n; i++) {
        set_small(s + 32 * i, 2 + (i & 1));
        g1_jac_from_affine(&p, &b[i]);
        g1_jac_add_vartime(i & 1 ? &odd : &even, i & 1 ? &odd : &even, &p);
    }
    g1_jac_add_vartime(&ref, &even, &odd);
    g1_jac_dbl(&ref, &ref);
    g1_jac_add_vartime(&ref, &ref, &odd);
    CHECK(g1_run(&got, b, s, n, 1, 4));
    CHECK(g1_jac_equal(&got, &ref));
    free(b);
    free(s);
}

static void test_g1_masked(void) {
    size_t n = 5000;
    g1_affine *dense_b = g1_bases(n);
    uint8_t *s = malloc(32 * n), *zeroed = malloc(32 * n);
    uint64_t density[(5000 + 63) / 64] = {0};
    fill_scalars(s, n, 1);
    g1_affine *compact = malloc(n * sizeof *compact);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        int on = check_rand64() % 4 != 0;
        memcpy(zeroed + 32 * i, s + 32 * i, 32);
        if (on) {
            density[i / 64] |= 1ull << (i % 64);
            compact[m++] = dense_b[i];
        } else {
            memset(zeroed + 32 * i, 0, 32);
        }
    }
    g1_jac want, got;
    msm_config cfg = msm_config_default(2);
    CHECK(msm_g1(&want, dense_b, zeroed, n, &cfg, NULL, NULL) == MSM_OK);
    CHECK(msm_g1_masked(&got, compact, s, density, n, &cfg, NULL, NULL) == MSM_OK);
    CHECK(g1_jac_equal(&got, &want));
    free(dense_b);
    free(compact);
    free(s);
    free(zeroed);
}

static void test_errors(void) {
    g1_affine *b = g1_bases(10);
    uint8_t s[10 * 32];
    fill_scalars(s, 10, 0);
    memcpy(s + 32 * 7, FR_MODULUS_RAW.l, 32); /* = r */
    g1_jac out;
    size_t bad = 0;
    msm_config cfg = msm_config_default(1);
    CHECK(msm_g1(&out, b, s, 10, &cfg, NULL, &bad) == MSM_ERR_SCALAR_NOT_CANONICAL);
    CHECK(bad == 7);
    memset(s + 32 * 7, 0xff, 32);
    CHECK(msm_g1(&out, b, s, 10, &cfg, NULL, &bad) == MSM_ERR_SCALAR_NOT_CANONICAL);
    CHECK(strcmp(msm_status_str(MSM_ERR_SCALAR_NOT_CANONICAL), "ok") != 0);
    free(b);
}

/* ---- G2 (same template; fewer and smaller cases) ---------------------------- */

static void test_g2(void) {
    size_t n = 200;
    g2_affine *b = malloc(n * sizeof *b);
    g2_jac *j = malloc(n * sizeof *j), cur, step;
    g2_affine g;
    g2_affine_generator(&g);
    g2_jac_from_affine(&cur, &g);
    fr k;
    uint8_t kb[32];
    rand_scalar(kb);
    fr_from_bytes_le(&k, kb);
    g2_jac_mul_vartime(&step, &cur, &k);
    for (size_t i = 0; i < n; i++) {
        g2_jac_add_vartime(&cur, &cur, &step);
        j[i] = cur;
    }
    g2_jac_batch_to_affine(b, j, n);
    b[3] = b[2];
    g2_affine_neg(&b[4], &b[2]);
    g2_affine_set_infinity(&b[5]);
    uint8_t *s = malloc(32 * n);
    for (int heavy = 0; heavy < 2; heavy++) {
        fill_scalars(s, n, heavy);
        g2_jac want, got, p;
        g2_jac_set_infinity(&want);
        for (size_t i = 0; i < n; i++) {
            uint64_t kk[4];
            memcpy(kk, s + 32 * i, 32);
            g2_jac_from_affine(&p, &b[i]);
            g2_jac_mul_raw_vartime(&p, &p, kk, 4);
            g2_jac_add_vartime(&want, &want, &p);
        }
        for (unsigned c = 0; c <= 12; c += 4) {
            msm_config cfg = {2, c};
            CHECK(msm_g2(&got, b, s, n, &cfg, NULL, NULL) == MSM_OK);
            CHECK(g2_jac_equal(&got, &want));
        }
    }
    free(b);
    free(j);
    free(s);
}

int main(void) {
    check_seed("test_msm");
    test_g1_against_naive();
    test_g1_result_at_infinity();
    test_g1_switches_large();
    test_g1_masked();
    test_errors();
    test_g2();
    return check_finish();
}
