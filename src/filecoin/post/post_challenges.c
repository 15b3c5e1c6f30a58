#include "filecoin/post/post_challenges.h"

#include <string.h>

#include "field/fr.h"
#include "filecoin/hash/sha256_native.h"
#include "util/verify.h"

static void put_u64le(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64le(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

int fc_post_randomness_ok(const uint8_t randomness[32]) {
    fr x;
    return fr_from_bytes_le(&x, randomness);
}

uint64_t fc_post_challenge_index(int grindability_fix, uint64_t sector_slot,
                                 uint64_t challenge_count, uint64_t n) {
    return grindability_fix ? n : sector_slot * challenge_count + n;
}

uint64_t fc_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                uint64_t challenge_index, uint64_t nodes) {
    VERIFY_CHECK(nodes > 0);
    uint8_t msg[48], d[32];
    memcpy(msg, randomness, 32);
    put_u64le(msg + 32, sector_id);
    put_u64le(msg + 40, challenge_index);
    sha256_native(d, msg, sizeof msg);
    return get_u64le(d) % nodes;
}

void fc_post_sector_leaf_challenges(uint64_t *out, const fc_post_proof *p,
                                    const uint8_t randomness[32], uint64_t sector_id,
                                    uint64_t sector_slot) {
    for (uint64_t n = 0; n < p->challenge_count; n++) {
        uint64_t idx =
            fc_post_challenge_index(p->grindability_fix, sector_slot, p->challenge_count, n);
        out[n] = fc_post_leaf_challenge(randomness, sector_id, idx, p->shape->nodes);
    }
}

uint64_t fc_post_sector_challenge(const uint8_t randomness[32], uint64_t n, uint64_t sector_set_len,
                                  const uint8_t prover_id[32]) {
    VERIFY_CHECK(sector_set_len > 0);
    uint8_t msg[72], d[32];
    memcpy(msg, prover_id, 32);
    memcpy(msg + 32, randomness, 32);
    put_u64le(msg + 64, n); /* usize::to_le_bytes on a 64-bit host */
    sha256_native(d, msg, sizeof msg);
    return get_u64le(d) % sector_set_len;
}
