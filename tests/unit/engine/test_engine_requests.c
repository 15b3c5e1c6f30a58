/* Engine: every answer right for its request (#32).
 *
 *  - de-duplication by content: the same request_id with other content is
 *    CUZK_E_EXISTS naming the id (the test_engine_sched case covers the
 *    same content returning the same job);
 *  - a job abandoned by its caller (cuzk_engine_abandon: the server's Prove
 *    saw a deadline or a disconnect) is no tombstone: the same request under
 *    its id starts again and completes, running or queued when abandoned;
 *    only the last attached caller abandons (a retry that re-attached, or a
 *    SubmitProof creator, keeps the job); an explicit cancel stays a
 *    tombstone;
 *  - cancel ownership: only the submitting connection or a privileged
 *    caller cancels a job;
 *  - a CRITICAL job is never held by the batch collector, even with
 *    batching on and a long max_batch_wait_ms, while NORMAL work is. */
#include "engine_fixture.h"

static void test_abandon_running_then_retry(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    cuzk_submit_info info;
    CHECK(fx_submit(e, "porep-1000-5", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 301,
                    "gate=1 gate_part=0", &info) == CUZK_OK);
    FX_WAIT_FOR(fx.entered[1] == 1);
    CHECK(cuzk_engine_attach(e, "porep-1000-5", 1) == CUZK_OK); /* the Prove that made it */
    int was = 0;
    CHECK(cuzk_engine_abandon(e, "porep-1000-5", &was) == CUZK_OK && was == 1);
    CHECK(fx_state_of(e, "porep-1000-5") == CUZK_JOB_RUNNING); /* stops at a boundary */
    /* the retry: same id, same content -> a new job, not the cancelled one */
    CHECK(fx_submit(e, "porep-1000-5", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 301,
                    "gate=1 gate_part=0", &info) == CUZK_OK);
    CHECK(info.existing == 0 && strcmp(info.job_id, "porep-1000-5") == 0);
    /* other content under the id is still refused */
    char err[CUZK_ERROR_LEN] = "";
    cuzk_request r;
    memset(&r, 0, sizeof r);
    r.request_id = "porep-1000-5";
    r.kind = CUZK_KIND_POREP_C2;
    r.vanilla_proof = (const uint8_t *)"synthetic circuit=tiny-a partitions=2 seed=302";
    r.vanilla_proof_len = strlen((const char *)r.vanilla_proof);
    CHECK(cuzk_engine_submit(e, &r, &info, err) == CUZK_E_EXISTS);
    CHECK(strstr(err, "porep-1000-5") != NULL && strstr(err, "different") != NULL);
    fx_open(1);
    CHECK(fx_await_ok(e, "porep-1000-5", "tiny-a", 2, 301));
    /* a further retry re-attaches to the finished job */
    CHECK(fx_submit(e, "porep-1000-5", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 301,
                    "gate=1 gate_part=0", &info) == CUZK_OK);
    CHECK(info.existing == 1);
    cuzk_engine_free(e);
}

static void test_abandon_queued_then_retry(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.pipeline_enabled = 0; /* one batch at a time: the second job stays queued */
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "blk", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 311, "gate=2 gate_part=0",
                    NULL) == CUZK_OK);
    FX_WAIT_FOR(fx.entered[2] == 1);
    CHECK(fx_submit(e, "q", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 312, NULL, NULL) == CUZK_OK);
    CHECK(fx_state_of(e, "q") == CUZK_JOB_QUEUED);
    int was = 0;
    CHECK(cuzk_engine_attach(e, "q", 1) == CUZK_OK);
    CHECK(cuzk_engine_abandon(e, "q", &was) == CUZK_OK && was == 1);
    CHECK(fx_state_of(e, "q") == CUZK_JOB_CANCELLED);
    cuzk_submit_info info;
    CHECK(fx_submit(e, "q", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 312, NULL, &info) == CUZK_OK);
    CHECK(info.existing == 0 && fx_state_of(e, "q") == CUZK_JOB_QUEUED);
    /* an explicit cancel is final: the same request then returns CANCELLED */
    CHECK(fx_submit(e, "x", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 313, NULL, NULL) == CUZK_OK);
    CHECK(cuzk_engine_cancel(e, "x", &was) == CUZK_OK);
    CHECK(fx_submit(e, "x", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 313, NULL, &info) == CUZK_OK);
    CHECK(info.existing == 1 && fx_state_of(e, "x") == CUZK_JOB_CANCELLED);
    /* a retry that re-attached before the first caller's departure was seen
     * keeps the job: only the last waiting caller abandons it */
    CHECK(fx_submit(e, "two", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 314, NULL, &info) == CUZK_OK);
    CHECK(cuzk_engine_attach(e, "two", 1) == CUZK_OK);
    CHECK(fx_submit(e, "two", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 314, NULL, &info) == CUZK_OK);
    CHECK(info.existing == 1 && cuzk_engine_attach(e, "two", 0) == CUZK_OK);
    CHECK(cuzk_engine_abandon(e, "two", &was) == CUZK_OK && was == 0);
    CHECK(fx_state_of(e, "two") == CUZK_JOB_QUEUED);
    /* a job made by SubmitProof is kept when a Prove that joined it leaves */
    CHECK(fx_submit(e, "sub", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 315, NULL, &info) == CUZK_OK);
    CHECK(cuzk_engine_attach(e, "sub", 0) == CUZK_OK);
    CHECK(cuzk_engine_abandon(e, "sub", &was) == CUZK_OK && was == 0);
    CHECK(fx_state_of(e, "sub") == CUZK_JOB_QUEUED);
    fx_open(2);
    CHECK(fx_await_ok(e, "blk", "tiny-a", 1, 311));
    CHECK(fx_await_ok(e, "q", "tiny-a", 1, 312));
    CHECK(fx_await_ok(e, "two", "tiny-a", 1, 314));
    CHECK(fx_await_ok(e, "sub", "tiny-a", 1, 315));
    cuzk_engine_free(e);
}

static void test_critical_not_held(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.max_batch_size = 4;
    c.max_batch_wait_ms = 600000; /* far beyond the await below */
    cuzk_engine *e = fx_engine(&c);
    /* a lone WinningPoSt leaves at once (an await far shorter than the wait) */
    CHECK(fx_submit(e, "win", CUZK_KIND_WINNING_POST, 0, "tiny-b", 1, 321, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "win", "tiny-b", 1, 321));
    cuzk_job_timeline t = fx_timeline(e, "win");
    CHECK(t.priority == CUZK_PRIORITY_CRITICAL && t.batch_size == 1);
    cuzk_job_timeline_clear(&t);
    /* NORMAL work is held for a partner (batching really is on here) */
    CHECK(fx_submit(e, "n", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 322, NULL, NULL) == CUZK_OK);
    usleep(300 * 1000);
    CHECK(fx_state_of(e, "n") == CUZK_JOB_QUEUED);
    /* ... and explicit CRITICAL priority on another kind is not */
    CHECK(fx_submit(e, "crit", CUZK_KIND_WINDOW_POST, CUZK_PRIORITY_CRITICAL, "tiny-b", 1, 323,
                    NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "crit", "tiny-b", 1, 323));
    cuzk_engine_free(e);
}

/* A job submitted with an owner (the daemon: its caller's connection). */
static cuzk_status submit_owned(cuzk_engine *e, const char *id, uint64_t seed, const char *owner) {
    char text[200];
    engine_synthetic_request(text, sizeof text, "tiny-a", 1, seed);
    cuzk_request r;
    memset(&r, 0, sizeof r);
    r.request_id = id;
    r.kind = CUZK_KIND_POREP_C2;
    r.vanilla_proof = (const uint8_t *)text;
    r.vanilla_proof_len = strlen(text);
    r.owner = owner;
    cuzk_submit_info info;
    char err[CUZK_ERROR_LEN] = "";
    return cuzk_engine_submit(e, &r, &info, err);
}

/* Cancel ownership (#46): only the job's owner or a privileged caller (NULL,
 * the shared secret) cancels it; anyone else is CUZK_E_DENIED and the job
 * goes on; a retry of the same request from elsewhere does not take the job
 * over; a job without an owner anyone may cancel. */
static void test_cancel_owner(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.pipeline_enabled = 0; /* one batch at a time: the others stay queued */
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "blk", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 321, "gate=3 gate_part=0",
                    NULL) == CUZK_OK);
    FX_WAIT_FOR(fx.entered[3] == 1);
    const char *a = "ipv4:127.0.0.1:40001", *b = "ipv4:127.0.0.1:40002";
    CHECK(submit_owned(e, "own", 322, a) == CUZK_OK);
    CHECK(submit_owned(e, "own", 322, b) == CUZK_OK); /* the same job, still a's */
    int was = 1;
    CHECK(cuzk_engine_cancel_as(e, "own", b, &was) == CUZK_E_DENIED && was == 0);
    CHECK(cuzk_engine_cancel_as(e, "own", "", &was) == CUZK_E_DENIED);
    CHECK(fx_state_of(e, "own") == CUZK_JOB_QUEUED);
    CHECK(cuzk_engine_cancel_as(e, "own", a, &was) == CUZK_OK && was == 0);
    CHECK(fx_state_of(e, "own") == CUZK_JOB_CANCELLED);
    CHECK(submit_owned(e, "own2", 323, a) == CUZK_OK);
    CHECK(cuzk_engine_cancel_as(e, "own2", NULL, &was) == CUZK_OK); /* privileged */
    CHECK(fx_state_of(e, "own2") == CUZK_JOB_CANCELLED);
    CHECK(submit_owned(e, "anyone", 324, NULL) == CUZK_OK);
    CHECK(cuzk_engine_cancel_as(e, "anyone", b, &was) == CUZK_OK);
    CHECK(cuzk_engine_cancel_as(e, "no-such-job", b, &was) == CUZK_E_NOT_FOUND);
    CHECK(strcmp(cuzk_status_name(CUZK_E_DENIED), "permission denied") == 0);
    fx_open(3);
    CHECK(fx_await_ok(e, "blk", "tiny-a", 1, 321));
    cuzk_engine_free(e);
}

int main(void) {
    fx_init();
    test_abandon_running_then_retry();
    test_abandon_queued_then_retry();
    test_critical_not_held();
    test_cancel_owner();
    fx_cleanup();
    return check_finish();
}
