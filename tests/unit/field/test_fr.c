/* Fr: algebraic laws, ADX against portable, encodings, reduction of 256-bit
 * scalars, roots of unity. */
#include "check.h"
#include "field_rand.h"
#include "field/constants.h"
#include "field/fp.h"
#include "field/fr.h"

static void test_laws(void) {
    for (int i = 0; i < 3000; i++) {
        fr a = rand_fr(), b = rand_fr(), c = rand_fr(), t, u, v;
        fr_mul_portable(&t, &a, &b);
        fr_mul_adx(&u, &a, &b);
        CHECK(fr_equal(&t, &u));
        fr_mul(&v, &b, &a);
        CHECK(fr_equal(&t, &v));
        fr_add_portable(&t, &a, &b);
        fr_add_x86(&u, &a, &b);
        CHECK(fr_equal(&t, &u));
        fr_sub_portable(&t, &a, &b);
        fr_sub_x86(&u, &a, &b);
        CHECK(fr_equal(&t, &u));
        u = a; /* aliasing */
        fr_sub_x86(&u, &u, &b);
        CHECK(fr_equal(&t, &u));
        fr_add(&t, &a, &b);
        fr_mul(&t, &t, &c);
        fr_mul(&u, &a, &c);
        fr_mul(&v, &b, &c);
        fr_add(&u, &u, &v);
        CHECK(fr_equal(&t, &u));
        fr_sub(&t, &a, &b);
        fr_add(&t, &t, &b);
        CHECK(fr_equal(&t, &a));
        fr_neg(&t, &a);
        fr_add(&t, &t, &a);
        CHECK(fr_is_zero(&t));
        uint8_t enc[32];
        fr_to_bytes_le(enc, &a);
        CHECK(fr_from_bytes_le(&t, enc) && fr_equal(&t, &a));
    }
    for (int i = 0; i < 100; i++) {
        fr a = rand_fr(), t;
        fr_inv(&t, &a);
        fr_mul(&t, &t, &a);
        CHECK(fr_is_one(&t));
    }
}

static void test_encoding_edges(void) {
    uint8_t enc[32];
    fr t, m1;
    fr_set_one(&m1);
    fr_neg(&m1, &m1);
    fr_to_bytes_le(enc, &m1);
    CHECK(enc[0] == 0x00 && enc[31] == 0x73); /* r - 1 = 0x73ed...00000000 */
    enc[0] = 0x01;                            /* = r */
    CHECK(!fr_from_bytes_le(&t, enc));
    /* r reduces to 0, r + 5 to 5, 2^256 - 1 to 2^256 - 1 - 2r */
    fr_from_bytes_le_reduce(&t, enc);
    CHECK(fr_is_zero(&t));
    enc[0] = 0x06;
    fr five;
    fr_set_u64(&five, 5);
    fr_from_bytes_le_reduce(&t, enc);
    CHECK(fr_equal(&t, &five));
    memset(enc, 0xff, 32);
    CHECK(!fr_from_bytes_le(&t, enc));
    fr_from_bytes_le_reduce(&t, enc);
    /* 2^256 = R (mod r), and FR_ONE's limbs hold R mod r as a plain integer,
     * so reduce(2^256 - 1) + 1 must equal that integer. */
    fr one;
    fr_set_one(&one);
    fr_add(&t, &t, &one);
    uint64_t raw[4];
    fr_to_raw(raw, &t);
    CHECK(memcmp(raw, FR_ONE.l, sizeof raw) == 0);
}

static void test_roots(void) {
    for (unsigned k = 0; k <= 32; k++) {
        fr w, t;
        fr_root_of_unity(&w, k);
        t = w;
        for (unsigned i = 0; i < k; i++)
            fr_sqr(&t, &t);
        CHECK(fr_is_one(&t)); /* w^(2^k) = 1 */
        if (k > 0) {
            t = w;
            for (unsigned i = 0; i + 1 < k; i++)
                fr_sqr(&t, &t);
            fr_neg(&t, &t);
            CHECK(fr_is_one(&t)); /* w^(2^(k-1)) = -1: primitive */
        }
    }
    /* omega_32 = 7^((r-1)/2^32) */
    fr seven, w, t;
    fr_set_u64(&seven, 7);
    const uint64_t t_exp[4] = {0xfffe5bfeffffffffULL, 0x09a1d80553bda402ULL, 0x299d7d483339d808ULL,
                               0x0000000073eda753ULL};
    fr_pow_vartime(&t, &seven, t_exp, 4);
    fr_root_of_unity(&w, 32);
    CHECK(fr_equal(&t, &w));
}

int main(void) {
    check_seed("test_fr");
    test_laws();
    test_encoding_edges();
    test_roots();
    fp_asm_select(0);
    test_laws();
    return check_finish();
}
