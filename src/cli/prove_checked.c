/* The CLI's face of the shared checked prove (prove_checked.h). */
#include "cli/prove_checked.h"

#include <stdio.h>
#include <string.h>

#include "cli/backend_pick.h"
#include "r1cs/pce_cache.h"
#include "util/switches.h"

int cli_pce_load(r1cs_pce *out, const char *cmd, const char *params_path, const char *circuit_id,
                 r1cs_synth_fn blank, void *arg, unsigned threads) {
    memset(out, 0, sizeof *out);
    if (!switch_get(SW_PCE))
        return 0;
    char dir[4096], stem[256];
    const char *slash = strrchr(params_path, '/');
    const char *base = slash ? slash + 1 : params_path;
    size_t dl = slash ? (size_t)(slash - params_path) : 1;
    size_t bl = strlen(base);
    if (bl > 7 && strcmp(base + bl - 7, ".params") == 0)
        bl -= 7;
    if (dl >= sizeof dir || bl >= sizeof stem) {
        fprintf(stderr, "cuzk %s: parameter path too long for a .pce; classic synthesis\n", cmd);
        return 0;
    }
    snprintf(dir, sizeof dir, "%.*s", (int)dl, slash ? params_path : ".");
    snprintf(stem, sizeof stem, "%.*s", (int)bl, base);
    pce_obtain_info info;
    char err[512];
    if (pce_obtain(dir, circuit_id, stem, blank, arg, NULL, threads, out, &info, err, sizeof err)) {
        fprintf(stderr, "cuzk %s: no pce for %s (%s); classic synthesis\n", cmd, circuit_id, err);
        return 0;
    }
    if (info.note[0])
        fprintf(stderr, "cuzk %s: %s\n", cmd, info.note);
    fprintf(stderr, "%s: pce %s %s/%s.pce (%.1f ms)\n", cmd,
            info.built ? (info.in_memory ? "recorded in memory for" : "recorded into")
                       : "loaded from",
            dir, stem, info.ms);
    return 1;
}

int cli_prove_checked(groth16_proof *proof, const char *cmd, unsigned long long k, size_t rs_index,
                      r1cs_synth_fn synth, void *ctx, const fr *inputs, size_t n_inputs,
                      const groth16_params_data *params, const groth16_pvk *pvk,
                      const cli_prover *pr, cli_prove_stats *st) {
    memset(st, 0, sizeof *st);
    fr r, s;
    if (pr->rs_seed && cli_rs_from_seed(&r, &s, pr->rs_seed, rs_index))
        return -1;
    const groth16_prove_opts o = {
        pr->backend, pr->threads, pr->rs_seed ? &r : NULL, pr->rs_seed ? &s : NULL, 1, NULL};
    char err[512];
    const groth16_synth_source src = {
        synth, ctx, pr->pce, pr->witness, ctx, pr->threads, groth16_backend_defers_abc(pr->backend),
        0};
    if (groth16_prove_one_checked(proof, &src, inputs, n_inputs, params, pvk, &o, st, err,
                                  sizeof err)) {
        fprintf(stderr, "cuzk %s: partition %llu: %s; no proof written\n", cmd, k, err);
        return -1;
    }
    if (st->fell_back)
        fprintf(stderr, "cuzk %s: partition %llu: %s\n", cmd, k, st->note);
    if (st->chk.retried)
        fprintf(stderr, "cuzk %s: partition %llu: %s\n", cmd, k, st->chk.msg);
    return 0;
}
