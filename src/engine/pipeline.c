/* The proving pipeline: dispatcher -> synthesis workers -> bounded queue ->
 * prover workers.
 *
 * Unit of work: one partition index of one batch (a "task"; a synthesized
 * task is a "group").  Partition i of every live job in the batch is
 * synthesized by one synthesis worker and proven by one backend call, so a
 * batch of B sectors makes B-proof backend calls.
 *
 * Dispatcher (one thread): asks the scheduler for the next batch while fewer
 * than max_active batches are active (1 + synthesis_lookahead when
 * pipelining, else 1), or when the queue's head outranks every active batch
 * (a WinningPoSt behind bulk PoRep work), then admits it: acquires its parameter set HOT with a
 * reference and reserves its floor (one group's bytes) in the same step.
 * Batches become active in dispatch order; that admission order is the
 * only order the pipeline promises between batches: tasks are handed out
 * highest priority first, then oldest batch, then lowest partition index, so
 * job N+1's partitions synthesize while job N's are proven, and a CRITICAL
 * batch admitted later overtakes the LOW one's remaining partitions.
 *
 * Synthesis workers (synth_workers threads, one core each): take a task when
 * fewer than queue_depth groups are being synthesized, queued or proven (the
 * bounded queue; 1 when not pipelining, so nothing overlaps), reserve the
 * group's bytes (the batch's floor if free, else from the budget, waiting
 * if need be), synthesize each live job's partition, and queue the group.
 *
 * Deadlock freedom: every active batch owns its floor, so it can always put
 * one group in flight; a worker waiting for memory waits on a batch whose
 * floor is held by a group that a prover will finish.  Reservations never
 * exceed the budget.
 *
 * Prover workers (one for the CPU backend, which uses prover_threads cores;
 * later one per GPU worker): take the best queued group, prove it, self-
 * verify every proof against the set's prepared vk, re-prove a failure once
 * on the CPU backend (counted and logged), and store each proof in its job's
 * slot for that partition: proofs are reassembled in partition order.
 *
 * Cancellation and failure: a job marked cancelled (or failed) is skipped by
 * new tasks, its queued partitions are dropped at once (memory released),
 * and one being synthesized or proven is discarded when that step ends: the
 * next partition boundary.  It reaches its final state when none of its
 * partitions is in flight any more. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine_internal.h"
#include "groth16/proof.h"
#include "groth16/prove_checked.h"
#include "util/parallel.h"

static int job_live(const engine_job *j) {
    return !j->cancel_requested && !j->failed && !job_is_final(j);
}

static void maybe_final(cuzk_engine *e, engine_job *j) {
    if (j->in_flight || job_is_final(j))
        return;
    if (j->cancel_requested)
        engine_job_finish(e, j, CUZK_JOB_CANCELLED, "cancelled while running");
    else if (j->failed)
        engine_job_finish(e, j, CUZK_JOB_FAILED, "%s", j->error);
    else if (j->n_done == j->plan.n_partitions)
        engine_job_finish(e, j, CUZK_JOB_COMPLETED, "%s", "");
}

static void batch_check_done(cuzk_engine *e, engine_batch *b) {
    if (!b->admitted) /* admit() is still loading its parameters */
        return;
    int any_live = 0;
    for (size_t i = 0; i < b->n_jobs; i++)
        any_live |= job_live(b->jobs[i]) && b->jobs[i]->plan.n_partitions > b->next_task;
    if (!any_live)
        b->next_task = b->n_partitions; /* nothing more to hand out */
    if (b->next_task < b->n_partitions || b->tasks_open)
        return;
    engine_batch **pp = &e->active;
    while (*pp && *pp != b)
        pp = &(*pp)->next;
    if (*pp) {
        *pp = b->next;
        e->n_active--;
    }
    if (b->srs)
        srs_release(e, b->srs);
    mem_put_parts(&e->mem, b->floor_bytes);
    for (size_t i = 0; i < b->n_jobs; i++) {
        engine_job *j = b->jobs[i];
        j->batch = NULL;
        maybe_final(e, j);
        if (!job_is_final(j)) /* cannot happen: every partition was accounted */
            engine_job_finish(e, j, CUZK_JOB_FAILED, "internal: batch ended with %zu of %zu proofs",
                              j->n_done, j->plan.n_partitions);
        job_unref(j);
    }
    free(b->jobs);
    free(b);
    pthread_cond_broadcast(&e->cv_sched);
    pthread_cond_broadcast(&e->cv_mem);
    pthread_cond_broadcast(&e->cv_synth);
    pthread_cond_broadcast(&e->cv_prove);
}

/* Drops member k of a group: frees its partition, returns its memory. */
static void drop_member(cuzk_engine *e, engine_group *g, size_t k) {
    engine_job *j = g->jobs[k];
    if (!j)
        return;
    if (g->parts[k].a)
        mem_actual_sub(&e->mem, r1cs_partition_bytes(&g->parts[k]));
    r1cs_partition_free(&g->parts[k]);
    if (!g->uses_floor)
        mem_put_parts(&e->mem, g->reserved[k]);
    g->reserved[k] = 0;
    g->jobs[k] = NULL;
    j->in_flight--;
    maybe_final(e, j);
    pthread_cond_broadcast(&e->cv_mem);
}

static void group_done(cuzk_engine *e, engine_group *g) {
    for (size_t k = 0; k < g->n; k++)
        drop_member(e, g, k);
    engine_batch *b = g->batch;
    if (g->uses_floor)
        b->floor_in_use = 0;
    b->tasks_open--;
    free(g->jobs);
    free(g->parts);
    free(g->reserved);
    free(g);
    pthread_cond_broadcast(&e->cv_mem);
    pthread_cond_broadcast(&e->cv_synth);
    batch_check_done(e, b);
}

static int group_empty(const engine_group *g) {
    for (size_t k = 0; k < g->n; k++)
        if (g->jobs[k])
            return 0;
    return 1;
}

/* Highest priority first, then older batch, then lower partition. */
static int group_before(const engine_group *x, const engine_group *y) {
    if (x->batch->priority != y->batch->priority)
        return x->batch->priority > y->batch->priority;
    if (x->batch->id != y->batch->id)
        return x->batch->id < y->batch->id;
    return x->partition < y->partition;
}

static void queue_group(cuzk_engine *e, engine_group *g) {
    engine_group **pp = &e->prove_queue;
    while (*pp && !group_before(g, *pp))
        pp = &(*pp)->next;
    g->next = *pp;
    *pp = g;
    e->n_queued_groups++;
    pthread_cond_signal(&e->cv_prove);
}

void pipeline_cancel_job(cuzk_engine *e, engine_job *j) {
    for (engine_group **pp = &e->prove_queue; *pp;) {
        engine_group *g = *pp;
        for (size_t k = 0; k < g->n; k++)
            if (g->jobs[k] == j)
                drop_member(e, g, k);
        if (group_empty(g)) {
            *pp = g->next;
            e->n_queued_groups--;
            group_done(e, g);
        } else {
            pp = &g->next;
        }
    }
    maybe_final(e, j);
    if (j->batch)
        batch_check_done(e, j->batch);
    pthread_cond_broadcast(&e->cv_mem); /* a worker waiting for memory re-checks */
    pthread_cond_broadcast(&e->cv_synth);
}

int pipeline_can_release(const cuzk_engine *e) { return e->n_active > 0; }

/* ---- dispatcher ------------------------------------------------------------------ */

static void insert_active(cuzk_engine *e, engine_batch *b) {
    engine_batch **pp = &e->active;
    while (*pp &&
           ((*pp)->priority > b->priority || ((*pp)->priority == b->priority && (*pp)->id < b->id)))
        pp = &(*pp)->next;
    b->next = *pp;
    *pp = b;
    e->n_active++;
}

static void admit(cuzk_engine *e, engine_job **jobs, size_t n) {
    char err[CUZK_ERROR_LEN] = "";
    engine_batch *b = calloc(1, sizeof *b);
    engine_job **bj = calloc(n, sizeof *bj);
    double now = engine_now(e);
    for (size_t i = 0; i < n; i++) {
        engine_job *j = jobs[i];
        job_ref(j); /* the batch's reference */
        j->state = CUZK_JOB_RUNNING;
        j->dispatch_seq = ++e->next_dispatch_seq;
        j->dispatch_ms = now;
        j->batch_size = (uint32_t)n;
        e->running_by_kind[j->kind]++;
        engine_stage(e, j, -1, CUZK_STAGE_QUEUE, j->submit_ms, now);
    }
    if (!b || !bj) {
        for (size_t i = 0; i < n; i++) {
            engine_job_finish(e, jobs[i], CUZK_JOB_FAILED, "internal: out of memory");
            job_unref(jobs[i]);
        }
        free(b);
        free(bj);
        return;
    }
    b->id = ++e->next_batch_id;
    b->priority = jobs[0]->priority;
    b->jobs = bj;
    b->n_jobs = n;
    for (size_t i = 0; i < n; i++) {
        bj[i] = jobs[i];
        bj[i]->batch = b;
        bj[i]->batch_id = b->id;
        b->floor_bytes += jobs[i]->plan.partition_bytes;
        if (jobs[i]->plan.n_partitions > b->n_partitions)
            b->n_partitions = jobs[i]->plan.n_partitions;
    }
    cuzk_status st = CUZK_OK;
    srs_set *s = srs_lookup(&e->srs, jobs[0]->plan.circuit_id, &st, err);
    double load_ms = 0, t0 = engine_now(e);
    if (s)
        st = srs_acquire(e, s, b->floor_bytes, 1, &load_ms, err);
    double t1 = engine_now(e);
    if (!s || st != CUZK_OK) {
        b->floor_bytes = 0;
        b->next_task = b->n_partitions;
        for (size_t i = 0; i < n; i++)
            if (!job_is_final(bj[i]))
                engine_job_finish(e, bj[i], CUZK_JOB_FAILED, "%s", err);
        b->admitted = 1;
        insert_active(e, b);
        batch_check_done(e, b);
        return;
    }
    b->srs = s;
    for (size_t i = 0; i < n; i++) {
        bj[i]->srs_ms = load_ms;
        engine_stage(e, bj[i], -1, CUZK_STAGE_SRS_LOAD, t0, t1);
    }
    b->admitted = 1;
    insert_active(e, b);
    batch_check_done(e, b); /* all cancelled during the load: ends here */
    pthread_cond_broadcast(&e->cv_synth);
}

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

static void *dispatcher_main(void *arg) {
    cuzk_engine *e = arg;
    size_t cap = e->sched.max_batch_size;
    engine_job **jobs = malloc(cap * sizeof *jobs);
    const double sweep_ms = (double)e->cfg.eviction_min_idle_s * 1000;
    pthread_mutex_lock(&e->mu);
    while (jobs) {
        e->dbg.dispatcher_passes++;
        double now = engine_now(e);
        double next_tick = now + (sweep_ms > 0 && sweep_ms < 1000 ? sweep_ms : 1000);
        if (sweep_ms > 0)
            srs_sweep_idle(e, sweep_ms, now);
        /* results age out even when nobody submits (a job still held by a
         * batch or an await keeps its own reference) */
        job_table_prune(&e->jobs, e->cfg.result_keep_count, (double)e->cfg.result_keep_s * 1000,
                        now);
        if (e->n_active >= e->max_active && !head_outranks_active(e)) {
            e->sched.collector_waiting = 0;
            wait_until(e, &e->cv_sched, next_tick);
            continue;
        }
        size_t n = 0;
        double wake = 0;
        sched_decision d = sched_next(&e->sched, now, e->stopping, jobs, &n, &wake);
        if (d == SCHED_EMPTY) {
            if (e->stopping)
                break;
            wait_until(e, &e->cv_sched, next_tick);
        } else if (d == SCHED_WAIT) {
            wait_until(e, &e->cv_sched, wake < next_tick ? wake : next_tick);
        } else {
            admit(e, jobs, n);
        }
    }
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

/* ---- synthesis ------------------------------------------------------------------ */

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

static void *synth_main(void *arg) {
    cuzk_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        engine_batch *b = NULL;
        size_t part = 0;
        while (slots_used(e) >= e->queue_depth || !(b = pick_task(e, &part))) {
            if (e->dispatcher_done && !e->n_active)
                goto out;
            pthread_cond_wait(&e->cv_synth, &e->mu);
        }
        e->synth_tasks++;
        engine_group *g = calloc(1, sizeof *g);
        size_t cap = b->n_jobs;
        if (g) {
            g->jobs = calloc(cap, sizeof *g->jobs);
            g->parts = calloc(cap, sizeof *g->parts);
            g->reserved = calloc(cap, sizeof *g->reserved);
        }
        if (!g || !g->jobs || !g->parts || !g->reserved) {
            for (size_t i = 0; i < b->n_jobs; i++)
                if (job_live(b->jobs[i])) {
                    b->jobs[i]->failed = 1;
                    snprintf(b->jobs[i]->error, CUZK_ERROR_LEN, "internal: out of memory");
                    maybe_final(e, b->jobs[i]);
                }
            if (g) {
                free(g->jobs);
                free(g->parts);
                free(g->reserved);
                free(g);
            }
            e->synth_tasks--;
            b->tasks_open--;
            batch_check_done(e, b);
            continue;
        }
        g->batch = b;
        g->partition = part;
        /* reserve: the floor if free, else the budget; re-check liveness on every wake */
        int reserved = 0;
        for (;;) {
            uint64_t bytes = 0;
            size_t live = 0;
            for (size_t i = 0; i < b->n_jobs; i++)
                if (job_live(b->jobs[i]) && b->jobs[i]->plan.n_partitions > part) {
                    bytes += b->jobs[i]->plan.partition_bytes;
                    live++;
                }
            if (!live)
                break;
            if (!b->floor_in_use && bytes <= b->floor_bytes) {
                b->floor_in_use = 1;
                g->uses_floor = 1;
                reserved = 1;
                break;
            }
            if (srs_make_room(e, bytes, NULL)) {
                mem_take_parts(&e->mem, bytes);
                reserved = 1;
                break;
            }
            e->mem.waits++;
            pthread_cond_wait(&e->cv_mem, &e->mu);
        }
        if (reserved) {
            for (size_t i = 0; i < b->n_jobs; i++) {
                engine_job *j = b->jobs[i];
                if (job_live(j) && j->plan.n_partitions > part) {
                    g->jobs[g->n] = j;
                    g->reserved[g->n] = g->uses_floor ? 0 : j->plan.partition_bytes;
                    g->n++;
                    j->in_flight++;
                }
            }
        }
        if (!g->n) {
            e->synth_tasks--;
            if (g->uses_floor)
                b->floor_in_use = 0;
            free(g->jobs);
            free(g->parts);
            free(g->reserved);
            free(g);
            b->tasks_open--;
            batch_check_done(e, b);
            pthread_cond_broadcast(&e->cv_mem);
            continue;
        }
        e->synth_active++;
        if (e->synth_active > e->dbg.synth_active_peak)
            e->dbg.synth_active_peak = e->synth_active;
        pthread_mutex_unlock(&e->mu);

        double *t = calloc(2 * g->n, sizeof *t);
        cuzk_status *st = calloc(g->n, sizeof *st);
        char(*errs)[CUZK_ERROR_LEN] = calloc(g->n, sizeof *errs);
        for (size_t k = 0; k < g->n; k++) {
            engine_job *j = g->jobs[k];
            double t0 = engine_now(e);
            cuzk_status s = CUZK_E_INTERNAL;
            char msg[CUZK_ERROR_LEN] = "internal: out of memory";
            if (t && st && errs)
                s = j->provider.synthesize(j->provider.ctx, j->plan.state, part, &g->parts[k], msg);
            if (s != CUZK_OK)
                r1cs_partition_free(&g->parts[k]);
            if (t) {
                t[2 * k] = t0;
                t[2 * k + 1] = engine_now(e);
            }
            if (st)
                st[k] = s;
            if (errs)
                snprintf(errs[k], CUZK_ERROR_LEN, "%s", msg);
        }

        pthread_mutex_lock(&e->mu);
        e->synth_active--;
        e->synth_tasks--;
        g->synth_end_ms = engine_now(e);
        for (size_t k = 0; k < g->n; k++) {
            engine_job *j = g->jobs[k];
            if (t) {
                engine_stage(e, j, (int)part, CUZK_STAGE_SYNTHESIS, t[2 * k], t[2 * k + 1]);
                j->synth_ms += t[2 * k + 1] - t[2 * k];
            }
            cuzk_status s = st ? st[k] : CUZK_E_INTERNAL;
            size_t bytes = s == CUZK_OK ? r1cs_partition_bytes(&g->parts[k]) : 0;
            if (s == CUZK_OK)
                mem_actual_add(&e->mem, bytes);
            if (s != CUZK_OK && job_live(j)) {
                j->failed = 1;
                snprintf(j->error, CUZK_ERROR_LEN, "partition %zu: synthesis: %s", part,
                         errs ? errs[k] : "internal: out of memory");
            } else if (s == CUZK_OK && bytes > j->plan.partition_bytes && job_live(j)) {
                j->failed = 1;
                snprintf(j->error, CUZK_ERROR_LEN,
                         "internal: provider %s: partition %zu has %zu bytes, more than the %llu "
                         "it announced",
                         j->provider.name, part, bytes,
                         (unsigned long long)j->plan.partition_bytes);
            }
            if (!job_live(j))
                drop_member(e, g, k);
        }
        free(t);
        free(st);
        free(errs);
        if (group_empty(g))
            group_done(e, g);
        else
            queue_group(e, g);
        pthread_cond_broadcast(&e->cv_synth);
    }
out:
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- proving -------------------------------------------------------------------- */

/* TEST ONLY: with CUZK_TEST_ONLY_RS_SEED set, every proof of partition k
 * takes r, s from groth16_rs_from_seed(seed, k), as `cuzk prove porep
 * --rs-seed` does, so a test can hold the daemon's proofs to the CLI's byte
 * for byte.  Such proofs have no zero knowledge: the engine says so loudly. */
static const char *test_rs_seed(void) {
    const char *seed = getenv("CUZK_TEST_ONLY_RS_SEED");
    fr r, s;
    char why[256];
    if (!seed || !*seed)
        return NULL;
    if (groth16_rs_from_seed(&r, &s, seed, 0, why, sizeof why)) {
        engine_log("CUZK_TEST_ONLY_RS_SEED ignored: %s", why);
        return NULL;
    }
    engine_log("WARNING: CUZK_TEST_ONLY_RS_SEED fixes every proof's r and s: these proofs are "
               "for testing only (whoever knows the seed can strip their zero knowledge)");
    return seed;
}

/* r, s of the m proofs of partition k (rs: 2 m entries), or -1 (no memory). */
static int fixed_rs(fr **rs, const char *seed, size_t k, size_t m) {
    *rs = seed ? malloc(2 * m * sizeof **rs) : NULL;
    if (!seed)
        return 0;
    if (!*rs)
        return -1;
    for (size_t i = 0; i < m; i++)
        groth16_rs_from_seed(&(*rs)[i], &(*rs)[m + i], seed, k, NULL, 0);
    return 0;
}

static void *prover_main(void *arg) {
    cuzk_engine *e = arg;
    const char *seed = test_rs_seed();
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->prove_queue) {
            if (e->dispatcher_done && !e->n_active)
                goto out;
            pthread_cond_wait(&e->cv_prove, &e->mu);
        }
        engine_group *g = e->prove_queue;
        e->prove_queue = g->next;
        e->n_queued_groups--;
        /* compact the live members to the front: the backend takes an array */
        size_t m = 0;
        for (size_t k = 0; k < g->n; k++) {
            if (g->jobs[k] && !job_live(g->jobs[k]))
                drop_member(e, g, k);
            if (g->jobs[k]) {
                if (m != k) {
                    g->jobs[m] = g->jobs[k];
                    g->parts[m] = g->parts[k];
                    g->reserved[m] = g->reserved[k];
                    g->jobs[k] = NULL;
                    memset(&g->parts[k], 0, sizeof g->parts[k]);
                    g->reserved[k] = 0;
                }
                m++;
            }
        }
        g->n = m;
        if (!m) {
            group_done(e, g);
            continue;
        }
        e->prove_active++;
        if (e->prove_active > e->dbg.prove_active_peak)
            e->dbg.prove_active_peak = e->prove_active;
        if (e->prover_threads > e->dbg.prove_threads_max)
            e->dbg.prove_threads_max = e->prover_threads;
        const groth16_backend *be = e->backend;
        snprintf(e->proving_job, sizeof e->proving_job, "%s", g->jobs[0]->id);
        e->proving_kind = g->jobs[0]->kind;
        const srs_set *s = g->batch->srs;
        int verify = e->cfg.self_verify;
        pthread_mutex_unlock(&e->mu);

        double tw = engine_now(e);
        groth16_proof *proofs = calloc(m, sizeof *proofs);
        groth16_proof_check *chk = calloc(m, sizeof *chk);
        double tp0 = engine_now(e), tp1 = tp0, prove_ms = 0;
        fr *rs = NULL;
        int verify_failures = 0, oom = !proofs || !chk || fixed_rs(&rs, seed, g->partition, m) != 0;
        if (!oom) {
            /* prove, self-verify, re-prove a failure once on the CPU backend */
            const groth16_prove_opts o = {be, e->prover_threads, rs, rs ? rs + m : NULL, verify};
            groth16_prove_checked(proofs, chk, g->parts, m, &s->data, &s->pvk, &o, NULL, &prove_ms);
            tp1 = tp0 + prove_ms;
            for (size_t k = 0; k < m; k++) {
                verify_failures += chk[k].verify_failed;
                if (chk[k].retried)
                    engine_log("partition %zu of %s: %s", g->partition, g->jobs[k]->id, chk[k].msg);
            }
        }

        pthread_mutex_lock(&e->mu);
        e->prove_active--;
        e->proving_job[0] = 0;
        e->self_verify_failures += (uint64_t)verify_failures;
        double tv = tp1;
        for (size_t k = 0; k < m; k++) {
            engine_job *j = g->jobs[k];
            engine_stage(e, j, (int)g->partition, CUZK_STAGE_PROVE_WAIT, g->synth_end_ms, tw);
            engine_stage(e, j, (int)g->partition, CUZK_STAGE_PROVE, tp0, tp1);
            j->prove_ms += tp1 - tp0;
            if (!oom && verify) {
                /* each partition's check, laid end to end after the backend call */
                engine_stage(e, j, (int)g->partition, CUZK_STAGE_VERIFY, tv, tv + chk[k].verify_ms);
                j->verify_ms += chk[k].verify_ms;
            }
            if (!oom)
                tv += chk[k].verify_ms;
            if (!oom && chk[k].retried) {
                j->cpu_retries++;
                e->cpu_retries++;
            }
            if (!oom && chk[k].ok && job_live(j)) {
                groth16_proof_write(j->proof + g->partition * GROTH16_PROOF_BYTES, &proofs[k]);
                j->n_done++;
            } else if (job_live(j)) {
                j->failed = 1;
                snprintf(j->error, CUZK_ERROR_LEN, "partition %zu: %s", g->partition,
                         oom ? "internal: out of memory" : chk[k].msg);
            }
        }
        free(proofs);
        free(chk);
        free(rs);
        group_done(e, g);
        pthread_cond_broadcast(&e->cv_synth);
    }
out:
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- start and stop -------------------------------------------------------------- */

int pipeline_start(cuzk_engine *e, char err[CUZK_ERROR_LEN]) {
    const cuzk_engine_config *c = &e->cfg;
    unsigned cores = par_cpu_count();
    unsigned synth = c->synthesis_threads, prove = c->gpu_threads;
    /* one fixed split of the cores, however many jobs overlap */
    if (!synth && !prove) {
        synth = cores / 2 ? cores / 2 : 1;
        prove = cores > synth ? cores - synth : 1;
    } else if (!synth) {
        synth = cores > prove ? cores - prove : 1;
    } else if (!prove) {
        prove = cores > synth ? cores - synth : 1;
    }
    unsigned maxpar = c->max_parallel_synthesis ? c->max_parallel_synthesis : 18;
    e->synth_workers = synth < maxpar ? synth : maxpar;
    e->prover_threads = prove;
    e->prover_workers = 1; /* the CPU backend: one call at a time, prover_threads wide */
    e->max_active = c->pipeline_enabled ? 1 + c->synthesis_lookahead : 1;
    if (!c->pipeline_enabled)
        e->queue_depth = 1;
    else if (c->max_gpu_queue_depth)
        e->queue_depth = c->max_gpu_queue_depth + e->synth_workers + e->prover_workers;
    else
        e->queue_depth = e->synth_workers + 2 * e->prover_workers;

    e->synth_tids = calloc(e->synth_workers, sizeof *e->synth_tids);
    e->prover_tids = calloc(e->prover_workers, sizeof *e->prover_tids);
    if (!e->synth_tids || !e->prover_tids) {
        snprintf(err, CUZK_ERROR_LEN, "engine: out of memory");
        return -1;
    }
    int rc = pthread_create(&e->dispatcher, NULL, dispatcher_main, e);
    e->started_dispatcher = rc == 0;
    for (unsigned i = 0; rc == 0 && i < e->synth_workers; i++)
        if ((rc = pthread_create(&e->synth_tids[i], NULL, synth_main, e)) == 0)
            e->started_synth++;
    for (unsigned i = 0; rc == 0 && i < e->prover_workers; i++)
        if ((rc = pthread_create(&e->prover_tids[i], NULL, prover_main, e)) == 0)
            e->started_prover++;
    if (rc != 0) {
        snprintf(err, CUZK_ERROR_LEN, "engine: cannot start threads: %s", strerror(rc));
        return -1;
    }
    return 0;
}

void pipeline_join(cuzk_engine *e) {
    if (e->started_dispatcher)
        pthread_join(e->dispatcher, NULL);
    else { /* no dispatcher: the workers must still see the end */
        pthread_mutex_lock(&e->mu);
        e->dispatcher_done = 1;
        pthread_cond_broadcast(&e->cv_synth);
        pthread_cond_broadcast(&e->cv_prove);
        pthread_mutex_unlock(&e->mu);
    }
    for (unsigned i = 0; i < e->started_synth; i++)
        pthread_join(e->synth_tids[i], NULL);
    for (unsigned i = 0; i < e->started_prover; i++)
        pthread_join(e->prover_tids[i], NULL);
    e->started_dispatcher = 0;
    e->started_synth = e->started_prover = 0;
    free(e->synth_tids);
    free(e->prover_tids);
    e->synth_tids = e->prover_tids = NULL;
}
