/* What the PoSt tests share (test_post_partition, the engine's PoSt
 * fixture): 2 KiB sectors sealed natively (random data, tickets and seed
 * from the test's seed) and the public inputs of partition k derived here,
 * independently of post_partition.c and post_challenges' index rule: per
 * sector slot comm_r, then its leaf challenges at index slot*C + j (V1), j
 * (V1_1) or the slot (Winning); padding slots repeat the last sector.
 * Static functions: each test executable includes it once. */
#ifndef CUZK_TEST_POST_SECTORS_H
#define CUZK_TEST_POST_SECTORS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_vanilla_gen.h"
#include "sealer/sealer.h"
#include "sealer/sealer_data.h"

typedef struct {
    fc_sealed s;
    fc_post_sector ps;
} sector;

static int seal(sector *x, uint64_t number) {
    fc_seal_params sp = {
        .proof = fc_seal_proof_by_id(5), .miner_id = 1000, .sector_number = number};
    check_rand_bytes(sp.ticket, 32);
    check_rand_bytes(sp.seed, 32);
    uint8_t raw[2032];
    check_rand_bytes(raw, sizeof raw);
    uint8_t *padded = fc_seal_pad_sector(raw, sizeof raw, 2048);
    char err[256];
    int rc = padded ? fc_seal_precommit(&x->s, &sp, padded, err, sizeof err) : -1;
    free(padded);
    if (rc) {
        fprintf(stderr, "seal: %s\n", err);
        return -1;
    }
    x->ps.tree_r = &x->s.tree_r;
    memcpy(x->ps.comm_c, x->s.comm_c, 32);
    memcpy(x->ps.comm_r_last, x->s.comm_r_last, 32);
    memcpy(x->ps.comm_r, x->s.comm_r, 32);
    x->ps.sector_id = number;
    return 0;
}

/* The public inputs of partition k of p for secs[0..n); returns their count. */
static size_t expected_inputs(fr *out, const fc_post_proof *p, sector *const *secs, size_t n,
                              uint64_t k, const uint8_t rnd[32]) {
    const unsigned slots = p->sector_count, C = p->challenge_count;
    size_t m = 0;
    for (unsigned s = 0; s < slots; s++) {
        const sector *x = secs[s < n ? s : n - 1];
        const uint64_t slot = k * slots + (s < n ? s : n - 1);
        CHECK(fr_from_bytes_le(&out[m++], x->ps.comm_r));
        for (unsigned j = 0; j < C; j++) {
            uint64_t idx = p->kind == FC_POST_WINNING ? s : p->grindability_fix ? j : slot * C + j;
            fr_set_u64(&out[m++],
                       fc_post_leaf_challenge(rnd, x->ps.sector_id, idx, p->shape->nodes));
        }
    }
    return m;
}

#endif
