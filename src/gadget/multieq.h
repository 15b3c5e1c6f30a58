/* MultiEq (bellperson src/gadgets/multieq.rs): packs many "lhs = rhs"
 * equalities of bounded bit width into one constraint
 *     (sum_k 2^{s_k} lhs_k) * (ONE) = (sum_k 2^{s_k} rhs_k)
 * where s_k is the running bit offset.  Both sides of every equality must be
 * sums of bits below 2^{num_bits}, so packed equalities cannot carry into one
 * another as long as the total width stays below Fr's capacity (254 bits).
 *
 * The packing decides the constraint order of every SHA-256 circuit: the
 * pending constraint is emitted only when the next equality would not fit
 * (bits_used + num_bits >= 254) and when the MultiEq is dropped
 * (gmultieq_finish), never earlier. */
#ifndef CUZK_GADGET_MULTIEQ_H
#define CUZK_GADGET_MULTIEQ_H

#include <stddef.h>

#include "r1cs/cs.h"
#include "r1cs/lc.h"

/* Fr::CAPACITY for BLS12-381: NUM_BITS - 1. */
#define GMULTIEQ_CAPACITY 254u

typedef struct {
    r1cs_cs *cs;
    size_t ops;         /* constraints emitted so far (names "multieq N") */
    unsigned bits_used; /* width of the pending packed equality */
    r1cs_lc lhs, rhs;
} gmultieq;

void gmultieq_init(gmultieq *m, r1cs_cs *cs);
/* Adds lhs = rhs (each below 2^num_bits, num_bits < 254), first emitting the
 * pending constraint if this one would not fit. */
void gmultieq_enforce_equal(gmultieq *m, unsigned num_bits, const r1cs_lc *lhs, const r1cs_lc *rhs);
/* Upstream's Drop: emits the pending constraint if any, frees the LCs. */
void gmultieq_finish(gmultieq *m);

#endif
