/* Bincode FallbackPoStSectorProof codec over the shared walker (bincode.h):
 * a validating count pass, then a pass that fills one arena. */
#include "filecoin/post/post_vanilla.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/bincode.h"

typedef struct {
    fc_bincode b;
    /* counts (first pass) and cursors (second pass) */
    size_t n_sectors;
    fc_post_sector_proof *sectors;
    fc_inclusion_proof *proofs;
    const fc_post_proof *expect;
} walker;

static int walk(walker *w, fc_post_vanilla *out) {
    fc_bincode *b = &w->b;
    char what[96], owner[48];
    uint64_t sector_id, n_sectors;
    if (fc_bincode_u64(b, &sector_id, "sector_id") ||
        fc_bincode_domain(b, b->fill ? out->comm_r : NULL, "comm_r") ||
        fc_bincode_len(b, &n_sectors, 8 + 64, "vanilla_proof.sectors"))
        return -1;
    if (n_sectors == 0)
        return fc_bincode_fail(b, FC_BINCODE_LENGTH, "vanilla_proof.sectors: empty");
    if (b->fill) {
        out->sector_id = sector_id;
        out->n_sectors = (size_t)n_sectors;
    }
    fc_bincode_proof_shape shape = {.variant = -1};
    if (w->expect) {
        const fc_sector_shape *s = w->expect->shape;
        snprintf(owner, sizeof owner, "a %s sector", s->size_name);
        shape = fc_bincode_tree_shape(s->nodes, s->arity_base, s->arity_sub, s->arity_top, owner);
    }
    for (uint64_t s = 0; s < n_sectors; s++) {
        uint64_t n;
        snprintf(what, sizeof what, "sectors[%llu].inclusion_proofs", (unsigned long long)s);
        if (fc_bincode_len(b, &n, 4 + 64, what))
            return -1;
        if (w->expect && n != fc_post_vanilla_challenges(w->expect))
            return fc_bincode_fail(
                b, FC_BINCODE_LENGTH, "%s: %s needs %u challenges per sector, got %llu", what,
                w->expect->name, fc_post_vanilla_challenges(w->expect), (unsigned long long)n);
        fc_post_sector_proof *sp = b->fill ? &w->sectors[s] : NULL;
        if (sp) {
            sp->proofs = &w->proofs[b->n_proofs];
            sp->n_proofs = (size_t)n;
        }
        for (uint64_t i = 0; i < n; i++) {
            snprintf(what, sizeof what, "sectors[%llu].inclusion_proofs[%llu]",
                     (unsigned long long)s, (unsigned long long)i);
            if (fc_bincode_merkle_proof(b, sp ? &w->proofs[b->n_proofs] : NULL, what,
                                        w->expect ? &shape : NULL))
                return -1;
        }
        snprintf(what, sizeof what, "sectors[%llu].comm_c", (unsigned long long)s);
        if (fc_bincode_domain(b, sp ? sp->comm_c : NULL, what))
            return -1;
        snprintf(what, sizeof what, "sectors[%llu].comm_r_last", (unsigned long long)s);
        if (fc_bincode_domain(b, sp ? sp->comm_r_last : NULL, what))
            return -1;
        w->n_sectors++;
    }
    return fc_bincode_end(b, "the proof");
}

unsigned fc_post_vanilla_challenges(const fc_post_proof *p) {
    return p->kind == FC_POST_WINNING ? 66 : p->challenge_count;
}

int fc_post_vanilla_decode(fc_post_vanilla *out, const uint8_t *buf, size_t len,
                           const fc_post_proof *expect, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    walker w = {.expect = expect};
    fc_bincode_init(&w.b, buf, len, err, errlen);
    if (walk(&w, out))
        return -1;
    size_t bytes = w.n_sectors * sizeof(fc_post_sector_proof) +
                   w.b.n_proofs * sizeof(fc_inclusion_proof) + w.b.n_elems * sizeof(fc_path_elem) +
                   w.b.n_hashes * 32;
    uint8_t *arena = malloc(bytes ? bytes : 1);
    if (!arena) {
        snprintf(err, errlen, "out of memory for a %zu-byte vanilla proof", bytes);
        return -1;
    }
    walker f = {0};
    fc_bincode_init(&f.b, buf, len, err, errlen);
    f.b.fill = 1;
    f.sectors = (fc_post_sector_proof *)arena;
    f.proofs = (fc_inclusion_proof *)(f.sectors + w.n_sectors);
    f.b.elems = (fc_path_elem *)(f.proofs + w.b.n_proofs);
    f.b.hashes = (uint8_t(*)[32])(f.b.elems + w.b.n_elems);
    out->arena = arena;
    out->sectors = f.sectors;
    if (walk(&f, out)) { /* cannot happen after a clean first pass */
        fc_post_vanilla_free(out);
        return -1;
    }
    return 0;
}

void fc_post_vanilla_free(fc_post_vanilla *v) {
    free(v->arena);
    memset(v, 0, sizeof *v);
}

size_t fc_post_vanilla_encode(uint8_t *out, const fc_post_vanilla *v) {
    size_t pos = fc_bincode_put_u64(out, 0, v->sector_id);
    pos = fc_bincode_put_bytes(out, pos, v->comm_r, 32);
    pos = fc_bincode_put_u64(out, pos, v->n_sectors);
    for (size_t s = 0; s < v->n_sectors; s++) {
        const fc_post_sector_proof *sp = &v->sectors[s];
        pos = fc_bincode_put_u64(out, pos, sp->n_proofs);
        for (size_t i = 0; i < sp->n_proofs; i++)
            pos = fc_bincode_put_merkle_proof(out, pos, &sp->proofs[i]);
        pos = fc_bincode_put_bytes(out, pos, sp->comm_c, 32);
        pos = fc_bincode_put_bytes(out, pos, sp->comm_r_last, 32);
    }
    return pos;
}
