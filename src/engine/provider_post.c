/* The FallbackPoSt circuit provider: WINDOW_POST_PARTITION and WINNING_POST
 * requests as Curio sends them (api-and-ecosystem.md 2.4): registered PoSt
 * proof id, 32-byte randomness (already Fr-masked), one bincode
 * FallbackPoStSectorProof per sector, and for WindowPoSt the partition index.
 *
 * plan() decodes and checks everything before the job is queued
 * (post_partition_prepare: the tree shape of the sector size, every path
 * reaches comm_r_last, comm_r binds comm_c and comm_r_last, every path opens
 * exactly the leaf the randomness challenges).  So a request that plans
 * cleanly proves, and a bad one is refused with a message naming the sector
 * and challenge.
 *
 * One request is one partition.  WinningPoSt's one sector proof with 66
 * paths becomes the circuit's 66 one-challenge sector slots (rust-fil-proofs
 * winning_post.rs reshapes it so).  Public inputs are computed natively and
 * compared with what synthesis inputizes.  WINNING_POST defaults to CRITICAL
 * priority and WINDOW_POST_PARTITION to HIGH (cuzk_kind_default_priority). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/provider_util.h"
#include "engine/providers.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_partition.h"

static int blank_post(r1cs_cs *cs, void *shape) { return post_circuit_synthesize(cs, shape, NULL); }

static cuzk_status plan_post(void *ctx, const cuzk_request *req, engine_plan *out,
                             char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    const fc_post_proof *p = fc_post_proof_by_id(req->registered_proof);
    int winning = req->kind == CUZK_KIND_WINNING_POST;
    if (!p || (p->kind == FC_POST_WINNING) != winning) {
        snprintf(err, CUZK_ERROR_LEN, "registered_proof %llu is not a %s proof",
                 (unsigned long long)req->registered_proof, winning ? "WinningPoSt" : "WindowPoSt");
        return CUZK_E_INVALID;
    }
    if (req->sector_size && req->sector_size != p->shape->sector_size) {
        snprintf(err, CUZK_ERROR_LEN, "sector_size %llu does not match %s (%llu)",
                 (unsigned long long)req->sector_size, p->name,
                 (unsigned long long)p->shape->sector_size);
        return CUZK_E_INVALID;
    }
    if (!req->randomness) {
        snprintf(err, CUZK_ERROR_LEN, "randomness: missing (32 bytes)");
        return CUZK_E_INVALID;
    }
    post_partition *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return CUZK_E_EXHAUSTED;
    }
    post_partition_status prc = post_partition_prepare(
        st, p, req->vanilla_proofs, req->vanilla_proofs_len, req->n_vanilla_proofs, req->randomness,
        req->partition_index, err, CUZK_ERROR_LEN);
    if (prc != POST_PARTITION_OK) {
        free(st);
        return prc == POST_PARTITION_NOMEM ? CUZK_E_EXHAUSTED : CUZK_E_INVALID;
    }
    snprintf(out->circuit_id, sizeof out->circuit_id, "%s-%s", winning ? "winning" : "wpost",
             p->shape->short_name);
    out->n_partitions = 1;
    out->partition_bytes = provider_partition_bytes(out->circuit_id, blank_post, &st->shape);
    out->state = st;
    out->blank = blank_post;
    out->blank_arg = &st->shape;
    if (!out->partition_bytes) {
        snprintf(err, CUZK_ERROR_LEN, "could not size the %s circuit", out->circuit_id);
        post_partition_free(st);
        free(st);
        out->state = NULL;
        return CUZK_E_INTERNAL;
    }
    return CUZK_OK;
}

typedef struct {
    const post_shape *shape;
    const post_witness *w;
} synth_ctx;

static int synth_fn(r1cs_cs *cs, void *vctx) {
    const synth_ctx *c = vctx;
    return post_circuit_synthesize(cs, c->shape, c->w);
}

static cuzk_status synthesize_pce_post(void *ctx, void *state, size_t partition,
                                       const engine_pce_use *use, r1cs_partition *out,
                                       char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    memset(out, 0, sizeof *out);
    post_partition *st = state;
    if (partition != 0) {
        snprintf(err, CUZK_ERROR_LEN, "PoSt requests have one partition, not %zu", partition + 1);
        return CUZK_E_INTERNAL;
    }
    synth_ctx c = {&st->shape, &st->witness};
    const groth16_synth_source src = provider_source(synth_fn, &c, post_partition_witness, st, use);
    return provider_synthesize(out, &src, st->inputs, st->n_inputs, "PoSt partition", err);
}

static cuzk_status synthesize_post(void *ctx, void *state, size_t partition, r1cs_partition *out,
                                   char err[CUZK_ERROR_LEN]) {
    return synthesize_pce_post(ctx, state, partition, NULL, out, err);
}

static void release_post(void *ctx, void *state) {
    (void)ctx;
    if (state) {
        post_partition_free(state);
        free(state);
    }
}

const engine_circuit_provider engine_provider_post = {
    .name = "fallback-post",
    .ctx = NULL,
    .plan = plan_post,
    .synthesize = synthesize_post,
    .release = release_post,
    .synthesize_pce = synthesize_pce_post,
};
