/* One PoRep C2 request, from the C1 output to what every partition's circuit
 * and verifier need: the twin of post_partition.h.  Shared by the engine's
 * PoRep provider, `cuzk prove porep` and the benchmarks, so all of them
 * accept, refuse and derive exactly the same things.
 *
 * Preparation, once per request and before any parameters are touched:
 *   from a C1 output decoded strictly (c1.h: c1_decode for request bytes,
 *   c1_decode_file for a file), the graph of its registered proof, and for
 *   every partition k
 *     - the public inputs derived NATIVELY (porep_c1_public: challenges from
 *       replica_id / seed / comm_r, their DRG and expander parents);
 *     - the witness read from the vanilla proofs (porep_c1_witness_get), built
 *       here ONCE and kept for synthesis;
 *     - porep_c1_check: the witness satisfies every relation of the circuit,
 *       proves the derived challenges and opens the derived parents.
 * A C1 that prepares cleanly synthesizes to exactly the derived inputs; a bad
 * one is refused with a message naming the partition, challenge and part.
 *
 * Memory: the kept witnesses are flat arrays (porep_witness_sizes).  At
 * 32 GiB (18 challenges, 11 layers, tree R/C paths of 10 levels / 70
 * siblings, tree D of 30 levels) one partition's witness is 23,688 Fr + 3,420
 * u32 + 18 u64, about 0.77 MB, so the 10 partitions hold about 7.7 MB: less
 * than the decoded C1 (10.6 MB), which the caller may free once prepared
 * (nothing here points into it).  Keeping them costs less than rebuilding
 * each one in synthesis, and it keeps the check and the synthesis on the
 * same bytes. */
#ifndef CUZK_FILECOIN_POREP_PARTITION_H
#define CUZK_FILECOIN_POREP_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "filecoin/porep/porep_inputs.h"
#include "r1cs/cs.h"
#include "r1cs/pce.h"

/* One partition: its derived public inputs and its checked witness. */
typedef struct {
    porep_public pub;
    porep_c1_witness w;
} porep_partition;

typedef struct {
    const fc_seal_proof *proof; /* the C1's registered proof (a static table entry) */
    porep_shape shape;          /* one partition's circuit */
    unsigned n_partitions;
    unsigned challenges; /* per partition */
    porep_partition *parts;
    double public_ms, witness_ms; /* preparation time: inputs, witness + checks */
} porep_c2;

/* Prepares every partition of the decoded c (not kept: it may be freed
 * afterwards).  Returns 0, or -1 with a message ("partition K: ...") and out
 * empty (porep_c2_free is safe). */
int porep_c2_prepare(porep_c2 *out, const c1_output *c, char *err, size_t cap);

void porep_c2_free(porep_c2 *c2);

/* The request's identity against the C1: replica_id = H(prover_id(miner) ||
 * sector || ticket || comm_d || porep_id) must be the C1's.  Returns 0, or -1
 * with a message naming the request's miner and sector (and the Curio
 * wrapper's SectorNum where it differs): a proof for another sector would
 * not verify for the one asked about. */
int porep_c1_identity_check(const c1_output *c, uint64_t miner_id, uint64_t sector_number,
                            char *err, size_t cap);

/* r1cs_synth_fn over a porep_partition: the PoRep circuit of that partition
 * in whatever mode cs is (proving: with the prepared witness). */
int porep_partition_synthesize(r1cs_cs *cs, void *partition);

/* groth16_witness_fn over a porep_partition: its witness on threads threads
 * (porep_witness_generate) at the recorded shape p's segments and counts.
 * 0, or -1 with a message (the caller then synthesizes classically). */
int porep_partition_witness(void *partition, const r1cs_pce *p, unsigned threads, fr *input,
                            fr *aux, char *err, size_t cap);

#endif
