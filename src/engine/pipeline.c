/* The proving pipeline: dispatcher -> synthesis workers -> bounded queue ->
 * prover workers.
 *
 * Unit of work: one partition index of one batch (a "task"; a synthesized
 * task is a "group").  Partition i of every live job in the batch is
 * synthesized by one synthesis worker and proven by one backend call, so a
 * batch of B sectors makes B-proof backend calls.
 *
 * Dispatcher (one thread): asks the scheduler for the next batch while fewer
 * than max_active batches are active (1 + synthesis_lookahead when
 * pipelining, else 1), or when the queue's head outranks every active batch
 * (a WinningPoSt behind bulk PoRep work), then admits it: acquires its parameter set HOT with a
 * reference and reserves its floor (one group's bytes) in the same step.
 * Batches become active in dispatch order; that admission order is the
 * only order the pipeline promises between batches: tasks are handed out
 * highest priority first, then oldest batch, then lowest partition index, so
 * job N+1's partitions synthesize while job N's are proven, and a CRITICAL
 * batch admitted later overtakes the LOW one's remaining partitions.
 *
 * Synthesis workers (synth_workers threads, one core each): take a task when
 * fewer than queue_depth groups are being synthesized, queued or proven (the
 * bounded queue; 1 when not pipelining, so nothing overlaps), reserve the
 * group's bytes (the batch's floor if free, else from the budget, waiting
 * if need be), synthesize each live job's partition, and queue the group.
 *
 * Deadlock freedom: every active batch owns its floor, so it can always put
 * one group in flight; a worker waiting for memory waits on a batch whose
 * floor is held by a group that a prover will finish.  Reservations never
 * exceed the budget.
 *
 * Prover workers (device.h): gpus.gpu_workers_per_device per GPU or
 * simulated device, one for the CPU backend (which uses prover_threads
 * cores).  A worker takes the best queued group its device should prove
 * (pick_group: CRITICAL first to any free device; otherwise a device that
 * holds the set, elsewhere only when none holding it is free), proves it,
 * self-verifies every proof against the set's prepared vk, re-proves a
 * failure once on the CPU backend (its working memory reserved in the
 * budget first: retry_acquire; counted and logged), and stores each
 * proof in its job's slot for that partition: proofs are reassembled in
 * partition order, whichever devices made them.  A device fault puts the
 * group back in the queue and the device out of rotation; with no device
 * left, the workers of failed devices fail what is queued.
 *
 * Cancellation and failure: a job marked cancelled (or failed) is skipped by
 * new tasks, its queued partitions are dropped at once (memory released),
 * and one being synthesized or proven is discarded when that step ends: the
 * next partition boundary.  It reaches its final state when none of its
 * partitions is in flight any more.
 *
 * Files: dispatcher.c (the dispatcher), synthesis.c (the synthesis workers),
 * batch.c (batches and groups: reservation release, job settling), and this
 * one: cancellation, the provers, start and stop. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/pipeline.h"

#include "engine/batch.h"
#include "engine/dispatcher.h"
#include "engine/pce.h"
#include "engine/synthesis.h"
#include "groth16/proof.h"
#include "groth16/prove_checked.h"
#include "util/parallel.h"

void pipeline_cancel_job(cuzk_engine *e, engine_job *j) {
    for (engine_group **pp = &e->prove_queue; *pp;) {
        engine_group *g = *pp;
        for (size_t k = 0; k < g->n; k++)
            if (g->jobs[k] == j)
                group_drop_member(e, g, k);
        if (group_empty(g)) {
            *pp = g->next;
            e->n_queued_groups--;
            group_done(e, g);
        } else {
            pp = &g->next;
        }
    }
    batch_settle(e, j);
    if (j->batch)
        batch_check_done(e, j->batch);
    pthread_cond_broadcast(&e->cv_mem); /* a worker waiting for memory re-checks */
    pthread_cond_broadcast(&e->cv_synth);
}

int pipeline_can_release(void *ctx) {
    const cuzk_engine *e = ctx;
    return e->n_active > 0;
}

/* ---- proving -------------------------------------------------------------------- */

/* TEST ONLY: with the config's test_rs_seed set, every proof of partition k
 * takes r, s from groth16_rs_from_seed(seed, k), as `cuzk prove porep
 * --rs-seed` does, so a test can hold the daemon's proofs to the CLI's byte
 * for byte.  Such proofs have no zero knowledge: the engine says so loudly. */
static const char *test_rs_seed(const cuzk_engine *e) {
    const char *seed = e->cfg.test_rs_seed;
    fr r, s;
    char why[256];
    if (!seed[0])
        return NULL;
    if (groth16_rs_from_seed(&r, &s, seed, 0, why, sizeof why)) {
        engine_log("test_rs_seed ignored: %s", why);
        return NULL;
    }
    engine_log("WARNING: CUZK_TEST_ONLY_RS_SEED fixes every proof's r and s: these proofs are "
               "for testing only (whoever knows the seed can strip their zero knowledge)");
    return seed;
}

/* r, s of the m proofs of partition k (rs: 2 m entries), or -1 (no memory). */
static int fixed_rs(fr **rs, const char *seed, size_t k, size_t m) {
    *rs = seed ? malloc(2 * m * sizeof **rs) : NULL;
    if (!seed)
        return 0;
    if (!*rs)
        return -1;
    for (size_t i = 0; i < m; i++)
        groth16_rs_from_seed(&(*rs)[i], &(*rs)[m + i], seed, k, NULL, 0);
    return 0;
}

/* ---- devices: which group a device proves next ------------------------------------ */

struct engine_prover_arg {
    cuzk_engine *e;
    engine_device *d;
};

static int any_live_device(const cuzk_engine *e) {
    for (unsigned i = 0; i < e->n_devices; i++)
        if (!e->devices[i].failed)
            return 1;
    return 0;
}

/* Whether a live device other than d holds s and is idle (no call in
 * progress: a second call on a busy GPU only waits behind the first, so d
 * loading the set starts sooner). */
static int other_free_holder(const cuzk_engine *e, const engine_device *d, const srs_set *s) {
    for (unsigned i = 0; i < e->n_devices; i++) {
        const engine_device *o = &e->devices[i];
        if (o != d && !o->failed && !o->busy && device_resident(o, s))
            return 1;
    }
    return 0;
}

/* The queue link of the group device d proves next, or NULL: wait.  Groups
 * come in queue order (priority, then batch, then partition); a CRITICAL
 * one is taken by the first free device; any other goes to a device that
 * holds its set, and is loaded elsewhere only when no device holding it is
 * free, so d would otherwise idle.  *skipped: a group was left for another. */
static engine_group **pick_group(cuzk_engine *e, engine_device *d, int *skipped) {
    *skipped = 0;
    if (d->failed) /* a failed device's workers only fail what no device can prove */
        return any_live_device(e) || !e->prove_queue ? NULL : &e->prove_queue;
    for (engine_group **pp = &e->prove_queue; *pp; pp = &(*pp)->next) {
        const engine_group *g = *pp;
        const srs_set *s = g->batch->srs;
        if (g->batch->priority == CUZK_PRIORITY_CRITICAL || device_resident(d, s) ||
            !other_free_holder(e, d, s))
            return pp;
        *skipped = 1;
    }
    return NULL;
}

/* Why no device is left, for the jobs that then fail. */
static void no_device_error(const cuzk_engine *e, char *out, size_t cap) {
    size_t n = (size_t)snprintf(out, cap, "no prover device left:");
    for (unsigned i = 0; i < e->n_devices && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s %s failed (%.120s)", i ? ";" : "",
                              e->devices[i].name, e->devices[i].why);
}

/* One backend call on d (the lock not held), its outcome in *st and msg
 * (GROTH16_MSG_BYTES).  -1: the failure is the device's (GROTH16_ERR_IO from
 * a GPU or a simulated device, or an injected fault), not the job's. */
static int device_call(cuzk_engine *e, engine_device *d, int inject, groth16_proof *proofs,
                       const engine_group *g, size_t m, const fr *rs, double *ms,
                       groth16_status *st, char *msg) {
    groth16_error ge = {0};
    double t0 = engine_now(e);
    if (inject)
        *st = groth16_fail(&ge, GROTH16_ERR_IO, "injected fault (TEST ONLY)");
    else
        *st = groth16_backend_prove(d->backend, proofs, g->parts, m, &g->batch->srs->data, rs,
                                    rs ? rs + m : NULL, e->prover_threads, NULL, &ge);
    if (d->simulated && e->cfg.test_device_delay_ms) {
        double left = e->cfg.test_device_delay_ms - (engine_now(e) - t0);
        if (left > 0) {
            struct timespec ts = {(time_t)(left / 1000),
                                  (long)((left - (double)(long)(left / 1000) * 1000) * 1e6)};
            nanosleep(&ts, NULL);
        }
    }
    *ms = engine_now(e) - t0;
    snprintf(msg, GROTH16_MSG_BYTES, "%s", ge.msg);
    return *st == GROTH16_ERR_IO && (inject || d->simulated || d->ordinal >= 0) ? -1 : 0;
}

/* Fails every live member of g with msg. */
static void fail_group(cuzk_engine *e, engine_group *g, const char *msg) {
    for (size_t k = 0; k < g->n; k++)
        if (g->jobs[k] && job_live(g->jobs[k])) {
            g->jobs[k]->failed = 1;
            snprintf(g->jobs[k]->error, CUZK_ERROR_LEN, "partition %zu: %.400s", g->partition, msg);
        }
    group_done(e, g);
}

/* Member k's proof failed self-verification: when it came from a pce, its
 * partition is given back, synthesized again classically within the classic
 * bound (waited for, new reservations behind it) and proved again with o.
 * 1 when *proof is now good. */
static int classic_retry(cuzk_engine *e, engine_group *g, size_t k, groth16_proof *proof,
                         groth16_proof_check *chk, const srs_set *s, const groth16_prove_opts *o) {
    engine_job *j = g->jobs[k];
    if (!engine_pce_retry_wanted(e, j, chk))
        return 0;
    r1cs_partition *part = &g->parts[k];
    pthread_mutex_lock(&e->mu);
    mem_actual_sub(&e->mem, r1cs_partition_bytes(part));
    if (part->abc_pce) /* a deferred partition's reference */
        engine_pce_put_locked(e, part->abc_pce);
    r1cs_partition_free(part);
    int rc = group_reserve_classic(e, g, k, 1);
    pthread_mutex_unlock(&e->mu);
    if (rc) {
        engine_log("partition %zu of %s: its proof from PCE synthesis failed self-verification; "
                   "classic re-synthesis needs %llu bytes of memory, which nothing running "
                   "could free",
                   g->partition, j->id, (unsigned long long)j->plan.partition_bytes);
        return 0;
    }
    int ok = engine_pce_classic_retry(j, g->partition, part, proof, chk, &s->data, &s->pvk, o);
    pthread_mutex_lock(&e->mu);
    mem_actual_add(&e->mem, r1cs_partition_bytes(part)); /* group_drop_member takes it off */
    pthread_mutex_unlock(&e->mu);
    return ok;
}

/* ---- the CPU re-proof's memory (memory.h) ------------------------------------------ */

typedef struct {
    cuzk_engine *e;
    const engine_group *g;
    uint64_t held;
} retry_budget;

/* Host bytes a CPU re-proof of p needs beyond what its member reserved: the
 * CPU prover's working memory (in the member's reservation only on a CPU
 * device) and, for a deferred partition, the a, b, c and aux it expands. */
static uint64_t cpu_retry_bytes(const cuzk_engine *e, const engine_group *g,
                                const r1cs_partition *p) {
    uint64_t need =
        groth16_cpu_scratch_bytes(p->num_constraints, p->num_inputs, p->num_aux, e->prover_threads);
    if (r1cs_partition_deferred(p))
        need += (3 * (uint64_t)p->num_constraints + p->num_aux) * sizeof(fr);
    uint64_t have = 0;
    for (size_t k = 0; k < g->n; k++)
        if (&g->parts[k] == p && g->jobs[k])
            have = g->jobs[k]->prove_scratch;
    return need > have ? need - have : 0;
}

/* groth16_retry_guard.acquire: reserves the re-proof's bytes, waiting as a
 * classic retry does (new reservations behind it); refused when they exceed
 * the budget or nothing running could give memory back. */
static int retry_acquire(void *ctx, const r1cs_partition *p, char *why, size_t cap) {
    retry_budget *rb = ctx;
    cuzk_engine *e = rb->e;
    uint64_t need = cpu_retry_bytes(e, rb->g, p);
    rb->held = 0;
    if (!need)
        return 0;
    pthread_mutex_lock(&e->mu);
    e->mem.retry_waiting++;
    int rc = 0;
    for (;;) {
        if (need <= e->mem.budget && engine_pce_make_room(e, need, NULL)) {
            mem_take_retry(&e->mem, need);
            rb->held = need;
            break;
        }
        /* memory comes back only from synthesis and other provers */
        if (need > e->mem.budget || (!e->synth_active && e->prove_active <= e->mem.retry_waiting)) {
            snprintf(why, cap,
                     "memory budget: the CPU re-proof needs %llu bytes, %llu of %llu in use and "
                     "nothing running to give them back",
                     (unsigned long long)need, (unsigned long long)mem_used(&e->mem),
                     (unsigned long long)e->mem.budget);
            rc = -1;
            break;
        }
        e->mem.waits++;
        pthread_cond_wait(&e->cv_mem, &e->mu);
    }
    e->mem.retry_waiting--;
    pthread_cond_broadcast(&e->cv_mem);
    pthread_mutex_unlock(&e->mu);
    return rc;
}

static void retry_release(void *ctx, const r1cs_partition *p) {
    retry_budget *rb = ctx;
    (void)p;
    if (!rb->held)
        return;
    pthread_mutex_lock(&rb->e->mu);
    mem_put_retry(&rb->e->mem, rb->held);
    pthread_cond_broadcast(&rb->e->cv_mem);
    pthread_mutex_unlock(&rb->e->mu);
    rb->held = 0;
}

static void *prover_main(void *arg) {
    struct engine_prover_arg *pa = arg;
    cuzk_engine *e = pa->e;
    engine_device *d = pa->d;
    const char *seed = test_rs_seed(e);
    pthread_mutex_lock(&e->mu);
    for (;;) {
        engine_group **pp;
        int skipped;
        while (!(pp = pick_group(e, d, &skipped))) {
            if (e->dispatcher_done && !e->n_active)
                goto out;
            if (skipped) /* the device that holds the set must look */
                pthread_cond_broadcast(&e->cv_prove);
            pthread_cond_wait(&e->cv_prove, &e->mu);
        }
        engine_group *g = *pp;
        *pp = g->next;
        e->n_queued_groups--;
        /* compact the live members to the front: the backend takes an array */
        size_t m = 0;
        for (size_t k = 0; k < g->n; k++) {
            if (g->jobs[k] && !job_live(g->jobs[k]))
                group_drop_member(e, g, k);
            if (g->jobs[k]) {
                if (m != k) {
                    g->jobs[m] = g->jobs[k];
                    g->parts[m] = g->parts[k];
                    g->reserved[m] = g->reserved[k];
                    g->jobs[k] = NULL;
                    memset(&g->parts[k], 0, sizeof g->parts[k]);
                    g->reserved[k] = 0;
                }
                m++;
            }
        }
        g->n = m;
        if (!m) {
            group_done(e, g);
            continue;
        }
        if (d->failed) { /* no device left to prove it */
            char msg[CUZK_ERROR_LEN];
            no_device_error(e, msg, sizeof msg);
            fail_group(e, g, msg);
            continue;
        }
        pthread_cond_broadcast(&e->cv_prove); /* d may be busy now: others re-check */
        e->prove_active++;
        if (e->prove_active > e->dbg.prove_active_peak)
            e->dbg.prove_active_peak = e->prove_active;
        if (e->prover_threads > e->dbg.prove_threads_max)
            e->dbg.prove_threads_max = e->prover_threads;
        device_begin(d, g->jobs[0]->id, g->jobs[0]->kind, engine_now(e));
        const srs_set *s = g->batch->srs;
        int verify = e->cfg.self_verify;
        int inject = d->index < 32 && (e->fail_mask >> d->index & 1);
        /* taken now: the timeline's start follows the order groups are taken */
        double tw = engine_now(e);
        pthread_mutex_unlock(&e->mu);

        groth16_proof *proofs = calloc(m, sizeof *proofs);
        groth16_proof_check *chk = calloc(m, sizeof *chk);
        double tp0 = tw, tp1 = tp0, prove_ms = 0;
        fr *rs = NULL;
        char fault[GROTH16_MSG_BYTES] = "";
        groth16_status st = GROTH16_OK;
        int faulted = 0;
        int verify_failures = 0, oom = !proofs || !chk || fixed_rs(&rs, seed, g->partition, m) != 0;
        if (!oom)
            faulted = device_call(e, d, inject, proofs, g, m, rs, &prove_ms, &st, fault);
        if (!oom && !faulted) {
            /* self-verify, re-prove a failure once on the CPU backend */
            retry_budget rb = {e, g, 0};
            const groth16_retry_guard guard = {retry_acquire, retry_release, &rb};
            const groth16_prove_opts o = {
                d->backend, e->prover_threads, rs, rs ? rs + m : NULL, verify, &guard};
            groth16_check_proofs(proofs, chk, g->parts, m, &s->data, &s->pvk, &o, st, fault);
            for (size_t k = 0; k < m; k++) { /* a PCE partition's failure: classic, once */
                const groth16_prove_opts o1 = {d->backend,
                                               e->prover_threads,
                                               rs ? rs + k : NULL,
                                               rs ? rs + m + k : NULL,
                                               verify,
                                               &guard};
                double t = engine_now(e);
                if (!chk[k].ok && classic_retry(e, g, k, &proofs[k], &chk[k], s, &o1))
                    prove_ms += engine_now(e) - t;
            }
            tp1 = tp0 + prove_ms;
            for (size_t k = 0; k < m; k++) {
                verify_failures += chk[k].verify_failed;
                if (chk[k].retried)
                    engine_log("partition %zu of %s: %s", g->partition, g->jobs[k]->id, chk[k].msg);
            }
        }

        pthread_mutex_lock(&e->mu);
        e->prove_active--;
        if (e->mem.retry_waiting) /* it counts the provers still running */
            pthread_cond_broadcast(&e->cv_mem);
        device_end(d, engine_now(e));
        d->calls++;
        if (faulted) {
            /* out of rotation; the partition goes back for another device */
            device_fail(d, fault);
            engine_log("device %s failed (%s): taken out of rotation; partition %zu of %s goes "
                       "back to the queue",
                       d->name, fault, g->partition, g->jobs[0]->id);
            e->dbg.device_requeues++;
            free(proofs);
            free(chk);
            free(rs);
            group_queue(e, g);
            pthread_cond_broadcast(&e->cv_prove);
            continue;
        }
        if (!oom)
            device_use(d, s, engine_now(e));
        d->partitions += m;
        e->self_verify_failures += (uint64_t)verify_failures;
        double tv = tp1;
        for (size_t k = 0; k < m; k++) {
            engine_job *j = g->jobs[k];
            engine_stage(e, j, (int)g->partition, CUZK_STAGE_PROVE_WAIT, g->synth_end_ms, tw);
            engine_stage(e, j, (int)g->partition, CUZK_STAGE_PROVE, tp0, tp1);
            j->prove_ms += tp1 - tp0;
            if (!oom && verify) {
                /* each partition's check, laid end to end after the backend call */
                engine_stage(e, j, (int)g->partition, CUZK_STAGE_VERIFY, tv, tv + chk[k].verify_ms);
                j->verify_ms += chk[k].verify_ms;
            }
            if (!oom)
                tv += chk[k].verify_ms;
            if (!oom && chk[k].retried) {
                j->cpu_retries++;
                e->cpu_retries++;
            }
            if (!oom && chk[k].ok && job_live(j)) {
                groth16_proof_write(j->proof + g->partition * GROTH16_PROOF_BYTES, &proofs[k]);
                j->n_done++;
            } else if (job_live(j)) {
                j->failed = 1;
                snprintf(j->error, CUZK_ERROR_LEN, "partition %zu: %s", g->partition,
                         oom ? "internal: out of memory" : chk[k].msg);
            }
        }
        free(proofs);
        free(chk);
        free(rs);
        group_done(e, g);
        pthread_cond_broadcast(&e->cv_synth);
        pthread_cond_broadcast(&e->cv_prove);
    }
out:
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---- start and stop -------------------------------------------------------------- */

int pipeline_start(cuzk_engine *e, char err[CUZK_ERROR_LEN]) {
    const cuzk_engine_config *c = &e->cfg;
    unsigned cores = par_cpu_count();
    unsigned synth = c->synthesis_threads, prove = c->gpu_threads;
    /* one fixed split of the cores, however many jobs overlap; with a GPU the
     * prover's host threads only stage uploads and verify, so synthesis gets
     * most of them (issue #28) */
    const int gpu = e->n_devices > 0 && e->devices[0].ordinal >= 0 && !e->devices[0].simulated;
    if (!synth && !prove && gpu) {
        prove = cores / 4 ? (cores / 4 < 4 ? cores / 4 : 4) : 1;
        synth = cores > prove ? cores - prove : 1;
    } else if (!synth && !prove) {
        synth = cores / 2 ? cores / 2 : 1;
        prove = cores > synth ? cores - synth : 1;
    } else if (!synth) {
        synth = cores > prove ? cores - prove : 1;
    } else if (!prove) {
        prove = cores > synth ? cores - synth : 1;
    }
    unsigned maxpar = c->max_parallel_synthesis ? c->max_parallel_synthesis : 18;
    e->synth_workers = synth < maxpar ? synth : maxpar;
    e->synth_cores = synth;
    e->prover_threads = prove;
    e->srs.decode_threads = prove; /* decoding runs while the prover cores wait for it */
    e->prover_workers = 0;         /* each device's workers (device.h) */
    for (unsigned i = 0; i < e->n_devices; i++)
        e->prover_workers += e->devices[i].workers;
    e->max_active = c->pipeline_enabled ? 1 + c->synthesis_lookahead : 1;
    if (!c->pipeline_enabled)
        e->queue_depth = 1;
    else if (c->max_gpu_queue_depth)
        e->queue_depth = c->max_gpu_queue_depth + e->synth_workers + e->prover_workers;
    else
        e->queue_depth = e->synth_workers + 2 * e->prover_workers;

    e->synth_tids = calloc(e->synth_workers, sizeof *e->synth_tids);
    e->prover_tids = calloc(e->prover_workers, sizeof *e->prover_tids);
    e->prover_args = calloc(e->prover_workers, sizeof *e->prover_args);
    for (unsigned i = 0, w = 0; e->prover_args && i < e->n_devices; i++)
        for (unsigned k = 0; k < e->devices[i].workers; k++)
            e->prover_args[w++] = (struct engine_prover_arg){e, &e->devices[i]};
    if (!e->synth_tids || !e->prover_tids || !e->prover_args) {
        snprintf(err, CUZK_ERROR_LEN, "engine: out of memory");
        return -1;
    }
    int rc = pthread_create(&e->dispatcher, NULL, dispatcher_main, e);
    e->started_dispatcher = rc == 0;
    for (unsigned i = 0; rc == 0 && i < e->synth_workers; i++)
        if ((rc = pthread_create(&e->synth_tids[i], NULL, synth_main, e)) == 0)
            e->started_synth++;
    for (unsigned i = 0; rc == 0 && i < e->prover_workers; i++)
        if ((rc = pthread_create(&e->prover_tids[i], NULL, prover_main, &e->prover_args[i])) == 0)
            e->started_prover++;
    if (rc != 0) {
        snprintf(err, CUZK_ERROR_LEN, "engine: cannot start threads: %s", strerror(rc));
        return -1;
    }
    return 0;
}

void pipeline_join(cuzk_engine *e) {
    if (e->started_dispatcher)
        pthread_join(e->dispatcher, NULL);
    else { /* no dispatcher: the workers must still see the end */
        pthread_mutex_lock(&e->mu);
        e->dispatcher_done = 1;
        pthread_cond_broadcast(&e->cv_synth);
        pthread_cond_broadcast(&e->cv_prove);
        pthread_mutex_unlock(&e->mu);
    }
    for (unsigned i = 0; i < e->started_synth; i++)
        pthread_join(e->synth_tids[i], NULL);
    for (unsigned i = 0; i < e->started_prover; i++)
        pthread_join(e->prover_tids[i], NULL);
    e->started_dispatcher = 0;
    e->started_synth = e->started_prover = 0;
    free(e->synth_tids);
    free(e->prover_tids);
    free(e->prover_args);
    e->synth_tids = e->prover_tids = NULL;
    e->prover_args = NULL;
}
