/* One partition proved the way every `cuzk prove …` command does it:
 * proving-mode synthesis, the circuit's public inputs compared with the
 * natively derived ones, the chosen backend (r, s fresh or from --rs-seed),
 * and the proof verified before anyone sees it. */
#ifndef CUZK_CLI_PROVE_CHECKED_H
#define CUZK_CLI_PROVE_CHECKED_H

#include <stddef.h>

#include "groth16/backend.h"
#include "groth16/proof.h"
#include "groth16/verify.h"
#include "r1cs/cs.h"

/* Synthesizes the partition's circuit into cs; 0 on success. */
typedef int (*cli_synth_fn)(r1cs_cs *cs, const void *ctx);

typedef struct {
    const groth16_backend *backend;
    const char *rs_seed; /* NULL: fresh r, s (see backend_pick.h) */
    unsigned threads;
} cli_prover;

typedef struct {
    double synth_ms, prove_ms, verify_ms;
    size_t rows;
    groth16_prove_timing pt; /* the backend's own breakdown */
} cli_prove_stats;

/* Proves partition k (named in messages as "cuzk CMD: partition K: …"; r, s
 * from the seed's index rs_index) into *proof and verifies it against inputs.
 * 0, or -1 after a message on stderr: synthesis failed, the inputs differ,
 * the backend failed, or the proof does not verify (then nothing may be
 * written). */
int cli_prove_checked(groth16_proof *proof, const char *cmd, unsigned long long k, size_t rs_index,
                      cli_synth_fn synth, const void *ctx, const fr *inputs, size_t n_inputs,
                      const groth16_params_data *params, const groth16_pvk *pvk,
                      const cli_prover *pr, cli_prove_stats *st);

#endif
