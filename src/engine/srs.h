/* The SRS manager: parameter sets by circuit id, in three tiers.
 *
 *   COLD  known by name only: FILE_STEM.params in the parameter cache
 *   WARM  the file is mapped and its layout and vk parsed (cheap; the page
 *         cache, not the budget, holds it); the prepared vk for
 *         self-verification lives here
 *   HOT   every point decoded into memory, ready for a prover backend; these
 *         bytes count against the memory budget.  When every prover keeps its
 *         own copy (a GPU's), HOT decodes nothing: provers read the mapped
 *         file a chunk at a time (file_backed below) and the host keeps no
 *         copy of the parameters
 *
 * Names: every circuit id's file stem is registered (circuit_provider.h;
 * the Filecoin ones with their published names by engine/providers.c).  The
 * cache is srs.param_cache as the engine was given it (the daemon's config
 * resolves it: an explicit setting, else FIL_PROOFS_PARAMETER_CACHE, else the
 * default; filecoin/param_dir.h).
 *
 * Ownership and lifetime: the manager owns every set.  A running batch holds a
 * reference on its set from admission until its last partition is proven;
 * while referenced (or loading) a set is never demoted.  When memory is
 * needed, unreferenced hot sets are demoted to WARM least recently used
 * first; a set used within the last min_idle_ms (memory.eviction_min_idle) is
 * demoted only when nothing running will release memory, so a short burst of
 * other work waits rather than throwing out the set the next proof needs.
 * Nothing is demoted without pressure: an idle set keeps its memory (and its
 * GPU copy) until memory is needed or cuzk_engine_evict_srs demotes it to
 * COLD (unmapped), which refuses a set in use.
 *
 * Inputs: the manager knows nothing of the engine.  Its owner hands it, in
 * srs_env, the memory budget HOT sets are counted in, the lock and memory
 * condition, a clock, whether waiting for memory can succeed (running work
 * will release some), and the backend's hook to drop a device copy of a
 * set that is demoted.
 *
 * Digests: the first time a set is opened, a file with one of Filecoin's
 * published names is held against parameters.json's digest
 * (filecoin/param_digest.h) unless trust_params; a mismatch fails the load
 * with a message naming the file and both digests.
 *
 * Loading and decoding run without the lock (flag `loading`; others wanting
 * the set wait on the memory condition).  Everything else runs under it. */
#ifndef CUZK_ENGINE_SRS_H
#define CUZK_ENGINE_SRS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "engine/circuit_provider.h"
#include "engine/memory.h"
#include "groth16/backend.h"
#include "groth16/params.h"
#include "groth16/verify.h"

typedef enum { SRS_HOT = 0, SRS_WARM = 1, SRS_COLD = 2 } srs_tier;

typedef struct srs_name {
    char circuit_id[ENGINE_CIRCUIT_ID_LEN];
    char stem[256];
    struct srs_name *next;
} srs_name;

typedef struct srs_set {
    char circuit_id[ENGINE_CIRCUIT_ID_LEN];
    char path[4096 + 256 + 16];
    srs_tier tier;
    int loading;
    unsigned refs;
    double last_used_ms;
    uint64_t hot_bytes;    /* what HOT costs the host (known once WARM) */
    uint64_t points_bytes; /* the points decoded: a device's copy (known once WARM) */
    int digest_checked;    /* the file was held against its published digest (once) */
    groth16_params gp;     /* WARM and HOT */
    groth16_pvk pvk;       /* WARM and HOT */
    g1_affine *h, *l, *a, *b1;
    g2_affine *b2;
    groth16_params_data data; /* HOT: the backend's view */
    struct srs_set *next;
} srs_set;

/* What the manager is given by its owner. */
typedef struct {
    mem_budget *mem;             /* HOT sets are counted here */
    pthread_mutex_t *mu;         /* held by every caller; dropped while loading */
    pthread_cond_t *cv_mem;      /* waited on for memory and loads; broadcast when either frees */
    void *ctx;                   /* passed to the hooks */
    double (*now_ms)(void *ctx); /* the clock of last use (min_idle_ms under pressure) */
    /* Whether memory held now will be released without new admissions (a
     * short acquire may then wait instead of failing). */
    int (*can_release)(void *ctx);
    /* Drops the backend's copies of a set's points (a GPU's resident copy);
     * NULL when there are none. */
    void (*forget)(void *ctx, const groth16_params_data *d);
} srs_env;

typedef struct {
    char cache_dir[4096];
    srs_env env;
    unsigned decode_threads;
    srs_name *names;
    srs_set *sets;
    uint64_t loads, demotions;
    double min_idle_ms; /* memory.eviction_min_idle: see srs_make_room */
    int trust_params;   /* skip the published-digest check (filecoin/param_digest.h) */
    /* 1: HOT decodes nothing: the set's data is file-backed (params.h), its
     * provers read the mapped file (a GPU once, into its own copy), and HOT
     * costs the readers' chunk buffers.  0: every point decoded into memory. */
    int file_backed;
} srs_manager;

void srs_init(srs_manager *m, const char *cache_dir, const srs_env *env);
/* Frees every set (forgetting the backend's copies). */
void srs_free(srs_manager *m);
cuzk_status srs_register(srs_manager *m, const char *circuit_id, const char *stem);

/* The set for circuit_id (created COLD on first use); NULL with err filled
 * (CUZK_E_NOT_FOUND) when no file name is known for it. */
srs_set *srs_lookup(srs_manager *m, const char *circuit_id, cuzk_status *st,
                    char err[CUZK_ERROR_LEN]);

/* Makes s HOT and takes a reference, reserving `also` more bytes of the
 * budget (a batch's partition floor) in the same step, so that both fit or
 * neither is taken, with keep_free more bytes left free beside them while
 * running work could use them (a classic bound for fall-backs: dispatcher.c);
 * with nothing running, keep_free is not asked for.  Demotes unreferenced
 * sets as needed.  When memory is
 * short: with wait set, waits while running work can still release memory;
 * otherwise (or when nothing can) CUZK_E_EXHAUSTED with err filled.  *load_ms
 * gets the time spent opening and decoding (0 when already hot).  Called
 * and returns with the lock held; drops it while loading. */
cuzk_status srs_acquire(srs_manager *m, srs_set *s, uint64_t also, uint64_t keep_free, int wait,
                        double *load_ms, char err[CUZK_ERROR_LEN]);
void srs_release(srs_manager *m, srs_set *s);

/* Memory pressure: demotes unreferenced HOT sets (LRU first, never `keep`)
 * until need bytes fit; returns whether they fit.  Sets idle for less than
 * min_idle_ms are demoted only when waiting cannot help (env.can_release
 * says no running work will release memory). */
int srs_make_room(srs_manager *m, uint64_t need, const srs_set *keep);
/* cuzk_engine_evict_srs: HOT/WARM -> COLD.  CUZK_E_EXHAUSTED while in use. */
cuzk_status srs_evict(srs_manager *m, srs_set *s, uint64_t *freed);

#endif
