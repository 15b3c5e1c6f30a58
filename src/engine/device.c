/* The engine's prover devices (see device.h). */
#include "engine/device.h"

#include <stdio.h>
#include <string.h>

#include "util/switches.h"

void device_init(engine_device *d, unsigned index, int ordinal, const char *name, int simulated,
                 const groth16_backend *be, unsigned workers) {
    memset(d, 0, sizeof *d);
    d->index = index;
    d->ordinal = ordinal;
    snprintf(d->name, sizeof d->name, "%s", name);
    d->simulated = simulated;
    d->backend = be;
    d->workers = workers ? workers : 1;
}

static int find(const engine_device *d, const srs_set *s) {
    for (unsigned i = 0; i < d->n_res; i++)
        if (d->res[i].set == s)
            return (int)i;
    return -1;
}

int device_resident(const engine_device *d, const srs_set *s) { return find(d, s) >= 0; }

static void drop(engine_device *d, unsigned i) {
    d->res_bytes -= d->res[i].bytes;
    memmove(&d->res[i], &d->res[i + 1], (d->n_res - i - 1) * sizeof d->res[0]);
    d->n_res--;
}

void device_use(engine_device *d, const srs_set *s, double now_ms) {
    int i = find(d, s);
    if (i >= 0) {
        d->res[i].last_used_ms = now_ms;
        return;
    }
    long cap = switch_get(SW_GPU_SRS_SETS);
    cap = cap < 1 ? 1 : cap > ENGINE_DEVICE_SETS ? ENGINE_DEVICE_SETS : cap;
    while (d->n_res && d->n_res >= (unsigned)cap) {
        /* the least recently used goes, as the device's own cache drops it
         * by itself (no forget here: that would wait, under the engine
         * lock, for a call in progress on the device) */
        unsigned lru = 0;
        for (unsigned k = 1; k < d->n_res; k++)
            if (d->res[k].last_used_ms < d->res[lru].last_used_ms)
                lru = k;
        drop(d, lru);
    }
    d->res[d->n_res++] = (engine_resident){s, s->points_bytes, now_ms};
    d->res_bytes += s->points_bytes;
}

uint64_t device_forget(engine_device *d, const srs_set *s) {
    groth16_backend_forget(d->backend, &s->data);
    return device_drop(d, s);
}

uint64_t device_drop(engine_device *d, const srs_set *s) {
    int i = find(d, s);
    if (i < 0)
        return 0;
    uint64_t b = d->res[i].bytes;
    drop(d, (unsigned)i);
    return b;
}

void device_begin(engine_device *d, const char *job_id, cuzk_proof_kind kind, double now_ms) {
    if (!d->busy++)
        d->busy_since = now_ms;
    snprintf(d->job, sizeof d->job, "%s", job_id);
    d->kind = kind;
}

void device_end(engine_device *d, double now_ms) {
    if (d->busy && !--d->busy) {
        d->busy_ms += now_ms - d->busy_since;
        d->job[0] = 0;
    }
}

void device_fail(engine_device *d, const char *why) {
    if (d->failed)
        return;
    d->failed = 1;
    d->faults++;
    snprintf(d->why, sizeof d->why, "%s", why);
}

void device_status(const engine_device *d, double now_ms, cuzk_device_status *o) {
    memset(o, 0, sizeof *o);
    o->index = d->index;
    o->ordinal = d->ordinal;
    snprintf(o->name, sizeof o->name, "%s", d->name);
    o->failed = d->failed;
    snprintf(o->failed_reason, sizeof o->failed_reason, "%s", d->why);
    o->workers = d->workers;
    o->busy_workers = d->busy;
    snprintf(o->current_job_id, sizeof o->current_job_id, "%s", d->job);
    o->current_kind = d->job[0] ? d->kind : CUZK_KIND_UNSPECIFIED;
    o->resident_bytes = d->res_bytes;
    /* most recently used first */
    unsigned order[ENGINE_DEVICE_SETS], n = d->n_res;
    for (unsigned i = 0; i < n; i++)
        order[i] = i;
    for (unsigned i = 1; i < n; i++)
        for (unsigned k = i;
             k > 0 && d->res[order[k]].last_used_ms > d->res[order[k - 1]].last_used_ms; k--) {
            unsigned t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    for (unsigned i = 0; i < n && i < CUZK_DEVICE_SETS; i++)
        snprintf(o->resident[o->n_resident++], sizeof o->resident[0], "%s",
                 d->res[order[i]].set->circuit_id);
    o->partitions_proven = d->partitions;
    o->calls = d->calls;
    o->faults = d->faults;
    o->busy_ms = d->busy_ms + (d->busy ? now_ms - d->busy_since : 0);
}
