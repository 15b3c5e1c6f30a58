/* The engine's PCE manager: see pce.h. */
#include "engine/pce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine_internal.h"
#include "engine/job.h"
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

static int64_t mtime_ns(const struct stat *st) {
    return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

/* The file p->path is now the one validated fully. */
static void remember_file(engine_pce *p) {
    struct stat st;
    if (stat(p->path, &st) == 0) {
        p->dev = st.st_dev;
        p->ino = st.st_ino;
        p->size = st.st_size;
        p->mtime_ns = mtime_ns(&st);
    } else {
        p->size = -1; /* never equal: the next mapping validates fully */
    }
}

static void remember_shape(engine_pce *p) {
    p->rows = p->pce.rows;
    p->num_inputs = p->pce.num_inputs;
    p->num_aux = p->pce.num_aux;
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
    p->in_memory = info.in_memory;
    snprintf(p->path, sizeof p->path, "%s/%s.pce", e->srs.cache_dir, stem);
    if (!p->in_memory)
        remember_file(p);
    remember_shape(p);
    return 0;
}

/* Maps an UNMAPPED pce again without the lock: only the cheap checks when
 * the file is the one validated before.  0, or -1 (logged). */
static int remap(engine_pce *p, unsigned threads) {
    struct stat st;
    int same = stat(p->path, &st) == 0 && st.st_dev == p->dev && st.st_ino == p->ino &&
               st.st_size == p->size && mtime_ns(&st) == p->mtime_ns;
    const pce_expect ex = {p->circuit_id, p->rows, p->num_inputs, p->num_aux};
    char err[512];
    if (pce_open_mode(p->path, &ex, threads, !same, &p->pce, err, sizeof err)) {
        slog(SLOG_WARN, "pce", "%s: mapping it again: %s; classic synthesis for this circuit",
             p->circuit_id, err);
        return -1;
    }
    if (!same)
        remember_file(p);
    if (p->pce.file_bytes != p->bytes) { /* another file: counted as it is */
        slog(SLOG_WARN, "pce", "%s: its file changed size; classic synthesis for this circuit",
             p->circuit_id);
        pce_free(&p->pce);
        return -1;
    }
    return 0;
}

/* The least recently used pce that may be unmapped now, other than keep's. */
static engine_pce *lru_idle(cuzk_engine *e, const char *keep) {
    engine_pce *lru = NULL;
    for (engine_pce *p = e->pces; p; p = p->next)
        if (p->state == ENGINE_PCE_READY && !p->in_memory && !p->refs &&
            !(keep && strcmp(p->circuit_id, keep) == 0) &&
            (!lru || p->last_used_ms < lru->last_used_ms))
            lru = p;
    return lru;
}

/* TEST ONLY: the config's test_pce_flip makes the pce's dictionary a copy
 * with one general coefficient changed, so that its a/b/c are wrong and the
 * proof fails self-verification (the classic retry's test). */
static void test_flip(const cuzk_engine *e, engine_pce *p) {
    if (!e->cfg.test_pce_flip || p->pce.dict_len < 3)
        return;
    fr *d = malloc(p->pce.dict_len * sizeof *d);
    if (!d)
        return;
    memcpy(d, p->pce.dict, p->pce.dict_len * sizeof *d);
    uint32_t i = 2;
    while (i + 1 < p->pce.dict_len && p->pce.dict_class[i] != PCE_GENERAL)
        i++;
    fr one;
    fr_set_one(&one);
    fr_add(&d[i], &d[i], &one);
    p->test_dict = d;
    p->pce.dict = d;
    slog(SLOG_WARN, "pce", "%s: TEST ONLY: dictionary entry %u corrupted", p->circuit_id, i);
}

static void release(engine_pce *p) {
    pce_free(&p->pce);
    free(p->test_dict);
    p->test_dict = NULL;
}

/* A GPU keeps a copy of the matrices it evaluated: dropped before they are. */
static void forget_on_devices(cuzk_engine *e, engine_pce *p) {
    for (unsigned d = 0; d < e->n_devices; d++)
        groth16_backend_forget_pce(e->devices[d].backend, &p->pce);
}

static void unmap(cuzk_engine *e, engine_pce *p, const char *why) {
    forget_on_devices(e, p);
    release(p);
    mem_put_pce(&e->mem, p->bytes);
    p->state = ENGINE_PCE_UNMAPPED;
    p->unmaps++;
    p->suspect = 0;
    slog(SLOG_INFO, "pce", "%s: unmapped (%llu bytes) %s", p->circuit_id,
         (unsigned long long)p->bytes, why);
    pthread_cond_broadcast(&e->cv_mem);
}

int engine_pce_make_room(cuzk_engine *e, uint64_t need, const char *keep) {
    const engine_pce *k = keep && switch_get(SW_PCE) ? find(e, keep) : NULL;
    if (k && k->state == ENGINE_PCE_UNMAPPED)
        need += k->bytes;
    while (!mem_fits(&e->mem, need)) {
        engine_pce *p = lru_idle(e, keep);
        if (!p)
            break;
        unmap(e, p, "to make room in the memory budget");
    }
    return mem_fits(&e->mem, need) || srs_make_room(&e->srs, need, NULL);
}

/* Counts a freshly obtained pce in the budget, or lets it go (under the lock). */
static void admit(cuzk_engine *e, engine_pce *p) {
    /* a file-backed one counts as its file, the form it is mapped again in */
    p->bytes = !p->in_memory && p->size > 0 ? (uint64_t)p->size : pce_bytes_held(&p->pce);
    if (engine_pce_make_room(e, p->bytes, NULL)) {
        mem_take_pce(&e->mem, p->bytes);
        p->state = ENGINE_PCE_READY;
        test_flip(e, p);
        return;
    }
    slog(SLOG_WARN, "pce",
         "%s: its %llu bytes do not fit the memory budget (%llu of %llu in use); classic "
         "synthesis%s",
         p->circuit_id, (unsigned long long)p->bytes, (unsigned long long)mem_used(&e->mem),
         (unsigned long long)e->mem.budget, p->in_memory ? " for this circuit" : " until it fits");
    p->nofit_logged = 1;
    pce_free(&p->pce);
    p->state = p->in_memory ? ENGINE_PCE_FAILED : ENGINE_PCE_UNMAPPED;
}

/* The circuit's entry, made NEW when there is none (NULL when out of memory). */
static engine_pce *entry(cuzk_engine *e, const char *id) {
    engine_pce *p = find(e, id);
    if (!p && (p = calloc(1, sizeof *p))) {
        snprintf(p->circuit_id, sizeof p->circuit_id, "%s", id);
        p->next = e->pces;
        e->pces = p;
    }
    return p;
}

const r1cs_pce *engine_pce_get(cuzk_engine *e, const engine_plan *plan, unsigned *threads) {
    pthread_mutex_lock(&e->mu);
    *threads = share_threads(e);
    if (!switch_get(SW_PCE) || !plan->blank) {
        pthread_mutex_unlock(&e->mu);
        return NULL;
    }
    const unsigned all = e->synth_cores ? e->synth_cores : 1;
    engine_pce *p = entry(e, plan->circuit_id);
    if (!p) {
        pthread_mutex_unlock(&e->mu);
        return NULL;
    }
    if (p->state == ENGINE_PCE_NEW) {
        char stem[256];
        if (stem_of(e, plan->circuit_id, stem, sizeof stem)) {
            slog(SLOG_WARN, "pce", "%s: no parameter file name; classic synthesis",
                 plan->circuit_id);
            p->state = ENGINE_PCE_FAILED;
        } else {
            p->state = ENGINE_PCE_LOADING;
            pthread_mutex_unlock(&e->mu);
            int rc = obtain(e, p, plan, stem, all);
            pthread_mutex_lock(&e->mu);
            if (rc)
                p->state = ENGINE_PCE_FAILED;
            else
                admit(e, p);
            pthread_cond_broadcast(&e->cv_synth);
            pthread_cond_broadcast(&e->cv_mem); /* groups behind its probe */
        }
    }
    const r1cs_pce *out = NULL;
    for (;;) {
        while (p->state == ENGINE_PCE_LOADING)
            pthread_cond_wait(&e->cv_synth, &e->mu);
        if (p->state != ENGINE_PCE_UNMAPPED)
            break;
        if (!engine_pce_make_room(e, p->bytes, NULL)) {
            if (!p->nofit_logged)
                slog(SLOG_WARN, "pce",
                     "%s: its %llu bytes do not fit the memory budget now (%llu of %llu bytes "
                     "held by work in progress); classic synthesis until they do",
                     p->circuit_id, (unsigned long long)p->bytes,
                     (unsigned long long)mem_used(&e->mem), (unsigned long long)e->mem.budget);
            p->nofit_logged = 1;
            break;
        }
        mem_take_pce(&e->mem, p->bytes); /* counted from the start of mapping */
        p->state = ENGINE_PCE_LOADING;
        pthread_mutex_unlock(&e->mu);
        int rc = remap(p, all);
        pthread_mutex_lock(&e->mu);
        if (rc) {
            mem_put_pce(&e->mem, p->bytes);
            p->state = ENGINE_PCE_FAILED;
        } else {
            p->state = ENGINE_PCE_READY;
            p->remaps++;
            p->nofit_logged = 0;
            slog(SLOG_INFO, "pce", "%s: mapped again (%llu bytes)", p->circuit_id,
                 (unsigned long long)p->bytes);
        }
        pthread_cond_broadcast(&e->cv_synth);
    }
    if (p->state == ENGINE_PCE_READY) {
        p->refs++;
        out = &p->pce;
    }
    p->last_used_ms = engine_now(e);
    *threads = share_threads(e);
    pthread_mutex_unlock(&e->mu);
    return out;
}

void engine_pce_put(cuzk_engine *e, const r1cs_pce *pce) {
    if (!pce)
        return;
    pthread_mutex_lock(&e->mu);
    engine_pce_put_locked(e, pce);
    pthread_mutex_unlock(&e->mu);
}

void engine_pce_put_locked(cuzk_engine *e, const r1cs_pce *pce) {
    for (engine_pce *p = e->pces; p; p = p->next)
        if (&p->pce == pce && p->refs) {
            p->refs--;
            p->last_used_ms = engine_now(e);
            if (!p->refs && p->suspect && p->state == ENGINE_PCE_READY)
                unmap(e, p, "after a failed self-verification; its file is checked fully next");
            if (!p->refs)
                pthread_cond_broadcast(&e->cv_mem); /* it may be unmapped now */
            break;
        }
}

uint64_t engine_pce_deferred_bytes_locked(cuzk_engine *e, const char *circuit_id) {
    const engine_pce *p = switch_get(SW_PCE) ? find(e, circuit_id) : NULL;
    if (!p || (p->state != ENGINE_PCE_READY && p->state != ENGINE_PCE_UNMAPPED))
        return 0;
    return r1cs_partition_deferred_peak(p->num_inputs, p->num_aux);
}

int engine_pce_pending_locked(cuzk_engine *e, const engine_job *j) {
    if (!switch_get(SW_PCE) || !j->plan.blank || !j->provider.synthesize_pce)
        return 0;
    const engine_pce *p = find(e, j->plan.circuit_id);
    return !p || p->state == ENGINE_PCE_NEW || p->state == ENGINE_PCE_LOADING;
}

int engine_pce_probe_locked(cuzk_engine *e, const engine_job *j, engine_pce **probe) {
    if (*probe || !engine_pce_pending_locked(e, j))
        return 0;
    engine_pce *p = entry(e, j->plan.circuit_id);
    if (!p)
        return 0; /* out of memory: engine_pce_get says so */
    if (p->probing)
        return 1;
    p->probing = 1;
    *probe = p;
    return 0;
}

void engine_pce_probe_end_locked(cuzk_engine *e, engine_pce **probe) {
    if (!*probe)
        return;
    (*probe)->probing = 0;
    *probe = NULL;
    pthread_cond_broadcast(&e->cv_mem);
}

int engine_pce_retry_wanted(cuzk_engine *e, const engine_job *j, const groth16_proof_check *chk) {
    if (chk->ok || !chk->verify_failed || !switch_get(SW_PCE) || !j->plan.blank ||
        !j->provider.synthesize_pce)
        return 0;
    /* suspect: unmapped once idle, its file validated fully (checksums) when
     * mapped again */
    pthread_mutex_lock(&e->mu);
    engine_pce *p = find(e, j->plan.circuit_id);
    if (p && p->state == ENGINE_PCE_READY && !p->in_memory) {
        p->size = -1;
        p->suspect = 1;
        if (!p->refs)
            unmap(e, p, "after a failed self-verification; its file is checked fully next");
    }
    pthread_mutex_unlock(&e->mu);
    return 1;
}

int engine_pce_classic_retry(const engine_job *j, size_t partition, r1cs_partition *part,
                             groth16_proof *proof, groth16_proof_check *chk,
                             const groth16_params_data *srs, const groth16_pvk *pvk,
                             const groth16_prove_opts *o) {
    char err[CUZK_ERROR_LEN] = "";
    cuzk_status st = j->provider.synthesize(j->provider.ctx, j->plan.state, partition, part, err);
    if (st != CUZK_OK) {
        r1cs_partition_free(part);
        slog(SLOG_WARN, "pce",
             "partition %zu of %s: its proof failed self-verification; classic re-synthesis "
             "failed too: %s",
             partition, j->id, err);
        return 0;
    }
    groth16_proof_check c2;
    groth16_prove_checked(proof, &c2, part, 1, srs, pvk, o, NULL, NULL);
    slog(SLOG_WARN, "pce",
         "partition %zu of %s: the proof from PCE synthesis failed self-verification; "
         "synthesized classically and proved again: %s",
         partition, j->id, c2.ok ? "verified" : c2.msg);
    if (!c2.ok)
        return 0;
    c2.verify_failed = 1; /* the first one did */
    c2.verify_ms += chk->verify_ms;
    *chk = c2;
    snprintf(chk->msg, sizeof chk->msg,
             "the proof from PCE synthesis failed self-verification; classic synthesis proved it");
    return 1;
}

void engine_pce_free_all(cuzk_engine *e) {
    while (e->pces) {
        engine_pce *p = e->pces;
        e->pces = p->next;
        if (p->state == ENGINE_PCE_READY) {
            mem_put_pce(&e->mem, p->bytes);
            forget_on_devices(e, p);
            release(p);
        }
        free(p);
    }
}
