/* Field, curve and pairing micro-benchmarks.
 *
 * Each operation runs in a dependent chain (the output feeds the next input),
 * so the figure is latency per op as the prover sees it in serial code.
 * Prints min / median / max ns per op over BENCH_REPS repetitions (default 7).
 * usage: bench_field_curve [filter-substring]   (env CUZK_FIELD_ASM=0 forces portable C)
 * The fixed-base rows are per point of one mul_many call over BENCH_FB_N
 * scalars (default 2^16) on one thread, through a table of window
 * BENCH_FB_WINDOW (default fixed_base_window(BENCH_FB_N)); the table's build
 * is timed once, on its own line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "curve/encode.h"
#include "curve/fixed_base.h"
#include "curve/pairing.h"
#include "field/constants.h"

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef void (*bench_fn)(long iters);

static const char *filter;

static void bench(const char *name, bench_fn fn, long iters) {
    if (filter && !strstr(name, filter))
        return;
    const char *env = getenv("BENCH_REPS");
    int reps = env ? atoi(env) : 7;
    if (reps < 1)
        reps = 1;
    double t[64];
    if (reps > 64)
        reps = 64;
    fn(iters / 10 + 1); /* warm caches and clocks */
    for (int r = 0; r < reps; r++) {
        double t0 = now_ns();
        fn(iters);
        t[r] = (now_ns() - t0) / iters;
    }
    qsort(t, reps, sizeof t[0], cmp_double);
    printf("%-34s %12.1f %12.1f %12.1f   (x%ld, %d reps)\n", name, t[0], t[reps / 2], t[reps - 1],
           iters, reps);
}

/* Shared state; volatile sinks keep the compiler from dropping the chains. */
static fp fa, fb;
static fr ra, rb;
static fp2 f2a, f2b;
static g1_jac j1a, j1b;
static g1_affine a1;
static g2_jac j2a, j2b;
static g2_affine a2;
static fr scalar;
static uint8_t g1c[48], g2c[96], g1u[96];
static volatile uint64_t sink;

static void b_fp_mul(long n) {
    for (long i = 0; i < n; i++)
        fp_mul(&fa, &fa, &fb);
    sink = fa.l[0];
}
static void b_fp_mul_portable(long n) {
    for (long i = 0; i < n; i++)
        fp_mul_portable(&fa, &fa, &fb);
    sink = fa.l[0];
}
static void b_fp_sqr(long n) {
    for (long i = 0; i < n; i++)
        fp_sqr(&fa, &fa);
    sink = fa.l[0];
}
static void b_fp_add(long n) {
    for (long i = 0; i < n; i++)
        fp_add(&fa, &fa, &fb);
    sink = fa.l[0];
}
static void b_fp_inv(long n) {
    for (long i = 0; i < n; i++)
        fp_inv(&fa, &fa);
    sink = fa.l[0];
}
static void b_fr_mul(long n) {
    for (long i = 0; i < n; i++)
        fr_mul(&ra, &ra, &rb);
    sink = ra.l[0];
}
static void b_fr_inv(long n) {
    for (long i = 0; i < n; i++)
        fr_inv(&ra, &ra);
    sink = ra.l[0];
}
static void b_fp2_mul(long n) {
    for (long i = 0; i < n; i++)
        fp2_mul(&f2a, &f2a, &f2b);
    sink = f2a.c0.l[0];
}
static void b_g1_add(long n) {
    for (long i = 0; i < n; i++)
        g1_jac_add_vartime(&j1a, &j1a, &j1b);
    sink = j1a.x.l[0];
}
static void b_g1_madd(long n) {
    for (long i = 0; i < n; i++)
        g1_jac_add_affine_vartime(&j1a, &j1a, &a1);
    sink = j1a.x.l[0];
}
static void b_g1_dbl(long n) {
    for (long i = 0; i < n; i++)
        g1_jac_dbl(&j1a, &j1a);
    sink = j1a.x.l[0];
}
static void b_g1_mul(long n) {
    for (long i = 0; i < n; i++)
        g1_jac_mul_vartime(&j1a, &j1a, &scalar);
    sink = j1a.x.l[0];
}
static void b_g2_add(long n) {
    for (long i = 0; i < n; i++)
        g2_jac_add_vartime(&j2a, &j2a, &j2b);
    sink = j2a.x.c0.l[0];
}
static void b_g2_madd(long n) {
    for (long i = 0; i < n; i++)
        g2_jac_add_affine_vartime(&j2a, &j2a, &a2);
    sink = j2a.x.c0.l[0];
}
static void b_g2_dbl(long n) {
    for (long i = 0; i < n; i++)
        g2_jac_dbl(&j2a, &j2a);
    sink = j2a.x.c0.l[0];
}
static void b_g2_mul(long n) {
    for (long i = 0; i < n; i++)
        g2_jac_mul_vartime(&j2a, &j2a, &scalar);
    sink = j2a.x.c0.l[0];
}
static void b_g1_decompress(long n) {
    g1_affine p;
    for (long i = 0; i < n; i++)
        sink = g1_from_compressed(&p, g1c);
}
static void b_g1_decompress_unchecked(long n) {
    g1_affine p;
    for (long i = 0; i < n; i++)
        sink = g1_from_compressed_unchecked(&p, g1c);
}
static void b_g1_decode_unchecked(long n) {
    g1_affine p;
    for (long i = 0; i < n; i++)
        sink = g1_from_uncompressed_unchecked(&p, g1u);
}
static void b_g2_decompress(long n) {
    g2_affine p;
    for (long i = 0; i < n; i++)
        sink = g2_from_compressed(&p, g2c);
}
static void b_pairing(long n) {
    fp12 e;
    g1_affine p;
    g2_affine q;
    g1_affine_generator(&p);
    g2_affine_generator(&q);
    for (long i = 0; i < n; i++)
        pairing(&e, &p, &q);
    sink = e.c0.c0.c0.l[0];
}
static void b_miller(long n) {
    fp12 e;
    g1_affine p;
    g2_affine q;
    g1_affine_generator(&p);
    g2_affine_generator(&q);
    for (long i = 0; i < n; i++)
        pairing_miller_loop(&e, &p, &q, 1);
    sink = e.c0.c0.c0.l[0];
}
static void b_final_exp(long n) {
    fp12 e;
    g1_affine p;
    g2_affine q;
    g1_affine_generator(&p);
    g2_affine_generator(&q);
    pairing_miller_loop(&e, &p, &q, 1);
    for (long i = 0; i < n; i++)
        pairing_final_exp(&e, &e);
    sink = e.c0.c0.c0.l[0];
}
static void b_pairing4(long n) {
    g1_affine p[4];
    g2_affine q[4];
    for (int i = 0; i < 4; i++) {
        g1_affine_generator(&p[i]);
        g2_affine_generator(&q[i]);
    }
    for (long i = 0; i < n; i++)
        sink = pairing_product_is_one(p, q, 4);
}

static g1_fixed_table fb1;
static g2_fixed_table fb2;
static fr *fb_k;
static g1_affine *fb_out1;
static g2_affine *fb_out2;

/* n random-looking scalars and both tables; 0 when something failed. */
static int fb_prepare(size_t n, unsigned window) {
    if (filter && !strstr("g1_fixed_mul_many g2_fixed_mul_many", filter))
        return 0;
    fb_k = malloc(n * sizeof *fb_k);
    fb_out1 = malloc(n * sizeof *fb_out1);
    fb_out2 = malloc(n * sizeof *fb_out2);
    if (!fb_k || !fb_out1 || !fb_out2)
        return 0;
    fr x = scalar;
    for (size_t i = 0; i < n; i++) {
        fr_mul(&x, &x, &rb);
        fb_k[i] = x;
    }
    g1_affine g1;
    g2_affine g2;
    g1_affine_generator(&g1);
    g2_affine_generator(&g2);
    double t0 = now_ns();
    if (g1_fixed_table_init(&fb1, &g1, window, 1))
        return 0;
    double t1 = now_ns();
    if (g2_fixed_table_init(&fb2, &g2, window, 1))
        return 0;
    printf("fixed-base: %zu scalars, window %u; table build %.1f ms (g1), %.1f ms (g2)\n", n,
           window, (t1 - t0) / 1e6, (now_ns() - t1) / 1e6);
    return 1;
}
/* iters scalars per call, so the figure is per point (iters <= BENCH_FB_N). */
static void b_g1_fixed(long n) {
    if (g1_fixed_mul_many(fb_out1, &fb1, fb_k, (size_t)n, 1))
        abort();
    sink = fb_out1[0].x.l[0];
}
static void b_g2_fixed(long n) {
    if (g2_fixed_mul_many(fb_out2, &fb2, fb_k, (size_t)n, 1))
        abort();
    sink = fb_out2[0].x.c0.l[0];
}

int main(int argc, char **argv) {
    filter = argc > 1 ? argv[1] : NULL;
    fa = G1_GEN_X;
    fb = G1_GEN_Y;
    ra = FR_ROOT_OF_UNITY;
    fr_set_u64(&rb, 0x1234567890abcdefULL);
    f2a = G2_GEN_X;
    f2b = G2_GEN_Y;
    g1_affine g1;
    g2_affine g2;
    g1_affine_generator(&g1);
    g2_affine_generator(&g2);
    fr_set_u64(&scalar, 12345);
    g1_jac_from_affine(&j1a, &g1);
    g1_jac_mul_vartime(&j1b, &j1a, &scalar);
    g1_jac_to_affine(&a1, &j1b);
    g2_jac_from_affine(&j2a, &g2);
    g2_jac_mul_vartime(&j2b, &j2a, &scalar);
    g2_jac_to_affine(&a2, &j2b);
    fr_inv(&scalar, &scalar); /* a full-width scalar for the ladders */
    g1_to_compressed(g1c, &a1);
    g1_to_uncompressed(g1u, &a1);
    g2_to_compressed(g2c, &a2);

    printf("field multiply path: %s\n", fp_asm_enabled() ? "MULX/ADX" : "portable C");
    printf("%-34s %12s %12s %12s\n", "operation (ns/op)", "min", "median", "max");
    bench("fp_mul", b_fp_mul, 2000000);
    bench("fp_mul_portable", b_fp_mul_portable, 2000000);
    bench("fp_sqr", b_fp_sqr, 2000000);
    bench("fp_add", b_fp_add, 5000000);
    bench("fp_inv", b_fp_inv, 5000);
    bench("fr_mul", b_fr_mul, 2000000);
    bench("fr_inv", b_fr_inv, 5000);
    bench("fp2_mul", b_fp2_mul, 1000000);
    bench("g1_add (jacobian)", b_g1_add, 200000);
    bench("g1_add_affine (mixed)", b_g1_madd, 200000);
    bench("g1_dbl", b_g1_dbl, 200000);
    bench("g1_mul (255-bit scalar)", b_g1_mul, 500);
    bench("g2_add (jacobian)", b_g2_add, 100000);
    bench("g2_add_affine (mixed)", b_g2_madd, 100000);
    bench("g2_dbl", b_g2_dbl, 100000);
    bench("g2_mul (255-bit scalar)", b_g2_mul, 200);
    const char *fb_env = getenv("BENCH_FB_N"), *fbw_env = getenv("BENCH_FB_WINDOW");
    long fb_n = fb_env ? atol(fb_env) : 1L << 16;
    if (fb_n < 1)
        fb_n = 1;
    unsigned fb_w = fbw_env ? (unsigned)atoi(fbw_env) : fixed_base_window((size_t)fb_n);
    if (fb_prepare((size_t)fb_n, fb_w)) {
        bench("g1_fixed_mul_many (per point)", b_g1_fixed, fb_n);
        bench("g2_fixed_mul_many (per point)", b_g2_fixed, fb_n);
    }
    bench("g1_decompress + subgroup check", b_g1_decompress, 2000);
    bench("g1_decompress (no subgroup check)", b_g1_decompress_unchecked, 2000);
    bench("g1_decode_uncompressed_unchecked", b_g1_decode_unchecked, 100000);
    bench("g2_decompress + subgroup check", b_g2_decompress, 1000);
    bench("miller_loop (1 pair)", b_miller, 200);
    bench("final_exponentiation", b_final_exp, 200);
    bench("pairing", b_pairing, 200);
    bench("pairing_product_is_one (4 pairs)", b_pairing4, 100);
    g1_fixed_table_free(&fb1);
    g2_fixed_table_free(&fb2);
    free(fb_k);
    free(fb_out1);
    free(fb_out2);
    return 0;
}
