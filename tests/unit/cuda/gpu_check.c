/* GPU against CPU: field products, NTTs (every kind and order), the H step,
 * G1/G2 MSMs (random, bit-heavy, edge scalars, density bitmaps, equal bases)
 * and whole proofs (byte-identical to the CPU backend for the same r, s, and
 * verified), by the default prover and by one of its own on GPU 0.  Exits 77
 * (ctest: skipped) when no GPU is present.
 *   cuzk_gpu_check [max log MSM size] [max log NTT size] [noprove]   (defaults 14, 14) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "field_rand.h"
#include "cli/toy_circuits.h"
#include "cuda/cuda_backend.h"
#include "cuda/cuda_device.h"
#include "cuda/cuda_gpu.h"
#include "groth16/backend.h"
#include "util/switches.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "msm/msm.h"
#include "r1cs/cs.h"
#include "util/parallel.h"
#include "util/timing.h"

static unsigned g_threads;
/* The CUDA backend on GPU 0 (cuda_backend_open), as the CLI and the engine hold it. */
static const groth16_backend *g_be;

/* ---- random points, quickly: chunk j walks P_j, P_j + Q, P_j + 2Q, ... ---- */
typedef struct {
    g1_affine *g1;
    g2_affine *g2;
    size_t n;
    fr *starts;
    fr q;
} pts_job;

#define PCHUNK 65536

static void pts_task(void *ctx, size_t task, unsigned worker) {
    pts_job *j = ctx;
    (void)worker;
    size_t s = task * PCHUNK, e = s + PCHUNK < j->n ? s + PCHUNK : j->n;
    if (j->g1) {
        g1_affine gen;
        g1_affine_generator(&gen);
        g1_jac p, q, *tmp = malloc((e - s) * sizeof *tmp);
        g1_jac_from_affine(&p, &gen);
        g1_jac_from_affine(&q, &gen);
        g1_jac_mul_vartime(&q, &q, &j->q);
        g1_jac_mul_vartime(&p, &p, &j->starts[task]);
        for (size_t i = s; i < e; i++) {
            tmp[i - s] = p;
            g1_jac_add_vartime(&p, &p, &q);
        }
        g1_jac_batch_to_affine(j->g1 + s, tmp, e - s);
        free(tmp);
    } else {
        g2_affine gen;
        g2_affine_generator(&gen);
        g2_jac p, q, *tmp = malloc((e - s) * sizeof *tmp);
        g2_jac_from_affine(&p, &gen);
        g2_jac_from_affine(&q, &gen);
        g2_jac_mul_vartime(&q, &q, &j->q);
        g2_jac_mul_vartime(&p, &p, &j->starts[task]);
        for (size_t i = s; i < e; i++) {
            tmp[i - s] = p;
            g2_jac_add_vartime(&p, &p, &q);
        }
        g2_jac_batch_to_affine(j->g2 + s, tmp, e - s);
        free(tmp);
    }
}

static void random_points(g1_affine *g1, g2_affine *g2, size_t n) {
    size_t chunks = (n + PCHUNK - 1) / PCHUNK;
    pts_job j = {g1, g2, n, malloc(chunks * sizeof(fr)), rand_fr()};
    for (size_t i = 0; i < chunks; i++)
        j.starts[i] = rand_fr();
    par_run(g_threads, chunks, pts_task, &j);
    free(j.starts);
}

/* ---- scalars ---- */
enum { S_RANDOM, S_BITS90, S_EDGE, S_SMALL };

static void make_scalars(uint8_t *out, size_t n, int kind) {
    fr one, rm1;
    fr_set_one(&one);
    fr_set_zero(&rm1);
    fr_sub(&rm1, &rm1, &one);
    for (size_t i = 0; i < n; i++) {
        fr x = rand_fr();
        uint64_t r = check_rand64();
        if (kind == S_BITS90) {
            unsigned p = (unsigned)(r % 100);
            if (p < 45)
                fr_set_zero(&x);
            else if (p < 90)
                fr_set_one(&x);
        } else if (kind == S_EDGE) {
            switch (r % 6) {
            case 0:
                fr_set_zero(&x);
                break;
            case 1:
                x = one;
                break;
            case 2:
                x = rm1;
                break;
            case 3:
                fr_set_u64(&x, 2);
                break;
            default:
                break;
            }
        } else if (kind == S_SMALL) {
            fr_set_u64(&x, (r % 5) + 2); /* skewed: a few buckets get everything */
        }
        fr_to_bytes_le(out + 32 * i, &x);
    }
}

static const char *kind_name[] = {"random", "bits90", "edge(0,1,r-1,2)", "small(2..6)"};

static void check_field(cuda_ctx *c) {
    size_t n = 1 << 14;
    fp *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *o = malloc(n * sizeof *o);
    fr *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *r = malloc(n * sizeof *r);
    for (size_t i = 0; i < n; i++) {
        a[i] = rand_fp();
        b[i] = rand_fp();
        x[i] = rand_fr();
        y[i] = rand_fr();
    }
    /* edges: 0, p-1 */
    fp_set_zero(&a[0]);
    fp_set_one(&b[1]);
    fp_neg(&a[1], &b[1]);
    fr_set_zero(&y[0]);
    /* the largest reduced limb patterns (raw p - 1, p - 2) and raw 1: every
       carry of the PTX chains taken */
    fp raw1 = {{1}}, raw2 = {{2}};
    fr rr1 = {{1}}, rr2 = {{2}};
    fp_neg(&a[2], &raw1);
    fp_neg(&b[2], &raw1);
    fp_neg(&a[3], &raw2);
    b[3] = raw1;
    fr_neg(&x[2], &rr1);
    fr_neg(&y[2], &rr1);
    fr_neg(&x[3], &rr2);
    y[3] = rr1;
    fr_neg(&x[4], &rr1);
    y[4] = x[3];
    cuda_error e;
    CHECK(cuda_field_mul_check(c, a, b, o, x, y, r, n, &e) == CUDA_OK);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        fp t, q; /* 2 a b + a - b + a^2 (cuda_field_mul_check) */
        fp_mul(&t, &a[i], &b[i]);
        fp_add(&t, &t, &t);
        fp_add(&t, &t, &a[i]);
        fp_sub(&t, &t, &b[i]);
        fp_sqr(&q, &a[i]);
        fp_add(&t, &t, &q);
        fr u, v;
        fr_mul(&u, &x[i], &y[i]);
        fr_add(&u, &u, &u);
        fr_add(&u, &u, &x[i]);
        fr_sub(&u, &u, &y[i]);
        fr_sqr(&v, &x[i]);
        fr_add(&u, &u, &v);
        bad += !fp_equal(&t, &o[i]) || !fr_equal(&u, &r[i]);
    }
    CHECK(bad == 0);
    printf(
        "gpu field: %zu Fp and Fr products, sums, differences and squares (the PTX chains): %s\n",
        n, bad ? "MISMATCH" : "equal");
    free(a), free(b), free(o), free(x), free(y), free(r);
}

static ntt_status cpu_ntt(fr *a, const ntt_domain *d, cuda_ntt_kind k, ntt_order o) {
    fr g;
    fr_set_u64(&g, 7);
    switch (k) {
    case CUDA_NTT_FORWARD:
        return ntt_forward(a, d, o, g_threads);
    case CUDA_NTT_INVERSE:
        return ntt_inverse(a, d, o, g_threads);
    case CUDA_NTT_COSET_FORWARD:
        return ntt_coset_forward(a, d, &g, o, g_threads);
    default:
        return ntt_coset_inverse(a, d, &g, o, g_threads);
    }
}

/* Every size to 2^12 and the largest in every kind and order; the others in
   one order per kind; above 2^24 (CPU time) one forward transform.  Each
   twice, with the uploads staged by one host thread and by four.  The sizes
   cover the small-domain pass (2^1, 2^2), one block pass of 3 to 9 stages,
   and plans of two and more passes with column twiddles from the full table
   (to 2^18) and from the two-level table (above). */
static void check_ntt(cuda_ctx *c, unsigned max_log) {
    static const char *kn[] = {"fwd", "inv", "coset-fwd", "coset-inv"};
    static const char *on[] = {"NN", "NR", "RN"};
    for (unsigned lg = 1; lg <= max_log; lg++) {
        int full = lg <= 12 || (lg == max_log && lg <= 24);
        if (!full && lg % 2 && lg != max_log)
            continue;
        size_t n = (size_t)1 << lg;
        fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        CHECK(a && b);
        ntt_domain d;
        CHECK(ntt_domain_init(&d, lg, g_threads) == NTT_OK);
        for (int ct = 0; ct < 2; ct++) {
            cuda_ctx_set_copy_threads(c, ct ? 4 : 1);
            int bad = 0, runs = 0;
            float ms = 0;
            for (int k = 0; k < 4; k++) {
                for (int o = 0; o < 3; o++) {
                    if (!full && o != (k == 0 || k == 2 ? 1 : 0))
                        continue;
                    if (lg > 24 && k)
                        continue;
                    for (size_t i = 0; i < n; i++)
                        a[i] = rand_fr();
                    memcpy(b, a, n * sizeof *a);
                    cuda_error e;
                    cuda_status s = cuda_ntt(c, a, lg, (cuda_ntt_kind)k, (ntt_order)o, &ms, &e);
                    if (s)
                        fprintf(stderr, "cuda_ntt: %s\n", e.msg);
                    CHECK(s == CUDA_OK);
                    CHECK(cpu_ntt(b, &d, (cuda_ntt_kind)k, (ntt_order)o) == NTT_OK);
                    int eq = memcmp(a, b, n * sizeof *a) == 0;
                    if (!eq && bad < 4)
                        fprintf(stderr, "gpu ntt 2^%u %s %s: MISMATCH\n", lg, kn[k], on[o]);
                    bad += !eq;
                    runs++;
                }
            }
            CHECK(bad == 0);
            printf("gpu ntt 2^%u (copy threads %d): %d kind/order combinations %s (last %.3f ms)\n",
                   lg, ct ? 4 : 1, runs, bad ? "MISMATCH" : "equal", ms);
        }
        ntt_domain_destroy(&d);
        free(a), free(b);
    }
}

/* The H step against the CPU's (groth16/h_poly.c), which test_h_poly checks
   against the seven-transform way: C through six transforms and subtracted
   at the end, the constants and the coset shifts folded into root tables
   where the plan allows (one pass, or above 2^18) and multiplied in the last
   pass elsewhere. */
static void check_h(cuda_ctx *c, unsigned lg, size_t rows) {
    size_t n = (size_t)1 << lg;
    fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *cc = malloc(n * sizeof *cc);
    fr *ga = malloc(n * sizeof *ga), *a0 = malloc(rows * sizeof *a0);
    fr *b0 = malloc(rows * sizeof *b0), *c0 = malloc(rows * sizeof *c0);
    for (size_t i = 0; i < rows; i++) {
        a0[i] = a[i] = rand_fr();
        b0[i] = b[i] = rand_fr();
        c0[i] = cc[i] = rand_fr();
    }
    ntt_domain d; /* the CPU's H step clobbers b and cc: the GPU gets b0, c0 */
    CHECK(ntt_domain_init(&d, lg, g_threads) == NTT_OK);
    CHECK(h_poly_compute(a, b, cc, rows, &d, g_threads, NULL) == NTT_OK);
    memcpy(ga, a0, rows * sizeof *a);
    float ms = 0;
    cuda_error e;
    cuda_status s = cuda_h_poly(c, ga, b0, c0, rows, lg, &ms, &e);
    if (s)
        fprintf(stderr, "cuda_h_poly: %s\n", e.msg);
    CHECK(s == CUDA_OK);
    int eq = s == CUDA_OK && memcmp(a, ga, (n - 1) * sizeof *a) == 0;
    CHECK(eq);
    printf("gpu H step 2^%u (%zu rows): %s (%.3f ms)\n", lg, rows, eq ? "equal" : "MISMATCH", ms);
    ntt_domain_destroy(&d);
    free(a), free(b), free(cc), free(ga), free(a0), free(b0), free(c0);
}

static void check_msm_g1(cuda_ctx *c, const cuda_bases *gb, const g1_affine *bases, size_t n,
                         int kind, int masked, int fast) {
    uint8_t *sc = malloc(32 * n);
    make_scalars(sc, n, kind);
    uint64_t *dens = NULL;
    if (masked) {
        dens = calloc((n + 63) / 64, 8);
        for (size_t i = 0; i < n; i++)
            if (check_rand64() % 3)
                dens[i / 64] |= 1ull << (i % 64);
    }
    msm_config cfg = msm_config_default(g_threads);
    g1_jac want, got;
    msm_status ms = masked ? msm_g1_masked(&want, bases, sc, dens, n, &cfg, NULL, NULL)
                           : msm_g1(&want, bases, sc, n, &cfg, NULL, NULL);
    CHECK(ms == MSM_OK);
    cuda_msm_config gc = cuda_msm_config_default();
    gc.bit_fast_path = fast;
    cuda_msm_stats st;
    cuda_error e;
    cuda_status s = cuda_msm_g1(c, &got, gb, 0, sc, dens, n, &gc, &st, &e);
    if (s)
        fprintf(stderr, "cuda_msm_g1: %s\n", e.msg);
    CHECK(s == CUDA_OK);
    int eq = s == CUDA_OK && g1_jac_equal(&want, &got);
    CHECK(eq);
    printf("gpu msm g1 n=%zu %s%s%s: %s (c=%u, %zu zero / %zu one / %zu other, %u pieces, "
           "%.3f ms)\n",
           n, kind_name[kind], masked ? " masked" : "", fast ? "" : " no-fast-path",
           eq ? "equal" : "MISMATCH", st.window_bits, st.n_zero, st.n_one, st.n_other, st.pieces,
           st.total_ms);
    free(sc);
    free(dens);
}

static void check_msm_g2(cuda_ctx *c, const cuda_bases *gb, const g2_affine *bases, size_t n,
                         int kind, int masked) {
    uint8_t *sc = malloc(32 * n);
    make_scalars(sc, n, kind);
    uint64_t *dens = NULL;
    if (masked) {
        dens = calloc((n + 63) / 64, 8);
        for (size_t i = 0; i < n; i++)
            if (check_rand64() % 2)
                dens[i / 64] |= 1ull << (i % 64);
    }
    msm_config cfg = msm_config_default(g_threads);
    g2_jac want, got;
    msm_status ms = masked ? msm_g2_masked(&want, bases, sc, dens, n, &cfg, NULL, NULL)
                           : msm_g2(&want, bases, sc, n, &cfg, NULL, NULL);
    CHECK(ms == MSM_OK);
    cuda_msm_config gc = cuda_msm_config_default();
    cuda_msm_stats st;
    cuda_error e;
    cuda_status s = cuda_msm_g2(c, &got, gb, 0, sc, dens, n, &gc, &st, &e);
    if (s)
        fprintf(stderr, "cuda_msm_g2: %s\n", e.msg);
    CHECK(s == CUDA_OK);
    int eq = s == CUDA_OK && g2_jac_equal(&want, &got);
    CHECK(eq);
    printf("gpu msm g2 n=%zu %s%s: %s (c=%u, %u pieces, %.3f ms)\n", n, kind_name[kind],
           masked ? " masked" : "", eq ? "equal" : "MISMATCH", st.window_bits, st.pieces,
           st.total_ms);
    free(sc);
    free(dens);
}

static void check_msm(cuda_ctx *c, unsigned max_log) {
    size_t nmax = (size_t)1 << max_log;
    g1_affine *b1 = malloc(nmax * sizeof *b1);
    double t0 = timing_now_ms();
    random_points(b1, NULL, nmax);
    g1_affine_set_infinity(&b1[5]); /* infinity among the bases */
    b1[7] = b1[3];                  /* a repeated base: doubling inside a bucket */
    printf("gpu msm: %zu random G1 bases in %.0f ms\n", nmax, timing_now_ms() - t0);
    cuda_bases *gb;
    cuda_error e;
    CHECK(cuda_bases_upload_g1(c, &gb, b1, nmax, &e) == CUDA_OK);
    unsigned sizes[] = {10, 14, 18, max_log};
    for (int si = 0; si < 4; si++) {
        unsigned lg = sizes[si];
        if (lg > max_log || (si == 3 && (lg == 10 || lg == 14 || lg == 18)))
            continue;
        size_t n = (size_t)1 << lg;
        for (int kind = 0; kind < 4; kind++)
            check_msm_g1(c, gb, b1, n, kind, 0, 1);
        check_msm_g1(c, gb, b1, n, S_BITS90, 1, 1);
        check_msm_g1(c, gb, b1, n, S_EDGE, 0, 0);
    }
    /* the bucket reduction both ways at every size: one level
       (gpu_msm_red_levels=0) and the levels (2; by default only from 2^18
       buckets on) */
    long saved_red = switch_get(SW_GPU_MSM_RED_LEVELS);
    char serr[128];
    for (int red = 0; red <= 2; red += 2) {
        CHECK(switch_set(SW_GPU_MSM_RED_LEVELS, red, serr, sizeof serr) == 0);
        printf("gpu msm: gpu_msm_red_levels=%d\n", red);
        check_msm_g1(c, gb, b1, 1, S_RANDOM, 0, 1);
        check_msm_g1(c, gb, b1, 1024, S_RANDOM, 0, 1);
        check_msm_g1(c, gb, b1, nmax, S_RANDOM, 0, 1);
        check_msm_g1(c, gb, b1, nmax, S_BITS90, 1, 1);
        check_msm_g1(c, gb, b1, nmax, S_EDGE, 0, 0);
    }
    CHECK(switch_set(SW_GPU_MSM_RED_LEVELS, saved_red, serr, sizeof serr) == 0);
    /* odd sizes */
    check_msm_g1(c, gb, b1, 1, S_RANDOM, 0, 1);
    check_msm_g1(c, gb, b1, 3, S_EDGE, 0, 1);
    check_msm_g1(c, gb, b1, 1000, S_RANDOM, 1, 1);
    /* in pieces (gpu_msm_piece): the pieces' sums added, a masked piece's
       bases found after the set bits of the pieces before it */
    long saved_piece = switch_get(SW_GPU_MSM_PIECE);
    CHECK(switch_set(SW_GPU_MSM_PIECE, 640, serr, sizeof serr) == 0);
    printf("gpu msm: gpu_msm_piece=640\n");
    check_msm_g1(c, gb, b1, nmax, S_RANDOM, 0, 1);
    check_msm_g1(c, gb, b1, nmax, S_BITS90, 1, 1);
    check_msm_g1(c, gb, b1, 1000, S_RANDOM, 1, 1);
    check_msm_g1(c, gb, b1, 641, S_EDGE, 0, 0);
    CHECK(switch_set(SW_GPU_MSM_PIECE, saved_piece, serr, sizeof serr) == 0);
    /* all bases equal: P + P and P - P inside buckets */
    {
        size_t n = 4096;
        g1_affine *same = malloc(n * sizeof *same);
        for (size_t i = 0; i < n; i++)
            same[i] = b1[1];
        cuda_bases *sb;
        CHECK(cuda_bases_upload_g1(c, &sb, same, n, &e) == CUDA_OK);
        for (int red = 0; red <= 2; red += 2) { /* doublings in the reduction's sums */
            CHECK(switch_set(SW_GPU_MSM_RED_LEVELS, red, serr, sizeof serr) == 0);
            check_msm_g1(c, sb, same, n, S_RANDOM, 0, 1);
            check_msm_g1(c, sb, same, n, S_SMALL, 0, 1);
        }
        CHECK(switch_set(SW_GPU_MSM_RED_LEVELS, saved_red, serr, sizeof serr) == 0);
        cuda_bases_free(sb);
        free(same);
    }
    /* a scalar >= r is an error naming its index */
    {
        size_t n = 100;
        uint8_t *sc = malloc(32 * n);
        make_scalars(sc, n, S_RANDOM);
        memset(sc + 32 * 42, 0xff, 32);
        g1_jac out;
        cuda_msm_config gc = cuda_msm_config_default();
        cuda_status s = cuda_msm_g1(c, &out, gb, 0, sc, NULL, n, &gc, NULL, &e);
        CHECK(s == CUDA_ERR_SCALAR && strstr(e.msg, "42") != NULL);
        printf("gpu msm: non-canonical scalar -> %s: %s\n", cuda_status_str(s), e.msg);
        /* more scalars than resident bases */
        s = cuda_msm_g1(c, &out, gb, nmax - 10, sc, NULL, n, &gc, NULL, &e);
        CHECK(s == CUDA_ERR_ARG);
        printf("gpu msm: too few bases -> %s: %s\n", cuda_status_str(s), e.msg);
        free(sc);
    }
    cuda_bases_free(gb);
    free(b1);

    /* G2 up to 2^20 (the bucket loop reads each base as the addition needs
     * it and prefetches the next: the doublings and infinities take the
     * reloads) */
    size_t n2 = nmax < ((size_t)1 << 20) ? nmax : ((size_t)1 << 20);
    g2_affine *b2 = malloc(n2 * sizeof *b2);
    random_points(NULL, b2, n2);
    g2_affine_set_infinity(&b2[5]);
    CHECK(cuda_bases_upload_g2(c, &gb, b2, n2, &e) == CUDA_OK);
    for (int red = 0; red <= 2; red += 2) {
        CHECK(switch_set(SW_GPU_MSM_RED_LEVELS, red, serr, sizeof serr) == 0);
        printf("gpu msm g2: gpu_msm_red_levels=%d\n", red);
        check_msm_g2(c, gb, b2, 1024, S_RANDOM, 0);
        check_msm_g2(c, gb, b2, n2, S_RANDOM, 0);
        check_msm_g2(c, gb, b2, n2, S_BITS90, 1);
    }
    CHECK(switch_set(SW_GPU_MSM_RED_LEVELS, saved_red, serr, sizeof serr) == 0);
    check_msm_g2(c, gb, b2, 1024, S_EDGE, 1);
    check_msm_g2(c, gb, b2, 3, S_EDGE, 0);
    CHECK(switch_set(SW_GPU_MSM_PIECE, 320, serr, sizeof serr) == 0);
    check_msm_g2(c, gb, b2, 1024, S_RANDOM, 1);
    check_msm_g2(c, gb, b2, 1000, S_BITS90, 0);
    CHECK(switch_set(SW_GPU_MSM_PIECE, saved_piece, serr, sizeof serr) == 0);
    cuda_bases_free(gb);
    /* all G2 bases equal: doublings inside buckets and in the reduction's sums */
    {
        size_t n = 1024;
        g2_affine *same = malloc(n * sizeof *same);
        for (size_t i = 0; i < n; i++)
            same[i] = b2[1];
        cuda_bases *sb;
        CHECK(cuda_bases_upload_g2(c, &sb, same, n, &e) == CUDA_OK);
        for (int red = 0; red <= 2; red++) {
            CHECK(switch_set(SW_GPU_MSM_RED_LEVELS, red, serr, sizeof serr) == 0);
            check_msm_g2(c, sb, same, n, S_RANDOM, 0);
            check_msm_g2(c, sb, same, n, S_SMALL, 0);
        }
        CHECK(switch_set(SW_GPU_MSM_RED_LEVELS, saved_red, serr, sizeof serr) == 0);
        cuda_bases_free(sb);
        free(same);
    }
    free(b2);
}

static int synth(void *out, r1cs_mode mode, toy_circuit *tc) {
    r1cs_cs *cs = r1cs_cs_new(mode, 0, NULL);
    int rc = r1cs_synthesize(cs, tc->fn, tc);
    if (rc == R1CS_OK)
        rc = mode == R1CS_RECORD ? r1cs_take_matrices(cs, out) : r1cs_take_partition(cs, out);
    r1cs_cs_free(cs);
    return rc;
}

static void check_prove(const char *spec) {
    toy_circuit tc;
    char why[256];
    CHECK(toy_circuit_parse(&tc, spec, why, sizeof why) == 0);
    r1cs_matrices mx;
    r1cs_partition part;
    CHECK(synth(&mx, R1CS_RECORD, &tc) == R1CS_OK);
    CHECK(synth(&part, R1CS_PROVE, &tc) == R1CS_OK);
    groth16_toxic tox;
    groth16_setup_result s;
    groth16_error err = {0};
    CHECK(groth16_toxic_random(&tox, &err) == GROTH16_OK);
    CHECK(groth16_setup(&s, &mx, &tox, g_threads, &err) == GROTH16_OK);
    groth16_params_data d = groth16_setup_data(&s);
    fr r = rand_fr(), sv = rand_fr();
    groth16_proof pc, pg;
    groth16_prove_timing tcpu, tgpu;
    const groth16_backend *be = g_be;
    CHECK(be != NULL);
    CHECK(groth16_backend_prove(&groth16_backend_cpu, &pc, &part, 1, &d, &r, &sv, g_threads, &tcpu,
                                &err) == GROTH16_OK);
    groth16_status st =
        be ? groth16_backend_prove(be, &pg, &part, 1, &d, &r, &sv, g_threads, &tgpu, &err)
           : GROTH16_ERR_IO;
    if (st)
        fprintf(stderr, "cuda prove: %s\n", err.msg);
    CHECK(st == GROTH16_OK);
    uint8_t bc[GROTH16_PROOF_BYTES], bg[GROTH16_PROOF_BYTES];
    groth16_proof_write(bc, &pc);
    groth16_proof_write(bg, &pg);
    int same = memcmp(bc, bg, sizeof bc) == 0;
    CHECK(same);
    groth16_pvk pvk;
    int ok = groth16_pvk_prepare(&pvk, &s.vk, &err) == GROTH16_OK &&
             groth16_verify(&pvk, &pg, part.input + 1, part.num_inputs - 1, &err) == GROTH16_OK;
    CHECK(ok);
    groth16_pvk_free(&pvk);
    printf("gpu prove %s: proof %s the CPU backend's, %s; CPU %.1f ms, GPU %.1f ms\n", spec,
           same ? "byte-identical to" : "DIFFERENT from", ok ? "verifies" : "DOES NOT VERIFY",
           tcpu.total_ms, tgpu.total_ms);
    /* a second proof reuses the resident parameters */
    st = be ? groth16_backend_prove(be, &pg, &part, 1, &d, &r, &sv, g_threads, &tgpu, &err)
            : GROTH16_ERR_IO;
    groth16_proof_write(bg, &pg);
    CHECK(st == GROTH16_OK && memcmp(bc, bg, sizeof bc) == 0);
    printf("gpu prove %s again (SRS resident): %.1f ms\n", spec, tgpu.total_ms);
    r1cs_partition_free(&part);
    groth16_setup_free(&s);
    r1cs_matrices_free(&mx);
}

/* Two parameter sets proved alternately: both stay resident (no re-upload),
 * with one slot (CUZK_GPU_SRS_SETS=1) each evicts the other, with four
 * again both end up resident; every proof byte-identical to the CPU's. */
typedef struct {
    r1cs_matrices mx;
    r1cs_partition part;
    groth16_setup_result s;
    groth16_params_data d;
    uint8_t want[GROTH16_PROOF_BYTES];
} prove_set;

static void check_resident_sets(void) {
    const char *specs[2] = {"random:3000:11", "random:5000:12"};
    prove_set ps[2];
    fr r = rand_fr(), sv = rand_fr();
    groth16_error err = {0};
    CHECK(g_be != NULL);
    if (!g_be)
        return;
    for (int i = 0; i < 2; i++) {
        toy_circuit tc;
        char why[256];
        groth16_toxic tox;
        groth16_proof p;
        CHECK(toy_circuit_parse(&tc, specs[i], why, sizeof why) == 0);
        CHECK(synth(&ps[i].mx, R1CS_RECORD, &tc) == R1CS_OK);
        CHECK(synth(&ps[i].part, R1CS_PROVE, &tc) == R1CS_OK);
        CHECK(groth16_toxic_random(&tox, &err) == GROTH16_OK);
        CHECK(groth16_setup(&ps[i].s, &ps[i].mx, &tox, g_threads, &err) == GROTH16_OK);
        ps[i].d = groth16_setup_data(&ps[i].s);
        CHECK(groth16_backend_prove(&groth16_backend_cpu, &p, &ps[i].part, 1, &ps[i].d, &r, &sv,
                                    g_threads, NULL, &err) == GROTH16_OK);
        groth16_proof_write(ps[i].want, &p);
    }
    /* a fresh backend: nothing resident */
    groth16_backend_close(g_be);
    const groth16_backend *be = g_be = cuda_backend_open(0, NULL, 0);
    CHECK(be != NULL);
    if (!be)
        return;
    const long val[3] = {4, 1, 4};
    unsigned want_sets[3] = {2, 1, 2};
    long saved_sets = switch_get(SW_GPU_SRS_SETS);
    char serr[256];
    for (int m = 0; m < 3; m++) {
        CHECK(switch_set(SW_GPU_SRS_SETS, val[m], serr, sizeof serr) == 0);
        int same = 1;
        for (int round = 0; round < 4; round++) {
            groth16_proof p;
            uint8_t got[GROTH16_PROOF_BYTES];
            prove_set *x = &ps[round & 1];
            groth16_status st =
                groth16_backend_prove(be, &p, &x->part, 1, &x->d, &r, &sv, g_threads, NULL, &err);
            CHECK(st == GROTH16_OK);
            groth16_proof_write(got, &p);
            same &= st == GROTH16_OK && memcmp(got, x->want, sizeof got) == 0;
        }
        CHECK(same);
        unsigned n = cuda_backend_resident_sets(be);
        CHECK(n == want_sets[m]);
        printf("gpu resident sets, gpu_srs_sets=%ld: 2 sets alternately x4, proofs %s, %u "
               "resident\n",
               val[m], same ? "byte-identical to the CPU's" : "DIFFERENT", n);
    }
    CHECK(switch_set(SW_GPU_SRS_SETS, saved_sets, serr, sizeof serr) == 0);
    for (int i = 0; i < 2; i++) {
        r1cs_partition_free(&ps[i].part);
        groth16_setup_free(&ps[i].s);
        r1cs_matrices_free(&ps[i].mx);
    }
}

/* A prover of its own on GPU 0 beside the backend's (what a process with a
 * prover per GPU will do): proofs byte-identical to the CPU's, resident sets
 * of its own; a parameter set that does not fit the circuit is refused with
 * the CPU backend's message (one shape check) before anything goes up. */
static void check_own_prover(void) {
    toy_circuit tc;
    char why[256];
    r1cs_matrices mx;
    r1cs_partition part;
    groth16_toxic tox;
    groth16_setup_result s;
    groth16_error err = {0}, gerr = {0};
    CHECK(toy_circuit_parse(&tc, "random:2000:21", why, sizeof why) == 0);
    CHECK(synth(&mx, R1CS_RECORD, &tc) == R1CS_OK);
    CHECK(synth(&part, R1CS_PROVE, &tc) == R1CS_OK);
    CHECK(groth16_toxic_random(&tox, &err) == GROTH16_OK);
    CHECK(groth16_setup(&s, &mx, &tox, g_threads, &err) == GROTH16_OK);
    groth16_params_data d = groth16_setup_data(&s);
    fr r = rand_fr(), sv = rand_fr();
    groth16_proof pc, pg;
    uint8_t bc[GROTH16_PROOF_BYTES], bg[GROTH16_PROOF_BYTES];
    CHECK(groth16_backend_prove(&groth16_backend_cpu, &pc, &part, 1, &d, &r, &sv, g_threads, NULL,
                                &err) == GROTH16_OK);
    groth16_proof_write(bc, &pc);
    cuda_prover *pr = NULL;
    cuda_error e;
    CHECK(cuda_prover_create(&pr, 99, &e) == CUDA_ERR_NO_DEVICE && pr == NULL);
    CHECK(cuda_prover_create(&pr, 0, &e) == CUDA_OK && pr != NULL);
    if (!pr) {
        fprintf(stderr, "cuda_prover_create: %s\n", e.msg);
        return;
    }
    unsigned before = cuda_backend_resident_sets(g_be);
    groth16_status st = cuda_prover_prove(pr, &pg, &part, 1, &d, &r, &sv, g_threads, NULL, &gerr);
    if (st)
        fprintf(stderr, "cuda_prover_prove: %s\n", gerr.msg);
    groth16_proof_write(bg, &pg);
    int same = st == GROTH16_OK && memcmp(bc, bg, sizeof bc) == 0;
    CHECK(same);
    unsigned own = cuda_prover_resident_sets(pr);
    CHECK(own == 1 && cuda_backend_resident_sets(g_be) == before);
    cuda_prover_forget(pr, &d);
    CHECK(cuda_prover_resident_sets(pr) == 0);
    groth16_params_data bad = d;
    bad.n_h--;
    groth16_status sc =
        groth16_backend_prove(&groth16_backend_cpu, &pc, &part, 1, &bad, &r, &sv, 1, NULL, &err);
    st = cuda_prover_prove(pr, &pg, &part, 1, &bad, &r, &sv, 1, NULL, &gerr);
    int refused = sc == GROTH16_ERR_ARG && st == sc && strcmp(err.msg, gerr.msg) == 0 &&
                  cuda_prover_resident_sets(pr) == 0;
    CHECK(refused);
    printf("gpu own prover on GPU %d: proof %s the CPU's, %u set resident (the backend's: %u); "
           "wrong parameters %s (%s)\n",
           cuda_prover_ordinal(pr), same ? "byte-identical to" : "DIFFERENT from", own, before,
           refused ? "refused as by the CPU" : "NOT REFUSED ALIKE", gerr.msg);
    cuda_prover_destroy(pr);
    r1cs_partition_free(&part);
    groth16_setup_free(&s);
    r1cs_matrices_free(&mx);
}

int main(int argc, char **argv) {
    char msg[256] = "";
    int ndev = cuda_device_count(msg, sizeof msg);
    if (ndev <= 0) {
        printf("cuzk_gpu_check: skipped: %s\n", ndev < 0 ? msg : "no CUDA device");
        return 77;
    }
    unsigned max_msm = argc > 1 ? (unsigned)atoi(argv[1]) : 14;
    unsigned max_ntt = argc > 2 ? (unsigned)atoi(argv[2]) : 14;
    g_threads = par_cpu_count();
    check_seed("cuzk_gpu_check");
    cuda_ctx *c;
    cuda_error e;
    /* a missing ordinal is an error code, not a crash */
    CHECK(cuda_ctx_create(&c, 99, &e) == CUDA_ERR_NO_DEVICE && c == NULL);
    printf("gpu ctx ordinal 99 -> %s\n", e.msg);
    if (cuda_ctx_create(&c, 0, &e) != CUDA_OK) {
        fprintf(stderr, "cuda_ctx_create: %s\n", e.msg);
        return 1;
    }
    char why[256] = "";
    CHECK(cuda_backend_open(99, why, sizeof why) == NULL);
    printf("gpu backend ordinal 99 -> %s\n", why);
    g_be = cuda_backend_open(0, why, sizeof why);
    if (!g_be)
        fprintf(stderr, "cuda_backend_open: %s\n", why);
    check_field(c);
    check_ntt(c, max_ntt);
    check_h(c, 1, 2); /* the small-domain pass */
    check_h(c, 2, 3);
    check_h(c, 9, 500); /* one block pass: the folds with column 0 alone */
    check_h(c, 10, 1000);
    check_h(c, 12, 4096); /* two passes, twiddles from the full table: folds in the last pass */
    check_h(c, 19, ((size_t)1 << 19) - 5);        /* above the full table: folded into the roots */
    unsigned max_h = max_ntt < 24 ? max_ntt : 24; /* CPU time above */
    check_h(c, max_h, ((size_t)1 << max_h) - 7);
    check_msm(c, max_msm);
    if (!(argc > 3 && strcmp(argv[3], "noprove") == 0)) {
        check_prove("random:1000:3");
        check_prove("random:70000:5");
        check_resident_sets();
        check_own_prover();
    }
    cuda_ctx_destroy(c);
    groth16_backend_close(g_be);
    return check_finish();
}
