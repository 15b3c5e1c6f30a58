/* The SDR base graph: BucketGraph DRG parents (filecoin-facts §3.12 "DRG
 * parents"; rust-fil-proofs storage-proofs-core/src/drgraph.rs).
 *
 * Node v >= 2 draws from ChaCha8Rng seeded with drg_seed[28] ‖ v u32 LE, where
 * drg_seed = sha256("Filecoin_DRSample" ‖ porep_id)[0..28].  With meta = 5v and
 * n_buckets = ceil(log2(meta)) (= bit length of meta-1, meta never a power of
 * two), each of the 5 sampled parents takes two u64 a, b:
 *   bucket = a mod n_buckets + 1; largest = min(meta, 2^bucket);
 *   smallest = max(2, largest >> 1); distance = smallest + b mod (largest-smallest+1);
 *   parent = (meta - distance) / 5   (never v; Rust would map v to v-1).
 * Placement: API 1.0 puts the 5 sampled parents in slots 0-4 and v-1 in slot
 * 5; API 1.1/1.2 put v-1 in slot 0 and the sampled ones in slots 1-5.  Nodes 0
 * and 1 have six parents 0.  Parents may repeat. */
#ifndef CUZK_FILECOIN_DRG_H
#define CUZK_FILECOIN_DRG_H

#include <stdint.h>

enum { FC_DRG_DEGREE = 6 };

/* The 28-byte seed of a porep_id. */
void fc_drg_seed(uint8_t out[28], const uint8_t porep_id[32]);

/* The 6 parents of node (node < 2^32); legacy_v1 selects API 1.0 placement. */
void fc_drg_parents(uint32_t out[FC_DRG_DEGREE], const uint8_t seed[28], uint32_t node,
                    int legacy_v1);

#endif
