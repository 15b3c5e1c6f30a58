/* The FallbackPoSt circuit provider: WINDOW_POST_PARTITION and WINNING_POST
 * requests as Curio sends them (api-and-ecosystem.md 2.4): registered PoSt
 * proof id, 32-byte randomness (already Fr-masked), one bincode
 * FallbackPoStSectorProof per sector, and for WindowPoSt the partition index.
 *
 * plan() decodes and checks everything before the job is queued: the proof
 * kind matches the registered proof, every vanilla proof has its sector
 * size's tree shape, every path verifies to comm_r_last, comm_r binds comm_c
 * and comm_r_last, and every path opens exactly the leaf the randomness
 * challenges.  So a request that plans cleanly proves, and a bad one is
 * refused with a message naming the sector and challenge.
 *
 * One request is one partition.  WinningPoSt's one sector proof with 66
 * paths becomes the circuit's 66 one-challenge sector slots (rust-fil-proofs
 * winning_post.rs reshapes it so).  Public inputs are computed natively
 * (post_public_inputs) and compared with what synthesis inputizes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/provider_util.h"
#include "engine/providers.h"
#include "filecoin/inclusion_proof.h"
#include "filecoin/merkle_proof.h"
#include "filecoin/post_challenges.h"
#include "filecoin/post_circuit.h"
#include "filecoin/post_vanilla.h"
#include "gadget/poseidon.h"

typedef struct {
    const fc_post_proof *proof;
    post_shape shape;
    fc_post_vanilla *decoded; /* one per vanilla proof */
    size_t n_decoded;
    fc_post_vanilla winning;             /* the 66-slot view of a WinningPoSt proof */
    fc_post_sector_proof *winning_slots; /* its sectors */
    post_witness witness;
    fr *inputs; /* post_num_public_inputs */
    size_t n_inputs;
} post_state;

static void state_free(post_state *st) {
    if (!st)
        return;
    for (size_t i = 0; i < st->n_decoded; i++)
        fc_post_vanilla_free(&st->decoded[i]);
    free(st->decoded);
    free(st->winning_slots);
    post_witness_free(&st->witness);
    free(st->inputs);
    free(st);
}

static int blank_post(r1cs_cs *cs, void *shape) { return post_circuit_synthesize(cs, shape, NULL); }

/* WinningPoSt: one sector, 66 paths -> 66 slots of one path each. */
static int winning_view(post_state *st, char err[CUZK_ERROR_LEN]) {
    const fc_post_vanilla *v = &st->decoded[0];
    const fc_post_sector_proof *sp = &v->sectors[0];
    if (st->n_decoded != 1 || v->n_sectors != 1) {
        snprintf(err, CUZK_ERROR_LEN, "WinningPoSt proves one sector: got %zu sector proofs",
                 st->n_decoded > 1 ? st->n_decoded : v->n_sectors);
        return -1;
    }
    st->winning_slots = calloc(sp->n_proofs, sizeof *st->winning_slots);
    if (!st->winning_slots) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return -1;
    }
    for (size_t j = 0; j < sp->n_proofs; j++) {
        st->winning_slots[j] = *sp;
        st->winning_slots[j].proofs = &sp->proofs[j];
        st->winning_slots[j].n_proofs = 1;
    }
    st->winning = *v;
    st->winning.sectors = st->winning_slots;
    st->winning.n_sectors = sp->n_proofs;
    st->winning.arena = NULL; /* owned by decoded[0] */
    return 0;
}

/* Every path reaches comm_r_last, and comm_r = Poseidon2(comm_c, comm_r_last):
 * a proof that fails here would only fail self-verification later. */
static int check_paths(const fc_post_vanilla *v, size_t i, char err[CUZK_ERROR_LEN]) {
    for (size_t q = 0; q < v->n_sectors; q++) {
        const fc_post_sector_proof *sp = &v->sectors[q];
        fr in[2], h;
        uint8_t comm_r[32];
        if (!fr_from_bytes_le(&in[0], sp->comm_c) || !fr_from_bytes_le(&in[1], sp->comm_r_last) ||
            poseidon_hash(&h, in, 2) != 0) {
            snprintf(err, CUZK_ERROR_LEN,
                     "vanilla_proofs[%zu]: comm_c or comm_r_last is not a "
                     "field element",
                     i);
            return -1;
        }
        fr_to_bytes_le(comm_r, &h);
        if (memcmp(comm_r, v->comm_r, 32) != 0) {
            snprintf(err, CUZK_ERROR_LEN,
                     "vanilla_proofs[%zu]: comm_r is not Poseidon(comm_c, comm_r_last)", i);
            return -1;
        }
        for (size_t j = 0; j < sp->n_proofs; j++) {
            merkle_proof m;
            int ok = fc_inclusion_to_merkle(&m, &sp->proofs[j], TREE_HASH_POSEIDON) == 0 &&
                     merkle_proof_verify(&m) == MERKLE_OK &&
                     memcmp(m.root, sp->comm_r_last, 32) == 0;
            merkle_proof_free(&m);
            if (!ok) {
                snprintf(err, CUZK_ERROR_LEN,
                         "vanilla_proofs[%zu]: sector %llu challenge %zu: the inclusion path "
                         "does not reach comm_r_last",
                         i, (unsigned long long)v->sector_id, j);
                return -1;
            }
        }
    }
    return 0;
}

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
    if (!req->randomness || !fc_post_randomness_ok(req->randomness)) {
        snprintf(err, CUZK_ERROR_LEN, "randomness: %s",
                 req->randomness ? "not a canonical field element" : "missing (32 bytes)");
        return CUZK_E_INVALID;
    }
    if (req->n_vanilla_proofs == 0 || req->n_vanilla_proofs > p->sector_count) {
        snprintf(err, CUZK_ERROR_LEN, "vanilla_proofs: %zu sector proofs, %s takes 1 to %u",
                 req->n_vanilla_proofs, p->name, winning ? 1 : p->sector_count);
        return CUZK_E_INVALID;
    }
    post_state *st = calloc(1, sizeof *st);
    if (st)
        st->decoded = calloc(req->n_vanilla_proofs, sizeof *st->decoded);
    if (!st || !st->decoded) {
        free(st);
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return CUZK_E_EXHAUSTED;
    }
    st->proof = p;
    post_shape_for_proof(&st->shape, p);
    cuzk_status rc = CUZK_E_INVALID;
    char msg[CUZK_ERROR_LEN - 64];
    for (size_t i = 0; i < req->n_vanilla_proofs; i++, st->n_decoded++) {
        if (fc_post_vanilla_decode(&st->decoded[i], req->vanilla_proofs[i],
                                   req->vanilla_proofs_len[i], p, msg, sizeof msg) != 0) {
            snprintf(err, CUZK_ERROR_LEN, "vanilla_proofs[%zu]: %s", i, msg);
            goto fail;
        }
    }
    for (size_t i = 0; i < st->n_decoded; i++)
        if (check_paths(&st->decoded[i], i, err) != 0)
            goto fail;
    const fc_post_vanilla *one = winning ? &st->winning : NULL;
    if (winning && winning_view(st, err) != 0)
        goto fail;
    const fc_post_vanilla **views = malloc(st->n_decoded * sizeof *views);
    size_t n_sectors = 0;
    for (size_t i = 0; i < st->n_decoded; i++)
        n_sectors += st->decoded[i].n_sectors;
    n_sectors = winning ? st->winning.n_sectors : n_sectors;
    uint64_t *opened = malloc(st->shape.sectors * (size_t)st->shape.challenges * sizeof *opened);
    uint64_t *want = malloc(st->shape.sectors * (size_t)st->shape.challenges * sizeof *want);
    fr *comm_r = malloc(st->shape.sectors * sizeof *comm_r);
    st->n_inputs = post_num_public_inputs(&st->shape);
    st->inputs = malloc(st->n_inputs * sizeof *st->inputs);
    if (!views || !opened || !want || !comm_r || !st->inputs) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        rc = CUZK_E_EXHAUSTED;
        goto fail_local;
    }
    for (size_t i = 0; i < st->n_decoded; i++)
        views[i] = &st->decoded[i];
    if (post_witness_from_vanilla(&st->witness, opened, &st->shape, winning ? &one : views,
                                  winning ? 1 : st->n_decoded, msg, sizeof msg) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "vanilla_proofs: %s", msg);
        goto fail_local;
    }
    /* The leaves the randomness challenges, slot by slot, must be the ones opened. */
    size_t slot = 0;
    for (size_t i = 0; i < (winning ? 1 : st->n_decoded); i++) {
        const fc_post_vanilla *v = winning ? one : &st->decoded[i];
        for (size_t q = 0; q < v->n_sectors; q++, slot++) {
            uint64_t global = (uint64_t)req->partition_index * p->sector_count + slot;
            fc_post_sector_leaf_challenges(&want[slot * st->shape.challenges], p, req->randomness,
                                           v->sector_id, winning ? slot : global);
            for (size_t j = 0; j < st->shape.challenges; j++) {
                size_t k = slot * st->shape.challenges + j;
                if (opened[k] != want[k]) {
                    snprintf(err, CUZK_ERROR_LEN,
                             "vanilla_proofs[%zu]: sector %llu challenge %zu opens leaf %llu, "
                             "the randomness challenges leaf %llu",
                             winning ? 0 : i, (unsigned long long)v->sector_id, winning ? slot : j,
                             (unsigned long long)opened[k], (unsigned long long)want[k]);
                    goto fail_local;
                }
            }
        }
    }
    memcpy(comm_r, st->witness.comm_r, n_sectors * sizeof *comm_r);
    if (post_public_inputs(st->inputs, &st->shape, n_sectors, comm_r, want, msg, sizeof msg) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "public inputs: %s", msg);
        goto fail_local;
    }
    snprintf(out->circuit_id, sizeof out->circuit_id, "%s-%s", winning ? "winning" : "wpost",
             p->shape->short_name);
    out->n_partitions = 1;
    out->partition_bytes = provider_partition_bytes(out->circuit_id, blank_post, &st->shape);
    out->state = st;
    free(views);
    free(opened);
    free(want);
    free(comm_r);
    if (!out->partition_bytes) {
        snprintf(err, CUZK_ERROR_LEN, "could not size the %s circuit", out->circuit_id);
        state_free(st);
        return CUZK_E_INTERNAL;
    }
    return CUZK_OK;
fail_local:
    free(views);
    free(opened);
    free(want);
    free(comm_r);
fail:
    state_free(st);
    return rc;
}

typedef struct {
    const post_shape *shape;
    const post_witness *w;
} synth_ctx;

static int synth_fn(r1cs_cs *cs, void *vctx) {
    const synth_ctx *c = vctx;
    return post_circuit_synthesize(cs, c->shape, c->w);
}

static cuzk_status synthesize_post(void *ctx, void *state, size_t partition, r1cs_partition *out,
                                   char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    memset(out, 0, sizeof *out);
    post_state *st = state;
    if (partition != 0) {
        snprintf(err, CUZK_ERROR_LEN, "PoSt requests have one partition, not %zu", partition + 1);
        return CUZK_E_INTERNAL;
    }
    synth_ctx c = {&st->shape, &st->witness};
    return provider_synthesize(out, synth_fn, &c, st->inputs, st->n_inputs, "PoSt partition", err);
}

static void release_post(void *ctx, void *state) {
    (void)ctx;
    state_free(state);
}

const engine_circuit_provider engine_provider_post = {
    .name = "fallback-post",
    .ctx = NULL,
    .plan = plan_post,
    .synthesize = synthesize_post,
    .release = release_post,
};
