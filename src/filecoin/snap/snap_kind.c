/* The SnapDeals (empty-sector update) row of the kind table
 * (filecoin/kinds.h).
 *
 * A request, as Curio sends it (docs/SNAPDEALS.md 1.1): registered_proof =
 * RegisteredUpdateProof 0..4, sector_size 0 or exactly its size, one bincode
 * PartitionProof per partition in partition order, comm_r_old / comm_r_new /
 * comm_d_new as raw 32 bytes.  prepare decodes and checks every partition
 * (snap_partition_prepare: the strict decoder, the challenges comm_r_new
 * selects, every path against its root, the roots against the commitments,
 * the rho encoding, the apex tree up to comm_d_new), so a request that
 * prepares proves and a bad one is refused naming the field, partition and
 * challenge.  h is the proof's (filecoin-proofs always uses hs[3]).  Each
 * partition synthesizes the update circuit on its prepared witness
 * (snap_partition_synthesize), or through a recording with the parallel
 * witness (snap_witness_par.h); the default priority is NORMAL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/kinds.h"
#include "filecoin/snap/snap_partition.h"
#include "filecoin/snap/snap_witness_par.h"

_Static_assert(sizeof(snap_shape) <= FC_KIND_SHAPE_BYTES, "snap_shape fits fc_circuit");
_Static_assert(sizeof(snap_witness) <= FC_KIND_WITNESS_BYTES, "snap_witness fits");

static int circuit_at(const fc_kind *k, fc_circuit *out, unsigned i) {
    snap_shape s;
    if (i >= FC_SECTOR_SIZES || snap_shape_for_id(&s, i))
        return -1;
    fc_circuit_init(out, k, i, NULL);
    memcpy(out->shape, &s, sizeof s);
    out->proof_name = ((const snap_shape *)out->shape)->p.name;
    return 0;
}

static const fc_update_proof *proof_of(const fc_circuit *c) {
    return &((const snap_shape *)c->shape)->p;
}

static size_t param_stem(char *out, size_t cap, const fc_circuit *c) {
    return fc_update_param_stem(out, cap, proof_of(c));
}

static size_t param_identifier(char *out, size_t cap, const fc_circuit *c) {
    return fc_update_param_identifier(out, cap, proof_of(c));
}

static void describe(char *out, size_t cap, const fc_circuit *c) {
    const fc_update_proof *p = proof_of(c);
    snprintf(out, cap,
             "%s update partition: %llu nodes, %u partitions, %u challenges, %u apex leaves, "
             "tree R %u-%u-%u",
             p->name, (unsigned long long)p->nodes, p->partitions, p->challenges, p->apex_leaves,
             p->arity_base, p->arity_sub, p->arity_top);
}

static int synthesize(r1cs_cs *cs, const void *shape, const void *witness) {
    return snap_circuit_synthesize(cs, shape, witness);
}

static int witness_generate(const void *shape, const void *w, const r1cs_segment_mark *segs,
                            size_t nseg, size_t num_inputs, size_t num_aux, unsigned threads,
                            fr *input, fr *aux, char *err, size_t cap) {
    return snap_witness_generate(shape, w, segs, nseg, num_inputs, num_aux, threads, input, aux,
                                 err, cap);
}

/* any values: proving-mode synthesis does not check them */
static int witness_random(fc_kind_witness *w, const void *shape, uint64_t seed) {
    const snap_shape *ss = shape;
    memset(w, 0, sizeof *w);
    uint64_t s = seed;
    snap_witness_sizes z;
    snap_witness_sizes_get(ss, &z);
    size_t nfr = 6 + z.apex_leaves + z.partition_path + 2 * z.leaves + 2 * z.path_r + z.path_d;
    fr *f = malloc(nfr * sizeof(fr));
    if (!f)
        return -1;
    fc_kind_rand_frs(f, nfr, &s);
    snap_witness *sw = (snap_witness *)w->w;
    sw->k = 0;
    sw->h = ss->p.h_default;
    sw->comm_r_old = f[0];
    sw->comm_d_new = f[1];
    sw->comm_r_new = f[2];
    sw->comm_c = f[3];
    sw->root_r_old = f[4];
    sw->root_r_new = f[5];
    sw->apex_leaves = f + 6;
    sw->partition_path = sw->apex_leaves + z.apex_leaves;
    sw->leaf_r_old = sw->partition_path + z.partition_path;
    sw->leaf_d_new = sw->leaf_r_old + z.leaves;
    sw->path_r_old = sw->leaf_d_new + z.leaves;
    sw->path_r_new = sw->path_r_old + z.path_r;
    sw->path_d = sw->path_r_new + z.path_r;
    w->mem = f;
    return 0;
}

/* The plan's state: the prepared partitions, one synthesis job each (read
 * only once made), and the shape of the blank circuit. */
typedef struct {
    snap_partition pp;
    snap_shape shape;
    snap_partition_job *jobs;
} snap_state;

/* The three commitments: present (the server has checked they are 32 bytes). */
static int comms_given(const fc_kind_request *req, char *err, size_t cap) {
    const char *names[3] = {"comm_r_old", "comm_r_new", "comm_d_new"};
    const uint8_t *b[3] = {req->comm_r_old, req->comm_r_new, req->comm_d_new};
    for (int i = 0; i < 3; i++)
        if (!b[i]) {
            snprintf(err, cap, "%s: missing (32 bytes)", names[i]);
            return 0;
        }
    return 1;
}

static void release(void *state) {
    snap_state *ss = state;
    if (ss) {
        snap_partition_free(&ss->pp);
        free(ss->jobs);
    }
    free(ss);
}

static fc_kind_status prepare(const fc_kind *k, fc_kind_plan *out, const fc_kind_request *req,
                              char *err, size_t cap) {
    (void)k;
    const fc_update_proof *p = NULL;
    if (snap_request_proof(&p, req->registered_proof, req->sector_size, err, cap) != SNAP_OK ||
        !comms_given(req, err, cap))
        return FC_KIND_INVALID;
    if (!req->vanilla_proofs || req->n_vanilla_proofs == 0) {
        snprintf(err, cap, "vanilla_proofs: missing (%u partition proofs for %s)", p->partitions,
                 p->name);
        return FC_KIND_INVALID;
    }
    snap_shape shape;
    if (p->id < 0 || snap_shape_for_id(&shape, (uint64_t)p->id) != 0) {
        snprintf(err, cap, "%s: no update circuit shape", p->name);
        return FC_KIND_INTERNAL;
    }
    snap_state *ss = calloc(1, sizeof *ss);
    if (!ss) {
        snprintf(err, cap, "out of memory");
        return FC_KIND_NOMEM;
    }
    ss->shape = shape;
    int prc = snap_partition_prepare(&ss->pp, p, req->vanilla_proofs, req->vanilla_proofs_len,
                                     req->n_vanilla_proofs, req->comm_r_old, req->comm_r_new,
                                     req->comm_d_new, err, cap);
    if (prc != SNAP_OK) {
        free(ss);
        return prc == SNAP_E_NOMEM ? FC_KIND_NOMEM : FC_KIND_INVALID;
    }
    ss->jobs = calloc(ss->pp.n_parts, sizeof *ss->jobs);
    if (!ss->jobs) {
        snprintf(err, cap, "out of memory");
        release(ss);
        return FC_KIND_NOMEM;
    }
    for (size_t i = 0; i < ss->pp.n_parts; i++)
        if (snap_partition_job_init(&ss->jobs[i], &ss->pp, i) != 0) {
            snprintf(err, cap, "no Snap partition %zu (of %zu)", i, ss->pp.n_parts);
            release(ss);
            return FC_KIND_INTERNAL;
        }
    out->state = ss;
    out->n_partitions = ss->pp.n_parts;
    out->size = (unsigned)p->id;
    out->shape = &ss->shape;
    return FC_KIND_OK;
}

static int partition(fc_kind_part *out, void *state, size_t i) {
    snap_state *ss = state;
    if (i >= ss->pp.n_parts)
        return -1;
    snap_partition_job *j = &ss->jobs[i];
    *out = (fc_kind_part){snap_partition_synthesize, j, snap_partition_job_witness, j, j->inputs,
                          SNAP_PUBLIC_INPUTS};
    return 0;
}

const fc_kind fc_kind_snap = {
    .id_prefix = "snap",
    .circuit_name = "snap",
    .cli_verb = "snap",
    .wire_kind = 2,
    .wire_name = "snap-update",
    .wire_label = "snap_update",
    .wire_priority = 2,
    .engine_name = "snap-update",
    .part_noun = "Snap partition",
    .circuit_at = circuit_at,
    .param_stem = param_stem,
    .param_identifier = param_identifier,
    .describe = describe,
    .synthesize = synthesize,
    .witness_generate = witness_generate,
    .witness_random = witness_random,
    .prepare = prepare,
    .partition = partition,
    .release = release,
};
