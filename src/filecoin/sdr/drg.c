#include "filecoin/sdr/drg.h"

#include <string.h>

#include "filecoin/hash/chacha.h"
#include "filecoin/hash/sha256_native.h"

static const char DRSAMPLE_DST[] = "Filecoin_DRSample";

void fc_drg_seed(uint8_t out[28], const uint8_t porep_id[32]) {
    uint8_t msg[sizeof DRSAMPLE_DST - 1 + 32], d[32];
    memcpy(msg, DRSAMPLE_DST, sizeof DRSAMPLE_DST - 1);
    memcpy(msg + sizeof DRSAMPLE_DST - 1, porep_id, 32);
    sha256_native(d, msg, sizeof msg);
    memcpy(out, d, 28);
}

/* ceil(log2(x)) for x >= 2: the bit length of x - 1.  Rust computes it in f64,
 * which is exact here because x = 5v < 2^35 is never a power of two and its
 * log2 is far from an integer at f64 precision. */
static uint64_t ceil_log2(uint64_t x) {
    uint64_t y = x - 1;
    return y ? 64 - (uint64_t)__builtin_clzll(y) : 0;
}

void fc_drg_parents(uint32_t out[FC_DRG_DEGREE], const uint8_t seed[28], uint32_t node,
                    int legacy_v1) {
    if (node < 2) {
        memset(out, 0, FC_DRG_DEGREE * sizeof out[0]);
        return;
    }
    uint8_t s[32];
    memcpy(s, seed, 28);
    for (int i = 0; i < 4; i++)
        s[28 + i] = (uint8_t)(node >> (8 * i));
    chacha_rng rng;
    chacha_rng_seed(&rng, s, 8);

    const uint64_t m_prime = FC_DRG_DEGREE - 1;
    uint64_t meta = (uint64_t)node * m_prime;
    uint64_t n_buckets = ceil_log2(meta);
    uint32_t *sampled = legacy_v1 ? out : out + 1;
    for (uint64_t k = 0; k < m_prime; k++) {
        uint64_t bucket = chacha_rng_next_u64(&rng) % n_buckets + 1;
        uint64_t largest =
            bucket < 64 && ((uint64_t)1 << bucket) < meta ? (uint64_t)1 << bucket : meta;
        uint64_t smallest = largest >> 1 > 2 ? largest >> 1 : 2;
        uint64_t distance = smallest + chacha_rng_next_u64(&rng) % (largest - smallest + 1);
        uint32_t parent = (uint32_t)((meta - distance) / m_prime);
        sampled[k] = parent == node ? node - 1 : parent;
    }
    out[legacy_v1 ? m_prime : 0] = node - 1;
}
