/* The SDR label: rust-fil-proofs storage-proofs-porep
 * src/stacked/circuit/create_label.rs (the circuit) and
 * vanilla/create_label/single.rs (the native form); filecoin-facts.md 3.3.
 *
 *   label = SHA-256(replica_id (32 B) || layer (u32 big-endian) ||
 *                   node (u64 big-endian) || 20 zero bytes ||
 *                   37 parent labels (32 B each)),  byte 31 &= 0x3f
 *
 * 1,248 bytes, 20 SHA-256 blocks after padding.  The circuit feeds the
 * message bits most significant first per byte, reverses the digest's bits
 * per byte (reverse_bit_numbering) and packs the first 254 into one num
 * (multipack pack_bits): the same value as the trimmed native digest read
 * as a little-endian field element. */
#ifndef CUZK_FILECOIN_LABEL_CIRCUIT_H
#define CUZK_FILECOIN_LABEL_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "gadget/boolean.h"
#include "gadget/num.h"
#include "gadget/uint32.h"
#include "gadget/uint64.h"
#include "r1cs/cs.h"

#define LABEL_PARENTS 37 /* TOTAL_PARENTS: 6 DRG + 8 expander, repeated */
#define LABEL_MESSAGE_BYTES (64 + 32 * LABEL_PARENTS)

/* create_label_circuit.  replica_id: id_bits bits (32 <= id_bits <= 256) in
 * message order (each byte MSB first), padded with constant 0s to 256;
 * parents: LABEL_PARENTS x 256 bits, parent after parent, in message order;
 * layer and node as UInt32 / UInt64.  out = the label as a num.  Returns 0,
 * or -1 (nothing allocated) if id_bits is out of range. */
int label_circuit_create(r1cs_cs *cs, gnum *out, const gbool *replica_id, size_t id_bits,
                         const gbool *parents, const gu32 *layer, const gu64 *node);

/* The native label: out = trimmed SHA-256 of the message above; parents
 * holds LABEL_PARENTS x 32 bytes, or is NULL for node 0, whose vanilla
 * label hashes only the first 64 bytes. */
void label_native(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                  const uint8_t *parents);

/* bytes_into_boolean_vec_be (storage-proofs-core util.rs): n bytes as 8n
 * allocated bits, each byte most significant bit first (namespaces "bit i").
 * bytes may be NULL (unknown values). */
void label_alloc_bytes_be(r1cs_cs *cs, gbool *out, const uint8_t *bytes, size_t n);

#endif
