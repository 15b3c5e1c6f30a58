/* Native Merkle trees as rust-fil-proofs builds them (merkletree crate under
 * storage-proofs-core; filecoin-facts.md 2.4, 3.4, 5.3):
 *
 *   Poseidon trees (R, C): node = Poseidon-MerkleTree(children), arity 2, 4
 *   or 8 (neptune v11, gadget/poseidon.h).  SHA-256 tree (D): node =
 *   SHA-256(children's 32 bytes concatenated) with byte 31 &= 0x3f.  Leaves
 *   are the data nodes themselves (Algorithm::leaf is the identity).
 *
 *   Compound shapes: `sub` base trees (each over a contiguous run of leaves)
 *   combine into a sub-tree whose root is H(their roots) (MerkleTree::
 *   from_trees, multi_node with arity = sub); `top` such sub-trees combine the
 *   same way (from_sub_trees).  That is one tree whose levels have mixed
 *   arity: base_levels levels of the base arity, then one of `sub`, then one
 *   of `top`, which is how it is stored here.
 *
 * Layout: row[l] is a flat array of width[l] nodes of 32 bytes each
 * (little-endian field elements), row[0] the leaves, row[levels] the root.
 * Sizes are meant for tests and the test-data sealer (a 2 KiB sector has 64
 * leaves); everything lives in memory. */
#ifndef CUZK_FILECOIN_MERKLE_TREE_H
#define CUZK_FILECOIN_MERKLE_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "gadget/por.h"

enum {
    MERKLE_OK = 0,
    MERKLE_ERR_SHAPE,  /* arities not 2/4/8/16 (Poseidon: 2/4/8/16), top without sub */
    MERKLE_ERR_LEAVES, /* the leaf count does not fill the shape exactly */
    MERKLE_ERR_NOT_FR, /* a Poseidon input is not a canonical field element */
    MERKLE_ERR_INDEX,  /* a leaf index or a path position is out of range */
    MERKLE_ERR_ROOT,   /* a proof's path does not lead to its root */
    MERKLE_ERR_NOMEM,
};

/* A short description of a MERKLE_ERR_* code. */
const char *merkle_strerror(int err);

typedef struct {
    por_shape shape; /* base_levels is derived from the leaf count */
    size_t leaves;
    unsigned levels; /* path length: por_shape_levels(&shape) */
    size_t width[POR_MAX_LEVELS + 1];
    uint8_t *row[POR_MAX_LEVELS + 1];
} merkle_tree;

/* out = H(children[0 .. n-1]), children as n consecutive 32-byte nodes.
 * Poseidon needs n in {2, 4, 8, 16, 11, 24, 36} and canonical children.
 * Returns MERKLE_OK, MERKLE_ERR_SHAPE or MERKLE_ERR_NOT_FR. */
int merkle_hash_node(uint8_t out[32], tree_hasher h, const uint8_t *children, unsigned n);

/* The shape for `leaves` leaves: base_levels such that
 * leaves = base^base_levels * max(sub, 1) * max(top, 1), base_levels >= 1,
 * and por_shape_check holds.  MERKLE_ERR_SHAPE / MERKLE_ERR_LEAVES when there
 * is none; *out then has these arities and base_levels 0. */
int merkle_shape_for_leaves(por_shape *out, tree_hasher h, unsigned base, unsigned sub,
                            unsigned top, size_t leaves);

/* Builds the tree over n leaves (n * 32 bytes, copied).  On error t is left
 * empty (merkle_tree_free is still safe). */
int merkle_tree_build(merkle_tree *t, tree_hasher h, unsigned base, unsigned sub, unsigned top,
                      const uint8_t *leaves, size_t n);
void merkle_tree_free(merkle_tree *t);

/* The root node (row[levels]). */
static inline const uint8_t *merkle_tree_root(const merkle_tree *t) { return t->row[t->levels]; }
/* Node j of row l. */
static inline const uint8_t *merkle_tree_node(const merkle_tree *t, unsigned l, size_t j) {
    return t->row[l] + 32 * j;
}

#endif
