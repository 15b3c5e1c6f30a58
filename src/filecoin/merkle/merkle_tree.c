/* Native Merkle trees: see merkle_tree.h. */
#include "filecoin/merkle/merkle_tree.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/hash/sha256_native.h"
#include "gadget/poseidon.h"

const char *merkle_strerror(int err) {
    switch (err) {
    case MERKLE_OK:
        return "ok";
    case MERKLE_ERR_SHAPE:
        return "unsupported tree shape (arities must be powers of two the hasher supports; a top "
               "level needs a sub level)";
    case MERKLE_ERR_LEAVES:
        return "the leaf count does not fill the tree shape";
    case MERKLE_ERR_NOT_FR:
        return "a node is not a canonical field element (32 little-endian bytes below r)";
    case MERKLE_ERR_INDEX:
        return "leaf index or path position out of range";
    case MERKLE_ERR_ROOT:
        return "the path does not lead to the root";
    case MERKLE_ERR_NOMEM:
        return "out of memory";
    }
    return "unknown merkle error";
}

int merkle_hash_node(uint8_t out[32], tree_hasher h, const uint8_t *children, unsigned n) {
    if (h == TREE_HASH_SHA256) {
        if (n == 0)
            return MERKLE_ERR_SHAPE;
        sha256_trunc_native(out, children, (size_t)n * 32);
        return MERKLE_OK;
    }
    if (h != TREE_HASH_POSEIDON || !poseidon_arity_supported(n))
        return MERKLE_ERR_SHAPE;
    fr in[POSEIDON_MAX_ARITY], r;
    for (unsigned i = 0; i < n; i++)
        if (!fr_from_bytes_le(&in[i], children + 32 * i))
            return MERKLE_ERR_NOT_FR;
    if (poseidon_hash(&r, in, n) != 0)
        return MERKLE_ERR_SHAPE;
    fr_to_bytes_le(out, &r);
    return MERKLE_OK;
}

int merkle_shape_for_leaves(por_shape *out, tree_hasher h, unsigned base, unsigned sub,
                            unsigned top, size_t leaves) {
    por_shape s = {h, base, sub, top, 1};
    *out = (por_shape){h, base, sub, top, 0}; /* until one is found */
    if (por_shape_check(&s) != 0)
        return MERKLE_ERR_SHAPE;
    size_t trees = (size_t)(sub ? sub : 1) * (top ? top : 1);
    if (leaves == 0 || leaves % trees != 0)
        return MERKLE_ERR_LEAVES;
    size_t per = leaves / trees;
    unsigned k = 0;
    while (per > 1 && per % base == 0) {
        per /= base;
        k++;
    }
    if (per != 1 || k == 0)
        return MERKLE_ERR_LEAVES;
    s.base_levels = k;
    if (por_shape_check(&s) != 0)
        return MERKLE_ERR_SHAPE;
    *out = s;
    return MERKLE_OK;
}

void merkle_tree_free(merkle_tree *t) {
    for (unsigned l = 0; l <= POR_MAX_LEVELS; l++)
        free(t->row[l]);
    memset(t, 0, sizeof *t);
}

int merkle_tree_build(merkle_tree *t, tree_hasher h, unsigned base, unsigned sub, unsigned top,
                      const uint8_t *leaves, size_t n) {
    memset(t, 0, sizeof *t);
    por_shape s;
    int err = merkle_shape_for_leaves(&s, h, base, sub, top, n);
    if (err)
        return err;
    t->shape = s;
    t->leaves = n;
    t->levels = por_shape_levels(&s);
    t->width[0] = n;
    for (unsigned l = 0; l < t->levels; l++)
        t->width[l + 1] = t->width[l] / por_shape_arity(&s, l);
    for (unsigned l = 0; l <= t->levels; l++) {
        t->row[l] = malloc(t->width[l] * 32);
        if (!t->row[l]) {
            merkle_tree_free(t);
            return MERKLE_ERR_NOMEM;
        }
    }
    memcpy(t->row[0], leaves, n * 32);
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = por_shape_arity(&s, l);
        for (size_t j = 0; j < t->width[l + 1]; j++) {
            err = merkle_hash_node(t->row[l + 1] + 32 * j, h, t->row[l] + 32 * j * a, a);
            if (err) {
                merkle_tree_free(t);
                return err;
            }
        }
    }
    return MERKLE_OK;
}
