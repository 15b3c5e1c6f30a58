/* C1 decoding: the SealCommitPhase1Output schema (filecoin-facts.md §2) walked
 * with the pull tokenizer, values written straight into a c1_output whose
 * shape the registered proof fixes.
 *
 * Struct members are matched by key in any order; unknown keys are skipped,
 * duplicate or missing ones are errors (as in serde).  Enums (ProofData,
 * VanillaSealProof) take exactly one variant; a variant whose value is null
 * is ignored, since Go's mirror types could write one.  The top level is
 * either the bare output or Curio's wrapper.  The registered proof fixes the
 * shape, so "vanilla_proofs" is decoded once it is known: in serde's and
 * Go's key orders it comes first; otherwise the value is skipped and decoded
 * after the rest of the object. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/c1/c1.h"
#include "filecoin/c1/c1_decode_internal.h"
#include "filecoin/c1/c1_json.h"

static int key_is(const uint8_t *k, size_t n, const char *lit) {
    return strlen(lit) == n && memcmp(k, lit, n) == 0;
}

/* ---- the walkers: objects by field table, arrays by count ------------------------------- */

/* Where one decoder call writes: obj (the object, or the array's first
 * element), with the output's shape c (NULL where none is needed) and arg (a
 * field's own argument from its table, or an array element's index). */
typedef struct {
    const c1_output *c;
    void *obj;
    unsigned arg;
} dst;

typedef int (*decode_fn)(c1_jp *j, dst d);

/* One struct member: its key, its decoder, the decoder's arg, and whether
 * it must be there (REQ) or may be absent (OPT). */
typedef struct {
    const char *name;
    decode_fn decode;
    unsigned arg;
    int optional;
} field;

enum { REQ = 0, OPT = 1 };

#define FIELDS(t) t, (int)(sizeof(t) / sizeof((t)[0]))

/* Reads members until one of f[0..n) (skipping others): 1 with *idx set and
 * its frame pushed, 0 at the closing brace, -1 on error (duplicates too). */
static int next_field(c1_jp *j, int *first, const field *f, int n, unsigned *seen, int *idx) {
    for (;;) {
        const uint8_t *k;
        size_t kl;
        int r = c1_jp_obj_next(j, first, &k, &kl);
        if (r <= 0)
            return r;
        const uint8_t *at = j->key_at;
        for (int i = 0; i < n; i++) {
            if (key_is(k, kl, f[i].name)) {
                if (*seen & (1u << i))
                    return c1_jp_fail(j, C1_ERR_SHAPE, at, "duplicate field \"%s\"", f[i].name);
                *seen |= 1u << i;
                *idx = i;
                c1_jp_push_key(j, f[i].name);
                return 1;
            }
        }
        /* unknown: skipped, but named in messages about its syntax */
        size_t n = kl < sizeof j->skipkey - 1 ? kl : sizeof j->skipkey - 1;
        memcpy(j->skipkey, k, n);
        j->skipkey[n] = 0;
        c1_jp_push_key(j, j->skipkey);
        if (c1_jp_skip(j))
            return -1;
        c1_jp_pop(j);
    }
}

/* The first member of f[0..n) in need but not in seen is an error. */
static int check_missing(c1_jp *j, const field *f, int n, unsigned seen, unsigned need) {
    for (int i = 0; i < n; i++)
        if ((need & (1u << i)) && !(seen & (1u << i)))
            return c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1, "missing field \"%s\"", f[i].name);
    return 0;
}

/* An object's members: each of f[0..n) decoded once into c, obj (its key on
 * the path), any other key skipped; *seen gets the members found. */
static int walk_object(c1_jp *j, const field *f, int n, const c1_output *c, void *obj,
                       unsigned *seen) {
    int first = 1, idx = 0, r;
    *seen = 0;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = next_field(j, &first, f, n, seen, &idx)) == 1) {
        if (f[idx].decode(j, (dst){c, obj, f[idx].arg}))
            return -1;
        c1_jp_pop(j);
    }
    return r;
}

/* walk_object, then every member not marked optional must have been there. */
static int object(c1_jp *j, const field *f, int n, const c1_output *c, void *obj) {
    unsigned seen, need = 0;
    for (int i = 0; i < n; i++)
        if (!f[i].optional)
            need |= 1u << i;
    return walk_object(j, f, n, c, obj, &seen) ? -1 : check_missing(j, f, n, seen, need);
}

/* An array of exactly count elements, element i decoded by elem with arg i
 * (its index on the path).  want: what the '[' begins, for type errors; noun:
 * the elements in count errors ("expected 6 path elements, got 5"). */
static int array(c1_jp *j, const char *want, unsigned count, const char *noun, decode_fn elem,
                 const c1_output *c, void *obj) {
    if (c1_jp_arr_begin(j, want))
        return -1;
    for (unsigned i = 0;; i++) {
        int a = c1_jp_arr_next(j, i);
        if (a < 0)
            return -1;
        if (a == 0)
            return i == count ? 0
                              : c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1, "expected %u %s, got %u",
                                           count, noun, i);
        if (i == count)
            return c1_jp_fail_excess(j, count, noun);
        c1_jp_push_index(j, i);
        if (elem(j, (dst){c, obj, i}))
            return -1;
        c1_jp_pop(j);
    }
}

/* ---- values -------------------------------------------------------------------------- */

static int domain_at(c1_jp *j, dst d) { return c1_jp_domain(j, ((c1_node *)d.obj)[d.arg]); }

/* An array of exactly count Domains into nodes. */
static int domains(c1_jp *j, c1_node *nodes, unsigned count) {
    return array(j, "an array of 32-byte arrays", count, "elements", domain_at, NULL, nodes);
}

/* An unsigned integer in [lo, hi]. */
static int uint_in(c1_jp *j, uint64_t *v, uint64_t lo, uint64_t hi, const char *what) {
    const uint8_t *at = j->p;
    if (c1_jp_u64(j, v))
        return -1;
    if (*v < lo || *v > hi)
        return c1_jp_fail(j, C1_ERR_RANGE, at,
                          "%" PRIu64 " is out of range for %s (%" PRIu64 "..%" PRIu64 ")", *v, what,
                          lo, hi);
    return 0;
}

static int null_value(c1_jp *j, dst d) {
    (void)d;
    return c1_jp_null(j);
}

/* ---- Merkle proofs ------------------------------------------------------------------ */

/* Path elements e, e + 1, .. (count of them) of m. */
typedef struct {
    c1_merkle *m;
    unsigned e, count;
} path_at;

static int elem_hashes(c1_jp *j, dst d) {
    const path_at *x = d.obj;
    return domains(j, c1_path_hashes(x->m, x->e), x->m->tree->arity[x->e] - 1u);
}

static int elem_index(c1_jp *j, dst d) {
    const path_at *x = d.obj;
    uint64_t v;
    if (uint_in(j, &v, 0, x->m->tree->arity[x->e] - 1u, "a path index"))
        return -1;
    x->m->index[x->e] = (uint8_t)v;
    return 0;
}

static const field g_elem_fields[] = {{"hashes", elem_hashes, 0, REQ},
                                      {"index", elem_index, 0, REQ}};

static int path_element(c1_jp *j, dst d) {
    const path_at *x = d.obj;
    path_at el = {x->m, x->e + d.arg, 1};
    return object(j, FIELDS(g_elem_fields), NULL, &el);
}

static int path_elements(c1_jp *j, dst d) {
    const path_at *x = d.obj;
    return array(j, "an array of path elements", x->count, "path elements", path_element, NULL,
                 d.obj);
}

static const field g_path_fields[] = {{"path", path_elements, 0, REQ}};

/* InclusionPath {"path": [count elements]} = elements e0.. of m. */
static int inclusion_path(c1_jp *j, c1_merkle *m, unsigned e0, unsigned count) {
    path_at x = {m, e0, count};
    return object(j, FIELDS(g_path_fields), NULL, &x);
}

/* root (arg 0) or leaf (arg 1) */
static int proof_node(c1_jp *j, dst d) {
    return c1_jp_domain(j, ((c1_merkle *)d.obj)->nodes[d.arg]);
}

static int proof_base(c1_jp *j, dst d) {
    c1_merkle *m = d.obj;
    return inclusion_path(j, m, 0, m->tree->base_len);
}

/* the sub (arg 0) or top (arg 1) element, after the base ones */
static int proof_upper(c1_jp *j, dst d) {
    c1_merkle *m = d.obj;
    return inclusion_path(j, m, m->tree->base_len + d.arg, 1);
}

static const char *const g_variant_names[3] = {"Single", "Sub", "Top"};
/* Single: root leaf path; Sub: root leaf base_proof sub_proof; Top: + top_proof.
 * A field of another variant counts as an unknown key. */
static const field g_single_fields[] = {
    {"root", proof_node, 0, REQ}, {"leaf", proof_node, 1, REQ}, {"path", proof_base, 0, REQ}};
static const field g_layered_fields[] = {{"root", proof_node, 0, REQ},
                                         {"leaf", proof_node, 1, REQ},
                                         {"base_proof", proof_base, 0, REQ},
                                         {"sub_proof", proof_upper, 0, REQ},
                                         {"top_proof", proof_upper, 1, REQ}};

static int proof_variant(c1_jp *j, c1_merkle *m) {
    switch (m->tree->kind) {
    case C1_TREE_SINGLE:
        return object(j, FIELDS(g_single_fields), NULL, m);
    case C1_TREE_SUB:
        return object(j, g_layered_fields, 4, NULL, m);
    default:
        return object(j, g_layered_fields, 5, NULL, m);
    }
}

static int proof_data(c1_jp *j, dst d) {
    c1_merkle *m = d.obj;
    int first = 1, got = -1, r;
    const uint8_t *k;
    size_t kl;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = c1_jp_obj_next(j, &first, &k, &kl)) == 1) {
        int v = -1;
        for (int i = 0; i < 3; i++)
            if (key_is(k, kl, g_variant_names[i]))
                v = i;
        c1_jp_ws(j);
        if (v >= 0 && j->p < j->end && *j->p == 'n') { /* Go: an absent variant as null */
            if (c1_jp_null(j))
                return -1;
            continue;
        }
        if (v < 0)
            return c1_jp_fail(j, C1_ERR_SHAPE, j->key_at,
                              "unknown variant \"%.*s\" (expected Single, Sub or Top)",
                              kl > 40 ? 40 : (int)kl, (const char *)k);
        if (got >= 0)
            return c1_jp_fail(j, C1_ERR_SHAPE, j->key_at, "more than one variant (%s and %s)",
                              g_variant_names[got], g_variant_names[v]);
        if (v != (int)m->tree->kind)
            return c1_jp_fail(j, C1_ERR_SHAPE, j->key_at,
                              "expected variant %s for this tree (arities %u-%u-%u), got %s",
                              g_variant_names[m->tree->kind], m->tree->base_arity,
                              m->tree->sub_arity, m->tree->top_arity, g_variant_names[v]);
        got = v;
        c1_jp_push_key(j, g_variant_names[v]);
        if (proof_variant(j, m))
            return -1;
        c1_jp_pop(j);
    }
    if (r < 0)
        return -1;
    if (got < 0)
        return c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1, "expected one variant (%s)",
                          g_variant_names[m->tree->kind]);
    return 0;
}

static const field g_merkle_fields[] = {{"data", proof_data, 0, REQ}};

static int merkle(c1_jp *j, c1_merkle *m) { return object(j, FIELDS(g_merkle_fields), NULL, m); }

/* ---- columns and labels ------------------------------------------------------------- */

static int column_index(c1_jp *j, dst d) {
    c1_column *col = d.obj;
    uint64_t v;
    if (uint_in(j, &v, 0, d.c->nodes - 1, "a node index"))
        return -1;
    col->index = (uint32_t)v;
    return 0;
}

static int column_rows(c1_jp *j, dst d) {
    return domains(j, ((c1_column *)d.obj)->rows, d.c->layers);
}

static const field g_column_fields[] = {
    {"index", column_index, 0, REQ}, {"rows", column_rows, 0, REQ}, {"_h", null_value, 0, OPT}};

static int column(c1_jp *j, dst d) { return object(j, FIELDS(g_column_fields), d.c, d.obj); }
static int column_merkle(c1_jp *j, dst d) { return merkle(j, &((c1_column *)d.obj)->proof); }

static const field g_colproof_fields[] = {{"column", column, 0, REQ},
                                          {"inclusion_proof", column_merkle, 0, REQ}};

/* element arg of an array of c1_column */
static int column_proof(c1_jp *j, dst d) {
    return object(j, FIELDS(g_colproof_fields), d.c, (c1_column *)d.obj + d.arg);
}

static int columns_cx(c1_jp *j, dst d) {
    return column_proof(j, (dst){d.c, &((c1_challenge *)d.obj)->c_x, 0});
}

static int columns_drg(c1_jp *j, dst d) {
    return array(j, "an array of column proofs", C1_DRG_PARENTS, "column proofs", column_proof, d.c,
                 ((c1_challenge *)d.obj)->drg);
}

static int columns_exp(c1_jp *j, dst d) {
    return array(j, "an array of column proofs", C1_EXP_PARENTS, "column proofs", column_proof, d.c,
                 ((c1_challenge *)d.obj)->exp);
}

static const field g_rcp_fields[] = {{"c_x", columns_cx, 0, REQ},
                                     {"drg_parents", columns_drg, 0, REQ},
                                     {"exp_parents", columns_exp, 0, REQ}};

static int label_parents(c1_jp *j, dst d) {
    return domains(j, ((c1_labeling *)d.obj)->parents, C1_LABEL_PARENTS);
}

static int label_layer(c1_jp *j, dst d) {
    uint64_t v;
    if (uint_in(j, &v, 1, d.c->layers, "a layer index"))
        return -1;
    ((c1_labeling *)d.obj)->layer_index = (uint32_t)v;
    return 0;
}

static int label_node(c1_jp *j, dst d) {
    return uint_in(j, &((c1_labeling *)d.obj)->node, 0, d.c->nodes - 1, "a node index");
}

static const field g_label_fields[] = {{"parents", label_parents, 0, REQ},
                                       {"layer_index", label_layer, 0, REQ},
                                       {"node", label_node, 0, REQ}};

/* element arg of an array of c1_labeling */
static int labeling(c1_jp *j, dst d) {
    return object(j, FIELDS(g_label_fields), d.c, (c1_labeling *)d.obj + d.arg);
}

/* ---- one challenge, the partitions ------------------------------------------------------ */

static int challenge_comm_d(c1_jp *j, dst d) { return merkle(j, &((c1_challenge *)d.obj)->comm_d); }

static int challenge_comm_r(c1_jp *j, dst d) {
    return merkle(j, &((c1_challenge *)d.obj)->comm_r_last);
}

static int challenge_columns(c1_jp *j, dst d) {
    return object(j, FIELDS(g_rcp_fields), d.c, d.obj);
}

static int challenge_labels(c1_jp *j, dst d) {
    return array(j, "an array of labeling proofs", d.c->layers, "labeling proofs (one per layer)",
                 labeling, d.c, ((c1_challenge *)d.obj)->labeling);
}

static int challenge_encoding(c1_jp *j, dst d) {
    return labeling(j, (dst){d.c, &((c1_challenge *)d.obj)->encoding, 0});
}

static const field g_challenge_fields[] = {{"comm_d_proofs", challenge_comm_d, 0, REQ},
                                           {"comm_r_last_proof", challenge_comm_r, 0, REQ},
                                           {"replica_column_proofs", challenge_columns, 0, REQ},
                                           {"labeling_proofs", challenge_labels, 0, REQ},
                                           {"encoding_proof", challenge_encoding, 0, REQ}};

/* element arg of a partition's challenges (obj: its first) */
static int challenge(c1_jp *j, dst d) {
    if (object(j, FIELDS(g_challenge_fields), d.c, (c1_challenge *)d.obj + d.arg))
        return -1;
    c1_jp_checkpoint(j);
    return 0;
}

/* partition arg */
static int partition(c1_jp *j, dst d) {
    return array(j, "an array of challenge proofs", d.c->challenges, "challenges per partition",
                 challenge, d.c, c1_at(d.c, d.arg, 0));
}

static int partitions(c1_jp *j, const c1_output *c) {
    char noun[80];
    snprintf(noun, sizeof noun, "partitions (%s)", c->proof->name);
    return array(j, "an array of partitions", c->partitions, noun, partition, c, NULL);
}

/* {"StackedDrg<size>V1": [[proof; challenges]; partitions]} */
static int vanilla(c1_jp *j, c1_output *c) {
    int first = 1, r, got = 0;
    const uint8_t *k;
    size_t kl;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = c1_jp_obj_next(j, &first, &k, &kl)) == 1) {
        if (got)
            return c1_jp_fail(j, C1_ERR_SHAPE, j->key_at, "more than one VanillaSealProof variant");
        if (!key_is(k, kl, c->proof->vanilla_name)) {
            for (unsigned s = 0; s < FC_SECTOR_SIZES; s++) {
                char name[40];
                snprintf(name, sizeof name, "StackedDrg%sV1", fc_shape_at(s)->size_name);
                if (key_is(k, kl, name))
                    return c1_jp_fail(j, C1_ERR_PROOF, j->key_at,
                                      "variant %s does not match registered_proof %s (%s)", name,
                                      c->proof->name, c->proof->vanilla_name);
            }
            return c1_jp_fail(j, C1_ERR_PROOF, j->key_at,
                              "unknown VanillaSealProof variant \"%.*s\"", kl > 60 ? 60 : (int)kl,
                              (const char *)k);
        }
        got = 1;
        c1_jp_push_key(j, c->proof->vanilla_name);
        if (partitions(j, c))
            return -1;
        c1_jp_pop(j);
    }
    if (r < 0)
        return -1;
    if (!got)
        return c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1, "expected one variant (%s)",
                          c->proof->vanilla_name);
    return 0;
}

/* ---- the top level: bare output or Curio's wrapper ----------------------------------- */

/* What the top level's members leave for the checks after them. */
typedef struct {
    c1_error *err;
    c1_output *c; /* allocated once the registered proof is known */
    const fc_seal_proof *proof;
    uint8_t top[5][32]; /* comm_r, comm_d, replica_id, seed, ticket */
    uint64_t sector_num, sector_size;
    const uint8_t *b64, *deferred; /* Phase1Out's text; vanilla_proofs to decode last */
    size_t b64_len;
    int b64_escaped;
} top_state;

static int top_proof(c1_jp *j, dst d) {
    top_state *t = d.obj;
    const uint8_t *at = j->p, *s;
    size_t n;
    int esc;
    char name[80];
    if (c1_jp_string(j, &s, &n, &esc))
        return -1;
    if (n >= sizeof name)
        return c1_jp_fail(j, C1_ERR_PROOF, at, "unknown registered proof (%zu bytes long)", n);
    n = esc ? c1_json_unescape((uint8_t *)name, s, n) : (memcpy(name, s, n), n);
    name[n] = 0;
    t->proof = memchr(name, 0, n) ? NULL : fc_seal_proof_by_name(name);
    if (!t->proof)
        return c1_jp_fail(j, C1_ERR_PROOF, at, "unknown registered proof \"%s\"", name);
    return 0;
}

static int top_vanilla(c1_jp *j, dst d) {
    top_state *t = d.obj;
    c1_jp_ws(j);
    if (!t->proof) { /* shape unknown yet: come back after the other keys */
        t->deferred = j->p;
        return c1_jp_skip(j);
    }
    if (!(t->c = c1_output_alloc(t->proof, t->err)))
        return -1;
    return vanilla(j, t->c);
}

static int top_domain(c1_jp *j, dst d) { return c1_jp_domain(j, ((top_state *)d.obj)->top[d.arg]); }

static int top_sector_num(c1_jp *j, dst d) {
    return c1_jp_u64(j, &((top_state *)d.obj)->sector_num);
}

static int top_sector_size(c1_jp *j, dst d) {
    return c1_jp_u64(j, &((top_state *)d.obj)->sector_size);
}

static int top_phase1_out(c1_jp *j, dst d) {
    top_state *t = d.obj;
    return c1_jp_string(j, &t->b64, &t->b64_len, &t->b64_escaped);
}

/* Which members are required depends on the form (bare or wrapper): checked
 * after the walk.  The wrapper's are known only in the outer text. */
enum { BARE_FIELDS = 7, ALL_FIELDS = 10 };
static const field g_top_fields[] = {
    {"registered_proof", top_proof, 0, REQ}, {"vanilla_proofs", top_vanilla, 0, REQ},
    {"comm_r", top_domain, 0, REQ},          {"comm_d", top_domain, 1, REQ},
    {"replica_id", top_domain, 2, REQ},      {"seed", top_domain, 3, REQ},
    {"ticket", top_domain, 4, REQ},          {"SectorNum", top_sector_num, 0, REQ},
    {"Phase1Out", top_phase1_out, 0, REQ},   {"SectorSize", top_sector_size, 0, REQ}};
#define BARE_MASK 0x7fu
#define WRAP_MASK 0x380u

static c1_status fail_status(c1_error *err) { return err->status; }

c1_status c1_decode_text(c1_output **out, const void *buf, size_t len, c1_error *err,
                         const char *prefix, int outer, c1_buf mode, c1_stream *stream) {
    c1_jp j;
    c1_jp_init(&j, buf, len, err, prefix);
    j.release = mode == BUF_MAPPED;
    if (stream)
        c1_stream_attach(stream, &j);
    top_state t = {.err = err};
    unsigned seen;
    *out = NULL;
    int r = walk_object(&j, g_top_fields, outer ? ALL_FIELDS : BARE_FIELDS, NULL, &t, &seen);
    if (r == 0 && (seen & WRAP_MASK) && (seen & BARE_MASK))
        r = c1_jp_fail(
            &j, C1_ERR_SHAPE, j.beg,
            "both Curio wrapper fields (SectorNum, Phase1Out, SectorSize) and C1 fields");
    if (r == 0 && !(seen & BARE_MASK) && (seen & WRAP_MASK))
        r = check_missing(&j, g_top_fields, ALL_FIELDS, seen, WRAP_MASK);
    else if (r == 0)
        r = check_missing(&j, g_top_fields, BARE_FIELDS, seen, BARE_MASK);
    if (r == 0) {
        c1_jp_need_all(&j);
        r = c1_jp_end(&j);
    }
    if (r == 0 && t.deferred) {
        const uint8_t *end = j.p;
        j.p = t.deferred;
        c1_jp_push_key(&j, "vanilla_proofs");
        if (!(t.c = c1_output_alloc(t.proof, err)))
            return C1_ERR_NO_MEMORY;
        r = vanilla(&j, t.c);
        c1_jp_pop(&j);
        j.p = end;
    }
    if (r < 0) {
        c1_output_free(t.c);
        return fail_status(err);
    }
    if (seen & WRAP_MASK)
        return c1_decode_wrapper(out, &j, t.b64, t.b64_len, t.b64_escaped, t.sector_num,
                                 t.sector_size, mode);
    c1_output *c = t.c;
    memcpy(c->comm_r, t.top[0], 32);
    memcpy(c->comm_d, t.top[1], 32);
    memcpy(c->replica_id, t.top[2], 32);
    memcpy(c->seed, t.top[3], 32);
    memcpy(c->ticket, t.top[4], 32);
    *out = c;
    return C1_OK;
}

c1_status c1_decode_top(c1_output **out, const void *buf, size_t len, c1_error *err, c1_buf mode) {
    c1_error local;
    if (!err)
        err = &local;
    err->status = C1_OK;
    err->offset = 0;
    err->msg[0] = 0;
    c1_status st = c1_decode_text(out, buf, len, err, "", 1, mode, NULL);
    if (st == C1_OK) { /* a failed streamed attempt may have left a message */
        err->status = C1_OK;
        err->offset = 0;
        err->msg[0] = 0;
    }
    return st;
}

c1_status c1_decode(c1_output **out, const void *buf, size_t len, c1_error *err) {
    return c1_decode_top(out, buf, len, err, BUF_CONST);
}

c1_status c1_decode_mutable(c1_output **out, void *buf, size_t len, c1_error *err) {
    return c1_decode_top(out, buf, len, err, BUF_MUTABLE);
}
