/* The priority scheduler and the batch collector (see scheduler.h). */
#include "engine/scheduler.h"

#include <string.h>

void sched_init(scheduler *s, unsigned max_batch_size, double max_wait_ms, int sort_by_type) {
    memset(s, 0, sizeof *s);
    s->max_batch_size = max_batch_size ? max_batch_size : 1;
    s->max_wait_ms = max_wait_ms;
    s->sort_by_type = sort_by_type;
}

void sched_push(scheduler *s, engine_job *j) {
    int p = j->priority;
    j->q_next = NULL;
    j->q_prev = s->tail[p];
    if (s->tail[p])
        s->tail[p]->q_next = j;
    else
        s->head[p] = j;
    s->tail[p] = j;
    s->n_queued++;
    s->n_by_kind[j->kind]++;
}

void sched_remove(scheduler *s, engine_job *j) {
    int p = j->priority;
    if (j->q_prev)
        j->q_prev->q_next = j->q_next;
    else
        s->head[p] = j->q_next;
    if (j->q_next)
        j->q_next->q_prev = j->q_prev;
    else
        s->tail[p] = j->q_prev;
    j->q_prev = j->q_next = NULL;
    s->n_queued--;
    s->n_by_kind[j->kind]--;
    if (s->collecting == j)
        s->collecting = NULL;
}

uint32_t sched_position(const scheduler *s, const engine_job *j) {
    uint32_t n = 0;
    for (int p = CUZK_PRIORITY_CRITICAL; p >= CUZK_PRIORITY_LOW; p--)
        for (const engine_job *q = s->head[p]; q; q = q->q_next) {
            if (q == j)
                return n;
            n++;
        }
    return n;
}

static int top_level(const scheduler *s) {
    for (int p = CUZK_PRIORITY_CRITICAL; p >= CUZK_PRIORITY_LOW; p--)
        if (s->head[p])
            return p;
    return 0;
}

/* Gathers the head's companions into jobs[]; *order_blocked when strict FIFO
 * stopped at a job of another circuit. */
static size_t gather(const scheduler *s, engine_job *head, engine_job **jobs, int *order_blocked) {
    size_t n = 0;
    *order_blocked = 0;
    jobs[n++] = head;
    for (engine_job *q = head->q_next; q && n < s->max_batch_size; q = q->q_next) {
        if (strcmp(q->plan.circuit_id, head->plan.circuit_id) == 0) {
            jobs[n++] = q;
        } else if (!s->sort_by_type) {
            *order_blocked = 1;
            break;
        }
    }
    return n;
}

engine_job *sched_first(const scheduler *s) {
    int top = top_level(s);
    return top ? s->head[top] : NULL;
}

sched_decision sched_next(scheduler *s, double now_ms, int draining, engine_job **jobs, size_t *n,
                          double *wake_ms) {
    s->collector_waiting = 0;
    int top = top_level(s);
    if (!top) {
        s->collecting = NULL;
        return SCHED_EMPTY;
    }
    engine_job *head = s->head[top];
    sched_flush why = SCHED_FLUSH_COUNT; /* none: a batch of one by configuration */
    if (s->collecting && s->collecting != head && (int)s->collecting->priority < top) {
        /* higher-priority work arrived while a batch was held back: the held
         * batch goes now, the new work right after it */
        head = s->collecting;
        why = SCHED_FLUSH_PRIORITY;
    }
    int blocked;
    *n = gather(s, head, jobs, &blocked);
    /* CRITICAL work (WinningPoSt: one epoch) never waits for a partner; it
     * takes along only the companions already queued */
    if (s->max_batch_size > 1 && why == SCHED_FLUSH_COUNT &&
        head->priority < CUZK_PRIORITY_CRITICAL) {
        if (*n == s->max_batch_size)
            why = SCHED_FLUSH_FULL;
        else if (blocked)
            why = SCHED_FLUSH_ORDER;
        else if (draining)
            why = SCHED_FLUSH_DRAIN;
        else if (now_ms >= head->submit_ms + s->max_wait_ms)
            why = SCHED_FLUSH_WAIT;
        else {
            s->collecting = head;
            s->collector_waiting = 1;
            *wake_ms = head->submit_ms + s->max_wait_ms;
            return SCHED_WAIT;
        }
    }
    if (why != SCHED_FLUSH_COUNT)
        s->flushes[why]++;
    s->collecting = NULL;
    for (size_t i = 0; i < *n; i++)
        sched_remove(s, jobs[i]);
    return SCHED_READY;
}

const char *sched_flush_name(sched_flush f) {
    static const char *names[] = {"full", "wait", "priority", "order", "drain"};
    return f < SCHED_FLUSH_COUNT ? names[f] : "?";
}
