/* The PoRep C2 circuit provider: POREP_SEAL_COMMIT requests carry one C1
 * output, as Curio sends it (the c1.json wrapper {"SectorNum", "Phase1Out":
 * base64, "SectorSize"}) or bare (the serde JSON of SealCommitPhase1Output).
 *
 * plan() does every check before the job is queued, so a request that plans
 * cleanly proves and a bad one is refused with a message naming the part:
 * the strict decode (c1.h: shapes against the registered proof, the first
 * problem with its JSON path), the request's registered_proof and
 * sector_size against the C1's, and for every partition the natively
 * derived challenges, parents and public inputs held against the witness
 * (porep_inputs.h: porep_c1_check, the circuit's relations checked natively).
 *
 * synthesize(k) reads partition k's witness and runs the StackedDrg circuit
 * in proving mode; the public inputs it inputizes must equal the derived
 * ones.  Partitions share the decoded C1 read-only, so synthesis workers run
 * them in parallel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/provider_util.h"
#include "engine/providers.h"
#include "filecoin/c1.h"
#include "filecoin/graph.h"
#include "filecoin/porep_circuit.h"
#include "filecoin/porep_inputs.h"

typedef struct {
    c1_output *c1;
    porep_public *pub; /* per partition */
    unsigned partitions;
} porep_state;

static void state_free(porep_state *st) {
    if (!st)
        return;
    for (unsigned k = 0; st->pub && k < st->partitions; k++)
        porep_public_free(&st->pub[k]);
    free(st->pub);
    c1_output_free(st->c1);
    free(st);
}

static int blank_porep(r1cs_cs *cs, void *shape) {
    return porep_circuit_synthesize(cs, shape, NULL);
}

static cuzk_status plan_porep(void *ctx, const cuzk_request *req, engine_plan *out,
                              char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    if (!req->vanilla_proof || req->vanilla_proof_len == 0) {
        snprintf(err, CUZK_ERROR_LEN, "vanilla_proof: missing (the C1 output)");
        return CUZK_E_INVALID;
    }
    porep_state *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return CUZK_E_EXHAUSTED;
    }
    c1_error ce;
    if (c1_decode(&st->c1, req->vanilla_proof, req->vanilla_proof_len, &ce) != C1_OK) {
        snprintf(err, CUZK_ERROR_LEN, "vanilla_proof: %.480s", ce.msg);
        state_free(st);
        return ce.status == C1_ERR_NO_MEMORY ? CUZK_E_EXHAUSTED : CUZK_E_INVALID;
    }
    const fc_seal_proof *p = st->c1->proof;
    /* Curio puts abi.RegisteredSealProof in the request; the C1 names its own. */
    if (req->registered_proof != p->id) {
        snprintf(err, CUZK_ERROR_LEN, "registered_proof %llu, but the C1 is %s (%u)",
                 (unsigned long long)req->registered_proof, p->name, p->id);
        state_free(st);
        return CUZK_E_INVALID;
    }
    if (req->sector_size && req->sector_size != p->shape->sector_size) {
        snprintf(err, CUZK_ERROR_LEN, "sector_size %llu, but the C1 is a %s sector",
                 (unsigned long long)req->sector_size, p->shape->size_name);
        state_free(st);
        return CUZK_E_INVALID;
    }
    st->partitions = st->c1->partitions;
    st->pub = calloc(st->partitions, sizeof *st->pub);
    fc_graph g;
    if (!st->pub || fc_graph_init_proof(&g, p) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        state_free(st);
        return CUZK_E_EXHAUSTED;
    }
    char msg[CUZK_ERROR_LEN - 64];
    cuzk_status rc = CUZK_OK;
    for (unsigned k = 0; k < st->partitions && rc == CUZK_OK; k++) {
        porep_c1_witness w;
        if (porep_c1_public(&st->pub[k], st->c1, k, &g, msg, sizeof msg) != 0 ||
            porep_c1_witness_get(&w, st->c1, k, msg, sizeof msg) != 0) {
            snprintf(err, CUZK_ERROR_LEN, "partition %u: %s", k, msg);
            rc = CUZK_E_INVALID;
            break;
        }
        if (porep_c1_check(&w, &st->pub[k], msg, sizeof msg) != 0) {
            snprintf(err, CUZK_ERROR_LEN, "partition %u: %s", k, msg);
            rc = CUZK_E_INVALID;
        }
        porep_c1_witness_free(&w);
    }
    fc_graph_free(&g);
    if (rc != CUZK_OK) {
        state_free(st);
        return rc;
    }
    snprintf(out->circuit_id, sizeof out->circuit_id, "porep-%s", p->shape->short_name);
    out->n_partitions = st->partitions;
    out->partition_bytes =
        provider_partition_bytes(out->circuit_id, blank_porep, &st->pub[0].shape);
    out->state = st;
    if (!out->partition_bytes) {
        snprintf(err, CUZK_ERROR_LEN, "could not size the %s circuit", out->circuit_id);
        state_free(st);
        return CUZK_E_INTERNAL;
    }
    return CUZK_OK;
}

typedef struct {
    const porep_shape *shape;
    const porep_witness *w;
} synth_ctx;

static int synth_fn(r1cs_cs *cs, void *vctx) {
    const synth_ctx *c = vctx;
    return porep_circuit_synthesize(cs, c->shape, c->w);
}

static cuzk_status synthesize_porep(void *ctx, void *state, size_t partition, r1cs_partition *out,
                                    char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    memset(out, 0, sizeof *out);
    porep_state *st = state;
    const porep_public *pub = &st->pub[partition];
    porep_c1_witness w;
    char msg[CUZK_ERROR_LEN - 64];
    if (porep_c1_witness_get(&w, st->c1, (unsigned)partition, msg, sizeof msg) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "partition %zu: %s", partition, msg);
        return CUZK_E_INTERNAL;
    }
    synth_ctx c = {&w.shape, &w.w};
    char what[48];
    snprintf(what, sizeof what, "partition %zu", partition);
    cuzk_status rc = provider_synthesize(out, synth_fn, &c, pub->inputs, pub->n_inputs, what, err);
    porep_c1_witness_free(&w);
    return rc;
}

static void release_porep(void *ctx, void *state) {
    (void)ctx;
    state_free(state);
}

const engine_circuit_provider engine_provider_porep = {
    .name = "porep-c2",
    .ctx = NULL,
    .plan = plan_porep,
    .synthesize = synthesize_porep,
    .release = release_porep,
};
