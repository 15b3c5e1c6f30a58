/* SnapDeals (empty sector update) vanilla proofs: the bincode PartitionProof
 * that Curio sends, one per partition, in SubmitProofRequest.vanilla_proofs
 * (rust-fil-proofs storage-proofs-update vanilla.rs; docs/SNAPDEALS.md 2):
 *
 *   PartitionProof = comm_c 32 | u64 A ; A x apex leaf 32 | u64 C ; C x ChallengeProof
 *   ChallengeProof = proof_r_old | proof_d_new | proof_r_new   (MerkleProofs, bincode.h)
 *
 * proof_r_old / proof_r_new open the old and new replica in tree R (Poseidon,
 * base-sub-top as the sector size), proof_d_new the new data in tree D
 * (binary SHA-256, always Single).  The apex leaves are partition k's run of
 * tree D's row at height bits - partition_bits - apex_bits.
 *
 * The decoder is stricter than Rust's bincode::deserialize: given the
 * registered update proof, every count and path shape must be that size's,
 * every 32-byte value a canonical field element (Rust panics on one that is
 * not), and no byte may follow the proof. */
#ifndef CUZK_FILECOIN_SNAP_VANILLA_H
#define CUZK_FILECOIN_SNAP_VANILLA_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle/inclusion_proof.h"
#include "filecoin/proof_types.h"

/* Why a SnapDeals request or vanilla proof was refused (docs/SNAPDEALS.md
 * 2.1, 3.4).  0 is success; every failure is negative, so `rc < 0` tests
 * for one.  SNAP_E_NOMEM alone says nothing about the input. */
typedef enum {
    SNAP_OK = 0,
    SNAP_E_NOMEM = -1,          /* an allocation failed; the same request may succeed later */
    SNAP_E_PROOF_TYPE = -2,     /* unknown registered proof, wrong sector size, bad h */
    SNAP_E_COMM = -3,           /* a commitment of the request is missing or not an Fr */
    SNAP_E_COUNT = -4,          /* not one vanilla proof per partition */
    SNAP_E_TRUNCATED = -5,      /* fewer bytes than a field needs */
    SNAP_E_TRAILING = -6,       /* bytes after the PartitionProof */
    SNAP_E_LENGTH = -7,         /* apex_leafs or challenge_proofs of the wrong length */
    SNAP_E_VARIANT = -8,        /* a MerkleProof variant that is not the size's */
    SNAP_E_SHAPE = -9,          /* a path with the wrong element or sibling count */
    SNAP_E_INDEX = -10,         /* a path index not below its arity */
    SNAP_E_NOT_FR = -11,        /* a 32-byte value >= r */
    SNAP_E_CHALLENGE = -12,     /* a proof opens another node than its challenge */
    SNAP_E_ROOT = -13,          /* a path does not hash to its root */
    SNAP_E_ROOT_MISMATCH = -14, /* a root differs from root_r_old / comm_d_new / root_r_new */
    SNAP_E_COMM_R = -15,        /* Poseidon2(comm_c, root_r) is not comm_r_old / comm_r_new */
    SNAP_E_ENCODING = -16,      /* leaf_r_new != leaf_r_old + leaf_d_new * rho */
    SNAP_E_APEX = -17,          /* apex leaves do not agree with the tree D paths or comm_d_new */
    SNAP_E_PARTITION_PATH =
        -18 /* the top partition_bits tree D siblings differ between challenges */
} snap_status;

/* "SNAP_E_APEX" and so on ("SNAP_OK" for 0). */
const char *snap_status_name(int code);

typedef struct {
    fc_inclusion_proof r_old; /* tree R old (the sector key) */
    fc_inclusion_proof d_new; /* tree D new */
    fc_inclusion_proof r_new; /* tree R new */
} fc_snap_challenge_proof;

typedef struct {
    uint8_t comm_c[32];
    const uint8_t (*apex_leaves)[32];
    size_t n_apex;
    fc_snap_challenge_proof *challenges;
    size_t n_challenges;
    void *arena; /* owns everything above (decoded proofs) */
} fc_snap_vanilla;

/* Bytes of one PartitionProof of p (15,064 at 2 KiB, 43,864 at 8 MiB). */
size_t fc_snap_vanilla_size(const fc_update_proof *p);

/* Decodes one PartitionProof occupying exactly len bytes.  With expect
 * non-NULL every count and shape must be that proof's; with NULL only the
 * structure is checked.  Every 32-byte value must be a canonical Fr.
 * Returns SNAP_OK, or a SNAP_E_* code with a message naming the field, e.g.
 * "challenge_proofs[3].proof_r_new.path[2].hashes: expected 7 elements, got 6". */
int fc_snap_vanilla_decode(fc_snap_vanilla *out, const uint8_t *buf, size_t len,
                           const fc_update_proof *expect, char *err, size_t errlen);
void fc_snap_vanilla_free(fc_snap_vanilla *v);

/* Writes the bincode form; returns the byte count (out NULL: only counts). */
size_t fc_snap_vanilla_encode(uint8_t *out, const fc_snap_vanilla *v);

#endif
