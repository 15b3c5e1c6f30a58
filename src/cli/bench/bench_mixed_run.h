/* One run of the mixed workload (bench_engine_mixed.h): an engine with the
 * four kinds' parameter sets preloaded, the jobs submitted in the given
 * order, every result awaited and verified here, and the figures read back
 * from the engine (results' timings, per-job timelines, device status). */
#ifndef CUZK_CLI_BENCH_MIXED_RUN_H
#define CUZK_CLI_BENCH_MIXED_RUN_H

#include <stddef.h>

#include "cli/bench/bench_mixed_input.h"
#include "cuzk/engine.h"

typedef struct {
    bench_mix_kind mk;
    char id[64];
    int completed; /* the engine says COMPLETED (it self-verified) */
    int verified;  /* ... and every partition verified here */
    double latency_ms;
    /* WinningPoSt: from the timelines */
    double queue_ms, wait_ms;
    double own_ms, prove_ms; /* its SRS load and synthesis; its proving (summed) */
    int behind;              /* jobs of another kind dispatched while it was queued */
    char behind_what[160];
    char waited_for[160]; /* jobs that proved between its submit and its own proving */
} bench_mix_job;

typedef struct {
    const char *dir;       /* parameter directory */
    unsigned synth, prove; /* synthesis workers, prover threads */
    unsigned batch;        /* scheduler.max_batch_size */
    double interval_ms;    /* between submits; 0: all at once */
    int use_gpu;
} bench_mix_config;

typedef struct {
    double wall_ms;
    double gpu_busy_ms; /* summed over GPUs; n_gpus 0: the CPU backend */
    unsigned n_gpus;
    double prover_busy_ms; /* the CPU backend's device */
} bench_mix_result;

/* Runs jobs[0..n) (mk set; the rest filled here) over in[].  0 when the run
 * took place (failed jobs are in jobs[]), -1 when it could not start (said). */
int bench_mix_run(bench_mix_job *jobs, size_t n, const bench_mix_input in[MIX_KINDS],
                  const bench_mix_config *cfg, bench_mix_result *out);

#endif
