/* What the Filecoin circuit providers share: sizing a circuit's synthesized
 * partition once per circuit id, and proving-mode synthesis whose public
 * inputs must equal the natively derived ones. */
#ifndef CUZK_ENGINE_PROVIDER_UTIL_H
#define CUZK_ENGINE_PROVIDER_UTIL_H

#include "engine/circuit_provider.h"
#include "groth16/prove_checked.h"
#include "r1cs/cs.h"
#include "r1cs/pce_cache.h"

/* Heap bytes of one synthesized partition of circuit_id (rows x a, b, c;
 * assignments; density bitmaps), from the Filecoin circuits' table
 * (filecoin/circuit_counts.h: a cold engine counts no 32 GiB circuit), else
 * counted on the blank circuit blank(cs, arg) the first time; cached for the
 * process.  0 when counting fails. */
uint64_t provider_partition_bytes(const char *circuit_id, r1cs_synth_fn blank, void *arg);

/* The blank circuit's counts that provider_partition_bytes took for
 * circuit_id (rows, inputs, aux, nnz): 0, or -1 when it has not counted it. */
int provider_shape_counts(const char *circuit_id, pce_shape_counts *out);

/* The source of a provider's partition: classic synth(arg), or, with use
 * (may be NULL: classic), its pce through witness(witness_arg) as use says. */
groth16_synth_source provider_source(r1cs_synth_fn synth, void *arg, groth16_witness_fn witness,
                                     void *witness_arg, const engine_pce_use *use);

/* groth16_synthesize_source (a fall-back to classic synthesis is logged)
 * with the engine's statuses: synth(cs, arg) in
 * proving mode into *out, its public inputs (after ONE) checked against
 * inputs[0..n_inputs).  CUZK_OK, or an error with err filled ("<what>: ...")
 * and *out empty. */
cuzk_status provider_synthesize(r1cs_partition *out, const groth16_synth_source *src,
                                const fr *inputs, size_t n_inputs, const char *what,
                                char err[CUZK_ERROR_LEN]);

#endif
