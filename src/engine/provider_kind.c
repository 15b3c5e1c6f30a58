/* The engine's circuit provider over a row of the kind table
 * (filecoin/kinds.h): one adapter for every Filecoin proof kind.
 *
 * plan() hands the request to the row's prepare (on the submitting thread:
 * every check is made before the job is queued, so a request that plans
 * cleanly proves and a bad one is refused with the kind's message), names
 * the circuit id "<id_prefix>-<size>" and sizes one partition;
 * synthesize(k) runs the row's partition k in proving mode (or through the
 * circuit's recording), and the public inputs it inputizes must equal the
 * natively derived ones.  Partitions are read-only after plan(), so
 * synthesis workers run them in parallel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/provider_util.h"
#include "engine/providers.h"

/* A planned request: the row and what its prepare made. */
typedef struct {
    const fc_kind *k;
    fc_kind_plan plan;
} kind_state;

/* The blank circuit of a plan (the pce's recording, the sizing count). */
static int blank(r1cs_cs *cs, void *arg) {
    const kind_state *ks = arg;
    return ks->k->synthesize(cs, ks->plan.shape, NULL);
}

static void release(void *ctx, void *state) {
    (void)ctx;
    kind_state *ks = state;
    if (ks)
        ks->k->release(ks->plan.state);
    free(ks);
}

static cuzk_status plan(void *ctx, const cuzk_request *req, engine_plan *out,
                        char err[CUZK_ERROR_LEN]) {
    const fc_kind *k = ctx;
    const fc_kind_request r = {.registered_proof = req->registered_proof,
                               .sector_size = req->sector_size,
                               .vanilla = req->vanilla_proof,
                               .vanilla_len = req->vanilla_proof_len,
                               .vanilla_proofs = req->vanilla_proofs,
                               .vanilla_proofs_len = req->vanilla_proofs_len,
                               .n_vanilla_proofs = req->n_vanilla_proofs,
                               .randomness = req->randomness,
                               .partition_index = req->partition_index,
                               .miner_id = req->miner_id,
                               .sector_number = req->sector_number,
                               .comm_r_old = req->comm_r_old,
                               .comm_r_new = req->comm_r_new,
                               .comm_d_new = req->comm_d_new};
    kind_state *ks = calloc(1, sizeof *ks);
    if (!ks) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return CUZK_E_EXHAUSTED;
    }
    ks->k = k;
    switch (k->prepare(k, &ks->plan, &r, err, CUZK_ERROR_LEN)) {
    case FC_KIND_OK:
        break;
    case FC_KIND_INVALID:
        free(ks);
        return CUZK_E_INVALID;
    case FC_KIND_NOMEM:
        free(ks);
        return CUZK_E_EXHAUSTED;
    default:
        free(ks);
        return CUZK_E_INTERNAL;
    }
    snprintf(out->circuit_id, sizeof out->circuit_id, "%s-%s", k->id_prefix,
             fc_shape_at(ks->plan.size)->short_name);
    out->n_partitions = ks->plan.n_partitions;
    out->partition_bytes = provider_partition_bytes(out->circuit_id, blank, ks);
    pce_shape_counts sc;
    if (provider_shape_counts(out->circuit_id, &sc) == 0) {
        out->rows = sc.rows;
        out->num_inputs = sc.num_inputs;
        out->num_aux = sc.num_aux;
    }
    out->state = ks;
    out->blank = blank;
    out->blank_arg = ks;
    if (!out->partition_bytes) {
        snprintf(err, CUZK_ERROR_LEN, "could not size the %s circuit", out->circuit_id);
        release(ctx, ks);
        out->state = NULL;
        return CUZK_E_INTERNAL;
    }
    return CUZK_OK;
}

static cuzk_status synthesize_pce(void *ctx, void *state, size_t partition,
                                  const engine_pce_use *use, r1cs_partition *out,
                                  char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    memset(out, 0, sizeof *out);
    kind_state *ks = state;
    fc_kind_part p;
    if (ks->k->partition(&p, ks->plan.state, partition) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "no %s %zu (of %zu)", ks->k->part_noun, partition,
                 ks->plan.n_partitions);
        return CUZK_E_INTERNAL;
    }
    char what[48];
    snprintf(what, sizeof what, "%s %zu", ks->k->part_noun, partition);
    const groth16_synth_source src =
        provider_source(p.synth, p.synth_arg, p.witness, p.witness_arg, use);
    return provider_synthesize(out, &src, p.inputs, p.n_inputs, what, err);
}

static cuzk_status synthesize(void *ctx, void *state, size_t partition, r1cs_partition *out,
                              char err[CUZK_ERROR_LEN]) {
    return synthesize_pce(ctx, state, partition, NULL, out, err);
}

void engine_provider_of_kind(engine_circuit_provider *out, const fc_kind *k) {
    *out = (engine_circuit_provider){.name = k->engine_name,
                                     .ctx = (void *)k,
                                     .plan = plan,
                                     .synthesize = synthesize,
                                     .release = release,
                                     .synthesize_pce = synthesize_pce};
}
