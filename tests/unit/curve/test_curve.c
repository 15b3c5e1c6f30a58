/* G1/G2: group laws, scalar multiplication, the endomorphism subgroup checks
 * against the definition (r*P = 0), and zkcrypto's 4,000 encoding vectors
 * (i*G for i = 0..999, compressed and uncompressed). */
#include <string.h>

#include "check.h"
#include "field_rand.h"
#include "curve/encode.h"
#include "curve/fixed_base.h"
#include "field/constants.h"

static void test_g1_laws(void) {
    g1_affine ga;
    g1_affine_generator(&ga);
    g1_jac g, a, b, s, t;
    g1_jac_from_affine(&g, &ga);
    CHECK(g1_affine_is_on_curve(&ga) && g1_affine_in_subgroup(&ga));
    for (int i = 0; i < 20; i++) {
        fr x = rand_fr(), y = rand_fr(), z;
        g1_jac_mul_vartime(&a, &g, &x);
        g1_jac_mul_vartime(&b, &g, &y);
        fr_add(&z, &x, &y);
        g1_jac_mul_vartime(&s, &g, &z);
        g1_jac_add_vartime(&t, &a, &b);
        CHECK(g1_jac_equal(&s, &t));
        g1_affine bb;
        g1_jac_to_affine(&bb, &b);
        g1_jac_add_affine_vartime(&t, &a, &bb);
        CHECK(g1_jac_equal(&s, &t));
        g1_jac_add_vartime(&t, &a, &a); /* doubling through add */
        g1_jac_dbl(&s, &a);
        CHECK(g1_jac_equal(&s, &t));
        g1_jac_neg(&t, &a); /* P + (-P) */
        g1_jac_add_vartime(&t, &t, &a);
        CHECK(g1_jac_is_infinity(&t));
        CHECK(g1_jac_in_subgroup(&a));
    }
    /* r * G = 0, (r - 1) * G = -G */
    g1_jac_mul_raw_vartime(&t, &g, FR_MODULUS_RAW.l, 4);
    CHECK(g1_jac_is_infinity(&t));
    fr m1;
    fr_set_one(&m1);
    fr_neg(&m1, &m1);
    g1_jac_mul_vartime(&t, &g, &m1);
    g1_jac_neg(&s, &g);
    CHECK(g1_jac_equal(&t, &s));
    /* batch affine conversion, with an infinity in the middle */
    g1_jac pts[5];
    g1_affine aff[5], one;
    for (int i = 0; i < 5; i++)
        g1_jac_mul_vartime(&pts[i], &g, &(fr){{(uint64_t)i + 1, 0, 0, 0}});
    g1_jac_set_infinity(&pts[2]);
    g1_jac_batch_to_affine(aff, pts, 5);
    for (int i = 0; i < 5; i++) {
        g1_jac_to_affine(&one, &pts[i]);
        CHECK(g1_affine_equal(&one, &aff[i]));
    }
}

static void test_g1_subgroup_check(void) {
    /* Random curve points are almost never in G1; the fast check must agree
     * with the definition r * P = 0, and accept P after cofactor clearing. */
    int outside = 0, found = 0;
    for (int i = 0; i < 400 && found < 15; i++) {
        fp x = rand_fp(), rhs, y;
        fp_sqr(&rhs, &x);
        fp_mul(&rhs, &rhs, &x);
        fp_add(&rhs, &rhs, &G1_B);
        if (!fp_sqrt(&y, &rhs))
            continue;
        g1_affine p = {x, y};
        g1_jac j, t;
        g1_jac_from_affine(&j, &p);
        g1_jac_mul_raw_vartime(&t, &j, FR_MODULUS_RAW.l, 4);
        int by_definition = g1_jac_is_infinity(&t);
        CHECK(g1_affine_in_subgroup(&p) == by_definition);
        outside += !by_definition;
        /* h1 = (x - 1)^2 / 3 = 0x396c8c005555e1568c00aaab0000aaab */
        const uint64_t h1[2] = {0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL};
        g1_jac_mul_raw_vartime(&t, &j, h1, 2);
        CHECK(g1_jac_in_subgroup(&t));
        found++;
    }
    CHECK(found == 15 && outside == 15); /* in G1 with chance ~2^-126 */
}

static void test_g2_laws_and_subgroup(void) {
    g2_affine ga;
    g2_affine_generator(&ga);
    g2_jac g, a, b, s, t;
    g2_jac_from_affine(&g, &ga);
    CHECK(g2_affine_is_on_curve(&ga) && g2_affine_in_subgroup(&ga));
    for (int i = 0; i < 10; i++) {
        fr x = rand_fr(), y = rand_fr(), z;
        g2_jac_mul_vartime(&a, &g, &x);
        g2_jac_mul_vartime(&b, &g, &y);
        fr_mul(&z, &x, &y);
        g2_jac_mul_vartime(&s, &a, &y); /* y (x G) = (xy) G */
        g2_jac_mul_vartime(&t, &g, &z);
        CHECK(g2_jac_equal(&s, &t));
        g2_affine bb;
        g2_jac_to_affine(&bb, &b);
        g2_jac_add_vartime(&s, &a, &b);
        g2_jac_add_affine_vartime(&t, &a, &bb);
        CHECK(g2_jac_equal(&s, &t));
        CHECK(g2_jac_in_subgroup(&a));
    }
    g2_jac_mul_raw_vartime(&t, &g, FR_MODULUS_RAW.l, 4);
    CHECK(g2_jac_is_infinity(&t));
    /* about half of all x give a curve point; draw until 8 did */
    int outside = 0, found = 0;
    for (int i = 0; i < 400 && found < 8; i++) {
        fp2 x = {rand_fp(), rand_fp()}, rhs, y;
        fp2_sqr(&rhs, &x);
        fp2_mul(&rhs, &rhs, &x);
        fp2_add(&rhs, &rhs, &G2_B);
        if (!fp2_sqrt(&y, &rhs))
            continue;
        g2_affine p = {x, y};
        g2_jac j;
        g2_jac_from_affine(&j, &p);
        g2_jac_mul_raw_vartime(&t, &j, FR_MODULUS_RAW.l, 4);
        int by_definition = g2_jac_is_infinity(&t);
        CHECK(g2_affine_in_subgroup(&p) == by_definition);
        outside += !by_definition;
        found++;
    }
    CHECK(found == 8 && outside == 8); /* a random twist point is in G2 with chance ~2^-128 */
}

static uint8_t *read_file(const char *name, size_t expect) {
    const char *dir = getenv("CUZK_SHARED");
    char path[1024];
    snprintf(path, sizeof path, "%s/vectors/zkcrypto/%s", dir ? dir : "../shared", name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s (set CUZK_SHARED)\n", path);
        CHECK(0);
        return NULL;
    }
    uint8_t *buf = malloc(expect);
    size_t got = fread(buf, 1, expect, f);
    fclose(f);
    CHECK(got == expect);
    return buf;
}

static void test_zkcrypto_vectors(void) {
    uint8_t *g1c = read_file("g1_compressed_valid_test_vectors.dat", 48000);
    uint8_t *g1u = read_file("g1_uncompressed_valid_test_vectors.dat", 96000);
    uint8_t *g2c = read_file("g2_compressed_valid_test_vectors.dat", 96000);
    uint8_t *g2u = read_file("g2_uncompressed_valid_test_vectors.dat", 192000);
    if (!g1c || !g1u || !g2c || !g2u)
        return;
    g1_affine g1a;
    g2_affine g2a;
    g1_affine_generator(&g1a);
    g2_affine_generator(&g2a);
    g1_jac acc1;
    g2_jac acc2;
    g1_jac_set_infinity(&acc1);
    g2_jac_set_infinity(&acc2);
    int ok = 1;
    for (int i = 0; i < 1000 && ok; i++) {
        g1_affine p1, d1;
        g2_affine p2, d2;
        uint8_t buf[192];
        g1_jac_to_affine(&p1, &acc1);
        g2_jac_to_affine(&p2, &acc2);
        g1_to_compressed(buf, &p1);
        ok &= memcmp(buf, g1c + 48 * i, 48) == 0;
        g1_to_uncompressed(buf, &p1);
        ok &= memcmp(buf, g1u + 96 * i, 96) == 0;
        g2_to_compressed(buf, &p2);
        ok &= memcmp(buf, g2c + 96 * i, 96) == 0;
        g2_to_uncompressed(buf, &p2);
        ok &= memcmp(buf, g2u + 192 * i, 192) == 0;
        ok &= g1_from_compressed(&d1, g1c + 48 * i) == CURVE_OK && g1_affine_equal(&d1, &p1);
        ok &= g1_from_uncompressed(&d1, g1u + 96 * i) == CURVE_OK && g1_affine_equal(&d1, &p1);
        ok &= g2_from_compressed(&d2, g2c + 96 * i) == CURVE_OK && g2_affine_equal(&d2, &p2);
        ok &= g2_from_uncompressed(&d2, g2u + 192 * i) == CURVE_OK && g2_affine_equal(&d2, &p2);
        if (!ok)
            fprintf(stderr, "zkcrypto vector %d differs\n", i);
        g1_jac_add_affine_vartime(&acc1, &acc1, &g1a);
        g2_jac_add_affine_vartime(&acc2, &acc2, &g2a);
    }
    CHECK(ok);
    free(g1c);
    free(g1u);
    free(g2c);
    free(g2u);
}

static void test_decode_rejects(void) {
    g1_affine g, d;
    g1_affine_generator(&g);
    uint8_t c[48], u[96], t[96];
    g1_to_compressed(c, &g);
    g1_to_uncompressed(u, &g);
    memcpy(t, c, 48);
    t[0] &= 0x7f; /* compressed without its flag */
    CHECK(g1_from_compressed(&d, t) == CURVE_ERR_FLAGS);
    memcpy(t, u, 96);
    t[0] |= 0x80;
    CHECK(g1_from_uncompressed(&d, t) == CURVE_ERR_FLAGS);
    memcpy(t, u, 96);
    t[0] |= 0x20;
    CHECK(g1_from_uncompressed(&d, t) == CURVE_ERR_FLAGS);
    memcpy(t, u, 96);
    t[95] ^= 1; /* perturbed y */
    CHECK(g1_from_uncompressed(&d, t) == CURVE_ERR_NOT_ON_CURVE);
    memset(t, 0, 96); /* (0, 0) without the infinity flag */
    CHECK(g1_from_uncompressed(&d, t) == CURVE_ERR_NOT_ON_CURVE);
    t[0] = 0x40;
    t[50] = 1; /* infinity with a non-zero coordinate */
    CHECK(g1_from_uncompressed(&d, t) == CURVE_ERR_FLAGS);
    memset(t, 0xff, 48);
    t[0] = 0x9f; /* compressed x >= p */
    CHECK(g1_from_compressed(&d, t) == CURVE_ERR_NOT_CANONICAL);
    memset(t, 0, 48);
    t[0] = 0xe0; /* compressed infinity with the sort flag */
    CHECK(g1_from_compressed(&d, t) == CURVE_ERR_FLAGS);
}

/* Garbage in: every decoder must answer (no crash under ASan), and whatever it
 * accepts must re-encode to exactly the bytes it was given (one encoding per
 * point).  Random bytes with the flag bits forced to each combination. */
static void test_decode_garbage(void) {
    int accepted = 0;
    for (int i = 0; i < 4000; i++) {
        uint8_t in[192], out[192];
        check_rand_bytes(in, sizeof in);
        in[0] = (uint8_t)((in[0] & 0x1f) | ((i & 7) << 5));
        if ((i / 8) % 4 == 0) { /* infinity-shaped inputs, every flag mix */
            in[0] &= 0xe0;
            memset(in + 1, 0, sizeof in - 1);
        }
        g1_affine p;
        g2_affine q;
        if (g1_from_compressed(&p, in) == CURVE_OK) {
            g1_to_compressed(out, &p);
            CHECK_MEM(out, in, 48);
            accepted++;
        }
        if (g1_from_uncompressed(&p, in) == CURVE_OK) {
            g1_to_uncompressed(out, &p);
            CHECK_MEM(out, in, 96);
        }
        if (g2_from_compressed(&q, in) == CURVE_OK) {
            g2_to_compressed(out, &q);
            CHECK_MEM(out, in, 96);
            accepted++;
        }
        if (g2_from_uncompressed(&q, in) == CURVE_OK) {
            g2_to_uncompressed(out, &q);
            CHECK_MEM(out, in, 192);
        }
        /* the unchecked decoders never crash either; accepted means canonical */
        (void)g1_from_uncompressed_unchecked(&p, in);
        (void)g2_from_compressed_unchecked(&q, in);
    }
    CHECK(accepted > 0); /* the compressed infinity encodings (0xc0, then zeros) at least */
}

/* Batched affine addition against Jacobian addition, every special case:
 * generic, doubling, P + (-P), either side infinity, both infinity, and
 * the output aliasing either input. */
#define BATCH_ADD_TEST(PT)                                                                     \
    static void test_##PT##_batch_add(void) {                                                  \
        enum { N = 64 };                                                                       \
        PT##_affine g, a[N], b[N], out[N], out_b[N];                                           \
        PT##_jac gj, t;                                                                        \
        PT##_affine_generator(&g);                                                             \
        PT##_jac_from_affine(&gj, &g);                                                         \
        for (int i = 0; i < N; i++) {                                                          \
            fr x = rand_fr(), y = rand_fr();                                                   \
            PT##_jac_mul_vartime(&t, &gj, &x);                                                 \
            PT##_jac_to_affine(&a[i], &t);                                                     \
            PT##_jac_mul_vartime(&t, &gj, &y);                                                 \
            PT##_jac_to_affine(&b[i], &t);                                                     \
            switch (i % 8) {                                                                   \
            case 1:                                                                            \
                b[i] = a[i];                                                                   \
                break; /* doubling */                                                          \
            case 2:                                                                            \
                PT##_affine_neg(&b[i], &a[i]);                                                 \
                break; /* P + (-P) */                                                          \
            case 3:                                                                            \
                PT##_affine_set_infinity(&a[i]);                                               \
                break;                                                                         \
            case 4:                                                                            \
                PT##_affine_set_infinity(&b[i]);                                               \
                break;                                                                         \
            case 5:                                                                            \
                PT##_affine_set_infinity(&a[i]);                                               \
                PT##_affine_set_infinity(&b[i]);                                               \
                break;                                                                         \
            default:                                                                           \
                break;                                                                         \
            }                                                                                  \
        }                                                                                      \
        PT##_batch_scratch s;                                                                  \
        CHECK(PT##_batch_scratch_init(&s, N) == 0);                                            \
        PT##_affine_batch_add_vartime(out, a, b, N, &s);                                       \
        for (int i = 0; i < N; i++) {                                                          \
            PT##_jac ja, e;                                                                    \
            PT##_jac_from_affine(&ja, &a[i]);                                                  \
            PT##_jac_add_affine_vartime(&ja, &ja, &b[i]);                                      \
            PT##_jac_from_affine(&e, &out[i]);                                                 \
            CHECK(PT##_jac_equal(&ja, &e));                                                    \
            CHECK(PT##_affine_is_on_curve(&out[i]));                                           \
        }                                                                                      \
        for (int i = 0; i < N; i++)                                                            \
            out_b[i] = b[i];                                                                   \
        PT##_affine_batch_add_vartime(out_b, a, out_b, N, &s); /* out aliases b */             \
        PT##_affine_batch_add_vartime(a, a, b, N, &s);         /* out aliases a */             \
        for (int i = 0; i < N; i++)                                                            \
            CHECK(PT##_affine_equal(&out[i], &out_b[i]) && PT##_affine_equal(&out[i], &a[i])); \
        PT##_affine_batch_add_vartime(out, a, b, 0, &s); /* empty: no effect, no fault */      \
        PT##_batch_scratch_free(&s);                                                           \
    }
BATCH_ADD_TEST(g1)
BATCH_ADD_TEST(g2)

/* Fixed-base tables against the variable-base ladder.  Edge scalars: 0, 1,
 * 2, r - 1, r - 2, powers of two either side of every window boundary, and
 * scalars whose digits repeat (every digit the same, all ones); N spans more
 * than one batch of the mul_many tasks.  Within one multiplication the
 * accumulator (below 2^(w j)) never equals the added entry d 2^(w j) P nor
 * its negation for a canonical non-zero scalar, so the batch's doubling and
 * P + (-P) cases are tested directly (test_g1_batch_add); the table build
 * does use the doubling (row[len - 1] + row[len - 1]). */
static void test_fixed_base(void) {
    enum { N = 2600, N2 = 200 };
    static fr k[N];
    size_t n = 0;
    uint64_t raw[4];
    fr_set_zero(&k[n++]);
    fr_set_one(&k[n++]);
    fr_add(&k[n], &k[n - 1], &k[n - 1]), n++; /* 2 */
    fr_neg(&k[n], &k[1]), n++;                /* r - 1 */
    fr_neg(&k[n], &k[2]), n++;                /* r - 2 */
    for (unsigned e = 0; e < 255; e++) {
        static const unsigned bw[] = {5, 8, 13, 16};
        int edge = 0; /* 2^e just below or on a window boundary */
        for (int q = 0; q < 4; q++)
            edge |= e % bw[q] == 0 || e % bw[q] == bw[q] - 1;
        if (!edge)
            continue;
        memset(raw, 0, sizeof raw);
        raw[e / 64] = (uint64_t)1 << (e % 64);
        fr_from_raw(&k[n++], raw);
    }
    static const uint64_t reps[] = {0x0101010101010101ULL, 0xffffffffffffffffULL,
                                    0x1fff1fff1fff1fffULL, 0x00ff00ff00ff00ffULL};
    for (int i = 0; i < 4; i++) {
        raw[0] = raw[1] = raw[2] = reps[i];
        raw[3] = reps[i] & 0x0fffffffffffffffULL; /* below r */
        fr_from_raw(&k[n++], raw);
    }
    CHECK(n <= N2); /* G2 takes the first N2: every edge case */
    while (n < N)
        k[n++] = rand_fr();
    static const unsigned windows[] = {1, 5, 8, 13, 16};
    for (int wi = 0; wi < 5; wi++) {
        static g1_affine out1[N];
        g1_affine g1;
        g2_affine g2, out2[N2];
        g1_affine_generator(&g1);
        g2_affine_generator(&g2);
        g1_fixed_table t1;
        g2_fixed_table t2 = {0};
        CHECK(g1_fixed_table_init(&t1, &g1, windows[wi], 2) == 0);
        CHECK(g1_fixed_mul_many(out1, &t1, k, N, 2) == 0);
        for (int i = 0; i < N; i++) {
            g1_jac j, e;
            g1_jac_from_affine(&j, &g1);
            g1_jac_mul_vartime(&j, &j, &k[i]);
            g1_jac_from_affine(&e, &out1[i]);
            CHECK(g1_jac_equal(&j, &e));
        }
        /* G2 shares the template; its w = 16 table (200 MB) is left to setup */
        if (windows[wi] < 16) {
            CHECK(g2_fixed_table_init(&t2, &g2, windows[wi], 2) == 0);
            CHECK(g2_fixed_mul_many(out2, &t2, k, N2, 2) == 0);
            for (int i = 0; i < N2; i++) {
                g2_jac j, e;
                g2_jac_from_affine(&j, &g2);
                g2_jac_mul_vartime(&j, &j, &k[i]);
                g2_jac_from_affine(&e, &out2[i]);
                CHECK(g2_jac_equal(&j, &e));
            }
        }
        g1_fixed_table_free(&t1);
        g2_fixed_table_free(&t2);
    }
    CHECK(fixed_base_window(3) <= 8 && fixed_base_window((size_t)1 << 22) == 16);
}

int main(void) {
    check_seed("test_curve");
    test_g1_laws();
    test_g1_subgroup_check();
    test_g2_laws_and_subgroup();
    test_decode_rejects();
    test_zkcrypto_vectors();
    test_decode_garbage();
    test_g1_batch_add();
    test_g2_batch_add();
    test_fixed_base();
    return check_finish();
}
