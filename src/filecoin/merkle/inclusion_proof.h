/* A Merkle inclusion proof as rust-fil-proofs' MerkleProof carries it
 * (storage-proofs-core merkle/proof.rs; facts §2.4): Single, Sub or Top, with
 * the path elements leaf -> root (base levels, then the one sub level, then
 * the one top level).  Each element holds the arity-1 siblings and the
 * position of the running node among them.
 *
 * The struct only points into memory that its container owns (an arena of
 * the decoded vanilla proof); it has no free function of its own. */
#ifndef CUZK_FILECOIN_INCLUSION_PROOF_H
#define CUZK_FILECOIN_INCLUSION_PROOF_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle/merkle_proof.h"

typedef enum { FC_PROOF_SINGLE = 0, FC_PROOF_SUB = 1, FC_PROOF_TOP = 2 } fc_proof_kind;

typedef struct {
    uint32_t n_hashes;           /* arity - 1 */
    uint32_t index;              /* 0 .. arity-1 */
    const uint8_t (*hashes)[32]; /* n_hashes siblings, 32-byte LE domain values */
} fc_path_elem;

typedef struct {
    fc_proof_kind kind;
    uint8_t root[32];
    uint8_t leaf[32];
    uint32_t n_base, n_sub, n_top; /* n_sub, n_top are 0 or 1 */
    const fc_path_elem *elems;     /* n_base + n_sub + n_top, leaf to root */
} fc_inclusion_proof;

static inline size_t fc_inclusion_levels(const fc_inclusion_proof *p) {
    return (size_t)p->n_base + p->n_sub + p->n_top;
}

/* The leaf index the path encodes: fold from the root end, acc = acc*arity + index. */
uint64_t fc_inclusion_leaf_index(const fc_inclusion_proof *p);

/* A copy in merkle_proof form (merkle_proof.h: shape + flat siblings), whose
 * verifier and witness builder serve every decoded proof.  h names the tree's
 * hash.  Returns 0, or -1 when the levels do not form a por_shape (mixed base
 * arities, a sub/top level of another form) or memory runs out.  The copy
 * owns its siblings: merkle_proof_free. */
int fc_inclusion_to_merkle(merkle_proof *out, const fc_inclusion_proof *in, tree_hasher h);

#endif
