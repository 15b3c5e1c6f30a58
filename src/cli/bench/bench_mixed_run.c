/* One run of the mixed workload: see bench_mixed_run.h. */
#include "cli/bench/bench_mixed_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/engine_devices.h"
#include "cli/porep_params.h"
#include "engine/providers.h"
#include "groth16/verify.h"
#include "util/timing.h"

/* The kind's .vk from the parameter directory, ready to verify. */
static int pvk_load(groth16_pvk *pvk, const bench_mix_input *in, const char *dir) {
    char params[4096], vk[4096], meta[4096];
    groth16_vk v;
    groth16_error ge;
    if (params_paths_of(params, vk, meta, sizeof vk, dir, &in->circuit)) {
        fprintf(stderr, "cuzk bench engine: parameter path too long\n");
        return -1;
    }
    if (groth16_vk_load(&v, vk, &ge) != GROTH16_OK) {
        fprintf(stderr, "cuzk bench engine: %s: %s\n", vk, ge.msg);
        return -1;
    }
    int rc = groth16_pvk_prepare(pvk, &v, &ge) == GROTH16_OK ? 0 : -1;
    if (rc)
        fprintf(stderr, "cuzk bench engine: %s: %s\n", vk, ge.msg);
    groth16_vk_free(&v);
    return rc;
}

/* Every partition's proof against the request's own public inputs; 0, or
 * -1 with the reason in why. */
static int verify_all(const groth16_pvk *pvk, const bench_mix_input *in, const uint8_t *proof,
                      size_t len, char *why, size_t cap) {
    if (!proof || len != in->n_parts * GROTH16_PROOF_BYTES) {
        snprintf(why, cap, "%zu proof bytes, %zu partitions expected", len, in->n_parts);
        return -1;
    }
    for (size_t k = 0; k < in->n_parts; k++) {
        groth16_proof p;
        groth16_error ge;
        if (groth16_proof_read(&p, proof + k * GROTH16_PROOF_BYTES, &ge) != GROTH16_OK ||
            groth16_verify(pvk, &p, in->inputs + k * in->n_inputs, in->n_inputs, &ge) !=
                GROTH16_OK) {
            snprintf(why, cap, "partition %zu: %s", k, ge.msg);
            return -1;
        }
    }
    return 0;
}

typedef struct {
    int ok;
    cuzk_proof_kind kind;
    uint64_t dispatch_seq, batch_id;
    uint32_t batch_size;
    double submit, dispatch, prove_start, own; /* own: its SRS load and synthesis */
    double prove;                              /* its proving, summed */
} job_times;

static void times_of(job_times *t, const cuzk_job_timeline *tl) {
    memset(t, 0, sizeof *t);
    t->ok = 1;
    t->kind = tl->kind;
    t->dispatch_seq = tl->dispatch_seq;
    t->batch_id = tl->batch_id;
    t->batch_size = tl->batch_size;
    t->prove_start = -1;
    for (size_t k = 0; k < tl->n_events; k++) {
        const cuzk_timeline_event *ev = &tl->events[k];
        if (ev->stage == CUZK_STAGE_QUEUE) {
            t->submit = ev->start_ms;
            t->dispatch = ev->end_ms;
        } else if (ev->stage == CUZK_STAGE_SRS_LOAD || ev->stage == CUZK_STAGE_SYNTHESIS) {
            t->own += ev->end_ms - ev->start_ms;
        } else if (ev->stage == CUZK_STAGE_PROVE) {
            t->prove += ev->end_ms - ev->start_ms;
            if (t->prove_start < 0 || ev->start_ms < t->prove_start)
                t->prove_start = ev->start_ms;
        }
    }
}

/* Did job j prove anything between from and to (a WinningPoSt's submit and
 * its own first prove: work it waited for)? */
static int proved_between(const cuzk_job_timeline *j, double from, double to) {
    for (size_t k = 0; k < j->n_events; k++)
        if (j->events[k].stage == CUZK_STAGE_PROVE && j->events[k].end_ms > from &&
            j->events[k].start_ms < to)
            return 1;
    return 0;
}

static void append(char *buf, size_t cap, const char *s) {
    size_t used = strlen(buf);
    if (used < cap)
        snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", s);
}

/* Each WinningPoSt's queue and wait, the jobs of other kinds that left the
 * queue while it was in it (they went ahead of it: it queued behind their
 * batch), and the jobs whose proving it waited for once dispatched. */
static void winning_waits(bench_mix_job *jobs, size_t n, const job_times *t,
                          const cuzk_job_timeline *tl) {
    for (size_t w = 0; w < n; w++) {
        if (jobs[w].mk != MIX_WINNING || !t[w].ok)
            continue;
        jobs[w].queue_ms = t[w].dispatch - t[w].submit;
        jobs[w].wait_ms = t[w].prove_start - t[w].submit - t[w].own;
        jobs[w].own_ms = t[w].own;
        jobs[w].prove_ms = t[w].prove;
        for (size_t j = 0; j < n; j++) {
            if (!t[j].ok || j == w)
                continue;
            if (proved_between(&tl[j], t[w].submit, t[w].prove_start))
                append(jobs[w].waited_for, sizeof jobs[w].waited_for, jobs[j].id);
            if (t[j].kind == CUZK_KIND_WINNING_POST || !t[j].dispatch_seq ||
                t[j].dispatch_seq > t[w].dispatch_seq || t[j].dispatch < t[w].submit)
                continue;
            char what[96];
            snprintf(what, sizeof what, "%s (batch %llu)", jobs[j].id,
                     (unsigned long long)t[j].batch_id);
            jobs[w].behind++;
            append(jobs[w].behind_what, sizeof jobs[w].behind_what, what);
        }
    }
}

static cuzk_engine *engine_start(const bench_mix_config *cfg, size_t n, cli_engine_devices *devs) {
    cuzk_engine_config c;
    cuzk_engine_config_defaults(&c);
    snprintf(c.param_cache, sizeof c.param_cache, "%s", cfg->dir);
    c.synthesis_threads = cfg->synth;
    c.gpu_threads = cfg->prove;
    c.max_batch_size = cfg->batch;
    /* jobs queued together batch at once; a lone one should not wait long */
    c.max_batch_wait_ms = 100;
    c.result_keep_count = (unsigned)n + 16;
    c.use_gpu = cfg->use_gpu;
    cli_engine_test_hooks(&c);
    if (cfg->use_gpu)
        cli_engine_devices_open(devs, &c);
    char err[CUZK_ERROR_LEN];
    cuzk_engine *e = cuzk_engine_new(&c, err);
    if (!e) {
        fprintf(stderr, "cuzk bench engine: %s\n", err);
        return NULL;
    }
    cuzk_engine_status st;
    cuzk_engine_get_status(e, &st);
    const int no_gpu = cfg->use_gpu && st.n_gpus == 0;
    cuzk_engine_status_clear(&st);
    if (no_gpu) { /* the engine falls back to the CPU quietly: a GPU bench must not */
        fprintf(stderr, "cuzk bench engine: --backend cuda: the engine found no usable GPU\n");
    } else if (engine_register_filecoin_providers(e, err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench engine: %s\n", err);
    } else {
        return e;
    }
    cuzk_engine_free(e);
    return NULL;
}

/* Submits the jobs in order, cfg->interval_ms apart; a refused one fails. */
static void submit_all(cuzk_engine *e, bench_mix_job *jobs, size_t n,
                       const bench_mix_input in[MIX_KINDS], double interval_ms, double t0) {
    for (size_t i = 0; i < n; i++) {
        double due = t0 + interval_ms * (double)i, now = timing_now_ms();
        if (due > now)
            usleep((useconds_t)((due - now) * 1000));
        snprintf(jobs[i].id, sizeof jobs[i].id, "bench-mixed-%zu-%s", i,
                 bench_mix_kind_name(jobs[i].mk));
        cuzk_request r;
        bench_mix_request(&r, &in[jobs[i].mk], jobs[i].id);
        cuzk_submit_info info;
        char err[CUZK_ERROR_LEN];
        if (cuzk_engine_submit(e, &r, &info, err) != CUZK_OK)
            fprintf(stderr, "cuzk bench engine: submit %s: %s\n", jobs[i].id, err);
    }
}

/* Awaits, checks and verifies job i; the engine's submit-to-final time is
 * its latency. */
static void await_one(cuzk_engine *e, bench_mix_job *j, const bench_mix_input *in,
                      const groth16_pvk *pvk) {
    cuzk_result res;
    memset(&res, 0, sizeof res);
    cuzk_status st = cuzk_engine_await(e, j->id, 0, &res);
    char why[CUZK_ERROR_LEN + 64] = "";
    if (st != CUZK_OK || res.state != CUZK_JOB_COMPLETED) {
        snprintf(why, sizeof why, "%s%s%s", cuzk_status_name(st), res.error[0] ? ": " : "",
                 res.error);
    } else {
        j->completed = 1;
        j->latency_ms = (double)res.timings.total_ms;
        j->verified = verify_all(pvk, in, res.proof, res.proof_len, why, sizeof why) == 0;
    }
    if (!j->verified)
        fprintf(stderr, "cuzk bench engine: %s: %s%s\n", j->id,
                j->completed ? "completed but NOT verified here: " : "", why);
    cuzk_result_clear(&res);
}

int bench_mix_run(bench_mix_job *jobs, size_t n, const bench_mix_input in[MIX_KINDS],
                  const bench_mix_config *cfg, bench_mix_result *out) {
    memset(out, 0, sizeof *out);
    groth16_pvk pvk[MIX_KINDS];
    int have[MIX_KINDS] = {0};
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const bench_mix_kind k = jobs[i].mk;
        if (!have[k])
            rc = pvk_load(&pvk[k], &in[k], cfg->dir);
        have[k] = rc == 0;
    }
    cli_engine_devices devs = {0};
    cuzk_engine *e = rc == 0 ? engine_start(cfg, n, &devs) : NULL;
    for (int k = 0; e && k < MIX_KINDS; k++) {
        char err[CUZK_ERROR_LEN];
        uint64_t ms = 0; /* before the clock starts: a warm daemon holds every set */
        if (have[k] && cuzk_engine_preload_srs(e, in[k].circuit.id, NULL, &ms, err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench engine: preload %s: %s\n", in[k].circuit.id, err);
            cuzk_engine_free(e);
            e = NULL;
        } else if (have[k]) {
            printf("  %-8s parameters %s preloaded in %.2f s\n", bench_mix_kind_name(in[k].mk),
                   in[k].circuit.id, (double)ms / 1000);
        }
    }
    fflush(stdout);
    const int started = e != NULL;
    if (e) {
        const double t0 = timing_now_ms();
        submit_all(e, jobs, n, in, cfg->interval_ms, t0);
        for (size_t i = 0; i < n; i++)
            await_one(e, &jobs[i], &in[jobs[i].mk], &pvk[jobs[i].mk]);
        out->wall_ms = timing_now_ms() - t0;
        job_times *t = calloc(n, sizeof *t);
        cuzk_job_timeline *tl = calloc(n, sizeof *tl);
        for (size_t i = 0; t && tl && i < n; i++)
            if (cuzk_engine_job_timeline(e, jobs[i].id, &tl[i]) == CUZK_OK)
                times_of(&t[i], &tl[i]);
        if (t && tl)
            winning_waits(jobs, n, t, tl);
        for (size_t i = 0; tl && i < n; i++)
            cuzk_job_timeline_clear(&tl[i]);
        free(tl);
        free(t);
        cuzk_engine_status st;
        cuzk_engine_get_status(e, &st);
        for (size_t d = 0; d < st.n_devices; d++) {
            if (st.devices[d].ordinal >= 0) {
                out->gpu_busy_ms += st.devices[d].busy_ms;
                out->n_gpus++;
            } else {
                out->prover_busy_ms += st.devices[d].busy_ms;
            }
        }
        cuzk_engine_status_clear(&st);
        cuzk_engine_free(e);
    }
    cli_engine_devices_close(&devs);
    for (int k = 0; k < MIX_KINDS; k++)
        if (have[k])
            groth16_pvk_free(&pvk[k]);
    return started ? 0 : -1;
}
