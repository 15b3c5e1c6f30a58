/* The test-data sealer: PreCommit phase 1 and 2 and Commit phase 1 of a
 * StackedDrg sector, natively and in memory (rust-fil-proofs filecoin-proofs
 * api/seal.rs seal_pre_commit_phase1/2 and seal_commit_phase1; storage-proofs-
 * porep stacked/vanilla/proof.rs replicate / prove_layers).
 *
 *   data  = the fr32-padded sector (sealer_data.h), nodes × 32 bytes
 *   tree D = binary SHA-256 tree (trimmed) over data           -> comm_d
 *   replica_id from prover id (miner), sector number, ticket, comm_d, porep_id
 *   labels of layers 1..L over the registered proof's graph   (label.h)
 *   tree C = base-sub-top Poseidon tree over Poseidon_L(column) -> comm_c
 *   replica = label_L + data in Fr; tree R over it             -> comm_r_last
 *   comm_r = Poseidon2(comm_c, comm_r_last)
 *   challenges (interactive / synthetic / NI) and their vanilla proofs -> C1.
 *
 * Everything is held in memory (labels: L × sector size; trees: about 1.3 ×
 * sector size each): this is the reference the streaming sealer
 * (sealer_stream.h, bounded memory, what `cuzk seal` runs) is tested
 * against byte for byte, meant for 2 KiB and 8 MiB sectors. */
#ifndef CUZK_FILECOIN_SEALER_H
#define CUZK_FILECOIN_SEALER_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/proof_types.h"

/* Called at the start of a stage (done = 0) and as it goes; total may be 0. */
typedef void (*fc_seal_progress_fn)(void *ctx, const char *stage, uint64_t done, uint64_t total);

typedef struct {
    const fc_seal_proof *proof;
    uint64_t miner_id, sector_number;
    uint8_t ticket[32], seed[32];
    unsigned threads;             /* for column hashing and encoding; 0 or 1: inline */
    fc_seal_progress_fn progress; /* may be NULL; called from the calling thread */
    void *progress_ctx;
} fc_seal_params;

typedef struct {
    const fc_seal_proof *proof;
    uint64_t nodes;
    unsigned layers;
    uint64_t miner_id, sector_number;
    uint8_t ticket[32], seed[32];
    uint8_t comm_d[32], replica_id[32], comm_c[32], comm_r_last[32], comm_r[32];
    uint8_t *labels;    /* layers × nodes × 32: label(l, v) at ((l-1)*nodes + v)*32 */
    merkle_tree tree_d; /* leaves: the padded data */
    merkle_tree tree_c; /* leaves: column hashes */
    merkle_tree tree_r; /* leaves: the replica (sealed sector) */
} fc_sealed;

/* PreCommit 1 and 2 over `padded` (nodes × 32 bytes, every node's top two
 * bits clear; copied).  Returns 0, or -1 with a message (bad data, out of
 * memory); s is then empty (fc_sealed_free is safe either way). */
int fc_seal_precommit(fc_sealed *s, const fc_seal_params *p, const uint8_t *padded, char *err,
                      size_t cap);

/* Commit phase 1: the challenges and their vanilla proofs as a C1 output
 * (c1_output_free).  Returns 0, or -1 with a message. */
int fc_seal_commit1(c1_output **out, const fc_sealed *s, char *err, size_t cap);

void fc_sealed_free(fc_sealed *s);

/* Where Commit 1 reads labels and tree proofs: the in-memory fc_sealed above
 * or the streaming sealer's files (sealer_stream.h).  label: label(layer,
 * node), layer 1..layers; proof: the proof of leaf i of tree 'D', 'C' or 'R'
 * (merkle_proof_free).  Each returns 0, or -1 with a message in err. */
typedef struct {
    void *ctx;
    int (*label)(void *ctx, unsigned layer, uint64_t node, uint8_t out[32], char *err, size_t cap);
    int (*proof)(void *ctx, char tree, uint64_t i, merkle_proof *p, char *err, size_t cap);
} fc_seal_reader;

/* fc_seal_commit1 over any reader: s gives only the header (proof, nodes,
 * layers, ticket, seed, comm_d, replica_id, comm_r); its labels and trees
 * are not touched. */
int fc_seal_commit1_read(c1_output **out, const fc_sealed *s, const fc_seal_reader *r, char *err,
                         size_t cap);

/* label(l, v) (l = 1..layers). */
static inline const uint8_t *fc_sealed_label(const fc_sealed *s, unsigned l, uint64_t v) {
    return s->labels + (((size_t)(l - 1) * s->nodes + v) * 32);
}

#endif
