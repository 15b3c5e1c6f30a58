/* The engine's public API (include/cuzk/engine.h): life cycle, submit, await,
 * cancel, SRS preload/evict, timelines.  It assembles the parts (job table,
 * scheduler, memory budget, SRS manager, pipeline) and calls down into them;
 * nothing calls back up into this file.
 *
 * A request's path: cuzk_engine_submit validates it and asks the kind's
 * provider for a plan (outside the lock), then, under the lock, dedups by
 * request_id, creates the job and queues it (scheduler.c).  The dispatcher
 * (pipeline.c) turns queued jobs into batches; synthesis and prover workers
 * fill the job's proof slots; job_finish (job.c) records the final state,
 * wakes awaits, and the table prunes old results. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/pce.h"
#include "engine/engine_internal.h"
#include "engine/pipeline.h"
#include "filecoin/hash/blake2b.h"
#include "filecoin/param_digest.h"
#include "filecoin/param_dir.h"
#include "engine/provider_util.h"
#include "util/err.h"

/* The SRS manager's inputs (srs_env), under the engine lock. */
static double srs_now(void *ctx) { return engine_now(ctx); }
static void srs_forget(void *ctx, const groth16_params_data *d) {
    cuzk_engine *e = ctx;
    /* the set whose host copy goes: every device drops its copy too */
    const srs_set *s = (const srs_set *)((const char *)d - offsetof(srs_set, data));
    for (unsigned i = 0; i < e->n_devices; i++)
        device_forget(&e->devices[i], s);
}

/* The prover devices (device.h): simulated ones for tests, else those the
 * caller handed in (config's prover_devices), else the CPU backend. */
static void devices_init(cuzk_engine *e) {
    const cuzk_engine_config *c = &e->cfg;
    unsigned w = c->gpu_workers_per_device ? c->gpu_workers_per_device : 1;
    char name[64];
    e->fail_mask = c->test_fail_devices;
    if (c->simulate_devices) {
        unsigned n =
            c->simulate_devices < ENGINE_MAX_DEVICES ? c->simulate_devices : ENGINE_MAX_DEVICES;
        for (unsigned i = 0; i < n; i++) {
            snprintf(name, sizeof name, "sim%u", i);
            device_init(&e->devices[i], i, -1, name, 1, &groth16_backend_cpu, w);
        }
        e->n_devices = n;
        engine_log("TEST ONLY: gpus.simulate: %u simulated devices on the CPU backend", n);
        return;
    }
    for (size_t i = 0; i < c->n_prover_devices && e->n_devices < ENGINE_MAX_DEVICES; i++) {
        const struct cuzk_prover_device *pd = &c->prover_devices[i];
        if (!pd->backend)
            continue;
        device_init(&e->devices[e->n_devices], e->n_devices, pd->ordinal, pd->name, 0, pd->backend,
                    pd->ordinal >= 0 ? w : 1);
        e->n_devices++;
    }
    if (e->n_devices)
        return;
    /* the CPU backend: one call at a time, prover_threads wide */
    device_init(&e->devices[0], 0, -1, "cpu", 0, &groth16_backend_cpu, 1);
    e->n_devices = 1;
}

/* Where HOT sets keep their points (srs.h): in the file, read by each prover,
 * when every device keeps its own copy; decided before any set is opened. */
static void srs_placement(cuzk_engine *e) {
    const groth16_backend *b[ENGINE_MAX_DEVICES];
    for (unsigned i = 0; i < e->n_devices; i++)
        b[i] = e->devices[i].backend;
    e->srs.file_backed = !groth16_params_on_host(b, e->n_devices);
}

cuzk_engine *cuzk_engine_new(const cuzk_engine_config *cfg, char err[CUZK_ERROR_LEN]) {
    cuzk_engine *e = calloc(1, sizeof *e);
    if (!e) {
        err_set(err, CUZK_ERROR_LEN, "engine: out of memory");
        return NULL;
    }
    if (cfg)
        e->cfg = *cfg;
    else
        cuzk_engine_config_defaults(&e->cfg);
    cuzk_engine_config *c = &e->cfg;
    c->param_cache[sizeof c->param_cache - 1] = 0;
    char why[256];
    if (fc_param_dir(c->param_cache, sizeof c->param_cache, NULL, c->param_cache, NULL, why,
                     sizeof why)) {
        err_set(err, CUZK_ERROR_LEN, "engine: %s", why);
        free(e);
        return NULL;
    }
    if (!c->memory_budget)
        c->memory_budget = mem_auto_budget(c->memory_safety_margin);

    pthread_mutex_init(&e->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* timed waits use the engine clock */
    pthread_cond_init(&e->cv_sched, &ca);
    pthread_cond_init(&e->cv_synth, &ca);
    pthread_cond_init(&e->cv_prove, &ca);
    pthread_cond_init(&e->cv_mem, &ca);
    pthread_cond_init(&e->cv_done, &ca);
    pthread_condattr_destroy(&ca);
    e->t0_ms = timing_now_ms();
    job_table_init(&e->jobs, c->result_keep_count, (double)c->result_keep_s * 1000, &e->cv_done);
    sched_init(&e->sched, c->max_batch_size, (double)c->max_batch_wait_ms, c->sort_by_type);
    mem_init(&e->mem, c->memory_budget);
    e->jobs.mem = &e->mem; /* a final job's request bytes go back */
    srs_env srs_in = {&e->mem, &e->mu, &e->cv_mem, e, srs_now, pipeline_can_release, srs_forget};
    srs_init(&e->srs, c->param_cache, &srs_in);
    e->srs.min_idle_ms = (double)c->eviction_min_idle_s * 1000;
    e->srs.trust_params = c->trust_params || fc_param_trust_env();
    devices_init(e);
    srs_placement(e);
    if (e->srs.file_backed)
        engine_log("parameters: read from their files by the provers, no copy in host memory");
    char perr[CUZK_ERROR_LEN] = "";
    if (pipeline_start(e, perr) != 0) {
        err_set(err, CUZK_ERROR_LEN, "%s", perr);
        cuzk_engine_free(e);
        return NULL;
    }
    return e;
}

void cuzk_engine_shutdown(cuzk_engine *e) {
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    if (e->stopping) { /* another caller drains: wait for it */
        while (!e->shutdown_done)
            pthread_cond_wait(&e->cv_done, &e->mu);
        pthread_mutex_unlock(&e->mu);
        return;
    }
    e->stopping = 1;
    for (engine_job *j; (j = sched_first(&e->sched));) {
        sched_remove(&e->sched, j);
        engine_job_finish(e, j, CUZK_JOB_CANCELLED, "cancelled: the engine is shutting down");
    }
    if (e->cfg.cancel_running_on_shutdown) {
        /* collect first: cancelling may end a batch and free it */
        size_t n = 0, cap = 0;
        for (engine_batch *b = e->active; b; b = b->next)
            cap += b->n_jobs;
        engine_job **run = calloc(cap ? cap : 1, sizeof *run);
        for (engine_batch *b = e->active; run && b; b = b->next)
            for (size_t i = 0; i < b->n_jobs; i++)
                if (!job_is_final(b->jobs[i])) {
                    job_ref(b->jobs[i]);
                    run[n++] = b->jobs[i];
                }
        for (size_t i = 0; i < n; i++) {
            run[i]->cancel_requested = 1;
            pipeline_cancel_job(e, run[i]);
            job_unref(run[i]);
        }
        free(run);
    }
    pthread_cond_broadcast(&e->cv_sched);
    pthread_cond_broadcast(&e->cv_synth);
    pthread_cond_broadcast(&e->cv_prove);
    pthread_cond_broadcast(&e->cv_mem);
    pthread_mutex_unlock(&e->mu);
    pipeline_join(e);
    pthread_mutex_lock(&e->mu);
    e->shutdown_done = 1;
    pthread_cond_broadcast(&e->cv_done);
    pthread_mutex_unlock(&e->mu);
}

void cuzk_engine_free(cuzk_engine *e) {
    if (!e)
        return;
    cuzk_engine_shutdown(e);
    job_table_clear(&e->jobs);
    engine_pce_free_all(e);
    srs_free(&e->srs);
    pthread_cond_destroy(&e->cv_sched);
    pthread_cond_destroy(&e->cv_synth);
    pthread_cond_destroy(&e->cv_prove);
    pthread_cond_destroy(&e->cv_mem);
    pthread_cond_destroy(&e->cv_done);
    pthread_mutex_destroy(&e->mu);
    free(e);
}

cuzk_status cuzk_engine_register_provider(cuzk_engine *e, cuzk_proof_kind kind,
                                          const engine_circuit_provider *p) {
    if (!e || kind <= CUZK_KIND_UNSPECIFIED || kind >= CUZK_KIND_COUNT ||
        (p && (!p->plan || !p->synthesize)))
        return CUZK_E_INVALID;
    pthread_mutex_lock(&e->mu);
    e->has_provider[kind] = p != NULL;
    if (p)
        e->providers[kind] = *p;
    pthread_mutex_unlock(&e->mu);
    return CUZK_OK;
}

cuzk_status cuzk_engine_register_circuit(cuzk_engine *e, const char *circuit_id,
                                         const char *file_stem) {
    if (!e)
        return CUZK_E_INVALID;
    pthread_mutex_lock(&e->mu);
    cuzk_status st = srs_register(&e->srs, circuit_id, file_stem);
    pthread_mutex_unlock(&e->mu);
    return st;
}

void engine_set_prover_backend(cuzk_engine *e, const groth16_backend *b) {
    pthread_mutex_lock(&e->mu);
    for (unsigned i = 0; i < e->n_devices; i++)
        e->devices[i].backend = b ? b : &groth16_backend_cpu;
    int opened = 0; /* an opened set keeps the placement it was opened with */
    for (const srs_set *s = e->srs.sets; s; s = s->next)
        opened |= s->tier != SRS_COLD || s->loading;
    if (!opened)
        srs_placement(e);
    pthread_mutex_unlock(&e->mu);
}

static void existing_info(cuzk_engine *e, engine_job *j, cuzk_submit_info *info);

/* BLAKE2b-256 over the request's content, every field length-framed so that
 * no two requests share an encoding.  The priority is left out: a retry may
 * ask for another. */
static void request_digest(const cuzk_request *r, uint8_t out[32]) {
    blake2b_ctx c;
    blake2b_init(&c, 32, NULL, 0);
    uint64_t nums[] = {(uint64_t)r->kind,    r->registered_proof, r->sector_size,
                       r->sector_number,     r->miner_id,         r->partition_index,
                       r->vanilla_proof_len, r->n_vanilla_proofs};
    blake2b_update(&c, nums, sizeof nums);
    const uint8_t *b32[] = {r->randomness, r->comm_r_old, r->comm_r_new, r->comm_d_new};
    for (size_t i = 0; i < sizeof b32 / sizeof b32[0]; i++) {
        uint8_t present = b32[i] != NULL;
        blake2b_update(&c, &present, 1);
        if (present)
            blake2b_update(&c, b32[i], 32);
    }
    if (r->vanilla_proof_len)
        blake2b_update(&c, r->vanilla_proof, r->vanilla_proof_len);
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
        uint64_t len = r->vanilla_proofs_len[i];
        blake2b_update(&c, &len, sizeof len);
        if (len)
            blake2b_update(&c, r->vanilla_proofs[i], len);
    }
    blake2b_final(&c, out);
}

/* A job already known under the request's id: CUZK_OK with info filled when
 * it is the same request, CUZK_E_EXISTS when the id names another request,
 * or -1 (and the id forgotten) when the caller of the same request went away
 * and a new job should start. */
static int known_job(cuzk_engine *e, engine_job *j, const uint8_t digest[32],
                     cuzk_submit_info *info, char err[CUZK_ERROR_LEN]) {
    if (memcmp(j->digest, digest, 32) != 0) {
        err_set(err, CUZK_ERROR_LEN,
                "request_id \"%.200s\" is already used by a different %s request (other "
                "content); use a new request_id for a new request",
                j->id, cuzk_kind_name(j->kind));
        return CUZK_E_EXISTS;
    }
    if (j->abandoned && j->state != CUZK_JOB_COMPLETED && j->state != CUZK_JOB_FAILED) {
        job_table_detach(&e->jobs, j);
        return -1;
    }
    existing_info(e, j, info);
    return CUZK_OK;
}

static void existing_info(cuzk_engine *e, engine_job *j, cuzk_submit_info *info) {
    snprintf(info->job_id, sizeof info->job_id, "%s", j->id);
    info->queue_position = j->state == CUZK_JOB_QUEUED ? sched_position(&e->sched, j) : 0;
    info->existing = 1;
}

/* ---- the memory a request needs (engine/memory.h) ------------------------------ */

/* The request's vanilla bytes. */
static uint64_t request_len(const cuzk_request *r) {
    uint64_t n = r->vanilla_proof_len;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        n += r->vanilla_proofs_len[i];
    return n;
}

/* Takes n request bytes under the lock (what: "the request" or "the
 * message", len its bytes), waiting while others hold request bytes that
 * will be returned when their jobs end; RESOURCE_EXHAUSTED when n can never
 * fit beside the largest working set. */
static cuzk_status take_request_bytes(cuzk_engine *e, uint64_t n, const char *what, uint64_t len,
                                      char err[CUZK_ERROR_LEN]) {
    while (!mem_request_fits(&e->mem, n)) {
        if (e->stopping) {
            err_set(err, CUZK_ERROR_LEN, "the engine is shutting down");
            return CUZK_E_SHUTDOWN;
        }
        if (!e->mem.req_bytes) {
            err_set(err, CUZK_ERROR_LEN,
                    "memory budget: %s needs %llu bytes (%d x its %llu bytes) beside %llu for "
                    "proving (parameters, one partition, pce), budget is %llu",
                    what, (unsigned long long)n, MEM_REQUEST_COPIES, (unsigned long long)len,
                    (unsigned long long)(e->mem.work_max + e->mem.pce_bytes),
                    (unsigned long long)e->mem.budget);
            return CUZK_E_EXHAUSTED;
        }
        e->mem.waits++;
        /* request bytes come back when a job ends (cv_done); a timed wait
         * also sees the pce and parameter changes */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&e->cv_done, &e->mu, &ts);
    }
    mem_take_req(&e->mem, n);
    return CUZK_OK;
}

static void put_request_bytes(cuzk_engine *e, uint64_t n) {
    if (!n)
        return;
    pthread_mutex_lock(&e->mu);
    mem_put_req(&e->mem, n);
    pthread_cond_broadcast(&e->cv_done);
    pthread_mutex_unlock(&e->mu);
}

uint64_t cuzk_engine_request_limit(cuzk_engine *e) {
    return e ? e->mem.budget / (2 * MEM_REQUEST_COPIES) : 0;
}

cuzk_status cuzk_engine_hold_request(cuzk_engine *e, uint64_t message_len, uint64_t *held,
                                     char err[CUZK_ERROR_LEN]) {
    *held = 0;
    if (!e || !message_len)
        return CUZK_OK;
    uint64_t n = MEM_REQUEST_COPIES * message_len;
    pthread_mutex_lock(&e->mu);
    cuzk_status st = take_request_bytes(e, n, "the message", message_len, err);
    pthread_mutex_unlock(&e->mu);
    if (st == CUZK_OK)
        *held = n;
    return st;
}

void cuzk_engine_release_request(cuzk_engine *e, uint64_t held) {
    if (e)
        put_request_bytes(e, held);
}

/* The prover's working memory on the host for one partition of plan's
 * circuit (0 when its shape is unknown: a circuit the providers did not
 * count).  A GPU's working memory is on the device: its host side is the
 * pinned pool, made once, so GPU devices reserve none (the CPU re-proof of a
 * GPU proof that failed self-verification, a rare path, reserves its own
 * when it runs: pipeline.c's retry_acquire). */
static uint64_t prove_scratch(cuzk_engine *e, const engine_plan *plan) {
    pce_shape_counts c;
    if (e->n_devices > 0 && e->devices[0].ordinal >= 0 && !e->devices[0].simulated)
        return 0;
    if (provider_shape_counts(plan->circuit_id, &c) != 0)
        return 0;
    return groth16_cpu_scratch_bytes(c.rows, c.num_inputs, c.num_aux, e->prover_threads);
}

/* Under the lock: CUZK_OK when a job of this plan can ever run within the
 * budget (its request bytes, its parameters when their size is known, one
 * partition reservation, the pce kept now), which then raises work_max;
 * else RESOURCE_EXHAUSTED naming the need and the budget. */
static cuzk_status fits_budget(cuzk_engine *e, cuzk_proof_kind kind, const engine_plan *plan,
                               uint64_t req_len, uint64_t scratch, char err[CUZK_ERROR_LEN]) {
    cuzk_status st;
    char msg[CUZK_ERROR_LEN];
    srs_set *s = srs_lookup(&e->srs, plan->circuit_id, &st, msg);
    uint64_t params = s ? s->hot_bytes : 0;
    uint64_t work = params + plan->partition_bytes;
    uint64_t need = req_len + work + e->mem.pce_bytes;
    if (need > e->mem.budget) {
        err_set(err, CUZK_ERROR_LEN,
                "memory budget: this %s job needs %llu bytes (request %llu, parameters %llu, "
                "one partition %llu of which prover working memory %llu, pce %llu), budget is "
                "%llu",
                cuzk_kind_name(kind), (unsigned long long)need, (unsigned long long)req_len,
                (unsigned long long)params, (unsigned long long)plan->partition_bytes,
                (unsigned long long)scratch, (unsigned long long)e->mem.pce_bytes,
                (unsigned long long)e->mem.budget);
        return CUZK_E_EXHAUSTED;
    }
    if (work > e->mem.work_max)
        e->mem.work_max = work;
    return CUZK_OK;
}

/* The device memory a partition of this shape needs at least on a GPU: its
 * H and L bases resident (G1, uncompressed), the H step's three vectors and
 * the witness; A, B1 and B2 (sized by densities the counts do not give) and
 * the MSM's pieces come on top.  Parameters are not streamed from the host
 * yet, so a gpus.memory_limit below this can never prove the circuit. */
uint64_t engine_gpu_min_bytes(uint64_t rows, uint64_t num_inputs, uint64_t num_aux) {
    uint64_t m = 1;
    while (m < rows)
        m <<= 1;
    const uint64_t g1 = 96, f = sizeof(fr);
    return (m - 1 + num_aux) * g1 + 3 * m * f + (num_inputs + num_aux) * f;
}

/* Refuses now a job that no device can ever prove under gpus.memory_limit. */
static cuzk_status fits_devices(const cuzk_engine *e, cuzk_proof_kind kind, const engine_plan *plan,
                                char err[CUZK_ERROR_LEN]) {
    int gpus = 0;
    for (unsigned d = 0; d < e->n_devices; d++)
        gpus += e->devices[d].ordinal >= 0 || e->devices[d].simulated;
    if (!e->cfg.gpu_memory_limit || !gpus || !plan->rows)
        return CUZK_OK;
    uint64_t need = engine_gpu_min_bytes(plan->rows, plan->num_inputs, plan->num_aux);
    if (need <= e->cfg.gpu_memory_limit)
        return CUZK_OK;
    err_set(err, CUZK_ERROR_LEN,
            "gpus.memory_limit: a %s partition (%s) needs at least %.1f MiB of device memory "
            "(its H and L parameters, the H step, the witness), the limit is %.1f MiB; "
            "parameters streamed from host memory are not implemented",
            cuzk_kind_name(kind), plan->circuit_id, (double)need / (1 << 20),
            (double)e->cfg.gpu_memory_limit / (1 << 20));
    return CUZK_E_EXHAUSTED;
}

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_request *req, cuzk_submit_info *info,
                               char err[CUZK_ERROR_LEN]) {
    cuzk_submit_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    if (!e || !req) {
        err_set(err, CUZK_ERROR_LEN, "missing request");
        return CUZK_E_INVALID;
    }
    if (req->kind <= CUZK_KIND_UNSPECIFIED || req->kind >= CUZK_KIND_COUNT) {
        err_set(err, CUZK_ERROR_LEN, "invalid proof_kind: %d", (int)req->kind);
        return CUZK_E_INVALID;
    }
    if ((int)req->priority < CUZK_PRIORITY_DEFAULT || req->priority > CUZK_PRIORITY_CRITICAL) {
        err_set(err, CUZK_ERROR_LEN, "invalid priority: %d", (int)req->priority);
        return CUZK_E_INVALID;
    }
    const char *rid = req->request_id && *req->request_id ? req->request_id : NULL;
    if (rid && strlen(rid) >= CUZK_JOB_ID_LEN) {
        err_set(err, CUZK_ERROR_LEN, "request_id longer than %d bytes", CUZK_JOB_ID_LEN - 1);
        return CUZK_E_INVALID;
    }
    cuzk_priority prio = req->priority ? req->priority : cuzk_kind_default_priority(req->kind);
    uint8_t digest[32];
    request_digest(req, digest);

    pthread_mutex_lock(&e->mu);
    if (e->stopping) {
        pthread_mutex_unlock(&e->mu);
        err_set(err, CUZK_ERROR_LEN, "the engine is shutting down");
        return CUZK_E_SHUTDOWN;
    }
    engine_job *known = rid ? job_table_find(&e->jobs, rid) : NULL;
    if (known) {
        int k = known_job(e, known, digest, info, err);
        if (k >= 0) {
            pthread_mutex_unlock(&e->mu);
            return (cuzk_status)k;
        }
    }
    if (!e->has_provider[req->kind]) {
        pthread_mutex_unlock(&e->mu);
        err_set(err, CUZK_ERROR_LEN, "unsupported: %s circuit not built yet",
                cuzk_kind_name(req->kind));
        return CUZK_E_UNSUPPORTED;
    }
    if (e->cfg.max_pending_jobs && e->sched.n_queued >= e->cfg.max_pending_jobs) {
        pthread_mutex_unlock(&e->mu);
        err_set(err, CUZK_ERROR_LEN, "queue full: %u jobs pending", e->cfg.max_pending_jobs);
        return CUZK_E_EXHAUSTED;
    }
    engine_circuit_provider p = e->providers[req->kind];
    /* the request's copies, less what its caller counted already */
    uint64_t req_len = request_len(req), held = MEM_REQUEST_COPIES * req_len;
    held = held > req->held_bytes ? held - req->held_bytes : 0;
    cuzk_status st = held ? take_request_bytes(e, held, "the request", req_len, err) : CUZK_OK;
    pthread_mutex_unlock(&e->mu);
    if (st != CUZK_OK)
        return st;

    /* decode and validate outside the lock: a C1 output is tens of MB */
    engine_plan plan;
    memset(&plan, 0, sizeof plan);
    char perr[CUZK_ERROR_LEN] = "";
    st = p.plan(p.ctx, req, &plan, perr);
    if (st != CUZK_OK) {
        err_set(err, CUZK_ERROR_LEN, "%s: %s", cuzk_kind_name(req->kind),
                perr[0] ? perr : cuzk_status_name(st));
        put_request_bytes(e, held);
        return st;
    }
    plan.circuit_id[sizeof plan.circuit_id - 1] = 0;
    if (!plan.n_partitions || !plan.circuit_id[0] || !plan.partition_bytes) {
        if (p.release)
            p.release(p.ctx, plan.state);
        err_set(err, CUZK_ERROR_LEN, "internal: provider %s returned an empty plan", p.name);
        put_request_bytes(e, held);
        return CUZK_E_INTERNAL;
    }
    uint64_t scratch = prove_scratch(e, &plan);
    plan.partition_bytes += scratch; /* the per-partition reservation (job.h) */

    char id[CUZK_JOB_ID_LEN];
    if (rid)
        snprintf(id, sizeof id, "%s", rid);
    else
        job_uuid4(id);
    pthread_mutex_lock(&e->mu);
    mem_put_req(&e->mem, held); /* the job takes req_len of it back below */
    pthread_cond_broadcast(&e->cv_done);
    st = CUZK_OK;
    int k = -1;
    if (e->stopping) {
        err_set(err, CUZK_ERROR_LEN, "the engine is shutting down");
        st = CUZK_E_SHUTDOWN;
    } else if ((known = job_table_find(&e->jobs, id)) &&
               (k = known_job(e, known, digest, info, err)) >= 0) {
        st = (cuzk_status)k; /* raced with the same id: that job, or another request's id */
    } else if ((st = fits_budget(e, req->kind, &plan, req_len, scratch, err)) != CUZK_OK ||
               (st = fits_devices(e, req->kind, &plan, err)) != CUZK_OK) {
        /* never fits: refused now rather than failed later */
    } else {
        engine_job *j = job_new(id, req->kind, prio, &p, &plan);
        if (!j) {
            err_set(err, CUZK_ERROR_LEN, "internal: out of memory");
            st = CUZK_E_INTERNAL;
        } else {
            memcpy(j->digest, digest, sizeof j->digest);
            snprintf(j->owner, sizeof j->owner, "%s", req->owner ? req->owner : "");
            j->prove_scratch = scratch;
            j->request_bytes = req_len;
            mem_take_req(&e->mem, req_len);
            plan.state = NULL; /* the job owns it now */
            p.release = NULL;
            j->submit_ms = engine_now(e);
            job_table_insert(&e->jobs, j);
            sched_push(&e->sched, j);
            snprintf(info->job_id, sizeof info->job_id, "%s", j->id);
            info->queue_position = sched_position(&e->sched, j);
            job_table_prune(&e->jobs, engine_now(e));
            pthread_cond_broadcast(&e->cv_sched);
        }
    }
    pthread_mutex_unlock(&e->mu);
    if (p.release)
        p.release(p.ctx, plan.state);
    return st;
}

cuzk_status cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                              cuzk_result *out) {
    if (out)
        memset(out, 0, sizeof *out);
    if (!e || !job_id || !out)
        return CUZK_E_INVALID;
    pthread_mutex_lock(&e->mu);
    engine_job *j = job_table_find(&e->jobs, job_id);
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        snprintf(out->job_id, sizeof out->job_id, "%s", job_id);
        return CUZK_E_NOT_FOUND;
    }
    job_ref(j);
    double deadline = engine_now(e) + (double)timeout_ms;
    struct timespec ts;
    double abs_ms = deadline + e->t0_ms;
    ts.tv_sec = (time_t)(abs_ms / 1000);
    ts.tv_nsec = (long)((abs_ms - (double)ts.tv_sec * 1000) * 1e6);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    while (!job_is_final(j)) {
        if (!timeout_ms) {
            pthread_cond_wait(&e->cv_done, &e->mu);
        } else if (engine_now(e) >= deadline) {
            break;
        } else {
            pthread_cond_timedwait(&e->cv_done, &e->mu, &ts);
        }
    }
    cuzk_status st = job_result(j, out);
    if (st == CUZK_OK && !job_is_final(j))
        st = CUZK_E_TIMEOUT;
    job_unref(j);
    pthread_mutex_unlock(&e->mu);
    return st;
}

/* Cancels j under the engine lock: a queued job at once, a running one at
 * its next partition boundary.  abandoned: its caller went away, so its id
 * stays free for a retry (no tombstone). */
static void cancel_locked(cuzk_engine *e, engine_job *j, int *was_running, int abandoned) {
    *was_running = 0;
    job_ref(j);
    if (abandoned && !job_is_final(j) && !j->cancel_requested)
        j->abandoned = 1;
    if (j->state == CUZK_JOB_QUEUED) {
        sched_remove(&e->sched, j);
        engine_job_finish(e, j, CUZK_JOB_CANCELLED, "cancelled while queued%s",
                          abandoned ? " (the caller went away)" : "");
        pthread_cond_broadcast(&e->cv_sched);
    } else if (j->state == CUZK_JOB_RUNNING) {
        *was_running = 1;
        j->cancel_requested = 1;
        pipeline_cancel_job(e, j);
    } /* a final job stays as it is */
    job_unref(j);
}

cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *job_id, int *was_running) {
    return cuzk_engine_cancel_as(e, job_id, NULL, was_running);
}

cuzk_status cuzk_engine_cancel_as(cuzk_engine *e, const char *job_id, const char *caller,
                                  int *was_running) {
    int dummy;
    if (!was_running)
        was_running = &dummy;
    *was_running = 0;
    if (!e || !job_id)
        return CUZK_E_INVALID;
    pthread_mutex_lock(&e->mu);
    cuzk_status st = CUZK_E_NOT_FOUND;
    engine_job *j = job_table_find(&e->jobs, job_id);
    if (j && caller && j->owner[0] && strncmp(j->owner, caller, sizeof j->owner - 1) != 0) {
        st = CUZK_E_DENIED; /* another connection's job */
    } else if (j) {
        cancel_locked(e, j, was_running, 0);
        st = CUZK_OK;
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

cuzk_status cuzk_engine_attach(cuzk_engine *e, const char *job_id, int created) {
    if (!e || !job_id)
        return CUZK_E_INVALID;
    pthread_mutex_lock(&e->mu);
    engine_job *j = job_table_find(&e->jobs, job_id);
    if (j) {
        j->waiters++;
        j->prove_created |= created != 0;
    }
    pthread_mutex_unlock(&e->mu);
    return j ? CUZK_OK : CUZK_E_NOT_FOUND;
}

cuzk_status cuzk_engine_abandon(cuzk_engine *e, const char *job_id, int *cancelled) {
    int dummy;
    if (!cancelled)
        cancelled = &dummy;
    *cancelled = 0;
    if (!e || !job_id)
        return CUZK_E_INVALID;
    pthread_mutex_lock(&e->mu);
    engine_job *j = job_table_find(&e->jobs, job_id);
    if (j) {
        if (j->waiters)
            j->waiters--;
        /* another caller (a retry that re-attached) may still want it */
        if (!j->waiters && j->prove_created && !job_is_final(j)) {
            int was_running;
            cancel_locked(e, j, &was_running, 1);
            *cancelled = 1;
        }
    }
    pthread_mutex_unlock(&e->mu);
    return j ? CUZK_OK : CUZK_E_NOT_FOUND;
}

cuzk_status cuzk_engine_evict_srs(cuzk_engine *e, const char *circuit_id, int *was_loaded,
                                  uint64_t *freed_bytes) {
    int d1;
    uint64_t d2;
    if (!was_loaded)
        was_loaded = &d1;
    if (!freed_bytes)
        freed_bytes = &d2;
    *was_loaded = 0;
    *freed_bytes = 0;
    if (!e || !circuit_id)
        return CUZK_E_INVALID;
    char msg[CUZK_ERROR_LEN];
    pthread_mutex_lock(&e->mu);
    cuzk_status st = CUZK_OK;
    srs_set *s = srs_lookup(&e->srs, circuit_id, &st, msg);
    if (s) {
        *was_loaded = s->tier == SRS_HOT;
        st = srs_evict(&e->srs, s, freed_bytes);
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

cuzk_status cuzk_engine_evict_srs_device(cuzk_engine *e, const char *circuit_id, unsigned device,
                                         int *was_resident, uint64_t *freed_bytes) {
    int d1;
    uint64_t d2;
    if (!was_resident)
        was_resident = &d1;
    if (!freed_bytes)
        freed_bytes = &d2;
    *was_resident = 0;
    *freed_bytes = 0;
    if (!e || !circuit_id)
        return CUZK_E_INVALID;
    pthread_mutex_lock(&e->mu);
    cuzk_status st = CUZK_E_NOT_FOUND;
    char msg[CUZK_ERROR_LEN];
    srs_set *s = device < e->n_devices ? srs_lookup(&e->srs, circuit_id, &st, msg) : NULL;
    const groth16_backend *be = NULL;
    if (s) {
        *was_resident = device_resident(&e->devices[device], s);
        *freed_bytes = device_drop(&e->devices[device], s);
        be = e->devices[device].backend;
        st = CUZK_OK;
    }
    pthread_mutex_unlock(&e->mu);
    /* outside the lock: a GPU's forget waits for the call in progress there
     * (the key is only compared, and a set's struct lives as long as the engine) */
    if (be)
        groth16_backend_forget(be, &s->data);
    return st;
}

cuzk_status cuzk_engine_job_timeline(cuzk_engine *e, const char *job_id, cuzk_job_timeline *out) {
    if (out)
        memset(out, 0, sizeof *out);
    if (!e || !job_id || !out)
        return CUZK_E_INVALID;
    pthread_mutex_lock(&e->mu);
    engine_job *j = job_table_find(&e->jobs, job_id);
    cuzk_status st = CUZK_OK;
    if (!j) {
        st = CUZK_E_NOT_FOUND;
    } else {
        snprintf(out->job_id, sizeof out->job_id, "%s", j->id);
        out->kind = j->kind;
        out->priority = j->priority;
        out->state = j->state;
        snprintf(out->circuit_id, sizeof out->circuit_id, "%s", j->plan.circuit_id);
        out->n_partitions = (uint32_t)j->plan.n_partitions;
        out->submit_seq = j->submit_seq;
        out->dispatch_seq = j->dispatch_seq;
        out->batch_id = j->batch_id;
        out->batch_size = j->batch_size;
        out->cpu_retries = j->cpu_retries;
        if (j->n_events) {
            out->events = malloc(j->n_events * sizeof *out->events);
            if (out->events) {
                memcpy(out->events, j->events, j->n_events * sizeof *out->events);
                out->n_events = j->n_events;
            } else {
                st = CUZK_E_INTERNAL;
            }
        }
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

void cuzk_job_timeline_clear(cuzk_job_timeline *t) {
    if (!t)
        return;
    free(t->events);
    memset(t, 0, sizeof *t);
}

void cuzk_result_clear(cuzk_result *r) {
    if (!r)
        return;
    free(r->proof);
    memset(r, 0, sizeof *r);
}
