/* SHA-256 circuit (bellperson src/gadgets/sha256.rs).
 *
 * Bits are big-endian: message byte 0's most significant bit first, and the
 * digest likewise.  The compression function packs every addition of a
 * block into one MultiEq, so its constraint order (and that of everything
 * synthesized after it) follows upstream's flush points; the additions that
 * produce the new a and e are deferred ("Maybe") and done at the start of the
 * next round, or folded into h0 / h4 after round 63, as upstream does. */
#ifndef CUZK_GADGET_SHA256_H
#define CUZK_GADGET_SHA256_H

#include <stddef.h>

#include "gadget/boolean.h"
#include "gadget/uint32.h"

/* The standard initial hash value as 8 constant words. */
void gsha256_iv(gu32 out[8]);

/* One compression: state_out = compress(state_in, block of 512 bits).  One
 * MultiEq for the whole block, flushed before returning.  state_out may alias
 * state_in. */
void gsha256_compress(r1cs_cs *cs, gu32 state_out[8], const gu32 state_in[8],
                      const gbool block[512]);

/* sha256_block_no_padding: compress one 512-bit block from the IV; 256 bits
 * out, big-endian. */
void gsha256_block_no_padding(r1cs_cs *cs, gbool out[256], const gbool block[512]);

/* The SHA-256 digest of nbits input bits, padding appended as constant bits.
 * Upstream asserts whole bytes: returns -1 (and touches nothing) when nbits
 * is not a multiple of 8 or too large, 0 otherwise. */
int gsha256(r1cs_cs *cs, gbool out[256], const gbool *in, size_t nbits);

#endif
