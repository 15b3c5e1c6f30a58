/* Built-in known-answer tests (well under a second) and the vector-file modes.
 * The expected values come from the independent oracle @noble/curves 2.4.0
 * (see ../shared/reference/oracles.md s.3) and from the curve's definition. */
#include "cli/selftest.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/eip2537.h"
#include "cli/vectors.h"
#include "curve/encode.h"
#include "curve/pairing.h"
#include "field/constants.h"
#include "util/hex.h"
#ifdef CUZK_HAVE_CUDA
#include "cuda/cuda_device.h"
#endif

static int fails, checks;

static void expect(int ok, const char *what) {
    checks++;
    if (!ok) {
        fails++;
        printf("selftest: FAIL: %s\n", what);
    }
}

static int hex_is(const uint8_t *b, size_t n, const char *hex) {
    char buf[2 * 192 + 1];
    hex_encode(buf, b, n);
    return strcmp(buf, hex) == 0;
}

static void kat_fields(void) {
    /* Fr: 1/0x1234567890abcdef, big-endian hex from noble */
    fr a, inv;
    uint8_t le[32];
    char be[65];
    fr_set_u64(&a, 0x1234567890abcdefULL);
    fr_inv(&inv, &a);
    fr_to_bytes_le(le, &inv);
    for (int i = 0; i < 32; i++)
        snprintf(be + 2 * i, 3, "%02x", le[31 - i]);
    expect(strcmp(be, "6e8ea549af2c09ea5ebbf3ba1a05be3e54507ee49089868ea98f70b3f165e6da") == 0,
           "Fr inverse known answer");
    /* the 2^32-th root of unity has order exactly 2^32 */
    fr w;
    fr_root_of_unity(&w, 32);
    for (int i = 0; i < 31; i++)
        fr_sqr(&w, &w);
    fr_neg(&w, &w);
    expect(fr_is_one(&w), "Fr root of unity has order 2^32");
    /* (p - 1)^2 = 1 on both multiplication paths */
    fp m1, t, u;
    fp_set_one(&m1);
    fp_neg(&m1, &m1);
    fp_mul_portable(&t, &m1, &m1);
    fp_mul_adx(&u, &m1, &m1);
    expect(fp_is_one(&t) && fp_is_one(&u), "Fp (p-1)^2 = 1, portable and ADX");
    fp_inv(&t, &G1_GEN_X);
    fp_mul(&t, &t, &G1_GEN_X);
    expect(fp_is_one(&t), "Fp inverse");
}

static void kat_curves(void) {
    g1_affine g1, p;
    g2_affine g2;
    g1_jac j;
    uint8_t c[96];
    g1_affine_generator(&g1);
    g2_affine_generator(&g2);
    g1_to_compressed(c, &g1);
    expect(hex_is(c, 48,
                  "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aef"
                  "fb3af00adb22c6bb"),
           "G1 generator compressed");
    g1_jac_from_affine(&j, &g1);
    g1_jac_dbl(&j, &j);
    g1_jac_to_affine(&p, &j);
    g1_to_compressed(c, &p);
    expect(hex_is(c, 48,
                  "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42"
                  "c39a8c5529bf0f4e"),
           "2*G1 compressed");
    g2_to_compressed(c, &g2);
    expect(hex_is(c, 96,
                  "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57"
                  "e5ac7d055d042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d177"
                  "0bac0326a805bbefd48056c8c121bdb8"),
           "G2 generator compressed");
    expect(g1_affine_in_subgroup(&g1) && g2_affine_in_subgroup(&g2), "generators in subgroup");
    /* x = 0 gives y^2 = 4: (0, 2) is on the curve but of order 3, not in G1 */
    g1_affine small = {{{0}}, {{0}}};
    fp_set_u64(&small.y, 2);
    expect(g1_affine_is_on_curve(&small) && !g1_affine_in_subgroup(&small),
           "order-3 point rejected by the subgroup check");
}

static void kat_pairing(void) {
    g1_affine g1, a1, ab1;
    g2_affine g2, b2;
    g1_jac j;
    g2_jac k;
    fp12 e;
    uint8_t b[576];
    g1_affine_generator(&g1);
    g2_affine_generator(&g2);
    pairing(&e, &g1, &g2);
    fp12_to_bytes_be(b, &e);
    expect(hex_is(b, 48,
                  "1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508"
                  "a84305aaca1789b6"),
           "e(G1, G2).c0.c0.c0 known answer");
    /* e(5 G1, 7 G2) * e(-35 G1, G2) = 1 */
    fr five, seven, t35;
    fr_set_u64(&five, 5);
    fr_set_u64(&seven, 7);
    fr_set_u64(&t35, 35);
    g1_jac_from_affine(&j, &g1);
    g1_jac_mul_vartime(&j, &j, &five);
    g1_jac_to_affine(&a1, &j);
    g2_jac_from_affine(&k, &g2);
    g2_jac_mul_vartime(&k, &k, &seven);
    g2_jac_to_affine(&b2, &k);
    g1_jac_from_affine(&j, &g1);
    g1_jac_mul_vartime(&j, &j, &t35);
    g1_jac_neg(&j, &j);
    g1_jac_to_affine(&ab1, &j);
    g1_affine ps[2] = {a1, ab1};
    g2_affine qs[2] = {b2, g2};
    expect(pairing_product_is_one(ps, qs, 2), "bilinearity: e(5P, 7Q) e(-35P, Q) = 1");
    ps[1] = a1;
    expect(!pairing_product_is_one(ps, qs, 2), "a product that is not 1");
}

int selftest_builtin(int *checked) {
    fails = checks = 0;
    kat_fields();
    kat_curves();
    kat_pairing();
    *checked = checks;
    return fails;
}

static void print_platform(void) {
    printf("selftest: field multiply path: %s\n",
           fp_asm_enabled() ? "MULX/ADX assembly" : "portable C");
#ifdef CUZK_HAVE_CUDA
    char err[256] = "";
    int n = cuda_device_count(err, sizeof err);
    if (n < 0)
        printf("selftest: CUDA: %s\n", err);
    else
        printf("selftest: CUDA backend built; %d GPU(s) visible\n", n);
#else
    printf("selftest: CUDA backend not built (built where nvcc and a GPU are present, or with "
           "-DCUZK_CUDA=ON)\n");
#endif
}

static int usage(void) {
    fprintf(stderr, "usage: cuzk selftest [--vectors FILE]... [--eip2537 FILE]... [-v]\n"
                    "  no arguments: run the built-in known-answer tests\n"
                    "  --vectors FILE: check every case of a JSON Lines vector file "
                    "(docs/VECTORS.md)\n"
                    "  --eip2537 FILE: check an EIP-2537 precompile vector file\n");
    return 2;
}

int cmd_selftest(int argc, char **argv) {
    int verbose = 0, ran_files = 0, status = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0) {
            verbose = 1;
        } else if ((strcmp(argv[i], "--vectors") == 0 || strcmp(argv[i], "--eip2537") == 0) &&
                   i + 1 < argc) {
            int rc = argv[i][2] == 'v' ? vectors_check_file(argv[i + 1], verbose)
                                       : eip2537_check_file(argv[i + 1]);
            if (rc > status)
                status = rc;
            ran_files = 1;
            i++;
        } else {
            return usage();
        }
    }
    if (ran_files)
        return status;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    print_platform();
    int checked = 0, failed = selftest_builtin(&checked);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("selftest: built-in known answers in %.1f ms\n", ms);
    printf("%d passed, %d failed\n", checked - failed, failed);
    return failed ? 1 : 0;
}
