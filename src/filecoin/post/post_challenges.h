/* Fallback PoSt challenges (filecoin-facts §3.10; rust-fil-proofs
 * storage-proofs-post/src/fallback/{vanilla.rs, utils.rs, compound.rs}).
 *
 * Leaf challenge of a sector = LE u64 of sha256(randomness ‖ sector_id u64 LE ‖
 * challenge_index u64 LE)[0..8] mod nodes.  The challenge index of challenge n
 * of the sector in slot s = partition*sector_count + i of the proof is
 *   s*challenge_count + n   for ApiVersion 1.0/1.1 (Winning, Window V1), and
 *   n                        for ApiVersion 1.2 (Window V1_1, the "grindability
 *                            fix": a sector's challenges no longer depend on
 *                            where it sits in the proof).
 * Winning PoSt's circuit has 66 one-challenge sector slots holding the same
 * sector, so its slot s uses index s (fc_post_proof has sector_count 66,
 * challenge_count 1).
 * Randomness (and, for Winning sector selection, the prover id) must be a
 * canonical Fr: rust-fil-proofs' as_safe_commitment rejects anything else. */
#ifndef CUZK_FILECOIN_POST_CHALLENGES_H
#define CUZK_FILECOIN_POST_CHALLENGES_H

#include <stdint.h>

#include "filecoin/proof_types.h"

/* 1 if the 32 LE bytes are < r (a valid Fr repr), else 0. */
int fc_post_randomness_ok(const uint8_t randomness[32]);

uint64_t fc_post_challenge_index(int grindability_fix, uint64_t sector_slot,
                                 uint64_t challenge_count, uint64_t n);
uint64_t fc_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id,
                                uint64_t challenge_index, uint64_t nodes);

/* The p->challenge_count leaf challenges of the sector in slot `sector_slot`
 * (partition*p->sector_count + i) of a proof of type p. */
void fc_post_sector_leaf_challenges(uint64_t *out, const fc_post_proof *p,
                                    const uint8_t randomness[32], uint64_t sector_id,
                                    uint64_t sector_slot);

/* Winning PoSt sector selection: LE u64 of sha256(prover_id ‖ randomness ‖ n
 * u64 LE)[0..8] mod sector_set_len (generate_sector_challenge); sector_set_len > 0. */
uint64_t fc_post_sector_challenge(const uint8_t randomness[32], uint64_t n, uint64_t sector_set_len,
                                  const uint8_t prover_id[32]);

#endif
