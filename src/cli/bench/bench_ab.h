/* The workloads of `cuzk bench ab` (cmd_bench_ab.c): something that can run
 * many times in one process and report where each run's time went, phase
 * by phase.  Expensive preparation (parameters, sealing, setup) happens once
 * in ab_workload_open, outside the measured runs. */
#ifndef CUZK_CLI_BENCH_AB_H
#define CUZK_CLI_BENCH_AB_H

#include <stddef.h>

#include "groth16/backend.h"

#define AB_MAX_PHASES 24

/* One run's phases in a fixed order (every run of a workload reports the
 * same names in the same order); "total" is always last. */
typedef struct {
    size_t n;
    const char *name[AB_MAX_PHASES]; /* static strings */
    double ms[AB_MAX_PHASES];
} ab_phases;

static inline void ab_phase(ab_phases *p, const char *name, double ms) {
    if (p->n < AB_MAX_PHASES) {
        p->name[p->n] = name;
        p->ms[p->n++] = ms;
    }
}

typedef struct {
    char desc[1024]; /* what one run does, for the report */
    void *state;
    /* One full run; every proof it makes is verified.  0, or -1 with a message. */
    int (*run)(void *state, ab_phases *out, char *err, size_t cap);
    void (*free)(void *state);
} ab_workload;

typedef struct {
    const char *c1;         /* porep-*: the C1 file (porep-2k: else sealed here) */
    const char *params_dir; /* porep-*: where its parameters are */
    unsigned threads;
    const groth16_backend *backend; /* the prover: CPU or CUDA */
} ab_options;

#define AB_WORKLOADS "porep-2k, porep-512m or random:N[:SEED]"

/* One of AB_WORKLOADS.  0, or -1 with a message in err. */
int ab_workload_open(ab_workload *w, const char *spec, const ab_options *o, char *err, size_t cap);
/* 1 when spec names a workload (checked before anything is loaded). */
int ab_workload_known(const char *spec);
void ab_workload_close(ab_workload *w);

#endif
