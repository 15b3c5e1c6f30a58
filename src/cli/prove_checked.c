/* The shared checked prove of the CLI's prove commands (prove_checked.h). */
#include "cli/prove_checked.h"

#include <stdio.h>
#include <string.h>

#include "cli/backend_pick.h"
#include "util/timing.h"

int cli_prove_checked(groth16_proof *proof, const char *cmd, unsigned long long k, size_t rs_index,
                      cli_synth_fn synth, const void *ctx, const fr *inputs, size_t n_inputs,
                      const groth16_params_data *params, const groth16_pvk *pvk,
                      const cli_prover *pr, cli_prove_stats *st) {
    memset(st, 0, sizeof *st);
    double t0 = timing_now_ms();
    int rc = -1;
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    r1cs_partition part;
    memset(&part, 0, sizeof part);
    if (!cs || synth(cs, ctx) || r1cs_finish(cs) || r1cs_take_partition(cs, &part)) {
        fprintf(stderr, "cuzk %s: partition %llu: synthesis failed: %s\n", cmd, k,
                cs ? r1cs_error_message(cs) : "out of memory");
        goto out;
    }
    double t1 = timing_now_ms();
    /* the inputs synthesis made must be the natively derived ones */
    int same = part.num_inputs == n_inputs + 1;
    for (size_t i = 0; same && i < n_inputs; i++)
        same = fr_equal(&part.input[i + 1], &inputs[i]);
    if (!same) {
        fprintf(stderr,
                "cuzk %s: partition %llu: the circuit's public inputs differ from the derived "
                "ones\n",
                cmd, k);
        goto out;
    }
    groth16_error ge = {0};
    fr r, s;
    if (pr->rs_seed && cli_rs_from_seed(&r, &s, pr->rs_seed, rs_index))
        goto out;
    if (pr->backend->prove(proof, &part, 1, params, pr->rs_seed ? &r : NULL,
                           pr->rs_seed ? &s : NULL, pr->threads, &st->pt, &ge) != GROTH16_OK) {
        fprintf(stderr, "cuzk %s: partition %llu: %s\n", cmd, k, ge.msg);
        goto out;
    }
    double t2 = timing_now_ms();
    if (groth16_verify(pvk, proof, inputs, n_inputs, &ge) != GROTH16_OK) {
        fprintf(stderr,
                "cuzk %s: partition %llu: the proof failed verification (%s); no proof "
                "written\n",
                cmd, k, ge.msg);
        goto out;
    }
    st->synth_ms = t1 - t0;
    st->prove_ms = t2 - t1;
    st->verify_ms = timing_now_ms() - t2;
    st->rows = part.num_constraints;
    rc = 0;
out:
    r1cs_partition_free(&part);
    r1cs_cs_free(cs);
    return rc;
}
