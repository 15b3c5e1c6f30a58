/* Snapshots of the engine for GetStatus, /status and /metrics, and the
 * debug counters tests and benchmarks read.  Everything is copied under the
 * engine lock and formatted outside it. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/pce.h"
#include "engine/engine_internal.h"

void cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *out) {
    memset(out, 0, sizeof *out);
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    out->uptime_s = (uint64_t)(engine_now(e) / 1000);
    for (int k = 0; k < CUZK_KIND_COUNT; k++) {
        out->completed_by_kind[k] = e->jobs.stats.completed_by_kind[k];
        out->failed_by_kind[k] = e->jobs.stats.failed_by_kind[k];
        out->completed += e->jobs.stats.completed_by_kind[k];
        out->failed += e->jobs.stats.failed_by_kind[k];
        out->pending_by_kind[k] = e->sched.n_by_kind[k];
        out->running_by_kind[k] = e->jobs.stats.running_by_kind[k];
    }
    out->cancelled = e->jobs.stats.cancelled;
    out->memory_budget = e->mem.budget;
    out->memory_in_use = mem_used(&e->mem);
    out->synthesis_active = e->synth_active;
    out->synthesis_max = e->synth_workers;
    out->self_verify_failures = e->self_verify_failures;
    size_t n = 0;
    for (srs_set *s = e->srs.sets; s; s = s->next)
        n++;
    out->srs = n ? calloc(n, sizeof *out->srs) : NULL;
    if (out->srs) {
        for (srs_set *s = e->srs.sets; s; s = s->next) {
            cuzk_srs_status *o = &out->srs[out->n_srs++];
            snprintf(o->circuit_id, sizeof o->circuit_id, "%s", s->circuit_id);
            o->tier = s->loading && s->tier != SRS_HOT ? SRS_WARM : (int)s->tier;
            o->size_bytes = s->tier == SRS_COLD ? 0 : s->hot_bytes;
            o->ref_count = s->refs;
        }
    }
    n = 0;
    for (engine_pce *p = e->pces; p; p = p->next)
        n += p->state == ENGINE_PCE_READY;
    out->pce = n ? calloc(n, sizeof *out->pce) : NULL;
    for (engine_pce *p = e->pces; out->pce && p; p = p->next)
        if (p->state == ENGINE_PCE_READY) {
            cuzk_pce_status *o = &out->pce[out->n_pce++];
            snprintf(o->circuit_id, sizeof o->circuit_id, "%s", p->circuit_id);
            o->bytes = p->bytes;
            double ago = (engine_now(e) - p->last_used_ms) / 1e3;
            o->last_used_secs_ago = ago > 0 ? (uint64_t)ago : 0;
        }
    out->devices = calloc(e->n_devices ? e->n_devices : 1, sizeof *out->devices);
    unsigned n_gpu = 0;
    for (unsigned i = 0; out->devices && i < e->n_devices; i++) {
        device_status(&e->devices[i], engine_now(e), &out->devices[out->n_devices++]);
        n_gpu += e->devices[i].ordinal >= 0;
    }
    /* the GPUs among them, as GetStatus has always listed them */
    out->gpus = n_gpu ? calloc(n_gpu, sizeof *out->gpus) : NULL;
    const groth16_backend *gpu_be[ENGINE_MAX_DEVICES];
    for (unsigned i = 0; out->gpus && i < e->n_devices; i++) {
        const engine_device *d = &e->devices[i];
        if (d->ordinal < 0)
            continue;
        gpu_be[out->n_gpus] = d->backend;
        cuzk_gpu_status *g = &out->gpus[out->n_gpus++];
        g->ordinal = (unsigned)d->ordinal;
        snprintf(g->name, sizeof g->name, "%s", d->name);
        snprintf(g->current_job_id, sizeof g->current_job_id, "%s", d->job);
        g->current_kind = d->kind;
    }
    pthread_mutex_unlock(&e->mu);
    /* the backends' queries outside the lock: a GPU's may take milliseconds */
    for (size_t i = 0; i < out->n_gpus; i++) {
        cuzk_gpu_status *g = &out->gpus[i];
        groth16_device_info info;
        char err[256];
        if (groth16_backend_info(gpu_be[i], &info, err, sizeof err))
            continue;
        snprintf(g->name, sizeof g->name, "%s", info.name);
        g->vram_total_bytes = info.mem_total;
        g->vram_free_bytes = info.mem_free;
    }
}

void cuzk_engine_status_clear(cuzk_engine_status *s) {
    if (!s)
        return;
    free(s->gpus);
    free(s->devices);
    free(s->srs);
    free(s->pce);
    memset(s, 0, sizeof *s);
}

void engine_debug_stats_get(cuzk_engine *e, engine_debug_stats *out) {
    pthread_mutex_lock(&e->mu);
    *out = e->dbg;
    memcpy(out->flushes, e->sched.flushes, sizeof out->flushes);
    out->collector_waiting = e->sched.collector_waiting;
    out->mem_budget = e->mem.budget;
    out->mem_peak = e->mem.peak_used;
    out->part_actual_peak = e->mem.peak_part_actual;
    out->mem_waits = e->mem.waits;
    out->part_reserved_peak = e->mem.peak_part_bytes;
    out->mem_shrinks = e->mem.shrinks;
    out->mem_regrows = e->mem.regrows;
    out->mem_retry_reserved = e->mem.retry_bytes;
    out->mem_retry_peak = e->mem.peak_retry_bytes;
    out->srs_loads = e->srs.loads;
    out->srs_demotions = e->srs.demotions;
    out->cpu_retries = e->cpu_retries;
    out->self_verify_failures = e->self_verify_failures;
    out->batches_active = e->n_active;
    out->groups_queued = e->n_queued_groups;
    out->synth_workers = e->synth_workers;
    out->prover_threads = e->prover_threads;
    pthread_mutex_unlock(&e->mu);
}

/* ---- Prometheus text ------------------------------------------------------------- */

typedef struct {
    char *buf;
    size_t len, cap;
    int oom;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...) {
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = 2 * b->cap + (size_t)n;
        char *nb = realloc(b->buf, cap);
        if (!nb) {
            b->oom = 1;
            return;
        }
        b->buf = nb;
        b->cap = cap;
    }
}

char *cuzk_engine_metrics_text(cuzk_engine *e) {
    if (!e)
        return NULL;
    /* copy under the lock, format outside */
    uint64_t done[CUZK_KIND_COUNT], failed[CUZK_KIND_COUNT],
        buckets[CUZK_STAGE_COUNT][JOB_STAGE_BUCKETS];
    double dur[CUZK_KIND_COUNT], ssum[CUZK_STAGE_COUNT];
    uint64_t scount[CUZK_STAGE_COUNT], svf, retries, cancelled, mem_used_b, mem_budget;
    size_t queued;
    unsigned running = 0, provers, synth_active, synth_max;
    double uptime;
    pthread_mutex_lock(&e->mu);
    memcpy(done, e->jobs.stats.completed_by_kind, sizeof done);
    memcpy(failed, e->jobs.stats.failed_by_kind, sizeof failed);
    memcpy(buckets, e->jobs.stats.stage_bucket, sizeof buckets);
    memcpy(dur, e->jobs.stats.duration_sum_s, sizeof dur);
    memcpy(ssum, e->jobs.stats.stage_sum_ms, sizeof ssum);
    memcpy(scount, e->jobs.stats.stage_count, sizeof scount);
    for (int k = 0; k < CUZK_KIND_COUNT; k++)
        running += e->jobs.stats.running_by_kind[k];
    queued = e->sched.n_queued;
    svf = e->self_verify_failures;
    retries = e->cpu_retries;
    cancelled = e->jobs.stats.cancelled;
    mem_used_b = mem_used(&e->mem);
    mem_budget = e->mem.budget;
    provers = e->prover_workers;
    synth_active = e->synth_active;
    synth_max = e->synth_workers;
    uptime = engine_now(e) / 1000;
    cuzk_device_status dev[ENGINE_MAX_DEVICES];
    unsigned n_dev = e->n_devices;
    for (unsigned i = 0; i < n_dev; i++)
        device_status(&e->devices[i], engine_now(e), &dev[i]);
    pthread_mutex_unlock(&e->mu);

    sbuf b = {malloc(4096), 0, 4096, 0};
    if (!b.buf)
        return NULL;
    /* One family per counter, samples per proof kind (sum() gives the total):
     * a parser folds "X_total" into family X, so a separate unlabelled
     * X_total beside X{...} would be two families of one name. */
    put(&b, "# HELP cuzk_proofs_completed_total Proofs completed.\n"
            "# TYPE cuzk_proofs_completed_total counter\n");
    for (int k = 1; k < CUZK_KIND_COUNT; k++)
        put(&b, "cuzk_proofs_completed_total{proof_kind=\"%s\"} %" PRIu64 "\n",
            cuzk_kind_label((cuzk_proof_kind)k), done[k]);
    put(&b, "# HELP cuzk_proofs_failed_total Proofs failed.\n"
            "# TYPE cuzk_proofs_failed_total counter\n");
    for (int k = 1; k < CUZK_KIND_COUNT; k++)
        put(&b, "cuzk_proofs_failed_total{proof_kind=\"%s\"} %" PRIu64 "\n",
            cuzk_kind_label((cuzk_proof_kind)k), failed[k]);
    put(&b, "# TYPE cuzk_proofs_cancelled_total counter\ncuzk_proofs_cancelled_total %" PRIu64 "\n",
        cancelled);
    put(&b, "# TYPE cuzk_uptime_seconds gauge\ncuzk_uptime_seconds %.0f\n", uptime);
    put(&b, "# TYPE cuzk_queue_depth gauge\ncuzk_queue_depth %zu\n", queued);
    put(&b, "# TYPE cuzk_proof_duration_seconds summary\n");
    for (int k = 1; k < CUZK_KIND_COUNT; k++)
        if (done[k])
            put(&b,
                "cuzk_proof_duration_seconds_count{proof_kind=\"%s\"} %" PRIu64
                "\ncuzk_proof_duration_seconds_sum{proof_kind=\"%s\"} %.3f\n",
                cuzk_kind_label((cuzk_proof_kind)k), done[k], cuzk_kind_label((cuzk_proof_kind)k),
                dur[k]);
    put(&b, "# TYPE cuzk_running_jobs gauge\ncuzk_running_jobs %u\n", running);
    put(&b, "# TYPE cuzk_gpu_workers gauge\ncuzk_gpu_workers %u\n", provers);
    put(&b, "# TYPE cuzk_synthesis_active gauge\ncuzk_synthesis_active %u\n", synth_active);
    put(&b, "# TYPE cuzk_synthesis_max gauge\ncuzk_synthesis_max %u\n", synth_max);
    put(&b, "# TYPE cuzk_memory_used_bytes gauge\ncuzk_memory_used_bytes %" PRIu64 "\n",
        mem_used_b);
    put(&b, "# TYPE cuzk_memory_budget_bytes gauge\ncuzk_memory_budget_bytes %" PRIu64 "\n",
        mem_budget);
    put(&b,
        "# TYPE cuzk_self_verify_failures_total counter\ncuzk_self_verify_failures_total %" PRIu64
        "\n",
        svf);
    put(&b, "# TYPE cuzk_cpu_retries_total counter\ncuzk_cpu_retries_total %" PRIu64 "\n", retries);
    /* per prover device (device.h), labelled by its name */
    put(&b, "# HELP cuzk_device_up Whether the prover device is in rotation.\n"
            "# TYPE cuzk_device_up gauge\n");
    for (unsigned i = 0; i < n_dev; i++)
        put(&b, "cuzk_device_up{device=\"%s\"} %d\n", dev[i].name, !dev[i].failed);
    put(&b, "# HELP cuzk_device_failed_total Devices taken out of rotation after a fault.\n"
            "# TYPE cuzk_device_failed_total counter\n");
    for (unsigned i = 0; i < n_dev; i++)
        put(&b, "cuzk_device_failed_total{device=\"%s\"} %" PRIu64 "\n", dev[i].name,
            dev[i].faults);
    put(&b, "# TYPE cuzk_device_partitions_total counter\n");
    for (unsigned i = 0; i < n_dev; i++)
        put(&b, "cuzk_device_partitions_total{device=\"%s\"} %" PRIu64 "\n", dev[i].name,
            dev[i].partitions_proven);
    put(&b, "# TYPE cuzk_device_busy_seconds_total counter\n");
    for (unsigned i = 0; i < n_dev; i++)
        put(&b, "cuzk_device_busy_seconds_total{device=\"%s\"} %.3f\n", dev[i].name,
            dev[i].busy_ms / 1000);
    put(&b, "# TYPE cuzk_device_busy_workers gauge\n");
    for (unsigned i = 0; i < n_dev; i++)
        put(&b, "cuzk_device_busy_workers{device=\"%s\"} %u\n", dev[i].name, dev[i].busy_workers);
    put(&b, "# TYPE cuzk_device_resident_bytes gauge\n");
    for (unsigned i = 0; i < n_dev; i++)
        put(&b, "cuzk_device_resident_bytes{device=\"%s\"} %" PRIu64 "\n", dev[i].name,
            dev[i].resident_bytes);
    /* job_stage_bounds_ms in seconds */
    static const char *le[JOB_STAGE_BUCKETS - 1] = {"0.01", "0.1", "1", "10", "60", "300", "1800"};
    put(&b,
        "# HELP cuzk_stage_duration_seconds Per-partition (and per-job queue/srs) stage times.\n"
        "# TYPE cuzk_stage_duration_seconds histogram\n");
    for (int s = 0; s < CUZK_STAGE_COUNT; s++) {
        uint64_t cum = 0;
        const char *name = cuzk_stage_name((cuzk_stage)s);
        for (int i = 0; i < JOB_STAGE_BUCKETS - 1; i++) {
            cum += buckets[s][i];
            put(&b, "cuzk_stage_duration_seconds_bucket{stage=\"%s\",le=\"%s\"} %" PRIu64 "\n",
                name, le[i], cum);
        }
        put(&b, "cuzk_stage_duration_seconds_bucket{stage=\"%s\",le=\"+Inf\"} %" PRIu64 "\n", name,
            scount[s]);
        put(&b, "cuzk_stage_duration_seconds_sum{stage=\"%s\"} %.6f\n", name, ssum[s] / 1000);
        put(&b, "cuzk_stage_duration_seconds_count{stage=\"%s\"} %" PRIu64 "\n", name, scount[s]);
    }
    if (b.oom) {
        free(b.buf);
        return NULL;
    }
    return b.buf;
}
