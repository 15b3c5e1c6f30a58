/* What the PoSt engine tests share: TEST-ONLY parameters of a PoSt circuit
 * under its Filecoin name, 2 KiB sectors sealed natively, and the public
 * inputs derived here independently of the engine.  Static functions: each
 * test executable includes it once. */
#ifndef CUZK_TEST_POST_FIXTURE_H
#define CUZK_TEST_POST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_circuit.h"
#include "filecoin/post/post_vanilla_gen.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "groth16/vk.h"
#include "sealer/sealer.h"
#include "sealer/sealer_data.h"

/* TEST-ONLY parameters of a PoSt circuit, written under its Filecoin name. */
static int write_params(const char *dir, const fc_post_proof *p, groth16_vk *vk_out) {
    post_shape s;
    post_shape_for_proof(&s, p);
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_matrices mx;
    if (!cs || post_circuit_synthesize(cs, &s, NULL) != 0 || r1cs_finish(cs) != R1CS_OK ||
        r1cs_take_matrices(cs, &mx) != R1CS_OK)
        return -1;
    r1cs_cs_free(cs);
    groth16_toxic t;
    groth16_setup_result res;
    groth16_error ge = {0};
    if (groth16_toxic_random(&t, &ge) != GROTH16_OK ||
        groth16_setup(&res, &mx, &t, 2, &ge) != GROTH16_OK) {
        fprintf(stderr, "setup: %s\n", ge.msg);
        return -1;
    }
    r1cs_matrices_free(&mx);
    char stem[200], path[400];
    fc_post_param_stem(stem, sizeof stem, p);
    groth16_params_data d = groth16_setup_data(&res);
    snprintf(path, sizeof path, "%s/%s.params", dir, stem);
    FILE *f = fopen(path, "wb");
    int ok = f && groth16_params_write(f, &d, &ge) == GROTH16_OK;
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/%s.vk", dir, stem);
    f = fopen(path, "wb");
    ok = ok && f && groth16_vk_write_file(f, &res.vk, &ge) == GROTH16_OK;
    if (f)
        fclose(f);
    *vk_out = res.vk; /* the vk's arrays move to the caller */
    memset(&res.vk, 0, sizeof res.vk);
    groth16_setup_free(&res);
    return ok ? 0 : -1;
}

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

/* Public inputs derived here: per sector slot comm_r then its leaf challenges. */
static size_t expected_inputs(fr *out, const fc_post_proof *p, sector *const *secs, size_t n,
                              const uint8_t rnd[32]) {
    post_shape s;
    post_shape_for_proof(&s, p);
    size_t k = 0;
    for (size_t slot = 0; slot < s.sectors; slot++) {
        const sector *x = secs[slot < n ? slot : n - 1]; /* padding repeats the last */
        size_t real = slot < n ? slot : n - 1;
        CHECK(fr_from_bytes_le(&out[k++], x->ps.comm_r));
        for (unsigned j = 0; j < s.challenges; j++) {
            uint64_t idx =
                p->kind == FC_POST_WINNING
                    ? slot
                    : fc_post_challenge_index(p->grindability_fix, real, p->challenge_count, j);
            fr_set_u64(&out[k++],
                       fc_post_leaf_challenge(rnd, x->ps.sector_id, idx, p->shape->nodes));
        }
    }
    return k;
}

#endif
