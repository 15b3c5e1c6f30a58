/* The engine's PCE manager: see pce.h. */
#include "engine/pce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_internal.h"
#include "engine/provider_util.h"
#include "r1cs/pce_cache.h"
#include "util/slog.h"
#include "util/switches.h"

static engine_pce *find(cuzk_engine *e, const char *id) {
    for (engine_pce *p = e->pces; p; p = p->next)
        if (strcmp(p->circuit_id, id) == 0)
            return p;
    return NULL;
}

/* <stem> of the circuit's registered parameter file, from the SRS manager. */
static int stem_of(cuzk_engine *e, const char *id, char *stem, size_t cap) {
    cuzk_status st;
    char err[CUZK_ERROR_LEN];
    srs_set *s = srs_lookup(&e->srs, id, &st, err);
    if (!s)
        return -1;
    const char *b = strrchr(s->path, '/');
    b = b ? b + 1 : s->path;
    size_t n = strlen(b);
    if (n > 7 && strcmp(b + n - 7, ".params") == 0)
        n -= 7;
    if (n == 0 || n >= cap)
        return -1;
    snprintf(stem, cap, "%.*s", (int)n, b);
    return 0;
}

/* What a pce holds: its file (mapped), or its sections (recorded in memory). */
static uint64_t pce_bytes_held(const r1cs_pce *p) {
    if (p->file_bytes)
        return p->file_bytes;
    uint64_t n = 0;
    for (unsigned k = 1; k <= PCE_SECTIONS; k++)
        n += pce_section_bytes(p, k);
    return n;
}

static unsigned share_threads(const cuzk_engine *e) {
    unsigned active = e->synth_active ? e->synth_active : 1;
    unsigned t = e->synth_cores / active;
    return t ? t : 1;
}

/* Opens or records it without the lock; 0 with p->pce filled, or -1. */
static int obtain(cuzk_engine *e, engine_pce *p, const engine_plan *plan, const char *stem,
                  unsigned threads) {
    pce_shape_counts counts, *cp = NULL;
    if (provider_shape_counts(plan->circuit_id, &counts) == 0)
        cp = &counts;
    pce_obtain_info info;
    char err[512];
    if (pce_obtain(e->srs.cache_dir, plan->circuit_id, stem, plan->blank, plan->blank_arg, cp,
                   threads, &p->pce, &info, err, sizeof err)) {
        slog(SLOG_WARN, "pce", "%s: %s; classic synthesis for this circuit", plan->circuit_id, err);
        return -1;
    }
    if (info.note[0])
        slog(SLOG_WARN, "pce", "%s: %s", plan->circuit_id, info.note);
    slog(SLOG_INFO, "pce", "%s %s %s/%s.pce (%llu bytes, %.0f ms)", plan->circuit_id,
         info.built ? (info.in_memory ? "recorded in memory for" : "recorded into") : "loaded from",
         e->srs.cache_dir, stem, (unsigned long long)pce_bytes_held(&p->pce), info.ms);
    return 0;
}

/* 1 when p's bytes fit the budget now (idle parameter sets demoted for
 * them): they are taken.  Else 0: nothing waits for them, since the caller
 * holds a partition reservation that only its own progress releases. */
static int keep_fits(cuzk_engine *e, engine_pce *p) {
    uint64_t n = pce_bytes_held(&p->pce);
    if (!srs_make_room(&e->srs, n, NULL)) {
        slog(SLOG_WARN, "pce",
             "%s: its %llu bytes do not fit the memory budget now (%llu of %llu in use); "
             "classic synthesis for this partition",
             p->circuit_id, (unsigned long long)n, (unsigned long long)mem_used(&e->mem),
             (unsigned long long)e->mem.budget);
        return 0;
    }
    p->bytes = n;
    mem_take_pce(&e->mem, n);
    return 1;
}

const r1cs_pce *engine_pce_get(cuzk_engine *e, const engine_plan *plan, unsigned *threads) {
    pthread_mutex_lock(&e->mu);
    *threads = share_threads(e);
    if (!switch_get(SW_PCE) || !plan->blank) {
        pthread_mutex_unlock(&e->mu);
        return NULL;
    }
    engine_pce *p = find(e, plan->circuit_id);
    int fresh = !p;
    if (!p) {
        p = calloc(1, sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&e->mu);
            return NULL;
        }
        snprintf(p->circuit_id, sizeof p->circuit_id, "%s", plan->circuit_id);
        p->next = e->pces;
        e->pces = p;
    }
    if (fresh || p->state == ENGINE_PCE_RETRY) {
        char stem[256];
        if (stem_of(e, plan->circuit_id, stem, sizeof stem)) {
            slog(SLOG_WARN, "pce", "%s: no parameter file name; classic synthesis",
                 plan->circuit_id);
            p->state = ENGINE_PCE_FAILED;
        } else {
            p->state = ENGINE_PCE_LOADING;
            unsigned t = e->synth_cores ? e->synth_cores : 1;
            pthread_mutex_unlock(&e->mu);
            int rc = obtain(e, p, plan, stem, t);
            pthread_mutex_lock(&e->mu);
            p->state = rc ? ENGINE_PCE_FAILED : ENGINE_PCE_READY;
            if (!rc && !keep_fits(e, p)) {
                /* not kept past the budget: this partition synthesizes
                 * classically, a later one tries again */
                pce_free(&p->pce);
                p->state = ENGINE_PCE_RETRY;
            }
            pthread_cond_broadcast(&e->cv_synth);
        }
    }
    while (p->state == ENGINE_PCE_LOADING)
        pthread_cond_wait(&e->cv_synth, &e->mu);
    const r1cs_pce *out = p->state == ENGINE_PCE_READY ? &p->pce : NULL;
    p->last_used_ms = engine_now(e);
    *threads = share_threads(e);
    pthread_mutex_unlock(&e->mu);
    return out;
}

void engine_pce_free_all(cuzk_engine *e) {
    while (e->pces) {
        engine_pce *p = e->pces;
        e->pces = p->next;
        if (p->state == ENGINE_PCE_READY) {
            mem_put_pce(&e->mem, p->bytes);
            for (unsigned d = 0; d < e->n_devices; d++) /* a GPU's copy goes first */
                if (e->devices[d].backend && e->devices[d].backend->forget_pce)
                    e->devices[d].backend->forget_pce(&p->pce);
            pce_free(&p->pce);
        }
        free(p);
    }
}
