/* Fp and Fp2: algebraic laws on random elements, the MULX/ADX path against
 * the portable one, encodings, square roots, and a few known answers. */
#include "check.h"
#include "field_rand.h"
#include "field/constants.h"
#include "field/fp.h"
#include "field/fp2.h"

static void test_laws(void) {
    for (int i = 0; i < 2000; i++) {
        fp a = rand_fp(), b = rand_fp(), c = rand_fp(), t, u, v;
        fp_mul(&t, &a, &b);
        fp_mul(&u, &b, &a);
        CHECK(fp_equal(&t, &u));
        fp_add(&t, &a, &b); /* (a + b) c = ac + bc */
        fp_mul(&t, &t, &c);
        fp_mul(&u, &a, &c);
        fp_mul(&v, &b, &c);
        fp_add(&u, &u, &v);
        CHECK(fp_equal(&t, &u));
        fp_sub(&t, &a, &b); /* (a - b) + b = a */
        fp_add(&t, &t, &b);
        CHECK(fp_equal(&t, &a));
        fp_neg(&t, &a);
        fp_add(&t, &t, &a);
        CHECK(fp_is_zero(&t));
        fp_sqr(&t, &a);
        fp_mul(&u, &a, &a);
        CHECK(fp_equal(&t, &u));
        fp_dbl(&t, &a);
        fp_add(&u, &a, &a);
        CHECK(fp_equal(&t, &u));
        /* asm and portable agree bit for bit */
        fp_mul_portable(&t, &a, &b);
        fp_mul_adx(&u, &a, &b);
        CHECK(fp_equal(&t, &u));
        fp_add_portable(&t, &a, &b);
        fp_add_x86(&u, &a, &b);
        CHECK(fp_equal(&t, &u));
        fp_sub_portable(&t, &a, &b);
        fp_sub_x86(&u, &a, &b);
        CHECK(fp_equal(&t, &u));
        u = a; /* output aliasing an input */
        fp_sub_x86(&u, &u, &b);
        fp_sub_portable(&t, &a, &b);
        CHECK(fp_equal(&t, &u));
        u = b;
        fp_add_x86(&u, &a, &u);
        fp_add_portable(&t, &a, &b);
        CHECK(fp_equal(&t, &u));
        uint8_t enc[48];
        fp_to_bytes_be(enc, &a);
        CHECK(fp_from_bytes_be(&t, enc) && fp_equal(&t, &a));
    }
    for (int i = 0; i < 100; i++) {
        fp a = rand_fp(), t, u;
        fp_inv(&t, &a);
        fp_mul(&u, &t, &a);
        CHECK(fp_is_one(&u));
        fp_sqr(&t, &a);
        CHECK(fp_is_square(&t));
        CHECK(fp_sqrt(&u, &t));
        fp_sqr(&u, &u);
        CHECK(fp_equal(&u, &t));
        /* -1 is a non-square (p = 3 mod 4), so exactly one of a, -a is square */
        fp_neg(&u, &t);
        CHECK(!fp_is_square(&u) && !fp_sqrt(&u, &u));
    }
}

static void test_edges(void) {
    /* p - 1 squared is 1; p and above are rejected */
    fp m1, t;
    fp_set_one(&m1);
    fp_neg(&m1, &m1);
    fp_sqr(&t, &m1);
    CHECK(fp_is_one(&t));
    uint8_t enc[48];
    fp_to_bytes_be(enc, &m1);
    CHECK(enc[47] == 0xaa && enc[0] == 0x1a); /* p - 1 = ...aaaa */
    enc[47] = 0xab;                           /* = p */
    CHECK(!fp_from_bytes_be(&t, enc));
    memset(enc, 0xff, 48);
    CHECK(!fp_from_bytes_be(&t, enc));
    fp zero;
    fp_set_zero(&zero);
    fp_inv(&t, &zero);
    CHECK(fp_is_zero(&t));
    /* asm path with extreme limbs: (p-1)^2 through both */
    fp u;
    fp_mul_adx(&t, &m1, &m1);
    fp_mul_portable(&u, &m1, &m1);
    CHECK(fp_equal(&t, &u) && fp_is_one(&t));
}

static void test_fp2(void) {
    for (int i = 0; i < 300; i++) {
        fp2 a = rand_fp2(), b = rand_fp2(), t, u;
        fp2_mul(&t, &a, &b);
        fp2_mul(&u, &b, &a);
        CHECK(fp2_equal(&t, &u));
        fp2_sqr(&t, &a);
        fp2_mul(&u, &a, &a);
        CHECK(fp2_equal(&t, &u));
        fp2_inv(&t, &a);
        fp2_mul(&u, &t, &a);
        CHECK(fp2_is_one(&u));
        /* Frobenius is the p-th power */
        fp2_frobenius(&t, &a, 1);
        fp2_pow_vartime(&u, &a, FP_MODULUS_RAW.l, 6);
        CHECK(fp2_equal(&t, &u));
        fp2_sqr(&t, &a);
        CHECK(fp2_is_square(&t));
        CHECK(fp2_sqrt(&u, &t));
        fp2_sqr(&u, &u);
        CHECK(fp2_equal(&u, &t));
        /* (u+1) is a non-residue, so t*(u+1) is not a square */
        fp2_mul_by_nonresidue(&u, &t);
        CHECK(!fp2_is_square(&u) && !fp2_sqrt(&u, &u));
        uint8_t enc[96];
        fp2_to_bytes_be(enc, &a);
        CHECK(fp2_from_bytes_be(&t, enc) && fp2_equal(&t, &a));
    }
}

int main(void) {
    check_seed("test_fp");
    test_laws();
    test_edges();
    test_fp2();
    /* the whole suite once more on the portable path */
    int prev = fp_asm_select(0);
    test_laws();
    fp_asm_select(prev);
    return check_finish();
}
