/* Native Merkle proofs: see merkle_proof.h. */
#include "filecoin/merkle/merkle_proof.h"

#include <stdlib.h>
#include <string.h>

/* Offset (in nodes) of element l's first sibling. */
static size_t sibling_offset(const por_shape *s, unsigned l) {
    size_t off = 0;
    for (unsigned k = 0; k < l; k++)
        off += por_shape_arity(s, k) - 1;
    return off;
}

const uint8_t *merkle_proof_sibling(const merkle_proof *p, unsigned l, unsigned k) {
    return p->siblings + 32 * (sibling_offset(&p->shape, l) + k);
}

void merkle_proof_free(merkle_proof *p) {
    free(p->siblings);
    p->siblings = NULL;
}

int merkle_proof_gen(merkle_proof *p, const merkle_tree *t, uint64_t i) {
    memset(p, 0, sizeof *p);
    if (i >= t->leaves)
        return MERKLE_ERR_INDEX;
    p->shape = t->shape;
    size_t nsib = por_shape_siblings(&t->shape);
    p->siblings = malloc(nsib * 32);
    if (!p->siblings)
        return MERKLE_ERR_NOMEM;
    memcpy(p->leaf, merkle_tree_node(t, 0, i), 32);
    memcpy(p->root, merkle_tree_root(t), 32);
    size_t j = i, out = 0;
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = por_shape_arity(&t->shape, l);
        size_t first = j / a * a;
        p->index[l] = (uint32_t)(j % a);
        for (size_t k = first; k < first + a; k++)
            if (k != j)
                memcpy(p->siblings + 32 * out++, merkle_tree_node(t, l, k), 32);
        j /= a;
    }
    return MERKLE_OK;
}

uint64_t merkle_proof_leaf_index(const merkle_proof *p) {
    uint64_t acc = 0;
    for (unsigned l = por_shape_levels(&p->shape); l-- > 0;)
        acc = acc * por_shape_arity(&p->shape, l) + p->index[l];
    return acc;
}

int merkle_proof_verify(const merkle_proof *p) {
    if (por_shape_check(&p->shape) != 0 || !p->siblings)
        return MERKLE_ERR_SHAPE;
    uint8_t cur[32], children[POR_MAX_ARITY * 32];
    memcpy(cur, p->leaf, 32);
    const uint8_t *sib = p->siblings;
    for (unsigned l = 0; l < por_shape_levels(&p->shape); l++) {
        unsigned a = por_shape_arity(&p->shape, l);
        if (p->index[l] >= a)
            return MERKLE_ERR_INDEX;
        for (unsigned k = 0, s = 0; k < a; k++)
            memcpy(children + 32 * k, k == p->index[l] ? cur : sib + 32 * s++, 32);
        sib += 32 * (a - 1);
        int err = merkle_hash_node(cur, p->shape.hasher, children, a);
        if (err)
            return err;
    }
    return memcmp(cur, p->root, 32) == 0 ? MERKLE_OK : MERKLE_ERR_ROOT;
}

int merkle_proof_witness(const merkle_proof *p, uint32_t *index, fr *siblings, fr *leaf, fr *root) {
    if (por_shape_check(&p->shape) != 0 || !p->siblings)
        return MERKLE_ERR_SHAPE;
    for (unsigned l = 0; l < por_shape_levels(&p->shape); l++)
        index[l] = p->index[l];
    size_t n = por_shape_siblings(&p->shape);
    for (size_t k = 0; k < n; k++)
        if (!fr_from_bytes_le(&siblings[k], p->siblings + 32 * k))
            return MERKLE_ERR_NOT_FR;
    if (!fr_from_bytes_le(leaf, p->leaf) || !fr_from_bytes_le(root, p->root))
        return MERKLE_ERR_NOT_FR;
    return MERKLE_OK;
}
