#include "filecoin/porep/challenges.h"

#include <string.h>

#include "filecoin/hash/blake2b.h"
#include "filecoin/hash/chacha.h"
#include "filecoin/hash/sha256_native.h"
#include "util/err.h"
#include "util/verify.h"

static const char NI_TAG[] = "filecoin.io|PoRep|1|NonInteractive|1";
static const char SYNTH_GEN_TAG[] = "filecoin.io|PoRep|1|Synthetic|1|Generation";
static const char SYNTH_SEL_TAG[] = "filecoin.io|PoRep|1|Synthetic|1|Selection";
static const uint8_t SYNTH_NONCE[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};

uint64_t fc_challenge_reduce(const uint8_t *le, size_t n, uint64_t nodes) {
    uint64_t m = nodes - 1, r = 0;
    /* Horner from the most significant byte: r < m <= 2^32, so r*256 fits. */
    for (size_t i = n; i-- > 0;)
        r = ((r << 8) | le[i]) % m;
    return r + 1;
}

static void put_u32le(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void fc_interactive_challenges(uint64_t *out, size_t count, unsigned k, uint64_t nodes,
                               const uint8_t replica_id[32], const uint8_t seed[32]) {
    uint8_t msg[68], d[32];
    memcpy(msg, replica_id, 32);
    memcpy(msg + 32, seed, 32);
    for (size_t i = 0; i < count; i++) {
        put_u32le(msg + 64, (uint32_t)(count * k + i));
        sha256_native(d, msg, sizeof msg);
        out[i] = fc_challenge_reduce(d, 32, nodes);
    }
}

void fc_ni_challenges(uint64_t *out, size_t count, unsigned k, uint64_t nodes,
                      const uint8_t replica_id[32], const uint8_t comm_r[32]) {
    enum { TAG = sizeof NI_TAG - 1 };
    uint8_t msg[TAG + 68], d[32];
    memcpy(msg, NI_TAG, TAG);
    memcpy(msg + TAG, replica_id, 32);
    memcpy(msg + TAG + 32, comm_r, 32);
    for (size_t i = 0; i < count; i++) {
        put_u32le(msg + TAG + 64, (uint32_t)(count * k + i));
        sha256_native(d, msg, sizeof msg);
        out[i] = fc_challenge_reduce(d, 32, nodes);
    }
}

uint64_t fc_synth_count(uint64_t nodes) {
    return nodes < FC_SYNTH_CHALLENGES_MAX ? nodes : FC_SYNTH_CHALLENGES_MAX;
}

static void synth_key(uint8_t key[32], const char *tag, const uint8_t a[32], const uint8_t b[32]) {
    blake2b_ctx c;
    int rc = blake2b_init(&c, 32, tag, strlen(tag));
    VERIFY_CHECK(rc == 0);
    (void)rc;
    blake2b_update(&c, a, 32);
    blake2b_update(&c, b, 32);
    blake2b_final(&c, key);
}

void fc_synth_gen_key(uint8_t key[32], const uint8_t replica_id[32], const uint8_t comm_r[32]) {
    synth_key(key, SYNTH_GEN_TAG, replica_id, comm_r);
}

void fc_synth_select_key(uint8_t key[32], const uint8_t replica_id[32], const uint8_t seed[32]) {
    synth_key(key, SYNTH_SEL_TAG, replica_id, seed);
}

void fc_synth_challenges(uint64_t *out, uint64_t first, size_t n, uint64_t nodes,
                         const uint8_t gen_key[32]) {
    uint8_t ks[32 * 64];
    while (n > 0) {
        size_t take = n < 64 ? n : 64;
        /* first < 2^32 challenges of 32 bytes stay inside the 2^38-byte stream */
        int rc = chacha20_ietf_keystream(ks, 32 * take, gen_key, SYNTH_NONCE, first * 32);
        VERIFY_CHECK(rc == 0);
        (void)rc;
        for (size_t i = 0; i < take; i++)
            out[i] = fc_challenge_reduce(ks + 32 * i, 32, nodes);
        out += take;
        first += take;
        n -= take;
    }
}

void fc_synth_select(uint64_t *out, size_t count, unsigned k, uint64_t n_synth,
                     const uint8_t select_key[32]) {
    uint8_t ks[4 * 64];
    uint64_t j = (uint64_t)count * k;
    while (count > 0) {
        size_t take = count < 64 ? count : 64;
        int rc = chacha20_ietf_keystream(ks, 4 * take, select_key, SYNTH_NONCE, j * 4);
        VERIFY_CHECK(rc == 0);
        (void)rc;
        for (size_t i = 0; i < take; i++) {
            const uint8_t *p = ks + 4 * i;
            uint32_t v =
                (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            out[i] = v % n_synth;
        }
        out += take;
        j += take;
        count -= take;
    }
}

void fc_synth_porep_challenges(uint64_t *out, size_t count, unsigned k, uint64_t nodes,
                               uint64_t n_synth, const uint8_t replica_id[32],
                               const uint8_t comm_r[32], const uint8_t seed[32]) {
    uint8_t gkey[32], skey[32];
    fc_synth_gen_key(gkey, replica_id, comm_r);
    fc_synth_select_key(skey, replica_id, seed);
    fc_synth_select(out, count, k, n_synth, skey);
    for (size_t i = 0; i < count; i++)
        fc_synth_challenges(&out[i], out[i], 1, nodes, gkey);
}

int fc_porep_challenges(uint64_t *out, const fc_seal_proof *p, unsigned k,
                        const uint8_t replica_id[32], const uint8_t comm_r[32],
                        const uint8_t seed[32], char *err, size_t errcap) {
    if (!p || !replica_id)
        return err_set(err, errcap, "challenges: no proof type or replica_id");
    if (k >= p->partitions)
        return err_set(err, errcap, "challenges: partition %u out of range (%s has %u)", k, p->name,
                       p->partitions);
    size_t c = p->challenges_per_partition;
    uint64_t nodes = p->shape->nodes;
    switch (p->variant) {
    case FC_POREP_V1:
    case FC_POREP_V1_1:
        if (!seed)
            return err_set(err, errcap, "challenges: interactive PoRep needs the seed");
        fc_interactive_challenges(out, c, k, nodes, replica_id, seed);
        return 0;
    case FC_POREP_NI:
        if (!comm_r)
            return err_set(err, errcap, "challenges: NI-PoRep needs comm_r");
        fc_ni_challenges(out, c, k, nodes, replica_id, comm_r);
        return 0;
    case FC_POREP_SYNTHETIC:
        if (!seed || !comm_r)
            return err_set(err, errcap, "challenges: synthetic PoRep needs comm_r and the seed");
        fc_synth_porep_challenges(out, c, k, nodes, fc_synth_count(nodes), replica_id, comm_r,
                                  seed);
        return 0;
    }
    return err_set(err, errcap, "challenges: unknown PoRep variant");
}
