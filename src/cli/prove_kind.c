/* The kinds' shared prove / verify flow: see prove_kind.h. */
#include "cli/prove_kind.h"

#include <stdlib.h>
#include <string.h>

#include "cli/porep_params.h"
#include "groth16/prover.h"
#include "util/file_write.h"
#include "util/hex.h"
#include "util/timing.h"

/* The blank circuit of j, for the pce's recording. */
static int blank(r1cs_cs *cs, void *arg) {
    const cli_kind_prove *j = arg;
    return j->circuit->kind->synthesize(cs, j->shape, NULL);
}

/* What the parameters must contain: every count, or the public inputs of
 * partition 0 (and ONE). */
static int expect_of(porep_params_expect *e, const cli_kind_prove *j) {
    memset(e, 0, sizeof *e);
    if (j->count_params) {
        if (params_expect_of(e, j->circuit->kind, j->shape) == 0)
            return 0;
        fprintf(stderr, "cuzk %s: cannot count the %s circuit\n", j->cmd, j->proof_name);
        return -1;
    }
    fc_kind_part p;
    unsigned long long k;
    if (j->part(j->ctx, 0, &p, &k))
        return -1;
    e->inputs = p.n_inputs + 1;
    return 0;
}

/* Proves partition i into *proof, self-verified, with a line on stderr. */
static int prove_one(groth16_proof *proof, const cli_kind_prove *j, size_t i,
                     const porep_params_loaded *lp, const groth16_pvk *pvk, const r1cs_pce *pce,
                     cli_kind_timing *t) {
    fc_kind_part p;
    unsigned long long k;
    if (j->part(j->ctx, i, &p, &k))
        return -1;
    const cli_prover pr = {j->o->backend, j->o->rs_seed, j->threads, pce, p.witness};
    cli_prove_stats st;
    if (cli_prove_checked(proof, j->cmd, k, i, p.synth, p.synth_arg, p.inputs, p.n_inputs, &lp->d,
                          pvk, &pr, &st))
        return -1;
    t->synth += st.synth_ms;
    t->prove += st.prove_ms;
    t->verify += st.verify_ms;
    groth16_prove_timing_add(&t->p, &st.pt);
    fprintf(stderr,
            "%s: partition %llu: %zu rows; synthesis %.1f ms, prove %.1f ms (%s backend), "
            "verify %.1f ms\n",
            j->cmd, k, st.rows, st.synth_ms, st.prove_ms, j->o->backend->name, st.verify_ms);
    return 0;
}

/* The proofs, concatenated, to j->out; 0, or -1 after a message. */
static int write_proofs(const cli_kind_prove *j, const groth16_proof *proofs) {
    const size_t n = j->n * GROTH16_PROOF_BYTES;
    uint8_t *bytes = malloc(n);
    char werr[512] = "out of memory";
    for (size_t i = 0; bytes && i < j->n; i++)
        groth16_proof_write(bytes + i * GROTH16_PROOF_BYTES, &proofs[i]);
    int rc = bytes ? file_write_atomic(j->out, bytes, n, werr, sizeof werr) : -1;
    if (rc)
        fprintf(stderr, "cuzk %s: %s\n", j->cmd, werr);
    free(bytes);
    return rc;
}

int cli_prove_kind(const cli_kind_prove *j, double t0, cli_kind_timing *tp) {
    cli_kind_timing t;
    memset(&t, 0, sizeof t);
    const double t1 = timing_now_ms();
    char params[4096], vk[4096], meta[4096];
    if (params_paths_of(params, vk, meta, sizeof params, j->dir, j->circuit)) {
        fprintf(stderr, "cuzk %s: parameter path too long\n", j->cmd);
        return 1;
    }
    porep_params_expect e;
    porep_params_loaded lp;
    groth16_pvk pvk;
    if (expect_of(&e, j) || cli_params_open(&lp, &pvk, j->cmd, params, meta, &e, j->threads,
                                            j->o->trust_params, j->o->backend))
        return 1;
    t.params = timing_now_ms() - t1;
    fprintf(stderr, "%s: %s, %zu partition%s; parameters loaded\n", j->cmd, j->proof_name, j->n,
            j->n == 1 ? "" : "s");
    groth16_proof *proofs = calloc(j->n, sizeof *proofs);
    int rc = 1;
    if (!proofs) {
        fprintf(stderr, "cuzk %s: out of memory\n", j->cmd);
    } else {
        /* the pce beside the parameters (recorded on first use), as the engine */
        r1cs_pce pce;
        const int have_pce =
            cli_pce_load(&pce, j->cmd, params, j->circuit->id, blank, (void *)j, j->threads);
        size_t k = 0;
        while (k < j->n && prove_one(&proofs[k], j, k, &lp, &pvk, have_pce ? &pce : NULL, &t) == 0)
            k++;
        if (have_pce)
            pce_free(&pce);
        const double tw = timing_now_ms();
        if (k == j->n && write_proofs(j, proofs) == 0) {
            t.write = timing_now_ms() - tw;
            printf("%s: %s: %zu proof%s (%zu bytes) verified and written to %s in %.1f s\n", j->cmd,
                   j->proof_name, j->n, j->n == 1 ? "" : "s", j->n * GROTH16_PROOF_BYTES, j->out,
                   (timing_now_ms() - t0) / 1e3);
            rc = 0;
        }
    }
    free(proofs);
    groth16_pvk_free(&pvk);
    porep_params_free(&lp);
    if (tp)
        *tp = t;
    return rc;
}

int cli_verify_kind(const char *cmd, const fc_circuit *circuit, const char *dir,
                    const char *proof_path, int trust, size_t n, const char *what,
                    cli_public_fn public_fn, void *ctx) {
    char params[4096], vk[4096], meta[4096];
    if (params_paths_of(params, vk, meta, sizeof vk, dir, circuit)) {
        fprintf(stderr, "cuzk %s: parameter path too long\n", cmd);
        return 2;
    }
    return cli_verify_partitions(cmd, what, proof_path, vk, trust, n, public_fn, ctx);
}

void cli_print_inputs(FILE *to, const fr *in, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint8_t b[FR_BYTES];
        char hex[2 * FR_BYTES + 1];
        fr_to_bytes_le(b, &in[i]);
        hex_encode(hex, b, FR_BYTES);
        fprintf(to, "%s\n", hex);
    }
}
