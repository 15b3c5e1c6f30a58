/* cuzk prove post / verify post / post public-inputs: see cmd_post_prove.h. */
#include "cli/cmd_post_prove.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/backend_pick.h"
#include "cli/kind_cmds.h"
#include "cli/prove_kind.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_partition.h"
#include "util/file_read.h"
#include "util/hex.h"
#include "util/parallel.h"
#include "util/timing.h"

/* A vanilla proof file larger than this is not one sector's proof (a 64 GiB
 * WindowPoSt sector proof is about 60 KiB). */
#define POST_VANILLA_MAX_BYTES ((size_t)64 << 20)

/* One sector: from a vanilla file (bytes) or from --sector N:COMM_R. */
typedef struct {
    const char *path; /* NULL for --sector */
    uint8_t *bytes;
    size_t len;
    fc_post_replica rep;
} post_item;

typedef struct {
    const char *cmd; /* "prove post", ... for messages */
    const fc_post_proof *p;
    uint8_t rnd[32];
    int have_partition;
    uint64_t partition;
    const char *dir, *out, *proof;
    cli_prove_opts o;
    unsigned threads;
    post_item *items;
    size_t n_items;
} post_cli;

/* The circuit of a's registered proof (its row: wpost or winning). */
static int post_circuit(fc_circuit *c, const post_cli *a) {
    const fc_kind *k = fc_kind_by_id_prefix(a->p->kind == FC_POST_WINNING ? "winning" : "wpost");
    if (k && k->circuit_at(k, c, (unsigned)(a->p->shape - fc_shape_at(0))) == 0)
        return 0;
    fprintf(stderr, "cuzk %s: %s has no circuit\n", a->cmd, a->p->name);
    return -1;
}

static void post_cli_free(post_cli *a) {
    for (size_t i = 0; i < a->n_items; i++)
        free(a->items[i].bytes);
    free(a->items);
}

static uint8_t *read_all(const char *path, size_t *len, const char *cmd) {
    char why[256];
    uint8_t *b = file_read_all(path, POST_VANILLA_MAX_BYTES, len, why, sizeof why);
    if (!b)
        fprintf(stderr, "cuzk %s: cannot read %s: %s\n", cmd, path, why);
    return b;
}

/* "N:HEX64" -> a replica. */
static int parse_sector(fc_post_replica *r, const char *s, const char *cmd) {
    const char *colon = strchr(s, ':');
    char num[32];
    if (!colon || colon == s || (size_t)(colon - s) >= sizeof num) {
        fprintf(stderr, "cuzk %s: --sector \"%s\": SECTOR_NUMBER:COMM_R (hex) expected\n", cmd, s);
        return -1;
    }
    memcpy(num, s, (size_t)(colon - s));
    num[colon - s] = 0;
    if (cli_parse_u64(&r->sector_id, num, cmd, "--sector number"))
        return -1;
    if (strlen(colon + 1) != 64 || hex_decode(r->comm_r, 32, colon + 1) != 32) {
        fprintf(stderr, "cuzk %s: --sector \"%s\": comm_r must be 64 hex digits\n", cmd, s);
        return -1;
    }
    return 0;
}

/* The registered proof of --kind: the first of that kind whose sector size
 * the vanilla proof's shape fits (window: V1_1). */
static const fc_post_proof *infer_proof(const char *kind, const post_item *first, const char *cmd) {
    int winning = strcmp(kind, "winning") == 0;
    if (!winning && strcmp(kind, "window") != 0) {
        fprintf(stderr, "cuzk %s: --kind \"%s\": winning or window\n", cmd, kind);
        return NULL;
    }
    if (!first || !first->path) {
        fprintf(stderr,
                "cuzk %s: --kind needs a --vanilla proof to tell the sector size; "
                "give --registered-proof ID with --sector\n",
                cmd);
        return NULL;
    }
    char err[512];
    fc_post_vanilla v;
    if (fc_post_vanilla_decode(&v, first->bytes, first->len, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk %s: %s: not a PoSt vanilla proof: %s\n", cmd, first->path, err);
        return NULL;
    }
    fc_post_vanilla_free(&v);
    for (unsigned i = 0; i < FC_SECTOR_SIZES; i++) {
        const fc_post_proof *p = fc_post_proof_by_id(winning ? i : 10 + i);
        if (fc_post_vanilla_decode(&v, first->bytes, first->len, p, err, sizeof err) == 0) {
            fc_post_vanilla_free(&v);
            return p;
        }
    }
    fprintf(stderr,
            "cuzk %s: %s: its tree shape and challenge count fit no %s proof (%u challenges "
            "per sector)\n",
            cmd, first->path, winning ? "WinningPoSt" : "WindowPoSt", winning ? 66u : 10u);
    return NULL;
}

/* The sector id and comm_r of a vanilla file, decoded against p. */
static int item_replica(post_item *it, const fc_post_proof *p, const char *cmd) {
    char err[512];
    fc_post_vanilla v;
    if (fc_post_vanilla_decode(&v, it->bytes, it->len, p, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk %s: %s: not a %s vanilla proof: %s\n", cmd, it->path, p->name, err);
        return -1;
    }
    int one = v.n_sectors == 1;
    if (one) {
        it->rep.sector_id = v.sector_id;
        memcpy(it->rep.comm_r, v.comm_r, 32);
    } else {
        fprintf(stderr, "cuzk %s: %s holds %zu sector proofs; give one file per sector\n", cmd,
                it->path, v.n_sectors);
    }
    fc_post_vanilla_free(&v);
    return one ? 0 : -1;
}

/* Parses the shared options; which = 'p' prove, 'v' verify, 'i' inputs.
 * Returns 0, 2 for a usage error, 1 for unreadable input. */
static int post_cli_parse(post_cli *a, int argc, char **argv, char which, const char *usage) {
    const char *kind = NULL, *reg = NULL, *rnd = NULL, *part = NULL, *miner = NULL;
    a->o.trust_params = cli_take_flag(&argc, argv, "--trust-params") > 0;
    char **rest = malloc((size_t)(argc + 1) * sizeof *rest);
    a->items = calloc((size_t)argc / 2 + 1, sizeof *a->items);
    if (!rest || !a->items) {
        free(rest);
        fprintf(stderr, "cuzk %s: out of memory\n", a->cmd);
        return 1;
    }
    int nrest = 0, rc = 2;
    for (int i = 0; i < argc; i++) {
        int van = strcmp(argv[i], "--vanilla") == 0, sec = strcmp(argv[i], "--sector") == 0;
        if ((van || sec) && i + 1 < argc) {
            post_item *it = &a->items[a->n_items++];
            if (van) {
                it->path = argv[++i];
            } else if (which == 'p') {
                fprintf(stderr, "cuzk %s: proving needs the vanilla proofs (--vanilla)\n", a->cmd);
                goto out;
            } else if (parse_sector(&it->rep, argv[++i], a->cmd)) {
                goto out;
            }
        } else {
            rest[nrest++] = argv[i];
        }
    }
    cli_opt opts[10] = {{"--kind", &kind},
                        {"--registered-proof", &reg},
                        {"--randomness", &rnd},
                        {"--partition", &part},
                        {"--params-dir", &a->dir}};
    size_t n_opts = 5;
    if (which == 'p') {
        opts[n_opts++] = (cli_opt){"--miner-id", &miner};
        opts[n_opts++] = (cli_opt){"--out", &a->out};
        opts[n_opts++] = (cli_opt){"--backend", &a->o.backend_name};
        opts[n_opts++] = (cli_opt){"--rs-seed", &a->o.rs_seed};
    } else if (which == 'v') {
        opts[n_opts++] = (cli_opt){"--proof", &a->proof};
    }
    if (cli_parse(nrest, rest, opts, n_opts, which == 'p' ? &a->threads : NULL, usage))
        goto out;
    if ((!kind == !reg) || !rnd || a->n_items == 0 || (which == 'v' && !a->proof)) {
        fprintf(stderr, "usage: %s\n", usage);
        goto out;
    }
    if (kind && strcmp(kind, "winning") != 0 && strcmp(kind, "window") != 0) {
        fprintf(stderr, "cuzk %s: --kind \"%s\": winning or window\n", a->cmd, kind);
        goto out;
    }
    uint64_t v;
    if (miner && cli_parse_u64(&v, miner, a->cmd, "--miner-id"))
        goto out;
    if (which == 'p' && cli_prove_opts_check(&a->o, a->cmd))
        goto out;
    if (part) {
        if (cli_parse_u64(&a->partition, part, a->cmd, "--partition"))
            goto out;
        a->have_partition = 1;
    }
    if (strlen(rnd) != 64 || hex_decode(a->rnd, 32, rnd) != 32) {
        fprintf(stderr,
                "cuzk %s: --randomness: 64 hex digits (32 bytes, little-endian Fr) "
                "expected\n",
                a->cmd);
        goto out;
    }
    if (!fc_post_randomness_ok(a->rnd)) {
        fprintf(stderr,
                "cuzk %s: --randomness: not a canonical field element (little-endian, below "
                "the BLS12-381 scalar modulus; Curio masks it so)\n",
                a->cmd);
        goto out;
    }
    rc = 1;
    for (size_t i = 0; i < a->n_items; i++)
        if (a->items[i].path &&
            !(a->items[i].bytes = read_all(a->items[i].path, &a->items[i].len, a->cmd)))
            goto out;
    if (reg) {
        uint64_t id;
        if (cli_parse_u64(&id, reg, a->cmd, "--registered-proof")) {
            rc = 2;
            goto out;
        }
        a->p = fc_post_proof_by_id(id);
        if (!a->p) {
            fprintf(stderr, "cuzk %s: --registered-proof %s is not a PoSt proof (0..14)\n", a->cmd,
                    reg);
            rc = 2;
            goto out;
        }
    } else if (!(a->p = infer_proof(kind, &a->items[0], a->cmd))) {
        goto out;
    }
    for (size_t i = 0; i < a->n_items; i++)
        if (a->items[i].path && item_replica(&a->items[i], a->p, a->cmd))
            goto out;
    const unsigned max = post_partition_max_sectors(a->p);
    if (a->p->kind == FC_POST_WINNING && a->n_items != 1) {
        fprintf(stderr, "cuzk %s: %s proves one sector, %zu given\n", a->cmd, a->p->name,
                a->n_items);
        goto out;
    }
    if (a->have_partition && a->n_items > max) {
        fprintf(stderr,
                "cuzk %s: --partition %llu: %zu sectors given, a %s partition takes at "
                "most %u\n",
                a->cmd, (unsigned long long)a->partition, a->n_items, a->p->name, max);
        goto out;
    }
    /* one proof per sector: rust-fil-proofs keys a partition's sectors by id */
    for (size_t i = 0; i < a->n_items; i++)
        for (size_t j = 0; j < i; j++)
            if (a->items[i].rep.sector_id == a->items[j].rep.sector_id) {
                fprintf(stderr, "cuzk %s: sector %llu is given twice (%s and %s)\n", a->cmd,
                        (unsigned long long)a->items[i].rep.sector_id,
                        a->items[j].path ? a->items[j].path : "--sector",
                        a->items[i].path ? a->items[i].path : "--sector");
                goto out;
            }
    rc = 0;
out:
    free(rest);
    return rc;
}

/* Partitions: the given sectors are partition K's, or split in order. */
static size_t n_partitions(const post_cli *a) {
    const unsigned max = post_partition_max_sectors(a->p);
    return a->have_partition ? 1 : (a->n_items + max - 1) / max;
}

/* Partition number i's index, first item and item count. */
static void partition_at(const post_cli *a, size_t i, uint64_t *index, size_t *first, size_t *n) {
    const unsigned max = post_partition_max_sectors(a->p);
    *index = a->have_partition ? a->partition : i;
    *first = a->have_partition ? 0 : i * max;
    *n = a->have_partition ? a->n_items : (a->n_items - *first < max ? a->n_items - *first : max);
}

static int partition_public(fr **inputs, size_t *n_inputs, const post_cli *a, size_t i) {
    uint64_t k;
    size_t first, n;
    partition_at(a, i, &k, &first, &n);
    fc_post_replica *r = malloc(n * sizeof *r);
    char err[512] = "out of memory";
    int rc = r ? 0 : -1;
    for (size_t j = 0; r && j < n; j++)
        r[j] = a->items[first + j].rep;
    if (r)
        rc = post_partition_public(inputs, n_inputs, a->p, r, n, a->rnd, k, err, sizeof err);
    free(r);
    if (rc)
        fprintf(stderr, "cuzk %s: partition %llu: %s\n", a->cmd, (unsigned long long)k, err);
    return rc;
}

/* cli_verify_partitions's view of partition i. */
static int verify_public(void *ctx, size_t i, fr **in, size_t *n_in, unsigned long long *label) {
    const post_cli *a = ctx;
    uint64_t k;
    size_t first, n;
    partition_at(a, i, &k, &first, &n);
    *label = k;
    return partition_public(in, n_in, a, i);
}

/* ---- post public-inputs ------------------------------------------------------- */

int cmd_post(int argc, char **argv) {
    const char *usage = "cuzk post public-inputs (--kind winning|window | --registered-proof ID) "
                        "(--vanilla F | --sector N:COMM_R)... --randomness HEX [--partition K]";
    if (argc < 1 || strcmp(argv[0], "public-inputs") != 0) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    post_cli a = {.cmd = "post public-inputs"};
    int rc = post_cli_parse(&a, argc - 1, argv + 1, 'i', usage);
    for (size_t i = 0; rc == 0 && i < n_partitions(&a); i++) {
        fr *in;
        size_t n;
        if (partition_public(&in, &n, &a, i)) {
            rc = 1;
            break;
        }
        uint64_t k;
        size_t first, cnt;
        partition_at(&a, i, &k, &first, &cnt);
        printf("# %s partition %llu (%zu sector%s): %zu public inputs, 32-byte little-endian "
               "Fr, one per line\n",
               a.p->name, (unsigned long long)k, cnt, cnt == 1 ? "" : "s", n);
        cli_print_inputs(stdout, in, n);
        free(in);
    }
    post_cli_free(&a);
    return rc;
}

/* ---- prove post ------------------------------------------------------------------ */

/* Partition i's vanilla proofs decoded and checked, its witness and public
 * inputs derived: a bad vanilla proof is refused before parameters load. */
static int partition_prepare(post_partition *pp, const post_cli *a, size_t i) {
    uint64_t k;
    size_t first, n;
    partition_at(a, i, &k, &first, &n);
    const uint8_t **bufs = malloc(n * sizeof *bufs);
    size_t *lens = malloc(n * sizeof *lens);
    char err[1024] = "out of memory";
    int rc = -1;
    for (size_t j = 0; bufs && lens && j < n; j++) {
        bufs[j] = a->items[first + j].bytes;
        lens[j] = a->items[first + j].len;
    }
    if (bufs && lens)
        rc = post_partition_prepare(pp, a->p, bufs, lens, n, a->rnd, k, err, sizeof err);
    size_t bad;
    if (rc && sscanf(err, "vanilla_proofs[%zu]", &bad) == 1 && bad < n)
        fprintf(stderr, "cuzk prove post: partition %llu: %s (%s); no proof written\n",
                (unsigned long long)k, err, a->items[first + bad].path);
    else if (rc)
        fprintf(stderr, "cuzk prove post: partition %llu: %s; no proof written\n",
                (unsigned long long)k, err);
    free(bufs);
    free(lens);
    return rc;
}

static int synth_post(r1cs_cs *cs, void *ctx) {
    const post_partition *pp = ctx;
    return post_circuit_synthesize(cs, &pp->shape, &pp->witness);
}

/* The prepared partitions as the shared flow reads them. */
typedef struct {
    const post_cli *a;
    post_partition *pp;
} post_parts;

static int post_part(void *ctx, size_t i, fc_kind_part *out, unsigned long long *label) {
    const post_parts *s = ctx;
    uint64_t k;
    size_t first, n;
    partition_at(s->a, i, &k, &first, &n);
    *label = k;
    post_partition *pp = &s->pp[i];
    *out = (fc_kind_part){synth_post, pp, post_partition_witness, pp, pp->inputs, pp->n_inputs};
    return 0;
}

int cmd_prove_post(int argc, char **argv) {
    const char *usage =
        "cuzk prove post (--kind winning|window | --registered-proof ID) --vanilla F "
        "[--vanilla F ...] --randomness HEX [--miner-id N] [--partition K] " CLI_PROVE_USAGE_OPTS;
    post_cli a = {.cmd = "prove post", .out = "proof.bin", .threads = par_cpu_count()};
    int rc = post_cli_parse(&a, argc, argv, 'p', usage);
    if (rc) {
        post_cli_free(&a);
        return rc;
    }
    rc = 1;
    const size_t P = n_partitions(&a);
    double t0 = timing_now_ms();
    post_parts parts = {&a, calloc(P, sizeof *parts.pp)};
    size_t ready = 0;
    fc_circuit c;
    if (!parts.pp) {
        fprintf(stderr, "cuzk prove post: out of memory\n");
        goto done;
    }
    while (ready < P && partition_prepare(&parts.pp[ready], &a, ready) == 0)
        ready++;
    if (ready < P || post_circuit(&c, &a))
        goto done;
    fprintf(stderr, "prove post: vanilla proofs checked, public inputs derived (%.1f ms)\n",
            timing_now_ms() - t0);
    const cli_kind_prove j = {.cmd = "prove post",
                              .proof_name = a.p->name,
                              .circuit = &c,
                              .shape = &parts.pp[0].shape,
                              .n = P,
                              .part = post_part,
                              .ctx = &parts,
                              .dir = a.dir,
                              .out = a.out,
                              .o = &a.o,
                              .threads = a.threads};
    rc = cli_prove_kind(&j, t0, NULL);
done:
    for (size_t i = 0; i < ready; i++)
        post_partition_free(&parts.pp[i]);
    free(parts.pp);
    post_cli_free(&a);
    return rc;
}

/* ---- verify post ------------------------------------------------------------------ */

int cmd_verify_post(int argc, char **argv) {
    const char *usage =
        "cuzk verify post (--kind winning|window | --registered-proof ID) "
        "(--vanilla F | --sector N:COMM_R)... --randomness HEX [--partition K] --proof proof.bin "
        "[--params-dir DIR] [--trust-params]";
    post_cli a = {.cmd = "verify post"};
    int prc = post_cli_parse(&a, argc, argv, 'v', usage);
    if (prc) {
        post_cli_free(&a);
        return 2;
    }
    double t0 = timing_now_ms();
    const size_t P = n_partitions(&a);
    char what[128];
    snprintf(what, sizeof what, "%zu partition%s of %s", P, P == 1 ? "" : "s", a.p->name);
    fc_circuit c;
    int rc = post_circuit(&c, &a) ? 2
                                  : cli_verify_kind("verify post", &c, a.dir, a.proof,
                                                    a.o.trust_params, P, what, verify_public, &a);
    if (rc == 0)
        printf("OK: %s, %zu sector%s, %zu partition%s verified in %.1f ms\n", a.p->name, a.n_items,
               a.n_items == 1 ? "" : "s", P, P == 1 ? "" : "s", timing_now_ms() - t0);
    post_cli_free(&a);
    return rc;
}

const cli_kind_cmds cli_cmds_post = {
    .verb = "post",
    .prove = cmd_prove_post,
    .verify = cmd_verify_post,
    .inputs = cmd_post,
    .prove_synopsis =
        "prove post --kind winning|window --vanilla F... --randomness HEX --params-dir D",
    .prove_help = "WindowPoSt/WinningPoSt -> verified proof(s)",
    .verify_synopsis = "verify post --kind K --vanilla F... --randomness HEX --proof P",
    .verify_help = "OK/INVALID",
    .inputs_synopsis = "post public-inputs --kind K --vanilla F... --randomness HEX",
    .inputs_help = "public inputs (hex)",
};
