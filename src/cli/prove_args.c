/* The shared options and loading of the prove / verify commands: see
 * prove_args.h. */
#include "cli/prove_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/backend_pick.h"
#include "filecoin/param_digest.h"
#include "groth16/proof.h"
#include "groth16/vk.h"

int cli_parse_u64(uint64_t *out, const char *s, const char *cmd, const char *what) {
    char *end;
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') {
        fprintf(stderr, "cuzk %s: %s: a number is required\n", cmd, what);
        return -1;
    }
    errno = 0;
    *out = strtoull(s, &end, 10);
    if (*end || errno == ERANGE) {
        fprintf(stderr, "cuzk %s: %s: \"%s\" is not a number\n", cmd, what, s);
        return -1;
    }
    return 0;
}

int cli_take_flag(int *argc, char **argv, const char *flag) {
    int n = 0, k = 0;
    for (int i = 0; i < *argc; i++) {
        if (strcmp(argv[i], flag) == 0)
            n++;
        else
            argv[k++] = argv[i];
    }
    *argc = k;
    return n;
}

int cli_prove_opts_check(cli_prove_opts *o, const char *cmd) {
    fr probe_r, probe_s;
    if (o->rs_seed && cli_rs_from_seed(&probe_r, &probe_s, o->rs_seed, 0))
        return -1;
    if (!(o->backend = cli_pick_backend(o->backend_name)))
        return -1;
    if (o->rs_seed)
        fprintf(stderr,
                "%s: WARNING: --rs-seed fixes r and s: these proofs are for testing only "
                "(whoever knows the seed can strip their zero knowledge)\n",
                cmd);
    return 0;
}

int cli_param_digest(const char *cmd, const char *path, int trust) {
    char why[1024] = "";
    fc_param_check_result r = fc_param_check_load(path, trust, why, sizeof why);
    switch (r) {
    case FC_PARAM_MISMATCH:
    case FC_PARAM_IO:
        fprintf(stderr, "cuzk %s: %s\n", cmd, why);
        return -1;
    case FC_PARAM_TEST_ONLY:
        fprintf(stderr, "%s: WARNING: %s\n", cmd, why);
        return 0;
    case FC_PARAM_TRUSTED:
        if (fc_param_published_digest(strrchr(path, '/') ? strrchr(path, '/') + 1 : path))
            fprintf(stderr, "%s: %s: digest not checked (--trust-params / TRUST_PARAMS=1)\n", cmd,
                    path);
        return 0;
    case FC_PARAM_VERIFIED:
        fprintf(stderr, "%s: %s: digest matches Filecoin's parameters.json\n", cmd, path);
        return 0;
    case FC_PARAM_UNPUBLISHED:
        return 0;
    }
    return 0;
}

int cli_params_open(porep_params_loaded *lp, groth16_pvk *pvk, const char *cmd, const char *params,
                    const char *meta, const porep_params_expect *e, unsigned threads, int trust,
                    const groth16_backend *backend) {
    char err[512];
    if (cli_param_digest(cmd, params, trust))
        return -1;
    int on_host = groth16_params_on_host(&backend, 1);
    if (porep_params_load(lp, params, meta, e, threads, on_host, err, sizeof err)) {
        fprintf(stderr, "cuzk %s: %s\n", cmd, err);
        return -1;
    }
    if (lp->test_only)
        fprintf(stderr, "%s: WARNING: %s are TEST-ONLY parameters (see its .meta)\n", cmd, params);
    groth16_error ge = {0};
    if (groth16_pvk_prepare(pvk, &lp->gp.vk, &ge) != GROTH16_OK) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, params, ge.msg);
        porep_params_free(lp);
        return -1;
    }
    return 0;
}

int cli_vk_open(groth16_vk *vk, groth16_pvk *pvk, const char *cmd, const char *vk_path, int trust) {
    if (cli_param_digest(cmd, vk_path, trust))
        return -1;
    groth16_error ge = {0};
    if (groth16_vk_load(vk, vk_path, &ge) != GROTH16_OK ||
        groth16_pvk_prepare(pvk, vk, &ge) != GROTH16_OK) {
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, vk_path, ge.msg);
        return -1;
    }
    return 0;
}

int cli_verify_partitions(const char *cmd, const char *what, const char *proof_path,
                          const char *vk_path, int trust, size_t n, cli_public_fn public_fn,
                          void *ctx) {
    int rc = 2;
    groth16_error ge = {0};
    groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    groth16_pvk pvk;
    memset(&pvk, 0, sizeof pvk);
    groth16_proof *proofs = calloc(n ? n : 1, sizeof *proofs);
    if (!proofs) {
        fprintf(stderr, "cuzk %s: out of memory\n", cmd);
    } else if (cli_proofs_read(proofs, n, proof_path, cmd, what) == 0 &&
               cli_vk_open(&vk, &pvk, cmd, vk_path, trust) == 0) {
        rc = 0;
        for (size_t i = 0; i < n && rc != 2; i++) {
            fr *in = NULL;
            size_t n_in = 0;
            unsigned long long k = i;
            if (public_fn(ctx, i, &in, &n_in, &k)) {
                rc = 2;
                break;
            }
            groth16_status st = groth16_verify(&pvk, &proofs[i], in, n_in, &ge);
            if (st == GROTH16_ERR_INVALID_PROOF) {
                printf("INVALID (partition %llu)\n", k);
                rc = 1;
            } else if (st != GROTH16_OK) {
                fprintf(stderr, "cuzk %s: partition %llu: %s\n", cmd, k, ge.msg);
                rc = 2;
            }
            free(in);
        }
    }
    groth16_pvk_free(&pvk);
    groth16_vk_free(&vk);
    free(proofs);
    return rc;
}

int cli_proofs_read(groth16_proof *proofs, size_t n, const char *path, const char *cmd,
                    const char *what) {
    const size_t want = n * GROTH16_PROOF_BYTES;
    uint8_t *bytes = malloc(want + 1);
    if (!bytes) {
        fprintf(stderr, "cuzk %s: out of memory\n", cmd);
        return -1;
    }
    FILE *pf = fopen(path, "rb");
    size_t got = pf ? fread(bytes, 1, want + 1, pf) : 0, k = 0;
    if (pf)
        fclose(pf);
    groth16_error ge = {0};
    int rc = -1;
    if (!pf)
        fprintf(stderr, "cuzk %s: cannot read %s\n", cmd, path);
    else if (got != want)
        fprintf(stderr, "cuzk %s: %s: %zu%s bytes, %s: expected %zu\n", cmd, path, got,
                got > want ? "+" : "", what, want);
    else if (groth16_proof_read_many(proofs, n, &k, bytes, want, &ge) != GROTH16_OK)
        fprintf(stderr, "cuzk %s: %s: %s\n", cmd, path, ge.msg);
    else
        rc = 0;
    free(bytes);
    return rc;
}
