/* BLAKE2b per RFC 7693 §3: 12 rounds of G over a 16-word state, parameter
 * block folded into h[0] (digest length, key length, fanout 1, depth 1). */
#include "filecoin/hash/blake2b.h"

#include <string.h>

static const uint64_t IV[8] = {
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

static const uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static inline uint64_t rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

#define G(a, b, c, d, x, y)             \
    do {                                \
        v[a] = v[a] + v[b] + (x);       \
        v[d] = rotr64(v[d] ^ v[a], 32); \
        v[c] = v[c] + v[d];             \
        v[b] = rotr64(v[b] ^ v[c], 24); \
        v[a] = v[a] + v[b] + (y);       \
        v[d] = rotr64(v[d] ^ v[a], 16); \
        v[c] = v[c] + v[d];             \
        v[b] = rotr64(v[b] ^ v[c], 63); \
    } while (0)

/* Compression F: last != 0 for the final block (inverts v[14]). */
static void compress(blake2b_ctx *c, const uint8_t block[BLAKE2B_BLOCK], int last) {
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++)
        m[i] = load64(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = c->h[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= c->t[0];
    v[13] ^= c->t[1];
    if (last)
        v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = SIGMA[r];
        G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++)
        c->h[i] ^= v[i] ^ v[i + 8];
}

static void add_counter(blake2b_ctx *c, uint64_t n) {
    c->t[0] += n;
    if (c->t[0] < n)
        c->t[1]++;
}

int blake2b_init(blake2b_ctx *c, size_t outlen, const void *key, size_t keylen) {
    if (outlen == 0 || outlen > BLAKE2B_OUT_MAX || keylen > BLAKE2B_KEY_MAX || (keylen && !key))
        return -1;
    memcpy(c->h, IV, sizeof IV);
    c->h[0] ^= 0x01010000ull ^ ((uint64_t)keylen << 8) ^ (uint64_t)outlen;
    c->t[0] = c->t[1] = 0;
    c->buflen = 0;
    c->outlen = outlen;
    if (keylen) {
        /* The key, zero-padded to a full block, is the first block of input. */
        memset(c->buf, 0, sizeof c->buf);
        memcpy(c->buf, key, keylen);
        c->buflen = BLAKE2B_BLOCK;
    }
    return 0;
}

void blake2b_update(blake2b_ctx *c, const void *in, size_t len) {
    const uint8_t *p = in;
    while (len > 0) {
        if (c->buflen == BLAKE2B_BLOCK) {
            /* More input follows, so the buffered block is not the last. */
            add_counter(c, BLAKE2B_BLOCK);
            compress(c, c->buf, 0);
            c->buflen = 0;
        }
        size_t take = BLAKE2B_BLOCK - c->buflen;
        if (take > len)
            take = len;
        memcpy(c->buf + c->buflen, p, take);
        c->buflen += take;
        p += take;
        len -= take;
    }
}

void blake2b_final(blake2b_ctx *c, uint8_t *out) {
    add_counter(c, c->buflen);
    memset(c->buf + c->buflen, 0, BLAKE2B_BLOCK - c->buflen);
    compress(c, c->buf, 1);
    for (size_t i = 0; i < c->outlen; i++)
        out[i] = (uint8_t)(c->h[i / 8] >> (8 * (i % 8)));
}

int blake2b(uint8_t *out, size_t outlen, const void *key, size_t keylen, const void *in,
            size_t inlen) {
    blake2b_ctx c;
    if (blake2b_init(&c, outlen, key, keylen) != 0)
        return -1;
    blake2b_update(&c, in, inlen);
    blake2b_final(&c, out);
    return 0;
}
