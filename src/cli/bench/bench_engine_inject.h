/* `cuzk bench engine --inject-winning AT_MS[,AT_MS...]`: WinningPoSt
 * requests submitted into the running workload AT_MS after its jobs were
 * (issue 32: a WinningPoSt waits at most for the partition in progress).
 *
 * What is injected: with --winning-vanilla FILE --winning-randomness HEX a
 * real WinningPoSt (the registered proof read from the vanilla proof's
 * shape, its parameters preloaded from the workload's directory, as a
 * daemon keeps them); otherwise, on the synthetic workload, a one-partition
 * job of the synthetic circuit submitted as a WinningPoSt (CRITICAL, the
 * kind's default priority) -- the scheduling is the same, the circuit not.
 *
 * Reported per injection, from the engine's timelines: queue (submit to
 * dispatch), start (submit to its synthesis), wait (submit to its proving
 * minus its own parameter and synthesis time: what it spent behind other
 * work), prove, total, the workload's partition proven last before it (the
 * one it waited behind; none when the prover was free), and the bound: the
 * longest prove of one of the workload's partitions; then the totals' p50,
 * p99 (nearest rank) and maximum. */
#ifndef CUZK_CLI_BENCH_ENGINE_INJECT_H
#define CUZK_CLI_BENCH_ENGINE_INJECT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/engine.h"
#include "engine/synthetic.h"
#include "filecoin/proof_types.h"

#define BENCH_INJECT_MAX 64

typedef struct {
    double at_ms;
    char id[64];
    int failed, done;
    double queue_ms, start_ms, wait_ms, prove_ms, total_ms;
    char behind[CUZK_JOB_ID_LEN + 64]; /* "JOB partition K" or "" (prover free) */
    double behind_prove_ms;
} bench_inject_one;

typedef struct {
    size_t n;
    double at_ms[BENCH_INJECT_MAX];
    uint8_t *vanilla; /* a real WinningPoSt, else NULL (synthetic) */
    size_t vanilla_len;
    uint8_t rnd[32];
    const fc_post_proof *proof;
    char circuit[64];     /* what the injected jobs prove */
    const char *syn_text; /* synthetic: the circuit id */
    /* one run */
    cuzk_engine *e;
    const char *case_name;
    double t0;
    pthread_t th;
    int started;
    bench_inject_one one[BENCH_INJECT_MAX];
    double bound_ms; /* the longest prove of one workload partition */
} bench_inject;

/* Parses "AT_MS[,AT_MS...]" (ascending, 0..3600000) and the optional real
 * WinningPoSt.  0, or 2 after a usage message, 1 after an unreadable file. */
int bench_inject_parse(bench_inject *in, const char *list, const char *vanilla_path,
                       const char *rnd_hex);

/* Before a run: the synthetic provider also answers WinningPoSt (syn), or
 * the real WinningPoSt's parameters are preloaded. */
cuzk_status bench_inject_prepare(bench_inject *in, cuzk_engine *e, engine_synthetic *syn,
                                 const char *syn_circuit, char err[CUZK_ERROR_LEN]);

/* Starts submitting at t0 (timing_now_ms) + each AT_MS; 0 or -1. */
int bench_inject_start(bench_inject *in, cuzk_engine *e, const char *case_name, double t0);

/* After the workload's jobs (ids "bench-CASE-0..jobs-1") finished, before
 * the engine is freed: waits for the injected ones and measures them.  0,
 * or -1 if one failed. */
int bench_inject_finish(bench_inject *in, unsigned jobs);

/* One line per measured injection of the last run. */
void bench_inject_report(const bench_inject *in, FILE *out);

void bench_inject_free(bench_inject *in);

#endif
