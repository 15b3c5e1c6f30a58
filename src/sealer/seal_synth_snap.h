/* Valid SnapDeals update vanilla proofs of any sector size without sealing
 * or updating a real sector: the SnapDeals twin of seal_synth_valid.h.
 *
 * The update (snap_vanilla_gen.h) is invented over sparse trees
 * (sparse_tree.h), every node zero except a few random ones:
 *
 *   old replica  zero except `nodes` random nodes (random canonical Fr);
 *                tree R old over it, sparse, in the update's tree R shape
 *                -> root_r_old; comm_c random; comm_r_old = Poseidon2(comm_c,
 *                root_r_old)
 *   new data     zero except `nodes` random nodes (Fr32: top two bits clear);
 *                tree D new, sparse binary SHA-256 -> comm_d_new
 *   new replica  new[i] = old[i] + data[i] * rho(i >> (bits - h)) at every
 *                node where old or data is set (zero elsewhere, as both are);
 *                tree R new, sparse -> root_r_new; comm_r_new = Poseidon2(
 *                comm_c, root_r_new)
 *   partition k  the challenges of k from comm_r_new (snap_challenges.h),
 *                their openings in the three trees and tree D's apex row
 *                run, written by fc_snap_vanilla_write as for a dense update
 *
 * The same old replica and data expanded to full size and updated densely
 * (fc_snap_update_build) give byte-identical proofs.  Memory and time grow
 * with `nodes` and the challenges, never with the sector size, so a 32 GiB
 * or 64 GiB update's proofs are made in seconds.
 *
 * It is a TEST object: no sector was sealed or updated, and the challenged
 * nodes are almost always zero in all three trees (the challenges depend on
 * comm_r_new, which the set nodes decide, so those cannot be placed under
 * them).  Every path, root and commitment is what the native verifier and
 * the circuit check. */
#ifndef CUZK_SEALER_SEAL_SYNTH_SNAP_H
#define CUZK_SEALER_SEAL_SYNTH_SNAP_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/proof_types.h"
#include "filecoin/snap/snap_vanilla_gen.h"
#include "sealer/seal_snap.h"
#include "sealer/sparse_tree.h"

/* Most set nodes of the old replica and of the data each. */
#define FC_SYNTH_SNAP_MAX_NODES (1u << 20)

typedef struct {
    const fc_update_proof *proof;
    uint64_t seed;  /* every random choice: positions, values, comm_c */
    unsigned nodes; /* set nodes of the old replica and of the data, each */
    unsigned h;     /* 0: proof->h_default; else one of proof->hs */
} fc_synth_snap_params;

typedef struct {
    const fc_update_proof *proof;
    unsigned h;
    uint8_t comm_c[32], root_r_old[32], root_r_new[32];
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    /* row[0] of each: the set nodes, sorted, unique (the old replica's, the
     * data's, the new replica's) */
    sparse_tree r_old, d_new, r_new;
} fc_synth_snap;

/* Invents the update.  0, or -1 with a message (too many nodes, bad h,
 * out of memory); s is then empty (fc_synth_snap_free is safe either way). */
int fc_synth_snap_make(fc_synth_snap *s, const fc_synth_snap_params *p, char *err, size_t cap);

/* The writer's sources over the invented trees (s must outlive them). */
void fc_synth_snap_trees(fc_snap_trees *out, const fc_synth_snap *s);

/* Writes vanilla-<k> and snap.json into dir (created if missing) as `cuzk
 * seal update` does, without the dense `update` and `update-data` files.
 * Fills r.  0, or -1 with a message naming the path. */
int fc_synth_snap_write(fc_seal_snap_result *r, const fc_synth_snap *s, const char *dir, char *err,
                        size_t cap);

void fc_synth_snap_free(fc_synth_snap *s);

#endif
