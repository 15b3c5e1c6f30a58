/* `cuzk bench` client: its flags (bench_args.c) and the request specs they
 * make (bench_inputs.c), shared with the commands in cmd_bench_client.c. */
#ifndef CUZK_CLI_BENCH_ARGS_H
#define CUZK_CLI_BENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "cli/bench/bench_load.h"

enum { SUB_SINGLE, SUB_BATCH, SUB_STRESS, SUB_STATUS, SUB_PRELOAD, SUB_EVICT, SUB_METRICS, SUB_N };
extern const char *const bench_sub_names[SUB_N];

enum { KINDS = 5 }; /* proto ProofKind 1..4; index 0 = "any kind" in per-kind flags */
extern const char *const bench_kind_names[KINDS];

/* The parsed command line.  Per-kind arrays are indexed by ProofKind; [0]
 * holds a value given without a KIND= prefix. */
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
} bench_spec_data;

/* Prints "cuzk bench: " + fmt (two %s: a, b) to stderr; returns 2. */
int bench_bad(const char *fmt, const char *a, const char *b);

/* A -t/--type name or alias (any case) -> ProofKind 1..4, or 0. */
int bench_kind_from_str(const char *s);

/* Parses argv (argv[0] = "bench"; flags before or after the subcommand).
 * Returns -1 when parsed, else the exit status (0 after --help, 2 with a
 * message naming the bad flag). */
int bench_args_parse(bench_args *a, int argc, char **argv);

/* Fills spec s for proof kind `kind` from the flags, reading its input
 * file into d (kept until bench_spec_data_free).  Returns 0, or 2 with a
 * message naming the flag or file. */
int bench_spec_build(const bench_args *a, int kind, bench_spec *s, bench_spec_data *d);
void bench_spec_data_free(bench_spec_data *d);

#endif
