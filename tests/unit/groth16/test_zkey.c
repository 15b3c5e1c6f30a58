/* snarkjs .zkey / .wtns readers, the 5^t roots of unity and
 * ntt_domain_init_root.  The end-to-end prover check against snarkjs and the
 * independent noble prover is tests/zkey_oracle.sh. */
#include "check.h"

#include "groth16/prove_zkey.h"
#include "groth16/zkey.h"
#include "ntt/ntt.h"

typedef struct {
    uint8_t *b;
    size_t n, cap;
} buf;

static void put(buf *o, const void *p, size_t n) {
    if (o->n + n > o->cap) {
        o->cap = (o->n + n) * 2;
        o->b = realloc(o->b, o->cap);
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}
static void put32(buf *o, uint32_t v) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(o, b, 4);
}
static void put64(buf *o, uint64_t v) {
    put32(o, (uint32_t)v);
    put32(o, (uint32_t)(v >> 32));
}

static void p_le(uint8_t out[48]) {
    fp m;
    uint8_t be[48];
    fp_set_one(&m);
    fp_neg(&m, &m);
    fp_to_bytes_be(be, &m);
    for (int i = 0; i < 48; i++)
        out[i] = be[47 - i];
    out[0]++;
}
static void r_le(uint8_t out[32]) {
    fr m;
    fr_set_one(&m);
    fr_neg(&m, &m);
    fr_to_bytes_le(out, &m);
    out[0]++;
}

/* The stored form of a coefficient c: c * 2^512 mod r, little-endian. */
static void coef_bytes(uint8_t out[32], uint64_t c) {
    fr f, g;
    fr_set_u64(&f, c);    /* limbs c*R */
    fr_from_raw(&g, f.l); /* value c*R, limbs c*R^2 */
    memcpy(out, g.l, 32);
}

enum { NV = 3, NP = 1, DS = 4 };

/* Section payloads of a tiny Groth16 zkey; every point is a generator or infinity. */
static void section(buf *o, int id) {
    g1_affine g1, inf1;
    g2_affine g2;
    g1_affine_generator(&g1);
    g1_affine_set_infinity(&inf1);
    g2_affine_generator(&g2);
    uint8_t pl[48], rl[32], cb[32];
    switch (id) {
    case 1:
        put32(o, 1);
        break;
    case 2:
        p_le(pl);
        r_le(rl);
        put32(o, 48);
        put(o, pl, 48);
        put32(o, 32);
        put(o, rl, 32);
        put32(o, NV);
        put32(o, NP);
        put32(o, DS);
        put(o, &g1, 96);
        put(o, &g1, 96);
        put(o, &g2, 192);
        put(o, &g2, 192);
        put(o, &g1, 96);
        put(o, &g2, 192);
        break;
    case 3:
        put(o, &g1, 96);
        put(o, &inf1, 96);
        break;
    case 4:
        put32(o, 2);
        put32(o, 0), put32(o, 0), put32(o, 1), coef_bytes(cb, 5), put(o, cb, 32);
        put32(o, 1), put32(o, 3), put32(o, 2), coef_bytes(cb, 7), put(o, cb, 32);
        break;
    case 5:
    case 6:
        for (int i = 0; i < NV; i++)
            put(o, i == 1 ? &inf1 : &g1, 96);
        break;
    case 7:
        for (int i = 0; i < NV; i++)
            put(o, &g2, 192);
        break;
    case 8:
        for (int i = 0; i < NV - NP - 1; i++)
            put(o, &g1, 96);
        break;
    case 9:
        for (int i = 0; i < DS; i++)
            put(o, &g1, 96);
        break;
    default:
        break; /* 10: empty contributions */
    }
}

/* A zkey with the sections in the given order; offs[id] = the payload's file offset. */
static buf build(const int *order, int n, size_t *offs) {
    buf o = {0};
    put(&o, "zkey", 4);
    put32(&o, 1);
    put32(&o, (uint32_t)n);
    for (int k = 0; k < n; k++) {
        buf s = {0};
        section(&s, order[k]);
        put32(&o, (uint32_t)order[k]);
        put64(&o, s.n);
        if (offs)
            offs[order[k]] = o.n;
        if (s.n)
            put(&o, s.b, s.n);
        free(s.b);
    }
    return o;
}

static const int fwd[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
static const int rev[10] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};

static void test_zkey(void) {
    size_t offs[11];
    buf f = build(fwd, 10, offs), r = build(rev, 10, NULL);
    zkey z, z2;
    groth16_error err;
    CHECK(zkey_parse(&z, f.b, f.n, &err) == GROTH16_OK);
    CHECK(z.n_vars == NV && z.n_public == NP && z.domain_size == DS && z.log_n == 2);
    g1_affine g1;
    g1_affine_generator(&g1);
    CHECK(g1_affine_equal(&z.alpha_g1, &g1) && g1_affine_equal(&z.ic[0], &g1));
    CHECK(g1_affine_is_infinity(&z.ic[1]) && g1_affine_is_infinity(&z.a[1]));
    CHECK(z.n_coefs == 2);
    fr five, seven;
    fr_set_u64(&five, 5);
    fr_set_u64(&seven, 7);
    CHECK(z.coefs[0].matrix == 0 && z.coefs[0].signal == 1 && fr_equal(&z.coefs[0].value, &five));
    CHECK(z.coefs[1].matrix == 1 && z.coefs[1].constraint == 3 &&
          fr_equal(&z.coefs[1].value, &seven));
    /* any section order */
    groth16_status st2 = zkey_parse(&z2, r.b, r.n, &err);
    CHECK(st2 == GROTH16_OK);
    if (st2 == GROTH16_OK) {
        CHECK(memcmp(z2.h, z.h, DS * sizeof(g1_affine)) == 0);
        CHECK(memcmp(z2.b2, z.b2, NV * sizeof(g2_affine)) == 0);
        zkey_free(&z2);
    }
    zkey_free(&z);
    /* every truncation fails, as does one byte more */
    int all_fail = 1;
    for (size_t len = 0; len < f.n; len++)
        if (zkey_parse(&z, f.b, len, NULL) == GROTH16_OK)
            all_fail = 0;
    CHECK(all_fail);
    buf t = build(fwd, 10, NULL);
    put(&t, "", 1);
    CHECK(zkey_parse(&z, t.b, t.n, &err) == GROTH16_ERR_TRAILING);
    free(t.b);
    /* a missing section, a duplicate */
    t = build(fwd, 9, NULL);
    CHECK(zkey_parse(&z, t.b, t.n, &err) == GROTH16_OK); /* 10 is optional */
    zkey_free(&z);
    free(t.b);
    static const int miss[9] = {1, 2, 3, 4, 5, 6, 7, 9, 10},
                     dup[11] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 3};
    t = build(miss, 9, NULL);
    CHECK(zkey_parse(&z, t.b, t.n, &err) == GROTH16_ERR_LAYOUT && strstr(err.msg, "section 8"));
    free(t.b);
    t = build(dup, 11, NULL);
    CHECK(zkey_parse(&z, t.b, t.n, &err) == GROTH16_ERR_LAYOUT && strstr(err.msg, "twice"));
    free(t.b);
    /* magic, version */
    f.b[0] ^= 1;
    CHECK(zkey_parse(&z, f.b, f.n, &err) == GROTH16_ERR_LAYOUT && strstr(err.msg, "magic"));
    f.b[0] ^= 1;
    f.b[4] = 2;
    CHECK(zkey_parse(&z, f.b, f.n, &err) == GROTH16_ERR_LAYOUT && strstr(err.msg, "version"));
    f.b[4] = 1;
    /* a coordinate >= p in alpha_1 (header offset 100) */
    uint8_t save[48];
    memcpy(save, f.b + offs[2] + 100, 48);
    memset(f.b + offs[2] + 100, 0xff, 48);
    CHECK(zkey_parse(&z, f.b, f.n, &err) == GROTH16_ERR_POINT && strstr(err.msg, "alpha_1") &&
          strstr(err.msg, ">= p"));
    memcpy(f.b + offs[2] + 100, save, 48);
    /* an A-query point off the curve: its y + 1 in Montgomery limbs */
    f.b[offs[5] + 96 * 2 + 48] ^= 1;
    CHECK(zkey_parse(&z, f.b, f.n, &err) == GROTH16_ERR_POINT && strstr(err.msg, "section 5") &&
          strstr(err.msg, "not on the curve"));
    f.b[offs[5] + 96 * 2 + 48] ^= 1;
    /* a coefficient's signal >= nVars, a matrix of 2, a value >= r */
    f.b[offs[4] + 4 + 8] = NV;
    CHECK(zkey_parse(&z, f.b, f.n, &err) == GROTH16_ERR_LAYOUT && strstr(err.msg, "nVars"));
    f.b[offs[4] + 4 + 8] = 1;
    f.b[offs[4] + 4] = 2;
    CHECK(zkey_parse(&z, f.b, f.n, &err) == GROTH16_ERR_LAYOUT && strstr(err.msg, "matrix"));
    f.b[offs[4] + 4] = 0;
    memset(f.b + offs[4] + 4 + 12, 0xff, 32);
    CHECK(zkey_parse(&z, f.b, f.n, &err) == GROTH16_ERR_LAYOUT && strstr(err.msg, ">= r"));
    free(f.b);
    free(r.b);
}

static buf build_wtns(const uint8_t *prime, const uint64_t *vals, uint32_t n) {
    buf o = {0};
    put(&o, "wtns", 4);
    put32(&o, 2);
    put32(&o, 2);
    put32(&o, 2); /* section 2 first: any order */
    put64(&o, (uint64_t)n * 32);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t v[32] = {0};
        memcpy(v, &vals[i], 8);
        put(&o, v, 32);
    }
    put32(&o, 1);
    put64(&o, 40);
    put32(&o, 32);
    put(&o, prime, 32);
    put32(&o, n);
    return o;
}

static void test_wtns(void) {
    uint8_t rl[32];
    r_le(rl);
    uint64_t vals[3] = {1, 5, 6};
    buf b = build_wtns(rl, vals, 3);
    wtns w;
    groth16_error err;
    CHECK(wtns_parse(&w, b.b, b.n, &err) == GROTH16_OK);
    CHECK(w.n == 3 && w.bytes[32] == 5 && w.bytes[64] == 6 && w.bytes[0] == 1);
    wtns_free(&w);
    memcpy(b.b + 12 + 12 + 64, rl, 32); /* value 2 := r */
    CHECK(wtns_parse(&w, b.b, b.n, &err) == GROTH16_ERR_LAYOUT && strstr(err.msg, "section 2"));
    free(b.b);
    uint8_t bn[32];
    memcpy(bn, rl, 32);
    bn[31] ^= 0x40; /* some other prime */
    b = build_wtns(bn, vals, 3);
    CHECK(wtns_parse(&w, b.b, b.n, &err) == GROTH16_ERR_LAYOUT && strstr(err.msg, "prime"));
    free(b.b);
}

static void test_roots(void) {
    /* ffjavascript's w[32] = 5^((r-1)/2^32) (oracles.md section 4.4) */
    static const uint8_t w32_be[32] = {0x02, 0x12, 0xd7, 0x9e, 0x5b, 0x41, 0x6b, 0x6f,
                                       0x0f, 0xd5, 0x6d, 0xc8, 0xd1, 0x68, 0xd6, 0xc0,
                                       0xc4, 0x02, 0x4f, 0xf2, 0x70, 0xb3, 0xe0, 0x94,
                                       0x1b, 0x78, 0x8f, 0x50, 0x0b, 0x91, 0x2f, 0x1f};
    uint8_t le[32], want[32];
    for (int i = 0; i < 32; i++)
        want[i] = w32_be[31 - i];
    fr w, one, mone;
    zkey_root_of_unity(&w, 32);
    fr_to_bytes_le(le, &w);
    CHECK_MEM(le, want, 32);
    fr_set_one(&one);
    fr_neg(&mone, &one);
    for (unsigned L = 1; L <= 28; L++) {
        zkey_root_of_unity(&w, L);
        for (unsigned k = 1; k < L; k++)
            fr_sqr(&w, &w);
        CHECK(fr_equal(&w, &mone)); /* order exactly 2^L */
    }
}

static void test_domain_root(void) {
    /* the 7^t root through init_root gives ntt_domain_init's tables */
    ntt_domain a, b;
    fr w7;
    fr_root_of_unity(&w7, 5);
    CHECK(ntt_domain_init(&a, 5, 1) == NTT_OK);
    CHECK(ntt_domain_init_root(&b, 5, &w7, 2) == NTT_OK);
    CHECK(memcmp(a.powers, b.powers, (a.n / 2 + 1) * sizeof(fr)) == 0);
    CHECK(memcmp(a.layers + 1, b.layers + 1, (a.n - 1) * sizeof(fr)) == 0);
    CHECK(fr_equal(&a.omega_inv, &b.omega_inv) && fr_equal(&a.n_inv, &b.n_inv));
    ntt_domain_destroy(&a);
    ntt_domain_destroy(&b);
    CHECK(ntt_domain_init_root(&b, 0, &w7, 1) == NTT_ERR_SIZE);
    ntt_domain_destroy(&b);
    /* the 5^t root: forward = the naive DFT out[k] = sum a_j w^(jk) */
    for (unsigned L = 1; L <= 6; L++) {
        size_t n = (size_t)1 << L;
        fr w5, in[64], out[64];
        zkey_root_of_unity(&w5, L);
        CHECK(ntt_domain_init_root(&b, L, &w5, 2) == NTT_OK);
        for (size_t j = 0; j < n; j++) {
            uint8_t r32[32];
            check_rand_bytes(r32, 32);
            fr_from_bytes_le_reduce(&in[j], r32);
            out[j] = in[j];
        }
        CHECK(ntt_forward(out, &b, NTT_NN, 1) == NTT_OK);
        int ok = 1;
        fr wk;
        fr_set_one(&wk);
        for (size_t k = 0; k < n; k++) {
            fr acc, x, t;
            fr_set_zero(&acc);
            fr_set_one(&x);
            for (size_t j = 0; j < n; j++) {
                fr_mul(&t, &in[j], &x);
                fr_add(&acc, &acc, &t);
                fr_mul(&x, &x, &wk);
            }
            ok &= fr_equal(&acc, &out[k]);
            fr_mul(&wk, &wk, &w5);
        }
        CHECK(ok);
        CHECK(ntt_inverse(out, &b, NTT_NN, 2) == NTT_OK);
        CHECK(memcmp(out, in, n * sizeof(fr)) == 0);
        ntt_domain_destroy(&b);
    }
}

int main(void) {
    check_seed("test_zkey");
    test_zkey();
    test_wtns();
    test_roots();
    test_domain_root();
    return check_finish();
}
