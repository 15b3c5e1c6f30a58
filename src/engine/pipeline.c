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
 * Prover workers (one for the CPU backend, which uses prover_threads cores):
 * take the best queued group, prove it, self-
 * verify every proof against the set's prepared vk, re-prove a failure once
 * on the CPU backend (counted and logged), and store each proof in its job's
 * slot for that partition: proofs are reassembled in partition order.
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

/* TEST ONLY: with CUZK_TEST_ONLY_RS_SEED set, every proof of partition k
 * takes r, s from groth16_rs_from_seed(seed, k), as `cuzk prove porep
 * --rs-seed` does, so a test can hold the daemon's proofs to the CLI's byte
 * for byte.  Such proofs have no zero knowledge: the engine says so loudly. */
static const char *test_rs_seed(void) {
    const char *seed = getenv("CUZK_TEST_ONLY_RS_SEED");
    fr r, s;
    char why[256];
    if (!seed || !*seed)
        return NULL;
    if (groth16_rs_from_seed(&r, &s, seed, 0, why, sizeof why)) {
        engine_log("CUZK_TEST_ONLY_RS_SEED ignored: %s", why);
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

static void *prover_main(void *arg) {
    cuzk_engine *e = arg;
    const char *seed = test_rs_seed();
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->prove_queue) {
            if (e->dispatcher_done && !e->n_active)
                goto out;
            pthread_cond_wait(&e->cv_prove, &e->mu);
        }
        engine_group *g = e->prove_queue;
        e->prove_queue = g->next;
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
        e->prove_active++;
        if (e->prove_active > e->dbg.prove_active_peak)
            e->dbg.prove_active_peak = e->prove_active;
        if (e->prover_threads > e->dbg.prove_threads_max)
            e->dbg.prove_threads_max = e->prover_threads;
        const groth16_backend *be = e->backend;
        snprintf(e->proving_job, sizeof e->proving_job, "%s", g->jobs[0]->id);
        e->proving_kind = g->jobs[0]->kind;
        const srs_set *s = g->batch->srs;
        int verify = e->cfg.self_verify;
        pthread_mutex_unlock(&e->mu);

        double tw = engine_now(e);
        groth16_proof *proofs = calloc(m, sizeof *proofs);
        groth16_proof_check *chk = calloc(m, sizeof *chk);
        double tp0 = engine_now(e), tp1 = tp0, prove_ms = 0;
        fr *rs = NULL;
        int verify_failures = 0, oom = !proofs || !chk || fixed_rs(&rs, seed, g->partition, m) != 0;
        if (!oom) {
            /* prove, self-verify, re-prove a failure once on the CPU backend */
            const groth16_prove_opts o = {be, e->prover_threads, rs, rs ? rs + m : NULL, verify};
            groth16_prove_checked(proofs, chk, g->parts, m, &s->data, &s->pvk, &o, NULL, &prove_ms);
            for (size_t k = 0; k < m; k++) { /* a PCE partition's failure: classic, once */
                const groth16_prove_opts o1 = {be, e->prover_threads, rs ? rs + k : NULL,
                                               rs ? rs + m + k : NULL, verify};
                double t = engine_now(e);
                if (!chk[k].ok &&
                    engine_pce_classic_retry(e, g->jobs[k], g->partition, &g->parts[k], &proofs[k],
                                             &chk[k], &s->data, &s->pvk, &o1))
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
        e->proving_job[0] = 0;
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
    /* one fixed split of the cores, however many jobs overlap */
    if (!synth && !prove) {
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
    e->prover_workers = 1;         /* the CPU backend: one call at a time, prover_threads wide */
    e->max_active = c->pipeline_enabled ? 1 + c->synthesis_lookahead : 1;
    if (!c->pipeline_enabled)
        e->queue_depth = 1;
    else if (c->max_gpu_queue_depth)
        e->queue_depth = c->max_gpu_queue_depth + e->synth_workers + e->prover_workers;
    else
        e->queue_depth = e->synth_workers + 2 * e->prover_workers;

    e->synth_tids = calloc(e->synth_workers, sizeof *e->synth_tids);
    e->prover_tids = calloc(e->prover_workers, sizeof *e->prover_tids);
    if (!e->synth_tids || !e->prover_tids) {
        snprintf(err, CUZK_ERROR_LEN, "engine: out of memory");
        return -1;
    }
    int rc = pthread_create(&e->dispatcher, NULL, dispatcher_main, e);
    e->started_dispatcher = rc == 0;
    for (unsigned i = 0; rc == 0 && i < e->synth_workers; i++)
        if ((rc = pthread_create(&e->synth_tids[i], NULL, synth_main, e)) == 0)
            e->started_synth++;
    for (unsigned i = 0; rc == 0 && i < e->prover_workers; i++)
        if ((rc = pthread_create(&e->prover_tids[i], NULL, prover_main, e)) == 0)
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
    e->synth_tids = e->prover_tids = NULL;
}
