/* The priority scheduler and the batch collector.
 *
 * Queues: one FIFO per priority, CRITICAL > HIGH > NORMAL > LOW.  The next
 * batch always starts with the oldest job of the highest non-empty priority
 * (the head).  Within a priority nothing overtakes except through batching:
 *
 * Batch collector (max_batch_size > 1): jobs proven under the same parameter
 * set (circuit id) at the same priority ride together.  Which companions may
 * join the head:
 *   sort_by_type off: only the run of same-circuit jobs directly behind the
 *                     head (strict FIFO); a job of another circuit behind that
 *                     run ends the batch at once (flush "order");
 *   sort_by_type on:  any same-circuit job of that priority, in FIFO order,
 *                     overtaking jobs of other circuits.
 * A batch is flushed (handed to the pipeline) when
 *   it is full                                   -> "full"
 *   its oldest job has waited max_batch_wait_ms  -> "wait"
 *   work of a higher priority arrives while the
 *   collector is holding it back                 -> "priority"
 *   the engine is draining                       -> "drain"
 * otherwise the collector waits (SCHED_WAIT, with the time the wait flush is
 * due).  A CRITICAL head is never held: it leaves at once with the
 * same-circuit companions already queued.  With max_batch_size 1 every job is its own batch (no
 * flush counted).
 *
 * The scheduler owns no jobs: the queues borrow the job table's references.
 * Every function runs under the engine lock. */
#ifndef CUZK_ENGINE_SCHEDULER_H
#define CUZK_ENGINE_SCHEDULER_H

#include <stddef.h>
#include <stdint.h>

#include "engine/job.h"

#define SCHED_LEVELS 5 /* indexed by cuzk_priority; 0 (DEFAULT) unused */

typedef enum {
    SCHED_FLUSH_FULL = 0,
    SCHED_FLUSH_WAIT,
    SCHED_FLUSH_PRIORITY,
    SCHED_FLUSH_ORDER,
    SCHED_FLUSH_DRAIN,
    SCHED_FLUSH_COUNT
} sched_flush;

typedef enum { SCHED_EMPTY = 0, SCHED_WAIT, SCHED_READY } sched_decision;

typedef struct {
    engine_job *head[SCHED_LEVELS], *tail[SCHED_LEVELS];
    size_t n_queued;
    uint32_t n_by_kind[CUZK_KIND_COUNT];
    unsigned max_batch_size;
    double max_wait_ms;
    int sort_by_type;
    engine_job *collecting; /* the head the collector held back last time */
    int collector_waiting;  /* the last decision was SCHED_WAIT */
    uint64_t flushes[SCHED_FLUSH_COUNT];
} scheduler;

void sched_init(scheduler *s, unsigned max_batch_size, double max_wait_ms, int sort_by_type);
/* Appends j to its priority's FIFO (j->priority is already resolved). */
void sched_push(scheduler *s, engine_job *j);
/* Removes a queued job (cancellation, shutdown). */
void sched_remove(scheduler *s, engine_job *j);
/* The job that leaves the queue next without batching; NULL when empty. */
engine_job *sched_first(const scheduler *s);
/* How many queued jobs would leave the queue before j. */
uint32_t sched_position(const scheduler *s, const engine_job *j);
/* The next batch.  SCHED_READY: jobs[0..*n) (at most max_batch_size, the
 * caller's array) are removed from the queues, head first.  SCHED_WAIT:
 * *wake_ms is when the collector's wait flush is due.  draining flushes at
 * once. */
sched_decision sched_next(scheduler *s, double now_ms, int draining, engine_job **jobs, size_t *n,
                          double *wake_ms);
const char *sched_flush_name(sched_flush f);

#endif
