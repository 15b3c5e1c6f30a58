/* Bincode PartitionProof codec (see snap_vanilla.h): a validating count pass
 * over the shared walker, then a pass that fills one arena. */
#include "filecoin/snap/snap_vanilla.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/bincode.h"
#include "util/err.h"

const char *snap_status_name(int code) {
    static const char *const names[] = {
        "SNAP_OK",          "SNAP_E_NOMEM",     "SNAP_E_PROOF_TYPE",    "SNAP_E_COMM",
        "SNAP_E_COUNT",     "SNAP_E_TRUNCATED", "SNAP_E_TRAILING",      "SNAP_E_LENGTH",
        "SNAP_E_VARIANT",   "SNAP_E_SHAPE",     "SNAP_E_INDEX",         "SNAP_E_NOT_FR",
        "SNAP_E_CHALLENGE", "SNAP_E_ROOT",      "SNAP_E_ROOT_MISMATCH", "SNAP_E_COMM_R",
        "SNAP_E_ENCODING",  "SNAP_E_APEX",      "SNAP_E_PARTITION_PATH"};
    int i = -code;
    return i >= 0 && i < (int)(sizeof names / sizeof names[0]) ? names[i] : "SNAP_E_?";
}

/* Smallest encodings, for the length checks of the count pass. */
enum {
    MIN_MERKLE_PROOF = 4 + 64 + 8,              /* Single with an empty path */
    MIN_CHALLENGE_PROOF = 3 * MIN_MERKLE_PROOF, /* three of them */
};

typedef struct {
    fc_bincode b;
    const fc_update_proof *expect;
    fc_bincode_proof_shape tree_r, tree_d;
    size_t n_apex, n_challenges;
    /* fill pass */
    uint8_t (*apex)[32];
    fc_snap_challenge_proof *challenges;
} walker;

static int walk(walker *w, fc_snap_vanilla *out) {
    fc_bincode *b = &w->b;
    const fc_update_proof *p = w->expect;
    char what[96];
    uint64_t n_apex, n_ch;
    if (fc_bincode_domain(b, b->fill ? out->comm_c : NULL, "comm_c") ||
        fc_bincode_len(b, &n_apex, 32, "apex_leafs"))
        return -1;
    if (p && n_apex != p->apex_leaves)
        return fc_bincode_fail(b, FC_BINCODE_LENGTH,
                               "apex_leafs: %s has %u apex leaves per partition, got %llu", p->name,
                               p->apex_leaves, (unsigned long long)n_apex);
    for (uint64_t i = 0; i < n_apex; i++) {
        snprintf(what, sizeof what, "apex_leafs[%llu]", (unsigned long long)i);
        if (fc_bincode_domain(b, b->fill ? w->apex[i] : NULL, what))
            return -1;
    }
    if (fc_bincode_len(b, &n_ch, MIN_CHALLENGE_PROOF, "challenge_proofs"))
        return -1;
    if (p && n_ch != p->challenges)
        return fc_bincode_fail(b, FC_BINCODE_LENGTH,
                               "challenge_proofs: %s has %u challenges per partition, got %llu",
                               p->name, p->challenges, (unsigned long long)n_ch);
    for (uint64_t t = 0; t < n_ch; t++) {
        fc_snap_challenge_proof *cp = b->fill ? &w->challenges[t] : NULL;
        snprintf(what, sizeof what, "challenge_proofs[%llu].proof_r_old", (unsigned long long)t);
        if (fc_bincode_merkle_proof(b, cp ? &cp->r_old : NULL, what, p ? &w->tree_r : NULL))
            return -1;
        snprintf(what, sizeof what, "challenge_proofs[%llu].proof_d_new", (unsigned long long)t);
        if (fc_bincode_merkle_proof(b, cp ? &cp->d_new : NULL, what, p ? &w->tree_d : NULL))
            return -1;
        snprintf(what, sizeof what, "challenge_proofs[%llu].proof_r_new", (unsigned long long)t);
        if (fc_bincode_merkle_proof(b, cp ? &cp->r_new : NULL, what, p ? &w->tree_r : NULL))
            return -1;
    }
    w->n_apex = (size_t)n_apex;
    w->n_challenges = (size_t)n_ch;
    return fc_bincode_end(b, "the PartitionProof");
}

static int status_of(fc_bincode_fault f) {
    switch (f) {
    case FC_BINCODE_TRUNCATED:
        return SNAP_E_TRUNCATED;
    case FC_BINCODE_TRAILING:
        return SNAP_E_TRAILING;
    case FC_BINCODE_LENGTH:
        return SNAP_E_LENGTH;
    case FC_BINCODE_VARIANT:
        return SNAP_E_VARIANT;
    case FC_BINCODE_INDEX:
        return SNAP_E_INDEX;
    case FC_BINCODE_NOT_FR:
        return SNAP_E_NOT_FR;
    default:
        return SNAP_E_SHAPE;
    }
}

static void init_walker(walker *w, const uint8_t *buf, size_t len, const fc_update_proof *p,
                        char *owner_r, char *owner_d, char *err, size_t errlen) {
    memset(w, 0, sizeof *w);
    fc_bincode_init(&w->b, buf, len, err, errlen);
    w->b.check_fr = 1;
    w->expect = p;
    if (p) {
        snprintf(owner_r, 48, "tree R of %s", p->name);
        snprintf(owner_d, 48, "tree D of %s", p->name);
        w->tree_r =
            fc_bincode_tree_shape(p->nodes, p->arity_base, p->arity_sub, p->arity_top, owner_r);
        w->tree_d = fc_bincode_tree_shape(p->nodes, 2, 0, 0, owner_d);
    }
}

int fc_snap_vanilla_decode(fc_snap_vanilla *out, const uint8_t *buf, size_t len,
                           const fc_update_proof *expect, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    char owner_r[48], owner_d[48];
    walker w;
    init_walker(&w, buf, len, expect, owner_r, owner_d, err, errlen);
    if (walk(&w, out))
        return status_of(w.b.fault);
    size_t bytes = w.n_challenges * sizeof(fc_snap_challenge_proof) +
                   w.b.n_elems * sizeof(fc_path_elem) + (w.b.n_hashes + w.n_apex) * 32;
    uint8_t *arena = malloc(bytes ? bytes : 1);
    if (!arena) {
        err_set(err, errlen, "out of memory for a %zu-byte vanilla proof", bytes);
        return SNAP_E_NOMEM;
    }
    walker f;
    init_walker(&f, buf, len, expect, owner_r, owner_d, err, errlen);
    f.b.fill = 1;
    f.challenges = (fc_snap_challenge_proof *)arena;
    f.b.elems = (fc_path_elem *)(f.challenges + w.n_challenges);
    f.apex = (uint8_t(*)[32])(f.b.elems + w.b.n_elems);
    f.b.hashes = f.apex + w.n_apex;
    out->arena = arena;
    if (walk(&f, out)) { /* cannot happen after a clean first pass */
        fc_snap_vanilla_free(out);
        return status_of(f.b.fault);
    }
    out->apex_leaves = (const uint8_t(*)[32])f.apex;
    out->n_apex = w.n_apex;
    out->challenges = f.challenges;
    out->n_challenges = w.n_challenges;
    return SNAP_OK;
}

void fc_snap_vanilla_free(fc_snap_vanilla *v) {
    free(v->arena);
    memset(v, 0, sizeof *v);
}

size_t fc_snap_vanilla_encode(uint8_t *out, const fc_snap_vanilla *v) {
    size_t pos = fc_bincode_put_bytes(out, 0, v->comm_c, 32);
    pos = fc_bincode_put_u64(out, pos, v->n_apex);
    for (size_t i = 0; i < v->n_apex; i++)
        pos = fc_bincode_put_bytes(out, pos, v->apex_leaves[i], 32);
    pos = fc_bincode_put_u64(out, pos, v->n_challenges);
    for (size_t t = 0; t < v->n_challenges; t++) {
        pos = fc_bincode_put_merkle_proof(out, pos, &v->challenges[t].r_old);
        pos = fc_bincode_put_merkle_proof(out, pos, &v->challenges[t].d_new);
        pos = fc_bincode_put_merkle_proof(out, pos, &v->challenges[t].r_new);
    }
    return pos;
}

/* Bytes of one path of `levels` elements of `arity`. */
static size_t path_bytes(unsigned levels, unsigned arity) {
    return 8 + (size_t)levels * (8 + 32 * (size_t)(arity - 1) + 8);
}

static size_t proof_bytes(const fc_bincode_proof_shape *s) {
    size_t n = 4 + 64 + path_bytes(s->base.levels, s->base.arity);
    if (s->variant >= FC_PROOF_SUB)
        n += path_bytes(1, s->sub.arity);
    if (s->variant == FC_PROOF_TOP)
        n += path_bytes(1, s->top.arity);
    return n;
}

size_t fc_snap_vanilla_size(const fc_update_proof *p) {
    fc_bincode_proof_shape r =
        fc_bincode_tree_shape(p->nodes, p->arity_base, p->arity_sub, p->arity_top, NULL);
    fc_bincode_proof_shape d = fc_bincode_tree_shape(p->nodes, 2, 0, 0, NULL);
    return 32 + 8 + 32 * (size_t)p->apex_leaves + 8 +
           (size_t)p->challenges * (2 * proof_bytes(&r) + proof_bytes(&d));
}
