/* SnapDeals test data without Rust (docs/SNAPDEALS.md 6): the update of a
 * sector's replica with new data, and the partition vanilla proofs of that
 * update as rust-fil-proofs' EmptySectorUpdate::prove_all_partitions makes
 * them (storage-proofs-update vanilla.rs encode_into, prove_inner):
 *
 *   tree R old   = the sector key's tree R (leaves: the old replica)
 *   comm_r_old   = Poseidon2(comm_c, root_r_old)
 *   tree D new   = binary SHA-256 tree over the Fr32-padded new data -> comm_d_new
 *   phi          = P2c(comm_d_new, comm_r_old); rho(hi) = P2c(phi, hi)
 *   new[i]       = old[i] + data[i] * rho(i >> (bits - h))          (in Fr)
 *   tree R new   over new[]; comm_r_new = Poseidon2(comm_c, root_r_new)
 *   partition k  = comm_c, tree D's apex row run [k A, (k+1) A), and for each
 *                  challenge c of k (snap_challenges.h) the proofs of node c in
 *                  tree R old, tree D new and tree R new.
 *
 * Everything lives in memory (three trees: about 4.5 x the sector size), so
 * this is meant for 2 KiB .. 512 MiB test sectors. */
#ifndef CUZK_FILECOIN_SNAP_VANILLA_GEN_H
#define CUZK_FILECOIN_SNAP_VANILLA_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/proof_types.h"

typedef struct {
    const fc_update_proof *proof;
    unsigned h; /* the h the replica was encoded with */
    uint8_t comm_c[32];
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    uint8_t root_r_old[32], root_r_new[32]; /* comm_r_last old and new */
    merkle_tree tree_r_old, tree_d_new, tree_r_new;
} fc_snap_update;

/* Updates old_replica (nodes x 32 bytes, canonical Fr nodes; the sector key)
 * with data (nodes x 32 bytes, every node's top two bits clear: the padded
 * new data) under comm_c, with h (0: p->h_default; else one of p->hs).
 * Builds the three trees and the commitments into u (fc_snap_update_free),
 * and writes the new replica to new_replica (nodes x 32 bytes) when not NULL.
 * Returns 0, or -1 with a message (bad h, a node that is not an Fr or not
 * Fr32 data, out of memory). */
int fc_snap_update_build(fc_snap_update *u, const fc_update_proof *p, unsigned h,
                         const uint8_t comm_c[32], const uint8_t *old_replica, const uint8_t *data,
                         uint8_t *new_replica, char *err, size_t errlen);
void fc_snap_update_free(fc_snap_update *u);

/* new[i] = old[i] + data[i] * rho(i >> (bits - h)) for the `count` nodes from
 * `first` on (the whole sector: first 0, count p->nodes); phi from comm_d_new
 * and comm_r_old.  0, or -1 with a message naming the node that is not an Fr. */
int fc_snap_encode_nodes(uint8_t *out, const uint8_t *old_nodes, const uint8_t *data_nodes,
                         uint64_t first, uint64_t count, const fc_update_proof *p, unsigned h,
                         const uint8_t comm_d_new[32], const uint8_t comm_r_old[32], char *err,
                         size_t errlen);

/* One tree the PartitionProof writer opens: a dense merkle_tree or any store
 * answering the same two queries (the sparse trees of sealer/sparse_tree.h),
 * so dense and invented updates share one writer. */
typedef struct {
    const void *tree;
    por_shape shape;
    /* leaf i's proof, exactly as merkle_proof_gen gives it: MERKLE_OK or an error */
    int (*proof)(merkle_proof *out, const void *tree, uint64_t i);
    /* node j of level l (0: the leaves) */
    const uint8_t *(*node)(const void *tree, unsigned l, uint64_t j);
} fc_snap_tree_src;

/* What a partition proof is written from: the three trees (tree D binary
 * SHA-256 over p->nodes leaves), comm_c, and comm_r_new (the challenges). */
typedef struct {
    const fc_update_proof *proof;
    uint8_t comm_c[32], comm_r_new[32];
    fc_snap_tree_src r_old, d_new, r_new;
} fc_snap_trees;

/* The sources of a dense update (u must outlive them). */
void fc_snap_update_trees(fc_snap_trees *out, const fc_snap_update *u);

/* The bincode PartitionProof of partition k over t (malloc'd into *out, *len
 * bytes).  0, or -1 with a message (k out of range, a tree D that is not
 * the size's, a leaf with no proof, out of memory). */
int fc_snap_vanilla_write(uint8_t **out, size_t *len, const fc_snap_trees *t, unsigned k, char *err,
                          size_t errlen);

/* fc_snap_vanilla_write over the update's dense trees. */
int fc_snap_vanilla_generate(uint8_t **out, size_t *len, const fc_snap_update *u, unsigned k,
                             char *err, size_t errlen);

#endif
