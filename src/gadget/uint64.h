/* UInt64 (rust-fil-proofs storage-proofs-core src/gadgets/uint64.rs): 64
 * gbools, least significant bit first, with the value cached when known.
 * The PoRep circuit allocates each challenge as one (label node number) and
 * packs it into a public input. */
#ifndef CUZK_GADGET_UINT64_H
#define CUZK_GADGET_UINT64_H

#include <stdint.h>

#include "gadget/boolean.h"
#include "r1cs/cs.h"

typedef struct {
    gbool bits[64]; /* bits[0] is the least significant */
    int has_value;
    uint64_t value;
} gu64;

/* UInt64::constant: 64 constant bits, no variables. */
gu64 gu64_constant(uint64_t v);
/* UInt64::alloc: 64 AllocatedBits, LSB first (namespaces "allocated bit i"),
 * one booleanity constraint each; value may be NULL (unknown). */
gu64 gu64_alloc(r1cs_cs *cs, const uint64_t *value);
/* to_bits_be: the 64 bits, most significant first. */
void gu64_to_bits_be(gbool out[64], const gu64 *a);
/* pack_into_input: multipack's pack_into_inputs over the LE bits (one
 * input, one constraint). */
void gu64_pack_into_input(r1cs_cs *cs, const gu64 *a);

#endif
