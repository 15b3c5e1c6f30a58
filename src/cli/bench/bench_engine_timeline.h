/* The per-partition stage timeline of `cuzk bench engine`, collected over
 * the bench's cases and drawn as one SVG (util/svg_timeline.h): per case, the
 * synthesis workers' lanes, the queue (a partition waiting for a prover) and
 * the prover's lane (backend call, then self-verification).  The engine's
 * events do not say which worker ran them, so each group's lanes are packed
 * (first fit): as many lanes as intervals overlapped, which is the number of
 * workers busy at once; a gap in a lane is a worker with nothing to do. */
#ifndef CUZK_CLI_BENCH_ENGINE_TIMELINE_H
#define CUZK_CLI_BENCH_ENGINE_TIMELINE_H

#include <stddef.h>

#include "cuzk/engine.h"

typedef struct {
    unsigned case_index;
    int partition;
    cuzk_stage stage;
    double start_ms, end_ms;
    char job[CUZK_JOB_ID_LEN];
} bench_tl_event;

typedef struct {
    bench_tl_event *ev;
    size_t n, cap;
} bench_tl;

/* Keeps the per-partition stages (synthesis, prove wait, prove, verify) of
 * one job's timeline.  0, or -1 when out of memory. */
int bench_tl_add(bench_tl *t, unsigned case_index, const cuzk_job_timeline *jt);

/* Writes the SVG.  0, or -1 with a message in err. */
int bench_tl_write_svg(const bench_tl *t, const char *path, const char *title,
                       const char *const *case_names, size_t n_cases, char *err, size_t cap);

void bench_tl_free(bench_tl *t);

#endif
