/* The node hashes of Filecoin's Merkle trees as circuits: rust-fil-proofs
 * filecoin-hashers' HashFunction::hash_multi_leaf_circuit and the SHA-256
 * helpers beside it (sha256.rs, poseidon.rs; filecoin-facts.md 3.4, 5.3).
 *
 *   Poseidon: neptune's poseidon_hash over the children (arity = count).
 *   SHA-256:  each child to_bits_le (non-strict, 255 bits + 1 constraint),
 *             padded with a constant 0 to 256 bits, the bits of every byte
 *             reversed (so the message is the child's 32 little-endian bytes,
 *             each byte most significant bit first), SHA-256 over the
 *             concatenation, the digest's bits reversed per byte again and the
 *             first 254 packed into one num (multipack pack_bits) - i.e. the
 *             digest read as a little-endian integer with byte 31 & 0x3f, the
 *             native "trimmed" SHA-256. */
#ifndef CUZK_GADGET_TREE_HASH_H
#define CUZK_GADGET_TREE_HASH_H

#include <stddef.h>

#include "gadget/boolean.h"
#include "gadget/num.h"
#include "r1cs/cs.h"

typedef enum { TREE_HASH_POSEIDON = 0, TREE_HASH_SHA256 = 1 } tree_hasher;

/* Most children one SHA-256 node hash takes here (a 16-ary node, 4 KiB). */
#define TREE_HASH_SHA256_MAX_CHILDREN 16

/* out = H(children[0 .. n-1]) (hash_multi_leaf_circuit).  Poseidon needs an
 * arity neptune supports (2, 4, 8, 11, 16, 24, 36); SHA-256 any 1 <= n <=
 * TREE_HASH_SHA256_MAX_CHILDREN.  Returns 0, or -1 (nothing allocated) for an
 * unsupported hasher or count. */
int tree_hash_circuit(r1cs_cs *cs, tree_hasher h, const gnum *children, unsigned n, gnum *out);

/* Sha256Function::hash_circuit: SHA-256 of nbits message bits (whole bytes),
 * bits re-numbered per byte, first 254 packed.  -1 if nbits % 8 != 0. */
int tree_hash_sha256_bits(r1cs_cs *cs, const gbool *bits, size_t nbits, gnum *out);

/* Sha256Function::hash_leaf_bits_circuit: left and right (little-endian bit
 * strings, each padded with constant 0s to whole bytes and re-numbered per
 * byte), concatenated, then hash_circuit.  nleft, nright <= 256. */
int tree_hash_sha256_leaf_bits(r1cs_cs *cs, const gbool *left, size_t nleft, const gbool *right,
                               size_t nright, gnum *out);

/* reverse_bit_numbering (storage-proofs-core util.rs): pads in[0..n-1] with
 * constant 0s to whole bytes and reverses the bit order inside each byte.
 * out must hold (n + 7) / 8 * 8 entries; returns that count.  out must not
 * alias in. */
size_t tree_hash_reverse_bit_numbering(gbool *out, const gbool *in, size_t n);

#endif
