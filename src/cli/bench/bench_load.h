/* Load generation for `cuzk bench batch|stress`: N Prove calls over S
 * request slots, released on a schedule, then a summary and a timeline.
 *
 * One worker thread per slot takes the next released request and runs it to
 * the end, so at most S requests are in flight and the slot a request ran in
 * is its lane in the timeline.  Requests are released all at once (batch:
 * a closed loop, each slot starts the next as soon as it is free) or every
 * 1/rate seconds (stress: an open loop; a request that finds no free slot
 * starts late, and the summary reports how late). */
#ifndef CUZK_CLI_BENCH_LOAD_H
#define CUZK_CLI_BENCH_LOAD_H

#include <stddef.h>
#include <stdio.h>

#include "cli/bench/grpc_client.h"

/* One kind of request in the mix. */
typedef struct {
    const char *name;         /* "porep", "wpost", ... */
    client_proof_request req; /* request_id is filled per request */
    double weight;            /* share of the mix (stress), > 0 */
} bench_spec;

/* What happened to request `index`. */
typedef struct {
    size_t index;
    unsigned slot;
    const bench_spec *spec;
    double sched_ms, start_ms, end_ms; /* since the run started */
    int code;                          /* gRPC status of the call */
    char msg[CUZK_ERROR_LEN];          /* code != 0: the error */
    client_proof_result res;           /* code == 0: the daemon's answer */
} bench_record;

typedef struct {
    grpc_client *client;
    uint64_t timeout_ms; /* per Prove call, 0 = none */
    const bench_spec *specs;
    size_t n_specs;
    unsigned slots;    /* concurrent requests, >= 1 */
    size_t count;      /* requests in all */
    double rate_per_s; /* 0: release all at once (batch) */
    FILE *progress;    /* a line per finished request, or NULL */
} bench_plan;

/* Runs the plan.  *out (count records, in index order) is malloc'd; free
 * with bench_records_free.  *elapsed_ms: first release to last answer.
 * Returns 0, or -1 when threads or memory cannot be had (err set). */
int bench_run(const bench_plan *p, bench_record **out, double *elapsed_ms,
              char err[CUZK_ERROR_LEN]);
void bench_records_free(bench_record *r, size_t n);

/* 1 when the call succeeded and the proof is COMPLETED. */
int bench_record_ok(const bench_record *r);

/* The summary block: completed/failed, throughput, wall-latency
 * avg/p50/p95/max, the daemon's stage times, per kind when the mix has
 * several, and start lateness for open-loop runs. */
void bench_summary(FILE *f, const bench_plan *p, const bench_record *r, size_t n,
                   double elapsed_ms);

/* The timeline SVG: one lane per slot, per request a bar for each stage
 * laid out from the daemon's timings inside the call's wall time: "rpc"
 * (wall time outside the daemon's total_ms: transfer, decoding), queue,
 * srs load, synthesis, "wait/other" (daemon time outside the four stages:
 * mostly waiting for a busy prover, plus self-verification), prove (ending
 * with the reply).  Returns 0 or -1 with err. */
int bench_timeline(const char *path, const char *title, const bench_plan *p, const bench_record *r,
                   size_t n, char err[CUZK_ERROR_LEN]);

/* Nearest-rank percentile q (0..100) of v[0..n) (sorted in place); 0 if n == 0. */
double bench_percentile(double *v, size_t n, double q);

#endif
