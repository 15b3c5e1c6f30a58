/* The CLI's face of the shared checked prove (prove_checked.h). */
#include "cli/prove_checked.h"

#include <stdio.h>
#include <string.h>

#include "cli/backend_pick.h"

int cli_prove_checked(groth16_proof *proof, const char *cmd, unsigned long long k, size_t rs_index,
                      r1cs_synth_fn synth, void *ctx, const fr *inputs, size_t n_inputs,
                      const groth16_params_data *params, const groth16_pvk *pvk,
                      const cli_prover *pr, cli_prove_stats *st) {
    memset(st, 0, sizeof *st);
    fr r, s;
    if (pr->rs_seed && cli_rs_from_seed(&r, &s, pr->rs_seed, rs_index))
        return -1;
    const groth16_prove_opts o = {pr->backend, pr->threads, pr->rs_seed ? &r : NULL,
                                  pr->rs_seed ? &s : NULL, 1};
    char err[512];
    if (groth16_prove_one_checked(proof, synth, ctx, inputs, n_inputs, params, pvk, &o, st, err,
                                  sizeof err)) {
        fprintf(stderr, "cuzk %s: partition %llu: %s; no proof written\n", cmd, k, err);
        return -1;
    }
    if (st->chk.retried)
        fprintf(stderr, "cuzk %s: partition %llu: %s\n", cmd, k, st->chk.msg);
    return 0;
}
