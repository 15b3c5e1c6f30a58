/* Jobs and the job table (see job.h). */
#include "engine/job.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "groth16/proof.h"

engine_job *job_new(const char *id, cuzk_proof_kind kind, cuzk_priority prio,
                    const engine_circuit_provider *p, const engine_plan *plan) {
    engine_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->proof = calloc(plan->n_partitions, GROTH16_PROOF_BYTES);
    if (!j->proof) {
        free(j);
        return NULL;
    }
    snprintf(j->id, sizeof j->id, "%s", id);
    j->kind = kind;
    j->priority = prio;
    j->state = CUZK_JOB_QUEUED;
    j->provider = *p;
    j->plan = *plan;
    j->refs = 1;
    return j;
}

void job_ref(engine_job *j) { j->refs++; }

/* The decoded request, once nothing will synthesize from it any more. */
static void release_plan(engine_job *j) {
    if (j->provider.release && j->plan.state)
        j->provider.release(j->provider.ctx, j->plan.state);
    j->plan.state = NULL;
}

void job_unref(engine_job *j) {
    if (!j || --j->refs > 0)
        return;
    release_plan(j);
    free(j->proof);
    free(j->events);
    free(j);
}

int job_is_final(const engine_job *j) {
    return j->state == CUZK_JOB_COMPLETED || j->state == CUZK_JOB_FAILED ||
           j->state == CUZK_JOB_CANCELLED;
}

int job_live(const engine_job *j) { return !j->cancel_requested && !j->failed && !job_is_final(j); }

void job_event(engine_job *j, int partition, cuzk_stage stage, double start_ms, double end_ms) {
    if (j->n_events == j->cap_events) {
        size_t cap = j->cap_events ? 2 * j->cap_events : 16;
        cuzk_timeline_event *ev = realloc(j->events, cap * sizeof *ev);
        if (!ev)
            return;
        j->events = ev;
        j->cap_events = cap;
    }
    cuzk_timeline_event *ev = &j->events[j->n_events++];
    ev->partition = partition;
    ev->stage = stage;
    ev->start_ms = start_ms;
    ev->end_ms = end_ms;
}

static uint64_t ms_u64(double ms) { return ms > 0 ? (uint64_t)(ms + 0.5) : 0; }

cuzk_status job_result(const engine_job *j, cuzk_result *out) {
    memset(out, 0, sizeof *out);
    snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
    out->state = j->state;
    snprintf(out->error, sizeof out->error, "%s", j->error);
    if (j->state == CUZK_JOB_COMPLETED) {
        out->proof_len = j->plan.n_partitions * GROTH16_PROOF_BYTES;
        out->proof = malloc(out->proof_len);
        if (!out->proof) {
            out->proof_len = 0;
            return CUZK_E_INTERNAL;
        }
        memcpy(out->proof, j->proof, out->proof_len);
    }
    cuzk_job_timings *t = &out->timings;
    if (j->dispatch_ms > 0)
        t->queue_wait_ms = ms_u64(j->dispatch_ms - j->submit_ms);
    t->srs_load_ms = ms_u64(j->srs_ms);
    t->synthesis_ms = ms_u64(j->synth_ms);
    t->prove_ms = ms_u64(j->prove_ms);
    t->verify_ms = ms_u64(j->verify_ms);
    if (job_is_final(j))
        t->total_ms = ms_u64(j->end_ms - j->submit_ms);
    return CUZK_OK;
}

void job_uuid4(char out[37]) {
    uint8_t b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = getrandom(b + got, sizeof b - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) { /* no kernel randomness: ids need only be unique here */
            static uint64_t fallback = 0x9e3779b97f4a7c15ULL;
            for (size_t i = got; i < sizeof b; i++)
                b[i] = (uint8_t)((fallback = fallback * 6364136223846793005ULL + 1) >> 56);
            break;
        }
        got += (size_t)n;
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[k++] = '-';
        out[k++] = hex[b[i] >> 4];
        out[k++] = hex[b[i] & 15];
    }
    out[k] = 0;
}

/* ---- the table ------------------------------------------------------------------ */

static size_t bucket_of(const char *id) {
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *id; id++)
        h = (h ^ (uint8_t)*id) * 1099511628211ULL;
    return (size_t)(h % JOB_TABLE_BUCKETS);
}

void job_table_init(job_table *t, size_t keep_count, double keep_ms, pthread_cond_t *done) {
    memset(t, 0, sizeof *t);
    t->keep_count = keep_count;
    t->keep_ms = keep_ms;
    t->done = done;
}

void job_table_clear(job_table *t) {
    /* final jobs detached from the table (an abandoned id started again) are
     * held by the retention list alone */
    for (engine_job *j = t->fin_head, *next; j; j = next) {
        next = j->f_next;
        if (!j->in_table)
            job_unref(j);
    }
    for (size_t b = 0; b < JOB_TABLE_BUCKETS; b++) {
        engine_job *j = t->bucket[b];
        while (j) {
            engine_job *next = j->h_next;
            j->in_table = 0;
            job_unref(j);
            j = next;
        }
    }
    job_table_init(t, t->keep_count, t->keep_ms, t->done);
}

engine_job *job_table_find(const job_table *t, const char *id) {
    for (engine_job *j = t->bucket[bucket_of(id)]; j; j = j->h_next)
        if (strcmp(j->id, id) == 0)
            return j;
    return NULL;
}

void job_table_insert(job_table *t, engine_job *j) {
    size_t b = bucket_of(j->id);
    j->h_next = t->bucket[b];
    t->bucket[b] = j;
    j->in_table = 1;
    j->submit_seq = ++t->next_seq;
    t->count++;
}

static void table_unlink(job_table *t, engine_job *j) {
    engine_job **pp = &t->bucket[bucket_of(j->id)];
    while (*pp && *pp != j)
        pp = &(*pp)->h_next;
    if (*pp) {
        *pp = j->h_next;
        t->count--;
    }
    j->in_table = 0;
}

void job_table_detach(job_table *t, engine_job *j) {
    if (!j->in_table)
        return;
    table_unlink(t, j);
    if (!job_is_final(j))
        job_unref(j); /* a final one is released by the retention list */
}

/* Puts a job that just reached a final state on the retention list. */
static void table_finished(job_table *t, engine_job *j) {
    j->f_next = NULL;
    if (t->fin_tail)
        t->fin_tail->f_next = j;
    else
        t->fin_head = j;
    t->fin_tail = j;
    t->n_finished++;
}

void job_table_prune(job_table *t, double now_ms) {
    while (t->fin_head &&
           (t->n_finished > t->keep_count || t->fin_head->end_ms < now_ms - t->keep_ms)) {
        engine_job *j = t->fin_head;
        t->fin_head = j->f_next;
        if (!t->fin_head)
            t->fin_tail = NULL;
        t->n_finished--;
        table_unlink(t, j);
        job_unref(j);
    }
}

/* ---- bookkeeping ---------------------------------------------------------------- */

const double job_stage_bounds_ms[JOB_STAGE_BUCKETS - 1] = {10,    100,    1000,   10000,
                                                           60000, 300000, 1800000};

void job_start(job_table *t, engine_job *j, uint64_t dispatch_seq, double now_ms) {
    j->state = CUZK_JOB_RUNNING;
    j->dispatch_seq = dispatch_seq;
    j->dispatch_ms = now_ms;
    t->stats.running_by_kind[j->kind]++;
}

void job_stage(job_table *t, engine_job *j, int partition, cuzk_stage stage, double start_ms,
               double end_ms) {
    job_event(j, partition, stage, start_ms, end_ms);
    job_stats *s = &t->stats;
    double d = end_ms - start_ms;
    s->stage_sum_ms[stage] += d;
    s->stage_count[stage]++;
    size_t b = 0;
    while (b < JOB_STAGE_BUCKETS - 1 && d > job_stage_bounds_ms[b])
        b++;
    s->stage_bucket[stage][b]++;
}

void job_finish(job_table *t, engine_job *j, cuzk_job_state st, double now_ms, const char *fmt,
                ...) {
    if (job_is_final(j))
        return;
    job_stats *s = &t->stats;
    if (j->dispatch_seq && s->running_by_kind[j->kind])
        s->running_by_kind[j->kind]--;
    j->state = st;
    char msg[CUZK_ERROR_LEN]; /* the message may be j->error itself */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    memcpy(j->error, msg, sizeof msg);
    j->end_ms = now_ms;
    if (st == CUZK_JOB_COMPLETED) {
        s->completed_by_kind[j->kind]++;
        s->duration_sum_s[j->kind] += (j->end_ms - j->submit_ms) / 1000;
    } else if (st == CUZK_JOB_FAILED) {
        s->failed_by_kind[j->kind]++;
    } else {
        s->cancelled++;
    }
    /* a final job has no partition in flight: nothing reads its plan state */
    release_plan(j);
    if (t->mem)
        mem_put_req(t->mem, j->request_bytes);
    j->request_bytes = 0;
    if (j->in_table)
        table_finished(t, j);
    if (t->done)
        pthread_cond_broadcast(t->done);
}
