/* The strict base64 codec of the Curio wrapper: RFC 4648 §10 vectors, OpenSSL's
 * EVP_EncodeBlock as an oracle for random data, in-place decoding, and every
 * rejection rule (length, alphabet, misplaced '=', non-zero unused bits). */
#include <openssl/evp.h>

#include "check.h"
#include "filecoin/c1/c1.h"

static int dec(const char *in, uint8_t *out, size_t *n, size_t *bad, const char **why) {
    return c1_base64_decode(out, n, in, strlen(in), bad, why);
}

static void accept(const char *in, const char *want) {
    uint8_t out[64];
    size_t n, bad;
    const char *why;
    CHECK(dec(in, out, &n, &bad, &why) == 0);
    CHECK(n == strlen(want) && memcmp(out, want, n) == 0);
    char enc[96] = {0};
    c1_base64_encode(enc, (const uint8_t *)want, strlen(want));
    CHECK(strcmp(enc, in) == 0);
    CHECK(c1_base64_encoded_len(strlen(want)) == strlen(in));
}

static void reject(const char *in, size_t want_bad, const char *want_why) {
    uint8_t out[64];
    size_t n, bad = 999;
    const char *why = "";
    int r = dec(in, out, &n, &bad, &why);
    CHECK(r == -1 && bad == want_bad && strstr(why, want_why) != NULL);
    if (r != -1 || bad != want_bad || !strstr(why, want_why))
        fprintf(stderr, "  \"%s\": r=%d bad=%zu why=%s\n", in, r, bad, why);
}

int main(void) {
    check_seed("test_c1_base64");
    /* RFC 4648 §10 */
    accept("", "");
    accept("Zg==", "f");
    accept("Zm8=", "fo");
    accept("Zm9v", "foo");
    accept("Zm9vYg==", "foob");
    accept("Zm9vYmE=", "fooba");
    accept("Zm9vYmFy", "foobar");
    accept("+/+/", "\xfb\xff\xbf");

    reject("Zg=", 3, "multiple of 4");
    reject("Zg", 2, "multiple of 4");
    reject("Zm9vY", 5, "multiple of 4");
    reject("Zm9v\nYmFy", 9, "multiple of 4");
    reject("Zm9v YmF", 4, "alphabet");
    reject("Zm-v", 2, "alphabet"); /* URL-safe alphabet is not standard */
    reject("Zm_v", 2, "alphabet");
    reject("Z===", 1, "misplaced");
    reject("====", 0, "misplaced");
    reject("Zg=a", 2, "misplaced");
    reject("Zg==Zm9v", 2, "misplaced"); /* padding before the end */
    reject("Zh==", 1, "unused bits");   /* 'h' = 33: low 4 bits set */
    reject("Zm9=", 2, "unused bits");   /* '9' = 61: low 2 bits set */
    reject("Zm8\x80", 3, "alphabet");

    /* every byte value in every position of a quartet: accepted iff it is in
     * the alphabet, and then worth its alphabet index (pins the decode table) */
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    int table_ok = 1;
    for (int pos = 0; pos < 4; pos++)
        for (int ch = 0; ch < 256; ch++) {
            char q[5] = "AAAA";
            q[pos] = (char)ch;
            uint8_t o[3];
            size_t n, bad;
            const char *why;
            const char *at = ch ? strchr(alphabet, ch) : NULL;
            int r = c1_base64_decode(o, &n, q, 4, &bad, &why);
            if (at) {
                uint32_t v = (uint32_t)(at - alphabet) << (18 - 6 * pos);
                table_ok &= r == 0 && n == 3 && o[0] == (uint8_t)(v >> 16) &&
                            o[1] == (uint8_t)(v >> 8) && o[2] == (uint8_t)v;
            } else if (ch != '=') {
                table_ok &= r == -1 && bad == (size_t)pos && strstr(why, "alphabet") != NULL;
            }
        }
    CHECK(table_ok);

    /* random data against OpenSSL, and in place */
    uint8_t in[300], out[300];
    char enc[401], ref[401];
    for (int t = 0; t < 2000; t++) {
        size_t n = check_rand64() % 300;
        check_rand_bytes(in, n);
        c1_base64_encode(enc, in, n);
        enc[c1_base64_encoded_len(n)] = 0;
        int rl = EVP_EncodeBlock((unsigned char *)ref, in, (int)n);
        CHECK((size_t)rl == c1_base64_encoded_len(n) && strcmp(enc, ref) == 0);
        size_t got, bad;
        const char *why;
        CHECK(c1_base64_decode(out, &got, enc, strlen(enc), &bad, &why) == 0);
        CHECK(got == n && memcmp(out, in, n) == 0);
        CHECK(c1_base64_max_decoded(strlen(enc)) >= n);
        /* in place: the output overwrites the characters it came from */
        CHECK(c1_base64_decode((uint8_t *)enc, &got, enc, strlen(enc), &bad, &why) == 0);
        CHECK(got == n && memcmp(enc, in, n) == 0);
    }
    return check_finish();
}
