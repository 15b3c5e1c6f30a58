/* BLAKE2b and ChaCha: published vectors (RFC 7693 App. A, RFC 8439 §2.3.2, the
 * ChaCha8 zero-key vector of draft-strombergson-chacha-test-vectors TC1,
 * rand_chacha's ChaCha20Rng "true values"), Python hashlib's BLAKE2b for
 * other lengths and keys, and OpenSSL (EVP_blake2b512, EVP_MAC BLAKE2BMAC,
 * EVP_chacha20) on random inputs. */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <string.h>

#include "check.h"
#include "filecoin/hash/blake2b.h"
#include "filecoin/hash/chacha.h"
#include "util/hex.h"

static void expect_hex(const uint8_t *got, size_t n, const char *want) {
    uint8_t w[256];
    CHECK(hex_decode(w, sizeof w, want) == (long)n);
    CHECK_MEM(got, w, n);
}

static void blake2b_known(void) {
    uint8_t out[64], msg[200], key[64];
    CHECK(blake2b(out, 64, NULL, 0, "abc", 3) == 0);
    expect_hex(
        out, 64,
        "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252"
        "d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
    /* Python hashlib.blake2b(digest_size=..., key=...) */
    CHECK(blake2b(out, 32, NULL, 0, "abc", 3) == 0);
    expect_hex(out, 32, "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319");
    CHECK(blake2b(out, 20, "key", 3, "abc", 3) == 0);
    expect_hex(out, 20, "63c5e9d2e167991e7fca9fe84b4afcb2fab7cc99");
    CHECK(blake2b(out, 1, NULL, 0, "", 0) == 0);
    expect_hex(out, 1, "2e");
    for (int i = 0; i < 200; i++)
        msg[i] = (uint8_t)i;
    for (int i = 0; i < 64; i++)
        key[i] = (uint8_t)i;
    CHECK(blake2b(out, 64, key, 64, msg, 200) == 0);
    expect_hex(
        out, 64,
        "3095a349d245708c7cf550118703d7302c27b60af5d4e67fc978f8a4e60953c7a04f92fcf41aee64321c"
        "cb707a895851552b1e37b00bc5e6b72fa5bcef9e3fff");
    /* Bad parameters are refused. */
    CHECK(blake2b(out, 0, NULL, 0, "", 0) == -1);
    CHECK(blake2b(out, 65, NULL, 0, "", 0) == -1);
    CHECK(blake2b(out, 32, key, 65, "", 0) == -1);
    CHECK(blake2b(out, 32, NULL, 5, "", 0) == -1);
}

static void blake2b_vs_openssl(void) {
    uint8_t msg[600], key[64], ours[64], theirs[64];
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "BLAKE2BMAC", NULL);
    CHECK(mac != NULL);
    for (int t = 0; t < 200; t++) {
        size_t len = t < 130 ? (size_t)t : (size_t)(check_rand64() % sizeof msg);
        check_rand_bytes(msg, len);
        /* unkeyed 64-byte: the EVP digest */
        unsigned int dl = 0;
        CHECK(EVP_Digest(msg, len, theirs, &dl, EVP_blake2b512(), NULL) == 1 && dl == 64);
        blake2b(ours, 64, NULL, 0, msg, len);
        CHECK_MEM(ours, theirs, 64);
        /* incremental in two pieces equals one-shot */
        blake2b_ctx c;
        size_t cut = len ? (size_t)(check_rand64() % (len + 1)) : 0;
        blake2b_init(&c, 64, NULL, 0);
        blake2b_update(&c, msg, cut);
        blake2b_update(&c, msg + cut, len - cut);
        blake2b_final(&c, ours);
        CHECK_MEM(ours, theirs, 64);
        /* keyed, any length: BLAKE2BMAC */
        if (!mac)
            continue;
        size_t klen = 1 + (size_t)(check_rand64() % 64), olen = 1 + (size_t)(check_rand64() % 64);
        check_rand_bytes(key, klen);
        EVP_MAC_CTX *mc = EVP_MAC_CTX_new(mac);
        OSSL_PARAM params[2] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &olen),
                                OSSL_PARAM_construct_end()};
        size_t got = 0;
        CHECK(mc && EVP_MAC_init(mc, key, klen, params) == 1 && EVP_MAC_update(mc, msg, len) == 1 &&
              EVP_MAC_final(mc, theirs, &got, sizeof theirs) == 1 && got == olen);
        EVP_MAC_CTX_free(mc);
        blake2b(ours, olen, key, klen, msg, len);
        CHECK_MEM(ours, theirs, olen);
    }
    EVP_MAC_free(mac);
}

static void rng_bytes(uint8_t *out, size_t n, chacha_rng *r) {
    for (size_t i = 0; i < n; i += 4) {
        uint32_t w = chacha_rng_next_u32(r);
        for (int b = 0; b < 4; b++)
            out[i + b] = (uint8_t)(w >> (8 * b));
    }
}

static void chacha_known(void) {
    /* RFC 8439 §2.3.2: key 00..1f, nonce 000000090000004a00000000, counter 1. */
    uint8_t key[32], nonce[12], ks[128];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    hex_decode(nonce, 12, "000000090000004a00000000");
    CHECK(chacha20_ietf_keystream(ks, 64, key, nonce, 64) == 0);
    expect_hex(
        ks, 64,
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2"
        "d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
    /* ChaCha8, zero key, zero 64-bit nonce and counter: two blocks, so the
     * 64-bit counter of rand_chacha's layout advances as in the draft. */
    uint8_t zero[32] = {0};
    chacha_rng r;
    chacha_rng_seed(&r, zero, 8);
    rng_bytes(ks, 128, &r);
    expect_hex(
        ks, 128,
        "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e984ce172b9216f419f44"
        "5367456d5619314a42a3da86b001387bfdb80e0cfe42d2aefa0deaa5c151bf0adb6c01f2a5adc0fd5812"
        "59f9a2aadcf20f8fd566a26b5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e"
        "68aa");
    /* rand_chacha test_chacha_true_values_a: ChaCha20Rng from a zero seed. */
    chacha_rng_seed(&r, zero, 20);
    CHECK(chacha_rng_next_u32(&r) == 0xade0b876u);
    CHECK(chacha_rng_next_u32(&r) == 0x903df1a0u);
    CHECK(chacha_rng_next_u32(&r) == 0xe56a5d40u);
    /* A u64 straddling a block boundary: word 15 low, word 16 high. */
    uint32_t w[18];
    chacha_rng_seed(&r, zero, 8);
    for (int i = 0; i < 18; i++)
        w[i] = chacha_rng_next_u32(&r);
    chacha_rng_seed(&r, zero, 8);
    for (int i = 0; i < 15; i++)
        chacha_rng_next_u32(&r);
    CHECK(chacha_rng_next_u64(&r) == ((uint64_t)w[16] << 32 | w[15]));
    CHECK(chacha_rng_next_u32(&r) == w[17]);
    /* Past the 2^32-block stream is refused. */
    CHECK(chacha20_ietf_keystream(ks, 2, key, nonce, ((uint64_t)1 << 38) - 1) == -1);
    CHECK(chacha20_ietf_keystream(ks, 1, key, nonce, ((uint64_t)1 << 38) - 1) == 0);
}

static void chacha_vs_openssl(void) {
    uint8_t key[32], nonce[12], iv[16], zeros[700] = {0}, ours[700], theirs[700];
    for (int t = 0; t < 100; t++) {
        check_rand_bytes(key, 32);
        check_rand_bytes(nonce, 12);
        uint32_t ctr = (uint32_t)(check_rand64() % 100000);
        unsigned skip = (unsigned)(check_rand64() % 64);
        size_t len = (size_t)(check_rand64() % 600);
        /* OpenSSL's IV: 32-bit LE counter then the 96-bit nonce. */
        for (int i = 0; i < 4; i++)
            iv[i] = (uint8_t)(ctr >> (8 * i));
        memcpy(iv + 4, nonce, 12);
        EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
        int outl = 0;
        CHECK(c && EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv) == 1 &&
              EVP_EncryptUpdate(c, theirs, &outl, zeros, (int)(skip + len)) == 1);
        EVP_CIPHER_CTX_free(c);
        CHECK(chacha20_ietf_keystream(ours, len, key, nonce, (uint64_t)ctr * 64 + skip) == 0);
        CHECK_MEM(ours, theirs + skip, len);
    }
}

int main(void) {
    check_seed("test_blake2b_chacha");
    blake2b_known();
    blake2b_vs_openssl();
    chacha_known();
    chacha_vs_openssl();
    return check_finish();
}
