/* Shared by the sealer tests: seal a sector, round-trip its C1 through the
 * JSON codec, and verify the decoded model. */
#ifndef CUZK_TEST_SEALER_UTIL_H
#define CUZK_TEST_SEALER_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/c1/c1.h"
#include "sealer/sealer.h"
#include "sealer/sealer_data.h"
#include "filecoin/porep/vanilla_verify.h"

enum { ST_MINER = 1000, ST_SECTOR = 42 };

/* Threads for column hashing and encoding (0: inline). */
static unsigned st_threads;

/* Seals registered proof id over raw data (NULL: zeros) with random ticket
 * and seed from the test PRNG; returns the decoded C1 of the encoded one. */
static inline c1_output *st_seal(fc_sealed *s, unsigned id, const uint8_t *raw, size_t raw_len) {
    fc_seal_params p = {.proof = fc_seal_proof_by_id(id),
                        .miner_id = ST_MINER,
                        .sector_number = ST_SECTOR,
                        .threads = st_threads};
    check_rand_bytes(p.ticket, 32);
    check_rand_bytes(p.seed, 32);
    uint8_t *padded = fc_seal_pad_sector(raw, raw_len, p.proof->shape->sector_size);
    char err[512];
    int rc = padded ? fc_seal_precommit(s, &p, padded, err, sizeof err) : -1;
    free(padded);
    CHECK(rc == 0);
    if (rc != 0) {
        fprintf(stderr, "seal %u: %s\n", id, err);
        return NULL;
    }
    c1_output *c = NULL, *d = NULL;
    CHECK(fc_seal_commit1(&c, s, err, sizeof err) == 0);
    if (!c)
        return NULL;
    uint8_t *text;
    size_t len;
    c1_error ce;
    CHECK(c1_encode(&text, &len, c, &ce) == C1_OK);
    CHECK(c1_decode(&d, text, len, &ce) == C1_OK);
    free(text);
    if (d)
        CHECK(c1_output_equal(c, d));
    c1_output_free(c);
    return d;
}

/* Verification with the prover's ids; msg gets the failure. */
static inline int st_verify(const c1_output *c, int with_ids, char *msg, size_t cap) {
    fc_vanilla_opts o = {with_ids, ST_MINER, ST_SECTOR};
    return fc_vanilla_verify(c, &o, NULL, msg, cap);
}

#endif
