/* The PoRep C2 circuit provider: POREP_SEAL_COMMIT requests carry one C1
 * output, as Curio sends it (the c1.json wrapper {"SectorNum", "Phase1Out":
 * base64, "SectorSize"}) or bare (the serde JSON of SealCommitPhase1Output).
 *
 * plan() does every check before the job is queued, so a request that plans
 * cleanly proves and a bad one is refused with a message naming the part:
 * the strict decode (c1.h: shapes against the registered proof, the first
 * problem with its JSON path), the request's registered_proof and
 * sector_size against the C1's, its miner_id and sector_number against the
 * C1's replica_id (porep_c1_identity_check), and for every partition the natively
 * derived challenges, parents and public inputs held against the witness
 * (porep_inputs.h: porep_c1_check, the circuit's relations checked natively).
 *
 * plan() prepares the request once (porep_partition.h: decode, derived
 * inputs, witnesses built and checked) and frees the decoded C1; synthesize(k)
 * runs the StackedDrg circuit in proving mode on partition k's prepared
 * witness, and the public inputs it inputizes must equal the derived ones.
 * Partitions are read-only after plan(), so synthesis workers run them in
 * parallel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/provider_util.h"
#include "engine/providers.h"
#include "filecoin/porep/porep_partition.h"

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
    c1_output *c1 = NULL;
    c1_error ce;
    if (c1_decode(&c1, req->vanilla_proof, req->vanilla_proof_len, &ce) != C1_OK) {
        snprintf(err, CUZK_ERROR_LEN, "vanilla_proof: %.480s", ce.msg);
        return ce.status == C1_ERR_NO_MEMORY ? CUZK_E_EXHAUSTED : CUZK_E_INVALID;
    }
    const fc_seal_proof *p = c1->proof;
    /* Curio puts abi.RegisteredSealProof in the request; the C1 names its own. */
    if (req->registered_proof != p->id) {
        snprintf(err, CUZK_ERROR_LEN, "registered_proof %llu, but the C1 is %s (%u)",
                 (unsigned long long)req->registered_proof, p->name, p->id);
        c1_output_free(c1);
        return CUZK_E_INVALID;
    }
    if (req->sector_size && req->sector_size != p->shape->sector_size) {
        snprintf(err, CUZK_ERROR_LEN, "sector_size %llu, but the C1 is a %s sector",
                 (unsigned long long)req->sector_size, p->shape->size_name);
        c1_output_free(c1);
        return CUZK_E_INVALID;
    }
    /* the proof must be for the sector the request names (Curio submits it
     * for that sector; verify_seal would refuse another's) */
    if (porep_c1_identity_check(c1, req->miner_id, req->sector_number, err, CUZK_ERROR_LEN)) {
        c1_output_free(c1);
        return CUZK_E_INVALID;
    }
    porep_c2 *st = calloc(1, sizeof *st);
    if (!st) {
        c1_output_free(c1);
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return CUZK_E_EXHAUSTED;
    }
    int bad = porep_c2_prepare(st, c1, err, CUZK_ERROR_LEN);
    c1_output_free(c1); /* the prepared partitions hold all that synthesis reads */
    if (bad) {
        free(st);
        return strstr(err, "out of memory") ? CUZK_E_EXHAUSTED : CUZK_E_INVALID;
    }
    cuzk_status rc = CUZK_OK;
    snprintf(out->circuit_id, sizeof out->circuit_id, "porep-%s", p->shape->short_name);
    out->n_partitions = st->n_partitions;
    out->partition_bytes = provider_partition_bytes(out->circuit_id, blank_porep, &st->shape);
    out->state = st;
    out->blank = blank_porep;
    out->blank_arg = &st->shape;
    if (!out->partition_bytes) {
        snprintf(err, CUZK_ERROR_LEN, "could not size the %s circuit", out->circuit_id);
        rc = CUZK_E_INTERNAL;
    }
    if (rc != CUZK_OK) {
        porep_c2_free(st);
        free(st);
    }
    return rc;
}

static cuzk_status synthesize_pce_porep(void *ctx, void *state, size_t partition,
                                        const engine_pce_use *use, r1cs_partition *out,
                                        char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    porep_c2 *st = state;
    porep_partition *p = &st->parts[partition];
    char what[48];
    snprintf(what, sizeof what, "partition %zu", partition);
    const groth16_synth_source src =
        provider_source(porep_partition_synthesize, p, porep_partition_witness, p, use);
    return provider_synthesize(out, &src, p->pub.inputs, p->pub.n_inputs, what, err);
}

static cuzk_status synthesize_porep(void *ctx, void *state, size_t partition, r1cs_partition *out,
                                    char err[CUZK_ERROR_LEN]) {
    return synthesize_pce_porep(ctx, state, partition, NULL, out, err);
}

static void release_porep(void *ctx, void *state) {
    (void)ctx;
    if (state)
        porep_c2_free(state);
    free(state);
}

const engine_circuit_provider engine_provider_porep = {
    .name = "porep-c2",
    .ctx = NULL,
    .plan = plan_porep,
    .synthesize = synthesize_porep,
    .release = release_porep,
    .synthesize_pce = synthesize_pce_porep,
};
