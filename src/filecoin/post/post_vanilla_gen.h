/* Generating PoSt vanilla proofs from a sealed sector's tree R, as
 * rust-fil-proofs' generate_single_vanilla_proof does (storage-proofs-post
 * fallback vanilla.rs): for each challenge of the sector, the inclusion path
 * of the challenged replica leaf in tree R, plus comm_c and comm_r_last.
 * The result is the bincode FallbackPoStSectorProof that Curio sends in
 * SubmitProofRequest.vanilla_proofs (post_vanilla.h).
 *
 * WindowPoSt: the proof's challenge_count (10) challenges for the sector in
 * `slot` (partition * sector_count + position; the V1_1 proofs ignore it).
 * WinningPoSt: 66 challenges, challenge n with index n. */
#ifndef CUZK_FILECOIN_POST_VANILLA_GEN_H
#define CUZK_FILECOIN_POST_VANILLA_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/proof_types.h"

typedef struct {
    const merkle_tree *tree_r; /* the sector's tree R (leaves = the replica) */
    uint8_t comm_c[32], comm_r_last[32], comm_r[32];
    uint64_t sector_id;
    /* With tree_r NULL: the proof of leaf i of a tree R held elsewhere (a
     * sparse one), merkle_proof_free'd here: MERKLE_OK or a MERKLE_ERR_*. */
    int (*proof_fn)(void *ctx, uint64_t i, merkle_proof *out);
    void *proof_ctx;
} fc_post_sector;

/* Writes the bincode proof into a malloc'd buffer (*out, *len).  Returns 0,
 * or -1 with a message (tree shape not the proof's sector size, randomness
 * not an Fr, tree root not comm_r_last, out of memory). */
int fc_post_vanilla_generate(uint8_t **out, size_t *len, const fc_post_proof *p,
                             const fc_post_sector *s, const uint8_t randomness[32], uint64_t slot,
                             char *err, size_t errlen);

#endif
