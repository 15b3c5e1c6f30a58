/* Native Merkle inclusion proofs in rust-fil-proofs' structure
 * (storage-proofs-core src/merkle/proof.rs; filecoin-facts.md 2.4): a proof
 * is the leaf, the root and, per path element from the leaf up, the running
 * node's position among its siblings (`index`) and the arity - 1 siblings in
 * order.  The elements group into Single (base only), Sub (base + one sub
 * element) or Top (base + sub + top element), as ProofData's variants; the
 * circuit consumes them in that order (base, sub, top).
 *
 * The leaf index is the fold from the root end, acc = acc * arity + index
 * (path_index). */
#ifndef CUZK_FILECOIN_MERKLE_PROOF_H
#define CUZK_FILECOIN_MERKLE_PROOF_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle/merkle_tree.h"
#include "gadget/por.h"

typedef enum { MERKLE_SINGLE = 0, MERKLE_SUB = 1, MERKLE_TOP = 2 } merkle_proof_kind;

typedef struct {
    por_shape shape;
    uint8_t leaf[32], root[32];
    uint32_t index[POR_MAX_LEVELS]; /* per element, leaf to root */
    uint8_t *siblings;              /* por_shape_siblings(&shape) nodes of 32 bytes */
} merkle_proof;

static inline merkle_proof_kind merkle_proof_get_kind(const merkle_proof *p) {
    return p->shape.top ? MERKLE_TOP : p->shape.sub ? MERKLE_SUB : MERKLE_SINGLE;
}

/* The proof of leaf i.  p->siblings is allocated here (merkle_proof_free). */
int merkle_proof_gen(merkle_proof *p, const merkle_tree *t, uint64_t i);
void merkle_proof_free(merkle_proof *p);

/* Sibling k of element l (k < arity - 1). */
const uint8_t *merkle_proof_sibling(const merkle_proof *p, unsigned l, unsigned k);

/* The leaf index the path encodes (path_index). */
uint64_t merkle_proof_leaf_index(const merkle_proof *p);

/* Recomputes the root from the leaf along the path: MERKLE_OK when it is
 * p->root, MERKLE_ERR_ROOT when not, MERKLE_ERR_SHAPE / MERKLE_ERR_INDEX /
 * MERKLE_ERR_NOT_FR for a malformed proof. */
int merkle_proof_verify(const merkle_proof *p);

/* The circuit's witness: index[] (por_shape_levels entries) and siblings[]
 * (por_shape_siblings), leaf and root as field elements; MERKLE_ERR_NOT_FR
 * if a node is not canonical. */
int merkle_proof_witness(const merkle_proof *p, uint32_t *index, fr *siblings, fr *leaf, fr *root);

#endif
