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

/* Reads members until one of names[] (skipping others): 1 with *idx set and
 * its frame pushed, 0 at the closing brace, -1 on error (duplicates too). */
static int next_field(c1_jp *j, int *first, const char *const *names, int n, unsigned *seen,
                      int *idx) {
    for (;;) {
        const uint8_t *k;
        size_t kl;
        int r = c1_jp_obj_next(j, first, &k, &kl);
        if (r <= 0)
            return r;
        const uint8_t *at = j->key_at;
        for (int i = 0; i < n; i++) {
            if (key_is(k, kl, names[i])) {
                if (*seen & (1u << i))
                    return c1_jp_fail(j, C1_ERR_SHAPE, at, "duplicate field \"%s\"", names[i]);
                *seen |= 1u << i;
                *idx = i;
                c1_jp_push_key(j, names[i]);
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

static int check_missing(c1_jp *j, const char *const *names, int n, unsigned seen,
                         unsigned optional) {
    for (int i = 0; i < n; i++)
        if (!(seen & (1u << i)) && !(optional & (1u << i)))
            return c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1, "missing field \"%s\"", names[i]);
    return 0;
}

/* An array of exactly count Domains into dst. */
static int domains(c1_jp *j, c1_node *dst, size_t count) {
    if (c1_jp_arr_begin(j, "an array of 32-byte arrays"))
        return -1;
    for (size_t i = 0;; i++) {
        int r = c1_jp_arr_next(j, i);
        if (r < 0)
            return -1;
        if (r == 0) {
            if (i != count)
                return c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1, "expected %zu elements, got %zu",
                                  count, i);
            return 0;
        }
        if (i == count)
            return c1_jp_fail_excess(j, count, "elements");
        c1_jp_push_index(j, (uint32_t)i);
        if (c1_jp_domain(j, dst[i]))
            return -1;
        c1_jp_pop(j);
    }
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

/* ---- Merkle proofs ------------------------------------------------------------------ */

static const char *const g_elem_fields[] = {"hashes", "index"};

static int path_element(c1_jp *j, c1_merkle *m, unsigned e) {
    unsigned seen = 0, arity = m->tree->arity[e];
    int first = 1, idx, r;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = next_field(j, &first, g_elem_fields, 2, &seen, &idx)) == 1) {
        if (idx == 0) {
            if (domains(j, c1_path_hashes(m, e), arity - 1))
                return -1;
        } else {
            uint64_t v;
            if (uint_in(j, &v, 0, arity - 1, "a path index"))
                return -1;
            m->index[e] = (uint8_t)v;
        }
        c1_jp_pop(j);
    }
    return r < 0 ? -1 : check_missing(j, g_elem_fields, 2, seen, 0);
}

static const char *const g_path_fields[] = {"path"};

/* InclusionPath {"path": [count elements]} = elements e0.. of m. */
static int inclusion_path(c1_jp *j, c1_merkle *m, unsigned e0, unsigned count) {
    unsigned seen = 0;
    int first = 1, idx, r;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = next_field(j, &first, g_path_fields, 1, &seen, &idx)) == 1) {
        if (c1_jp_arr_begin(j, "an array of path elements"))
            return -1;
        for (unsigned i = 0;; i++) {
            int a = c1_jp_arr_next(j, i);
            if (a < 0)
                return -1;
            if (a == 0) {
                if (i != count)
                    return c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1,
                                      "expected %u path elements, got %u", count, i);
                break;
            }
            if (i == count)
                return c1_jp_fail_excess(j, count, "path elements");
            c1_jp_push_index(j, i);
            if (path_element(j, m, e0 + i))
                return -1;
            c1_jp_pop(j);
        }
        c1_jp_pop(j);
    }
    return r < 0 ? -1 : check_missing(j, g_path_fields, 1, seen, 0);
}

static const char *const g_variant_names[3] = {"Single", "Sub", "Top"};
/* Single: root leaf path; Sub: base_proof sub_proof root leaf; Top: + top_proof. */
static const char *const g_proof_fields[] = {"root",       "leaf",      "path",
                                             "base_proof", "sub_proof", "top_proof"};

static int proof_variant(c1_jp *j, c1_merkle *m) {
    const c1_tree *t = m->tree;
    unsigned seen = 0, optional;
    int first = 1, idx, r;
    /* fields that do not belong to this variant count as unknown keys */
    int n = t->kind == C1_TREE_SINGLE ? 3 : 6;
    optional = t->kind == C1_TREE_SINGLE ? 0
               : t->kind == C1_TREE_SUB  ? (1u << 2 | 1u << 5)
                                         : 1u << 2;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = next_field(j, &first, g_proof_fields, n, &seen, &idx)) == 1) {
        if (optional & (1u << idx)) { /* "path" in Sub/Top, "top_proof" in Sub */
            if (c1_jp_skip(j))
                return -1;
            seen &= ~(1u << idx);
        } else if (idx < 2) {
            if (c1_jp_domain(j, m->nodes[idx]))
                return -1;
        } else if (idx == 2 || idx == 3) {
            if (inclusion_path(j, m, 0, t->base_len))
                return -1;
        } else {
            if (inclusion_path(j, m, t->base_len + (unsigned)(idx - 4), 1))
                return -1;
        }
        c1_jp_pop(j);
    }
    return r < 0 ? -1 : check_missing(j, g_proof_fields, n, seen, optional);
}

static int proof_data(c1_jp *j, c1_merkle *m) {
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

static const char *const g_merkle_fields[] = {"data"};

static int merkle(c1_jp *j, c1_merkle *m) {
    unsigned seen = 0;
    int first = 1, idx, r;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = next_field(j, &first, g_merkle_fields, 1, &seen, &idx)) == 1) {
        if (proof_data(j, m))
            return -1;
        c1_jp_pop(j);
    }
    return r < 0 ? -1 : check_missing(j, g_merkle_fields, 1, seen, 0);
}

/* ---- columns and labels ------------------------------------------------------------- */

static const char *const g_column_fields[] = {"index", "rows", "_h"};

static int column(c1_jp *j, const c1_output *c, c1_column *col) {
    unsigned seen = 0;
    int first = 1, idx, r;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = next_field(j, &first, g_column_fields, 3, &seen, &idx)) == 1) {
        if (idx == 0) {
            uint64_t v;
            if (uint_in(j, &v, 0, c->nodes - 1, "a node index"))
                return -1;
            col->index = (uint32_t)v;
        } else if (idx == 1) {
            if (domains(j, col->rows, c->layers))
                return -1;
        } else if (c1_jp_null(j)) {
            return -1;
        }
        c1_jp_pop(j);
    }
    return r < 0 ? -1 : check_missing(j, g_column_fields, 3, seen, 1u << 2);
}

static const char *const g_colproof_fields[] = {"column", "inclusion_proof"};

static int column_proof(c1_jp *j, const c1_output *c, c1_column *col) {
    unsigned seen = 0;
    int first = 1, idx, r;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = next_field(j, &first, g_colproof_fields, 2, &seen, &idx)) == 1) {
        if (idx == 0 ? column(j, c, col) : merkle(j, &col->proof))
            return -1;
        c1_jp_pop(j);
    }
    return r < 0 ? -1 : check_missing(j, g_colproof_fields, 2, seen, 0);
}

static int column_list(c1_jp *j, const c1_output *c, c1_column *cols, unsigned count) {
    if (c1_jp_arr_begin(j, "an array of column proofs"))
        return -1;
    for (unsigned i = 0;; i++) {
        int a = c1_jp_arr_next(j, i);
        if (a < 0)
            return -1;
        if (a == 0)
            return i == count ? 0
                              : c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1,
                                           "expected %u column proofs, got %u", count, i);
        if (i == count)
            return c1_jp_fail_excess(j, count, "column proofs");
        c1_jp_push_index(j, i);
        if (column_proof(j, c, &cols[i]))
            return -1;
        c1_jp_pop(j);
    }
}

static const char *const g_rcp_fields[] = {"c_x", "drg_parents", "exp_parents"};

static int replica_columns(c1_jp *j, const c1_output *c, c1_challenge *ch) {
    unsigned seen = 0;
    int first = 1, idx, r;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = next_field(j, &first, g_rcp_fields, 3, &seen, &idx)) == 1) {
        int bad = idx == 0   ? column_proof(j, c, &ch->c_x)
                  : idx == 1 ? column_list(j, c, ch->drg, C1_DRG_PARENTS)
                             : column_list(j, c, ch->exp, C1_EXP_PARENTS);
        if (bad)
            return -1;
        c1_jp_pop(j);
    }
    return r < 0 ? -1 : check_missing(j, g_rcp_fields, 3, seen, 0);
}

static const char *const g_label_fields[] = {"parents", "layer_index", "node"};

static int labeling(c1_jp *j, const c1_output *c, c1_labeling *lab) {
    unsigned seen = 0;
    int first = 1, idx, r;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = next_field(j, &first, g_label_fields, 3, &seen, &idx)) == 1) {
        uint64_t v;
        if (idx == 0) {
            if (domains(j, lab->parents, C1_LABEL_PARENTS))
                return -1;
        } else if (idx == 1) {
            if (uint_in(j, &v, 1, c->layers, "a layer index"))
                return -1;
            lab->layer_index = (uint32_t)v;
        } else {
            if (uint_in(j, &v, 0, c->nodes - 1, "a node index"))
                return -1;
            lab->node = v;
        }
        c1_jp_pop(j);
    }
    return r < 0 ? -1 : check_missing(j, g_label_fields, 3, seen, 0);
}

static int labeling_list(c1_jp *j, const c1_output *c, c1_labeling *labs) {
    if (c1_jp_arr_begin(j, "an array of labeling proofs"))
        return -1;
    for (unsigned i = 0;; i++) {
        int a = c1_jp_arr_next(j, i);
        if (a < 0)
            return -1;
        if (a == 0)
            return i == c->layers
                       ? 0
                       : c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1,
                                    "expected %u labeling proofs (one per layer), got %u",
                                    c->layers, i);
        if (i == c->layers)
            return c1_jp_fail_excess(j, c->layers, "labeling proofs (one per layer)");
        c1_jp_push_index(j, i);
        if (labeling(j, c, &labs[i]))
            return -1;
        c1_jp_pop(j);
    }
}

/* ---- one challenge, the partitions ------------------------------------------------------ */

static const char *const g_challenge_fields[] = {"comm_d_proofs", "comm_r_last_proof",
                                                 "replica_column_proofs", "labeling_proofs",
                                                 "encoding_proof"};

static int challenge(c1_jp *j, const c1_output *c, c1_challenge *ch) {
    unsigned seen = 0;
    int first = 1, idx, r;
    if (c1_jp_obj_begin(j))
        return -1;
    while ((r = next_field(j, &first, g_challenge_fields, 5, &seen, &idx)) == 1) {
        int bad;
        switch (idx) {
        case 0:
            bad = merkle(j, &ch->comm_d);
            break;
        case 1:
            bad = merkle(j, &ch->comm_r_last);
            break;
        case 2:
            bad = replica_columns(j, c, ch);
            break;
        case 3:
            bad = labeling_list(j, c, ch->labeling);
            break;
        default:
            bad = labeling(j, c, &ch->encoding);
        }
        if (bad)
            return -1;
        c1_jp_pop(j);
    }
    return r < 0 ? -1 : check_missing(j, g_challenge_fields, 5, seen, 0);
}

static int partitions(c1_jp *j, c1_output *c) {
    if (c1_jp_arr_begin(j, "an array of partitions"))
        return -1;
    for (unsigned p = 0;; p++) {
        int a = c1_jp_arr_next(j, p);
        if (a < 0)
            return -1;
        if (a == 0)
            return p == c->partitions ? 0
                                      : c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1,
                                                   "expected %u partitions (%s), got %u",
                                                   c->partitions, c->proof->name, p);
        if (p == c->partitions)
            return c1_jp_fail_excess(j, c->partitions, "partitions");
        c1_jp_push_index(j, p);
        if (c1_jp_arr_begin(j, "an array of challenge proofs"))
            return -1;
        for (unsigned i = 0;; i++) {
            a = c1_jp_arr_next(j, i);
            if (a < 0)
                return -1;
            if (a == 0) {
                if (i != c->challenges)
                    return c1_jp_fail(j, C1_ERR_SHAPE, j->p - 1,
                                      "expected %u challenges per partition, got %u", c->challenges,
                                      i);
                break;
            }
            if (i == c->challenges)
                return c1_jp_fail_excess(j, c->challenges, "challenges per partition");
            c1_jp_push_index(j, i);
            if (challenge(j, c, c1_at(c, p, i)))
                return -1;
            c1_jp_checkpoint(j);
            c1_jp_pop(j);
        }
        c1_jp_pop(j);
    }
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

enum { F_PROOF, F_VANILLA, F_COMM_R, F_COMM_D, F_REPLICA, F_SEED, F_TICKET, F_NUM, F_OUT, F_SIZE };
static const char *const g_top_fields[] = {
    "registered_proof", "vanilla_proofs", "comm_r",    "comm_d",    "replica_id", "seed",
    "ticket",           "SectorNum",      "Phase1Out", "SectorSize"};
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
    c1_output *c = NULL;
    const fc_seal_proof *proof = NULL;
    uint8_t top[5][32];
    uint64_t sector_num = 0, sector_size = 0;
    const uint8_t *b64 = NULL, *deferred = NULL;
    size_t b64_len = 0;
    int b64_escaped = 0;
    unsigned seen = 0;
    int first = 1, idx, r;
    *out = NULL;
    if (c1_jp_obj_begin(&j))
        return fail_status(err);
    while ((r = next_field(&j, &first, g_top_fields, outer ? 10 : 7, &seen, &idx)) == 1) {
        const uint8_t *at = j.p;
        int bad = 0;
        switch (idx) {
        case F_PROOF: {
            const uint8_t *s;
            size_t n;
            int esc;
            char name[80];
            if (c1_jp_string(&j, &s, &n, &esc)) {
                bad = 1;
                break;
            }
            if (n >= sizeof name) {
                bad = c1_jp_fail(&j, C1_ERR_PROOF, at, "unknown registered proof (%zu bytes long)",
                                 n);
                break;
            }
            n = esc ? c1_json_unescape((uint8_t *)name, s, n) : (memcpy(name, s, n), n);
            name[n] = 0;
            proof = memchr(name, 0, n) ? NULL : fc_seal_proof_by_name(name);
            if (!proof)
                bad = c1_jp_fail(&j, C1_ERR_PROOF, at, "unknown registered proof \"%s\"", name);
            break;
        }
        case F_VANILLA:
            c1_jp_ws(&j);
            if (!proof) { /* shape unknown yet: come back after the other keys */
                deferred = j.p;
                bad = c1_jp_skip(&j);
                break;
            }
            if (!(c = c1_output_alloc(proof, err)))
                return C1_ERR_NO_MEMORY;
            bad = vanilla(&j, c);
            break;
        case F_NUM:
            bad = c1_jp_u64(&j, &sector_num);
            break;
        case F_SIZE:
            bad = c1_jp_u64(&j, &sector_size);
            break;
        case F_OUT:
            bad = c1_jp_string(&j, &b64, &b64_len, &b64_escaped);
            break;
        default:
            bad = c1_jp_domain(&j, top[idx - F_COMM_R]);
        }
        if (bad) {
            c1_output_free(c);
            return fail_status(err);
        }
        c1_jp_pop(&j);
    }
    if (r == 0 && (seen & WRAP_MASK) && (seen & BARE_MASK))
        r = c1_jp_fail(
            &j, C1_ERR_SHAPE, j.beg,
            "both Curio wrapper fields (SectorNum, Phase1Out, SectorSize) and C1 fields");
    if (r == 0 && !(seen & BARE_MASK) && (seen & WRAP_MASK))
        r = check_missing(&j, g_top_fields + F_NUM, 3, seen >> F_NUM, 0);
    else if (r == 0)
        r = check_missing(&j, g_top_fields, 7, seen, 0);
    if (r == 0) {
        c1_jp_need_all(&j);
        r = c1_jp_end(&j);
    }
    if (r == 0 && deferred) {
        const uint8_t *end = j.p;
        j.p = deferred;
        c1_jp_push_key(&j, "vanilla_proofs");
        if (!(c = c1_output_alloc(proof, err)))
            return C1_ERR_NO_MEMORY;
        r = vanilla(&j, c);
        c1_jp_pop(&j);
        j.p = end;
    }
    if (r < 0) {
        c1_output_free(c);
        return fail_status(err);
    }
    if (seen & WRAP_MASK)
        return c1_decode_wrapper(out, &j, b64, b64_len, b64_escaped, sector_num, sector_size, mode);
    memcpy(c->comm_r, top[0], 32);
    memcpy(c->comm_d, top[1], 32);
    memcpy(c->replica_id, top[2], 32);
    memcpy(c->seed, top[3], 32);
    memcpy(c->ticket, top[4], 32);
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
