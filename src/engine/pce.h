/* The engine's PCE manager (docs/PCE.md s.6): per circuit id the recorded
 * matrices, opened (or recorded and written) on first use into the
 * parameter cache as <stem>.pce.  Other partitions of that circuit wait
 * while it is obtained; a circuit whose pce cannot be had synthesizes
 * classically (logged once).
 *
 * Tiers, like the parameter sets': a pce is READY (mapped, its bytes counted
 * in the memory budget, mem_budget.pce_bytes) or UNMAPPED (its file known
 * and validated once, nothing held).  A pce in use by a synthesis (between
 * engine_pce_get and engine_pce_put) stays mapped; an idle one backed by its
 * file is unmapped, least recently used first, when the budget needs room
 * (for another pce or a partition reservation).  Mapping it again reads only
 * the header and the small sections when the file's inode, size and mtime
 * are those validated before; a changed file is validated fully.  A pce
 * recorded in memory (the folder refused the file) is never unmapped.  The
 * budget is never passed: a pce that does not fit even after making room is
 * not used, and that partition synthesizes classically (logged). */
#ifndef CUZK_ENGINE_PCE_H
#define CUZK_ENGINE_PCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/circuit_provider.h"
#include "groth16/prove_checked.h"
#include "r1cs/pce.h"

typedef struct engine_pce {
    char circuit_id[ENGINE_CIRCUIT_ID_LEN];
    int state; /* ENGINE_PCE_* */
    r1cs_pce pce;
    uint64_t bytes;  /* counted while READY */
    unsigned refs;   /* synthesis calls using it now */
    int in_memory;   /* no file behind it */
    char path[4200]; /* its file */
    dev_t dev;       /* the file validated (fully) before */
    ino_t ino;
    off_t size;
    int64_t mtime_ns;
    uint64_t rows, num_inputs, num_aux; /* its shape, checked when mapped again */
    int nofit_logged;                   /* "does not fit" said since it last fitted */
    unsigned unmaps, remaps;            /* for the record and tests */
    fr *test_dict;                      /* CUZK_TEST_ONLY_PCE_FLIP's corrupted copy */
    int suspect;                        /* a proof from it failed: unmap when idle */
    int probing;                        /* a group reserved to obtain it; others wait */
    double last_used_ms;
    struct engine_pce *next;
} engine_pce;

/* NEW: named by a probe (engine_pce_probe_locked), not yet asked for */
enum {
    ENGINE_PCE_NEW = 0,
    ENGINE_PCE_LOADING,
    ENGINE_PCE_READY,
    ENGINE_PCE_FAILED,
    ENGINE_PCE_UNMAPPED
};

struct cuzk_engine;

/* The pce of plan's circuit (plan->blank recorded when there is no file),
 * held (mapped) until engine_pce_put, or NULL: switch pce off, no blank
 * circuit, it could not be had, or it does not fit the budget now.  Called
 * without the engine lock.  *threads gets the synthesis cores divided by the
 * partitions being synthesized now (at least 1). */
const r1cs_pce *engine_pce_get(struct cuzk_engine *e, const engine_plan *plan, unsigned *threads);
/* Hands back what engine_pce_get returned (NULL is ignored).  Without the
 * engine lock. */
void engine_pce_put(struct cuzk_engine *e, const r1cs_pce *p);
/* As engine_pce_put, with the engine lock held (a deferred partition's
 * reference, given back when the partition is dropped). */
void engine_pce_put_locked(struct cuzk_engine *e, const r1cs_pce *p);

/* Under the engine lock: the peak of making one deferred partition of the
 * circuit (r1cs_partition_deferred_peak) when its pce is known (held or
 * unmapped) and the switch pce is on, else 0. */
uint64_t engine_pce_deferred_bytes_locked(struct cuzk_engine *e, const char *circuit_id);

struct engine_job;
/* Under the engine lock: 1 while j's partitions would go through a pce (switch
 * pce on, a blank circuit, synthesize_pce) that is not known yet (never
 * asked for, or being opened or recorded). */
int engine_pce_pending_locked(struct cuzk_engine *e, const struct engine_job *j);

/* Under the engine lock, before a group of j's batch reserves its bytes:
 * while j's pce is pending, one group at a time obtains it (its size decides
 * every later group's).  1 when this group is to wait (on cv_mem) for the
 * probe; else 0, and *probe is set when this group becomes the probe (to
 * be ended by engine_pce_probe_end_locked once its synthesis is over). */
int engine_pce_probe_locked(struct cuzk_engine *e, const struct engine_job *j, engine_pce **probe);
void engine_pce_probe_end_locked(struct cuzk_engine *e, engine_pce **probe);

/* Under the engine lock: unmaps idle file-backed pces (least recently used
 * first), then evicts unreferenced parameter sets (srs_make_room), until need
 * more bytes fit the budget.  keep (or NULL) names the circuit the room is
 * for, which synthesizes through its pce: that one is never unmapped here,
 * and while unmapped its bytes count in need (it is to be mapped again).  1
 * when they fit, else 0. */
int engine_pce_make_room(struct cuzk_engine *e, uint64_t need, const char *keep);

/* A proof that failed self-verification (chk->verify_failed, !chk->ok) of a
 * partition the job's provider may have synthesized through a pce (switch
 * pce on, a blank circuit, synthesize_pce): 1 when it is to be synthesized
 * again classically and proved again (engine_pce_classic_retry), else 0.
 * The circuit's pce becomes suspect: unmapped once idle, its file validated
 * fully (checksums) when mapped again.  Without the lock. */
int engine_pce_retry_wanted(struct cuzk_engine *e, const struct engine_job *j,
                            const groth16_proof_check *chk);
/* The retry: *part (freed, its classic bound reserved by the caller:
 * group_reserve_classic) is synthesized classically and proved with o (the
 * first proof's r, s).  Logs what happened.  1 when *proof is now good (chk
 * updated), else 0 (chk keeps the first failure).  Without the lock; part
 * stays the caller's. */
int engine_pce_classic_retry(const struct engine_job *j, size_t partition, r1cs_partition *part,
                             groth16_proof *proof, groth16_proof_check *chk,
                             const groth16_params_data *srs, const groth16_pvk *pvk,
                             const groth16_prove_opts *o);

/* Frees every entry (at engine teardown, no synthesis running). */
void engine_pce_free_all(struct cuzk_engine *e);

#endif
