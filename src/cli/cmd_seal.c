#include "cli/cmd_seal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/args.h"
#include "filecoin/c1/c1.h"
#include "sealer/sealer.h"
#include "sealer/seal_snap.h"
#include "sealer/seal_synth_snap.h"
#include "sealer/sealer_data.h"
#include "sealer/sealer_stream.h"
#include "filecoin/porep/vanilla_verify.h"
#include "util/hex.h"
#include "util/parallel.h"
#include "util/timing.h"

static const char *seal_usage =
    "cuzk seal --sector-size 2KiB|8MiB|512MiB --registered-proof NAME|ID "
    "[--data FILE | --zeros | --random SEED] --miner-id N --sector-number N --ticket HEX "
    "--seed HEX --out DIR [--curio] [--threads N] [--mem-budget SIZE] [--parent-cache FILE] "
    "[--in-memory]";
static const char *update_usage =
    "cuzk seal update --sector DIR --out DIR [--data FILE | --zeros | --random SEED] [--h N]\n"
    "       cuzk seal update --valid --registered-proof NAME|ID --out DIR [--seed N] [--nodes N] "
    "[--h N]\n"
    "         (--valid: an invented TEST update of any size, no sector needed)";
static const char *vv_usage = "cuzk verify-vanilla --c1 FILE [--miner-id N --sector-number N]";

static int parse_u64(uint64_t *out, const char *s, const char *what, const char *cmd) {
    char *end;
    errno = 0;
    unsigned long long v = s && *s && *s != '-' ? strtoull(s, &end, 10) : 0;
    if (!s || !*s || *s == '-' || *end || errno) {
        fprintf(stderr, "cuzk %s: bad %s \"%s\"\n", cmd, what, s ? s : "");
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_hex32(uint8_t out[32], const char *s, const char *what) {
    if (!s || strlen(s) != 64 || hex_decode(out, 32, s) != 32) {
        fprintf(stderr, "cuzk seal: %s wants 64 hex digits (32 bytes), got \"%s\"\n", what,
                s ? s : "");
        return -1;
    }
    return 0;
}

static const fc_seal_proof *parse_proof(const char *s) {
    const fc_seal_proof *p = fc_seal_proof_by_name(s);
    if (!p && *s) {
        char *end;
        unsigned long long id = strtoull(s, &end, 10);
        p = *end ? NULL : fc_seal_proof_by_id(id);
    }
    return p;
}

typedef struct {
    time_t start;
    const char *stage;
    int last_pct;
} progress_state;

static void on_progress(void *ctx, const char *stage, uint64_t done, uint64_t total) {
    progress_state *ps = ctx;
    int pct = total ? (int)(done * 100 / total) : 0;
    if (ps->stage != stage) {
        ps->stage = stage;
        ps->last_pct = -100;
    }
    if (total && pct < ps->last_pct + 10 && pct != 100)
        return;
    ps->last_pct = pct;
    if (total)
        fprintf(stderr, "seal: [%3lds] %s %d%%\n", (long)(time(NULL) - ps->start), stage, pct);
    else
        fprintf(stderr, "seal: [%3lds] %s\n", (long)(time(NULL) - ps->start), stage);
}

static int write_file(const char *dir, const char *name, const void *a, size_t na) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int bad = !f || (na && fwrite(a, 1, na, f) != na);
    if (f)
        bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "cuzk seal: cannot write %s: %s\n", path, strerror(errno));
    return bad ? -1 : 0;
}

static int write_tree_rows(const char *dir, const merkle_tree *t) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tree-r-last", dir);
    FILE *f = fopen(path, "wb");
    int bad = !f;
    for (unsigned l = 1; !bad && l <= t->levels; l++)
        bad = fwrite(t->row[l], 32, t->width[l], f) != t->width[l];
    if (f)
        bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "cuzk seal: cannot write %s\n", path);
    return bad ? -1 : 0;
}

static int write_summary(const char *dir, const fc_sealed *s) {
    char h[7][65];
    const uint8_t *v[7] = {s->ticket, s->seed,        s->comm_d, s->replica_id,
                           s->comm_c, s->comm_r_last, s->comm_r};
    for (int i = 0; i < 7; i++)
        hex_encode(h[i], v[i], 32);
    char text[2048];
    int n =
        snprintf(text, sizeof text,
                 "{\"registered_proof\":\"%s\",\"registered_proof_id\":%u,\"sector_size\":%" PRIu64
                 ",\"miner_id\":%" PRIu64 ",\"sector_number\":%" PRIu64
                 ",\"ticket\":\"%s\",\"seed\":\"%s\",\"comm_d\":\"%s\",\"replica_id\":\"%s\","
                 "\"comm_c\":\"%s\",\"comm_r_last\":\"%s\",\"comm_r\":\"%s\"}\n",
                 s->proof->name, s->proof->id, s->proof->shape->sector_size, s->miner_id,
                 s->sector_number, h[0], h[1], h[2], h[3], h[4], h[5], h[6]);
    return write_file(dir, "sector.json", text, (size_t)n);
}

/* The raw (unpadded) bytes: --data FILE, --random SEED or zeros. */
static uint8_t *read_raw(size_t *len, const char *data, const char *random, uint64_t cap_bytes) {
    *len = 0;
    if (random) {
        uint64_t sv;
        if (parse_u64(&sv, random, "--random seed", "seal") != 0)
            return NULL;
        uint8_t *b = malloc(cap_bytes ? cap_bytes : 1);
        if (!b)
            return NULL;
        fc_seal_random_bytes(b, cap_bytes, sv);
        *len = cap_bytes;
        return b;
    }
    uint8_t *b = malloc(cap_bytes + 1);
    if (!b)
        return NULL;
    if (data) {
        FILE *f = fopen(data, "rb");
        if (!f) {
            fprintf(stderr, "cuzk seal: cannot read %s: %s\n", data, strerror(errno));
            free(b);
            return NULL;
        }
        *len = fread(b, 1, cap_bytes + 1, f);
        fclose(f);
        if (*len > cap_bytes) {
            fprintf(stderr,
                    "cuzk seal: %s holds more than the %" PRIu64 " bytes the sector takes\n", data,
                    cap_bytes);
            free(b);
            return NULL;
        }
    }
    return b;
}

/* "123", "512MiB", "2GiB", "64KiB" -> bytes; -1 when not a size. */
static int parse_size(uint64_t *out, const char *s) {
    char *end;
    errno = 0;
    unsigned long long v = s && *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
    if (!s || *s < '0' || *s > '9' || errno)
        return -1;
    unsigned shift = strcmp(end, "") == 0      ? 0
                     : strcmp(end, "KiB") == 0 ? 10
                     : strcmp(end, "MiB") == 0 ? 20
                     : strcmp(end, "GiB") == 0 ? 30
                                               : 99;
    if (shift == 99 || (shift && v > (UINT64_MAX >> shift)))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

/* The reference path: everything in memory (sealer.h), files written after. */
static int seal_in_memory(fc_sealed *s, c1_output **c, const fc_seal_params *sp, const char *out,
                          const char *data, const char *random) {
    const fc_seal_proof *p = sp->proof;
    size_t raw_len;
    uint8_t *raw = read_raw(&raw_len, data, random, fc_fr32_unpadded_size(p->shape->sector_size));
    if (!raw)
        return 1;
    uint8_t *padded = fc_seal_pad_sector(raw, raw_len, p->shape->sector_size);
    free(raw);
    if (!padded) {
        fprintf(stderr, "cuzk seal: out of memory\n");
        return 1;
    }
    char err[512];
    int rc = fc_seal_precommit(s, sp, padded, err, sizeof err);
    free(padded);
    if (rc != 0) {
        fprintf(stderr, "cuzk seal: %s\n", err);
        return 1;
    }
    if (sp->progress)
        sp->progress(sp->progress_ctx, "commit phase 1", 0, 0);
    if (fc_seal_commit1(c, s, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk seal: %s\n", err);
        return 1;
    }
    size_t nb = (size_t)s->nodes * 32;
    return write_file(out, "sealed", s->tree_r.row[0], nb) |
                   write_file(out, "unsealed", s->tree_d.row[0], nb) |
                   write_tree_rows(out, &s->tree_r)
               ? 1
               : 0;
}

/* The streaming path (sealer_stream.h): pad into out/unsealed, then seal from files. */
static int seal_streaming(fc_stream_result *res, c1_output **c, const fc_seal_params *sp,
                          const char *out, const char *data, const char *random, uint64_t budget,
                          const char *cache) {
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/unsealed", out);
    uint64_t seed_v, *seed_p = NULL;
    if (random) {
        if (parse_u64(&seed_v, random, "--random seed", "seal") != 0)
            return 2;
        seed_p = &seed_v;
    }
    FILE *in = NULL;
    if (data && !(in = fopen(data, "rb"))) {
        fprintf(stderr, "cuzk seal: cannot read %s: %s\n", data, strerror(errno));
        return 1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "cuzk seal: cannot create %s: %s\n", path, strerror(errno));
        if (in)
            fclose(in);
        return 1;
    }
    int rc = fc_seal_pad_stream(fd, in, seed_p, sp->proof->shape->sector_size, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "cuzk seal: %s%s%s\n", data ? data : "", data ? ": " : "", err);
    if (close(fd) != 0 && rc == 0) {
        fprintf(stderr, "cuzk seal: cannot write %s\n", path);
        rc = -1;
    }
    if (in)
        fclose(in);
    if (rc != 0)
        return 1;
    fc_stream_opts o = {.dir = out, .mem_budget = budget, .parent_cache = cache};
    if (fc_seal_stream(res, c, sp, &o, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk seal: %s\n", err);
        return 1;
    }
    fprintf(stderr, "seal: phases (s): tree D %.2f, parent cache %.2f", res->t_tree_d,
            res->t_parents);
    for (unsigned l = 0; l < res->s.layers; l++)
        fprintf(stderr, ", layer %u %.2f", l + 1, res->t_layer[l]);
    fprintf(stderr, ", tree C %.2f, encoding+tree R %.2f, commit 1 %.2f\n", res->t_tree_c,
            res->t_tree_r, res->t_c1);
    fprintf(stderr, "seal: memory ledger peak %" PRIu64 " of a %" PRIu64 " byte budget\n",
            res->mem_peak, res->mem_budget);
    return 0;
}

static void print_update(const fc_seal_snap_result *r, const char *out) {
    char ro[65], dn[65], rn[65];
    hex_encode(ro, r->comm_r_old, 32);
    hex_encode(dn, r->comm_d_new, 32);
    hex_encode(rn, r->comm_r_new, 32);
    printf("updated %s (h %u) into %s: %u vanilla proofs of %zu bytes; comm_r_old %s comm_d_new %s "
           "comm_r_new %s\n",
           r->proof->name, r->h, out, r->proof->partitions, r->vanilla_bytes, ro, dn, rn);
}

/* A RegisteredUpdateProof by name (StackedDrg32GiBV1) or id (0..4). */
static const fc_update_proof *parse_update_proof(const char *s) {
    for (unsigned id = 0; id < FC_SECTOR_SIZES; id++) {
        const fc_update_proof *p = fc_update_proof_by_id(id);
        if (p && strcmp(p->name, s) == 0)
            return p;
    }
    char *end;
    errno = 0;
    unsigned long long id = *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : ~0ull;
    return id != ~0ull && !*end && !errno ? fc_update_proof_by_id(id) : NULL;
}

/* `cuzk seal update --valid`: an invented update (sealer/seal_synth_snap.h). */
static int cmd_seal_update_valid(int argc, char **argv) {
    const char *proof = NULL, *out = NULL, *seed_s = NULL, *nodes_s = NULL, *h_s = NULL;
    const cli_opt opts[] = {{"--registered-proof", &proof},
                            {"--out", &out},
                            {"--seed", &seed_s},
                            {"--nodes", &nodes_s},
                            {"--h", &h_s}};
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, update_usage) != 0)
        return 2;
    if (!proof || !out) {
        fprintf(stderr, "usage: %s\n(--valid needs --registered-proof and --out)\n", update_usage);
        return 2;
    }
    fc_synth_snap_params sp = {.proof = parse_update_proof(proof), .nodes = 16};
    if (!sp.proof) {
        fprintf(stderr,
                "cuzk seal update: unknown registered update proof \"%s\" (StackedDrg2KiBV1 .. "
                "StackedDrg64GiBV1, or 0..4)\n",
                proof);
        return 2;
    }
    uint64_t seed = 0, nodes = 16, h = 0;
    if ((seed_s && parse_u64(&seed, seed_s, "--seed", "seal update") != 0) ||
        (nodes_s && parse_u64(&nodes, nodes_s, "--nodes", "seal update") != 0) ||
        (h_s && parse_u64(&h, h_s, "--h", "seal update") != 0))
        return 2;
    if (nodes > FC_SYNTH_SNAP_MAX_NODES || (h_s && (h == 0 || h > 64))) {
        fprintf(stderr, "cuzk seal update: %s\n",
                nodes > FC_SYNTH_SNAP_MAX_NODES ? "--nodes: at most 1048576"
                                                : "--h: one of the proof's h values");
        return 2;
    }
    sp.seed = seed;
    sp.nodes = (unsigned)nodes;
    sp.h = (unsigned)h;
    fc_synth_snap s;
    fc_seal_snap_result r;
    char err[512];
    double t0 = timing_now_ms();
    if (fc_synth_snap_make(&s, &sp, err, sizeof err) != 0 ||
        fc_synth_snap_write(&r, &s, out, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk seal update: %s\n", err);
        fc_synth_snap_free(&s);
        return 1;
    }
    fprintf(stderr,
            "invented update (TEST object, seed %" PRIu64 "): %zu old replica and %zu data nodes "
            "set, %.0f ms\n",
            seed, s.r_old.count[0], s.d_new.count[0], timing_now_ms() - t0);
    print_update(&r, out);
    fc_synth_snap_free(&s);
    return 0;
}

/* `cuzk seal update`: the SnapDeals update of a sealed CC sector (sealer/seal_snap.h). */
static int cmd_seal_update(int argc, char **argv) {
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--valid") == 0) {
            memmove(argv + i, argv + i + 1, sizeof *argv * (size_t)(argc - i - 1));
            return cmd_seal_update_valid(argc - 1, argv);
        }
    const char *sector = NULL, *out = NULL, *data = NULL, *random = NULL, *h_s = NULL;
    int zeros = 0, nrest = 0;
    char **rest = malloc(sizeof *rest * (size_t)(argc + 1));
    if (!rest)
        return 1;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--zeros") == 0)
            zeros++;
        else
            rest[nrest++] = argv[i];
    }
    const cli_opt opts[] = {{"--sector", &sector},
                            {"--out", &out},
                            {"--data", &data},
                            {"--random", &random},
                            {"--h", &h_s}};
    int prc = cli_parse(nrest, rest, opts, sizeof opts / sizeof opts[0], NULL, update_usage);
    free(rest);
    if (prc != 0)
        return 2;
    if (!sector || !out || (!!data + !!random + zeros) > 1) {
        fprintf(stderr, "usage: %s\n(give at most one of --data, --zeros, --random)\n",
                update_usage);
        return 2;
    }
    uint64_t seed = 0, h = 0;
    if ((random && parse_u64(&seed, random, "--random seed", "seal update") != 0) ||
        (h_s && parse_u64(&h, h_s, "--h", "seal update") != 0))
        return 2;
    fc_seal_snap_opts o = {.sector_dir = sector,
                           .out_dir = out,
                           .data_file = data,
                           .random_seed = random ? &seed : NULL,
                           .h = h > 64 ? 64 : (unsigned)h};
    fc_seal_snap_result r;
    char err[512];
    if (fc_seal_snap(&r, &o, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk seal update: %s\n", err);
        return 1;
    }
    print_update(&r, out);
    return 0;
}

int cmd_seal(int argc, char **argv) {
    if (argc > 0 && strcmp(argv[0], "update") == 0)
        return cmd_seal_update(argc - 1, argv + 1);
    const char *size = NULL, *proof = NULL, *data = NULL, *random = NULL, *miner = NULL,
               *sector = NULL, *ticket = NULL, *seed = NULL, *out = NULL, *budget_s = NULL,
               *cache = NULL;
    int zeros = 0, curio = 0, in_memory = 0;
    char **rest = malloc(sizeof *rest * (size_t)(argc + 1));
    int nrest = 0;
    if (!rest)
        return 1;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--zeros") == 0)
            zeros = 1;
        else if (strcmp(argv[i], "--curio") == 0)
            curio = 1;
        else if (strcmp(argv[i], "--in-memory") == 0)
            in_memory = 1;
        else
            rest[nrest++] = argv[i];
    }
    const cli_opt opts[] = {{"--sector-size", &size},  {"--registered-proof", &proof},
                            {"--data", &data},         {"--random", &random},
                            {"--miner-id", &miner},    {"--sector-number", &sector},
                            {"--ticket", &ticket},     {"--seed", &seed},
                            {"--out", &out},           {"--mem-budget", &budget_s},
                            {"--parent-cache", &cache}};
    unsigned threads = par_cpu_count();
    int prc = cli_parse(nrest, rest, opts, sizeof opts / sizeof opts[0], &threads, seal_usage);
    free(rest);
    if (prc != 0)
        return 2;
    if (!proof || !miner || !sector || !ticket || !seed || !out ||
        (!!data + !!random + zeros) > 1) {
        fprintf(stderr, "usage: %s\n(give at most one of --data, --zeros, --random)\n", seal_usage);
        return 2;
    }
    const fc_seal_proof *p = parse_proof(proof);
    if (!p) {
        fprintf(stderr, "cuzk seal: unknown registered proof \"%s\"\n", proof);
        return 2;
    }
    if (size && strcmp(size, p->shape->size_name) != 0) {
        fprintf(stderr, "cuzk seal: --sector-size %s does not match %s (%s)\n", size, p->name,
                p->shape->size_name);
        return 2;
    }
    uint64_t budget = 0;
    if (budget_s && parse_size(&budget, budget_s) != 0) {
        fprintf(stderr, "cuzk seal: bad --mem-budget \"%s\" (bytes, or N with KiB, MiB, GiB)\n",
                budget_s);
        return 2;
    }
    if (p->shape->sector_size > (512ull << 20)) {
        fprintf(stderr,
                "cuzk seal: %s sectors are not supported (labelling holds two layers, %s each, "
                "in memory; up to 512MiB)\n",
                p->shape->size_name, p->shape->size_name);
        return 2;
    }
    fc_seal_params sp = {.proof = p, .threads = threads};
    if ((miner[0] == 'f' || miner[0] == 't') && miner[1] == '0' && miner[2])
        miner += 2; /* an ID address: f01000 */
    if (parse_u64(&sp.miner_id, miner, "--miner-id", "seal") != 0 ||
        parse_u64(&sp.sector_number, sector, "--sector-number", "seal") != 0 ||
        parse_hex32(sp.ticket, ticket, "--ticket") != 0 ||
        parse_hex32(sp.seed, seed, "--seed") != 0)
        return 2;
    if (mkdir(out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cuzk seal: cannot create %s: %s\n", out, strerror(errno));
        return 1;
    }
    progress_state ps = {time(NULL), NULL, 0};
    sp.progress = on_progress;
    sp.progress_ctx = &ps;
    fc_sealed mem_s;
    fc_stream_result res;
    memset(&mem_s, 0, sizeof mem_s);
    c1_output *c = NULL;
    int rc = in_memory ? seal_in_memory(&mem_s, &c, &sp, out, data, random)
                       : seal_streaming(&res, &c, &sp, out, data, random, budget, cache);
    const fc_sealed *s = in_memory ? &mem_s : &res.s;
    if (rc != 0) {
        c1_output_free(c);
        fc_sealed_free(&mem_s);
        return rc;
    }
    uint8_t *json;
    size_t jlen;
    c1_error ce;
    c1_status st = curio ? c1_encode_wrapper(&json, &jlen, c, s->sector_number, &ce)
                         : c1_encode(&json, &jlen, c, &ce);
    c1_output_free(c);
    if (st != C1_OK) {
        fprintf(stderr, "cuzk seal: encoding the C1: %s\n", ce.msg);
        fc_sealed_free(&mem_s);
        return 1;
    }
    uint8_t paux[64];
    memcpy(paux, s->comm_c, 32);
    memcpy(paux + 32, s->comm_r_last, 32);
    rc = write_file(out, "c1.json", json, jlen) | write_file(out, "p_aux", paux, 64) |
         write_summary(out, s);
    free(json);
    char hd[65], hr[65];
    hex_encode(hd, s->comm_d, 32);
    hex_encode(hr, s->comm_r, 32);
    if (rc == 0)
        printf("sealed %s miner %" PRIu64 " sector %" PRIu64 " into %s: comm_d %s comm_r %s\n",
               p->name, s->miner_id, s->sector_number, out, hd, hr);
    fc_sealed_free(&mem_s);
    return rc ? 1 : 0;
}

int cmd_verify_vanilla(int argc, char **argv) {
    const char *file = NULL, *miner = NULL, *sector = NULL;
    const cli_opt opts[] = {{"--c1", &file}, {"--miner-id", &miner}, {"--sector-number", &sector}};
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, vv_usage) != 0)
        return 2;
    if (!file || !!miner != !!sector) {
        fprintf(stderr, "usage: %s\n(--miner-id and --sector-number go together)\n", vv_usage);
        return 2;
    }
    fc_vanilla_opts vo = {0};
    if (miner) {
        if (parse_u64(&vo.miner_id, miner, "--miner-id", "verify-vanilla") != 0 ||
            parse_u64(&vo.sector_number, sector, "--sector-number", "verify-vanilla") != 0)
            return 2;
        vo.have_miner = 1;
    }
    c1_output *c;
    c1_error ce;
    if (c1_decode_file(&c, file, &ce) != C1_OK) {
        fprintf(stderr, "cuzk verify-vanilla: %s: %s error: %s (byte %zu)\n", file,
                c1_status_str(ce.status), ce.msg, ce.offset);
        return 1;
    }
    fc_vanilla_info info;
    char msg[512];
    int rc = fc_vanilla_verify(c, &vo, &info, msg, sizeof msg);
    if (rc != 0) {
        fprintf(stderr, "cuzk verify-vanilla: %s: INVALID: %s\n", file, msg);
    } else {
        char hc[65], hr[65];
        hex_encode(hc, info.comm_c, 32);
        hex_encode(hr, info.comm_r_last, 32);
        printf("ok: %s, %u partitions x %u challenges verified%s; comm_c %s comm_r_last %s\n",
               c->proof->name, c->partitions, c->challenges,
               vo.have_miner ? " (replica_id checked)" : " (replica_id not checked: no --miner-id)",
               hc, hr);
    }
    c1_output_free(c);
    return rc ? 1 : 0;
}
