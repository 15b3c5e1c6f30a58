/* `cuzk prove zkey`, `cuzk verify zkey` (cmd_zkey.h).
 *
 * prove: --zkey F --wtns F --proof F --public F [--threads N] [--vk-out F]
 *   The environment variable CUZK_ZKEY_RS="r,s" (decimal) fixes the blinding
 *   (tests only: it makes the proof reproducible by another prover).
 * verify: --vk F --proof F --public F (snarkjs verification_key.json). */
#include "cli/cmd_zkey.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "groth16/prove_zkey.h"
#include "groth16/snarkjs_json.h"
#include "groth16/verify.h"
#include "groth16/zkey.h"
#include "util/parallel.h"

static const char *prove_usage =
    "cuzk prove zkey --zkey F --wtns F --proof proof.json --public public.json [--threads N] "
    "[--vk-out verification_key.json]";
static const char *verify_usage =
    "cuzk verify zkey --vk verification_key.json --proof proof.json --public public.json";

typedef struct {
    const char *zkey, *wtns, *proof, *public_path, *vk, *vk_out;
    unsigned threads;
} zargs;

static int parse(zargs *a, int argc, char **argv, const char *usage) {
    memset(a, 0, sizeof *a);
    a->threads = par_cpu_count();
    const cli_opt opts[] = {{"--zkey", &a->zkey},   {"--wtns", &a->wtns},
                            {"--proof", &a->proof}, {"--public", &a->public_path},
                            {"--vk", &a->vk},       {"--vk-out", &a->vk_out}};
    return cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], &a->threads, usage);
}

/* A decimal string < r (anything else: 0). */
static int parse_fr_dec(fr *out, const char *s, size_t len) {
    uint8_t le[FR_BYTES] = {0};
    if (len == 0 || len > 80)
        return 0;
    for (size_t k = 0; k < len; k++) {
        if (s[k] < '0' || s[k] > '9')
            return 0;
        unsigned carry = (unsigned)(s[k] - '0');
        for (int i = 0; i < FR_BYTES; i++) {
            unsigned v = le[i] * 10u + carry;
            le[i] = (uint8_t)v;
            carry = v >> 8;
        }
        if (carry)
            return 0;
    }
    return fr_from_bytes_le(out, le);
}

static int fixed_rs(fr *r, fr *s, int *have) {
    const char *e = getenv("CUZK_ZKEY_RS");
    *have = 0;
    if (!e || !*e)
        return 0;
    const char *comma = strchr(e, ',');
    if (!comma || !parse_fr_dec(r, e, (size_t)(comma - e)) ||
        !parse_fr_dec(s, comma + 1, strlen(comma + 1))) {
        fprintf(stderr, "cuzk: CUZK_ZKEY_RS wants \"r,s\" as decimal numbers < r\n");
        return -1;
    }
    *have = 1;
    return 0;
}

int cmd_prove_zkey(int argc, char **argv) {
    zargs a;
    if (parse(&a, argc, argv, prove_usage) != 0)
        return 2;
    if (!a.zkey || !a.wtns || !a.proof || !a.public_path) {
        fprintf(stderr, "cuzk: --zkey, --wtns, --proof and --public are required\nusage: %s\n",
                prove_usage);
        return 2;
    }
    fr r, s;
    int have_rs;
    if (fixed_rs(&r, &s, &have_rs) != 0)
        return 2;
    groth16_error err;
    zkey z;
    wtns w;
    memset(&w, 0, sizeof w);
    int rc = 1;
    if (zkey_load(&z, a.zkey, &err) != GROTH16_OK) {
        fprintf(stderr, "cuzk: %s: %s\n", a.zkey, err.msg);
        return 2;
    }
    if (wtns_load(&w, a.wtns, &err) != GROTH16_OK) {
        fprintf(stderr, "cuzk: %s: %s\n", a.wtns, err.msg);
        rc = 2;
        goto done;
    }
    groth16_proof proof;
    if (zkey_prove(&proof, &z, &w, have_rs ? &r : NULL, have_rs ? &s : NULL, a.threads, &err) !=
        GROTH16_OK) {
        fprintf(stderr, "cuzk: %s\n", err.msg);
        rc = err.status == GROTH16_ERR_ARG ? 2 : 1;
        goto done;
    }
    /* Check the proof before writing it (three Miller loops: cheap next to proving). */
    groth16_vk vk = {.alpha_g1 = z.alpha_g1,
                     .beta_g1 = z.beta_g1,
                     .beta_g2 = z.beta_g2,
                     .gamma_g2 = z.gamma_g2,
                     .delta_g1 = z.delta_g1,
                     .delta_g2 = z.delta_g2,
                     .ic = z.ic,
                     .n_ic = (size_t)z.n_public + 1};
    groth16_pvk pvk;
    fr *pub = malloc(((size_t)z.n_public + 1) * sizeof(fr));
    if (!pub || groth16_pvk_prepare(&pvk, &vk, &err) != GROTH16_OK) {
        fprintf(stderr, "cuzk: cannot prepare the verifying key%s%s\n", pub ? ": " : "",
                pub ? err.msg : "");
        free(pub);
        goto done;
    }
    for (size_t i = 0; i < z.n_public; i++)
        fr_from_bytes_le(&pub[i], w.bytes + (i + 1) * FR_BYTES);
    groth16_status vs = groth16_verify(&pvk, &proof, pub, z.n_public, &err);
    groth16_pvk_free(&pvk);
    free(pub);
    if (vs != GROTH16_OK) {
        fprintf(stderr,
                "cuzk: the proof does not verify (%s): the witness does not satisfy the "
                "circuit, or the zkey is inconsistent\n",
                err.msg);
        goto done;
    }
    if (snarkjs_write_proof(a.proof, &proof, &err) != GROTH16_OK ||
        snarkjs_write_public(a.public_path, &w, z.n_public, &err) != GROTH16_OK ||
        (a.vk_out && snarkjs_write_vk(a.vk_out, &z, &err) != GROTH16_OK)) {
        fprintf(stderr, "cuzk: %s\n", err.msg);
        goto done;
    }
    rc = 0;
done:
    wtns_free(&w);
    zkey_free(&z);
    return rc;
}

int cmd_verify_zkey(int argc, char **argv) {
    zargs a;
    if (parse(&a, argc, argv, verify_usage) != 0)
        return 2;
    if (!a.vk || !a.proof || !a.public_path || a.zkey || a.wtns) {
        fprintf(stderr, "cuzk: --vk, --proof and --public are required\nusage: %s\n", verify_usage);
        return 2;
    }
    groth16_error err;
    groth16_vk vk;
    groth16_proof proof;
    fr *pub = NULL;
    size_t n_pub = 0;
    if (snarkjs_read_vk(&vk, a.vk, &err) != GROTH16_OK) {
        fprintf(stderr, "cuzk: %s\n", err.msg);
        return 2;
    }
    int rc = 2;
    groth16_status st = snarkjs_read_proof(&proof, a.proof, &err);
    if (st == GROTH16_ERR_POINT) { /* well-formed numbers, but not a valid point: reject */
        fprintf(stderr, "cuzk: %s\n", err.msg);
        printf("INVALID\n");
        rc = 1;
        goto done;
    }
    if (st != GROTH16_OK || snarkjs_read_public(&pub, &n_pub, a.public_path, &err) != GROTH16_OK) {
        fprintf(stderr, "cuzk: %s\n", err.msg);
        goto done;
    }
    if (n_pub + 1 != vk.n_ic) {
        fprintf(stderr, "cuzk: %s has %zu values, the vk expects %zu\n", a.public_path, n_pub,
                vk.n_ic - 1);
        goto done;
    }
    groth16_pvk pvk;
    if (groth16_pvk_prepare(&pvk, &vk, &err) != GROTH16_OK) {
        fprintf(stderr, "cuzk: %s\n", err.msg);
        goto done;
    }
    st = groth16_verify(&pvk, &proof, pub, n_pub, &err);
    groth16_pvk_free(&pvk);
    if (st == GROTH16_OK) {
        printf("OK\n");
        rc = 0;
    } else if (st == GROTH16_ERR_INVALID_PROOF) {
        printf("INVALID\n");
        rc = 1;
    } else {
        fprintf(stderr, "cuzk: %s\n", err.msg);
    }
done:
    free(pub);
    groth16_vk_free(&vk);
    return rc;
}
