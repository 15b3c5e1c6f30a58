#include "filecoin/sdr/feistel.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/hash/blake2b.h"
#include "filecoin/hash/sha256_native.h"
#include "util/verify.h"

static const char FEISTEL_DST[] = "Filecoin_Feistel";

void fc_feistel_keys(uint64_t out[4], const uint8_t porep_id[32]) {
    uint8_t msg[sizeof FEISTEL_DST - 1 + 32], d[32];
    memcpy(msg, FEISTEL_DST, sizeof FEISTEL_DST - 1);
    memcpy(msg + sizeof FEISTEL_DST - 1, porep_id, 32);
    sha256_native(d, msg, sizeof msg);
    for (int k = 0; k < 4; k++) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--)
            v = (v << 8) | d[8 * k + i];
        out[k] = v;
    }
}

uint64_t fc_feistel_round(uint64_t right, uint64_t key, uint64_t mask) {
    uint8_t in[16], h[64];
    for (int i = 0; i < 8; i++) {
        in[i] = (uint8_t)(right >> (56 - 8 * i));
        in[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    blake2b(h, 64, NULL, 0, in, sizeof in);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | h[i];
    return v & mask;
}

int fc_feistel_init(fc_feistel *f, uint64_t n, const uint64_t keys[4]) {
    memset(f, 0, sizeof *f);
    unsigned h = 1;
    uint64_t pow4 = 4;
    while (pow4 < n) {
        if (h >= FC_FEISTEL_MAX_HALF_BITS)
            return -1;
        pow4 *= 4;
        h++;
    }
    f->n = n;
    f->half_bits = h;
    f->mask = ((uint64_t)1 << h) - 1;
    memcpy(f->keys, keys, sizeof f->keys);
    size_t entries = (size_t)1 << h;
    for (int r = 0; r < FC_FEISTEL_ROUNDS; r++) {
        f->table[r] = malloc(entries * sizeof(uint32_t));
        if (!f->table[r]) {
            fc_feistel_free(f);
            return -1;
        }
        for (size_t x = 0; x < entries; x++)
            f->table[r][x] = (uint32_t)fc_feistel_round(x, keys[r], f->mask);
    }
    return 0;
}

void fc_feistel_free(fc_feistel *f) {
    for (int r = 0; r < FC_FEISTEL_ROUNDS; r++) {
        free(f->table[r]);
        f->table[r] = NULL;
    }
}

static uint64_t encode(const fc_feistel *f, uint64_t x) {
    uint64_t l = (x >> f->half_bits) & f->mask, r = x & f->mask;
    for (int i = 0; i < FC_FEISTEL_ROUNDS; i++) {
        uint64_t t = l ^ f->table[i][r];
        l = r;
        r = t;
    }
    return (l << f->half_bits) | r;
}

static uint64_t decode(const fc_feistel *f, uint64_t y) {
    uint64_t l = (y >> f->half_bits) & f->mask, r = y & f->mask;
    for (int i = FC_FEISTEL_ROUNDS - 1; i >= 0; i--) {
        uint64_t t = r ^ f->table[i][l];
        r = l;
        l = t;
    }
    return (l << f->half_bits) | r;
}

uint64_t fc_feistel_permute(const fc_feistel *f, uint64_t x) {
    VERIFY_CHECK(x < f->n);
    uint64_t u = encode(f, x);
    while (u >= f->n)
        u = encode(f, u);
    return u;
}

uint64_t fc_feistel_invert(const fc_feistel *f, uint64_t y) {
    VERIFY_CHECK(y < f->n);
    uint64_t u = decode(f, y);
    while (u >= f->n)
        u = decode(f, u);
    return u;
}
