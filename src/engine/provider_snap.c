/* The SnapDeals (empty-sector update) circuit provider: SNAP_DEALS_UPDATE
 * requests as Curio sends them (docs/SNAPDEALS.md 1.1): registered_proof =
 * RegisteredUpdateProof 0..4, sector_size 0 or exactly its size, one bincode
 * PartitionProof per partition in partition order, comm_r_old / comm_r_new /
 * comm_d_new as raw 32 bytes.
 *
 * plan() decodes and checks every partition before the job is queued
 * (snap_partition_prepare: the strict decoder, the challenges comm_r_new
 * selects, every path against its root, the roots against the commitments,
 * the rho encoding, the apex tree up to comm_d_new), so a request that plans
 * cleanly proves and a bad one is refused with INVALID_ARGUMENT naming the
 * field, partition and challenge.  h is the proof's (filecoin-proofs always
 * uses hs[3]).
 *
 * synthesize(k) runs the update circuit on partition k's prepared witness
 * (snap_partition_synthesize, the CLI's path too), or with a pce the
 * parallel witness (snap_witness_par.h) and the recorded matrices, falling
 * back to it on any mismatch; the 4 public inputs it
 * inputizes must equal the derived ones.  Partitions are read-only after
 * plan(), so they batch and synthesize in parallel like PoRep's, under the
 * circuit id snap-<size>; the default priority is NORMAL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/provider_util.h"
#include "engine/providers.h"
#include "filecoin/snap/snap_partition.h"
#include "filecoin/snap/snap_witness_par.h"

/* The plan's state: the prepared partitions and the shape the blank circuit
 * (the pce's recording) runs on, which must outlive plan(). */
typedef struct {
    snap_partition pp;
    snap_shape shape;
} snap_state;

static int blank_snap(r1cs_cs *cs, void *shape) { return snap_circuit_synthesize(cs, shape, NULL); }

/* The three commitments: present (the server has checked they are 32 bytes). */
static cuzk_status check_comms(const cuzk_request *req, char err[CUZK_ERROR_LEN]) {
    const char *names[3] = {"comm_r_old", "comm_r_new", "comm_d_new"};
    const uint8_t *b[3] = {req->comm_r_old, req->comm_r_new, req->comm_d_new};
    for (int i = 0; i < 3; i++)
        if (!b[i]) {
            snprintf(err, CUZK_ERROR_LEN, "%s: missing (32 bytes)", names[i]);
            return CUZK_E_INVALID;
        }
    return CUZK_OK;
}

static cuzk_status plan_snap(void *ctx, const cuzk_request *req, engine_plan *out,
                             char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    const fc_update_proof *p = NULL;
    if (snap_request_proof(&p, req->registered_proof, req->sector_size, err, CUZK_ERROR_LEN) !=
        SNAP_OK)
        return CUZK_E_INVALID;
    cuzk_status cs = check_comms(req, err);
    if (cs != CUZK_OK)
        return cs;
    if (!req->vanilla_proofs || req->n_vanilla_proofs == 0) {
        snprintf(err, CUZK_ERROR_LEN, "vanilla_proofs: missing (%u partition proofs for %s)",
                 p->partitions, p->name);
        return CUZK_E_INVALID;
    }
    snap_shape shape;
    if (p->id < 0 || snap_shape_for_id(&shape, (uint64_t)p->id) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "%s: no update circuit shape", p->name);
        return CUZK_E_INTERNAL;
    }
    snap_state *ss = calloc(1, sizeof *ss);
    if (!ss) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return CUZK_E_EXHAUSTED;
    }
    snap_partition *st = &ss->pp;
    ss->shape = shape;
    int prc = snap_partition_prepare(st, p, req->vanilla_proofs, req->vanilla_proofs_len,
                                     req->n_vanilla_proofs, req->comm_r_old, req->comm_r_new,
                                     req->comm_d_new, err, CUZK_ERROR_LEN);
    if (prc != SNAP_OK) {
        free(ss);
        return prc == SNAP_E_NOMEM ? CUZK_E_EXHAUSTED : CUZK_E_INVALID;
    }
    snprintf(out->circuit_id, sizeof out->circuit_id, "snap-%s", p->shape->short_name);
    out->n_partitions = st->n_parts;
    out->partition_bytes = provider_partition_bytes(out->circuit_id, blank_snap, &ss->shape);
    out->state = ss;
    out->blank = blank_snap;
    out->blank_arg = &ss->shape;
    if (!out->partition_bytes) {
        snprintf(err, CUZK_ERROR_LEN, "could not size the %s circuit", out->circuit_id);
        snap_partition_free(st);
        free(ss);
        out->state = NULL;
        return CUZK_E_INTERNAL;
    }
    return CUZK_OK;
}

static cuzk_status synthesize_pce_snap(void *ctx, void *state, size_t partition,
                                       const engine_pce_use *use, r1cs_partition *out,
                                       char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    memset(out, 0, sizeof *out);
    const snap_partition *st = &((const snap_state *)state)->pp;
    snap_partition_job job;
    if (snap_partition_job_init(&job, st, partition) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "no Snap partition %zu (of %zu)", partition, st->n_parts);
        return CUZK_E_INTERNAL;
    }
    char what[48];
    snprintf(what, sizeof what, "Snap partition %zu", partition);
    const groth16_synth_source src =
        provider_source(snap_partition_synthesize, &job, snap_partition_job_witness, &job, use);
    return provider_synthesize(out, &src, job.inputs, SNAP_PUBLIC_INPUTS, what, err);
}

static cuzk_status synthesize_snap(void *ctx, void *state, size_t partition, r1cs_partition *out,
                                   char err[CUZK_ERROR_LEN]) {
    return synthesize_pce_snap(ctx, state, partition, NULL, out, err);
}

static void release_snap(void *ctx, void *state) {
    (void)ctx;
    if (state)
        snap_partition_free(&((snap_state *)state)->pp);
    free(state);
}

const engine_circuit_provider engine_provider_snap = {
    .name = "snap-update",
    .ctx = NULL,
    .plan = plan_snap,
    .synthesize = synthesize_snap,
    .release = release_snap,
    .synthesize_pce = synthesize_pce_snap,
};
