/* One FallbackPoSt partition, from what a request carries to what the
 * circuit and the verifier need (rust-fil-proofs storage-proofs-post
 * fallback compound.rs generate_public_inputs, winning_post.rs; filecoin-
 * facts.md 3.10).  Shared by the engine's PoSt provider and `cuzk prove/verify
 * post`, so both accept and derive exactly the same things.
 *
 * Slots: the circuit holds p->sector_count sector slots of p->challenge_count
 * challenges each.
 *   WindowPoSt: the partition's sectors (1..sector_count) fill the first
 *     slots; sector i sits in proof slot partition*sector_count + i (its
 *     challenge indices depend on it unless p->grindability_fix); missing
 *     slots repeat the last sector's inputs.
 *   WinningPoSt: one sector; its 66 challenges become 66 one-challenge slots,
 *     slot s challenged with index s.
 *
 * The verifier's side needs only the replicas (sector id, comm_r) and the
 * randomness; the prover's side also checks that the vanilla proofs open
 * exactly the leaves the randomness challenges, so a vanilla proof made for
 * other randomness is refused with a message naming the sector. */
#ifndef CUZK_FILECOIN_POST_PARTITION_H
#define CUZK_FILECOIN_POST_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "filecoin/post/post_circuit.h"
#include "filecoin/post/post_vanilla.h"
#include "filecoin/proof_types.h"
#include "r1cs/pce.h"

typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32];
} fc_post_replica;

/* What post_partition_public and post_partition_prepare return: 0, or a
 * negative code with a message in err, so that a caller maps the kind of
 * failure without reading the message. */
typedef enum {
    POST_PARTITION_OK = 0,
    POST_PARTITION_INVALID = -1, /* the request or a vanilla proof is refused (err_set's -1) */
    POST_PARTITION_NOMEM = -2,   /* an allocation failed; the same request may succeed later */
} post_partition_status;

/* Sectors a partition of p takes: Window sector_count, Winning 1. */
unsigned post_partition_max_sectors(const fc_post_proof *p);

/* The public inputs of partition `partition` of a proof of type p over the
 * replicas r[0..n) of that partition (Window: 1..sector_count; Winning: 1).
 * *out: malloc'd, *n_out = post_num_public_inputs.  Returns POST_PARTITION_OK,
 * or _INVALID with a message (randomness not an Fr, comm_r not an Fr, wrong
 * replica count), or _NOMEM. */
post_partition_status post_partition_public(fr **out, size_t *n_out, const fc_post_proof *p,
                                            const fc_post_replica *r, size_t n,
                                            const uint8_t randomness[32], uint64_t partition,
                                            char *err, size_t errlen);

typedef struct {
    const fc_post_proof *proof;
    post_shape shape;
    fc_post_vanilla *decoded; /* one per vanilla proof */
    size_t n_decoded;
    fc_post_vanilla winning;             /* the 66-slot view of a WinningPoSt proof */
    fc_post_sector_proof *winning_slots; /* its sectors */
    post_witness witness;                /* for post_circuit_synthesize(shape) */
    fr *inputs;                          /* post_num_public_inputs(shape) */
    size_t n_inputs;
} post_partition;

/* Decodes the n bincode FallbackPoStSectorProofs vanilla[i] (len[i] bytes;
 * the order of the partition's sectors) and checks them: each has p's tree
 * shape and challenge count, every path reaches comm_r_last, comm_r =
 * Poseidon2(comm_c, comm_r_last), and every path opens the leaf that the
 * randomness challenges for its slot.  Fills out (post_partition_free) with
 * the witness and the natively derived public inputs.  Returns
 * POST_PARTITION_OK, or _INVALID with a message naming the proof
 * ("vanilla_proofs[i]: ..."), or _NOMEM ("out of memory"). */
post_partition_status post_partition_prepare(post_partition *out, const fc_post_proof *p,
                                             const uint8_t *const *vanilla, const size_t *len,
                                             size_t n, const uint8_t randomness[32],
                                             uint64_t partition, char *err, size_t errlen);
void post_partition_free(post_partition *pp);

/* groth16_witness_fn over a post_partition: its witness on threads threads
 * (post_witness_generate) at the recorded shape p's segments and counts.
 * 0, or -1 with a message (the caller then synthesizes classically). */
int post_partition_witness(void *partition, const r1cs_pce *p, unsigned threads, fr *input, fr *aux,
                           char *err, size_t cap);

#endif
