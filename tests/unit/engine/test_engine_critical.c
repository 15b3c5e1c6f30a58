/* A WinningPoSt (default priority: CRITICAL) arriving behind bulk PoRep work
 * is proved next, at partition granularity, not after that work:
 *
 *   pipelined (lookahead 1: two batches active, three synthesis workers):
 *     two 4-partition NORMAL PoRep jobs are active and each holds a partition
 *     in synthesis (gated); the WinningPoSt is admitted beyond max_active and
 *     completes while both gates are still closed;
 *   pipeline off (one batch at a time, one group in flight): a 4-partition
 *     PoRep job is stuck in its partition 1 (gated) and another is queued;
 *     once the gate opens, the WinningPoSt's partition is synthesized and
 *     proved before the PoRep job's partitions 2 and 3, and the queued PoRep
 *     job is dispatched after it.
 * Orderings come from latches and the engine's own timelines, never from
 * timing; a regression shows as an await timeout or a wrong order. */
#include "engine_fixture.h"

/* start (or end) of a partition's stage in a timeline; -1 if absent */
static double stage_at(const cuzk_job_timeline *t, int part, cuzk_stage st, int end) {
    for (size_t i = 0; i < t->n_events; i++)
        if (t->events[i].partition == part && t->events[i].stage == st)
            return end ? t->events[i].end_ms : t->events[i].start_ms;
    return -1;
}

static double last_end(const cuzk_job_timeline *t) {
    double m = -1;
    for (size_t i = 0; i < t->n_events; i++)
        if (t->events[i].end_ms > m)
            m = t->events[i].end_ms;
    return m;
}

static void test_pipelined(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.pipeline_enabled = 1;
    c.synthesis_lookahead = 1;
    c.synthesis_threads = 3;
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "bulk1", CUZK_KIND_POREP_C2, 0, "tiny-a", 4, 200, "gate=1 gate_part=1",
                    NULL) == CUZK_OK);
    CHECK(fx_submit(e, "bulk2", CUZK_KIND_POREP_C2, 0, "tiny-a", 4, 201, "gate=2 gate_part=0",
                    NULL) == CUZK_OK);
    FX_WAIT_FOR(fx.entered[1] == 1 && fx.entered[2] == 1);
    cuzk_job_timeline t1 = fx_timeline(e, "bulk1"), t2 = fx_timeline(e, "bulk2");
    CHECK(t1.state == CUZK_JOB_RUNNING && t2.state == CUZK_JOB_RUNNING);
    CHECK(t1.priority == CUZK_PRIORITY_NORMAL);
    cuzk_job_timeline_clear(&t1);
    cuzk_job_timeline_clear(&t2);

    CHECK(fx_submit(e, "win", CUZK_KIND_WINNING_POST, 0, "tiny-b", 1, 202, NULL, NULL) == CUZK_OK);
    /* both PoRep batches stay blocked: the WinningPoSt must not wait for them */
    CHECK(fx_await_ok(e, "win", "tiny-b", 1, 202));
    cuzk_job_timeline w = fx_timeline(e, "win");
    CHECK(w.priority == CUZK_PRIORITY_CRITICAL);
    cuzk_job_timeline_clear(&w);
    CHECK(fx_state_of(e, "bulk1") == CUZK_JOB_RUNNING &&
          fx_state_of(e, "bulk2") == CUZK_JOB_RUNNING);
    fx_open(1);
    fx_open(2);
    CHECK(fx_await_ok(e, "bulk1", "tiny-a", 4, 200));
    CHECK(fx_await_ok(e, "bulk2", "tiny-a", 4, 201));
    cuzk_engine_free(e);
}

static void test_sequential(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.pipeline_enabled = 0;
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "bulk", CUZK_KIND_POREP_C2, 0, "tiny-a", 4, 210, "gate=3 gate_part=1",
                    NULL) == CUZK_OK);
    FX_WAIT_FOR(fx.entered[3] == 1);
    CHECK(fx_submit(e, "queued", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 211, NULL, NULL) == CUZK_OK);
    CHECK(fx_submit(e, "win", CUZK_KIND_WINNING_POST, 0, "tiny-b", 1, 212, NULL, NULL) == CUZK_OK);
    /* the dispatcher admits the WinningPoSt while bulk still runs */
    FX_WAIT_FOR(fx_state_of(e, "win") == CUZK_JOB_RUNNING);
    CHECK(fx_state_of(e, "queued") == CUZK_JOB_QUEUED);
    fx_open(3);
    CHECK(fx_await_ok(e, "win", "tiny-b", 1, 212));
    CHECK(fx_await_ok(e, "bulk", "tiny-a", 4, 210));
    CHECK(fx_await_ok(e, "queued", "tiny-a", 1, 211));
    cuzk_job_timeline b = fx_timeline(e, "bulk"), w = fx_timeline(e, "win"),
                      q = fx_timeline(e, "queued");
    double win_done = last_end(&w);
    double b1_proved = stage_at(&b, 1, CUZK_STAGE_PROVE, 1);
    double b2_synth = stage_at(&b, 2, CUZK_STAGE_SYNTHESIS, 0);
    double b3_synth = stage_at(&b, 3, CUZK_STAGE_SYNTHESIS, 0);
    double w_synth = stage_at(&w, 0, CUZK_STAGE_SYNTHESIS, 0);
    printf("sequential: bulk p1 proved %.1f, win synthesis %.1f done %.1f, bulk p2 synthesis "
           "%.1f p3 %.1f (ms)\n",
           b1_proved, w_synth, win_done, b2_synth, b3_synth);
    CHECK(w_synth >= b1_proved && b1_proved >= 0); /* the partition in flight finishes first */
    CHECK(win_done >= 0 && win_done <= b2_synth && win_done <= b3_synth);
    CHECK(w.dispatch_seq == 2 && q.dispatch_seq == 3);
    cuzk_job_timeline_clear(&b);
    cuzk_job_timeline_clear(&w);
    cuzk_job_timeline_clear(&q);
    cuzk_engine_free(e);
}

int main(void) {
    fx_init();
    test_pipelined();
    test_sequential();
    fx_cleanup();
    return check_finish();
}
