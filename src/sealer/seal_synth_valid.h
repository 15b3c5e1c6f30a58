/* A satisfiable PoRep C1 of any sector size without sealing (issue 29).
 *
 * An interactive PoRep (V1, V1_1) opens only the challenged nodes, their 14
 * graph parents' columns, and the tree paths to them.  The challenges depend
 * only on replica_id and the interactive seed, so a sector can be invented
 * around them:
 *
 *   data    zero except `data_nodes` random nodes (trimmed random values);
 *           tree D (SHA-256) over it, sparse                     -> comm_d
 *   replica_id from miner, sector number, random ticket, comm_d, porep_id
 *   challenges of every partition from replica_id and a random seed, exactly
 *           as fc_porep_challenges (the real derivation)
 *   columns the challenged nodes' labels computed with the real labelling
 *           function over the real graph's parents, layer by layer (a
 *           challenged node that is another's parent keeps its computed
 *           labels); every other opened node (a parent, a data node) gets
 *           random labels; all come from one map, so every opened leaf is
 *           what the trees hold
 *   tree C  leaves Poseidon_L(column) at the mapped nodes, zero elsewhere
 *   tree R  leaves label_L + data at the mapped nodes, zero elsewhere
 *   comm_r = Poseidon2(comm_c, comm_r_last)
 *
 * The trees are sparse_tree.h: memory and time grow with the challenges and
 * path lengths, never with the sector (a 64 GiB C1 is made in seconds).
 * The result passes fc_vanilla_verify and the circuit's checking mode as a
 * really sealed sector's C1 does; it is a TEST object: nobody sealed the
 * sector, and the data at the challenged nodes is zero unless a data node
 * happens to land there (data chosen before comm_d cannot know the
 * challenges, which comm_d decides).
 *
 * fc_synth_valid_post opens the same sparse tree R for Winning/WindowPoSt.
 *
 * Synthetic and NI-PoRep challenges depend on comm_r itself, which the
 * opened columns decide: no such C1 can be made this way; they are refused
 * with a message saying so. */
#ifndef CUZK_SEALER_SEAL_SYNTH_VALID_H
#define CUZK_SEALER_SEAL_SYNTH_VALID_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "filecoin/proof_types.h"
#include "sealer/sealer.h"
#include "sealer/sparse_tree.h"

typedef struct {
    const fc_seal_proof *proof;
    uint64_t miner_id, sector_number;
    uint64_t seed;       /* every random choice: ticket, seed, data, parents' labels */
    unsigned data_nodes; /* random non-zero data nodes (0: an all-zero, CC-like sector) */
} fc_synth_valid_params;

typedef struct {
    fc_sealed hdr; /* the header fields only (labels and dense trees unused) */
    sparse_tree d, c, r;
    size_t n_cols;       /* nodes with a column (labels, data) */
    uint64_t *col_node;  /* sorted */
    uint8_t *col_labels; /* n_cols x layers x 32: row l-1 of column k at (k*layers + l-1)*32 */
    uint8_t *col_data;   /* n_cols x 32: the data node */
    size_t n_challenged; /* distinct challenged nodes */
} fc_synth_sector;

/* Invents the sector: header (commitments, replica_id, ticket, seed), column
 * map and sparse trees.  Returns 0, or -1 with a message (a synthetic or
 * NI-PoRep proof, out of memory); s is then empty (fc_synth_sector_free is
 * safe either way). */
int fc_synth_valid_sector(fc_synth_sector *s, const fc_synth_valid_params *p, char *err,
                          size_t cap);

/* Commit phase 1 of the invented sector (fc_seal_commit1_read over it). */
int fc_synth_valid_commit1(c1_output **out, const fc_synth_sector *s, char *err, size_t cap);

/* Label (layer 1..layers) of a mapped node: 0, or -1 if it has no
 * column. */
int fc_synth_valid_label(const fc_synth_sector *s, unsigned layer, uint64_t node, uint8_t out[32]);

/* The seal reader over the invented sector (labels of mapped nodes; proofs
 * of any leaf of 'D', 'C' or 'R'). */
fc_seal_reader fc_synth_valid_reader(const fc_synth_sector *s);

/* A PoSt vanilla proof of the invented sector (post_vanilla_gen.h: the
 * bincode FallbackPoStSectorProof, sector id = its sector number): tree R
 * opened at the challenges of `randomness` (WindowPoSt: for `slot`).  The
 * opened leaves are mostly zero, every path reaches comm_r_last.  p must
 * be of the sector's size.  Returns 0, or -1 with a message. */
int fc_synth_valid_post(uint8_t **out, size_t *len, const fc_synth_sector *s,
                        const fc_post_proof *p, const uint8_t randomness[32], uint64_t slot,
                        char *err, size_t cap);

void fc_synth_sector_free(fc_synth_sector *s);

#endif
