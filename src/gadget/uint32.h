/* UInt32 (bellperson src/gadgets/uint32.rs): 32 gbools, least significant
 * bit first, with the word's value cached when every bit's value is known.
 * rotr and shr only re-wire bits (shr shifts in constant false bits, which
 * later make XORs free); xor, sha256_ch/maj work bit by bit from bit 0 up;
 * addmany allocates its result bits and defers the sum equality to MultiEq. */
#ifndef CUZK_GADGET_UINT32_H
#define CUZK_GADGET_UINT32_H

#include <stdint.h>

#include "gadget/boolean.h"
#include "gadget/multieq.h"

typedef struct {
    gbool bits[32]; /* bits[0] is the least significant */
    int has_value;
    uint32_t value;
} gu32;

gu32 gu32_constant(uint32_t v);
/* 32 allocated bits (AllocatedBit::alloc each, LSB first); value may be NULL
 * when the mode has no values. */
gu32 gu32_alloc(r1cs_cs *cs, const uint32_t *value);
/* From 32 booleans most significant first (SHA-256's message order), and back. */
gu32 gu32_from_bits_be(const gbool bits[32]);
void gu32_to_bits_be(gbool out[32], const gu32 *a);

gu32 gu32_rotr(const gu32 *a, unsigned by);
gu32 gu32_shr(const gu32 *a, unsigned by);

gu32 gu32_xor(r1cs_cs *cs, const gu32 *a, const gu32 *b);
gu32 gu32_sha256_ch(r1cs_cs *cs, const gu32 *a, const gu32 *b, const gu32 *c);
gu32 gu32_sha256_maj(r1cs_cs *cs, const gu32 *a, const gu32 *b, const gu32 *c);

/* Sum of n operands mod 2^32, 2 <= n <= 10 (aborts otherwise, as upstream
 * panics).  All-constant operands give a constant and no constraint; else
 * allocates bitlen(n * (2^32 - 1)) result bits and hands
 *   sum_ops sum_i 2^i op_i  ==  sum_i 2^i result_i
 * to m.  The carry bits are constrained but dropped. */
gu32 gu32_addmany(gmultieq *m, const gu32 *ops, unsigned n);

#endif
