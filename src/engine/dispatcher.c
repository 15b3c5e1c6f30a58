/* The dispatcher: one thread that turns queued jobs into active batches.
 *
 * Each pass does the periodic duty (old results pruned; parameter sets are
 * never demoted for idleness alone, only under memory pressure), then asks the scheduler for the
 * next batch while fewer than max_active batches are active, or when the queue's head outranks
 * every active batch, and admits it: the jobs start running, and the batch
 * acquires its parameter set HOT with a reference and reserves its floor
 * (one group's bytes) in the same step, leaving one classic bound free for
 * fall-backs where floors are deferred-sized (fallback_headroom).  Otherwise it waits for the queue
 * to change, for a batch to end, for the collector's flush, or for the next tick.  Batches become
 * active in dispatch order (see pipeline.c). */
#include "engine/dispatcher.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/batch.h"
#include "engine/pce.h"
#include "engine/synthesis.h"

/* ---- admission ------------------------------------------------------------------ */

/* The jobs leave the queue: running, counted, their queue wait recorded, and
 * a reference each for the batch. */
static void start_jobs(cuzk_engine *e, engine_job **jobs, size_t n) {
    double now = engine_now(e);
    for (size_t i = 0; i < n; i++) {
        engine_job *j = jobs[i];
        job_ref(j); /* the batch's reference */
        job_start(&e->jobs, j, ++e->next_dispatch_seq, now);
        j->batch_size = (uint32_t)n;
        engine_stage(e, j, -1, CUZK_STAGE_QUEUE, j->submit_ms, now);
    }
}

/* A batch over jobs[0..n) (it takes their references); NULL when out of
 * memory. */
static engine_batch *batch_new(cuzk_engine *e, engine_job **jobs, size_t n) {
    engine_batch *b = calloc(1, sizeof *b);
    engine_job **bj = calloc(n, sizeof *bj);
    if (!b || !bj) {
        free(b);
        free(bj);
        return NULL;
    }
    b->id = ++e->next_batch_id;
    b->priority = jobs[0]->priority;
    b->jobs = bj;
    b->n_jobs = n;
    for (size_t i = 0; i < n; i++) {
        bj[i] = jobs[i];
        bj[i]->batch = b;
        bj[i]->batch_id = b->id;
        b->floor_bytes += synth_member_bytes(e, n, jobs[i]);
        if (jobs[i]->plan.n_partitions > b->n_partitions)
            b->n_partitions = jobs[i]->plan.n_partitions;
    }
    return b;
}

/* The largest classic bound of b's members when its floor is deferred-sized
 * (below their classic bounds), else 0: what one of its partitions needs
 * when it falls back to classic synthesis (its pce unusable, its witness
 * path failed, a PCE proof refused). */
static uint64_t fallback_bound(const engine_batch *b) {
    uint64_t classic = 0, most = 0;
    for (size_t i = 0; i < b->n_jobs; i++) {
        uint64_t c = b->jobs[i]->plan.partition_bytes;
        classic += c;
        most = c > most ? c : most;
    }
    return b->floor_bytes < classic ? most : 0;
}

/* One fall-back's classic bound kept free beside the deferred-sized floors
 * when b is admitted beside running batches, so that a fall-back takes it at
 * once instead of waiting for a batch to end.  A batch that outranks every
 * active one (a WinningPoSt) is admitted without it: its work is short. */
static uint64_t fallback_headroom(const cuzk_engine *e, const engine_batch *b) {
    uint64_t h = fallback_bound(b);
    int outranks = 1;
    for (const engine_batch *a = e->active; a; a = a->next) {
        uint64_t f = fallback_bound(a);
        h = f > h ? f : h;
        outranks &= b->priority > a->priority;
    }
    return e->active && outranks ? 0 : h;
}

/* The batch's parameter set HOT with a reference, and its floor, in one step
 * (the lock is dropped while loading); the load is recorded in every job. */
static cuzk_status acquire_params(cuzk_engine *e, engine_batch *b, char err[CUZK_ERROR_LEN]) {
    cuzk_status st = CUZK_OK;
    srs_set *s = srs_lookup(&e->srs, b->jobs[0]->plan.circuit_id, &st, err);
    double load_ms = 0, t0 = engine_now(e);
    uint64_t keep = fallback_headroom(e, b);
    e->dbg.fallback_headroom_max =
        keep > e->dbg.fallback_headroom_max ? keep : e->dbg.fallback_headroom_max;
    if (s)
        st = srs_acquire(&e->srs, s, b->floor_bytes, keep, 1, &load_ms, err);
    double t1 = engine_now(e);
    if (!s || st != CUZK_OK)
        return st;
    b->srs = s;
    for (size_t i = 0; i < b->n_jobs; i++) {
        b->jobs[i]->srs_ms = load_ms;
        engine_stage(e, b->jobs[i], -1, CUZK_STAGE_SRS_LOAD, t0, t1);
    }
    return CUZK_OK;
}

static void admit(cuzk_engine *e, engine_job **jobs, size_t n) {
    start_jobs(e, jobs, n);
    engine_batch *b = batch_new(e, jobs, n);
    if (!b) {
        for (size_t i = 0; i < n; i++) {
            engine_job_finish(e, jobs[i], CUZK_JOB_FAILED, "internal: out of memory");
            job_unref(jobs[i]);
        }
        return;
    }
    char err[CUZK_ERROR_LEN] = "";
    if (acquire_params(e, b, err) != CUZK_OK) { /* the batch ends at once */
        b->floor_bytes = 0;
        b->next_task = b->n_partitions;
        for (size_t i = 0; i < b->n_jobs; i++)
            if (!job_is_final(b->jobs[i]))
                engine_job_finish(e, b->jobs[i], CUZK_JOB_FAILED, "%s", err);
    }
    b->admitted = 1;
    batch_insert_active(e, b);
    batch_check_done(e, b); /* failed, or all cancelled during the load: ends here */
    pthread_cond_broadcast(&e->cv_synth);
}

/* ---- the loop ------------------------------------------------------------------- */

static void abs_time(struct timespec *ts, const cuzk_engine *e, double engine_ms) {
    double t = engine_ms + e->t0_ms; /* CLOCK_MONOTONIC ms */
    if (t < 0)
        t = 0;
    ts->tv_sec = (time_t)(t / 1000);
    ts->tv_nsec = (long)((t - (double)ts->tv_sec * 1000) * 1e6);
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

static void wait_until(cuzk_engine *e, pthread_cond_t *cv, double engine_ms) {
    struct timespec ts;
    abs_time(&ts, e, engine_ms);
    pthread_cond_timedwait(cv, &e->mu, &ts);
}

/* 1 when the next queued job has a higher priority than every active batch:
 * it is admitted beyond max_active, so a WinningPoSt (CRITICAL) never waits
 * for lower-priority batches to finish -- its partitions then overtake their
 * remaining ones.  At most one such extra batch per priority level. */
static int head_outranks_active(const cuzk_engine *e) {
    const engine_job *head = sched_first(&e->sched);
    if (!head)
        return 0;
    for (const engine_batch *b = e->active; b; b = b->next)
        if (b->priority >= head->priority)
            return 0;
    return 1;
}

/* 1 when the queue's head is to wait: its partitions would go through a pce
 * that an active batch of its circuit is still obtaining.  Its floor is
 * sized once the pce is known (synth_member_bytes), and floors admitted at
 * the classic bound meanwhile could leave the pce no room. */
static int head_awaits_pce(cuzk_engine *e) {
    const engine_job *head = sched_first(&e->sched);
    if (!head || !engine_pce_pending_locked(e, head))
        return 0;
    for (const engine_batch *b = e->active; b; b = b->next)
        if (strcmp(b->jobs[0]->plan.circuit_id, head->plan.circuit_id) == 0)
            return 1;
    return 0;
}

/* Periodic duties; returns when the next is due.  No parameter set is
 * demoted here: only memory pressure or EvictSRS demote (srs.h). */
static double housekeeping(cuzk_engine *e, double now) {
    /* results age out even when nobody submits (a job still held by a
     * batch or an await keeps its own reference) */
    job_table_prune(&e->jobs, now);
    return now + 1000;
}

/* One pass: admit a batch or wait.  0 when the queue is empty for good. */
static int dispatch_once(cuzk_engine *e, engine_job **jobs) {
    e->dbg.dispatcher_passes++;
    double now = engine_now(e);
    double next_tick = housekeeping(e, now);
    if ((e->n_active >= e->max_active && !head_outranks_active(e)) || head_awaits_pce(e)) {
        e->sched.collector_waiting = 0;
        wait_until(e, &e->cv_sched, next_tick);
        return 1;
    }
    size_t n = 0;
    double wake = 0;
    sched_decision d = sched_next(&e->sched, now, e->stopping, jobs, &n, &wake);
    if (d == SCHED_EMPTY) {
        if (e->stopping)
            return 0;
        wait_until(e, &e->cv_sched, next_tick);
    } else if (d == SCHED_WAIT) {
        wait_until(e, &e->cv_sched, wake < next_tick ? wake : next_tick);
    } else {
        admit(e, jobs, n);
    }
    return 1;
}

void *dispatcher_main(void *arg) {
    cuzk_engine *e = arg;
    engine_job **jobs = malloc(e->sched.max_batch_size * sizeof *jobs);
    pthread_mutex_lock(&e->mu);
    while (jobs && dispatch_once(e, jobs))
        ;
    for (engine_job *j; !jobs && (j = sched_first(&e->sched));) {
        /* cannot dispatch anything: fail what is queued rather than hang */
        sched_remove(&e->sched, j);
        engine_job_finish(e, j, CUZK_JOB_FAILED, "internal: dispatcher out of memory");
    }
    e->dispatcher_done = 1;
    pthread_cond_broadcast(&e->cv_synth);
    pthread_cond_broadcast(&e->cv_prove);
    pthread_mutex_unlock(&e->mu);
    free(jobs);
    return NULL;
}
