/* One partition proved the way every `cuzk prove …` command does it: the
 * shared routine groth16_prove_one_checked (synthesis, inputs compared with
 * the natively derived ones, the chosen backend with r, s fresh or from
 * --rs-seed, self-verification, a CPU retry), with the CLI's messages. */
#ifndef CUZK_CLI_PROVE_CHECKED_H
#define CUZK_CLI_PROVE_CHECKED_H

#include <stddef.h>

#include "groth16/prove_checked.h"
#include "r1cs/cs.h"
#include "r1cs/pce.h"

typedef struct {
    const groth16_backend *backend;
    const char *rs_seed; /* NULL: fresh r, s (see backend_pick.h) */
    unsigned threads;
    const r1cs_pce *pce;        /* NULL: classic synthesis */
    groth16_witness_fn witness; /* with pce: the partition's witness (ctx as its arg) */
} cli_prover;

/* The pce of circuit_id for `cuzk prove`: when the switch pce is on, the
 * .pce beside params_path (the .params file), built from blank(cs, arg) on
 * first use (pce_cache.h).  1 with *out filled (pce_free it), 0 when PCE is
 * off or could not be had (then a message on stderr and classic synthesis). */
int cli_pce_load(r1cs_pce *out, const char *cmd, const char *params_path, const char *circuit_id,
                 r1cs_synth_fn blank, void *arg, unsigned threads);

typedef groth16_one_stats cli_prove_stats;

/* Proves partition k (named in messages as "cuzk CMD: partition K: …"; r, s
 * from the seed's index rs_index) into *proof and verifies it against inputs.
 * 0, or -1 after a message on stderr: synthesis failed, the inputs differ,
 * or neither the backend nor the CPU retry gave a proof that verifies (then
 * nothing may be written). */
int cli_prove_checked(groth16_proof *proof, const char *cmd, unsigned long long k, size_t rs_index,
                      r1cs_synth_fn synth, void *ctx, const fr *inputs, size_t n_inputs,
                      const groth16_params_data *params, const groth16_pvk *pvk,
                      const cli_prover *pr, cli_prove_stats *st);

#endif
