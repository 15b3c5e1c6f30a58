/* SHA-256 circuit: upstream's constraint counts (bellperson's sha256 tests),
 * satisfaction and agreement with a native SHA-256 for random messages of
 * several lengths (1 and 2 blocks, both sides of the padding boundary), mixed
 * constant/allocated inputs, and detection of a wrong witness. */
#include "check.h"
#include "gadget/sha256.h"

#ifdef CUZK_HAVE_LIBCRYPTO
#include <openssl/sha.h>
#endif

/* ---- native SHA-256 (FIPS 180-4), checked below against known answers ---- */

static const uint32_t NK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
static const uint32_t NIV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void native_compress(uint32_t st[8], const uint8_t blk[64]) {
    uint32_t w[64], v[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)blk[4 * i] << 24 | (uint32_t)blk[4 * i + 1] << 16 |
               (uint32_t)blk[4 * i + 2] << 8 | blk[4 * i + 3];
    for (int i = 16; i < 64; i++)
        w[i] = w[i - 16] + (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 7] +
               (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10));
    memcpy(v, st, sizeof v);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) +
                      ((v[4] & v[5]) ^ (~v[4] & v[6])) + NK[i] + w[i];
        uint32_t t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) +
                      ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof(uint32_t));
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++)
        st[i] += v[i];
}

static void native_sha256(uint8_t out[32], const uint8_t *msg, size_t len) {
    uint32_t st[8];
    uint8_t blk[64];
    memcpy(st, NIV, sizeof st);
    size_t total = (len + 1 + 8 + 63) / 64 * 64;
    for (size_t off = 0; off < total; off += 64) {
        for (size_t j = 0; j < 64; j++) {
            size_t p = off + j;
            blk[j] = p < len ? msg[p] : p == len ? 0x80 : 0;
            if (p >= total - 8)
                blk[j] = (uint8_t)(((uint64_t)len * 8) >> (8 * (total - 1 - p)));
        }
        native_compress(st, blk);
    }
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(st[i / 4] >> (24 - 8 * (i % 4)));
}

static void test_native(void) {
    /* FIPS 180-4 examples: "abc" and the empty string */
    static const uint8_t abc[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
                                    0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
                                    0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
                                    0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    static const uint8_t empty[32] = {0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14,
                                      0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
                                      0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c,
                                      0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55};
    uint8_t d[32];
    native_sha256(d, (const uint8_t *)"abc", 3);
    CHECK_MEM(d, abc, 32);
    native_sha256(d, NULL, 0);
    CHECK_MEM(d, empty, 32);
#ifdef CUZK_HAVE_LIBCRYPTO
    /* and OpenSSL's on every length over a few blocks */
    uint8_t msg[300], o[32];
    for (size_t len = 0; len <= sizeof msg; len++) {
        check_rand_bytes(msg, len);
        native_sha256(d, msg, len);
        SHA256(msg, len, o);
        CHECK_MEM(d, o, 32);
    }
    printf("native SHA-256 agrees with OpenSSL on lengths 0..%zu\n", sizeof msg);
#else
    printf("libcrypto not found: native SHA-256 checked against FIPS 180-4 examples only\n");
#endif
}

/* ---- helpers --------------------------------------------------------------- */

/* Message bits, big-endian within each byte.  kind: 0 allocated, 1 constant,
 * 2 every third bit constant (the rest allocated). */
static void message_bits(r1cs_cs *cs, gbool *bits, const uint8_t *msg, size_t len, int kind) {
    int vals = r1cs_has_values(cs);
    for (size_t i = 0; i < 8 * len; i++) {
        int v = (msg[i / 8] >> (7 - i % 8)) & 1;
        if (kind == 1 || (kind == 2 && i % 3 == 0))
            bits[i] = gbool_const(v);
        else
            bits[i] = gbool_alloc(cs, vals ? v : -1);
    }
}

static void bits_to_bytes(uint8_t out[32], const gbool bits[256], int *unknown) {
    memset(out, 0, 32);
    *unknown = 0;
    for (int i = 0; i < 256; i++) {
        int v = gbool_value(bits[i]);
        if (v < 0)
            *unknown = 1;
        else
            out[i / 8] |= (uint8_t)(v << (7 - i % 8));
    }
}

/* The digest bits as the cs holds them (not the gadgets' cached values). */
static int cs_bits_match(r1cs_cs *cs, const gbool bits[256], const uint8_t want[32]) {
    for (int i = 0; i < 256; i++) {
        int w = (want[i / 8] >> (7 - i % 8)) & 1;
        if (gbool_is_const(bits[i])) {
            if (bits[i].val != w)
                return 0;
            continue;
        }
        fr v, e;
        r1cs_get_value(&v, cs, bits[i].var);
        fr_set_u64(&e, (uint64_t)(bits[i].kind == GBOOL_IS ? w : !w));
        if (!fr_equal(&v, &e))
            return 0;
    }
    return 1;
}

/* ---- counts ------------------------------------------------------------------ */

static void test_counts(void) {
    uint8_t msg[64] = {0};
    gbool in[512], out[256];

    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    message_bits(cs, in, msg, 64, 0);
    CHECK(r1cs_num_constraints(cs) == 512);
    gsha256_block_no_padding(cs, out, in);
    size_t n = r1cs_num_constraints(cs) - 512;
    printf("one compression, 512 allocated bits: %zu constraints (want 25840)\n", n);
    CHECK(n == 25840);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_cs_free(cs);

    cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    message_bits(cs, in, msg, 64, 0);
    CHECK(gsha256(cs, out, in, 512) == 0);
    n = r1cs_num_constraints(cs) - 512;
    printf("sha256 of 512 allocated bits: %zu constraints (want 44874)\n", n);
    CHECK(n == 44874);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_cs_free(cs);

    /* the recording mode builds the same rows (+ the ONE input row) */
    cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    message_bits(cs, in, msg, 64, 0);
    gsha256_block_no_padding(cs, out, in);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    CHECK(k.constraints == 512 + 25840 && k.constraints_total == k.constraints + 1);
    printf("one compression: %zu aux, nnz a/b/c %" PRIu64 "/%" PRIu64 "/%" PRIu64 "\n", k.aux,
           k.nnz_a, k.nnz_b, k.nnz_c);
    r1cs_cs_free(cs);

    /* all constant: nothing at all, and the right digest */
    for (size_t len = 0; len <= 64; len += 32) {
        check_rand_bytes(msg, len);
        cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
        message_bits(cs, in, msg, len, 1);
        CHECK(gsha256(cs, out, in, 8 * len) == 0);
        CHECK(r1cs_num_constraints(cs) == 0 && r1cs_num_aux(cs) == 0);
        uint8_t got[32], want[32];
        int unknown;
        bits_to_bytes(got, out, &unknown);
        native_sha256(want, msg, len);
        CHECK(!unknown);
        CHECK_MEM(got, want, 32);
        r1cs_cs_free(cs);
    }

    /* upstream asserts whole bytes: a 513-bit message is refused, untouched */
    cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    gbool in513[513];
    for (int i = 0; i < 513; i++)
        in513[i] = gbool_const(i & 1);
    CHECK(gsha256(cs, out, in513, 513) == -1);
    CHECK(r1cs_num_constraints(cs) == 0);
    r1cs_cs_free(cs);
}

/* ---- values ------------------------------------------------------------------ */

/* Hash a random len-byte message in the given mode and check the digest
 * (and, in the checking mode, that every constraint holds). */
static void check_hash(r1cs_mode mode, size_t len, int kind) {
    uint8_t msg[200], want[32], got[32];
    gbool in[1600], out[256];
    check_rand_bytes(msg, len);
    native_sha256(want, msg, len);
#ifdef CUZK_HAVE_LIBCRYPTO
    uint8_t o[32];
    SHA256(msg, len, o);
    CHECK_MEM(o, want, 32);
#endif
    r1cs_cs *cs = r1cs_cs_new(mode, R1CS_VALUES, NULL);
    message_bits(cs, in, msg, len, kind);
    CHECK(gsha256(cs, out, in, 8 * len) == 0);
    int unknown;
    bits_to_bytes(got, out, &unknown);
    CHECK(!unknown);
    if (memcmp(got, want, 32) != 0)
        fprintf(stderr, "digest mismatch: len %zu kind %d mode %d\n", len, kind, (int)mode);
    CHECK_MEM(got, want, 32);
    CHECK(cs_bits_match(cs, out, want));
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    if (mode == R1CS_COUNT)
        CHECK(k.checked && k.satisfied);
    r1cs_cs_free(cs);
}

static void test_values(void) {
    /* 55 bytes: one block; 56: the length no longer fits, two blocks; 64: a
     * full block plus a padding block; 65: one byte more; 119/120 likewise */
    static const size_t lens[] = {1, 55, 56, 64, 65, 119, 120};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        check_hash(R1CS_COUNT, lens[i], 0);
    /* every length below 32 bytes, as upstream's test_against_vectors */
    for (size_t len = 2; len < 32; len++)
        check_hash(R1CS_COUNT, len, 0);
    check_hash(R1CS_COUNT, 64, 2);
    check_hash(R1CS_COUNT, 65, 2);
    check_hash(R1CS_PROVE, 64, 0);

    /* the compression function alone against the native one */
    uint8_t blk[64];
    check_rand_bytes(blk, 64);
    uint32_t st[8];
    memcpy(st, NIV, sizeof st);
    native_compress(st, blk);
    uint8_t want[32], got[32];
    for (int i = 0; i < 32; i++)
        want[i] = (uint8_t)(st[i / 4] >> (24 - 8 * (i % 4)));
    gbool in[512], out[256];
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    message_bits(cs, in, blk, 64, 0);
    gsha256_block_no_padding(cs, out, in);
    int unknown;
    bits_to_bytes(got, out, &unknown);
    CHECK(!unknown);
    CHECK_MEM(got, want, 32);
    r1cs_counts k;
    CHECK(r1cs_finish(cs) == R1CS_OK);
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.satisfied);
    r1cs_cs_free(cs);
}

/* Lie about one input bit's value (the variable keeps the truth): every
 * witness derived from it is then wrong and some constraint must fail. */
static void test_flipped_witness(void) {
    static const int flips[] = {0, 37, 300, 511};
    for (size_t f = 0; f < sizeof flips / sizeof flips[0]; f++) {
        uint8_t msg[64];
        gbool in[512], out[256];
        check_rand_bytes(msg, 64);
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
        message_bits(cs, in, msg, 64, 0);
        in[flips[f]].val ^= 1;
        gsha256_block_no_padding(cs, out, in);
        CHECK(r1cs_finish(cs) == R1CS_OK);
        r1cs_counts k;
        CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
        CHECK(k.checked && !k.satisfied && k.unsatisfied_path != NULL);
        if (k.unsatisfied_path)
            printf("flipped bit %d: first unsatisfied %zu at %s\n", flips[f], k.first_unsatisfied,
                   k.unsatisfied_path);
        r1cs_cs_free(cs);
    }
}

int main(void) {
    check_seed("test_sha256_gadget");
    test_native();
    test_counts();
    test_values();
    test_flipped_witness();
    return check_finish();
}
