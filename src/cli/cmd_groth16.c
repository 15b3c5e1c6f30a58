/* Generic Groth16 commands over the built-in test circuits.  Each step that
 * can fail says what and where; a proof is written only after it verified. */
#include "cli/cmd_groth16.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/backend_pick.h"
#include "cli/porep_params.h"
#include "cuzk/version.h"
#include "cli/toy_circuits.h"
#include "groth16/backend.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "util/file_write.h"
#include "util/hex.h"
#include "util/parallel.h"
#include "util/timing.h"

typedef struct {
    const char *circuit, *params, *vk, *proof, *public_path, *backend;
    unsigned threads, reps;
} args;

static int parse_args(args *a, int argc, char **argv, const char *usage) {
    memset(a, 0, sizeof *a);
    a->threads = par_cpu_count();
    a->reps = 3;
    const char *reps = NULL;
    const cli_opt opts[] = {
        {"--circuit", &a->circuit}, {"--params", &a->params},      {"--vk", &a->vk},
        {"--proof", &a->proof},     {"--public", &a->public_path}, {"--reps", &reps},
        {"--backend", &a->backend}};
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], &a->threads, usage))
        return -1;
    if (reps && (a->reps = (unsigned)atoi(reps)) < 1) {
        fprintf(stderr, "cuzk: --reps wants a positive count, got \"%s\"\n", reps);
        return -1;
    }
    return 0;
}

static int get_circuit(toy_circuit *c, const args *a) {
    char why[256];
    if (!a->circuit) {
        fprintf(stderr, "cuzk: --circuit is required (cubic[:X] or random:N[:SEED])\n");
        return -1;
    }
    if (toy_circuit_parse(c, a->circuit, why, sizeof why) != 0) {
        fprintf(stderr, "cuzk: %s\n", why);
        return -1;
    }
    return 0;
}

static int synthesize(void *out, r1cs_mode mode, toy_circuit *c) {
    r1cs_cs *cs = r1cs_cs_new(mode, 0, NULL);
    if (!cs) {
        fprintf(stderr, "cuzk: out of memory\n");
        return -1;
    }
    int rc = r1cs_synthesize(cs, c->fn, c);
    if (rc == R1CS_OK)
        rc = mode == R1CS_RECORD ? r1cs_take_matrices(cs, out) : r1cs_take_partition(cs, out);
    if (rc != R1CS_OK)
        fprintf(stderr, "cuzk: synthesis failed: %s\n", r1cs_error_message(cs));
    r1cs_cs_free(cs);
    return rc == R1CS_OK ? 0 : -1;
}

/* The .params format has no room for a warning, so a sidecar says it, like
 * Filecoin's .meta files beside its parameters: FILE.meta, JSON. */
static int write_meta(const char *params_path, const char *circuit) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s.meta", params_path) >= (int)sizeof path)
        return -1;
    json_t *m = json_pack("{s:b, s:s, s:s, s:s}", "test_only", 1, "warning",
                          "TEST-ONLY parameters from random toxic waste seen by one process: "
                          "whoever ran this setup can forge proofs",
                          "generator", "cuzk setup " CUZK_VERSION_STRING, "circuit", circuit);
    int rc = m ? json_dump_file(m, path, JSON_INDENT(2)) : -1;
    json_decref(m);
    return rc;
}

int cmd_setup(int argc, char **argv) {
    const char *usage = "cuzk setup --circuit SPEC --params FILE --vk FILE [--threads N]";
    args a;
    toy_circuit c;
    if (parse_args(&a, argc, argv, usage) || get_circuit(&c, &a))
        return 2;
    if (!a.params || !a.vk) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    fprintf(stderr, "cuzk setup: WARNING: TEST-ONLY PARAMETERS. They come from random toxic "
                    "waste that this process saw; whoever has it can forge proofs. Never use "
                    "them for anything but tests and benchmarks.\n");
    r1cs_matrices mx;
    if (synthesize(&mx, R1CS_RECORD, &c))
        return 1;
    groth16_toxic t;
    groth16_setup_result s;
    groth16_error err = {0};
    double t0 = timing_now_ms();
    int rc = 1;
    if (groth16_toxic_random(&t, &err) == GROTH16_OK &&
        groth16_setup(&s, &mx, &t, a.threads, &err) == GROTH16_OK) {
        memset(&t, 0, sizeof t); /* the waste goes no further than this process */
        groth16_params_data d = groth16_setup_data(&s);
        FILE *pf = fopen(a.params, "wb"), *vf = fopen(a.vk, "wb");
        if (!pf || !vf) {
            fprintf(stderr, "cuzk setup: cannot create %s\n", !pf ? a.params : a.vk);
        } else if (groth16_params_write(pf, &d, &err) == GROTH16_OK &&
                   groth16_vk_write_file(vf, &s.vk, &err) == GROTH16_OK) {
            rc = 0;
        }
        if (pf && fclose(pf) != 0)
            rc = 1;
        if (vf && fclose(vf) != 0)
            rc = 1;
        if (rc == 0 && write_meta(a.params, a.circuit) != 0) {
            fprintf(stderr, "cuzk setup: cannot write %s.meta\n", a.params);
            rc = 1;
        }
        if (rc == 0)
            printf("setup: %zu rows, %zu inputs, %zu aux; h %zu, l %zu, a %zu, b %zu points; "
                   "%.1f ms\n",
                   mx.num_constraints, mx.num_inputs, mx.num_aux, s.n_h, s.n_l, s.n_a, s.n_b,
                   timing_now_ms() - t0);
        groth16_setup_free(&s);
    }
    if (err.status != GROTH16_OK)
        fprintf(stderr, "cuzk setup: %s\n", err.msg);
    r1cs_matrices_free(&mx);
    return rc;
}

static int write_public(const char *path, const fr *in, size_t n) {
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# public inputs: 32-byte little-endian canonical Fr, one per line\n");
    for (size_t i = 0; i < n; i++) {
        uint8_t b[FR_BYTES];
        char hex[2 * FR_BYTES + 1];
        fr_to_bytes_le(b, &in[i]);
        hex_encode(hex, b, FR_BYTES);
        fprintf(f, "%s\n", hex);
    }
    return fclose(f);
}

int cmd_prove(int argc, char **argv) {
    const char *usage = "cuzk prove --circuit SPEC --params FILE --proof FILE [--public FILE] "
                        "[--threads N] [--backend cpu|cuda]";
    args a;
    toy_circuit c;
    if (parse_args(&a, argc, argv, usage) || get_circuit(&c, &a))
        return 2;
    if (!a.params || !a.proof) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    /* every section decoded, curve-checked (porep_params.h's loader serves any circuit) */
    porep_params_loaded lp;
    char lerr[512];
    if (porep_params_load(&lp, a.params, NULL, NULL, a.threads, 1, lerr, sizeof lerr)) {
        fprintf(stderr, "cuzk: %s\n", lerr);
        return 1;
    }
    r1cs_partition part;
    int rc = 1;
    double t0 = timing_now_ms();
    if (synthesize(&part, R1CS_PROVE, &c)) {
        porep_params_free(&lp);
        return 1;
    }
    double synth_ms = timing_now_ms() - t0;
    groth16_error err = {0};
    groth16_proof proof;
    groth16_pvk pvk;
    groth16_prove_timing t;
    const groth16_backend *be = cli_pick_backend(a.backend);
    if (!be) {
        r1cs_partition_free(&part);
        porep_params_free(&lp);
        return 2;
    }
    if (groth16_backend_prove(be, &proof, &part, 1, &lp.d, NULL, NULL, a.threads, &t, &err) ==
            GROTH16_OK &&
        groth16_pvk_prepare(&pvk, &lp.gp.vk, &err) == GROTH16_OK) {
        /* never hand out a proof that does not verify */
        if (groth16_verify(&pvk, &proof, part.input + 1, part.num_inputs - 1, &err) == GROTH16_OK) {
            uint8_t bytes[GROTH16_PROOF_BYTES];
            char werr[512];
            groth16_proof_write(bytes, &proof);
            if (file_write_atomic(a.proof, bytes, sizeof bytes, werr, sizeof werr) != 0) {
                fprintf(stderr, "cuzk prove: %s\n", werr);
            } else if (a.public_path &&
                       write_public(a.public_path, part.input + 1, part.num_inputs - 1) != 0) {
                fprintf(stderr, "cuzk prove: cannot write %s\n", a.public_path);
            } else {
                printf("prove: %zu rows; synthesis %.1f ms, prove %.1f ms; proof verified\n",
                       part.num_constraints, synth_ms, t.total_ms);
                rc = 0;
            }
        } else {
            fprintf(stderr, "cuzk prove: the proof failed self-verification (%s); not written\n",
                    err.msg);
        }
        groth16_pvk_free(&pvk);
    } else {
        fprintf(stderr, "cuzk prove: %s\n", err.msg);
    }
    r1cs_partition_free(&part);
    porep_params_free(&lp);
    return rc;
}

static fr *read_public(const char *path, size_t *n) {
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 16;
    fr *v = malloc(cap * sizeof *v);
    char line[256];
    *n = 0;
    while (v && fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\r\n");
        line[len] = 0;
        if (len == 0 || line[0] == '#')
            continue;
        uint8_t b[FR_BYTES];
        if (hex_decode(b, sizeof b, line) != FR_BYTES || (*n == cap && !(cap *= 2, 1))) {
            fprintf(stderr, "cuzk verify: %s: line \"%s\" is not 64 hex digits\n", path, line);
            free(v);
            v = NULL;
            break;
        }
        fr *nv = realloc(v, cap * sizeof *v);
        if (!nv || !fr_from_bytes_le(&nv[*n], b)) {
            fprintf(stderr, "cuzk verify: %s: \"%s\" is not a canonical Fr element\n", path, line);
            free(nv ? nv : v);
            v = NULL;
            break;
        }
        v = nv;
        (*n)++;
    }
    fclose(f);
    return v;
}

int cmd_verify(int argc, char **argv) {
    const char *usage = "cuzk verify --vk FILE --proof FILE --public FILE";
    args a;
    if (parse_args(&a, argc, argv, usage))
        return 2;
    if (!a.vk || !a.proof || !a.public_path) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    groth16_error err = {0};
    groth16_vk vk;
    if (groth16_vk_load(&vk, a.vk, &err) != GROTH16_OK) {
        fprintf(stderr, "cuzk verify: %s: %s\n", a.vk, err.msg);
        return 2;
    }
    int rc = 2;
    uint8_t bytes[GROTH16_PROOF_BYTES + 1];
    FILE *f = fopen(a.proof, "rb");
    size_t got = f ? fread(bytes, 1, sizeof bytes, f) : 0;
    if (f)
        fclose(f);
    size_t n = 0;
    fr *pub = read_public(a.public_path, &n);
    groth16_proof proof;
    groth16_pvk pvk;
    if (!f || got != GROTH16_PROOF_BYTES) {
        fprintf(stderr, "cuzk verify: %s: expected exactly %d bytes\n", a.proof,
                GROTH16_PROOF_BYTES);
    } else if (!pub) {
        fprintf(stderr, "cuzk verify: cannot read public inputs from %s\n", a.public_path);
    } else if (groth16_proof_read(&proof, bytes, &err) != GROTH16_OK ||
               groth16_pvk_prepare(&pvk, &vk, &err) != GROTH16_OK) {
        fprintf(stderr, "cuzk verify: %s\n", err.msg);
    } else {
        groth16_status st = groth16_verify(&pvk, &proof, pub, n, &err);
        if (st == GROTH16_OK) {
            printf("OK\n");
            rc = 0;
        } else if (st == GROTH16_ERR_INVALID_PROOF) {
            printf("INVALID\n");
            rc = 1;
        } else {
            fprintf(stderr, "cuzk verify: %s\n", err.msg);
        }
        groth16_pvk_free(&pvk);
    }
    free(pub);
    groth16_vk_free(&vk);
    return rc;
}

int cmd_bench_prove(int argc, char **argv) {
    const char *usage = "cuzk bench prove --circuit random:N[:SEED] [--threads N] [--reps R] "
                        "[--backend cpu|cuda]";
    args a;
    toy_circuit c;
    if (parse_args(&a, argc, argv, usage))
        return 2;
    if (!a.circuit)
        a.circuit = "random:65536:1";
    if (get_circuit(&c, &a))
        return 2;
    const groth16_backend *be = cli_pick_backend(a.backend);
    if (!be)
        return 2;
    r1cs_matrices mx;
    r1cs_partition part;
    double t0 = timing_now_ms();
    if (synthesize(&mx, R1CS_RECORD, &c))
        return 1;
    groth16_toxic tox;
    groth16_setup_result s;
    groth16_error err = {0};
    if (groth16_toxic_random(&tox, &err) || groth16_setup(&s, &mx, &tox, a.threads, &err)) {
        fprintf(stderr, "cuzk bench: %s\n", err.msg);
        r1cs_matrices_free(&mx);
        return 1;
    }
    double t1 = timing_now_ms();
    printf("bench prove %s: %zu rows, %zu inputs, %zu aux; threads %u; backend %s; test setup "
           "%.0f ms\n",
           a.circuit, mx.num_constraints, mx.num_inputs, mx.num_aux, a.threads, be->name, t1 - t0);
    groth16_params_data d = groth16_setup_data(&s);
    int rc = 0;
    for (unsigned r = 0; r < a.reps && rc == 0; r++) {
        double ts = timing_now_ms();
        if (synthesize(&part, R1CS_PROVE, &c)) {
            rc = 1;
            break;
        }
        double synth = timing_now_ms() - ts;
        groth16_proof proof;
        groth16_prove_timing t;
        if (groth16_backend_prove(be, &proof, &part, 1, &d, NULL, NULL, a.threads, &t, &err)) {
            fprintf(stderr, "cuzk bench: %s\n", err.msg);
            rc = 1;
        } else {
            printf("rep %u: synthesis %.1f ms + ", r, synth);
            fflush(stdout);
            groth16_prove_timing_print(&t, r);
        }
        r1cs_partition_free(&part);
    }
    groth16_setup_free(&s);
    r1cs_matrices_free(&mx);
    return rc;
}
