/* The SnapDeals update step of the test-data sealer (`cuzk seal update`):
 * a CC sector sealed by `cuzk seal` (docs/SEALER.md) is updated with new
 * data as rust-fil-proofs' encode_into does, and the partition vanilla
 * proofs of the update are written as Curio sends them
 * (filecoin/snap/snap_vanilla_gen.h).
 *
 * Reads from the sector directory: `sealed` (the replica = the sector key),
 * `p_aux` (comm_c || comm_r_last) and `sector.json` (registered seal proof id
 * and comm_r; tree R of `sealed` must give comm_r_last, and Poseidon2(comm_c,
 * comm_r_last) must be comm_r = comm_r_old).
 * Writes into the output directory (created if missing):
 *   update          the updated replica, nodes x 32 bytes
 *   update-data     the Fr32-padded new data (tree D new's leaves)
 *   vanilla-<k>     partition k's bincode PartitionProof, k = 0 .. P-1
 *   snap.json       registered update proof (name, id), sector size, h,
 *                   partitions, comm_c, comm_r_last old/new, comm_r_old,
 *                   comm_d_new, comm_r_new (hex of the raw 32 bytes, as a
 *                   request carries them), the vanilla file names
 * Everything is held in memory (about 5 x the sector size): 2 KiB to 512 MiB. */
#ifndef CUZK_SEALER_SEAL_SNAP_H
#define CUZK_SEALER_SEAL_SNAP_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/proof_types.h"
#include "filecoin/snap/snap_vanilla_gen.h"

typedef struct {
    const char *sector_dir;      /* a `cuzk seal` output */
    const char *out_dir;         /* created if missing */
    const char *data_file;       /* raw new data (at most the unpadded size; zero-filled) */
    const uint64_t *random_seed; /* else fc_seal_random_bytes of this seed; else zeros */
    unsigned h;                  /* 0: the proof's default (1 small, 10 large) */
} fc_seal_snap_opts;

typedef struct {
    const fc_update_proof *proof;
    unsigned h;
    uint8_t comm_c[32], comm_r_last_old[32], comm_r_last_new[32];
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
    size_t vanilla_bytes; /* per partition */
} fc_seal_snap_result;

/* Runs the update step.  0, or -1 with a message naming the file or value
 * at fault (missing/short files, a sealed replica that does not match p_aux
 * or sector.json, an unsupported size, a bad h, I/O). */
int fc_seal_snap(fc_seal_snap_result *r, const fc_seal_snap_opts *o, char *err, size_t cap);

/* Writes into dir (created if missing) vanilla-<k> of every partition of t
 * and snap.json of r (r->vanilla_bytes set here): the outputs that every
 * reader of snap.json takes, for the update step and for an invented
 * update (seal_synth_snap.h) alike.  0, or -1 with a message. */
int fc_seal_snap_write_proofs(fc_seal_snap_result *r, const char *dir, const fc_snap_trees *t,
                              char *err, size_t cap);

#endif
