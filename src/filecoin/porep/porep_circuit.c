/* The StackedDrg PoRep partition circuit: see porep_circuit.h.  Namespaces
 * and the order of every allocation follow proof.rs / params.rs call by
 * call; the names only matter for reports of unsatisfied constraints. */
#include "filecoin/porep/porep_circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/porep/label_circuit.h"
#include "gadget/num.h"
#include "gadget/poseidon_circuit.h"
#include "gadget/tree_hash.h"
#include "gadget/uint32.h"
#include "gadget/uint64.h"

void porep_shape_for_sector(porep_shape *out, const fc_sector_shape *s, unsigned challenges) {
    out->nodes = s->nodes;
    out->layers = s->layers;
    out->challenges = challenges;
    out->arity_base = s->arity_base;
    out->arity_sub = s->arity_sub;
    out->arity_top = s->arity_top;
}

static unsigned log2u64(uint64_t x) {
    unsigned k = 0;
    while (k < 63 && ((uint64_t)1 << k) < x)
        k++;
    return k;
}

/* Trees R and C: Poseidon over the sector's nodes with its arities (base
 * levels 0 when they do not fit).  Returns MERKLE_OK or an error. */
static int tree_rc(const porep_shape *s, por_shape *out) {
    return merkle_shape_for_leaves(out, TREE_HASH_POSEIDON, s->arity_base, s->arity_sub,
                                   s->arity_top, (size_t)s->nodes);
}

int porep_shape_check(const porep_shape *s) {
    if (s->nodes < 2 || (s->nodes & (s->nodes - 1)) || s->nodes > ((uint64_t)1 << 40))
        return -1;
    if (s->layers != 2 && s->layers != 11)
        return -1;
    if (s->challenges < 1 || s->challenges > 1024)
        return -1;
    por_shape t;
    return tree_rc(s, &t) == MERKLE_OK ? 0 : -1;
}

void porep_shape_tree_rc(const porep_shape *s, por_shape *out) { (void)tree_rc(s, out); }

void porep_shape_tree_d(const porep_shape *s, por_shape *out) {
    *out = (por_shape){TREE_HASH_SHA256, 2, 0, 0, log2u64(s->nodes)};
}

size_t porep_num_public_inputs(const porep_shape *s) {
    return 3 + (size_t)POREP_INPUTS_PER_CHALLENGE * s->challenges;
}

void porep_witness_sizes_get(const porep_shape *s, porep_witness_sizes *out) {
    por_shape rc, d;
    porep_shape_tree_rc(s, &rc);
    porep_shape_tree_d(s, &d);
    const size_t C = s->challenges, lr = por_shape_levels(&rc), sr = por_shape_siblings(&rc),
                 ld = por_shape_levels(&d);
    out->challenge = C;
    out->data_leaf = C;
    out->d_index = C * ld;
    out->d_sib = C * ld;
    out->rows = C * POREP_COLUMNS * s->layers;
    out->c_index = C * POREP_COLUMNS * lr;
    out->c_sib = C * POREP_COLUMNS * sr;
    out->r_index = C * lr;
    out->r_sib = C * sr;
}

static int witness_complete(const porep_witness *w) {
    return w->challenge && w->data_leaf && w->d_index && w->d_sib && w->rows && w->c_index &&
           w->c_sib && w->r_index && w->r_sib;
}

/* AllocatedNum::alloc inside namespace name. */
static gnum alloc_named(r1cs_cs *cs, const char *name, const fr *v) {
    r1cs_push(cs, "%s", name);
    gnum n = gnum_alloc(cs, v);
    r1cs_pop(cs);
    return n;
}

static void inputize_named(r1cs_cs *cs, const char *name, const gnum *x) {
    r1cs_push(cs, "%s", name);
    gnum_inputize(cs, x);
    r1cs_pop(cs);
}

/* enforce_inclusion: PoRCircuit with Root::Var leaf and root, private root. */
static int inclusion(r1cs_cs *cs, const por_shape *t, const gnum *leaf, const uint32_t *index,
                     const fr *sib, const gnum *root) {
    por_root v = por_root_var(*leaf), r = por_root_var(*root);
    por_path p = {index, sib};
    return por_circuit(cs, t, &v, &p, &r, 1);
}

unsigned porep_units_per_challenge(const porep_shape *s) {
    return POREP_UNIT_LABEL0 + s->layers + 1;
}

porep_unit_kind porep_unit_kind_of(const porep_shape *s, unsigned u) {
    if (u == POREP_UNIT_TREE_D)
        return POREP_SEG_TREE_D;
    if (u < POREP_UNIT_CHALLENGE)
        return POREP_SEG_COLUMN;
    if (u == POREP_UNIT_CHALLENGE)
        return POREP_SEG_CHALLENGE;
    return u < POREP_UNIT_LABEL0 + s->layers ? POREP_SEG_LABEL : POREP_SEG_TAIL;
}

/* The column k of challenge c: alloc rows, hash, PoR in tree C. */
static int parent_column(r1cs_cs *cs, const porep_ctx *x, const porep_witness *w, size_t c,
                         unsigned k, const char *kind, unsigned i, gnum *col) {
    const unsigned L = x->s->layers;
    const size_t lr = por_shape_levels(&x->rc), sr = por_shape_siblings(&x->rc);
    const size_t ck = c * POREP_COLUMNS + k;
    r1cs_push(cs, "%s_parent_%u_num", kind, i);
    r1cs_push(cs, "column");
    for (unsigned l = 0; l < L; l++) {
        r1cs_push(cs, "column_num_row_%u", l);
        col[l] = gnum_alloc(cs, w ? &w->rows[ck * L + l] : NULL);
        r1cs_pop(cs);
    }
    r1cs_pop(cs);
    r1cs_pop(cs);
    gnum h;
    r1cs_push(cs, "%s_parent_%u_constraint", kind, i);
    int r = poseidon_circuit_hash(cs, col, L, &h);
    r1cs_pop(cs);
    if (r)
        return -1;
    r1cs_push(cs, "%s_parent_%u_inclusion", kind, i);
    r = inclusion(cs, &x->rc, &h, w ? w->c_index + ck * lr : NULL, w ? w->c_sib + ck * sr : NULL,
                  &x->comm_c);
    r1cs_pop(cs);
    return r;
}

/* One parent row as message bits: to_bits_le, reverse_bit_numbering. */
static void parent_bits(r1cs_cs *cs, gbool out[256], const gnum *v, const char *kind, size_t n) {
    gbool le[GNUM_BITS];
    r1cs_push(cs, "%s_parent_%zu_bits", kind, n);
    gnum_to_bits_le(cs, v, le);
    r1cs_pop(cs);
    tree_hash_reverse_bit_numbering(out, le, GNUM_BITS);
}

/* Labeling layer `layer` (1..L) of a challenge: reads the column rows and the
 * challenge of st, writes st->labels[layer - 1]. */
static int label_unit(r1cs_cs *cs, const porep_ctx *x, porep_chal *st, unsigned layer) {
    const size_t B = 256;
    gbool *parents = malloc((size_t)(POREP_DRG_PARENTS + POREP_EXP_PARENTS) * B * sizeof(gbool));
    gbool *expanded = malloc((size_t)LABEL_PARENTS * B * sizeof(gbool));
    if (!parents || !expanded) {
        free(parents);
        free(expanded);
        return -1;
    }
    r1cs_push(cs, "labeling_%u", layer);
    size_t np = 0;
    for (unsigned i = 0; i < POREP_DRG_PARENTS; i++, np++)
        parent_bits(cs, parents + np * B, &st->cols[i][layer - 1], "drg", np);
    if (layer > 1) /* expander parents hold no row for layer 1: row layer - 1 */
        for (unsigned i = 0; i < POREP_EXP_PARENTS; i++, np++)
            parent_bits(cs, parents + np * B, &st->cols[POREP_DRG_PARENTS + i][layer - 2], "exp",
                        np);
    /* 37 parents: layer 1 the 6 six times then the first; else the 14
     * twice then the first 9 */
    for (size_t p = 0; p < LABEL_PARENTS; p++)
        memcpy(expanded + p * B, parents + (p % np) * B, B * sizeof(gbool));
    gu32 layer_num = gu32_constant(layer);
    r1cs_push(cs, "create_label");
    int r = label_circuit_create(cs, &st->labels[layer - 1], x->id_bits, 256, expanded, &layer_num,
                                 &st->ch);
    r1cs_pop(cs);
    r1cs_pop(cs);
    free(parents);
    free(expanded);
    return r;
}

/* encode, tree R, c_x column hash, tree C: reads data_leaf and the labels. */
static int tail_unit(r1cs_cs *cs, const porep_ctx *x, const porep_witness *w, size_t c,
                     porep_chal *st) {
    const unsigned L = x->s->layers;
    const size_t lr = por_shape_levels(&x->rc), sr = por_shape_siblings(&x->rc);
    r1cs_push(cs, "encode_node");
    r1cs_push(cs, "encode_add");
    gnum encoded = gnum_add(cs, &st->labels[L - 1], &st->data_leaf);
    r1cs_pop(cs);
    r1cs_pop(cs);
    r1cs_push(cs, "comm_r_last_data_inclusion");
    int r = inclusion(cs, &x->rc, &encoded, w ? w->r_index + c * lr : NULL,
                      w ? w->r_sib + c * sr : NULL, &x->comm_r_last);
    r1cs_pop(cs);
    if (r)
        return -1;
    gnum col_hash;
    r1cs_push(cs, "c_x_column_hash");
    r = poseidon_circuit_hash(cs, st->labels, L, &col_hash);
    r1cs_pop(cs);
    if (r)
        return -1;
    const size_t cx = c * POREP_COLUMNS; /* k = 0 */
    r1cs_push(cs, "c_x_inclusion");
    r = inclusion(cs, &x->rc, &col_hash, w ? w->c_index + cx * lr : NULL,
                  w ? w->c_sib + cx * sr : NULL, &x->comm_c);
    r1cs_pop(cs);
    return r;
}

int porep_unit_synth(r1cs_cs *cs, const porep_ctx *x, const porep_witness *w, size_t c, unsigned u,
                     porep_chal *st) {
    const size_t ld = por_shape_levels(&x->d);
    const unsigned K = porep_units_per_challenge(x->s);
    r1cs_segment(cs, porep_unit_kind_of(x->s, u), (uint32_t)(c * K + u));
    r1cs_push(cs, "challenge_%zu", c);
    int r = 0;
    if (u == POREP_UNIT_TREE_D) {
        st->data_leaf = alloc_named(cs, "data_leaf", w ? &w->data_leaf[c] : NULL);
        r1cs_push(cs, "comm_d_inclusion");
        r = inclusion(cs, &x->d, &st->data_leaf, w ? w->d_index + c * ld : NULL,
                      w ? w->d_sib + c * ld : NULL, &x->comm_d);
        r1cs_pop(cs);
    } else if (u < POREP_UNIT_CHALLENGE) {
        unsigned i = u - 1; /* parent i: DRG 0..5, then expander */
        int drg = i < POREP_DRG_PARENTS;
        r = parent_column(cs, x, w, c, u, drg ? "drg" : "exp", drg ? i : i - POREP_DRG_PARENTS,
                          st->cols[i]);
    } else if (u == POREP_UNIT_CHALLENGE) {
        r1cs_push(cs, "challenge");
        st->ch = gu64_alloc(cs, w ? &w->challenge[c] : NULL);
        r1cs_pop(cs);
        r1cs_push(cs, "challenge input");
        gu64_pack_into_input(cs, &st->ch);
        r1cs_pop(cs);
    } else if (u < POREP_UNIT_LABEL0 + x->s->layers) {
        r = label_unit(cs, x, st, u - POREP_UNIT_LABEL0 + 1);
    } else if (u == POREP_UNIT_LABEL0 + x->s->layers) {
        r = tail_unit(cs, x, w, c, st);
    } else {
        r = -1;
    }
    r1cs_pop(cs);
    return r ? -1 : 0;
}

int porep_prefix_synth(r1cs_cs *cs, porep_ctx *x, const porep_shape *s, const porep_witness *w) {
    if (porep_shape_check(s) || (w && !witness_complete(w)))
        return -1;
    memset(x, 0, sizeof *x);
    x->s = s;
    porep_shape_tree_rc(s, &x->rc);
    porep_shape_tree_d(s, &x->d);

    gnum replica_id = alloc_named(cs, "replica_id", w ? &w->replica_id : NULL);
    inputize_named(cs, "replica_id_input", &replica_id);
    gbool le[GNUM_BITS];
    r1cs_push(cs, "replica_id_bits");
    gnum_to_bits_le(cs, &replica_id, le);
    r1cs_pop(cs);
    tree_hash_reverse_bit_numbering(x->id_bits, le, GNUM_BITS);

    x->comm_d = alloc_named(cs, "comm_d", w ? &w->comm_d : NULL);
    inputize_named(cs, "comm_d_input", &x->comm_d);
    gnum comm_r = alloc_named(cs, "comm_r", w ? &w->comm_r : NULL);
    inputize_named(cs, "comm_r_input", &comm_r);
    x->comm_r_last = alloc_named(cs, "comm_r_last", w ? &w->comm_r_last : NULL);
    x->comm_c = alloc_named(cs, "comm_c", w ? &w->comm_c : NULL);

    /* comm_r = H(comm_c || comm_r_last) */
    return poseidon_circuit_hash2_is(cs, "H_comm_c_comm_r_last", x->comm_c, x->comm_r_last, comm_r,
                                     "enforce comm_r = H(comm_c || comm_r_last)");
}

int porep_circuit_synthesize(r1cs_cs *cs, const porep_shape *s, const porep_witness *w) {
    porep_ctx *x = malloc(sizeof *x);
    porep_chal *st = malloc(sizeof *st);
    int r = (x && st) ? porep_prefix_synth(cs, x, s, w) : -1;
    const unsigned K = r ? 0 : porep_units_per_challenge(s);
    for (size_t c = 0; r == 0 && c < s->challenges; c++)
        for (unsigned u = 0; r == 0 && u < K; u++)
            r = porep_unit_synth(cs, x, w, c, u, st);
    free(x);
    free(st);
    return r;
}

int porep_public_inputs(fr *out, const porep_shape *s, const fr *replica_id, const fr *comm_d,
                        const fr *comm_r, const uint64_t *challenge, const uint32_t *drg,
                        const uint32_t *exp, char *err, size_t errlen) {
    if (porep_shape_check(s)) {
        if (err)
            snprintf(err, errlen, "invalid PoRep circuit shape");
        return -1;
    }
    size_t n = 0;
    out[n++] = *replica_id;
    out[n++] = *comm_d;
    out[n++] = *comm_r;
    for (size_t c = 0; c < s->challenges; c++) {
        if (challenge[c] >= s->nodes) {
            if (err)
                snprintf(err, errlen, "challenge %zu: node %llu is not below %llu", c,
                         (unsigned long long)challenge[c], (unsigned long long)s->nodes);
            return -1;
        }
        fr_set_u64(&out[n++], challenge[c]); /* tree D leaf */
        for (unsigned i = 0; i < POREP_DRG_PARENTS + POREP_EXP_PARENTS; i++) {
            uint64_t p = i < POREP_DRG_PARENTS ? drg[c * POREP_DRG_PARENTS + i]
                                               : exp[c * POREP_EXP_PARENTS + i - POREP_DRG_PARENTS];
            if (p >= s->nodes) {
                if (err)
                    snprintf(err, errlen, "challenge %zu: %s parent %u = %llu is not below %llu", c,
                             i < POREP_DRG_PARENTS ? "drg" : "exp",
                             i < POREP_DRG_PARENTS ? i : i - POREP_DRG_PARENTS,
                             (unsigned long long)p, (unsigned long long)s->nodes);
                return -1;
            }
            fr_set_u64(&out[n++], p);
        }
        fr_set_u64(&out[n++], challenge[c]); /* the packed UInt64 */
        fr_set_u64(&out[n++], challenge[c]); /* tree R */
        fr_set_u64(&out[n++], challenge[c]); /* tree C (the challenge's column) */
    }
    return 0;
}
