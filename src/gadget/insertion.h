/* Insertion of one AllocatedNum into a vector of them at a position given by
 * index bits, as rust-fil-proofs storage-proofs-core src/gadgets/insertion.rs
 * (filecoin-facts.md 3.4).  A Merkle path level uses it to put the running
 * node among its siblings before hashing them.
 *
 * Every output is a new variable made by pick (c = cond ? a : b, one
 * variable, one constraint (b - a) * (cond) = (b - c)).  Sizes 2, 4 and 8 use
 * upstream's hand-written selection networks (2, 8 and 22 constraints, 8 also
 * allocating b0 NOR b1 and b0 AND b1 first); other powers of two use the
 * general form, one select per output position (size (size - 1)
 * constraints).  Variable and constraint order follow upstream exactly. */
#ifndef CUZK_GADGET_INSERTION_H
#define CUZK_GADGET_INSERTION_H

#include <stddef.h>

#include "gadget/boolean.h"
#include "gadget/num.h"
#include "r1cs/cs.h"

/* Largest number of index bits insert accepts (size 32). */
#define INSERTION_MAX_BITS 5
/* Largest for select (size 256; SnapDeals picks an apex leaf among 128). */
#define INSERTION_SELECT_MAX_BITS 8

/* pick: c = cond ? a : b; (b - a) * (cond) = (b - c). */
gnum insertion_pick(r1cs_cs *cs, gbool cond, const gnum *a, const gnum *b);

/* select: from[index] where index = bits LSB first, n = 2^nbits; a binary
 * tree of picks consuming the most significant bit first (n - 1
 * constraints).  Returns -1 (nothing allocated) if nbits is 0 or above
 * INSERTION_SELECT_MAX_BITS. */
int insertion_select(r1cs_cs *cs, gnum *out, const gnum *from, const gbool *bits, unsigned nbits);

/* insert: out[0 .. 2^nbits - 1] = elements[0 .. 2^nbits - 2] with element
 * placed at position index (bits LSB first): out[index] = element, the
 * others keep their order.  Returns -1 (nothing allocated) when nbits is 0
 * or above INSERTION_MAX_BITS, or, for size 8, when bits[0] or bits[1] is
 * not an unnegated allocated bit (upstream panics there). */
int insertion_insert(r1cs_cs *cs, gnum *out, const gnum *element, const gbool *bits, unsigned nbits,
                     const gnum *elements);

/* The constraints insert adds for size 2^nbits (0 if unsupported). */
size_t insertion_constraints(unsigned nbits);

#endif
