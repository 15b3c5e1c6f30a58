/* Engine: 200 concurrent submissions from four threads, every kind and
 * priority mixed, two circuits, 1-3 partitions each, batching and
 * pipelining on, some request ids submitted twice.  None may be lost or
 * duplicated: every job completes exactly once, each partition is
 * synthesized and proven exactly once, and every proof verifies against the
 * .vk on disk (checked in one batch per circuit). */
#include "engine_fixture.h"

#define N_JOBS 200
#define N_THREADS 4

typedef struct {
    char id[32];
    cuzk_proof_kind kind;
    cuzk_priority prio;
    const char *circuit;
    unsigned parts;
    uint64_t seed;
} job_spec;

static job_spec specs[N_JOBS];
static cuzk_engine *eng;
static int submit_fail, existing_seen;

static void *submitter(void *arg) {
    size_t t = (size_t)arg;
    for (size_t i = t; i < N_JOBS; i += N_THREADS) {
        const job_spec *s = &specs[i];
        cuzk_submit_info info;
        cuzk_status st =
            fx_submit(eng, s->id, s->kind, s->prio, s->circuit, s->parts, s->seed, NULL, &info);
        /* every 10th id again, as a retrying client would */
        cuzk_submit_info again;
        cuzk_status st2 = i % 10 == 3 ? fx_submit(eng, s->id, s->kind, s->prio, s->circuit,
                                                  s->parts, s->seed, NULL, &again)
                                      : CUZK_OK;
        pthread_mutex_lock(&fx.mu);
        submit_fail += st != CUZK_OK || info.existing || st2 != CUZK_OK;
        existing_seen +=
            i % 10 == 3 && st2 == CUZK_OK && again.existing && strcmp(again.job_id, s->id) == 0;
        pthread_mutex_unlock(&fx.mu);
    }
    return NULL;
}

/* Batch-verifies every proof of one circuit against its .vk from disk. */
static int verify_all(const char *circuit, uint8_t **proofs) {
    char stem[128], path[512];
    engine_synthetic_stem(stem, circuit);
    snprintf(path, sizeof path, "%s/%s.vk", fx.dir, stem);
    groth16_vk vk;
    groth16_pvk pvk;
    groth16_error ge;
    if (groth16_vk_load(&vk, path, &ge) != GROTH16_OK)
        return 0;
    int ok = groth16_pvk_prepare(&pvk, &vk, &ge) == GROTH16_OK;
    size_t n_in = vk.n_ic - 1, n = 0;
    groth16_proof *pr = calloc(2 * N_JOBS, sizeof *pr);
    fr *inputs = calloc(2 * N_JOBS * n_in, sizeof *inputs);
    engine_circuit_provider p = engine_synthetic_provider(fx.syn);
    for (size_t i = 0; ok && i < N_JOBS; i++) {
        const job_spec *s = &specs[i];
        if (strcmp(s->circuit, circuit) != 0)
            continue;
        char text[200];
        cuzk_request r;
        memset(&r, 0, sizeof r);
        r.vanilla_proof = (const uint8_t *)text;
        r.vanilla_proof_len =
            engine_synthetic_request(text, sizeof text, circuit, s->parts, s->seed);
        engine_plan plan;
        char err[CUZK_ERROR_LEN];
        ok = proofs[i] && p.plan(p.ctx, &r, &plan, err) == CUZK_OK;
        for (unsigned k = 0; ok && k < s->parts; k++, n++) {
            r1cs_partition part;
            ok = p.synthesize(p.ctx, plan.state, k, &part, err) == CUZK_OK &&
                 part.num_inputs - 1 == n_in &&
                 groth16_proof_read(&pr[n], proofs[i] + k * GROTH16_PROOF_BYTES, &ge) == GROTH16_OK;
            if (ok)
                memcpy(&inputs[n * n_in], part.input + 1, n_in * sizeof(fr));
            r1cs_partition_free(&part);
        }
        if (ok)
            p.release(p.ctx, plan.state);
    }
    ok = ok && n > 0 && groth16_verify_batch(&pvk, pr, n, inputs, n_in, &ge) == GROTH16_OK;
    if (!ok)
        fprintf(stderr, "verify_all %s: %s\n", circuit, ge.msg);
    free(pr);
    free(inputs);
    groth16_pvk_free(&pvk);
    groth16_vk_free(&vk);
    return ok;
}

int main(void) {
    fx_init();
    check_seed("test_engine_stress");
    static const cuzk_priority prios[] = {CUZK_PRIORITY_DEFAULT, CUZK_PRIORITY_LOW,
                                          CUZK_PRIORITY_NORMAL, CUZK_PRIORITY_HIGH,
                                          CUZK_PRIORITY_CRITICAL};
    unsigned total_parts = 0;
    for (size_t i = 0; i < N_JOBS; i++) {
        job_spec *s = &specs[i];
        snprintf(s->id, sizeof s->id, "stress-%zu", i);
        s->kind = (cuzk_proof_kind)(1 + check_rand64() % 4);
        s->prio = prios[check_rand64() % 5];
        s->circuit = check_rand64() % 2 ? "tiny-a" : "tiny-b";
        s->parts = 1 + (unsigned)(check_rand64() % 3);
        s->seed = 1000 + i;
        total_parts += s->parts;
    }
    cuzk_engine_config c;
    fx_config(&c);
    c.max_batch_size = 2;
    c.max_batch_wait_ms = 5;
    c.synthesis_threads = 2;
    c.gpu_threads = 1;
    c.synthesis_lookahead = 2;
    c.result_keep_count = N_JOBS;
    eng = fx_engine(&c);
    pthread_t th[N_THREADS];
    for (size_t t = 0; t < N_THREADS; t++)
        pthread_create(&th[t], NULL, submitter, (void *)t);
    for (size_t t = 0; t < N_THREADS; t++)
        pthread_join(th[t], NULL);
    CHECK(submit_fail == 0);
    CHECK(existing_seen == N_JOBS / 10);

    uint8_t *proofs[N_JOBS] = {0};
    int completed = 0;
    for (size_t i = 0; i < N_JOBS; i++) {
        cuzk_result r;
        if (cuzk_engine_await(eng, specs[i].id, 120000, &r) == CUZK_OK &&
            r.state == CUZK_JOB_COMPLETED && r.proof_len == specs[i].parts * GROTH16_PROOF_BYTES) {
            completed++;
            proofs[i] = r.proof;
            r.proof = NULL;
        } else {
            fprintf(stderr, "%s: state %d \"%s\"\n", specs[i].id, (int)r.state, r.error);
        }
        cuzk_result_clear(&r);
    }
    CHECK(completed == N_JOBS);
    cuzk_engine_status st;
    cuzk_engine_get_status(eng, &st);
    CHECK(st.completed == N_JOBS && st.failed == 0 && st.cancelled == 0);
    uint64_t by_kind = 0;
    for (int k = 0; k < CUZK_KIND_COUNT; k++)
        by_kind += st.completed_by_kind[k];
    CHECK(by_kind == N_JOBS);
    cuzk_engine_status_clear(&st);
    pthread_mutex_lock(&fx.mu);
    CHECK(fx.synth_calls == total_parts);
    CHECK(fx.prove_partitions == total_parts);
    for (size_t i = 0; i < N_JOBS; i++)
        CHECK(fx.synth_by_seed[specs[i].seed] == specs[i].parts);
    CHECK(fx.synth_max <= 2 && fx.prove_max == 1);
    pthread_mutex_unlock(&fx.mu);
    /* dispatch respected priority among jobs that were queued together:
     * every job ran exactly once (dispatch_seq unique) */
    uint64_t *seen = calloc(N_JOBS + 1, sizeof *seen);
    for (size_t i = 0; i < N_JOBS; i++) {
        cuzk_job_timeline t = fx_timeline(eng, specs[i].id);
        CHECK(t.dispatch_seq >= 1 && t.dispatch_seq <= N_JOBS);
        if (t.dispatch_seq >= 1 && t.dispatch_seq <= N_JOBS)
            seen[t.dispatch_seq]++;
        cuzk_job_timeline_clear(&t);
    }
    for (size_t i = 1; i <= N_JOBS; i++)
        CHECK(seen[i] == 1);
    free(seen);
    cuzk_engine_free(eng);
    CHECK(verify_all("tiny-a", proofs));
    CHECK(verify_all("tiny-b", proofs));
    for (size_t i = 0; i < N_JOBS; i++)
        free(proofs[i]);
    fx_cleanup();
    return check_finish();
}
