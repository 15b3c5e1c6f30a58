/* Fp6 and Fp12: tower laws on random elements, sparse products against full
 * ones, Frobenius maps against p^k-th powers, cyclotomic squaring against
 * plain squaring inside the cyclotomic subgroup, and the byte layout. */
#include "check.h"
#include "field_rand.h"
#include "field/constants.h"
#include "field/fp12.h"

static fp6 rand_fp6(void) {
    fp6 r = {rand_fp2(), rand_fp2(), rand_fp2()};
    return r;
}

static fp12 rand_fp12(void) {
    fp12 r = {rand_fp6(), rand_fp6()};
    return r;
}

/* r = p^k as plain limbs (6k of them), by schoolbook multiplication */
static void p_power(uint64_t *r, unsigned k) {
    memset(r, 0, 6 * k * sizeof *r);
    r[0] = 1;
    for (unsigned n = 0; n < k; n++) {
        uint64_t t[24] = {0};
        for (unsigned i = 0; i < 6 * n + 1 && i < 6 * k; i++) {
            unsigned __int128 carry = 0;
            for (unsigned j = 0; j < 6; j++) {
                unsigned __int128 x =
                    (unsigned __int128)r[i] * FP_MODULUS_RAW.l[j] + t[i + j] + carry;
                t[i + j] = (uint64_t)x;
                carry = x >> 64;
            }
            t[i + 6] = (uint64_t)carry;
        }
        memcpy(r, t, 6 * k * sizeof *r);
    }
}

static void test_fp6(void) {
    for (int i = 0; i < 200; i++) {
        fp6 a = rand_fp6(), b = rand_fp6(), c = rand_fp6(), t, u, v;
        fp6_mul(&t, &a, &b);
        fp6_mul(&u, &b, &a);
        CHECK(fp6_equal(&t, &u));
        fp6_add(&t, &a, &b); /* (a + b) c = ac + bc */
        fp6_mul(&t, &t, &c);
        fp6_mul(&u, &a, &c);
        fp6_mul(&v, &b, &c);
        fp6_add(&u, &u, &v);
        CHECK(fp6_equal(&t, &u));
        fp6_mul(&t, &a, &b); /* (ab)c = a(bc) */
        fp6_mul(&t, &t, &c);
        fp6_mul(&u, &b, &c);
        fp6_mul(&u, &a, &u);
        CHECK(fp6_equal(&t, &u));
        fp6_sqr(&t, &a);
        fp6_mul(&u, &a, &a);
        CHECK(fp6_equal(&t, &u));
        fp6_sub(&t, &a, &b);
        fp6_add(&t, &t, &b);
        CHECK(fp6_equal(&t, &a));
        fp6_neg(&t, &a);
        fp6_add(&t, &t, &a);
        CHECK(fp6_is_zero(&t));
        fp6_dbl(&t, &a);
        fp6_add(&u, &a, &a);
        CHECK(fp6_equal(&t, &u));
        fp6_inv(&t, &a);
        fp6_mul(&u, &t, &a);
        CHECK(fp6_is_one(&u));

        /* sparse and special products against the full one */
        fp6 s;
        fp6_set_zero(&s);
        s.c1 = b.c1;
        fp6_mul_by_1(&t, &a, &b.c1);
        fp6_mul(&u, &a, &s);
        CHECK(fp6_equal(&t, &u));
        s.c0 = b.c0;
        fp6_mul_by_01(&t, &a, &b.c0, &b.c1);
        fp6_mul(&u, &a, &s);
        CHECK(fp6_equal(&t, &u));
        fp6_set_zero(&s);
        s.c0 = b.c0;
        fp6_mul_by_fp2(&t, &a, &b.c0);
        fp6_mul(&u, &a, &s);
        CHECK(fp6_equal(&t, &u));
        fp6_set_zero(&s);
        fp2_set_one(&s.c1); /* v */
        fp6_mul_by_nonresidue(&t, &a);
        fp6_mul(&u, &a, &s);
        CHECK(fp6_equal(&t, &u));

        /* aliasing: r = a */
        t = a;
        fp6_mul(&t, &t, &b);
        fp6_mul(&u, &a, &b);
        CHECK(fp6_equal(&t, &u));
        t = a;
        fp6_sqr(&t, &t);
        fp6_sqr(&u, &a);
        CHECK(fp6_equal(&t, &u));
    }
    fp6 z, t;
    fp6_set_zero(&z);
    fp6_inv(&t, &z);
    CHECK(fp6_is_zero(&t));

    /* Frobenius: the p- and p^2-th powers, and period 6 */
    uint64_t p1[6], p2[12];
    p_power(p1, 1);
    p_power(p2, 2);
    for (int i = 0; i < 5; i++) {
        fp6 a = rand_fp6(), t, u;
        fp12 a12, u12; /* Fp6 powers through Fp12, with c1 = 0 */
        fp12_set_zero(&a12);
        a12.c0 = a;
        fp6_frobenius(&t, &a, 1);
        fp12_pow_vartime(&u12, &a12, p1, 6);
        CHECK(fp6_equal(&t, &u12.c0));
        fp6_frobenius(&t, &a, 2);
        fp12_pow_vartime(&u12, &a12, p2, 12);
        CHECK(fp6_equal(&t, &u12.c0));
        u = a;
        for (int k = 0; k < 6; k++)
            fp6_frobenius(&u, &u, 1);
        CHECK(fp6_equal(&u, &a));
        fp6_frobenius(&t, &a, 6);
        CHECK(fp6_equal(&t, &a));
    }
}

static void test_fp12(void) {
    for (int i = 0; i < 100; i++) {
        fp12 a = rand_fp12(), b = rand_fp12(), c = rand_fp12(), t, u, v;
        fp12_mul(&t, &a, &b);
        fp12_mul(&u, &b, &a);
        CHECK(fp12_equal(&t, &u));
        fp12_mul(&t, &a, &b); /* (ab)c = a(bc) */
        fp12_mul(&t, &t, &c);
        fp12_mul(&u, &b, &c);
        fp12_mul(&u, &a, &u);
        CHECK(fp12_equal(&t, &u));
        fp12_sqr(&t, &a);
        fp12_mul(&u, &a, &a);
        CHECK(fp12_equal(&t, &u));
        fp12_inv(&t, &a);
        fp12_mul(&u, &t, &a);
        CHECK(fp12_is_one(&u));
        /* conj is the p^6 Frobenius */
        fp12_conj(&t, &a);
        fp12_frobenius(&u, &a, 6);
        CHECK(fp12_equal(&t, &u));

        /* sparse line product against the full product */
        fp12 s;
        fp12_set_zero(&s);
        s.c0.c0 = b.c0.c0;
        s.c0.c1 = b.c0.c1;
        s.c1.c1 = b.c1.c1;
        fp12_mul_by_014(&t, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
        fp12_mul(&u, &a, &s);
        CHECK(fp12_equal(&t, &u));
        t = a;
        fp12_mul_by_014(&t, &t, &b.c0.c0, &b.c0.c1, &b.c1.c1);
        CHECK(fp12_equal(&t, &u));

        /* aliasing */
        t = a;
        fp12_mul(&t, &t, &b);
        fp12_mul(&u, &a, &b);
        CHECK(fp12_equal(&t, &u));
        t = b;
        fp12_mul(&t, &a, &t);
        CHECK(fp12_equal(&t, &u));
        t = a;
        fp12_sqr(&t, &t);
        fp12_sqr(&u, &a);
        CHECK(fp12_equal(&t, &u));
        t = a;
        fp12_inv(&t, &t);
        fp12_inv(&u, &a);
        CHECK(fp12_equal(&t, &u));

        /* the cyclotomic subgroup: m = a^((p^6 - 1)(p^2 + 1)) */
        fp12 m;
        fp12_inv(&t, &a);
        fp12_conj(&m, &a);
        fp12_mul(&m, &m, &t);
        fp12_frobenius(&t, &m, 2);
        fp12_mul(&m, &m, &t);
        fp12_cyclotomic_sqr(&t, &m);
        fp12_sqr(&u, &m);
        CHECK(fp12_equal(&t, &u));
        v = m;
        fp12_cyclotomic_sqr(&v, &v);
        CHECK(fp12_equal(&v, &u));
        fp12_conj(&t, &m); /* conj = inverse there */
        fp12_mul(&t, &t, &m);
        CHECK(fp12_is_one(&t));
        /* ... and not outside it (a random a is not in it) */
        fp12_cyclotomic_sqr(&t, &a);
        fp12_sqr(&u, &a);
        CHECK(!fp12_equal(&t, &u));
    }
    fp12 z, t;
    fp12_set_zero(&z);
    fp12_inv(&t, &z);
    CHECK(fp12_equal(&t, &z));

    /* Frobenius against exponentiation by p and p^2; composition; period 12 */
    uint64_t p1[6], p2[12];
    p_power(p1, 1);
    p_power(p2, 2);
    for (int i = 0; i < 3; i++) {
        fp12 a = rand_fp12(), t, u;
        fp12_frobenius(&t, &a, 1);
        fp12_pow_vartime(&u, &a, p1, 6);
        CHECK(fp12_equal(&t, &u));
        fp12_frobenius(&t, &a, 2);
        fp12_pow_vartime(&u, &a, p2, 12);
        CHECK(fp12_equal(&t, &u));
        u = a;
        for (unsigned k = 1; k <= 12; k++) {
            fp12_frobenius(&u, &u, 1);
            fp12_frobenius(&t, &a, k);
            CHECK(fp12_equal(&t, &u));
        }
        CHECK(fp12_equal(&u, &a));
    }
}

static void test_bytes(void) {
    /* coefficient k (0..11 in c0-before-c1 order) set to k + 1 */
    fp12 a;
    fp *slot[12] = {&a.c0.c0.c0, &a.c0.c0.c1, &a.c0.c1.c0, &a.c0.c1.c1, &a.c0.c2.c0, &a.c0.c2.c1,
                    &a.c1.c0.c0, &a.c1.c0.c1, &a.c1.c1.c0, &a.c1.c1.c1, &a.c1.c2.c0, &a.c1.c2.c1};
    for (int k = 0; k < 12; k++)
        fp_set_u64(slot[k], (uint64_t)k + 1);
    uint8_t out[FP12_BYTES], want[FP12_BYTES];
    memset(want, 0, sizeof want);
    for (int k = 0; k < 12; k++)
        want[k * FP_BYTES + FP_BYTES - 1] = (uint8_t)(k + 1);
    fp12_to_bytes_be(out, &a);
    CHECK_MEM(out, want, FP12_BYTES);
    fp12_set_one(&a);
    CHECK(fp12_is_one(&a));
    fp12_to_bytes_be(out, &a);
    memset(want, 0, sizeof want);
    want[FP_BYTES - 1] = 1;
    CHECK_MEM(out, want, FP12_BYTES);
}

int main(void) {
    check_seed("test_fp12");
    test_fp6();
    test_fp12();
    test_bytes();
    return check_finish();
}
