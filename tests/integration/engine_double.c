/* TEST DOUBLE of include/cuzk/engine.h -- linked ONLY into cuzk_daemon_test,
 * never into the real cuzk binary.
 *
 * It lets the gRPC/HTTP server be tested without the real engine: jobs are
 * kept in memory, a single worker thread "runs" them in priority order for
 * CUZK_ENGINE_DOUBLE_JOB_MS milliseconds (default 0) and then fails them
 * with "unsupported: ..." because the double has no prover.  Cancellation,
 * await timeouts, request_id de-duplication, the pending-job limit, SRS
 * bookkeeping (no files are read) and shutdown (finish or cancel) behave as
 * engine.h specifies, so the server's mapping of each can be observed. */
#include "cuzk/engine.h"
#include "engine/providers.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    char id[CUZK_JOB_ID_LEN];
    cuzk_proof_kind kind;
    cuzk_priority prio;
    cuzk_job_state state;
    int cancel_requested;
    uint64_t seq;
    uint64_t submitted_ms, started_ms, finished_ms;
    char error[CUZK_ERROR_LEN];
    char owner[CUZK_OWNER_LEN];
} job;

typedef struct {
    char id[64];
    int loaded;
} srs_entry;

struct cuzk_engine {
    cuzk_engine_config cfg;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t worker;
    job *jobs;
    size_t n_jobs, cap_jobs;
    uint64_t next_seq;
    int shutting_down, stopped, joined;
    uint64_t job_ms, started_ms;
    uint64_t completed, failed, cancelled;
    uint64_t failed_by_kind[CUZK_KIND_COUNT];
    srs_entry srs[32];
    size_t n_srs;
};

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void deadline_after(struct timespec *ts, uint64_t ms) {
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_sec += (time_t)(ms / 1000);
    ts->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000L;
    }
}

void cuzk_engine_config_defaults(cuzk_engine_config *c) {
    memset(c, 0, sizeof *c);
    snprintf(c->param_cache, sizeof c->param_cache, "/data/zk/params");
    c->memory_budget = 0;
    c->memory_safety_margin = 5ull << 30;
    c->eviction_min_idle_s = 300;
    c->gpu_workers_per_device = 2;
    c->use_gpu = 1;
    c->max_batch_size = 1;
    c->max_batch_wait_ms = 10000;
    c->sort_by_type = 1;
    c->pipeline_enabled = 1;
    c->synthesis_lookahead = 1;
    c->synthesis_concurrency = 1;
    c->max_parallel_synthesis = 18;
    c->result_keep_count = 1024;
    c->result_keep_s = 3600;
    c->self_verify = 1;
}

void cuzk_result_clear(cuzk_result *r) {
    free(r->proof);
    memset(r, 0, sizeof *r);
}

const char *cuzk_kind_name(cuzk_proof_kind k) {
    static const char *const n[] = {"unspecified", "porep-c2", "snap-update", "window-post",
                                    "winning-post"};
    return (unsigned)k < CUZK_KIND_COUNT ? n[k] : "unknown";
}
const char *cuzk_kind_label(cuzk_proof_kind k) {
    static const char *const n[] = {"unspecified", "porep_c2", "snap_update", "window_post",
                                    "winning_post"};
    return (unsigned)k < CUZK_KIND_COUNT ? n[k] : "unknown";
}
cuzk_priority cuzk_kind_default_priority(cuzk_proof_kind k) {
    return k == CUZK_KIND_WINNING_POST  ? CUZK_PRIORITY_CRITICAL
           : k == CUZK_KIND_WINDOW_POST ? CUZK_PRIORITY_HIGH
                                        : CUZK_PRIORITY_NORMAL;
}
const char *cuzk_status_name(cuzk_status s) {
    static const char *const n[] = {"ok",      "invalid",   "unsupported", "not found",
                                    "timeout", "exhausted", "shutdown",    "internal"};
    return (unsigned)s <= CUZK_E_INTERNAL ? n[s] : s == CUZK_E_EXISTS ? "already exists" : "?";
}

static job *find_job(cuzk_engine *e, const char *id) {
    for (size_t i = 0; i < e->n_jobs; i++)
        if (strcmp(e->jobs[i].id, id) == 0)
            return &e->jobs[i];
    return NULL;
}

static void finish(cuzk_engine *e, job *j, cuzk_job_state st, const char *msg) {
    j->state = st;
    j->finished_ms = now_ms();
    snprintf(j->error, sizeof j->error, "%s", msg);
    if (st == CUZK_JOB_FAILED) {
        e->failed++;
        e->failed_by_kind[j->kind]++;
    } else if (st == CUZK_JOB_CANCELLED) {
        e->cancelled++;
    }
    pthread_cond_broadcast(&e->cv);
}

/* Highest priority first, then submission order. */
static job *next_queued(cuzk_engine *e) {
    job *best = NULL;
    for (size_t i = 0; i < e->n_jobs; i++) {
        job *j = &e->jobs[i];
        if (j->state == CUZK_JOB_QUEUED &&
            (best == NULL || j->prio > best->prio || (j->prio == best->prio && j->seq < best->seq)))
            best = j;
    }
    return best;
}

static void *worker_main(void *arg) {
    cuzk_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        job *j;
        while ((j = next_queued(e)) == NULL && !e->shutting_down)
            pthread_cond_wait(&e->cv, &e->mu);
        if (j == NULL)
            break;
        if (e->shutting_down && e->cfg.cancel_running_on_shutdown) {
            finish(e, j, CUZK_JOB_CANCELLED, "cancelled: the engine is shutting down");
            continue;
        }
        j->state = CUZK_JOB_RUNNING;
        j->started_ms = now_ms();
        char id[CUZK_JOB_ID_LEN];
        memcpy(id, j->id, sizeof id);
        pthread_cond_broadcast(&e->cv);
        struct timespec until;
        deadline_after(&until, e->job_ms);
        /* jobs[] may move while we wait (realloc on submit): look j up again */
        for (;;) {
            j = find_job(e, id);
            if (j->cancel_requested || (e->shutting_down && e->cfg.cancel_running_on_shutdown) ||
                now_ms() >= j->started_ms + e->job_ms)
                break;
            pthread_cond_timedwait(&e->cv, &e->mu, &until);
        }
        if (j->cancel_requested || (e->shutting_down && e->cfg.cancel_running_on_shutdown)) {
            finish(e, j, CUZK_JOB_CANCELLED,
                   j->cancel_requested ? "cancelled by request" : "cancelled: shutting down");
        } else {
            char msg[CUZK_ERROR_LEN];
            snprintf(msg, sizeof msg, "unsupported: the engine test double has no prover for %s",
                     cuzk_kind_name(j->kind));
            finish(e, j, CUZK_JOB_FAILED, msg);
        }
    }
    /* Shutdown: whatever is still queued is cancelled. */
    for (size_t i = 0; i < e->n_jobs; i++)
        if (e->jobs[i].state == CUZK_JOB_QUEUED)
            finish(e, &e->jobs[i], CUZK_JOB_CANCELLED, "cancelled: the engine is shutting down");
    e->stopped = 1;
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* The double answers every kind itself: the real registration (which would
 * pull the real engine in) has nothing to do here. */
cuzk_status engine_register_filecoin_providers(cuzk_engine *e, char err[CUZK_ERROR_LEN]) {
    (void)e;
    (void)err;
    return CUZK_OK;
}

cuzk_engine *cuzk_engine_new(const cuzk_engine_config *cfg, char err[CUZK_ERROR_LEN]) {
    cuzk_engine *e = calloc(1, sizeof *e);
    if (e == NULL) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return NULL;
    }
    e->cfg = *cfg;
    const char *ms = getenv("CUZK_ENGINE_DOUBLE_JOB_MS");
    e->job_ms = ms ? strtoull(ms, NULL, 10) : 0;
    e->started_ms = now_ms();
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv, NULL);
    if (pthread_create(&e->worker, NULL, worker_main, e) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "cannot start the worker thread");
        free(e);
        return NULL;
    }
    return e;
}

void cuzk_engine_shutdown(cuzk_engine *e) {
    pthread_mutex_lock(&e->mu);
    e->shutting_down = 1;
    pthread_cond_broadcast(&e->cv);
    int join = !e->joined;
    e->joined = 1;
    pthread_mutex_unlock(&e->mu);
    if (join)
        pthread_join(e->worker, NULL);
}

void cuzk_engine_free(cuzk_engine *e) {
    if (e == NULL)
        return;
    cuzk_engine_shutdown(e);
    pthread_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->cv);
    free(e->jobs);
    free(e);
}

static void uuid4(char out[37]) {
    unsigned char b[16];
    FILE *f = fopen("/dev/urandom", "rb");
    if (f == NULL || fread(b, 1, 16, f) != 16)
        for (int i = 0; i < 16; i++)
            b[i] = (unsigned char)rand();
    if (f)
        fclose(f);
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_request *r, cuzk_submit_info *info,
                               char err[CUZK_ERROR_LEN]) {
    memset(info, 0, sizeof *info);
    if (r->kind <= CUZK_KIND_UNSPECIFIED || r->kind >= CUZK_KIND_COUNT) {
        snprintf(err, CUZK_ERROR_LEN, "invalid proof_kind: %d", (int)r->kind);
        return CUZK_E_INVALID;
    }
    if ((unsigned)r->priority > CUZK_PRIORITY_CRITICAL) {
        snprintf(err, CUZK_ERROR_LEN, "invalid priority: %d", (int)r->priority);
        return CUZK_E_INVALID;
    }
    if (r->kind == CUZK_KIND_POREP_C2 ? r->vanilla_proof_len == 0 : r->n_vanilla_proofs == 0) {
        snprintf(err, CUZK_ERROR_LEN, "%s needs %s", cuzk_kind_name(r->kind),
                 r->kind == CUZK_KIND_POREP_C2 ? "vanilla_proof" : "vanilla_proofs");
        return CUZK_E_INVALID;
    }
    if (r->request_id && strlen(r->request_id) >= CUZK_JOB_ID_LEN) {
        snprintf(err, CUZK_ERROR_LEN, "request_id longer than %d bytes", CUZK_JOB_ID_LEN - 1);
        return CUZK_E_INVALID;
    }
    pthread_mutex_lock(&e->mu);
    cuzk_status st = CUZK_OK;
    if (e->shutting_down) {
        snprintf(err, CUZK_ERROR_LEN, "the engine is shutting down");
        st = CUZK_E_SHUTDOWN;
        goto out;
    }
    job *old = r->request_id && r->request_id[0] ? find_job(e, r->request_id) : NULL;
    if (old) {
        snprintf(info->job_id, sizeof info->job_id, "%s", old->id);
        info->existing = 1;
        goto out;
    }
    size_t pending = 0;
    for (size_t i = 0; i < e->n_jobs; i++)
        pending += e->jobs[i].state == CUZK_JOB_QUEUED || e->jobs[i].state == CUZK_JOB_RUNNING;
    if (e->cfg.max_pending_jobs && pending >= e->cfg.max_pending_jobs) {
        snprintf(err, CUZK_ERROR_LEN, "queue full: %zu jobs pending (scheduler.max_pending_jobs)",
                 pending);
        st = CUZK_E_EXHAUSTED;
        goto out;
    }
    if (e->n_jobs == e->cap_jobs) {
        size_t cap = e->cap_jobs ? e->cap_jobs * 2 : 16;
        job *nj = realloc(e->jobs, cap * sizeof *nj);
        if (nj == NULL) {
            snprintf(err, CUZK_ERROR_LEN, "out of memory");
            st = CUZK_E_INTERNAL;
            goto out;
        }
        e->jobs = nj;
        e->cap_jobs = cap;
    }
    job *j = &e->jobs[e->n_jobs++];
    memset(j, 0, sizeof *j);
    if (r->request_id && r->request_id[0])
        snprintf(j->id, sizeof j->id, "%s", r->request_id);
    else
        uuid4(j->id);
    j->kind = r->kind;
    snprintf(j->owner, sizeof j->owner, "%s", r->owner ? r->owner : "");
    j->prio = r->priority ? r->priority : cuzk_kind_default_priority(r->kind);
    j->state = CUZK_JOB_QUEUED;
    j->seq = e->next_seq++;
    j->submitted_ms = now_ms();
    for (size_t i = 0; i + 1 < e->n_jobs; i++)
        info->queue_position += e->jobs[i].state == CUZK_JOB_QUEUED;
    snprintf(info->job_id, sizeof info->job_id, "%s", j->id);
    pthread_cond_broadcast(&e->cv);
out:
    pthread_mutex_unlock(&e->mu);
    return st;
}

cuzk_status cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                              cuzk_result *out) {
    memset(out, 0, sizeof *out);
    snprintf(out->job_id, sizeof out->job_id, "%s", job_id);
    struct timespec until;
    if (timeout_ms)
        deadline_after(&until, timeout_ms);
    pthread_mutex_lock(&e->mu);
    cuzk_status st = CUZK_OK;
    for (;;) {
        job *j = find_job(e, job_id);
        if (j == NULL) {
            snprintf(out->error, sizeof out->error, "unknown job id \"%.200s\"", job_id);
            st = CUZK_E_NOT_FOUND;
            break;
        }
        out->state = j->state;
        if (j->state >= CUZK_JOB_COMPLETED) {
            snprintf(out->error, sizeof out->error, "%s", j->error);
            uint64_t start = j->started_ms ? j->started_ms : j->finished_ms;
            out->timings.queue_wait_ms = start - j->submitted_ms;
            out->timings.total_ms = j->finished_ms - j->submitted_ms;
            break;
        }
        if (timeout_ms && pthread_cond_timedwait(&e->cv, &e->mu, &until) != 0) {
            j = find_job(e, job_id);
            out->state = j->state;
            if (j->state < CUZK_JOB_COMPLETED) {
                st = CUZK_E_TIMEOUT;
                break;
            }
        } else if (!timeout_ms) {
            pthread_cond_wait(&e->cv, &e->mu);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

/* The double counts no memory; the receive limit follows a configured budget
 * as the real engine's does (memory.total_budget / 6), else gRPC's own. */
uint64_t cuzk_engine_request_limit(cuzk_engine *e) {
    return e->cfg.memory_budget ? e->cfg.memory_budget / 6 : UINT64_MAX;
}

cuzk_status cuzk_engine_hold_request(cuzk_engine *e, uint64_t message_len, uint64_t *held,
                                     char err[CUZK_ERROR_LEN]) {
    (void)e;
    (void)message_len;
    (void)err;
    *held = 0;
    return CUZK_OK;
}

void cuzk_engine_release_request(cuzk_engine *e, uint64_t held) {
    (void)e;
    (void)held;
}

cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *job_id, int *was_running) {
    return cuzk_engine_cancel_as(e, job_id, NULL, was_running);
}

/* As the engine's: only the job's owner, or a privileged caller (NULL). */
cuzk_status cuzk_engine_cancel_as(cuzk_engine *e, const char *job_id, const char *caller,
                                  int *was_running) {
    *was_running = 0;
    pthread_mutex_lock(&e->mu);
    cuzk_status st = CUZK_OK;
    job *j = find_job(e, job_id);
    if (j == NULL) {
        st = CUZK_E_NOT_FOUND;
    } else if (caller && j->owner[0] && strcmp(j->owner, caller) != 0) {
        st = CUZK_E_DENIED;
    } else if (j->state == CUZK_JOB_QUEUED) {
        finish(e, j, CUZK_JOB_CANCELLED, "cancelled by request");
    } else if (j->state == CUZK_JOB_RUNNING) {
        j->cancel_requested = 1;
        *was_running = 1;
        pthread_cond_broadcast(&e->cv);
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

/* The double keeps no waiters: a Prove that created its job cancels it when
 * its caller leaves (the server tells it whether it created the job). */
static __thread int double_created;
cuzk_status cuzk_engine_attach(cuzk_engine *e, const char *job_id, int created) {
    (void)e;
    (void)job_id;
    double_created = created;
    return CUZK_OK;
}
cuzk_status cuzk_engine_abandon(cuzk_engine *e, const char *job_id, int *cancelled) {
    int was_running = 0;
    *cancelled = double_created;
    return double_created ? cuzk_engine_cancel(e, job_id, &was_running) : CUZK_OK;
}

static int known_circuit(const char *id) {
    static const char *const ids[] = {"porep-2k",     "porep-8m",    "porep-512m",  "porep-32g",
                                      "porep-64g",    "wpost-2k",    "wpost-8m",    "wpost-512m",
                                      "wpost-32g",    "wpost-64g",   "winning-2k",  "winning-8m",
                                      "winning-512m", "winning-32g", "winning-64g", "snap-2k",
                                      "snap-8m",      "snap-512m",   "snap-32g",    "snap-64g"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (strcmp(id, ids[i]) == 0)
            return 1;
    return 0;
}

cuzk_status cuzk_engine_preload_srs(cuzk_engine *e, const char *id, int *already_loaded,
                                    uint64_t *load_ms, char err[CUZK_ERROR_LEN]) {
    *already_loaded = 0;
    *load_ms = 0;
    if (!known_circuit(id)) {
        snprintf(err, CUZK_ERROR_LEN, "unknown circuit id \"%.100s\"", id);
        return CUZK_E_NOT_FOUND;
    }
    pthread_mutex_lock(&e->mu);
    cuzk_status st = CUZK_OK;
    if (e->shutting_down) {
        snprintf(err, CUZK_ERROR_LEN, "the engine is shutting down");
        st = CUZK_E_SHUTDOWN;
        goto out;
    }
    for (size_t i = 0; i < e->n_srs; i++)
        if (strcmp(e->srs[i].id, id) == 0) {
            *already_loaded = e->srs[i].loaded;
            e->srs[i].loaded = 1;
            goto out;
        }
    if (e->n_srs < sizeof e->srs / sizeof e->srs[0]) {
        snprintf(e->srs[e->n_srs].id, sizeof e->srs[0].id, "%s", id);
        e->srs[e->n_srs++].loaded = 1;
    }
out:
    pthread_mutex_unlock(&e->mu);
    return st;
}

cuzk_status cuzk_engine_evict_srs(cuzk_engine *e, const char *id, int *was_loaded,
                                  uint64_t *freed_bytes) {
    *was_loaded = 0;
    *freed_bytes = 0;
    if (!known_circuit(id))
        return CUZK_E_NOT_FOUND;
    pthread_mutex_lock(&e->mu);
    for (size_t i = 0; i < e->n_srs; i++)
        if (strcmp(e->srs[i].id, id) == 0) {
            *was_loaded = e->srs[i].loaded;
            e->srs[i].loaded = 0;
        }
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

void cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *s) {
    memset(s, 0, sizeof *s);
    pthread_mutex_lock(&e->mu);
    s->uptime_s = (now_ms() - e->started_ms) / 1000;
    s->completed = e->completed;
    s->failed = e->failed;
    s->cancelled = e->cancelled;
    memcpy(s->failed_by_kind, e->failed_by_kind, sizeof s->failed_by_kind);
    for (size_t i = 0; i < e->n_jobs; i++) {
        if (e->jobs[i].state == CUZK_JOB_QUEUED)
            s->pending_by_kind[e->jobs[i].kind]++;
        if (e->jobs[i].state == CUZK_JOB_RUNNING)
            s->running_by_kind[e->jobs[i].kind]++;
    }
    s->memory_budget = e->cfg.memory_budget;
    s->synthesis_max = e->cfg.synthesis_concurrency;
    size_t n = 0;
    for (size_t i = 0; i < e->n_srs; i++)
        n += e->srs[i].loaded;
    s->srs = n ? calloc(n, sizeof *s->srs) : NULL;
    for (size_t i = 0; s->srs && i < e->n_srs; i++)
        if (e->srs[i].loaded) {
            snprintf(s->srs[s->n_srs].circuit_id, sizeof s->srs[0].circuit_id, "%s", e->srs[i].id);
            s->srs[s->n_srs++].tier = 0;
        }
    pthread_mutex_unlock(&e->mu);
}

void cuzk_engine_status_clear(cuzk_engine_status *s) {
    free(s->gpus);
    free(s->srs);
    memset(s, 0, sizeof *s);
}

char *cuzk_engine_metrics_text(cuzk_engine *e) {
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    size_t cap = 4096;
    char *t = malloc(cap);
    if (t == NULL) {
        cuzk_engine_status_clear(&s);
        return NULL;
    }
    uint32_t depth = 0;
    for (int k = 0; k < CUZK_KIND_COUNT; k++)
        depth += s.pending_by_kind[k];
    int n = snprintf(t, cap,
                     "# HELP cuzk_proofs_completed_total Proofs completed.\n"
                     "# TYPE cuzk_proofs_completed_total counter\n"
                     "cuzk_proofs_completed_total %" PRIu64 "\n"
                     "# HELP cuzk_proofs_failed_total Proofs failed.\n"
                     "# TYPE cuzk_proofs_failed_total counter\n"
                     "cuzk_proofs_failed_total %" PRIu64 "\n"
                     "# HELP cuzk_uptime_seconds Seconds since start.\n"
                     "# TYPE cuzk_uptime_seconds gauge\n"
                     "cuzk_uptime_seconds %" PRIu64 "\n"
                     "# HELP cuzk_queue_depth Jobs waiting.\n"
                     "# TYPE cuzk_queue_depth gauge\n"
                     "cuzk_queue_depth %" PRIu32 "\n",
                     s.completed, s.failed, s.uptime_s, depth);
    for (int k = 1; k < CUZK_KIND_COUNT && n > 0 && (size_t)n < cap; k++)
        n += snprintf(t + n, cap - (size_t)n, "cuzk_proofs_failed{proof_kind=\"%s\"} %" PRIu64 "\n",
                      cuzk_kind_label((cuzk_proof_kind)k), s.failed_by_kind[k]);
    cuzk_engine_status_clear(&s);
    return t;
}
