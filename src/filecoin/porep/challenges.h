/* PoRep challenges: which nodes a partition proves (filecoin-facts §3.8-3.9;
 * rust-fil-proofs storage-proofs-porep stacked/vanilla/challenges.rs).
 *
 * Every challenge is a node in 1 .. nodes-1 (node 0 is never challenged):
 * an integer read little-endian, reduced mod (nodes - 1), plus 1.
 * - Interactive (V1, V1_1): challenge j = C*k + i of partition k is
 *   sha256(replica_id ‖ seed ‖ j u32 LE).
 * - Non-interactive (NI-PoRep): sha256("filecoin.io|PoRep|1|NonInteractive|1" ‖
 *   replica_id ‖ comm_r ‖ j u32 LE); no seed.
 * - Synthetic: min(nodes, 2^18) synthetic challenges, challenge i = keystream
 *   bytes 32i..32i+31 of ChaCha20 (RFC 8439, nonce "synth-porep\0") keyed with
 *   BLAKE2b-256(key "filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id ‖
 *   comm_r).  Partition k's challenges are the synthetic challenges at indexes
 *   u32 LE at keystream byte 4j (j = C*k + i) mod count, of the ChaCha20 stream
 *   keyed with BLAKE2b-256(key "…|Synthetic|1|Selection", replica_id ‖ seed).
 *
 * All byte arrays are 32 bytes as stored (replica_id and comm_r are LE Fr). */
#ifndef CUZK_FILECOIN_CHALLENGES_H
#define CUZK_FILECOIN_CHALLENGES_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/proof_types.h"

enum { FC_SYNTH_CHALLENGES_MAX = 1 << 18 };

/* (LE integer of n bytes) mod (nodes - 1) + 1.  nodes in 2 .. 2^32. */
uint64_t fc_challenge_reduce(const uint8_t *le, size_t n, uint64_t nodes);

/* Challenges C*k .. C*k+C-1 (C = count).  Preconditions: nodes in 2 .. 2^32 and
 * C*(k+1) <= 2^32 (the index is a u32); fc_porep_challenges checks them. */
void fc_interactive_challenges(uint64_t *out, size_t count, unsigned k, uint64_t nodes,
                               const uint8_t replica_id[32], const uint8_t seed[32]);
void fc_ni_challenges(uint64_t *out, size_t count, unsigned k, uint64_t nodes,
                      const uint8_t replica_id[32], const uint8_t comm_r[32]);

/* The synthetic-challenge count for a sector: min(nodes, 2^18). */
uint64_t fc_synth_count(uint64_t nodes);
/* The two ChaCha20 keys. */
void fc_synth_gen_key(uint8_t key[32], const uint8_t replica_id[32], const uint8_t comm_r[32]);
void fc_synth_select_key(uint8_t key[32], const uint8_t replica_id[32], const uint8_t seed[32]);
/* Synthetic challenges first .. first+n-1 under gen_key (streamed, any n);
 * first + n <= 2^32 (rust-fil-proofs caps the count below 2^32). */
void fc_synth_challenges(uint64_t *out, uint64_t first, size_t n, uint64_t nodes,
                         const uint8_t gen_key[32]);
/* Synthetic indexes selected for challenges C*k .. C*k+C-1, each < n_synth;
 * n_synth >= 1 and C*(k+1) <= 2^32. */
void fc_synth_select(uint64_t *out, size_t count, unsigned k, uint64_t n_synth,
                     const uint8_t select_key[32]);
/* Partition k's synthetic PoRep challenges with n_synth synthetic challenges
 * (production: fc_synth_count(nodes)). */
void fc_synth_porep_challenges(uint64_t *out, size_t count, unsigned k, uint64_t nodes,
                               uint64_t n_synth, const uint8_t replica_id[32],
                               const uint8_t comm_r[32], const uint8_t seed[32]);

/* Partition k's challenges for a registered proof: out gets
 * p->challenges_per_partition values.  seed is unused by NI-PoRep, comm_r by
 * interactive PoRep (either may then be NULL).  Returns 0, or -1 with a message
 * in err (k out of range, a needed input missing). */
int fc_porep_challenges(uint64_t *out, const fc_seal_proof *p, unsigned k,
                        const uint8_t replica_id[32], const uint8_t comm_r[32],
                        const uint8_t seed[32], char *err, size_t errcap);

#endif
