/* Batches and synthesized groups (see batch.h). */
#include "engine/batch.h"

#include "engine/pce.h"

#include <stdlib.h>

void batch_settle(cuzk_engine *e, engine_job *j) {
    if (j->in_flight || job_is_final(j))
        return;
    if (j->cancel_requested)
        engine_job_finish(e, j, CUZK_JOB_CANCELLED, "cancelled while running");
    else if (j->failed)
        engine_job_finish(e, j, CUZK_JOB_FAILED, "%s", j->error);
    else if (j->n_done == j->plan.n_partitions)
        engine_job_finish(e, j, CUZK_JOB_COMPLETED, "%s", "");
}

void batch_check_done(cuzk_engine *e, engine_batch *b) {
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
        srs_release(&e->srs, b->srs);
    mem_put_parts(&e->mem, b->floor_bytes);
    for (size_t i = 0; i < b->n_jobs; i++) {
        engine_job *j = b->jobs[i];
        j->batch = NULL;
        batch_settle(e, j);
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
void group_drop_member(cuzk_engine *e, engine_group *g, size_t k) {
    engine_job *j = g->jobs[k];
    if (!j)
        return;
    if (g->parts[k].a || g->parts[k].abc_pce)
        mem_actual_sub(&e->mem, r1cs_partition_bytes(&g->parts[k]));
    if (g->parts[k].abc_pce) /* deferred: it borrowed the circuit's pce */
        engine_pce_put_locked(e, g->parts[k].abc_pce);
    r1cs_partition_free(&g->parts[k]);
    if (!g->uses_floor)
        mem_put_parts(&e->mem, g->reserved[k]);
    g->reserved[k] = 0;
    g->jobs[k] = NULL;
    j->in_flight--;
    batch_settle(e, j);
    pthread_cond_broadcast(&e->cv_mem);
}

int group_reserve_classic(cuzk_engine *e, engine_group *g, size_t k, int retry) {
    engine_job *j = g->jobs[k];
    uint64_t need = j->plan.partition_bytes;
    if (g->reserved[k] >= need || (g->uses_floor && g->batch->floor_bytes >= need))
        return 0;
    if (g->uses_floor) { /* a deferred-sized floor: given back like a reservation */
        g->batch->floor_in_use = 0;
        g->uses_floor = 0;
    } else {
        mem_put_parts(&e->mem, g->reserved[k]);
    }
    g->reserved[k] = 0;
    e->mem.regrows++;
    if (retry)
        e->mem.retry_waiting++;
    else
        e->synth_active--; /* waiting, not synthesizing: a retry must not wait for it */
    pthread_cond_broadcast(&e->cv_mem);
    int rc = 0;
    for (;;) {
        if (!job_live(j)) {
            rc = -1;
            break;
        }
        engine_batch *b = g->batch;
        if (g->n == 1 && !b->floor_in_use && need <= b->floor_bytes) {
            b->floor_in_use = 1; /* the batch's floor is free: it covers the bound */
            g->uses_floor = 1;
            break;
        }
        if ((retry || !e->mem.retry_waiting) && engine_pce_make_room(e, need, NULL)) {
            mem_take_parts(&e->mem, need);
            g->reserved[k] = need;
            break;
        }
        /* a retry's prover waits for synthesis and other provers only */
        if (retry && !e->synth_active && e->prove_active <= e->mem.retry_waiting) {
            rc = -1;
            break;
        }
        e->mem.waits++;
        pthread_cond_wait(&e->cv_mem, &e->mu);
    }
    if (retry)
        e->mem.retry_waiting--;
    else
        e->synth_active++;
    pthread_cond_broadcast(&e->cv_mem);
    return rc;
}

void group_done(cuzk_engine *e, engine_group *g) {
    for (size_t k = 0; k < g->n; k++)
        group_drop_member(e, g, k);
    engine_batch *b = g->batch;
    if (g->uses_floor)
        b->floor_in_use = 0;
    b->tasks_open--;
    group_free(g);
    pthread_cond_broadcast(&e->cv_mem);
    pthread_cond_broadcast(&e->cv_synth);
    batch_check_done(e, b);
}

int group_empty(const engine_group *g) {
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

void group_queue(cuzk_engine *e, engine_group *g) {
    engine_group **pp = &e->prove_queue;
    while (*pp && !group_before(g, *pp))
        pp = &(*pp)->next;
    g->next = *pp;
    *pp = g;
    e->n_queued_groups++;
    pthread_cond_broadcast(&e->cv_prove); /* every device decides whether it is its turn */
}

void batch_insert_active(cuzk_engine *e, engine_batch *b) {
    engine_batch **pp = &e->active;
    while (*pp &&
           ((*pp)->priority > b->priority || ((*pp)->priority == b->priority && (*pp)->id < b->id)))
        pp = &(*pp)->next;
    b->next = *pp;
    *pp = b;
    e->n_active++;
}

engine_group *group_new(engine_batch *b, size_t part) {
    engine_group *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->jobs = calloc(b->n_jobs, sizeof *g->jobs);
    g->parts = calloc(b->n_jobs, sizeof *g->parts);
    g->reserved = calloc(b->n_jobs, sizeof *g->reserved);
    if (!g->jobs || !g->parts || !g->reserved) {
        group_free(g);
        return NULL;
    }
    g->batch = b;
    g->partition = part;
    return g;
}

void group_free(engine_group *g) {
    if (!g)
        return;
    free(g->jobs);
    free(g->parts);
    free(g->reserved);
    free(g);
}
