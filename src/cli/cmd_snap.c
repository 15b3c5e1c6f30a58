/* cuzk prove snap / verify snap / snap public-inputs: see cmd_snap.h. */
#include "cli/cmd_snap.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/backend_pick.h"
#include "cli/kind_cmds.h"
#include "cli/prove_kind.h"
#include "filecoin/snap/snap_challenges.h"
#include "filecoin/snap/snap_partition.h"
#include "filecoin/snap/snap_witness_par.h"
#include "util/file_read.h"
#include "util/hex.h"
#include "util/parallel.h"
#include "util/timing.h"

/* A 64 GiB PartitionProof is 575,528 bytes; anything far larger is not one. */
#define SNAP_VANILLA_MAX_BYTES ((size_t)64 << 20)
#define SNAP_MAX_FILES 64

typedef struct {
    const char *cmd; /* "prove snap", ... for messages */
    const fc_update_proof *p;
    unsigned h; /* 0: p->h_default */
    uint8_t comm[3][32];
    fr comm_fr[3]; /* comm_r_old, comm_r_new, comm_d_new */
    const char *dir, *out, *proof;
    cli_prove_opts o;
    unsigned threads;
    char *paths[SNAP_MAX_FILES]; /* owned copies */
    size_t n_files;
    uint8_t *bytes[SNAP_MAX_FILES];
    size_t lens[SNAP_MAX_FILES];
} snap_cli;

/* The update circuit of a's registered proof (its parameter files). */
static int snap_circuit(fc_circuit *c, const snap_cli *a) {
    const fc_kind *k = fc_kind_by_id_prefix("snap");
    if (k && k->circuit_at(k, c, (unsigned)a->p->id) == 0)
        return 0;
    fprintf(stderr, "cuzk %s: %s has no circuit shape\n", a->cmd, a->p->name);
    return -1;
}

static const char *const comm_names[3] = {"comm_r_old", "comm_r_new", "comm_d_new"};

static void snap_cli_free(snap_cli *a) {
    for (size_t i = 0; i < a->n_files; i++) {
        free(a->paths[i]);
        free(a->bytes[i]);
    }
}

static int add_file(snap_cli *a, const char *dir, const char *name) {
    if (a->n_files >= SNAP_MAX_FILES) {
        fprintf(stderr, "cuzk %s: more than %d vanilla proofs\n", a->cmd, SNAP_MAX_FILES);
        return -1;
    }
    size_t n = (dir ? strlen(dir) + 1 : 0) + strlen(name) + 1;
    char *p = malloc(n);
    if (!p) {
        fprintf(stderr, "cuzk %s: out of memory\n", a->cmd);
        return -1;
    }
    if (dir)
        snprintf(p, n, "%s/%s", dir, name);
    else
        snprintf(p, n, "%s", name);
    a->paths[a->n_files++] = p;
    return 0;
}

static int hex32(uint8_t out[32], const char *s, const char *cmd, const char *what) {
    if (!s || strlen(s) != 64 || hex_decode(out, 32, s) != 32) {
        fprintf(stderr, "cuzk %s: %s: 64 hex digits (the raw 32 bytes) expected\n", cmd, what);
        return -1;
    }
    return 0;
}

/* snap.json (cuzk seal update): the fields not given explicitly. */
static int read_snap_json(snap_cli *a, const char *path, const char *given[3], const char **reg,
                          const char **h, char num[2][24], int want_files) {
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) {
        fprintf(stderr, "cuzk %s: --snap-json %s: %s\n", a->cmd, path, je.text);
        return -1;
    }
    json_t *id = json_object_get(j, "registered_update_proof_id");
    json_t *hv = json_object_get(j, "h");
    if (!*reg && json_is_integer(id) && json_integer_value(id) >= 0) {
        snprintf(num[0], 24, "%lld", (long long)json_integer_value(id));
        *reg = num[0];
    }
    if (!*h && json_is_integer(hv) && json_integer_value(hv) >= 0) {
        snprintf(num[1], 24, "%lld", (long long)json_integer_value(hv));
        *h = num[1];
    }
    int rc = 0;
    for (int i = 0; i < 3 && rc == 0; i++) {
        json_t *c = json_object_get(j, comm_names[i]);
        if (given[i])
            continue;
        if (!json_is_string(c)) {
            fprintf(stderr, "cuzk %s: --snap-json %s: no \"%s\" (give --%s)\n", a->cmd, path,
                    comm_names[i],
                    i == 0   ? "comm-r-old"
                    : i == 1 ? "comm-r-new"
                             : "comm-d-new");
            rc = -1;
        } else {
            rc = hex32(a->comm[i], json_string_value(c), a->cmd, comm_names[i]);
        }
    }
    if (rc)
        goto out;
    json_t *files = json_object_get(j, "vanilla_proofs");
    if (want_files && a->n_files == 0 && json_is_array(files)) {
        char *dir = strdup(path), *slash = dir ? strrchr(dir, '/') : NULL;
        if (slash)
            *slash = 0;
        for (size_t i = 0; i < json_array_size(files) && rc == 0; i++) {
            json_t *f = json_array_get(files, i);
            if (json_is_string(f)) {
                rc = add_file(a, slash ? dir : NULL, json_string_value(f));
            } else {
                fprintf(stderr, "cuzk %s: --snap-json %s: vanilla_proofs[%zu] is not a file name\n",
                        a->cmd, path, i);
                rc = -1;
            }
        }
        free(dir);
    }
out:
    json_decref(j);
    return rc;
}

/* Parses the shared options; which = 'p' prove, 'v' verify, 'i' inputs.
 * Returns 0, 2 for a usage error, 1 for unreadable input. */
static int snap_cli_parse(snap_cli *a, int argc, char **argv, char which, const char *usage) {
    const char *reg = NULL, *h = NULL, *json = NULL, *c[3] = {NULL, NULL, NULL};
    a->o.trust_params = cli_take_flag(&argc, argv, "--trust-params") > 0;
    char **rest = malloc((size_t)(argc + 1) * sizeof *rest);
    if (!rest) {
        fprintf(stderr, "cuzk %s: out of memory\n", a->cmd);
        return 1;
    }
    int nrest = 0, rc = 2;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--vanilla") == 0 && i + 1 < argc && which == 'p') {
            if (add_file(a, NULL, argv[++i]))
                goto out;
        } else {
            rest[nrest++] = argv[i];
        }
    }
    cli_opt opts[12] = {{"--registered-proof", &reg}, {"--h", &h},
                        {"--snap-json", &json},       {"--comm-r-old", &c[0]},
                        {"--comm-r-new", &c[1]},      {"--comm-d-new", &c[2]},
                        {"--params-dir", &a->dir}};
    size_t n_opts = 7;
    if (which == 'p') {
        opts[n_opts++] = (cli_opt){"--out", &a->out};
        opts[n_opts++] = (cli_opt){"--backend", &a->o.backend_name};
        opts[n_opts++] = (cli_opt){"--rs-seed", &a->o.rs_seed};
    } else if (which == 'v') {
        opts[n_opts++] = (cli_opt){"--proof", &a->proof};
    }
    if (cli_parse(nrest, rest, opts, n_opts, which == 'p' ? &a->threads : NULL, usage))
        goto out;
    for (int i = 0; i < 3; i++)
        if (c[i] && hex32(a->comm[i], c[i], a->cmd, comm_names[i]))
            goto out;
    char num[2][24];
    const char *given[3] = {c[0], c[1], c[2]};
    if (json && read_snap_json(a, json, given, &reg, &h, num, which == 'p')) {
        rc = 1;
        goto out;
    }
    if (!reg || (!json && (!c[0] || !c[1] || !c[2])) || (which == 'p' && a->n_files == 0) ||
        (which == 'v' && !a->proof)) {
        fprintf(stderr, "usage: %s\n", usage);
        goto out;
    }
    uint64_t id, hv = 0;
    if (cli_parse_u64(&id, reg, a->cmd, "--registered-proof") ||
        (h && cli_parse_u64(&hv, h, a->cmd, "--h")))
        goto out;
    if (!(a->p = fc_update_proof_by_id(id))) {
        fprintf(stderr, "cuzk %s: --registered-proof %s is not a RegisteredUpdateProof (0..4)\n",
                a->cmd, reg);
        goto out;
    }
    a->h = (unsigned)hv;
    if (hv > 64 || (hv && !fc_update_h_select(a->p, a->h))) {
        fprintf(stderr, "cuzk %s: --h %s is not one of %s's allowed values\n", a->cmd, h,
                a->p->name);
        goto out;
    }
    for (int i = 0; i < 3; i++)
        if (!fr_from_bytes_le(&a->comm_fr[i], a->comm[i])) {
            fprintf(stderr, "cuzk %s: %s: not a canonical field element\n", a->cmd, comm_names[i]);
            goto out;
        }
    if (which == 'p' && cli_prove_opts_check(&a->o, a->cmd))
        goto out;
    rc = 1;
    for (size_t i = 0; i < a->n_files; i++) {
        char why[256];
        a->bytes[i] =
            file_read_all(a->paths[i], SNAP_VANILLA_MAX_BYTES, &a->lens[i], why, sizeof why);
        if (!a->bytes[i]) {
            fprintf(stderr, "cuzk %s: cannot read %s: %s\n", a->cmd, a->paths[i], why);
            goto out;
        }
    }
    rc = 0;
out:
    free(rest);
    return rc;
}

static unsigned h_of(const snap_cli *a) { return a->h ? a->h : a->p->h_default; }

static int public_inputs(fr out[4], const snap_cli *a, unsigned k) {
    if (snap_public_inputs(out, a->p, k, h_of(a), &a->comm_fr[0], &a->comm_fr[2], &a->comm_fr[1]) ==
        0)
        return 0;
    fprintf(stderr, "cuzk %s: partition %u: cannot derive the public inputs\n", a->cmd, k);
    return -1;
}

/* cli_verify_partitions's view of partition i. */
static int verify_public(void *ctx, size_t i, fr **in, size_t *n_in, unsigned long long *label) {
    *label = i;
    *n_in = 4;
    *in = malloc(4 * sizeof **in);
    if (!*in) {
        fprintf(stderr, "cuzk verify snap: out of memory\n");
        return -1;
    }
    return public_inputs(*in, ctx, (unsigned)i);
}

/* ---- snap public-inputs ---------------------------------------------------- */

int cmd_snap(int argc, char **argv) {
    const char *usage =
        "cuzk snap public-inputs --registered-proof N (--comm-r-old HEX --comm-r-new HEX "
        "--comm-d-new HEX | --snap-json FILE) [--h H]";
    if (argc < 1 || strcmp(argv[0], "public-inputs") != 0) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    snap_cli a = {.cmd = "snap public-inputs"};
    int rc = snap_cli_parse(&a, argc - 1, argv + 1, 'i', usage);
    for (unsigned k = 0; rc == 0 && k < a.p->partitions; k++) {
        fr in[4];
        if (public_inputs(in, &a, k)) {
            rc = 1;
            break;
        }
        printf("# %s partition %u (h %u): 4 public inputs, 32-byte little-endian Fr, one per "
               "line\n",
               a.p->name, k, h_of(&a));
        cli_print_inputs(stdout, in, 4);
    }
    snap_cli_free(&a);
    return rc;
}

/* ---- prove snap -------------------------------------------------------------- */

/* The prepared partitions as the shared flow reads them: one synthesis job
 * each. */
typedef struct {
    snap_partition_job *jobs;
} snap_parts;

static int snap_part(void *ctx, size_t i, fc_kind_part *out, unsigned long long *label) {
    snap_partition_job *j = &((snap_parts *)ctx)->jobs[i];
    *label = i;
    *out = (fc_kind_part){snap_partition_synthesize, j, snap_partition_job_witness, j, j->inputs,
                          SNAP_PUBLIC_INPUTS};
    return 0;
}

static int prove_all(const snap_cli *a, const snap_partition *pp, double t0) {
    fc_circuit c;
    snap_parts sp = {calloc(pp->n_parts, sizeof *sp.jobs)};
    int rc = -1;
    if (!sp.jobs)
        fprintf(stderr, "cuzk prove snap: out of memory\n");
    else if (snap_circuit(&c, a) == 0)
        rc = 0;
    for (size_t k = 0; rc == 0 && k < pp->n_parts; k++)
        if (snap_partition_job_init(&sp.jobs[k], pp, k)) {
            fprintf(stderr, "cuzk prove snap: partition %zu: no circuit shape\n", k);
            rc = -1;
        }
    const cli_kind_prove j = {.cmd = "prove snap",
                              .proof_name = a->p->name,
                              .circuit = &c,
                              .shape = c.shape,
                              .n = pp->n_parts,
                              .part = snap_part,
                              .ctx = &sp,
                              .dir = a->dir,
                              .out = a->out,
                              .o = &a->o,
                              .threads = a->threads};
    if (rc == 0)
        rc = cli_prove_kind(&j, t0, NULL);
    free(sp.jobs);
    return rc;
}

int cmd_prove_snap(int argc, char **argv) {
    const char *usage =
        "cuzk prove snap --registered-proof N --vanilla F [--vanilla F ...] --comm-r-old HEX "
        "--comm-r-new HEX --comm-d-new HEX [--snap-json FILE instead of the three] "
        "[--h H] " CLI_PROVE_USAGE_OPTS;
    snap_cli a = {.cmd = "prove snap", .out = "proof.bin", .threads = par_cpu_count()};
    int rc = snap_cli_parse(&a, argc, argv, 'p', usage);
    if (rc) {
        snap_cli_free(&a);
        return rc;
    }
    rc = 1;
    double t0 = timing_now_ms();
    char err[1024];
    snap_partition pp;
    int prc = snap_partition_prepare_h(&pp, a.p, a.h, (const uint8_t *const *)a.bytes, a.lens,
                                       a.n_files, a.comm[0], a.comm[1], a.comm[2], err, sizeof err);
    if (prc != SNAP_OK) {
        size_t bad;
        if (sscanf(err, "vanilla_proofs[%zu]", &bad) == 1 && bad < a.n_files)
            fprintf(stderr, "cuzk prove snap: %s (%s); no proof written\n", err, a.paths[bad]);
        else
            fprintf(stderr, "cuzk prove snap: %s; no proof written\n", err);
        snap_cli_free(&a);
        return 1;
    }
    fprintf(stderr,
            "prove snap: %s, %zu partition%s: vanilla proofs checked, public inputs "
            "derived (%.1f ms)\n",
            a.p->name, pp.n_parts, pp.n_parts == 1 ? "" : "s", timing_now_ms() - t0);
    rc = prove_all(&a, &pp, t0) ? 1 : 0;
    snap_partition_free(&pp);
    snap_cli_free(&a);
    return rc;
}

/* ---- verify snap ------------------------------------------------------------- */

int cmd_verify_snap(int argc, char **argv) {
    const char *usage = "cuzk verify snap --registered-proof N (--comm-r-old HEX --comm-r-new HEX "
                        "--comm-d-new HEX | --snap-json FILE) [--h H] --proof proof.bin "
                        "[--params-dir DIR] [--trust-params]";
    snap_cli a = {.cmd = "verify snap"};
    if (snap_cli_parse(&a, argc, argv, 'v', usage)) {
        snap_cli_free(&a);
        return 2;
    }
    double t0 = timing_now_ms();
    const size_t P = a.p->partitions;
    char what[128];
    snprintf(what, sizeof what, "%zu partition%s of %s", P, P == 1 ? "" : "s", a.p->name);
    fc_circuit c;
    int rc = snap_circuit(&c, &a) ? 2
                                  : cli_verify_kind("verify snap", &c, a.dir, a.proof,
                                                    a.o.trust_params, P, what, verify_public, &a);
    if (rc == 0)
        printf("OK: %s, %zu partition%s verified in %.1f ms\n", a.p->name, P, P == 1 ? "" : "s",
               timing_now_ms() - t0);
    snap_cli_free(&a);
    return rc;
}

const cli_kind_cmds cli_cmds_snap = {
    .verb = "snap",
    .prove = cmd_prove_snap,
    .verify = cmd_verify_snap,
    .inputs = cmd_snap,
    .prove_synopsis =
        "prove snap --registered-proof N --vanilla F... --comm-r-old HEX --comm-r-new HEX "
        "--comm-d-new HEX (or --snap-json F) --params-dir D",
    .prove_help = "SnapDeals update -> verified proof(s)",
    .verify_synopsis = "verify snap --registered-proof N --comm-* HEX (or --snap-json F) --proof P",
    .verify_help = "OK/INVALID",
    .inputs_synopsis = "snap public-inputs --registered-proof N --comm-* HEX",
    .inputs_help = "public inputs (hex)",
};
