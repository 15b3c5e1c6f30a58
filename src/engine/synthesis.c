/* The synthesis workers: synth_workers threads, one core each.
 *
 * A worker takes a task (one partition index of an active batch, pipeline
 * order) when fewer than queue_depth groups are being synthesized, queued or
 * proven (the bounded queue), reserves the group's bytes (the batch's floor
 * if free, else from the budget, demoting idle parameter sets or waiting if
 * need be), synthesizes each live job's partition without the lock, and
 * queues the group for the provers.  A member whose job was cancelled or
 * failed meanwhile is dropped at the end of its synthesis. */
#include "engine/pce.h"
#include "engine/synthesis.h"

#include <stdio.h>
#include <stdlib.h>

#include "engine/batch.h"
#include "util/slog.h"

static unsigned slots_used(const cuzk_engine *e) {
    return e->synth_tasks + (unsigned)e->n_queued_groups + e->prove_active;
}

static int task_has_live(const engine_batch *b, size_t part) {
    for (size_t i = 0; i < b->n_jobs; i++)
        if (job_live(b->jobs[i]) && b->jobs[i]->plan.n_partitions > part)
            return 1;
    return 0;
}

/* The next task in pipeline order (active list order, lowest partition). */
static engine_batch *pick_task(cuzk_engine *e, size_t *part) {
    for (engine_batch *b = e->active; b; b = b->next) {
        while (b->next_task < b->n_partitions && !task_has_live(b, b->next_task))
            b->next_task++;
        if (b->next_task < b->n_partitions) {
            *part = b->next_task++;
            b->tasks_open++;
            return b;
        }
    }
    return NULL;
}

/* The bounded queue's depth for the next task: when pipelining, CRITICAL
 * work (WinningPoSt) may use one slot more, so it waits for the partition
 * being proven, not also for lower-priority groups already synthesized
 * (issue 32).  Without pipelining (depth 1) nothing overlaps, and the one
 * group in flight is all it waits for. */
static unsigned depth_for_next(const cuzk_engine *e) {
    for (const engine_batch *b = e->active; b; b = b->next)
        if (b->next_task < b->n_partitions)
            return e->queue_depth + (e->queue_depth > 1 && b->priority == CUZK_PRIORITY_CRITICAL);
    return e->queue_depth;
}

/* Waits for a free slot and a task; NULL when the pipeline has ended. */
static engine_batch *take_task(cuzk_engine *e, size_t *part) {
    engine_batch *b = NULL;
    while (slots_used(e) >= depth_for_next(e) || !(b = pick_task(e, part))) {
        if (e->dispatcher_done && !e->n_active)
            return NULL;
        pthread_cond_wait(&e->cv_synth, &e->mu);
    }
    e->synth_tasks++;
    return b;
}

/* Closes a task that put nothing in flight (g may be NULL). */
static void drop_task(cuzk_engine *e, engine_batch *b, engine_group *g) {
    e->synth_tasks--;
    if (g && g->uses_floor)
        b->floor_in_use = 0;
    group_free(g);
    b->tasks_open--;
    batch_check_done(e, b);
    pthread_cond_broadcast(&e->cv_mem);
}

static void fail_live_jobs(cuzk_engine *e, engine_batch *b, const char *msg) {
    for (size_t i = 0; i < b->n_jobs; i++)
        if (job_live(b->jobs[i])) {
            b->jobs[i]->failed = 1;
            snprintf(b->jobs[i]->error, CUZK_ERROR_LEN, "%s", msg);
            batch_settle(e, b->jobs[i]);
        }
}

uint64_t synth_member_bytes(cuzk_engine *e, size_t n_jobs, const engine_job *j) {
    uint64_t d = 0;
    if (n_jobs == 1 && j->plan.blank && j->provider.synthesize_pce &&
        groth16_backend_defers_abc(e->devices[0].backend))
        d = engine_pce_deferred_bytes_locked(e, j->plan.circuit_id);
    d = d ? d + j->prove_scratch : 0;
    return d && d < j->plan.partition_bytes ? d : j->plan.partition_bytes;
}

/* Reserves the group's bytes, the floor if free, else the budget (waiting
 * for memory, behind a prover's classic retry, and behind the group that is
 * obtaining the circuit's pce, whose size decides this one's; liveness is
 * re-checked on every wake), and takes in every live job that has this
 * partition.  Returns the number of members. */
static size_t reserve_group(cuzk_engine *e, engine_group *g) {
    engine_batch *b = g->batch;
    size_t part = g->partition;
    for (;;) {
        uint64_t bytes = 0, classic = 0;
        const engine_job *first = NULL;
        for (size_t i = 0; i < b->n_jobs; i++)
            if (job_live(b->jobs[i]) && b->jobs[i]->plan.n_partitions > part) {
                bytes += synth_member_bytes(e, b->n_jobs, b->jobs[i]);
                classic += b->jobs[i]->plan.partition_bytes;
                first = first ? first : b->jobs[i];
            }
        if (!first) {
            engine_pce_probe_end_locked(e, &g->pce_probe);
            return 0;
        }
        if (engine_pce_probe_locked(e, first, &g->pce_probe)) {
            e->dbg.pce_probe_waits++;
            pthread_cond_wait(&e->cv_mem, &e->mu);
            continue;
        }
        if (!b->floor_in_use && bytes <= b->floor_bytes) {
            b->floor_in_use = 1;
            g->uses_floor = 1;
            break;
        }
        /* below the classic bound, the members go through the pce: kept */
        const char *keep = bytes < classic ? first->plan.circuit_id : NULL;
        if (!e->mem.retry_waiting && engine_pce_make_room(e, bytes, keep)) {
            mem_take_parts(&e->mem, bytes);
            break;
        }
        e->mem.waits++;
        pthread_cond_wait(&e->cv_mem, &e->mu);
    }
    for (size_t i = 0; i < b->n_jobs; i++) {
        engine_job *j = b->jobs[i];
        if (job_live(j) && j->plan.n_partitions > part) {
            g->jobs[g->n] = j;
            g->reserved[g->n] = g->uses_floor ? 0 : synth_member_bytes(e, b->n_jobs, j);
            g->n++;
            j->in_flight++;
        }
    }
    return g->n;
}

/* One member's synthesis, run without the lock. */
typedef struct {
    double start_ms, end_ms;
    cuzk_status st;
    char err[CUZK_ERROR_LEN];
} member_result;

/* Member k holds the classic bound before classic synthesis; 0, or -1 when
 * its job ended meanwhile (r filled). */
static int classic_bound(cuzk_engine *e, engine_group *g, size_t k, member_result *r) {
    pthread_mutex_lock(&e->mu);
    int gone = group_reserve_classic(e, g, k, 0);
    pthread_mutex_unlock(&e->mu);
    if (gone) {
        r->st = CUZK_E_INTERNAL; /* the job has ended: dropped, never reported */
        snprintf(r->err, sizeof r->err, "ended while waiting for memory");
    }
    return gone ? -1 : 0;
}

static void synthesize_members(cuzk_engine *e, engine_group *g, member_result *res) {
    for (size_t k = 0; k < g->n; k++) {
        engine_job *j = g->jobs[k];
        member_result *r = &res[k];
        snprintf(r->err, sizeof r->err, "internal: out of memory");
        r->start_ms = engine_now(e);
        unsigned threads = 1;
        const r1cs_pce *pce =
            j->provider.synthesize_pce ? engine_pce_get(e, &j->plan, &threads) : NULL;
        /* every device is of one kind: the first says whether a/b/c stay
         * deferred; reserved below the classic bound, the engine falls back */
        const engine_pce_use use = {pce, threads, groth16_backend_defers_abc(e->devices[0].backend),
                                    !g->uses_floor && g->reserved[k] < j->plan.partition_bytes};
        if (!(pce && use.defer_abc) && classic_bound(e, g, k, r)) {
            engine_pce_put(e, pce);
            r->end_ms = engine_now(e);
            continue;
        }
        int classic = !pce;
        if (pce) {
            r->st = j->provider.synthesize_pce(j->provider.ctx, j->plan.state, g->partition, &use,
                                               &g->parts[k], r->err);
            /* a deferred partition borrows the pce until it is proven
             * (group_drop_member gives it back) */
            if (r->st != CUZK_OK || g->parts[k].abc_pce != pce)
                engine_pce_put(e, pce);
            if (r->st != CUZK_OK && r->st != CUZK_E_EXHAUSTED && use.no_fallback) {
                slog(SLOG_WARN, "pce", "partition %zu of %s: %s; classic synthesis", g->partition,
                     j->id, r->err);
                r1cs_partition_free(&g->parts[k]);
                classic = classic_bound(e, g, k, r) == 0;
            }
        }
        if (classic)
            r->st = j->provider.synthesize(j->provider.ctx, j->plan.state, g->partition,
                                           &g->parts[k], r->err);
        if (r->st != CUZK_OK)
            r1cs_partition_free(&g->parts[k]);
        r->end_ms = engine_now(e);
    }
}

/* Back under the lock: records each member's stage and bytes, fails a job
 * whose synthesis failed or overran its announced size, and drops members
 * that are no longer live.  res is NULL when it could not be allocated. */
static void record_members(cuzk_engine *e, engine_group *g, const member_result *res) {
    size_t part = g->partition;
    for (size_t k = 0; k < g->n; k++) {
        engine_job *j = g->jobs[k];
        if (res) {
            engine_stage(e, j, (int)part, CUZK_STAGE_SYNTHESIS, res[k].start_ms, res[k].end_ms);
            j->synth_ms += res[k].end_ms - res[k].start_ms;
        }
        cuzk_status s = res ? res[k].st : CUZK_E_INTERNAL;
        size_t bytes = s == CUZK_OK ? r1cs_partition_bytes(&g->parts[k]) : 0;
        if (s == CUZK_OK)
            mem_actual_add(&e->mem, bytes);
        /* a deferred partition keeps far less than making it took */
        if (s == CUZK_OK && g->parts[k].abc_pce && !g->uses_floor &&
            g->reserved[k] > bytes + j->prove_scratch) {
            mem_put_parts(&e->mem, g->reserved[k] - bytes - j->prove_scratch);
            g->reserved[k] = bytes + j->prove_scratch;
            e->mem.shrinks++;
        }
        if (s != CUZK_OK && job_live(j)) {
            j->failed = 1;
            snprintf(j->error, CUZK_ERROR_LEN, "partition %zu: synthesis: %s", part,
                     res ? res[k].err : "internal: out of memory");
        } else if (s == CUZK_OK && bytes > j->plan.partition_bytes - j->prove_scratch &&
                   job_live(j)) {
            j->failed = 1;
            snprintf(j->error, CUZK_ERROR_LEN,
                     "internal: provider %s: partition %zu has %zu bytes, more than the %llu "
                     "it announced",
                     j->provider.name, part, bytes,
                     (unsigned long long)(j->plan.partition_bytes - j->prove_scratch));
        }
        if (!job_live(j))
            group_drop_member(e, g, k);
    }
}

/* One task, from reservation to the prove queue. */
static void synth_task(cuzk_engine *e, engine_batch *b, size_t part) {
    engine_group *g = group_new(b, part);
    if (!g) {
        fail_live_jobs(e, b, "internal: out of memory");
        drop_task(e, b, NULL);
        return;
    }
    if (!reserve_group(e, g)) {
        drop_task(e, b, g);
        return;
    }
    e->synth_active++;
    if (e->synth_active > e->dbg.synth_active_peak)
        e->dbg.synth_active_peak = e->synth_active;
    pthread_mutex_unlock(&e->mu);

    member_result *res = calloc(g->n, sizeof *res);
    if (res)
        synthesize_members(e, g, res);

    pthread_mutex_lock(&e->mu);
    engine_pce_probe_end_locked(e, &g->pce_probe);
    e->synth_active--;
    e->synth_tasks--;
    g->synth_end_ms = engine_now(e);
    record_members(e, g, res);
    pthread_cond_broadcast(&e->cv_mem); /* shrunk reservations; a retry counts synth_active */
    free(res);
    if (group_empty(g))
        group_done(e, g);
    else
        group_queue(e, g);
    pthread_cond_broadcast(&e->cv_synth);
}

void *synth_main(void *arg) {
    cuzk_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    engine_batch *b;
    size_t part = 0;
    while ((b = take_task(e, &part)))
        synth_task(e, b, part);
    pthread_mutex_unlock(&e->mu);
    return NULL;
}
