/* Packing bits into public inputs, as bellperson src/gadgets/multipack.rs
 * (filecoin-facts.md 5.2): the bits are cut into chunks of Fr's CAPACITY
 * (254) bits, least significant first, each chunk one input. */
#ifndef CUZK_GADGET_MULTIPACK_H
#define CUZK_GADGET_MULTIPACK_H

#include <stddef.h>
#include <stdint.h>

#include "gadget/boolean.h"
#include "gadget/num.h"
#include "r1cs/cs.h"

#define MULTIPACK_CHUNK 254 /* Fr::CAPACITY */

/* Number of inputs / field elements for nbits bits. */
static inline size_t multipack_count(size_t nbits) {
    return (nbits + MULTIPACK_CHUNK - 1) / MULTIPACK_CHUNK;
}

/* pack_into_inputs: per chunk i, alloc_input x_i, then
 * (sum_j 2^j bit_j) * (ONE) = (x_i).  One constraint per chunk. */
void multipack_pack_into_inputs(r1cs_cs *cs, const gbool *bits, size_t nbits);

/* pack_bits: the first min(nbits, 254) bits as one private num x (one aux
 * variable), then (sum_j 2^j bit_j) * (ONE) = (x).  One constraint. */
gnum multipack_pack_bits(r1cs_cs *cs, const gbool *bits, size_t nbits);

/* compute_multipacking: the field elements those inputs take, out[0 ..
 * multipack_count(nbits) - 1], from plain bits (each 0 or 1). */
void multipack_compute(fr *out, const uint8_t *bits, size_t nbits);

#endif
