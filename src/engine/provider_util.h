/* What the Filecoin circuit providers share: sizing a circuit's synthesized
 * partition once per circuit id, and proving-mode synthesis whose public
 * inputs must equal the natively derived ones. */
#ifndef CUZK_ENGINE_PROVIDER_UTIL_H
#define CUZK_ENGINE_PROVIDER_UTIL_H

#include "engine/circuit_provider.h"
#include "r1cs/cs.h"

/* Heap bytes of one synthesized partition of circuit_id (rows x a, b, c;
 * assignments; density bitmaps), counted on the blank circuit blank(cs, arg)
 * the first time and cached for the process.  0 when counting fails. */
uint64_t provider_partition_bytes(const char *circuit_id, r1cs_synth_fn blank, void *arg);

/* groth16_synthesize_checked with the engine's statuses: synth(cs, arg) in
 * proving mode into *out, its public inputs (after ONE) checked against
 * inputs[0..n_inputs).  CUZK_OK, or an error with err filled ("<what>: ...")
 * and *out empty. */
cuzk_status provider_synthesize(r1cs_partition *out, r1cs_synth_fn synth, void *arg,
                                const fr *inputs, size_t n_inputs, const char *what,
                                char err[CUZK_ERROR_LEN]);

#endif
