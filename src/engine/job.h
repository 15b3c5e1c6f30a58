/* Jobs and the job table.
 *
 * A job is one submitted request: its id, kind, resolved priority, the
 * provider's plan (decoded request), its state, the proof bytes as partitions
 * finish (slot i holds partition i, so proofs are reassembled in partition
 * order whatever order the provers finish in), its timings and its stage
 * timeline.
 *
 * Ownership: jobs are reference counted.  The table holds one reference from
 * submit until the result is pruned; the scheduler's queue and a running
 * batch borrow the table's (a job leaves them before it can be pruned); an
 * await or timeline call holds its own while it waits.  The last unref
 * releases the provider's plan state.
 *
 * The table maps ids to jobs (idempotent submit: a known request_id returns
 * the existing job) and keeps finished jobs on a FIFO retention list, pruned
 * past result_keep_count entries or result_keep_s seconds, oldest first.
 *
 * The table also keeps the job bookkeeping every path ends in: a job's start
 * (job_start), its stage intervals (job_stage) and its final state
 * (job_finish), with the per-kind and per-stage counters they update for
 * GetStatus and /metrics.  The pipeline and the API call down into these; the
 * table knows nothing of either.
 *
 * Every function here runs under the engine lock. */
#ifndef CUZK_ENGINE_JOB_H
#define CUZK_ENGINE_JOB_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "engine/circuit_provider.h"
#include "engine/memory.h"

struct engine_batch;

typedef struct engine_job {
    char id[CUZK_JOB_ID_LEN];
    uint64_t submit_seq, dispatch_seq;
    cuzk_proof_kind kind;
    cuzk_priority priority;
    cuzk_job_state state;
    engine_circuit_provider provider; /* a copy: re-registration cannot pull it away */
    engine_plan plan;
    unsigned refs;

    struct engine_job *q_prev, *q_next; /* scheduler queue */
    struct engine_job *h_next;          /* table bucket chain */
    struct engine_job *f_next;          /* retention list */
    int in_table;
    uint8_t digest[32];         /* of the request's content: de-duplication by request_id */
    int abandoned;              /* cancelled because its caller went away: the id may be reused */
    unsigned waiters;           /* Prove callers attached (cuzk_engine_attach) */
    char owner[CUZK_OWNER_LEN]; /* who may cancel it besides a privileged caller; "" = anyone */
    int prove_created;          /* a Prove created it: its last caller leaving abandons it */
    /* memory (engine/memory.h): plan.partition_bytes is the per-partition
     * reservation, the provider's bound plus prove_scratch, the prover's
     * working memory; request_bytes are held until the job is final */
    uint64_t prove_scratch, request_bytes;

    /* running */
    struct engine_batch *batch;
    uint64_t batch_id;
    uint32_t batch_size;
    int cancel_requested; /* stop at the next partition boundary */
    int failed;           /* a partition failed: stop likewise, end FAILED */
    unsigned in_flight;   /* partitions being synthesized, queued or proven */
    size_t n_done;        /* partitions proven and verified */
    uint8_t *proof;       /* n_partitions * 192 bytes */
    uint32_t cpu_retries;

    /* result */
    char error[CUZK_ERROR_LEN];
    double submit_ms, dispatch_ms, end_ms; /* engine clock */
    double srs_ms, synth_ms, prove_ms, verify_ms;
    cuzk_timeline_event *events;
    size_t n_events, cap_events;
} engine_job;

/* A new job with one reference; NULL when out of memory. */
engine_job *job_new(const char *id, cuzk_proof_kind kind, cuzk_priority prio,
                    const engine_circuit_provider *p, const engine_plan *plan);
void job_ref(engine_job *j);
void job_unref(engine_job *j);
int job_is_final(const engine_job *j);
/* Neither cancelled, failed nor final: its partitions are still wanted. */
int job_live(const engine_job *j);
/* Records a stage interval (dropped silently when out of memory: the
 * timeline is diagnostics, never a reason to fail a proof). */
void job_event(engine_job *j, int partition, cuzk_stage stage, double start_ms, double end_ms);
/* Fills a result from a job (proof copied when COMPLETED).  CUZK_E_INTERNAL
 * when the copy cannot be allocated. */
cuzk_status job_result(const engine_job *j, cuzk_result *out);
/* A random UUIDv4 string. */
void job_uuid4(char out[37]);

#define JOB_TABLE_BUCKETS 1024
#define JOB_STAGE_BUCKETS 8 /* histogram bounds: job_stage_bounds_ms, then +Inf */

extern const double job_stage_bounds_ms[JOB_STAGE_BUCKETS - 1];

/* Counters over every job the table has seen. */
typedef struct {
    uint64_t completed_by_kind[CUZK_KIND_COUNT], failed_by_kind[CUZK_KIND_COUNT];
    uint64_t cancelled;
    uint32_t running_by_kind[CUZK_KIND_COUNT];
    double duration_sum_s[CUZK_KIND_COUNT]; /* completed jobs, submit to end */
    double stage_sum_ms[CUZK_STAGE_COUNT];
    uint64_t stage_count[CUZK_STAGE_COUNT];
    uint64_t stage_bucket[CUZK_STAGE_COUNT][JOB_STAGE_BUCKETS];
} job_stats;

typedef struct {
    engine_job *bucket[JOB_TABLE_BUCKETS];
    size_t count;
    engine_job *fin_head, *fin_tail; /* finished, oldest first */
    size_t n_finished;
    uint64_t next_seq;
    size_t keep_count; /* retention */
    double keep_ms;
    pthread_cond_t *done; /* broadcast when a job reaches a final state */
    mem_budget *mem;      /* gets a final job's request bytes back (may be NULL) */
    job_stats stats;
} job_table;

/* done: the condition awaits wait on (the engine lock's). */
void job_table_init(job_table *t, size_t keep_count, double keep_ms, pthread_cond_t *done);
/* Drops the table's references to every job. */
void job_table_clear(job_table *t);
engine_job *job_table_find(const job_table *t, const char *id);
/* Takes over the caller's reference; assigns submit_seq. */
void job_table_insert(job_table *t, engine_job *j);
/* Forgets j's id (a retry of an abandoned job takes it over).  j lives on
 * for whoever holds it: a final job stays on the retention list until
 * pruned, a running one loses the table's reference now (its batch holds
 * its own). */
void job_table_detach(job_table *t, engine_job *j);
/* Forgets finished jobs beyond keep_count, or finished before now - keep_ms. */
void job_table_prune(job_table *t, double now_ms);

/* A queued job starts running: its dispatch sequence and time, and the
 * running count of its kind. */
void job_start(job_table *t, engine_job *j, uint64_t dispatch_seq, double now_ms);
/* Records a stage interval in the job's timeline and the stage histogram. */
void job_stage(job_table *t, engine_job *j, int partition, cuzk_stage stage, double start_ms,
               double end_ms);
/* A job reaches a final state (a final job stays as it is): its message, end
 * time and counters; it joins the retention list and awaits are woken.  Its
 * plan's state (the decoded request) is released and its request bytes go
 * back to the budget: a kept result holds only its proof.  The message may
 * be j->error itself. */
void job_finish(job_table *t, engine_job *j, cuzk_job_state st, double now_ms, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
