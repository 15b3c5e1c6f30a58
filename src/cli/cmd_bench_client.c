/* `cuzk bench single|batch|stress|status|preload|evict|metrics`: drives a
 * running daemon over cuzk.v1 (server/grpc_client.h) with the flags of the
 * Rust cuzk-bench (api-and-ecosystem.md §2.7), plus a load mix (`stress`),
 * latency percentiles and a pipeline timeline (`--timeline FILE.svg`).
 *
 * One difference from the Rust tool on purpose: it always sends
 * sector_size = 32 GiB; we send the sector size of the proof being asked
 * for (--sector-size, else the C1 wrapper's SectorSize, else the registered
 * proof's), so 2 KiB test sectors work against a checking daemon.  For
 * PoRep the registered proof and sector number default to what the C1 says.
 *
 * Flow: flags -> per-kind request specs (files read once, shared by every
 * request) -> bench_run (cli/bench_load.c) -> per-proof lines, summary,
 * optional timeline.  Exit: 0 all proofs COMPLETED / the call succeeded,
 * 1 a proof or call failed, 2 bad flags or unreadable input. */
#define _GNU_SOURCE /* memmem */
#include "cli/cmd_bench_client.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/bench_load.h"
#include "filecoin/c1.h"
#include "filecoin/proof_types.h"
#include "server/grpc_client.h"
#include "util/hex.h"
#include "util/slog.h"

static const char client_usage[] =
    "usage: cuzk bench [-a ADDR] [--log-level L] [--timeout S] COMMAND [flags]\n"
    "  -a, --addr ADDR       daemon: http://host:port (default http://127.0.0.1:9820),\n"
    "                        host:port, or unix:///path/to/cuzk.sock\n"
    "  --log-level L         trace|debug|info|warn|error (default info)\n"
    "  --timeout S           deadline per call in seconds (default: Prove 7200, preload 3600,\n"
    "                        others 60)\n"
    "commands:\n"
    "  single  -t TYPE (--c1 F | --vanilla F) [proof flags] [--proof-out F] [--timeline F.svg]\n"
    "  batch   -t TYPE (--c1 F | --vanilla F) [proof flags] [-c N] [-j N] [--timeline F.svg]\n"
    "  stress  --mix KIND=W[,KIND=W...] --rate R[/s|/m] --duration S[s|m|h] [-j N]\n"
    "          [--c1 F] [--vanilla KIND=F]... [--registered-proof KIND=N]... [proof flags]\n"
    "          [--timeline F.svg]\n"
    "  status                    uptime, counters, GPUs, SRS, queues\n"
    "  preload -c ID             load a circuit's SRS (porep-2k, porep-32g, wpost-32g, ...)\n"
    "  evict -c ID               drop a circuit's SRS\n"
    "  metrics                   the daemon's Prometheus text\n"
    "proof flags:\n"
    "  -t, --type TYPE        porep (porep-c2, seal-commit), snap (snap-deals, update),\n"
    "                         wpost (window-post, windowpost), winning (winning-post, "
    "winningpost)\n"
    "  --c1 FILE              PoRep: the C1 output, in Curio's wrapper\n"
    "                         {\"SectorNum\",\"Phase1Out\",\"SectorSize\"} or bare JSON\n"
    "  --vanilla FILE         PoSt/SnapDeals: a JSON array of base64 proofs (one per sector\n"
    "                         or partition), else the whole file is one raw (bincode) proof\n"
    "  --registered-proof N   abi number (PoRep default: the C1's; others default 0);\n"
    "                         Window 32GiB V1_1 = 13, Winning 32GiB = 3, Update 32GiB = 3\n"
    "  --sector-size BYTES    default: the C1 wrapper's SectorSize, else the registered\n"
    "                         proof's size (the Rust cuzk-bench always sends 32 GiB)\n"
    "  --sector-num N         default: the C1 wrapper's SectorNum, else 1\n"
    "  --miner-id N           default 1000\n"
    "  --partition N          WindowPoSt partition index (single, stress; default 0)\n"
    "  --randomness HEX32     PoSt challenge seed (default 32 zero bytes)\n"
    "  --comm-r-old HEX32, --comm-r-new HEX32, --comm-d-new HEX32   SnapDeals\n"
    "  --priority N           0 (the kind's default), 1 low .. 4 critical\n"
    "  -c, --count N          batch: proofs (default 3)\n"
    "  -j, --concurrency N    requests in flight (batch default 1, stress default 16)\n"
    "  --timeline FILE.svg    one lane per request slot, a bar per stage from the daemon's\n"
    "                         timings: rpc (transfer, decoding), queue, srs load, synthesis,\n"
    "                         wait/other (prover busy, self-verification), prove; gaps = idle\n"
    "exit status: 0 all proofs completed, 1 a proof or call failed, 2 bad flags or input\n"
    "(in-process benchmarks: cuzk bench prove|synth|engine, see `cuzk help`)\n";

enum { SUB_SINGLE, SUB_BATCH, SUB_STRESS, SUB_STATUS, SUB_PRELOAD, SUB_EVICT, SUB_METRICS, SUB_N };
static const char *const sub_names[SUB_N] = {"single",  "batch", "stress", "status",
                                             "preload", "evict", "metrics"};

enum { KINDS = 5 }; /* proto ProofKind 1..4 */
static const char *const kind_names[KINDS] = {"", "porep", "snap", "wpost", "winning"};

/* Options: long name, short letter (0 none), which subcommands take it. */
enum {
    O_ADDR = 'a',
    O_TYPE = 't',
    O_COUNT = 'c',
    O_CONC = 'j',
    O_HELP = 'h',
    O_LOG = 256,
    O_TIMEOUT,
    O_C1,
    O_VANILLA,
    O_RP,
    O_SECTOR_SIZE,
    O_SECTOR_NUM,
    O_MINER,
    O_PARTITION,
    O_RANDOMNESS,
    O_CRO,
    O_CRN,
    O_CDN,
    O_PRIORITY,
    O_TIMELINE,
    O_PROOF_OUT,
    O_MIX,
    O_RATE,
    O_DURATION
};

#define S_(x) (1u << (x))
#define PROVING (S_(SUB_SINGLE) | S_(SUB_BATCH) | S_(SUB_STRESS))

typedef struct {
    struct option o;
    unsigned subs;
} opt_def;

static const opt_def opt_defs[] = {
    {{"addr", required_argument, NULL, O_ADDR}, ~0u},
    {{"log-level", required_argument, NULL, O_LOG}, ~0u},
    {{"timeout", required_argument, NULL, O_TIMEOUT}, ~0u},
    {{"help", no_argument, NULL, O_HELP}, ~0u},
    {{"type", required_argument, NULL, O_TYPE}, S_(SUB_SINGLE) | S_(SUB_BATCH)},
    {{"c1", required_argument, NULL, O_C1}, PROVING},
    {{"vanilla", required_argument, NULL, O_VANILLA}, PROVING},
    {{"registered-proof", required_argument, NULL, O_RP}, PROVING},
    {{"sector-size", required_argument, NULL, O_SECTOR_SIZE}, PROVING},
    {{"sector-num", required_argument, NULL, O_SECTOR_NUM}, PROVING},
    {{"miner-id", required_argument, NULL, O_MINER}, PROVING},
    {{"partition", required_argument, NULL, O_PARTITION}, S_(SUB_SINGLE) | S_(SUB_STRESS)},
    {{"randomness", required_argument, NULL, O_RANDOMNESS}, PROVING},
    {{"comm-r-old", required_argument, NULL, O_CRO}, PROVING},
    {{"comm-r-new", required_argument, NULL, O_CRN}, PROVING},
    {{"comm-d-new", required_argument, NULL, O_CDN}, PROVING},
    {{"priority", required_argument, NULL, O_PRIORITY}, PROVING},
    {{"timeline", required_argument, NULL, O_TIMELINE}, PROVING},
    {{"proof-out", required_argument, NULL, O_PROOF_OUT}, S_(SUB_SINGLE)},
    {{"count", required_argument, NULL, O_COUNT}, S_(SUB_BATCH)},
    {{"circuit-id", required_argument, NULL, O_COUNT}, S_(SUB_PRELOAD) | S_(SUB_EVICT)},
    {{"concurrency", required_argument, NULL, O_CONC}, S_(SUB_BATCH) | S_(SUB_STRESS)},
    {{"mix", required_argument, NULL, O_MIX}, S_(SUB_STRESS)},
    {{"rate", required_argument, NULL, O_RATE}, S_(SUB_STRESS)},
    {{"duration", required_argument, NULL, O_DURATION}, S_(SUB_STRESS)},
};
#define N_OPTS (sizeof opt_defs / sizeof opt_defs[0])

typedef struct {
    int sub;
    const char *addr, *log_level, *type, *c1, *timeline, *proof_out, *circuit_id, *mix;
    const char *vanilla[KINDS];
    int have_rp[KINDS];
    uint64_t rp[KINDS];
    double timeout_s, rate, duration_s;
    int have_sector_size, have_sector_num;
    uint64_t sector_size, sector_num, miner_id, count, concurrency;
    uint32_t partition;
    int priority;
    uint8_t randomness[32], cro[32], crn[32], cdn[32];
    int have_cro, have_crn, have_cdn;
} bench_args;

/* Everything one kind's requests point into (freed at the end). */
typedef struct {
    uint8_t *file;
    size_t file_len;
    uint8_t **vp;
    size_t *vp_len;
    size_t n_vp;
    char desc[256]; /* how the registered proof / sector size were chosen */
} spec_data;

static int bad(const char *fmt, const char *a, const char *b) {
    fprintf(stderr, "cuzk bench: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

int cmd_bench_client_matches(const char *w) {
    for (int i = 0; i < SUB_N; i++)
        if (strcmp(w, sub_names[i]) == 0)
            return 1;
    return w[0] == '-'; /* `bench prove|synth|engine` start with their word */
}

static int kind_from_str(const char *s) {
    static const struct {
        const char *name;
        int kind;
    } t[] = {{"porep", 1},      {"porep-c2", 1}, {"seal-commit", 1},  {"snap", 2},
             {"snap-deals", 2}, {"update", 2},   {"wpost", 3},        {"window-post", 3},
             {"windowpost", 3}, {"winning", 4},  {"winning-post", 4}, {"winningpost", 4}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcasecmp(s, t[i].name) == 0)
            return t[i].kind;
    return 0;
}

static int parse_u64(const char *s, uint64_t *out) {
    if (s == NULL || !isdigit((unsigned char)s[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* "12", "12.5", with an optional unit from units ("s"=1, "m"=60, ...). */
static int parse_scaled(const char *s, double *out, const char *const *units, const double *scale,
                        size_t n_units) {
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || end == s || !(v >= 0) || v > 1e12)
        return -1;
    if (*end == 0) {
        *out = v;
        return 0;
    }
    for (size_t i = 0; i < n_units; i++)
        if (strcmp(end, units[i]) == 0) {
            *out = v * scale[i];
            return 0;
        }
    return -1;
}

static int parse_hex32(const char *s, uint8_t out[32]) {
    if (strncmp(s, "0x", 2) == 0)
        s += 2;
    return hex_decode(out, 32, s) == 32 ? 0 : -1;
}

/* "KIND=VALUE" -> kind (and *value), or 0 when there is no kind prefix. */
static int kind_prefix(const char *s, const char **value) {
    const char *eq = strchr(s, '=');
    if (eq == NULL || (size_t)(eq - s) >= 32)
        return 0;
    char k[32];
    memcpy(k, s, (size_t)(eq - s));
    k[eq - s] = 0;
    int kind = kind_from_str(k);
    if (kind)
        *value = eq + 1;
    return kind;
}

/* The subcommand: the first word that is neither an option nor an option's
 * value (every option but --help takes a value). */
static int find_sub(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (w[0] == '-' && w[1] != 0) {
            if (strcmp(w, "-h") == 0 || strcmp(w, "--help") == 0)
                continue;
            if ((w[1] == '-' && strchr(w, '=') == NULL) || (w[1] != '-' && w[2] == 0))
                i++; /* its value follows */
            continue;
        }
        for (int s = 0; s < SUB_N; s++)
            if (strcmp(w, sub_names[s]) == 0)
                return s;
        return -2 - i; /* an unknown word at i */
    }
    return -1;
}

static int parse_args(bench_args *a, int argc, char **argv) {
    memset(a, 0, sizeof *a);
    a->addr = "http://127.0.0.1:9820";
    a->log_level = "info";
    a->miner_id = 1000;
    a->sector_num = 1;
    a->count = 3;
    int sub = find_sub(argc, argv);
    if (sub == -1) {
        for (int i = 1; i < argc; i++)
            if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
                fputs(client_usage, stdout);
                return 0;
            }
        fputs(client_usage, stderr);
        return 2;
    }
    if (sub < -1)
        return bad("unknown command \"%s\"%s (single, batch, stress, status, preload, evict, "
                   "metrics)",
                   argv[-2 - sub], "");
    a->sub = sub;
    a->concurrency = sub == SUB_STRESS ? 16 : 1;

    struct option longs[N_OPTS + 1];
    size_t n = 0;
    for (size_t i = 0; i < N_OPTS; i++)
        if (opt_defs[i].subs & S_(sub))
            longs[n++] = opt_defs[i].o;
    memset(&longs[n], 0, sizeof longs[n]);
    char shorts[32] = ":a:h";
    if (S_(sub) & (S_(SUB_SINGLE) | S_(SUB_BATCH)))
        strcat(shorts, "t:");
    if (S_(sub) & (S_(SUB_BATCH) | S_(SUB_PRELOAD) | S_(SUB_EVICT)))
        strcat(shorts, "c:");
    if (S_(sub) & (S_(SUB_BATCH) | S_(SUB_STRESS)))
        strcat(shorts, "j:");
    static const char *const t_units[] = {"s", "m", "h"};
    static const double t_scale[] = {1, 60, 3600};
    static const char *const r_units[] = {"/s", "/m", "/min", "/h"};
    static const double r_scale[] = {1, 1.0 / 60, 1.0 / 60, 1.0 / 3600};
    /* GNU getopt permutes: flags may come before or after the subcommand,
     * which is left as the one non-option word */
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const char *v = optarg, *val;
        uint64_t u;
        int k;
        switch (c) {
        case O_HELP:
            fputs(client_usage, stdout);
            return 0;
        case O_ADDR:
            a->addr = v;
            break;
        case O_LOG:
            a->log_level = v;
            break;
        case O_TIMEOUT:
            if (parse_scaled(v, &a->timeout_s, t_units, t_scale, 3) || a->timeout_s <= 0)
                return bad("--timeout %s: expected seconds > 0%s", v, "");
            break;
        case O_TYPE:
            a->type = v;
            break;
        case O_C1:
            a->c1 = v;
            break;
        case O_VANILLA:
            k = kind_prefix(v, &val);
            if (k)
                a->vanilla[k] = val;
            else
                a->vanilla[0] = v;
            break;
        case O_RP:
            k = kind_prefix(v, &val);
            if (!k)
                val = v;
            if (parse_u64(val, &u))
                return bad("--registered-proof %s: expected a number or KIND=NUMBER%s", v, "");
            a->have_rp[k] = 1;
            a->rp[k] = u;
            break;
        case O_SECTOR_SIZE:
            if (parse_u64(v, &a->sector_size))
                return bad("--sector-size %s: expected bytes%s", v, "");
            a->have_sector_size = 1;
            break;
        case O_SECTOR_NUM:
            if (parse_u64(v, &a->sector_num))
                return bad("--sector-num %s: expected a number%s", v, "");
            a->have_sector_num = 1;
            break;
        case O_MINER:
            if (parse_u64(v, &a->miner_id))
                return bad("--miner-id %s: expected a number%s", v, "");
            break;
        case O_PARTITION:
            if (parse_u64(v, &u) || u > UINT32_MAX)
                return bad("--partition %s: expected a number%s", v, "");
            a->partition = (uint32_t)u;
            break;
        case O_RANDOMNESS:
            if (parse_hex32(v, a->randomness))
                return bad("--randomness %s: expected 32 bytes of hex (64 digits)%s", v, "");
            break;
        case O_CRO:
        case O_CRN:
        case O_CDN: {
            uint8_t *dst = c == O_CRO ? a->cro : c == O_CRN ? a->crn : a->cdn;
            if (parse_hex32(v, dst))
                return bad("%s: expected 32 bytes of hex (64 digits), got \"%s\"",
                           c == O_CRO   ? "--comm-r-old"
                           : c == O_CRN ? "--comm-r-new"
                                        : "--comm-d-new",
                           v);
            *(c == O_CRO ? &a->have_cro : c == O_CRN ? &a->have_crn : &a->have_cdn) = 1;
            break;
        }
        case O_PRIORITY:
            if (parse_u64(v, &u) || u > 4)
                return bad("--priority %s: expected 0..4%s", v, "");
            a->priority = (int)u;
            break;
        case O_TIMELINE:
            a->timeline = v;
            break;
        case O_PROOF_OUT:
            a->proof_out = v;
            break;
        case O_COUNT:
            if (sub == SUB_BATCH) {
                if (parse_u64(v, &a->count) || a->count == 0 || a->count > 1000000)
                    return bad("--count %s: expected 1..1000000%s", v, "");
            } else {
                a->circuit_id = v;
            }
            break;
        case O_CONC:
            if (parse_u64(v, &a->concurrency) || a->concurrency == 0 || a->concurrency > 1024)
                return bad("--concurrency %s: expected 1..1024%s", v, "");
            break;
        case O_MIX:
            a->mix = v;
            break;
        case O_RATE:
            if (parse_scaled(v, &a->rate, r_units, r_scale, 4) || a->rate <= 0)
                return bad("--rate %s: expected requests per second > 0 (e.g. 2, 2/s, "
                           "30/m)%s",
                           v, "");
            break;
        case O_DURATION:
            if (parse_scaled(v, &a->duration_s, t_units, t_scale, 3) || a->duration_s <= 0)
                return bad("--duration %s: expected seconds > 0 (e.g. 60, 60s, 2m)%s", v, "");
            break;
        case ':':
            return bad("%s: needs a value (%s)", argv[optind - 1], sub_names[sub]);
        default:
            return bad("%s: not an option of `cuzk bench %s`", argv[optind - 1], sub_names[sub]);
        }
    }
    /* the non-option words are now argv[optind..]: only the subcommand */
    int seen = 0;
    for (int i = optind; i < argc; i++) {
        if (!seen && strcmp(argv[i], sub_names[sub]) == 0) {
            seen = 1;
            continue;
        }
        return bad("%s: unexpected argument to `cuzk bench %s`", argv[i], sub_names[sub]);
    }
    return -1; /* parsed */
}

/* ---- inputs ------------------------------------------------------------------ */

static int read_file(const char *flag, const char *path, uint8_t **out, size_t *len) {
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (f == NULL || fstat(fileno(f), &st) != 0) {
        fprintf(stderr, "cuzk bench: %s %s: %s\n", flag, path, strerror(errno));
        if (f)
            fclose(f);
        return 2;
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        fprintf(stderr, "cuzk bench: %s %s: %s\n", flag, path,
                S_ISREG(st.st_mode) ? "the file is empty" : "not a regular file");
        fclose(f);
        return 2;
    }
    *len = (size_t)st.st_size;
    *out = malloc(*len + 1);
    if (*out == NULL || fread(*out, 1, *len, f) != *len) {
        fprintf(stderr, "cuzk bench: %s %s: %s\n", flag, path,
                *out ? "short read" : "out of memory");
        free(*out);
        *out = NULL;
        fclose(f);
        return 2;
    }
    (*out)[*len] = 0;
    fclose(f);
    return 0;
}

/* The value after the JSON key "key" in buf (first occurrence), or NULL.
 * Sound for the keys looked up here: a wrapper's only long string value is
 * base64, which holds no quote. */
static const uint8_t *json_value(const uint8_t *buf, size_t len, const char *key) {
    char pat[64];
    int n = snprintf(pat, sizeof pat, "\"%s\"", key);
    const uint8_t *p = memmem(buf, len, pat, (size_t)n), *end = buf + len;
    if (p == NULL)
        return NULL;
    for (p += n; p < end && isspace(*p); p++)
        ;
    if (p == end || *p != ':')
        return NULL;
    for (p++; p < end && isspace(*p); p++)
        ;
    return p < end ? p : NULL;
}

static int json_u64(const uint8_t *buf, size_t len, const char *key, uint64_t *out) {
    const uint8_t *p = json_value(buf, len, key), *end = buf + len;
    if (p == NULL || !isdigit(*p))
        return -1;
    uint64_t v = 0;
    for (; p < end && isdigit(*p); p++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return 0;
}

/* A JSON string value: *s (not NUL-terminated) and *n. */
static int json_str(const uint8_t *buf, size_t len, const char *key, const uint8_t **s, size_t *n) {
    const uint8_t *p = json_value(buf, len, key), *end = buf + len;
    if (p == NULL || *p != '"')
        return -1;
    const uint8_t *q = memchr(p + 1, '"', (size_t)(end - p - 1));
    if (q == NULL)
        return -1;
    *s = p + 1;
    *n = (size_t)(q - p - 1);
    return 0;
}

typedef struct {
    int wrapper, have_size, have_num;
    uint64_t size, num;
    const fc_seal_proof *proof; /* NULL: not found */
    char proof_name[64];
} c1_info;

/* What a C1 file says about itself, without decoding its proofs: Curio's
 * wrapper fields, and the inner "registered_proof" name. */
static int c1_inspect(const char *path, const uint8_t *buf, size_t len, c1_info *ci) {
    memset(ci, 0, sizeof *ci);
    size_t i = 0;
    while (i < len && isspace(buf[i]))
        i++;
    if (i == len || buf[i] != '{') {
        fprintf(stderr, "cuzk bench: --c1 %s: not a JSON object (a C1 output or Curio's wrapper)\n",
                path);
        return 2;
    }
    const uint8_t *b64;
    size_t n64;
    uint8_t *inner = NULL;
    const uint8_t *scan = buf;
    size_t scan_len = len;
    if (json_str(buf, len, "Phase1Out", &b64, &n64) == 0) {
        ci->wrapper = 1;
        ci->have_size = json_u64(buf, len, "SectorSize", &ci->size) == 0;
        ci->have_num = json_u64(buf, len, "SectorNum", &ci->num) == 0;
        inner = malloc(c1_base64_max_decoded(n64) + 1);
        size_t n, at;
        const char *why;
        if (inner == NULL || c1_base64_decode(inner, &n, (const char *)b64, n64, &at, &why) != 0) {
            if (inner)
                fprintf(stderr,
                        "cuzk bench: --c1 %s: Phase1Out is not base64 (%s at character %zu)\n",
                        path, why, at);
            else
                fprintf(stderr, "cuzk bench: --c1 %s: out of memory\n", path);
            free(inner);
            return 2;
        }
        scan = inner;
        scan_len = n;
    }
    const uint8_t *name;
    size_t nn;
    if (json_str(scan, scan_len, "registered_proof", &name, &nn) == 0 &&
        nn < sizeof ci->proof_name) {
        memcpy(ci->proof_name, name, nn);
        ci->proof_name[nn] = 0;
        ci->proof = fc_seal_proof_by_name(ci->proof_name);
    }
    free(inner);
    return 0;
}

static void spec_data_free(spec_data *d) {
    if (d->n_vp && d->vp[0] != d->file) /* else vp[0] is the file itself */
        for (size_t i = 0; i < d->n_vp; i++)
            free(d->vp[i]);
    free(d->file);
    free(d->vp);
    free(d->vp_len);
    memset(d, 0, sizeof *d);
}

/* --vanilla: a JSON array of base64 strings (Go's json.Marshal([][]byte)),
 * else the whole file as one raw proof (as the Rust cuzk-bench does). */
static int load_vanilla(const char *path, spec_data *d) {
    int rc = read_file("--vanilla", path, &d->file, &d->file_len);
    if (rc)
        return rc;
    size_t i = 0;
    while (i < d->file_len && isspace(d->file[i]))
        i++;
    json_t *j = NULL;
    if (i < d->file_len && d->file[i] == '[') {
        json_error_t je;
        j = json_loadb((const char *)d->file, d->file_len, 0, &je);
    }
    size_t n = j && json_is_array(j) ? json_array_size(j) : 0;
    int strings = n > 0;
    for (size_t k = 0; k < n && strings; k++)
        strings = json_is_string(json_array_get(j, k));
    if (!strings) {
        if (j)
            slog(SLOG_INFO, "bench",
                 "not a JSON array of base64 strings; sent as one raw proof file=%s", path);
        json_decref(j);
        d->vp = calloc(1, sizeof *d->vp);
        d->vp_len = calloc(1, sizeof *d->vp_len);
        if (!d->vp || !d->vp_len) {
            fprintf(stderr, "cuzk bench: out of memory\n");
            return 2;
        }
        d->vp[0] = d->file;
        d->vp_len[0] = d->file_len;
        d->n_vp = 1;
        return 0;
    }
    d->vp = calloc(n, sizeof *d->vp);
    d->vp_len = calloc(n, sizeof *d->vp_len);
    if (!d->vp || !d->vp_len) {
        json_decref(j);
        fprintf(stderr, "cuzk bench: out of memory\n");
        return 2;
    }
    d->n_vp = n;
    for (size_t k = 0; k < n; k++) {
        const char *s = json_string_value(json_array_get(j, k));
        size_t sl = json_string_length(json_array_get(j, k)), at;
        const char *why;
        d->vp[k] = malloc(c1_base64_max_decoded(sl) + 1);
        if (d->vp[k] == NULL || c1_base64_decode(d->vp[k], &d->vp_len[k], s, sl, &at, &why) != 0) {
            fprintf(stderr, "cuzk bench: --vanilla %s: entry %zu: %s\n", path, k,
                    d->vp[k] ? "not base64" : "out of memory");
            if (d->vp[k])
                fprintf(stderr, "  (%s at character %zu)\n", why, at);
            json_decref(j);
            return 2;
        }
    }
    json_decref(j);
    return 0;
}

/* Fills spec s (and its data d) for proof kind `kind` from the flags. */
static int build_spec(const bench_args *a, int kind, bench_spec *s, spec_data *d) {
    const char *name = kind_names[kind];
    memset(s, 0, sizeof *s);
    s->name = name;
    s->weight = 1;
    client_proof_request *q = &s->req;
    q->kind = kind;
    q->priority = a->priority;
    q->miner_id = a->miner_id;
    q->sector_number = a->sector_num;
    q->partition_index = kind == 3 ? a->partition : 0;
    q->randomness = a->randomness; /* always sent, zeros by default, as cuzk-bench does */
    q->randomness_len = 32;
    if (a->have_cro)
        q->comm_r_old = a->cro, q->comm_r_old_len = 32;
    if (a->have_crn)
        q->comm_r_new = a->crn, q->comm_r_new_len = 32;
    if (a->have_cdn)
        q->comm_d_new = a->cdn, q->comm_d_new_len = 32;
    int have_rp = a->have_rp[kind] || a->have_rp[0];
    uint64_t rp = a->have_rp[kind] ? a->rp[kind] : a->rp[0];
    uint64_t size = 0;
    const char *size_from = "--sector-size";
    char rp_name[80] = "";

    if (kind == 1) {
        if (a->c1 == NULL)
            return bad("%s: --c1 FILE is required (the C1 output)%s", name, "");
        if (a->vanilla[1] || (a->vanilla[0] && a->sub != SUB_STRESS))
            return bad("%s takes --c1, not --vanilla%s", name, "");
        int rc = read_file("--c1", a->c1, &d->file, &d->file_len);
        c1_info ci;
        if (rc || (rc = c1_inspect(a->c1, d->file, d->file_len, &ci)))
            return rc;
        if (!have_rp) {
            if (ci.proof == NULL)
                return bad("--c1 %s: cannot tell its registered proof (\"%s\"); pass "
                           "--registered-proof N",
                           a->c1, ci.proof_name[0] ? ci.proof_name : "registered_proof not found");
            rp = ci.proof->id;
        }
        const fc_seal_proof *p = fc_seal_proof_by_id(rp);
        char num[32];
        snprintf(num, sizeof num, "%llu", (unsigned long long)rp);
        if (p == NULL)
            return bad("porep: --registered-proof %s is not a RegisteredSealProof (0..19)%s", num,
                       "");
        snprintf(rp_name, sizeof rp_name, "%s%s", p->name, have_rp ? "" : ", from the C1");
        if (!a->have_sector_size) {
            size = ci.have_size ? ci.size : p->shape->sector_size;
            size_from = ci.have_size ? "the C1 wrapper's SectorSize" : "the registered proof";
        }
        if (!a->have_sector_num && ci.have_num)
            q->sector_number = ci.num;
        q->vanilla_proof = d->file;
        q->vanilla_proof_len = d->file_len;
    } else {
        const char *path = a->vanilla[kind] ? a->vanilla[kind] : a->vanilla[0];
        if (path == NULL)
            return bad("%s: --vanilla FILE is required (the vanilla proofs)%s", name, "");
        if (kind == 2) {
            if (rp >= FC_SECTOR_SIZES) {
                char num[32];
                snprintf(num, sizeof num, "%llu", (unsigned long long)rp);
                return bad("snap: --registered-proof %s is not a RegisteredUpdateProof (0..4)%s",
                           num, "");
            }
            snprintf(rp_name, sizeof rp_name, "RegisteredUpdateProof %s",
                     fc_shape_at((unsigned)rp)->size_name);
            size = fc_shape_at((unsigned)rp)->sector_size;
        } else {
            const fc_post_proof *p = fc_post_proof_by_id(rp);
            int winning = kind == 4;
            if (p == NULL || (p->kind == FC_POST_WINNING) != winning) {
                char num[32];
                snprintf(num, sizeof num, "%llu", (unsigned long long)rp);
                fprintf(stderr,
                        "cuzk bench: %s: registered proof %s is %s, not a %s proof; pass "
                        "--registered-proof N (%s)\n",
                        name, num, p ? p->name : "unknown", winning ? "WinningPoSt" : "WindowPoSt",
                        winning ? "0..4, e.g. 3 for 32 GiB" : "5..14, e.g. 13 for 32 GiB V1_1");
                return 2;
            }
            snprintf(rp_name, sizeof rp_name, "%s", p->name);
            size = p->shape->sector_size;
        }
        if (!a->have_sector_size)
            size_from = "the registered proof";
        int rc = load_vanilla(path, d);
        if (rc)
            return rc;
        q->vanilla_proofs = (const uint8_t *const *)d->vp;
        q->vanilla_proof_lens = d->vp_len;
        q->n_vanilla_proofs = d->n_vp;
    }
    q->registered_proof = rp;
    q->sector_size = a->have_sector_size ? a->sector_size : size;
    snprintf(d->desc, sizeof d->desc,
             "%s: registered_proof %llu (%s), sector_size %llu (%s), sector %llu, miner %llu", name,
             (unsigned long long)rp, rp_name, (unsigned long long)q->sector_size, size_from,
             (unsigned long long)q->sector_number, (unsigned long long)q->miner_id);
    return 0;
}

/* ---- commands ---------------------------------------------------------------- */

static uint64_t call_timeout(const bench_args *a, uint64_t default_s) {
    return (uint64_t)((a->timeout_s > 0 ? a->timeout_s : (double)default_s) * 1000.0);
}

/* Opens the channel; a unix socket that is not there is named at once
 * (gRPC would only say "failed to connect"). */
static grpc_client *open_client(const bench_args *a) {
    const char *path = NULL;
    if (strncmp(a->addr, "unix://", 7) == 0)
        path = a->addr + 7;
    else if (strncmp(a->addr, "unix:", 5) == 0)
        path = a->addr + 5;
    struct stat st;
    if (path && path[0] && stat(path, &st) != 0) {
        fprintf(stderr, "cuzk bench: daemon socket %s: %s (is `cuzk daemon` listening on %s?)\n",
                path, strerror(errno), a->addr);
        return NULL;
    }
    if (path && path[0] && !S_ISSOCK(st.st_mode)) {
        fprintf(stderr, "cuzk bench: daemon address %s: %s is not a socket\n", a->addr, path);
        return NULL;
    }
    char err[CUZK_ERROR_LEN];
    grpc_client *c = grpc_client_open(a->addr, err);
    if (c == NULL)
        fprintf(stderr, "cuzk bench: %s\n", err);
    return c;
}

static int call_failed(const bench_args *a, const char *rpc, int code, const char *msg) {
    fprintf(stderr, "cuzk bench: %s at %s failed: %s: %s\n", rpc, a->addr,
            grpc_client_code_name(code), msg);
    return 1;
}

static void print_hex(FILE *f, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x", p[i]);
}

static int cmd_status(const bench_args *a, grpc_client *c) {
    client_status s;
    char msg[CUZK_ERROR_LEN];
    int code = grpc_client_get_status(c, call_timeout(a, 60), &s, msg);
    if (code)
        return call_failed(a, "GetStatus", code, msg);
    static const char *const tiers[] = {"hot", "warm", "cold"};
    printf("=== cuzk daemon status ===\n");
    printf("uptime:           %llus\n", (unsigned long long)s.uptime_seconds);
    printf("proofs completed: %llu\n", (unsigned long long)s.total_proofs_completed);
    printf("proofs failed:    %llu\n", (unsigned long long)s.total_proofs_failed);
    printf("pinned memory:    %llu / %llu bytes\n", (unsigned long long)s.pinned_memory_bytes,
           (unsigned long long)s.pinned_memory_limit_bytes);
    printf("\nGPUs: %zu\n", s.n_gpus);
    for (size_t i = 0; i < s.n_gpus; i++) {
        const client_gpu_status *g = &s.gpus[i];
        printf("  [%u] %s - %llu MiB free of %llu MiB VRAM - ", g->ordinal, g->name,
               (unsigned long long)(g->vram_free_bytes >> 20),
               (unsigned long long)(g->vram_total_bytes >> 20));
        if (g->current_job_id[0])
            printf("proving %s (%s)\n", g->current_proof_kind, g->current_job_id);
        else
            printf("idle\n");
    }
    printf("\nSRS: %zu\n", s.n_srs);
    for (size_t i = 0; i < s.n_srs; i++)
        printf("  %s (tier=%s, size=%llu bytes, refs=%u)\n", s.srs[i].circuit_id,
               s.srs[i].tier >= 0 && s.srs[i].tier <= 2 ? tiers[s.srs[i].tier] : "?",
               (unsigned long long)s.srs[i].size_bytes, s.srs[i].ref_count);
    printf("\nQueues: %zu\n", s.n_queues);
    for (size_t i = 0; i < s.n_queues; i++)
        printf("  %s: pending=%u, in_progress=%u\n", s.queues[i].proof_kind, s.queues[i].pending,
               s.queues[i].in_progress);
    client_status_free(&s);
    return 0;
}

static int cmd_metrics(const bench_args *a, grpc_client *c) {
    char *text, msg[CUZK_ERROR_LEN];
    int code = grpc_client_get_metrics(c, call_timeout(a, 60), &text, msg);
    if (code)
        return call_failed(a, "GetMetrics", code, msg);
    fputs(text, stdout);
    free(text);
    return 0;
}

static int cmd_srs(const bench_args *a, grpc_client *c) {
    if (a->circuit_id == NULL || a->circuit_id[0] == 0)
        return bad("%s: -c/--circuit-id ID is required (porep-32g, wpost-32g, ...)%s",
                   sub_names[a->sub], "");
    char msg[CUZK_ERROR_LEN];
    int flag, code;
    uint64_t v;
    if (a->sub == SUB_PRELOAD) {
        code = grpc_client_preload_srs(c, a->circuit_id, call_timeout(a, 3600), &flag, &v, msg);
        if (code)
            return call_failed(a, "PreloadSRS", code, msg);
        if (flag)
            printf("%s already loaded\n", a->circuit_id);
        else
            printf("%s loaded in %llu ms\n", a->circuit_id, (unsigned long long)v);
    } else {
        code = grpc_client_evict_srs(c, a->circuit_id, call_timeout(a, 60), &flag, &v, msg);
        if (code)
            return call_failed(a, "EvictSRS", code, msg);
        if (flag)
            printf("%s evicted (%llu bytes freed)\n", a->circuit_id, (unsigned long long)v);
        else
            printf("%s was not loaded\n", a->circuit_id);
    }
    return 0;
}

/* "porep=1,wpost=2" -> weights per kind (a bare kind weighs 1). */
static int parse_mix(const char *mix, double w[KINDS]) {
    char buf[256];
    if (mix == NULL || snprintf(buf, sizeof buf, "%s", mix) >= (int)sizeof buf)
        return bad("stress: --mix KIND=WEIGHT[,KIND=WEIGHT...] is required (e.g. "
                   "porep=1,wpost=2)%s%s",
                   "", "");
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '=');
        double weight = 1;
        if (eq) {
            *eq = 0;
            char *end;
            weight = strtod(eq + 1, &end);
            if (end == eq + 1 || *end || !(weight > 0) || weight > 1e6)
                return bad("--mix: weight \"%s\" of %s is not a number > 0", eq + 1, t);
        }
        int k = kind_from_str(t);
        if (k == 0)
            return bad("--mix: unknown proof type \"%s\"%s (porep, snap, wpost, winning)", t, "");
        if (w[k] > 0)
            return bad("--mix: %s given twice%s", t, "");
        w[k] = weight;
    }
    return 0;
}

static void print_result_block(const bench_record *r) {
    const client_proof_result *x = &r->res;
    static const char *const names[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    printf("\n=== Proof Result ===\n");
    printf("status:    %s\n", x->status >= 0 && x->status <= 4 ? names[x->status] : "UNKNOWN");
    printf("job_id:    %s\n", x->job_id);
    if (x->status == 1) {
        printf(
            "timings:   total=%llu ms (queue=%llu ms, srs=%llu ms, synth=%llu ms, gpu=%llu ms)\n",
            (unsigned long long)x->total_ms, (unsigned long long)x->queue_wait_ms,
            (unsigned long long)x->srs_load_ms, (unsigned long long)x->synthesis_ms,
            (unsigned long long)x->gpu_compute_ms);
        printf("wall time: %.0f ms\n", r->end_ms - r->start_ms);
        printf("proof:     %zu bytes (hex: ", x->proof_len);
        print_hex(stdout, x->proof, x->proof_len <= 256 ? x->proof_len : 128);
        printf("%s)\n", x->proof_len <= 256 ? "" : "...");
    } else {
        printf("error:     %s\n", x->error_message);
    }
}

static int cmd_prove(const bench_args *a, grpc_client *c) {
    bench_spec specs[KINDS];
    spec_data data[KINDS];
    memset(data, 0, sizeof data);
    size_t n_specs = 0;
    int rc = 0;
    if (a->sub == SUB_STRESS) {
        double w[KINDS] = {0};
        if ((rc = parse_mix(a->mix, w)))
            return rc;
        if (!(a->rate > 0) || !(a->duration_s > 0))
            return bad("stress: --rate R and --duration S are required%s%s", "", "");
        for (int k = 1; k < KINDS && rc == 0; k++)
            if (w[k] > 0) {
                rc = build_spec(a, k, &specs[n_specs], &data[n_specs]);
                specs[n_specs].weight = w[k];
                n_specs++;
            }
    } else {
        int k = a->type ? kind_from_str(a->type) : 0;
        if (k == 0)
            rc = a->type
                     ? bad("unknown proof type \"%s\"%s (porep, snap, wpost, winning)", a->type, "")
                     : bad("%s: -t/--type TYPE is required%s", sub_names[a->sub], "");
        else
            rc = build_spec(a, k, &specs[n_specs++], &data[0]);
    }
    size_t count = a->sub == SUB_SINGLE  ? 1
                   : a->sub == SUB_BATCH ? a->count
                                         : (size_t)(a->rate * a->duration_s + 0.5);
    if (rc == 0 && a->sub == SUB_STRESS && (count == 0 || count > 1000000))
        rc = bad("stress: rate x duration gives %s requests%s (1..1000000)",
                 count ? "too many" : "no", "");
    bench_plan plan = {c, call_timeout(a, 7200), specs, n_specs, 1, count, 0, stdout};
    if (rc == 0 && a->timeline) { /* an unwritable path fails now, not after the proofs */
        FILE *f = fopen(a->timeline, "w");
        if (f == NULL)
            rc = bad("--timeline %s: %s", a->timeline, strerror(errno));
        else
            fclose(f);
    }
    if (rc == 0 && a->sub != SUB_SINGLE) {
        plan.slots = (unsigned)a->concurrency;
        if (a->sub == SUB_BATCH && plan.slots > count)
            plan.slots = (unsigned)count;
        plan.rate_per_s = a->sub == SUB_STRESS ? a->rate : 0;
        /* fail fast, with one message, when the daemon is not there */
        client_status st;
        char msg[CUZK_ERROR_LEN];
        int code = grpc_client_get_status(c, call_timeout(a, 30), &st, msg);
        if (code)
            rc = call_failed(a, "GetStatus (reachability check)", code, msg);
        else
            client_status_free(&st);
    }
    if (rc) {
        for (size_t i = 0; i < n_specs; i++)
            spec_data_free(&data[i]);
        return rc;
    }
    if (a->sub == SUB_SINGLE)
        plan.progress = NULL;
    if (a->sub == SUB_BATCH)
        printf("=== Batch Benchmark ===\nproof type:  %s\ncount:       %zu\nconcurrency: %u\n",
               specs[0].name, count, plan.slots);
    if (a->sub == SUB_STRESS)
        printf("=== Stress Benchmark ===\nmix:         %s\nrate:        %.3f/s for %.1f s (%zu "
               "requests)\nconcurrency: %u\n",
               a->mix, a->rate, a->duration_s, count, plan.slots);
    for (size_t i = 0; i < n_specs; i++)
        printf("request:     %s\n", data[i].desc);
    printf("daemon:      %s\n", a->addr);
    fflush(stdout);

    bench_record *rec;
    double elapsed;
    char err[CUZK_ERROR_LEN];
    if (bench_run(&plan, &rec, &elapsed, err) != 0) {
        fprintf(stderr, "cuzk bench: %s\n", err);
        rc = 1;
        goto out;
    }
    size_t ok = 0;
    for (size_t i = 0; i < count; i++)
        ok += (size_t)bench_record_ok(&rec[i]);
    if (a->sub == SUB_SINGLE) {
        if (rec[0].code)
            rc = call_failed(a, "Prove", rec[0].code, rec[0].msg);
        else
            print_result_block(&rec[0]);
        if (a->proof_out && ok) {
            FILE *f = fopen(a->proof_out, "wb");
            if (!f ||
                fwrite(rec[0].res.proof, 1, rec[0].res.proof_len, f) != rec[0].res.proof_len) {
                fprintf(stderr, "cuzk bench: --proof-out %s: %s\n", a->proof_out, strerror(errno));
                rc = 1;
            }
            if (f && fclose(f) != 0)
                rc = 1;
        }
    }
    printf("\n=== %s Summary ===\n", a->sub == SUB_SINGLE  ? "Single"
                                     : a->sub == SUB_BATCH ? "Batch"
                                                           : "Stress");
    bench_summary(stdout, &plan, rec, count, elapsed);
    if (a->timeline) {
        char title[300];
        snprintf(title, sizeof title, "cuzk bench %s: %zu x %s%s, %u slot%s", sub_names[a->sub],
                 count, a->sub == SUB_STRESS ? a->mix : specs[0].name, "", plan.slots,
                 plan.slots == 1 ? "" : "s");
        if (bench_timeline(a->timeline, title, &plan, rec, count, err) != 0) {
            fprintf(stderr, "cuzk bench: --timeline %s\n", err);
            rc = 1;
        } else {
            printf("timeline:    %s\n", a->timeline);
        }
    }
    if (ok != count && rc == 0)
        rc = 1;
    bench_records_free(rec, count);
out:
    for (size_t i = 0; i < n_specs; i++)
        spec_data_free(&data[i]);
    return rc;
}

int cmd_bench_client(int argc, char **argv) {
    bench_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc >= 0)
        return rc;
    int level = slog_level_parse(a.log_level);
    if (level < 0)
        return bad("--log-level %s: expected trace, debug, info, warn or error%s", a.log_level, "");
    slog_set_level((slog_level)level);
    grpc_client *c = open_client(&a);
    if (c == NULL)
        return 1;
    switch (a.sub) {
    case SUB_STATUS:
        rc = cmd_status(&a, c);
        break;
    case SUB_METRICS:
        rc = cmd_metrics(&a, c);
        break;
    case SUB_PRELOAD:
    case SUB_EVICT:
        rc = cmd_srs(&a, c);
        break;
    default:
        rc = cmd_prove(&a, c);
    }
    fflush(stdout);
    grpc_client_close(c);
    return rc;
}
