/* The PoRep C2 row of the kind table (filecoin/kinds.h).
 *
 * A request carries one C1 output, as Curio sends it (the c1.json wrapper
 * {"SectorNum", "Phase1Out": base64, "SectorSize"}) or bare (the serde JSON
 * of SealCommitPhase1Output).  prepare does every check before the job is
 * queued, so a request that prepares proves and a bad one is refused with a
 * message naming the part: the strict decode (c1.h: shapes against the
 * registered proof, the first problem with its JSON path), the request's
 * registered_proof and sector_size against the C1's, its miner_id and
 * sector_number against the C1's replica_id (porep_c1_identity_check), and
 * for every partition the natively derived challenges, parents and public
 * inputs held against the witness (porep_partition.h).  The decoded C1 is
 * freed: the prepared partitions hold all that synthesis reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/kinds.h"
#include "filecoin/porep/porep_partition.h"
#include "filecoin/porep/porep_witness_par.h"

_Static_assert(sizeof(porep_shape) <= FC_KIND_SHAPE_BYTES, "porep_shape fits fc_circuit");
_Static_assert(sizeof(porep_witness) <= FC_KIND_WITNESS_BYTES, "porep_witness fits");

static int circuit_at(const fc_kind *k, fc_circuit *out, unsigned i) {
    const fc_seal_proof *p = fc_seal_proof_by_id(5 + i); /* V1_1: every version's circuit */
    if (i >= FC_SECTOR_SIZES || !p)
        return -1;
    fc_circuit_init(out, k, i, p->name);
    porep_shape_for_sector((porep_shape *)out->shape, p->shape, p->challenges_per_partition);
    return 0;
}

static size_t param_stem(char *out, size_t cap, const fc_circuit *c) {
    return fc_porep_param_stem(out, cap, fc_shape_at(c->size));
}

static size_t param_identifier(char *out, size_t cap, const fc_circuit *c) {
    return fc_porep_param_identifier(out, cap, fc_shape_at(c->size));
}

static void describe(char *out, size_t cap, const fc_circuit *c) {
    const porep_shape *s = (const porep_shape *)c->shape;
    snprintf(out, cap, "%s partition: %llu nodes, %u layers, %u challenges, trees R/C %u-%u-%u",
             c->proof_name, (unsigned long long)s->nodes, s->layers, s->challenges, s->arity_base,
             s->arity_sub, s->arity_top);
}

static int synthesize(r1cs_cs *cs, const void *shape, const void *witness) {
    return porep_circuit_synthesize(cs, shape, witness);
}

static int witness_generate(const void *shape, const void *w, const r1cs_segment_mark *segs,
                            size_t nseg, size_t num_inputs, size_t num_aux, unsigned threads,
                            fr *input, fr *aux, char *err, size_t cap) {
    return porep_witness_generate(shape, w, segs, nseg, num_inputs, num_aux, threads, input, aux,
                                  err, cap);
}

static int witness_random(fc_kind_witness *w, const void *shape, uint64_t seed) {
    const porep_shape *ps = shape;
    memset(w, 0, sizeof *w);
    uint64_t s = seed;
    porep_witness_sizes z;
    por_shape rc, d;
    porep_witness_sizes_get(ps, &z);
    porep_shape_tree_rc(ps, &rc);
    porep_shape_tree_d(ps, &d);
    size_t nfr = z.data_leaf + z.d_sib + z.rows + z.c_sib + z.r_sib;
    size_t nu32 = z.d_index + z.c_index + z.r_index;
    char *m = malloc(nfr * sizeof(fr) + z.challenge * 8 + nu32 * 4);
    if (!m)
        return -1;
    fr *f = (fr *)m;
    uint64_t *ch = (uint64_t *)(f + nfr);
    uint32_t *u = (uint32_t *)(ch + z.challenge);
    fc_kind_rand_frs(f, nfr, &s);
    for (size_t i = 0; i < z.challenge; i++)
        ch[i] = 1 + fc_kind_rand64(&s) % (ps->nodes - 1);
    fc_kind_rand_index(u, z.d_index, &d, &s);
    fc_kind_rand_index(u + z.d_index, z.c_index, &rc, &s);
    fc_kind_rand_index(u + z.d_index + z.c_index, z.r_index, &rc, &s);
    fr k[5];
    fc_kind_rand_frs(k, 5, &s);
    *(porep_witness *)w->w = (porep_witness){k[0],
                                             k[1],
                                             k[2],
                                             k[3],
                                             k[4],
                                             ch,
                                             f,
                                             u,
                                             f + z.data_leaf,
                                             f + z.data_leaf + z.d_sib,
                                             u + z.d_index,
                                             f + z.data_leaf + z.d_sib + z.rows,
                                             u + z.d_index + z.c_index,
                                             f + z.data_leaf + z.d_sib + z.rows + z.c_sib};
    /* c_x rows = the labels of the parents' rows, as in a real witness (the
     * parallel witness generator checks them) */
    porep_witness_fix_labels(ps, f + z.data_leaf + z.d_sib, &k[0], ch);
    w->mem = m;
    return 0;
}

static fc_kind_status prepare(const fc_kind *k, fc_kind_plan *out, const fc_kind_request *req,
                              char *err, size_t cap) {
    (void)k;
    if (!req->vanilla || req->vanilla_len == 0) {
        snprintf(err, cap, "vanilla_proof: missing (the C1 output)");
        return FC_KIND_INVALID;
    }
    c1_output *c1 = NULL;
    c1_error ce;
    if (c1_decode(&c1, req->vanilla, req->vanilla_len, &ce) != C1_OK) {
        snprintf(err, cap, "vanilla_proof: %.480s", ce.msg);
        return ce.status == C1_ERR_NO_MEMORY ? FC_KIND_NOMEM : FC_KIND_INVALID;
    }
    const fc_seal_proof *p = c1->proof;
    fc_kind_status rc = FC_KIND_INVALID;
    /* Curio puts abi.RegisteredSealProof in the request; the C1 names its own. */
    if (req->registered_proof != p->id) {
        snprintf(err, cap, "registered_proof %llu, but the C1 is %s (%u)",
                 (unsigned long long)req->registered_proof, p->name, p->id);
        goto out;
    }
    if (req->sector_size && req->sector_size != p->shape->sector_size) {
        snprintf(err, cap, "sector_size %llu, but the C1 is a %s sector",
                 (unsigned long long)req->sector_size, p->shape->size_name);
        goto out;
    }
    /* the proof must be for the sector the request names (Curio submits it
     * for that sector; verify_seal would refuse another's) */
    if (porep_c1_identity_check(c1, req->miner_id, req->sector_number, err, cap))
        goto out;
    porep_c2 *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, cap, "out of memory");
        rc = FC_KIND_NOMEM;
        goto out;
    }
    if (porep_c2_prepare(st, c1, err, cap)) {
        rc = strstr(err, "out of memory") ? FC_KIND_NOMEM : FC_KIND_INVALID;
        free(st);
        goto out;
    }
    out->state = st;
    out->n_partitions = st->n_partitions;
    out->size = (unsigned)(p->shape - fc_shape_at(0));
    out->shape = &st->shape;
    rc = FC_KIND_OK;
out:
    c1_output_free(c1);
    return rc;
}

static int partition(fc_kind_part *out, void *state, size_t i) {
    porep_c2 *st = state;
    if (i >= st->n_partitions)
        return -1;
    porep_partition *p = &st->parts[i];
    *out = (fc_kind_part){
        porep_partition_synthesize, p, porep_partition_witness, p, p->pub.inputs, p->pub.n_inputs};
    return 0;
}

static void release(void *state) {
    if (state)
        porep_c2_free(state);
    free(state);
}

const fc_kind fc_kind_porep = {
    .id_prefix = "porep",
    .circuit_name = "porep",
    .cli_verb = "porep",
    .wire_kind = 1,
    .wire_name = "porep-c2",
    .wire_label = "porep_c2",
    .wire_priority = 2,
    .engine_name = "porep-c2",
    .part_noun = "partition",
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
