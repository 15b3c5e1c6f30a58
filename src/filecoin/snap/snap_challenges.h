/* SnapDeals (empty sector update) randomness, challenges and public inputs
 * (rust-fil-proofs storage-proofs-update challenges.rs, vanilla.rs,
 * circuit.rs; docs/SNAPDEALS.md 3.2, 3.3; filecoin-facts.md 3.11).
 *
 * Every hash here is Poseidon arity 2 with the Custom(Arbitrary(1)) domain
 * tag 2^40 (not the MerkleTree tag of the trees):
 *   phi      = H(comm_d_new, comm_r_old)            (comm_d_new first)
 *   rho(hi)  = H(phi, hi), hi = c >> (bits - h)     (the h high bits of node c)
 *   digest_j = H(comm_r_new, k * digests + j)       (the index runs across partitions)
 * Challenge t of partition k takes rand_bits bits of digest t / cpd from bit
 * (t % cpd) * rand_bits, least significant first, with k above them, so every
 * challenge of partition k lies in [k N/P, (k+1) N/P). */
#ifndef CUZK_FILECOIN_SNAP_CHALLENGES_H
#define CUZK_FILECOIN_SNAP_CHALLENGES_H

#include <stdint.h>

#include "field/fr.h"
#include "filecoin/proof_types.h"

/* The generation tag, 2^40. */
void snap_gen_tag(fr *out);

void snap_phi(fr *out, const fr *comm_d_new, const fr *comm_r_old);
/* rho for the high bits value hi (already shifted). */
void snap_rho(fr *out, const fr *phi, uint64_t hi);
/* The h high bits of node c in a sector of 2^bits nodes. */
static inline uint64_t snap_high(uint64_t c, unsigned bits, unsigned h) { return c >> (bits - h); }

/* The p->challenges node indices of partition k.  -1 if k >= p->partitions. */
int snap_challenges(uint64_t *out, const fc_update_proof *p, const fr *comm_r_new, unsigned k);

/* The circuit's 4 public inputs: [k | h_select << partition_bits,
 * comm_r_old, comm_d_new, comm_r_new].  -1 if k >= partitions or h is not
 * one of p->hs. */
int snap_public_inputs(fr out[4], const fc_update_proof *p, unsigned k, unsigned h,
                       const fr *comm_r_old, const fr *comm_d_new, const fr *comm_r_new);

#endif
