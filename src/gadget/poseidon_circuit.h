/* neptune's Poseidon circuit (neptune::circuit::poseidon_hash, the "legacy"
 * circuit every Filecoin circuit uses; filecoin-facts.md 4.6), MerkleTree
 * hash type, for the arities poseidon_neptune_get supports (Filecoin uses 2,
 * 4, 8, 11; 16, 24, 36 run the same code).
 *
 * The constraints use neptune's optimized-form constants (poseidon_neptune.h)
 * and follow its order: per S-box, ensure_allocated (a linear combination
 * becomes one variable + (lc) * (ONE) = (v)), then l^2, l^4 and l^5 + key;
 * the first round squares (l + pre); the tag's first S-box is a constant.
 * Constraints per hash: 3 (t R_F + R_P - 1) + (t R_F + R_P - arity), e.g.
 * 311 / 377 / 505 / 598 for arities 2 / 4 / 8 / 11. */
#ifndef CUZK_GADGET_POSEIDON_CIRCUIT_H
#define CUZK_GADGET_POSEIDON_CIRCUIT_H

#include "gadget/num.h"
#include "r1cs/cs.h"

/* Largest arity the replay of recorded hashes covers (modes without values,
 * see poseidon_circuit.c); larger ones always run the gadget. */
#define POSEIDON_CIRCUIT_MAX_ARITY 36

/* out = Poseidon-MerkleTree(preimage[0 .. arity-1]) as an allocated num.
 * Returns 0, or -1 (nothing allocated) for an unsupported arity or when the
 * constants cannot be built.  Other failures are the cs's sticky errors. */
int poseidon_circuit_hash(r1cs_cs *cs, const gnum *preimage, unsigned arity, gnum *out);

/* The same circuit with state[0] = tag (a neptune Custom hash type, see
 * poseidon_custom_tag): only the constant first S-box of the tag differs, so
 * the count is the same. */
int poseidon_circuit_hash_tagged(r1cs_cs *cs, const gnum *preimage, unsigned arity, const fr *tag,
                                 gnum *out);

/* x = Poseidon(a, b): the hash under namespace ns, then (x) * (ONE) = (hash)
 * as the constraint `name` (how comm_r is tied to comm_c and comm_r_last).
 * Returns 0 or -1 as poseidon_circuit_hash. */
int poseidon_circuit_hash2_is(r1cs_cs *cs, const char *ns, gnum a, gnum b, gnum x,
                              const char *name);

/* The formula above; 0 for an unsupported arity. */
size_t poseidon_circuit_constraints(unsigned arity);

#endif
