/* PoSt vanilla proofs: bincode FallbackPoStSectorProof, one per sector, as
 * Curio sends them in SubmitProofRequest.vanilla_proofs (rust-fil-proofs
 * storage-proofs-post fallback; layout documented by curio
 * lib/proof/post_vproof_bin_decode.go and shared/vectors/README.md):
 *
 *   u64 sector_id | comm_r[32] | u64 n_sectors | n_sectors x SectorProof
 *   SectorProof  = u64 n | n x MerkleProof | comm_c[32] | comm_r_last[32]
 *   MerkleProof  = u32 variant (0 Single: root leaf path; 1 Sub: base sub root
 *                  leaf; 2 Top: base sub top root leaf)
 *   path         = u64 n | n x (u64 n_hashes | n_hashes x 32 B | u64 index)
 *   all integers little-endian.
 *
 * The decoder is strict: every length is checked against the bytes left
 * before anything is allocated, every index against its arity, and (given
 * the registered PoSt proof) every shape against the sector size. */
#ifndef CUZK_FILECOIN_POST_VANILLA_H
#define CUZK_FILECOIN_POST_VANILLA_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle/inclusion_proof.h"
#include "filecoin/proof_types.h"

typedef struct {
    fc_inclusion_proof *proofs; /* one per challenge */
    size_t n_proofs;
    uint8_t comm_c[32];
    uint8_t comm_r_last[32];
} fc_post_sector_proof;

typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32];
    fc_post_sector_proof *sectors; /* Curio sends exactly one */
    size_t n_sectors;
    void *arena; /* owns everything above */
} fc_post_vanilla;

/* Decodes one FallbackPoStSectorProof occupying exactly len bytes.  With
 * expect non-NULL, also checks the tree shape of its sector size and the
 * challenge count (Window: 10; Winning: 66 per sector).  Returns 0, or -1
 * with a message naming the field (e.g. "sectors[0].inclusion_proofs[3].
 * base_proof[2].index: 9 is not below arity 8"). */
int fc_post_vanilla_decode(fc_post_vanilla *out, const uint8_t *buf, size_t len,
                           const fc_post_proof *expect, char *err, size_t errlen);
void fc_post_vanilla_free(fc_post_vanilla *v);

/* Writes the bincode form; returns the byte count (call with out NULL to size). */
size_t fc_post_vanilla_encode(uint8_t *out, const fc_post_vanilla *v);

/* Challenges per sector in the vanilla proof for a registered PoSt proof. */
unsigned fc_post_vanilla_challenges(const fc_post_proof *p);

#endif
