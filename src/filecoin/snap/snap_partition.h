/* The partitions of a SnapDeals request, from what it carries to what the
 * circuit and the verifier need (rust-fil-proofs storage-proofs-update
 * vanilla.rs verify, circuit.rs; docs/SNAPDEALS.md 3.4) — the twin of
 * post_partition.h, shared by the engine's snap provider and the CLI so both
 * accept and derive exactly the same things.
 *
 * A request holds one bincode PartitionProof per partition, partition k at
 * index k, and the raw 32-byte comm_r_old, comm_r_new, comm_d_new.  Before
 * anything is synthesized every partition is decoded strictly
 * (snap_vanilla.h) and checked natively, beyond upstream's own verify where
 * the circuit would otherwise only fail (or, in Rust, panic):
 *   Poseidon2(comm_c, root_r_old) == comm_r_old, and for root_r_new, comm_r_new
 *     (the roots are challenge 0's tree R roots)              SNAP_E_COMM_R
 *   each of a challenge's three proofs opens the node that comm_r_new and k
 *     challenge (snap_challenges)                             SNAP_E_CHALLENGE
 *   every root is root_r_old / comm_d_new / root_r_new        SNAP_E_ROOT_MISMATCH
 *   every path hashes from its leaf to its root               SNAP_E_ROOT
 *   leaf_r_new == leaf_r_old + leaf_d_new * rho(c >> (bits - h))  SNAP_E_ENCODING
 *   the tree D path reaches the apex leaf the challenge selects, and the apex
 *     tree's root climbs the partition path (bits of k) to comm_d_new  SNAP_E_APEX
 *   the top partition_bits tree D siblings agree across challenges
 *                                                             SNAP_E_PARTITION_PATH
 * Messages name the partition, the challenge and the part, e.g.
 * "vanilla_proofs[1] (partition 1): challenge_proofs[4].proof_r_new: path
 * does not hash to its root". */
#ifndef CUZK_FILECOIN_SNAP_PARTITION_H
#define CUZK_FILECOIN_SNAP_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "filecoin/proof_types.h"
#include "filecoin/snap/snap_circuit.h"
#include "filecoin/snap/snap_vanilla.h"

/* The registered update proof of a request: id 0..4 and sector_size 0 or
 * exactly its size.  SNAP_OK with *out set, or SNAP_E_PROOF_TYPE. */
int snap_request_proof(const fc_update_proof **out, uint64_t registered_proof, uint64_t sector_size,
                       char *err, size_t errlen);

/* One partition's decoded proof and its circuit values, as flat arrays in the
 * layout of the circuit's snap_witness (C challenges, A apex leaves, sr tree R
 * siblings per path, pbl partition bits, l_ap = bits - pbl - apex_bits). */
typedef struct {
    unsigned k;
    fc_snap_vanilla decoded;
    uint64_t *challenges; /* [C] the challenged nodes */
    fr comm_c, root_r_old, root_r_new;
    fr *apex_leaves;             /* [A] */
    fr *partition_path;          /* [pbl] challenge 0's top tree D siblings, lowest first */
    fr *leaf_r_old, *leaf_d_new; /* [C] */
    fr *path_r_old, *path_r_new; /* [C * sr] element by element from the leaf */
    fr *path_d;                  /* [C * l_ap] the lowest tree D siblings */
    fr inputs[4];                /* snap_public_inputs of k */
} snap_partition_values;

typedef struct {
    const fc_update_proof *proof;
    unsigned h;
    fr comm_r_old, comm_d_new, comm_r_new;
    size_t r_siblings, l_ap;      /* sr and l_ap above */
    snap_partition_values *parts; /* one per partition, in order */
    size_t n_parts;
} snap_partition;

/* Decodes and checks the n vanilla proofs vanilla[i] (len[i] bytes) of a
 * request for p against the three commitments (raw 32 bytes each), with
 * h = p->h_default as filecoin-proofs uses.  Fills out (snap_partition_free).
 * Returns SNAP_OK, or a SNAP_E_* code with a message naming the partition,
 * the challenge and the part; SNAP_E_NOMEM: "out of memory". */
int snap_partition_prepare(snap_partition *out, const fc_update_proof *p,
                           const uint8_t *const *vanilla, const size_t *len, size_t n,
                           const uint8_t comm_r_old[32], const uint8_t comm_r_new[32],
                           const uint8_t comm_d_new[32], char *err, size_t errlen);

/* The same with an explicit h (0: p->h_default; else one of p->hs, else
 * SNAP_E_PROOF_TYPE): test data made with another h. */
int snap_partition_prepare_h(snap_partition *out, const fc_update_proof *p, unsigned h,
                             const uint8_t *const *vanilla, const size_t *len, size_t n,
                             const uint8_t comm_r_old[32], const uint8_t comm_r_new[32],
                             const uint8_t comm_d_new[32], char *err, size_t errlen);

void snap_partition_free(snap_partition *pp);

/* The circuit witness of partition k (k < pp->n_parts): it points into pp,
 * which must outlive it.  Synthesize it with the shape of pp->proof
 * (snap_shape_for_id) and prove against pp->parts[k].inputs. */
void snap_partition_witness(snap_witness *w, const snap_partition *pp, size_t k);

/* Partition k of pp ready to synthesize: the shape of pp->proof, its witness
 * and its 4 public inputs (pointing into pp, which must outlive it).  The
 * CLI and the engine's provider prove through this one path. */
typedef struct {
    snap_shape shape;
    snap_witness w;
    const fr *inputs; /* SNAP_PUBLIC_INPUTS */
} snap_partition_job;

/* 0, or -1 if k >= pp->n_parts or pp's proof has no circuit shape. */
int snap_partition_job_init(snap_partition_job *job, const snap_partition *pp, size_t k);

/* An r1cs_synth_fn over a snap_partition_job (the proving-mode circuit). */
int snap_partition_synthesize(r1cs_cs *cs, void *job);

#endif
