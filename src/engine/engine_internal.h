/* The engine's shared state: one lock, its conditions, and the structures the
 * engine files share (engine.c: the API; pipeline.c: start, stop, provers;
 * dispatcher.c; synthesis.c; batch.c: batches and groups; status.c).  The
 * parts below them (job.c, scheduler.c, memory.c, srs.c) do not include it.
 *
 * Locking: one mutex, e->mu, guards everything here (jobs, queues, batches,
 * budget, SRS tiers, counters).  Nobody holds it across synthesis, proving,
 * verification or parameter decoding, so it is held only for bookkeeping.
 * Conditions:
 *   cv_sched  dispatcher: queue changed, a batch finished, shutdown
 *   cv_synth  synthesis workers: a partition task or a queue slot
 *   cv_prove  prover workers: a synthesized group
 *   cv_mem    memory released, an SRS load finished, a floor freed
 *   cv_done   a job reached a final state (awaits)
 *
 * Tests include this header for engine_debug_stats and for
 * engine_set_prover_backend. */
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "engine/circuit_provider.h"
#include "engine/device.h"
#include "engine/job.h"
#include "engine/memory.h"
#include "engine/scheduler.h"
#include "engine/srs.h"
#include "groth16/backend.h"
#include "util/slog.h"
#include "util/timing.h"

/* Jobs of one circuit admitted together: partition i of every live job is
 * synthesized by one task and proven by one backend call. */
typedef struct engine_batch {
    uint64_t id;
    cuzk_priority priority;
    engine_job **jobs; /* references */
    size_t n_jobs;
    size_t n_partitions; /* the largest of the jobs' */
    size_t next_task;    /* next partition index to hand out */
    size_t tasks_open;   /* handed out, not yet proven or dropped */
    srs_set *srs;        /* referenced while the batch is active */
    uint64_t floor_bytes;
    int floor_in_use;
    int admitted; /* parameters acquired (or failed): the batch may end */
    struct engine_batch *next;
} engine_batch;

/* One synthesized partition index of a batch, queued for a prover. */
typedef struct engine_group {
    engine_batch *batch;
    size_t partition;
    size_t n;
    engine_job **jobs; /* n entries; a dropped member is NULL */
    r1cs_partition *parts;
    uint64_t *reserved; /* per member, 0 for a floor group */
    int uses_floor;
    struct engine_pce *pce_probe; /* while it obtains its circuit's pce */
    double synth_end_ms;
    struct engine_group *next;
} engine_group;

typedef struct {
    uint64_t flushes[SCHED_FLUSH_COUNT];
    int collector_waiting;
    uint64_t mem_budget, mem_peak, part_actual_peak, mem_waits;
    uint64_t part_reserved_peak, mem_shrinks, mem_regrows;
    uint64_t mem_retry_reserved, mem_retry_peak; /* CPU re-proofs' reservations (memory.h) */
    unsigned synth_active_peak, prove_active_peak, prove_threads_max;
    uint64_t srs_loads, srs_demotions;
    uint64_t cpu_retries, self_verify_failures;
    size_t batches_active, groups_queued;
    unsigned synth_workers, prover_threads; /* the configured split */
    uint64_t dispatcher_passes;             /* decisions the dispatcher has made */
    uint64_t device_requeues;               /* partitions put back after a device fault */
    uint64_t pce_probe_waits;               /* groups that waited for their pce's probe */
    uint64_t fallback_headroom_max;         /* the most an admission asked to keep free */
} engine_debug_stats;

struct cuzk_engine {
    cuzk_engine_config cfg;
    pthread_mutex_t mu;
    pthread_cond_t cv_sched, cv_synth, cv_prove, cv_mem, cv_done;
    double t0_ms; /* monotonic clock at start: the timeline's origin */

    job_table jobs; /* and the job counters */
    scheduler sched;
    mem_budget mem;
    srs_manager srs;
    engine_circuit_provider providers[CUZK_KIND_COUNT];
    int has_provider[CUZK_KIND_COUNT];
    /* the prover devices (device.h), each with its own workers */
    engine_device devices[ENGINE_MAX_DEVICES];
    unsigned n_devices;
    uint32_t fail_mask;                    /* TEST ONLY: devices whose calls fail (device.h) */
    struct engine_prover_arg *prover_args; /* one per prover worker: its device */

    /* pipeline */
    engine_batch *active; /* priority order, then admission order */
    size_t n_active, max_active;
    engine_group *prove_queue;
    size_t n_queued_groups, queue_depth;
    unsigned synth_workers, prover_workers, prover_threads;
    unsigned synth_tasks; /* tasks taken, not yet queued (waiting for memory or synthesizing) */
    unsigned synth_active, prove_active;
    unsigned synth_cores;    /* cores for synthesis, shared by the PCE partitions in flight */
    struct engine_pce *pces; /* engine/pce.h, under mu */
    uint64_t next_batch_id, next_dispatch_seq;
    pthread_t dispatcher;
    pthread_t *synth_tids, *prover_tids;
    int started_dispatcher;
    unsigned started_synth, started_prover;
    int stopping;        /* no new submissions */
    int dispatcher_done; /* the queue is empty for good */
    int shutdown_done;

    /* counters (the per-kind and per-stage ones are jobs.stats) */
    uint64_t self_verify_failures, cpu_retries;
    engine_debug_stats dbg;
};

/* Engine clock (ms since start). */
static inline double engine_now(const cuzk_engine *e) { return timing_now_ms() - e->t0_ms; }

/* Shorthands for the job bookkeeping (job.c) on the engine's table and clock. */
static inline void engine_stage(cuzk_engine *e, engine_job *j, int partition, cuzk_stage stage,
                                double start_ms, double end_ms) {
    job_stage(&e->jobs, j, partition, stage, start_ms, end_ms);
}
#define engine_job_finish(e, j, st, ...) job_finish(&(e)->jobs, j, st, engine_now(e), __VA_ARGS__)
/* A warning from the engine, through the structured log. */
#define engine_log(...) slog(SLOG_WARN, "engine", __VA_ARGS__)

/* The least device memory a partition of this shape needs on a GPU
 * (engine.c: gpus.memory_limit below it refuses the job at submit). */
uint64_t engine_gpu_min_bytes(uint64_t rows, uint64_t num_inputs, uint64_t num_aux);

/* Test and benchmark hooks.  The backend replaces every device's. */
void engine_set_prover_backend(cuzk_engine *e, const groth16_backend *b);
void engine_debug_stats_get(cuzk_engine *e, engine_debug_stats *out);

#endif
