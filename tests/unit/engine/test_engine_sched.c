/* Engine: the request surface and the scheduler.  Unsupported kinds fail
 * cleanly, bad requests are named, request ids are idempotent, results are
 * kept bounded, awaits time out, priorities order dispatch and the batch
 * collector flushes for each of its reasons.  Ordering is forced with gates
 * and by waiting for observable states, never by timing. */
#include "engine_fixture.h"

static void test_unsupported_and_invalid(void) {
    cuzk_engine_config c;
    fx_config(&c);
    char err[CUZK_ERROR_LEN];
    cuzk_engine *e = cuzk_engine_new(&c, err);
    CHECK(e != NULL);
    static const char *names[] = {"", "porep-c2", "snap-update", "window-post", "winning-post"};
    /* a new engine knows no Filecoin circuit; the registration adds them */
    cuzk_request r0;
    memset(&r0, 0, sizeof r0);
    r0.kind = CUZK_KIND_POREP_C2;
    CHECK(cuzk_engine_submit(e, &r0, NULL, err) == CUZK_E_UNSUPPORTED);
    CHECK(strcmp(err, "unsupported: porep-c2 circuit not built yet") == 0);
    CHECK(engine_register_filecoin_providers(e, err) == CUZK_OK);
    for (int k = 1; k < CUZK_KIND_COUNT; k++) {
        cuzk_request r;
        memset(&r, 0, sizeof r);
        r.kind = (cuzk_proof_kind)k;
        r.vanilla_proof = (const uint8_t *)"{}";
        r.vanilla_proof_len = 2;
        cuzk_submit_info info;
        err[0] = 0;
        if (k == CUZK_KIND_POREP_C2) { /* registered: "{}" is no C1 output */
            CHECK(cuzk_engine_submit(e, &r, &info, err) == CUZK_E_INVALID);
            CHECK(strstr(err, "vanilla_proof") != NULL);
            if (!strstr(err, "vanilla_proof"))
                fprintf(stderr, "  got: %s\n", err);
            continue;
        }
        if (k == CUZK_KIND_WINDOW_POST || k == CUZK_KIND_WINNING_POST) {
            /* registered (FallbackPoSt): a request without PoSt fields is named bad */
            CHECK(cuzk_engine_submit(e, &r, &info, err) == CUZK_E_INVALID);
            CHECK(strstr(err, k == CUZK_KIND_WINDOW_POST ? "not a WindowPoSt proof"
                                                         : "randomness: missing") != NULL);
            continue;
        }
        if (k == CUZK_KIND_SNAP_DEALS) { /* registered: no commitments */
            CHECK(cuzk_engine_submit(e, &r, &info, err) == CUZK_E_INVALID);
            CHECK(strstr(err, "comm_r_old: missing") != NULL);
            continue;
        }
        CHECK(cuzk_engine_submit(e, &r, &info, err) == CUZK_E_UNSUPPORTED);
        char want[128];
        snprintf(want, sizeof want, "unsupported: %s circuit not built yet", names[k]);
        CHECK(strcmp(err, want) == 0);
    }
    cuzk_request r;
    memset(&r, 0, sizeof r);
    r.kind = (cuzk_proof_kind)7;
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    CHECK(strcmp(err, "invalid proof_kind: 7") == 0);
    r.kind = CUZK_KIND_UNSPECIFIED;
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    r.kind = CUZK_KIND_POREP_C2;
    r.priority = (cuzk_priority)9;
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    CHECK(cuzk_engine_submit(e, NULL, NULL, err) == CUZK_E_INVALID);

    /* with a provider: a malformed payload is named */
    cuzk_engine_register_provider(e, CUZK_KIND_POREP_C2, &fx_provider);
    r.priority = CUZK_PRIORITY_DEFAULT;
    r.vanilla_proof = (const uint8_t *)"| synthetic circuit=nope partitions=1 seed=1";
    r.vanilla_proof_len = strlen((const char *)r.vanilla_proof);
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    CHECK(strstr(err, "unknown circuit \"nope\"") != NULL);
    r.vanilla_proof = (const uint8_t *)"| synthetic circuit=tiny-a partitions=0 seed=1";
    r.vanilla_proof_len = strlen((const char *)r.vanilla_proof);
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    r.vanilla_proof = (const uint8_t *)"| synthetic circuit=tiny-a partitions=1 seed=1 junk";
    r.vanilla_proof_len = strlen((const char *)r.vanilla_proof);
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    CHECK(strstr(err, "is not \"synthetic circuit=ID") != NULL);
    r.vanilla_proof = (const uint8_t *)"| garbage";
    r.vanilla_proof_len = strlen((const char *)r.vanilla_proof);
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    char longid[200];
    memset(longid, 'x', sizeof longid - 1);
    longid[sizeof longid - 1] = 0;
    r.request_id = longid;
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);

    cuzk_result res;
    CHECK(cuzk_engine_await(e, "no-such-job", 10, &res) == CUZK_E_NOT_FOUND);
    int was = 5;
    CHECK(cuzk_engine_cancel(e, "no-such-job", &was) == CUZK_E_NOT_FOUND && was == 0);
    CHECK(cuzk_kind_default_priority(CUZK_KIND_WINNING_POST) == CUZK_PRIORITY_CRITICAL);
    CHECK(cuzk_kind_default_priority(CUZK_KIND_WINDOW_POST) == CUZK_PRIORITY_HIGH);
    CHECK(cuzk_kind_default_priority(CUZK_KIND_POREP_C2) == CUZK_PRIORITY_NORMAL);
    CHECK(cuzk_kind_default_priority(CUZK_KIND_SNAP_DEALS) == CUZK_PRIORITY_NORMAL);
    CHECK(strcmp(cuzk_kind_label(CUZK_KIND_SNAP_DEALS), "snap_update") == 0);
    cuzk_engine_free(e);
}

static void test_idempotent_and_retention(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.result_keep_count = 2;
    cuzk_engine *e = fx_engine(&c);
    cuzk_submit_info a, b;
    CHECK(fx_submit(e, "same", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 11, "gate=1 gate_part=0", &a) ==
          CUZK_OK);
    CHECK(a.existing == 0 && strcmp(a.job_id, "same") == 0);
    /* a different payload under the same id is refused, naming the id (#32) */
    CHECK(fx_submit(e, "same", CUZK_KIND_POREP_C2, 0, "tiny-b", 1, 12, NULL, &b) == CUZK_E_EXISTS);
    /* the same payload at another priority is the same request */
    CHECK(fx_submit(e, "same", CUZK_KIND_POREP_C2, CUZK_PRIORITY_HIGH, "tiny-a", 2, 11,
                    "gate=1 gate_part=0", &b) == CUZK_OK);
    CHECK(b.existing == 1 && strcmp(b.job_id, "same") == 0);
    fx_open(1);
    CHECK(fx_await_ok(e, "same", "tiny-a", 2, 11));
    CHECK(fx_submit(e, "same", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 11, "gate=1 gate_part=0", &b) ==
          CUZK_OK);
    CHECK(b.existing == 1);
    CHECK(fx_submit(e, "same", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 11, NULL, &b) == CUZK_E_EXISTS);
    pthread_mutex_lock(&fx.mu);
    CHECK(fx.synth_by_seed[11] == 2 && fx.synth_by_seed[12] == 0); /* it ran once */
    pthread_mutex_unlock(&fx.mu);

    /* engine-assigned ids are UUIDv4 */
    CHECK(fx_submit(e, NULL, CUZK_KIND_WINDOW_POST, 0, "tiny-a", 1, 13, NULL, &a) == CUZK_OK);
    CHECK(strlen(a.job_id) == 36 && a.job_id[14] == '4' && a.job_id[8] == '-' && !a.existing);
    CHECK(fx_await_ok(e, a.job_id, "tiny-a", 1, 13));
    cuzk_job_timeline t = fx_timeline(e, a.job_id);
    CHECK(t.priority == CUZK_PRIORITY_HIGH); /* Window PoSt's default */
    cuzk_job_timeline_clear(&t);

    /* keep 2 results: the third finished one pushes "same" out at the next submit */
    CHECK(fx_submit(e, "r3", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 14, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "r3", "tiny-a", 1, 14));
    CHECK(fx_submit(e, "r4", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 15, NULL, NULL) == CUZK_OK);
    cuzk_result res;
    CHECK(cuzk_engine_await(e, "same", 1, &res) == CUZK_E_NOT_FOUND);
    CHECK(fx_await_ok(e, "r3", "tiny-a", 1, 14));
    CHECK(fx_await_ok(e, "r4", "tiny-a", 1, 15));
    /* a pruned id is new again */
    CHECK(fx_submit(e, "same", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 16, NULL, &b) == CUZK_OK);
    CHECK(b.existing == 0);
    CHECK(fx_await_ok(e, "same", "tiny-a", 1, 16));
    cuzk_engine_free(e);
}

/* Results also age out: kept for result_keep_s seconds. */
static void test_result_age(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.result_keep_s = 1;
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "old", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 17, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "old", "tiny-a", 1, 17));
    FX_WAIT_FOR(fx_state_of(e, "old") == (cuzk_job_state)-1); /* the dispatcher prunes it */
    cuzk_result res;
    CHECK(cuzk_engine_await(e, "old", 1, &res) == CUZK_E_NOT_FOUND);
    cuzk_engine_free(e);
}

static void test_await_timeout(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "slow", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 21, "gate=2 gate_part=1",
                    NULL) == CUZK_OK);
    FX_WAIT_FOR(fx.entered[2] == 1);
    cuzk_result res;
    CHECK(cuzk_engine_await(e, "slow", 30, &res) == CUZK_E_TIMEOUT);
    CHECK(res.state == CUZK_JOB_RUNNING && res.proof == NULL && strcmp(res.job_id, "slow") == 0);
    cuzk_result_clear(&res);
    fx_open(2);
    CHECK(fx_await_ok(e, "slow", "tiny-a", 2, 21));
    cuzk_engine_free(e);
}

/* max_pending_jobs: beyond it submit answers CUZK_E_EXHAUSTED. */
static void test_queue_limit(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.pipeline_enabled = 0;
    c.max_pending_jobs = 1;
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "run", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 25, "gate=6 gate_part=0", NULL) ==
          CUZK_OK);
    FX_WAIT_FOR(fx.entered[6] == 1);
    CHECK(fx_submit(e, "q1", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 26, NULL, NULL) == CUZK_OK);
    char text[] = "| synthetic circuit=tiny-a partitions=1 seed=27";
    cuzk_request r;
    memset(&r, 0, sizeof r);
    r.request_id = "q2";
    r.kind = CUZK_KIND_POREP_C2;
    r.vanilla_proof = (const uint8_t *)text;
    r.vanilla_proof_len = strlen(text);
    char err[CUZK_ERROR_LEN];
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_EXHAUSTED);
    CHECK(strstr(err, "queue full") != NULL);
    cuzk_submit_info info; /* a known id is still answered */
    CHECK(fx_submit(e, "q1", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 26, NULL, &info) == CUZK_OK &&
          info.existing);
    fx_open(6);
    CHECK(fx_await_ok(e, "run", "tiny-a", 1, 25));
    CHECK(fx_await_ok(e, "q1", "tiny-a", 1, 26));
    cuzk_engine_free(e);
}

static uint64_t dseq(cuzk_engine *e, const char *id) {
    cuzk_job_timeline t = fx_timeline(e, id);
    uint64_t s = t.dispatch_seq;
    cuzk_job_timeline_clear(&t);
    return s;
}

static void test_priority_order(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.pipeline_enabled = 0; /* one batch at a time: the gate job holds the rest queued */
    cuzk_engine *e = fx_engine(&c);
    /* The gate is a WinningPoSt, the top priority: a queued job that outranks
     * every active batch is admitted beside it (pipeline.c), and whether the
     * dispatcher did so between two of the submissions below would be timing */
    CHECK(fx_submit(e, "gate", CUZK_KIND_WINNING_POST, 0, "tiny-b", 1, 30, "gate=1 gate_part=0",
                    NULL) == CUZK_OK);
    FX_WAIT_FOR(fx.entered[1] == 1);
    struct {
        const char *id;
        cuzk_proof_kind kind;
        cuzk_priority prio;
        uint32_t want_pos;
    } js[] = {
        {"low1", CUZK_KIND_POREP_C2, CUZK_PRIORITY_LOW, 0},
        {"norm1", CUZK_KIND_POREP_C2, CUZK_PRIORITY_DEFAULT, 0},
        {"high1", CUZK_KIND_SNAP_DEALS, CUZK_PRIORITY_HIGH, 0},
        {"crit1", CUZK_KIND_WINNING_POST, CUZK_PRIORITY_DEFAULT, 0},
        {"norm2", CUZK_KIND_SNAP_DEALS, CUZK_PRIORITY_NORMAL, 3},
        {"low2", CUZK_KIND_WINDOW_POST, CUZK_PRIORITY_LOW, 5},
        {"high2", CUZK_KIND_WINDOW_POST, CUZK_PRIORITY_DEFAULT, 2},
    };
    const size_t n = sizeof js / sizeof js[0];
    for (size_t i = 0; i < n; i++) {
        cuzk_submit_info info;
        CHECK(fx_submit(e, js[i].id, js[i].kind, js[i].prio, i % 2 ? "tiny-a" : "tiny-b", 1, 31 + i,
                        NULL, &info) == CUZK_OK);
        CHECK(info.queue_position == js[i].want_pos);
    }
    cuzk_engine_status st;
    cuzk_engine_get_status(e, &st);
    CHECK(st.pending_by_kind[CUZK_KIND_WINDOW_POST] == 2 &&
          st.running_by_kind[CUZK_KIND_WINNING_POST] == 1);
    cuzk_engine_status_clear(&st);
    fx_open(1);
    for (size_t i = 0; i < n; i++)
        CHECK(fx_await_ok(e, js[i].id, i % 2 ? "tiny-a" : "tiny-b", 1, 31 + i));
    const char *order[] = {"gate", "crit1", "high1", "high2", "norm1", "norm2", "low1", "low2"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        CHECK(dseq(e, order[i]) == i + 1);
    cuzk_engine_free(e);
}

static uint32_t bsize(cuzk_engine *e, const char *id) {
    cuzk_job_timeline t = fx_timeline(e, id);
    uint32_t s = t.batch_size;
    cuzk_job_timeline_clear(&t);
    return s;
}

static uint64_t bid(cuzk_engine *e, const char *id) {
    cuzk_job_timeline t = fx_timeline(e, id);
    uint64_t s = t.batch_id;
    cuzk_job_timeline_clear(&t);
    return s;
}

static int collector_waiting(cuzk_engine *e) {
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    return d.collector_waiting;
}

/* full, priority: a batch of 2 fills; a lone job is held until HIGH work
 * arrives, which flushes it. */
static void test_batch_full_and_priority(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.max_batch_size = 2;
    c.max_batch_wait_ms = 600000; /* never the reason here */
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "a1", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 41, NULL, NULL) == CUZK_OK);
    FX_WAIT_FOR(collector_waiting(e));
    CHECK(fx_state_of(e, "a1") == CUZK_JOB_QUEUED);
    CHECK(fx_submit(e, "a2", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 42, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "a1", "tiny-a", 2, 41));
    CHECK(fx_await_ok(e, "a2", "tiny-a", 2, 42));
    CHECK(bsize(e, "a1") == 2 && bid(e, "a1") == bid(e, "a2"));

    CHECK(fx_submit(e, "a3", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 43, NULL, NULL) == CUZK_OK);
    FX_WAIT_FOR(collector_waiting(e));
    CHECK(fx_state_of(e, "a3") == CUZK_JOB_QUEUED);
    CHECK(fx_submit(e, "h1", CUZK_KIND_WINDOW_POST, 0, "tiny-b", 1, 44, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "a3", "tiny-a", 1, 43));
    CHECK(bsize(e, "a3") == 1);
    FX_WAIT_FOR(collector_waiting(e)); /* h1 waits for a partner now */
    CHECK(fx_submit(e, "h2", CUZK_KIND_WINDOW_POST, 0, "tiny-b", 1, 45, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "h1", "tiny-b", 1, 44));
    CHECK(fx_await_ok(e, "h2", "tiny-b", 1, 45));
    CHECK(bid(e, "h1") == bid(e, "h2") && bsize(e, "h1") == 2);
    CHECK(dseq(e, "a3") < dseq(e, "h1"));
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    CHECK(d.flushes[SCHED_FLUSH_FULL] == 2 && d.flushes[SCHED_FLUSH_PRIORITY] == 1 &&
          d.flushes[SCHED_FLUSH_WAIT] == 0);
    cuzk_engine_free(e);
}

/* wait and order, with and without sort_by_type: everything queued behind a
 * gate job first. */
static void run_order_case(int sort_by_type) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.max_batch_size = 2;
    c.max_batch_wait_ms = 50;
    c.sort_by_type = sort_by_type;
    c.pipeline_enabled = 0;
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "g", CUZK_KIND_POREP_C2, 0, "tiny-b", 1, 50, "gate=3 gate_part=0", NULL) ==
          CUZK_OK);
    FX_WAIT_FOR(fx.entered[3] == 1);
    CHECK(fx_submit(e, "A1", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 51, NULL, NULL) == CUZK_OK);
    CHECK(fx_submit(e, "B1", CUZK_KIND_POREP_C2, 0, "tiny-b", 1, 52, NULL, NULL) == CUZK_OK);
    CHECK(fx_submit(e, "A2", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 53, NULL, NULL) == CUZK_OK);
    fx_open(3);
    CHECK(fx_await_ok(e, "A1", "tiny-a", 1, 51));
    CHECK(fx_await_ok(e, "B1", "tiny-b", 1, 52));
    CHECK(fx_await_ok(e, "A2", "tiny-a", 1, 53));
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    if (sort_by_type) { /* A2 overtakes B1 to ride with A1 */
        CHECK(bid(e, "A1") == bid(e, "A2") && bsize(e, "A1") == 2);
        CHECK(dseq(e, "A2") < dseq(e, "B1"));
        CHECK(d.flushes[SCHED_FLUSH_FULL] == 1 && d.flushes[SCHED_FLUSH_ORDER] == 0);
        CHECK(d.flushes[SCHED_FLUSH_WAIT] == 2); /* g, then B1 */
    } else {                                     /* strict FIFO: B1 between them ends each batch */
        CHECK(bsize(e, "A1") == 1 && bsize(e, "B1") == 1 && bsize(e, "A2") == 1);
        CHECK(dseq(e, "A1") < dseq(e, "B1") && dseq(e, "B1") < dseq(e, "A2"));
        CHECK(d.flushes[SCHED_FLUSH_ORDER] == 2 && d.flushes[SCHED_FLUSH_WAIT] == 2); /* g, A2 */
    }
    cuzk_engine_free(e);
}

int main(void) {
    fx_init();
    test_unsupported_and_invalid();
    test_idempotent_and_retention();
    test_result_age();
    test_await_timeout();
    test_priority_order();
    test_queue_limit();
    test_batch_full_and_priority();
    run_order_case(1);
    run_order_case(0);
    fx_cleanup();
    return check_finish();
}
