/* `cuzk bench` flags: the Rust cuzk-bench's (api-and-ecosystem.md §2.7) plus
 * ours, parsed with GNU getopt_long.  The subcommand is found first (the one
 * word that is not an option or an option's value), because it decides the
 * option table: -c is --count for batch and --circuit-id for preload/evict,
 * and an option of another subcommand is an error, as with clap. */
#include "cli/bench/bench_args.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/hex.h"

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

const char *const bench_sub_names[SUB_N] = {"single",  "batch", "stress", "status",
                                            "preload", "evict", "metrics"};
const char *const bench_kind_names[KINDS] = {"", "porep", "snap", "wpost", "winning"};

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

int bench_bad(const char *fmt, const char *a, const char *b) {
    fprintf(stderr, "cuzk bench: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

int bench_kind_from_str(const char *s) {
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
    int kind = bench_kind_from_str(k);
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
            if (strcmp(w, bench_sub_names[s]) == 0)
                return s;
        return -2 - i; /* an unknown word at i */
    }
    return -1;
}

int bench_args_parse(bench_args *a, int argc, char **argv) {
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
        return bench_bad("unknown command \"%s\"%s (single, batch, stress, status, preload, evict, "
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
                return bench_bad("--timeout %s: expected seconds > 0%s", v, "");
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
                return bench_bad("--registered-proof %s: expected a number or KIND=NUMBER%s", v,
                                 "");
            a->have_rp[k] = 1;
            a->rp[k] = u;
            break;
        case O_SECTOR_SIZE:
            if (parse_u64(v, &a->sector_size))
                return bench_bad("--sector-size %s: expected bytes%s", v, "");
            a->have_sector_size = 1;
            break;
        case O_SECTOR_NUM:
            if (parse_u64(v, &a->sector_num))
                return bench_bad("--sector-num %s: expected a number%s", v, "");
            a->have_sector_num = 1;
            break;
        case O_MINER:
            if (parse_u64(v, &a->miner_id))
                return bench_bad("--miner-id %s: expected a number%s", v, "");
            break;
        case O_PARTITION:
            if (parse_u64(v, &u) || u > UINT32_MAX)
                return bench_bad("--partition %s: expected a number%s", v, "");
            a->partition = (uint32_t)u;
            break;
        case O_RANDOMNESS:
            if (parse_hex32(v, a->randomness))
                return bench_bad("--randomness %s: expected 32 bytes of hex (64 digits)%s", v, "");
            break;
        case O_CRO:
        case O_CRN:
        case O_CDN: {
            uint8_t *dst = c == O_CRO ? a->cro : c == O_CRN ? a->crn : a->cdn;
            if (parse_hex32(v, dst))
                return bench_bad("%s: expected 32 bytes of hex (64 digits), got \"%s\"",
                                 c == O_CRO   ? "--comm-r-old"
                                 : c == O_CRN ? "--comm-r-new"
                                              : "--comm-d-new",
                                 v);
            *(c == O_CRO ? &a->have_cro : c == O_CRN ? &a->have_crn : &a->have_cdn) = 1;
            break;
        }
        case O_PRIORITY:
            if (parse_u64(v, &u) || u > 4)
                return bench_bad("--priority %s: expected 0..4%s", v, "");
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
                    return bench_bad("--count %s: expected 1..1000000%s", v, "");
            } else {
                a->circuit_id = v;
            }
            break;
        case O_CONC:
            if (parse_u64(v, &a->concurrency) || a->concurrency == 0 || a->concurrency > 1024)
                return bench_bad("--concurrency %s: expected 1..1024%s", v, "");
            break;
        case O_MIX:
            a->mix = v;
            break;
        case O_RATE:
            if (parse_scaled(v, &a->rate, r_units, r_scale, 4) || a->rate <= 0)
                return bench_bad("--rate %s: expected requests per second > 0 (e.g. 2, 2/s, "
                                 "30/m)%s",
                                 v, "");
            break;
        case O_DURATION:
            if (parse_scaled(v, &a->duration_s, t_units, t_scale, 3) || a->duration_s <= 0)
                return bench_bad("--duration %s: expected seconds > 0 (e.g. 60, 60s, 2m)%s", v, "");
            break;
        case ':':
            return bench_bad("%s: needs a value (%s)", argv[optind - 1], bench_sub_names[sub]);
        default:
            return bench_bad("%s: not an option of `cuzk bench %s`", argv[optind - 1],
                             bench_sub_names[sub]);
        }
    }
    /* the non-option words are now argv[optind..]: only the subcommand */
    int seen = 0;
    for (int i = optind; i < argc; i++) {
        if (!seen && strcmp(argv[i], bench_sub_names[sub]) == 0) {
            seen = 1;
            continue;
        }
        return bench_bad("%s: unexpected argument to `cuzk bench %s`", argv[i],
                         bench_sub_names[sub]);
    }
    return -1; /* parsed */
}
