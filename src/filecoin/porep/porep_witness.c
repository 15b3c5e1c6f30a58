/* Native check of a PoRep partition witness: every relation the circuit
 * enforces, computed directly (see porep_witness_check in porep_circuit.h).
 * Seconds for a 32 GiB partition where the checking mode takes minutes, and
 * the message names the challenge and the part. */
#include <stdio.h>
#include <string.h>

#include "filecoin/porep/label_circuit.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/porep/porep_circuit.h"
#include "gadget/poseidon.h"
#include "util/err.h"

/* Folds leaf up the path (positions index[], siblings sib[]) of tree t into
 * root; *leaf_index gets the index the positions encode.  MERKLE_* code. */
static int fold(fr *root, uint64_t *leaf_index, const por_shape *t, const fr *leaf,
                const uint32_t *index, const fr *sib) {
    uint8_t children[POR_MAX_ARITY * 32], cur[32];
    fr_to_bytes_le(cur, leaf);
    const unsigned levels = por_shape_levels(t);
    size_t s = 0;
    for (unsigned l = 0; l < levels; l++) {
        const unsigned arity = por_shape_arity(t, l);
        if (index[l] >= arity)
            return MERKLE_ERR_INDEX;
        for (unsigned k = 0, j = 0; k < arity; k++) {
            if (k == index[l])
                memcpy(children + 32 * k, cur, 32);
            else
                fr_to_bytes_le(children + 32 * k, &sib[s + j++]);
        }
        s += arity - 1;
        int r = merkle_hash_node(cur, t->hasher, children, arity);
        if (r)
            return r;
    }
    uint64_t acc = 0;
    for (unsigned l = levels; l-- > 0;)
        acc = acc * por_shape_arity(t, l) + index[l];
    *leaf_index = acc;
    return fr_from_bytes_le(root, cur) ? MERKLE_OK : MERKLE_ERR_NOT_FR;
}

/* The path reaches want; names the part on failure. */
static int check_path(const por_shape *t, const fr *leaf, const uint32_t *index, const fr *sib,
                      const fr *want, uint64_t *leaf_index, char *err, size_t errlen, size_t c,
                      const char *part, const char *root_name) {
    fr root;
    int r = fold(&root, leaf_index, t, leaf, index, sib);
    if (r)
        return err_set(err, errlen, "challenge %zu: %s: %s", c, part, merkle_strerror(r));
    if (!fr_equal(&root, want))
        return err_set(err, errlen, "challenge %zu: %s does not lead to %s", c, part, root_name);
    return 0;
}

int porep_witness_check(const porep_shape *s, const porep_witness *w, uint64_t *column_index,
                        char *err, size_t errlen) {
    if (porep_shape_check(s))
        return err_set(err, errlen, "invalid PoRep circuit shape");
    if (!w->challenge || !w->data_leaf || !w->d_index || !w->d_sib || !w->rows || !w->c_index ||
        !w->c_sib || !w->r_index || !w->r_sib)
        return err_set(err, errlen, "incomplete witness (an array is NULL)");
    por_shape rc, d;
    porep_shape_tree_rc(s, &rc);
    porep_shape_tree_d(s, &d);
    const size_t L = s->layers, lr = por_shape_levels(&rc), sr = por_shape_siblings(&rc),
                 ld = por_shape_levels(&d);
    fr pre[2] = {w->comm_c, w->comm_r_last}, h;
    if (poseidon_hash(&h, pre, 2) || !fr_equal(&h, &w->comm_r))
        return err_set(err, errlen, "comm_r is not Poseidon2(comm_c, comm_r_last)");
    uint8_t id[32];
    fr_to_bytes_le(id, &w->replica_id);

    for (size_t c = 0; c < s->challenges; c++) {
        const uint64_t ch = w->challenge[c];
        uint64_t at;
        if (ch >= s->nodes)
            return err_set(err, errlen, "challenge %zu: node %llu is not below %llu", c,
                           (unsigned long long)ch, (unsigned long long)s->nodes);
        if (check_path(&d, &w->data_leaf[c], w->d_index + c * ld, w->d_sib + c * ld, &w->comm_d,
                       &at, err, errlen, c, "the data leaf's tree D path", "comm_d"))
            return -1;
        if (at != ch)
            return err_set(err, errlen, "challenge %zu: the tree D path opens node %llu, not %llu",
                           c, (unsigned long long)at, (unsigned long long)ch);
        /* columns: hash, tree C */
        for (unsigned k = 0; k < POREP_COLUMNS; k++) {
            const size_t ck = c * POREP_COLUMNS + k;
            char part[64];
            if (k == 0)
                snprintf(part, sizeof part, "column c_x");
            else if (k <= POREP_DRG_PARENTS)
                snprintf(part, sizeof part, "drg parent %u's column", k - 1);
            else
                snprintf(part, sizeof part, "exp parent %u's column", k - 1 - POREP_DRG_PARENTS);
            if (poseidon_hash(&h, w->rows + ck * L, (unsigned)L))
                return err_set(err, errlen, "challenge %zu: %s cannot be hashed", c, part);
            if (check_path(&rc, &h, w->c_index + ck * lr, w->c_sib + ck * sr, &w->comm_c, &at, err,
                           errlen, c, part, "comm_c"))
                return -1;
            if (column_index)
                column_index[ck] = at;
            if (k == 0 && at != ch)
                return err_set(err, errlen, "challenge %zu: column c_x opens node %llu, not %llu",
                               c, (unsigned long long)at, (unsigned long long)ch);
        }
        /* labels: layer l from the drg rows l and the exp rows l - 1 */
        uint8_t base[POREP_DRG_PARENTS + POREP_EXP_PARENTS][32], parents[LABEL_PARENTS][32];
        uint8_t label[32], want[32];
        for (size_t l = 1; l <= L; l++) {
            size_t np = 0;
            for (unsigned i = 0; i < POREP_DRG_PARENTS; i++, np++)
                fr_to_bytes_le(base[np], &w->rows[(c * POREP_COLUMNS + 1 + i) * L + l - 1]);
            if (l > 1)
                for (unsigned i = 0; i < POREP_EXP_PARENTS; i++, np++)
                    fr_to_bytes_le(
                        base[np],
                        &w->rows[(c * POREP_COLUMNS + 1 + POREP_DRG_PARENTS + i) * L + l - 2]);
            for (size_t p = 0; p < LABEL_PARENTS; p++)
                memcpy(parents[p], base[p % np], 32);
            label_native(label, id, (uint32_t)l, ch, &parents[0][0]);
            fr_to_bytes_le(want, &w->rows[c * POREP_COLUMNS * L + l - 1]);
            if (memcmp(label, want, 32) != 0)
                return err_set(err, errlen,
                               "challenge %zu: the label of layer %zu computed from the parents' "
                               "rows is not c_x's row",
                               c, l);
        }
        /* encoding: label_L + data leaf, tree R */
        fr enc;
        fr_add(&enc, &w->rows[c * POREP_COLUMNS * L + L - 1], &w->data_leaf[c]);
        if (check_path(&rc, &enc, w->r_index + c * lr, w->r_sib + c * sr, &w->comm_r_last, &at, err,
                       errlen, c, "the encoded node's tree R path", "comm_r_last"))
            return -1;
        if (at != ch)
            return err_set(err, errlen, "challenge %zu: the tree R path opens node %llu, not %llu",
                           c, (unsigned long long)at, (unsigned long long)ch);
    }
    return 0;
}
