/* Native verification of a PoRep C1 output's vanilla proofs (rust-fil-proofs
 * storage-proofs-porep stacked/vanilla/params.rs Proof::verify and proof.rs
 * verify_all_partitions), plus the consistency the circuit relies on.
 *
 * For every partition k and challenge i:
 *  - the challenge is the one replica_id / seed / comm_r dictate for the
 *    registered proof (interactive, synthetic or NI, challenges.h);
 *  - comm_d path: binary SHA-256 tree, root = comm_d, leaf index = challenge;
 *  - tree R path: leaf index = challenge, reaches the comm_r_last root;
 *  - the 15 columns (challenge, 6 DRG and 8 expander parents of the graph):
 *    index as the graph says, leaf = Poseidon-arity-L(rows), path reaches comm_c;
 *  - labeling proofs: layer_index l, node = challenge, the 37 parents equal
 *    the columns' rows the circuit would use (drg rows of layer l, exp rows of
 *    layer l-1), and label(l) = SHA-256(replica_id ‖ l ‖ node ‖ parents),
 *    trimmed, equals the challenge column's row l;
 *  - encoding proof: a copy of the last labeling proof, and tree R leaf =
 *    label_L + comm_d leaf in Fr.
 * Globally: comm_c and comm_r_last are taken from partition 0 challenge 0's
 * proof roots (they are not C1 fields), every other proof has the same roots,
 * and comm_r = Poseidon2(comm_c, comm_r_last).  With the prover (miner id) and
 * sector number, replica_id is recomputed from them, ticket, comm_d, porep_id.
 *
 * The checks beyond rust-fil-proofs' verifier (labeling parents equal the
 * column rows) are what the circuit enforces, so a C1 passing here is one the
 * circuit is satisfiable for. */
#ifndef CUZK_FILECOIN_VANILLA_VERIFY_H
#define CUZK_FILECOIN_VANILLA_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"

typedef struct {
    int have_miner; /* miner_id and sector_number given: check replica_id */
    uint64_t miner_id, sector_number;
} fc_vanilla_opts;

/* Derived commitments, filled as far as verification got. */
typedef struct {
    uint8_t comm_c[32], comm_r_last[32];
    unsigned challenges_checked;
} fc_vanilla_info;

/* Returns 0 when every check holds, else -1 with the first failure in msg,
 * naming the part ("partition 0 challenge 1: drg_parents[3] column: inclusion
 * proof does not reach comm_c").  opts and info may be NULL. */
int fc_vanilla_verify(const c1_output *c, const fc_vanilla_opts *opts, fc_vanilla_info *info,
                      char *msg, size_t cap);

#endif
