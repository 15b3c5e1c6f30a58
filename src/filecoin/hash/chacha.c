/* ChaCha quarter rounds (column then diagonal) over the 4x4 word state. */
#include "filecoin/hash/chacha.h"

#include <string.h>

static const uint32_t SIGMA_WORDS[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};

static inline uint32_t rotl32(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

static inline uint32_t load32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define QR(a, b, c, d)                  \
    do {                                \
        x[a] += x[b];                   \
        x[d] = rotl32(x[d] ^ x[a], 16); \
        x[c] += x[d];                   \
        x[b] = rotl32(x[b] ^ x[c], 12); \
        x[a] += x[b];                   \
        x[d] = rotl32(x[d] ^ x[a], 8);  \
        x[c] += x[d];                   \
        x[b] = rotl32(x[b] ^ x[c], 7);  \
    } while (0)

void chacha_block(uint32_t out[16], const uint32_t in[16], unsigned rounds) {
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (unsigned r = 0; r < rounds; r += 2) {
        QR(0, 4, 8, 12);
        QR(1, 5, 9, 13);
        QR(2, 6, 10, 14);
        QR(3, 7, 11, 15);
        QR(0, 5, 10, 15);
        QR(1, 6, 11, 12);
        QR(2, 7, 8, 13);
        QR(3, 4, 9, 14);
    }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
}

static void key_words(uint32_t st[16], const uint8_t key[32]) {
    memcpy(st, SIGMA_WORDS, sizeof SIGMA_WORDS);
    for (int i = 0; i < 8; i++)
        st[4 + i] = load32(key + 4 * i);
}

void chacha_rng_seed(chacha_rng *r, const uint8_t seed[32], unsigned rounds) {
    key_words(r->state, seed);
    r->state[12] = r->state[13] = 0; /* block counter */
    r->state[14] = r->state[15] = 0; /* stream id */
    r->idx = 16;
    r->rounds = rounds;
}

static void rng_refill(chacha_rng *r) {
    chacha_block(r->buf, r->state, r->rounds);
    if (++r->state[12] == 0)
        r->state[13]++;
    r->idx = 0;
}

uint32_t chacha_rng_next_u32(chacha_rng *r) {
    if (r->idx >= 16)
        rng_refill(r);
    return r->buf[r->idx++];
}

uint64_t chacha_rng_next_u64(chacha_rng *r) {
    uint64_t lo = chacha_rng_next_u32(r);
    uint64_t hi = chacha_rng_next_u32(r);
    return lo | hi << 32;
}

int chacha20_ietf_keystream(uint8_t *out, size_t len, const uint8_t key[32],
                            const uint8_t nonce[12], uint64_t offset) {
    const uint64_t end_limit = (uint64_t)1 << 38; /* 2^32 blocks of 64 bytes */
    if (offset > end_limit || len > end_limit - offset)
        return -1;
    uint32_t st[16], blk[16];
    key_words(st, key);
    for (int i = 0; i < 3; i++)
        st[13 + i] = load32(nonce + 4 * i);
    uint64_t block = offset / 64;
    size_t skip = (size_t)(offset % 64);
    while (len > 0) {
        st[12] = (uint32_t)block;
        chacha_block(blk, st, 20);
        uint8_t bytes[64];
        for (int i = 0; i < 16; i++)
            for (int b = 0; b < 4; b++)
                bytes[4 * i + b] = (uint8_t)(blk[i] >> (8 * b));
        size_t take = 64 - skip;
        if (take > len)
            take = len;
        memcpy(out, bytes + skip, take);
        out += take;
        len -= take;
        skip = 0;
        block++;
    }
    return 0;
}
