/* Shared by the engine tests: test-only parameters in a temporary parameter
 * cache, the synthetic provider wrapped with gates (so tests control ordering
 * with latches, never with timing), an instrumented CPU backend, and an
 * independent check of returned proofs (the .vk read from disk, the public
 * inputs re-synthesized).
 *
 * Request text: "[gate=G] [gate_part=P] [fail_part=F] | synthetic ..."; the
 * part after '|' goes to the synthetic provider.  Gate G (1..7) blocks the
 * synthesis of partition P until fx_open(G); fail_part makes partition F's
 * synthesis fail; pce_fail_part=F (fx_provider_pce) makes the PCE path fail
 * from partition F on where the engine falls back itself. */
#ifndef CUZK_TEST_ENGINE_FIXTURE_H
#define CUZK_TEST_ENGINE_FIXTURE_H

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "engine/engine_internal.h"
#include "engine/providers.h"
#include "engine/synthetic.h"
#include "groth16/proof.h"
#include "groth16/prover.h"
#include "groth16/verify.h"

#define FX_GATES 8
#define FX_FN static __attribute__((unused))

static struct {
    char dir[256];
    engine_synthetic *syn;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int open[FX_GATES], entered[FX_GATES];
    int synth_active, synth_max;
    unsigned long synth_calls;
    unsigned long synth_by_seed[4096]; /* per seed (seed < 4096), partitions synthesized */
    /* backend */
    int prove_gate_armed, prove_gate_open, prove_entered;
    int corrupt_left;
    int nomem_left; /* calls that fail as a GPU out of device memory does */
    int prove_active, prove_max;
    unsigned prove_threads_max;
    unsigned long prove_calls, prove_partitions;
} fx = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

typedef struct {
    void *inner;
    int gate, gate_part, fail_part, pce_fail_part;
    uint64_t seed;
} fx_state;

FX_FN cuzk_status fx_plan(void *ctx, const cuzk_request *req, engine_plan *out,
                          char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    char text[512];
    if (!req->vanilla_proof || req->vanilla_proof_len >= sizeof text) {
        snprintf(err, CUZK_ERROR_LEN, "fixture: no request text");
        return CUZK_E_INVALID;
    }
    memcpy(text, req->vanilla_proof, req->vanilla_proof_len);
    text[req->vanilla_proof_len] = 0;
    char *bar = strchr(text, '|');
    fx_state st = {NULL, 0, -1, -1, -1, 0};
    const char *inner_text = text;
    if (bar) {
        *bar = 0;
        inner_text = bar + 1;
        while (*inner_text == ' ')
            inner_text++;
        char *g;
        if ((g = strstr(text, "gate=")) && (g == text || g[-1] == ' '))
            st.gate = atoi(g + 5);
        if ((g = strstr(text, "gate_part=")))
            st.gate_part = atoi(g + 10);
        if ((g = strstr(text, "fail_part=")) && (g == text || g[-1] == ' '))
            st.fail_part = atoi(g + 10);
        if ((g = strstr(text, "pce_fail_part=")))
            st.pce_fail_part = atoi(g + 14);
    }
    const char *sp = strstr(inner_text, "seed=");
    st.seed = sp ? strtoull(sp + 5, NULL, 10) : 0;
    cuzk_request inner = *req;
    inner.vanilla_proof = (const uint8_t *)inner_text;
    inner.vanilla_proof_len = strlen(inner_text);
    engine_circuit_provider p = engine_synthetic_provider(fx.syn);
    cuzk_status s = p.plan(p.ctx, &inner, out, err);
    if (s != CUZK_OK)
        return s;
    fx_state *w = malloc(sizeof *w);
    *w = st;
    w->inner = out->state;
    out->state = w;
    return CUZK_OK;
}

/* fx_synth, and with use the synthetic provider's PCE path (fx_provider_pce),
 * whose witness path fails from partition pce_fail_part=F on when the engine
 * falls back itself (no_fallback). */
FX_FN cuzk_status fx_synth_with(void *ctx, void *state, size_t part, const engine_pce_use *use,
                                r1cs_partition *out, char err[CUZK_ERROR_LEN]) {
    (void)ctx;
    fx_state *w = state;
    pthread_mutex_lock(&fx.mu);
    fx.synth_calls++;
    if (w->seed < 4096)
        fx.synth_by_seed[w->seed]++;
    if (++fx.synth_active > fx.synth_max)
        fx.synth_max = fx.synth_active;
    if (w->gate > 0 && w->gate < FX_GATES && (int)part == w->gate_part) {
        fx.entered[w->gate]++;
        pthread_cond_broadcast(&fx.cv);
        while (!fx.open[w->gate])
            pthread_cond_wait(&fx.cv, &fx.mu);
    }
    pthread_mutex_unlock(&fx.mu);
    cuzk_status s;
    if ((int)part == w->fail_part) {
        memset(out, 0, sizeof *out);
        snprintf(err, CUZK_ERROR_LEN, "injected failure at partition %zu", part);
        s = CUZK_E_INTERNAL;
    } else if (use && w->pce_fail_part >= 0 && (int)part >= w->pce_fail_part && use->no_fallback) {
        memset(out, 0, sizeof *out);
        snprintf(err, CUZK_ERROR_LEN, "pce synthesis failed: injected at partition %zu", part);
        s = CUZK_E_INTERNAL;
    } else if (use) {
        engine_circuit_provider p = engine_synthetic_provider_pce(fx.syn);
        s = p.synthesize_pce(p.ctx, w->inner, part, use, out, err);
    } else {
        engine_circuit_provider p = engine_synthetic_provider(fx.syn);
        s = p.synthesize(p.ctx, w->inner, part, out, err);
    }
    pthread_mutex_lock(&fx.mu);
    fx.synth_active--;
    pthread_mutex_unlock(&fx.mu);
    return s;
}

FX_FN cuzk_status fx_synth(void *ctx, void *state, size_t part, r1cs_partition *out,
                           char err[CUZK_ERROR_LEN]) {
    return fx_synth_with(ctx, state, part, NULL, out, err);
}

FX_FN void fx_release(void *ctx, void *state) {
    (void)ctx;
    fx_state *w = state;
    engine_circuit_provider p = engine_synthetic_provider(fx.syn);
    p.release(p.ctx, w->inner);
    free(w);
}

static const engine_circuit_provider fx_provider = {"fixture", NULL,       fx_plan,
                                                    fx_synth,  fx_release, NULL};
/* The same with the synthetic circuits' PCE path. */
static const engine_circuit_provider fx_provider_pce = {"fixture-pce", NULL,       fx_plan,
                                                        fx_synth,      fx_release, fx_synth_with};

FX_FN groth16_status fx_prove(void *self, groth16_proof *proofs, const r1cs_partition *parts,
                              size_t n, const groth16_params_data *srs, const fr *r, const fr *s,
                              unsigned threads, groth16_prove_timing *timing, groth16_error *err) {
    (void)self;
    pthread_mutex_lock(&fx.mu);
    fx.prove_calls++;
    fx.prove_partitions += n;
    if (++fx.prove_active > fx.prove_max)
        fx.prove_max = fx.prove_active;
    if (threads > fx.prove_threads_max)
        fx.prove_threads_max = threads;
    if (fx.prove_gate_armed) {
        fx.prove_entered++;
        pthread_cond_broadcast(&fx.cv);
        while (!fx.prove_gate_open)
            pthread_cond_wait(&fx.cv, &fx.mu);
    }
    if (fx.nomem_left > 0) {
        fx.nomem_left--;
        fx.prove_active--;
        pthread_mutex_unlock(&fx.mu);
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "fixture: out of device memory");
    }
    pthread_mutex_unlock(&fx.mu);
    groth16_status st = groth16_prove_cpu(proofs, parts, n, srs, r, s, threads, timing, err);
    pthread_mutex_lock(&fx.mu);
    if (st == GROTH16_OK && fx.corrupt_left > 0) { /* a wrong proof of valid points */
        fx.corrupt_left--;
        g1_affine t = proofs[0].a;
        proofs[0].a = proofs[0].c;
        proofs[0].c = t;
    }
    fx.prove_active--;
    pthread_mutex_unlock(&fx.mu);
    return st;
}

static const groth16_backend fx_backend = {.name = "fixture", .prove = fx_prove};
/* As a GPU's: it takes deferred partitions (the CPU prover evaluates their
 * a, b, c inside the call). */
static const groth16_backend fx_backend_deferring = {
    .name = "fixture-deferring", .prove = fx_prove, .abc_on_device = 1};

FX_FN void fx_open(int g) {
    pthread_mutex_lock(&fx.mu);
    fx.open[g] = 1;
    pthread_cond_broadcast(&fx.cv);
    pthread_mutex_unlock(&fx.mu);
}

FX_FN void fx_open_prover(void) {
    pthread_mutex_lock(&fx.mu);
    fx.prove_gate_open = 1;
    pthread_cond_broadcast(&fx.cv);
    pthread_mutex_unlock(&fx.mu);
}

/* Resets gates and counters between scenarios. */
FX_FN void fx_reset(void) {
    pthread_mutex_lock(&fx.mu);
    memset(fx.open, 0, sizeof fx.open);
    memset(fx.entered, 0, sizeof fx.entered);
    memset(fx.synth_by_seed, 0, sizeof fx.synth_by_seed);
    fx.synth_max = fx.synth_active;
    fx.synth_calls = 0;
    fx.prove_gate_armed = fx.prove_gate_open = fx.prove_entered = 0;
    fx.corrupt_left = fx.nomem_left = 0;
    fx.prove_max = fx.prove_active;
    fx.prove_threads_max = 0;
    fx.prove_calls = fx.prove_partitions = 0;
    pthread_mutex_unlock(&fx.mu);
}

/* Polls cond until true (30 s at most: a hang fails the CHECK, it never
 * decides an ordering). */
#define FX_WAIT_FOR(cond)                                                                    \
    do {                                                                                     \
        int fx_ok_ = 0;                                                                      \
        for (int fx_i_ = 0; fx_i_ < 30000; fx_i_++) {                                        \
            pthread_mutex_lock(&fx.mu);                                                      \
            fx_ok_ = (cond);                                                                 \
            pthread_mutex_unlock(&fx.mu);                                                    \
            if (fx_ok_)                                                                      \
                break;                                                                       \
            usleep(1000);                                                                    \
        }                                                                                    \
        if (!fx_ok_)                                                                         \
            fprintf(stderr, "%s:%d: timed out waiting for %s\n", __FILE__, __LINE__, #cond); \
        CHECK(fx_ok_);                                                                       \
    } while (0)

/* Circuits: "tiny-a" (8 constraints), "tiny-b" (12).  Parameters are
 * generated once per test program into a fresh temporary directory. */
FX_FN void fx_init(void) {
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
    snprintf(fx.dir, sizeof fx.dir, "/tmp/cuzk-engine-test-XXXXXX");
    if (!mkdtemp(fx.dir)) {
        perror("mkdtemp");
        exit(1);
    }
    fx.syn = engine_synthetic_new();
    char err[CUZK_ERROR_LEN];
    if (engine_synthetic_add(fx.syn, "tiny-a", 8, err) != CUZK_OK ||
        engine_synthetic_add(fx.syn, "tiny-b", 12, err) != CUZK_OK ||
        engine_synthetic_write_params(fx.syn, "tiny-a", fx.dir, 1, err) != CUZK_OK ||
        engine_synthetic_write_params(fx.syn, "tiny-b", fx.dir, 1, err) != CUZK_OK) {
        fprintf(stderr, "fixture: %s\n", err);
        exit(1);
    }
}

FX_FN void fx_cleanup(void) {
    DIR *d = opendir(fx.dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char p[600];
        snprintf(p, sizeof p, "%s/%s", fx.dir, de->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(fx.dir);
    engine_synthetic_free(fx.syn);
}

/* TEST ONLY hooks fx_config puts into every config (the engine's
 * test_rs_seed and test_pce_flip): "" and 0 for none. */
static char fx_rs_seed[132];
static int fx_pce_flip;

/* A config for tests: small, explicit thread counts, no idle sweep. */
FX_FN void fx_config(cuzk_engine_config *c) {
    cuzk_engine_config_defaults(c);
    snprintf(c->test_rs_seed, sizeof c->test_rs_seed, "%s", fx_rs_seed);
    c->test_pce_flip = fx_pce_flip;
    snprintf(c->param_cache, sizeof c->param_cache, "%s", fx.dir);
    c->memory_budget = 1ULL << 30;
    c->eviction_min_idle_s = 0;
    c->synthesis_threads = 1;
    c->gpu_threads = 1;
    c->use_gpu = 0;
    c->max_batch_size = 1;
    c->max_batch_wait_ms = 0;
}

/* An engine with the fixture provider for every kind and the instrumented
 * backend. */
FX_FN cuzk_engine *fx_engine(const cuzk_engine_config *c) {
    char err[CUZK_ERROR_LEN];
    cuzk_engine *e = cuzk_engine_new(c, err);
    if (!e) {
        fprintf(stderr, "fixture: engine: %s\n", err);
        exit(1);
    }
    engine_synthetic_register(fx.syn, e);
    for (int k = 1; k < CUZK_KIND_COUNT; k++)
        cuzk_engine_register_provider(e, (cuzk_proof_kind)k, &fx_provider);
    engine_set_prover_backend(e, &fx_backend);
    return e;
}

/* Submits "<prefix> | synthetic circuit=C partitions=N seed=S". */
FX_FN cuzk_status fx_submit(cuzk_engine *e, const char *id, cuzk_proof_kind kind,
                            cuzk_priority prio, const char *circuit, unsigned parts, uint64_t seed,
                            const char *prefix, cuzk_submit_info *info) {
    char text[400], inner[200];
    engine_synthetic_request(inner, sizeof inner, circuit, parts, seed);
    snprintf(text, sizeof text, "%s | %s", prefix ? prefix : "", inner);
    cuzk_request r;
    memset(&r, 0, sizeof r);
    r.request_id = id;
    r.kind = kind;
    r.priority = prio;
    r.vanilla_proof = (const uint8_t *)text;
    r.vanilla_proof_len = strlen(text);
    cuzk_submit_info dummy;
    char err[CUZK_ERROR_LEN] = "";
    cuzk_status st = cuzk_engine_submit(e, &r, info ? info : &dummy, err);
    if (st != CUZK_OK)
        fprintf(stderr, "fx_submit %s: %s: %s\n", id ? id : "(uuid)", cuzk_status_name(st), err);
    return st;
}

/* Checks a returned proof independently: the .vk from disk, the public
 * inputs of each partition re-synthesized.  1 when every partition verifies. */
FX_FN int fx_verify(const char *circuit, unsigned parts, uint64_t seed, const uint8_t *proof,
                    size_t len) {
    if (!proof || len != (size_t)parts * GROTH16_PROOF_BYTES)
        return 0;
    char stem[128], path[512];
    engine_synthetic_stem(stem, circuit);
    snprintf(path, sizeof path, "%s/%s.vk", fx.dir, stem);
    groth16_vk vk;
    groth16_pvk pvk;
    groth16_error ge;
    if (groth16_vk_load(&vk, path, &ge) != GROTH16_OK)
        return 0;
    int ok = groth16_pvk_prepare(&pvk, &vk, &ge) == GROTH16_OK;
    char text[200];
    size_t n = engine_synthetic_request(text, sizeof text, circuit, parts, seed);
    cuzk_request r;
    memset(&r, 0, sizeof r);
    r.vanilla_proof = (const uint8_t *)text;
    r.vanilla_proof_len = n;
    engine_circuit_provider p = engine_synthetic_provider(fx.syn);
    engine_plan plan;
    memset(&plan, 0, sizeof plan);
    char err[CUZK_ERROR_LEN];
    ok = ok && p.plan(p.ctx, &r, &plan, err) == CUZK_OK;
    for (unsigned i = 0; ok && i < parts; i++) {
        r1cs_partition part;
        groth16_proof pr;
        ok = p.synthesize(p.ctx, plan.state, i, &part, err) == CUZK_OK;
        ok = ok && groth16_proof_read(&pr, proof + i * GROTH16_PROOF_BYTES, &ge) == GROTH16_OK;
        ok =
            ok && groth16_verify(&pvk, &pr, part.input + 1, part.num_inputs - 1, &ge) == GROTH16_OK;
        r1cs_partition_free(&part);
    }
    if (plan.state)
        p.release(p.ctx, plan.state);
    groth16_pvk_free(&pvk);
    groth16_vk_free(&vk);
    return ok;
}

/* Awaits a job and checks it COMPLETED with proofs that verify. */
FX_FN int fx_await_ok(cuzk_engine *e, const char *id, const char *circuit, unsigned parts,
                      uint64_t seed) {
    cuzk_result res;
    cuzk_status st = cuzk_engine_await(e, id, 60000, &res);
    int ok = st == CUZK_OK && res.state == CUZK_JOB_COMPLETED &&
             fx_verify(circuit, parts, seed, res.proof, res.proof_len);
    if (!ok)
        fprintf(stderr, "job %s: status %s state %d error \"%s\"\n", id, cuzk_status_name(st),
                (int)res.state, res.error);
    cuzk_result_clear(&res);
    return ok;
}

FX_FN cuzk_job_state fx_state_of(cuzk_engine *e, const char *id) {
    cuzk_job_timeline t;
    if (cuzk_engine_job_timeline(e, id, &t) != CUZK_OK)
        return (cuzk_job_state)-1;
    cuzk_job_state s = t.state;
    cuzk_job_timeline_clear(&t);
    return s;
}

FX_FN cuzk_job_timeline fx_timeline(cuzk_engine *e, const char *id) {
    cuzk_job_timeline t;
    CHECK(cuzk_engine_job_timeline(e, id, &t) == CUZK_OK);
    return t;
}

#endif
