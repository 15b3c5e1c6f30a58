/* The FallbackPoSt rows of the kind table (filecoin/kinds.h): WindowPoSt
 * (circuit ids wpost-*, `cuzk circuit` names window-*) and WinningPoSt.
 *
 * A request is one partition, as Curio sends it (api-and-ecosystem.md 2.4):
 * registered PoSt proof id, 32-byte randomness (already Fr-masked), one
 * bincode FallbackPoStSectorProof per sector, and for WindowPoSt the
 * partition index.  prepare decodes and checks everything
 * (post_partition_prepare: the tree shape of the sector size, every path
 * reaches comm_r_last, comm_r binds comm_c and comm_r_last, every path opens
 * exactly the leaf the randomness challenges), so a request that prepares
 * proves and a bad one is refused with a message naming the sector and
 * challenge.  WinningPoSt's one sector proof with 66 paths becomes the
 * circuit's 66 one-challenge sector slots (rust-fil-proofs winning_post.rs
 * reshapes it so).  WinningPoSt defaults to CRITICAL priority, WindowPoSt to
 * HIGH. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/kinds.h"
#include "filecoin/post/post_partition.h"
#include "filecoin/post/post_witness_par.h"

_Static_assert(sizeof(post_shape) <= FC_KIND_SHAPE_BYTES, "post_shape fits fc_circuit");
_Static_assert(sizeof(post_witness) <= FC_KIND_WITNESS_BYTES, "post_witness fits");

/* The registered proof of a circuit: WindowPoSt V1 (V1_1 shares its
 * parameters and circuit) or WinningPoSt. */
static const fc_post_proof *proof_of(const fc_kind *k, unsigned i) {
    return fc_post_proof_by_id(k->variant ? i : 5 + i);
}

static int circuit_at(const fc_kind *k, fc_circuit *out, unsigned i) {
    const fc_post_proof *p = i < FC_SECTOR_SIZES ? proof_of(k, i) : NULL;
    if (!p)
        return -1;
    fc_circuit_init(out, k, i, p->name);
    post_shape_for_proof((post_shape *)out->shape, p);
    return 0;
}

static size_t param_stem(char *out, size_t cap, const fc_circuit *c) {
    return fc_post_param_stem(out, cap, proof_of(c->kind, c->size));
}

static size_t param_identifier(char *out, size_t cap, const fc_circuit *c) {
    return fc_post_param_identifier(out, cap, proof_of(c->kind, c->size));
}

static void describe(char *out, size_t cap, const fc_circuit *c) {
    const post_shape *s = (const post_shape *)c->shape;
    snprintf(out, cap, "%s: %u sectors x %u challenges, %llu leaves, tree R %u-%u-%u",
             c->proof_name, s->sectors, s->challenges, (unsigned long long)s->nodes, s->arity_base,
             s->arity_sub, s->arity_top);
}

static int synthesize(r1cs_cs *cs, const void *shape, const void *witness) {
    return post_circuit_synthesize(cs, shape, witness);
}

static int witness_generate(const void *shape, const void *w, const r1cs_segment_mark *segs,
                            size_t nseg, size_t num_inputs, size_t num_aux, unsigned threads,
                            fr *input, fr *aux, char *err, size_t cap) {
    return post_witness_generate(shape, w, segs, nseg, num_inputs, num_aux, threads, input, aux,
                                 err, cap);
}

static int witness_random(fc_kind_witness *w, const void *shape, uint64_t seed) {
    const post_shape *qs = shape;
    memset(w, 0, sizeof *w);
    uint64_t s = seed;
    por_shape t;
    post_shape_tree(qs, &t);
    const size_t S = qs->sectors, C = qs->challenges, lv = por_shape_levels(&t),
                 sb = por_shape_siblings(&t);
    size_t nfr = 3 * S + S * C * (1 + sb);
    char *m = malloc(nfr * sizeof(fr) + S * C * lv * 4);
    if (!m)
        return -1;
    fr *f = (fr *)m;
    uint32_t *u = (uint32_t *)(f + nfr);
    fc_kind_rand_frs(f, nfr, &s);
    fc_kind_rand_index(u, S * C * lv, &t, &s);
    *(post_witness *)w->w =
        (post_witness){S, f, f + S, f + 2 * S, f + 3 * S, u, f + 3 * S + S * C, NULL};
    w->mem = m;
    return 0;
}

static fc_kind_status prepare(const fc_kind *k, fc_kind_plan *out, const fc_kind_request *req,
                              char *err, size_t cap) {
    const fc_post_proof *p = fc_post_proof_by_id(req->registered_proof);
    const int winning = k->variant;
    if (!p || (p->kind == FC_POST_WINNING) != winning) {
        snprintf(err, cap, "registered_proof %llu is not a %s proof",
                 (unsigned long long)req->registered_proof, winning ? "WinningPoSt" : "WindowPoSt");
        return FC_KIND_INVALID;
    }
    if (req->sector_size && req->sector_size != p->shape->sector_size) {
        snprintf(err, cap, "sector_size %llu does not match %s (%llu)",
                 (unsigned long long)req->sector_size, p->name,
                 (unsigned long long)p->shape->sector_size);
        return FC_KIND_INVALID;
    }
    if (!req->randomness) {
        snprintf(err, cap, "randomness: missing (32 bytes)");
        return FC_KIND_INVALID;
    }
    post_partition *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, cap, "out of memory");
        return FC_KIND_NOMEM;
    }
    post_partition_status prc = post_partition_prepare(
        st, p, req->vanilla_proofs, req->vanilla_proofs_len, req->n_vanilla_proofs, req->randomness,
        req->partition_index, err, cap);
    if (prc != POST_PARTITION_OK) {
        free(st);
        return prc == POST_PARTITION_NOMEM ? FC_KIND_NOMEM : FC_KIND_INVALID;
    }
    out->state = st;
    out->n_partitions = 1;
    out->size = (unsigned)(p->shape - fc_shape_at(0));
    out->shape = &st->shape;
    return FC_KIND_OK;
}

static int synth_partition(r1cs_cs *cs, void *pp) {
    const post_partition *p = pp;
    return post_circuit_synthesize(cs, &p->shape, &p->witness);
}

static int partition(fc_kind_part *out, void *state, size_t i) {
    post_partition *st = state;
    if (i != 0)
        return -1;
    *out =
        (fc_kind_part){synth_partition, st, post_partition_witness, st, st->inputs, st->n_inputs};
    return 0;
}

static void release(void *state) {
    if (state) {
        post_partition_free(state);
        free(state);
    }
}

/* What the two rows share: every operation (the row's variant tells them
 * apart). */
#define POST_OPS                                                                             \
    .engine_name = "fallback-post", .part_noun = "PoSt partition", .circuit_at = circuit_at, \
    .param_stem = param_stem, .param_identifier = param_identifier, .describe = describe,    \
    .synthesize = synthesize, .witness_generate = witness_generate,                          \
    .witness_random = witness_random, .prepare = prepare, .partition = partition,            \
    .release = release,

const fc_kind fc_kind_wpost = {.id_prefix = "wpost",
                               .circuit_name = "window",
                               .cli_verb = "post",
                               .wire_kind = 3,
                               .wire_name = "window-post",
                               .wire_label = "window_post",
                               .wire_priority = 3,
                               .variant = 0,
                               POST_OPS};

const fc_kind fc_kind_winning = {.id_prefix = "winning",
                                 .circuit_name = "winning",
                                 .cli_verb = "post",
                                 .wire_kind = 4,
                                 .wire_name = "winning-post",
                                 .wire_label = "winning_post",
                                 .wire_priority = 4,
                                 .variant = 1,
                                 POST_OPS};
