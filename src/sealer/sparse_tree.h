/* A sparse Merkle tree: the trees of merkle_tree.h (same hashers, same
 * base-sub-top shapes, same proofs) over a sector where every leaf is zero
 * except a few set ones.
 *
 * Only the set leaves and their ancestors are stored, one sorted array of
 * (index, node) per level; a node with no set leaf below it is the hash of an
 * all-zero subtree of its level, taken from a table computed once per level.
 * Memory and time are O(set leaves x path length), whatever the leaf count,
 * so a 32 GiB or 64 GiB sector's trees D, C and R cost kilobytes.
 *
 * Use: sparse_tree_init, sparse_tree_set for every non-zero leaf,
 * sparse_tree_build, then root / leaf / proof queries. */
#ifndef CUZK_SEALER_SPARSE_TREE_H
#define CUZK_SEALER_SPARSE_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"

typedef struct {
    uint64_t index;
    uint8_t node[32];
} sparse_node;

typedef struct {
    por_shape shape;
    uint64_t leaves;
    unsigned levels;                      /* path elements */
    int built;                            /* sparse_tree_build done: no more sets */
    uint8_t zero[POR_MAX_LEVELS + 1][32]; /* an all-zero subtree's root at level l */
    sparse_node *row[POR_MAX_LEVELS + 1]; /* sorted by index, unique */
    size_t count[POR_MAX_LEVELS + 1];
    size_t cap0; /* allocated entries of row[0] while leaves are set */
} sparse_tree;

/* An empty tree of `leaves` leaves in the shape base^k * sub * top (sub/top
 * 0: absent), as merkle_shape_for_leaves.  Returns MERKLE_OK or an error;
 * sparse_tree_free is safe either way. */
int sparse_tree_init(sparse_tree *t, tree_hasher h, unsigned base, unsigned sub, unsigned top,
                     uint64_t leaves);

/* Sets leaf i (before sparse_tree_build).  Setting an index again replaces
 * its value.  MERKLE_ERR_INDEX (i out of range, or already built),
 * MERKLE_ERR_NOT_FR (a Poseidon tree's leaf that is not canonical),
 * MERKLE_ERR_NOMEM. */
int sparse_tree_set(sparse_tree *t, uint64_t i, const uint8_t leaf[32]);

/* Hashes the set leaves' ancestors up to the root. */
int sparse_tree_build(sparse_tree *t);

/* The root (after build). */
const uint8_t *sparse_tree_root(const sparse_tree *t);

/* Node j of level l (0: leaves): the stored one or the zero subtree's hash. */
const uint8_t *sparse_tree_node(const sparse_tree *t, unsigned l, uint64_t j);

/* The inclusion proof of leaf i, exactly as merkle_proof_gen gives it for the
 * dense tree (p->siblings allocated: merkle_proof_free). */
int sparse_tree_proof(merkle_proof *p, const sparse_tree *t, uint64_t i);

void sparse_tree_free(sparse_tree *t);

#endif
