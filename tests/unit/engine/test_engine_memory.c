/* Engine: the memory budget holds for request bytes (engine/memory.h).
 * A request too large for the budget is refused at submit naming its need
 * and the budget; request bytes are held from submit until the job is
 * final and then returned (a kept result holds none); submits beyond the
 * request share wait for running jobs to end instead of failing, and every
 * job completes (no deadlock); a message counted by its caller (the
 * daemon's hold) is refused when it can never fit and otherwise is not
 * counted twice at submit; the CPU re-proof of a proof that failed
 * self-verification is reserved like a partition, or refused; the CPU prover's working-memory
 * estimate covers what prover_cpu.c allocates. */
#include "engine_fixture.h"
#include "groth16/backend.h"

/* "<pad> | synthetic ..." padded so that every request is exactly len bytes;
 * held: what its caller counted (cuzk_request.held_bytes). */
static cuzk_status submit_held(cuzk_engine *e, const char *id, uint64_t seed, size_t len,
                               uint64_t held, char err[CUZK_ERROR_LEN]) {
    char inner[200], text[512];
    size_t n = engine_synthetic_request(inner, sizeof inner, "tiny-a", 1, seed);
    if (len < n + 4 || len >= sizeof text)
        return CUZK_E_INVALID;
    size_t pad = len - n - 3;
    memset(text, 'x', pad);
    snprintf(text + pad, sizeof text - pad, " | %s", inner);
    cuzk_request r;
    memset(&r, 0, sizeof r);
    r.request_id = id;
    r.kind = CUZK_KIND_POREP_C2;
    r.vanilla_proof = (const uint8_t *)text;
    r.vanilla_proof_len = len;
    r.held_bytes = held;
    cuzk_submit_info info;
    return cuzk_engine_submit(e, &r, &info, err);
}

static cuzk_status submit_len(cuzk_engine *e, const char *id, uint64_t seed, size_t len,
                              char err[CUZK_ERROR_LEN]) {
    return submit_held(e, id, seed, len, 0, err);
}

static uint64_t req_bytes(cuzk_engine *e) {
    pthread_mutex_lock(&e->mu);
    uint64_t n = e->mem.req_bytes;
    pthread_mutex_unlock(&e->mu);
    return n;
}

static uint64_t hot_bytes(const cuzk_engine_config *c0) {
    cuzk_engine_config c = *c0;
    cuzk_engine *e = fx_engine(&c);
    char err[CUZK_ERROR_LEN];
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", NULL, NULL, err) == CUZK_OK);
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    uint64_t hot = s.n_srs == 1 ? s.srs[0].size_bytes : 0;
    cuzk_engine_status_clear(&s);
    cuzk_engine_free(e);
    return hot;
}

static void test_refused_at_submit(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.memory_budget = 1000; /* 3 x 400 request bytes never fit */
    cuzk_engine *e = fx_engine(&c);
    char err[CUZK_ERROR_LEN] = "";
    CHECK(submit_len(e, "big", 1, 400, err) == CUZK_E_EXHAUSTED);
    CHECK(strstr(err, "memory budget") && strstr(err, "1200") && strstr(err, "budget is 1000"));
    cuzk_result r;
    CHECK(cuzk_engine_await(e, "big", 1, &r) == CUZK_E_NOT_FOUND); /* no job was made */
    CHECK(req_bytes(e) == 0);
    cuzk_engine_free(e);

    /* parameters known (preloaded) + one partition over the budget: refused
     * at submit naming the parts, not failed later */
    fx_config(&c);
    uint64_t hot = hot_bytes(&c), pb = engine_synthetic_partition_bytes(fx.syn, "tiny-a");
    c.memory_budget = hot + pb / 2;
    e = fx_engine(&c);
    /* the parameters alone fit; with them loaded submit knows their bytes */
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", NULL, NULL, err) == CUZK_OK);
    CHECK(submit_len(e, "nofit", 2, 120, err) == CUZK_E_EXHAUSTED);
    CHECK(strstr(err, "memory budget") && strstr(err, "one partition") && strstr(err, "budget is"));
    CHECK(req_bytes(e) == 0);
    cuzk_engine_free(e);
}

typedef struct {
    cuzk_engine *e;
    const char *id;
    uint64_t seed;
    size_t len;
    cuzk_status st;
    int done;
} submitter;

static void *submit_thread(void *arg) {
    submitter *s = arg;
    char err[CUZK_ERROR_LEN] = "";
    s->st = submit_len(s->e, s->id, s->seed, s->len, err);
    if (s->st != CUZK_OK)
        fprintf(stderr, "submit %s: %s\n", s->id, err);
    pthread_mutex_lock(&fx.mu);
    s->done = 1;
    pthread_mutex_unlock(&fx.mu);
    return NULL;
}

/* Budget: parameters + one partition + five request lengths.  With the
 * prover held, three submits fit (R + 3R, 2R + 3R), the fourth waits; when
 * the prover runs every job completes and the bytes come back. */
static void test_request_bytes_wait(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    uint64_t hot = hot_bytes(&c), pb = engine_synthetic_partition_bytes(fx.syn, "tiny-a");
    const size_t R = 200;
    c.memory_budget = hot + pb + 5 * R;
    fx_reset();
    pthread_mutex_lock(&fx.mu);
    fx.prove_gate_armed = 1;
    pthread_mutex_unlock(&fx.mu);
    cuzk_engine *e = fx_engine(&c);
    char err[CUZK_ERROR_LEN];
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", NULL, NULL, err) == CUZK_OK);
    /* the first job's working set (parameters + one partition) sets work_max */
    CHECK(submit_len(e, "m0", 100, R, err) == CUZK_OK);
    CHECK(req_bytes(e) == R);
    FX_WAIT_FOR(fx.prove_entered == 1);
    CHECK(submit_len(e, "m1", 101, R, err) == CUZK_OK);
    CHECK(submit_len(e, "m2", 102, R, err) == CUZK_OK);
    CHECK(req_bytes(e) == 3 * R);
    submitter s = {e, "m3", 103, R, CUZK_E_INTERNAL, 0};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, submit_thread, &s) == 0);
    usleep(300000);
    pthread_mutex_lock(&fx.mu);
    int early = s.done;
    pthread_mutex_unlock(&fx.mu);
    CHECK(!early); /* 3R held + 3R asked > 5R: it waits */
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    CHECK(d.mem_waits > 0);
    fx_open_prover();
    pthread_join(t, NULL);
    CHECK(s.st == CUZK_OK);
    for (int i = 0; i < 4; i++) {
        char id[16];
        snprintf(id, sizeof id, "m%d", i);
        CHECK(fx_await_ok(e, id, "tiny-a", 1, 100 + (uint64_t)i));
    }
    CHECK(req_bytes(e) == 0); /* final jobs (results kept) hold no request bytes */
    engine_debug_stats_get(e, &d);
    CHECK(d.mem_peak <= c.memory_budget);
    cuzk_engine_free(e);
}

/* Many concurrent submitters against a budget that fits the work (one
 * partition: the floor alone) and one request at a time: all complete,
 * none refused, nothing left held. */
static void test_no_deadlock(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    uint64_t hot = hot_bytes(&c), pb = engine_synthetic_partition_bytes(fx.syn, "tiny-a");
    const size_t R = 150;
    c.memory_budget = hot + pb + 4 * R;
    c.synthesis_threads = 2;
    fx_reset();
    cuzk_engine *e = fx_engine(&c);
    char err[CUZK_ERROR_LEN];
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", NULL, NULL, err) == CUZK_OK);
    CHECK(submit_len(e, "d-first", 200, R, err) == CUZK_OK);
    enum { N = 12 };
    submitter s[N];
    pthread_t t[N];
    char ids[N][16];
    for (int i = 0; i < N; i++) {
        snprintf(ids[i], sizeof ids[i], "d%d", i);
        s[i] = (submitter){e, ids[i], 201 + (uint64_t)i, R, CUZK_E_INTERNAL, 0};
        CHECK(pthread_create(&t[i], NULL, submit_thread, &s[i]) == 0);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        CHECK(s[i].st == CUZK_OK);
    }
    CHECK(fx_await_ok(e, "d-first", "tiny-a", 1, 200));
    for (int i = 0; i < N; i++)
        CHECK(fx_await_ok(e, ids[i], "tiny-a", 1, 201 + (uint64_t)i));
    CHECK(req_bytes(e) == 0);
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    CHECK(d.mem_peak <= c.memory_budget);
    CHECK(d.mem_waits > 0);
    cuzk_engine_free(e);
}

/* A received message (the daemon's) is counted by cuzk_engine_hold_request:
 * the receive limit is a sixth of the budget, a message whose copies can
 * never fit is refused naming the budget, a held one is counted until
 * released, and its submit takes only the job's copy beside the hold, never
 * waiting. */
static void test_held_message(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.memory_budget = 1200;
    cuzk_engine *e = fx_engine(&c);
    CHECK(cuzk_engine_request_limit(e) == 200);
    uint64_t held = 1;
    char err[CUZK_ERROR_LEN] = "";
    CHECK(cuzk_engine_hold_request(e, 401, &held, err) == CUZK_E_EXHAUSTED && held == 0);
    CHECK(strstr(err, "memory budget") && strstr(err, "the message") && strstr(err, "1203") &&
          strstr(err, "budget is 1200"));
    CHECK(cuzk_engine_hold_request(e, 200, &held, err) == CUZK_OK && held == 600);
    CHECK(req_bytes(e) == 600);
    cuzk_engine_release_request(e, held);
    CHECK(req_bytes(e) == 0);
    cuzk_engine_free(e);

    fx_reset();
    fx_config(&c);
    uint64_t hot = hot_bytes(&c), pb = engine_synthetic_partition_bytes(fx.syn, "tiny-a");
    const size_t R = 150;
    c.memory_budget = hot + pb + 4 * R; /* the hold (3R) and the job's copy (R) */
    fx_reset();
    e = fx_engine(&c);
    CHECK(cuzk_engine_hold_request(e, R, &held, err) == CUZK_OK && held == 3 * R);
    CHECK(submit_held(e, "held", 301, R, held, err) == CUZK_OK);
    CHECK(req_bytes(e) == 4 * R);
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    CHECK(d.mem_waits == 0);
    cuzk_engine_release_request(e, held);
    CHECK(fx_await_ok(e, "held", "tiny-a", 1, 301));
    CHECK(req_bytes(e) == 0);
    cuzk_engine_free(e);
}

static uint64_t part_bytes(cuzk_engine *e) {
    pthread_mutex_lock(&e->mu);
    uint64_t n = e->mem.part_bytes;
    pthread_mutex_unlock(&e->mu);
    return n;
}

/* The CPU re-proof of a proof that failed self-verification (the fixture's
 * backend hands out a wrong one) reserves the CPU prover's working memory in
 * the budget (the synthetic circuit is not counted, so its partitions hold
 * none) and gives it back; when it can never fit, the re-proof is refused
 * and the job fails naming the budget, nothing left reserved. */
static void test_cpu_retry_reserved(void) {
    fx_reset();
    pthread_mutex_lock(&fx.mu);
    fx.corrupt_left = 1;
    pthread_mutex_unlock(&fx.mu);
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "rp", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 401, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "rp", "tiny-a", 1, 401));
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    CHECK(d.cpu_retries == 1 && d.mem_retry_peak > 0 && d.mem_retry_reserved == 0);
    CHECK(d.mem_peak <= c.memory_budget);
    FX_WAIT_FOR(part_bytes(e) == 0);
    cuzk_engine_free(e);

    fx_reset();
    fx_config(&c);
    uint64_t hot = hot_bytes(&c), pb = engine_synthetic_partition_bytes(fx.syn, "tiny-a");
    c.memory_budget = hot + pb + 600; /* the work and its request, no room for the re-proof */
    fx_reset();
    pthread_mutex_lock(&fx.mu);
    fx.corrupt_left = 1;
    pthread_mutex_unlock(&fx.mu);
    e = fx_engine(&c);
    CHECK(fx_submit(e, "rq", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 402, NULL, NULL) == CUZK_OK);
    cuzk_result r;
    CHECK(cuzk_engine_await(e, "rq", 60000, &r) == CUZK_OK && r.state == CUZK_JOB_FAILED);
    CHECK(strstr(r.error, "self-verification failed") && strstr(r.error, "memory budget") &&
          strstr(r.error, "CPU re-proof"));
    cuzk_result_clear(&r);
    engine_debug_stats_get(e, &d);
    CHECK(d.cpu_retries == 0 && d.mem_retry_peak == 0 && d.mem_peak <= c.memory_budget);
    FX_WAIT_FOR(part_bytes(e) == 0);
    cuzk_engine_free(e);
}

/* A device whose calls run out of its own memory (a 32 GiB set on a card too
 * small for it) while two workers share it and several multi-partition jobs
 * wait, the CPU re-proof refused by the budget: every job ends (failed,
 * naming the device's memory, or proved) and nothing stays reserved: the
 * engine never waits for a partition that cannot come. */
static void test_device_oom_ends(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    uint64_t hot = hot_bytes(&c), pb = engine_synthetic_partition_bytes(fx.syn, "tiny-a");
    c.memory_budget = hot + 3 * pb + 4096;
    c.simulate_devices = 1;
    c.gpu_workers_per_device = 2;
    c.synthesis_threads = 2;
    pthread_mutex_lock(&fx.mu);
    fx.nomem_left = 3;
    pthread_mutex_unlock(&fx.mu);
    cuzk_engine *e = fx_engine(&c);
    const char *ids[] = {"oom0", "oom1", "oom2", "oom3"};
    for (int i = 0; i < 4; i++)
        CHECK(fx_submit(e, ids[i], CUZK_KIND_POREP_C2, 0, "tiny-a", 3, 500 + i, NULL, NULL) ==
              CUZK_OK);
    int failed = 0, done = 0;
    for (int i = 0; i < 4; i++) {
        cuzk_result r;
        CHECK(cuzk_engine_await(e, ids[i], 60000, &r) == CUZK_OK);
        if (r.state == CUZK_JOB_FAILED) {
            failed++;
            CHECK(strstr(r.error, "out of device memory") != NULL);
        } else {
            CHECK(r.state == CUZK_JOB_COMPLETED);
            done++;
        }
        cuzk_result_clear(&r);
    }
    printf("device out of memory 3 times: %d jobs failed, %d proved\n", failed, done);
    CHECK(failed + done == 4 && done >= 1);
    FX_WAIT_FOR(part_bytes(e) == 0);
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    CHECK(d.mem_retry_reserved == 0 && d.mem_peak <= c.memory_budget);
    cuzk_engine_free(e);
}

/* The estimate covers prover_cpu.c's allocations for a 2^20-row proof:
 * three H copies and H's canonical scalars alone are 4 x 32 x 2^20. */
static void test_scratch_estimate(void) {
    uint64_t rows = 1000000, m = 1 << 20;
    uint64_t s1 = groth16_cpu_scratch_bytes(rows, 2, 500000, 1);
    CHECK(s1 >= 4 * 32 * m + (2 + 500000) * 32);
    CHECK(s1 < 16 * 32 * m);                                   /* not absurd */
    CHECK(groth16_cpu_scratch_bytes(rows, 2, 500000, 8) > s1); /* per-thread buckets */
    CHECK(groth16_cpu_scratch_bytes(2 * rows, 2, 500000, 1) > s1);
}

int main(void) {
    fx_init();
    test_scratch_estimate();
    test_device_oom_ends();
    test_refused_at_submit();
    test_request_bytes_wait();
    test_no_deadlock();
    test_held_message();
    test_cpu_retry_reserved();
    fx_cleanup();
    return check_finish();
}
