/* Engine: the partition pipeline.  Cancellation while queued, while
 * synthesizing and while proving (memory comes back, later partitions never
 * run); a failing partition fails its job; backpressure keeps reservations
 * and real partition bytes under the budget; a self-verification failure is
 * re-proven once on the CPU (counted); thread budgets hold across
 * overlapping jobs; shutdown drains.  Gates order everything. */
#include "engine_fixture.h"
#include "util/parallel.h"

/* Bytes held now beyond the hot parameter sets: must be 0 when idle. */
static uint64_t part_bytes_now(cuzk_engine *e) {
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    uint64_t hot = 0;
    for (size_t i = 0; i < s.n_srs; i++)
        if (s.srs[i].tier == 0)
            hot += s.srs[i].size_bytes;
    uint64_t used = s.memory_in_use;
    cuzk_engine_status_clear(&s);
    return used - hot;
}

static int idle(cuzk_engine *e) {
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    return d.batches_active == 0 && d.groups_queued == 0;
}

static void test_cancel_queued(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.pipeline_enabled = 0;
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "g", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 60, "gate=1 gate_part=0", NULL) ==
          CUZK_OK);
    FX_WAIT_FOR(fx.entered[1] == 1);
    CHECK(fx_submit(e, "q", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 61, NULL, NULL) == CUZK_OK);
    int was = -1;
    CHECK(cuzk_engine_cancel(e, "q", &was) == CUZK_OK && was == 0);
    cuzk_result r;
    CHECK(cuzk_engine_await(e, "q", 1000, &r) == CUZK_OK && r.state == CUZK_JOB_CANCELLED);
    CHECK(r.proof == NULL && strstr(r.error, "queued") != NULL);
    cuzk_result_clear(&r);
    fx_open(1);
    CHECK(fx_await_ok(e, "g", "tiny-a", 1, 60));
    pthread_mutex_lock(&fx.mu);
    CHECK(fx.synth_by_seed[61] == 0);
    pthread_mutex_unlock(&fx.mu);
    /* cancelling a finished job changes nothing */
    CHECK(cuzk_engine_cancel(e, "g", &was) == CUZK_OK && was == 0);
    CHECK(fx_state_of(e, "g") == CUZK_JOB_COMPLETED);
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    CHECK(s.cancelled == 1 && s.completed == 1);
    cuzk_engine_status_clear(&s);
    cuzk_engine_free(e);
}

static void test_cancel_synthesizing(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c); /* one synthesis worker */
    CHECK(fx_submit(e, "s", CUZK_KIND_POREP_C2, 0, "tiny-a", 4, 62, "gate=2 gate_part=1", NULL) ==
          CUZK_OK);
    FX_WAIT_FOR(fx.entered[2] == 1);
    int was = 0;
    CHECK(cuzk_engine_cancel(e, "s", &was) == CUZK_OK && was == 1);
    CHECK(fx_state_of(e, "s") == CUZK_JOB_RUNNING); /* partition 1 is still in synthesis */
    fx_open(2);
    cuzk_result r;
    CHECK(cuzk_engine_await(e, "s", 60000, &r) == CUZK_OK && r.state == CUZK_JOB_CANCELLED);
    cuzk_result_clear(&r);
    FX_WAIT_FOR(idle(e));
    CHECK(part_bytes_now(e) == 0);
    pthread_mutex_lock(&fx.mu);
    CHECK(fx.synth_by_seed[62] == 2); /* partitions 2 and 3 never started */
    pthread_mutex_unlock(&fx.mu);
    /* the engine goes on */
    CHECK(fx_submit(e, "after", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 63, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "after", "tiny-a", 1, 63));
    cuzk_engine_free(e);
}

static void test_cancel_proving(void) {
    fx_reset();
    pthread_mutex_lock(&fx.mu);
    fx.prove_gate_armed = 1;
    pthread_mutex_unlock(&fx.mu);
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "p", CUZK_KIND_POREP_C2, 0, "tiny-a", 3, 64, NULL, NULL) == CUZK_OK);
    FX_WAIT_FOR(fx.prove_entered == 1);
    /* let synthesis fill the queue behind the blocked prover */
    FX_WAIT_FOR(fx.synth_by_seed[64] == 3);
    engine_debug_stats d;
    for (int i = 0; i < 30000; i++) { /* partitions 1, 2 reach the queue */
        engine_debug_stats_get(e, &d);
        if (d.groups_queued == 2)
            break;
        usleep(1000);
    }
    CHECK(d.groups_queued == 2);
    int was = 0;
    CHECK(cuzk_engine_cancel(e, "p", &was) == CUZK_OK && was == 1);
    engine_debug_stats_get(e, &d);
    CHECK(d.groups_queued == 0); /* queued partitions dropped at once */
    CHECK(fx_state_of(e, "p") == CUZK_JOB_RUNNING);
    fx_open_prover();
    cuzk_result r;
    CHECK(cuzk_engine_await(e, "p", 60000, &r) == CUZK_OK && r.state == CUZK_JOB_CANCELLED);
    cuzk_result_clear(&r);
    FX_WAIT_FOR(idle(e));
    CHECK(part_bytes_now(e) == 0);
    pthread_mutex_lock(&fx.mu);
    CHECK(fx.prove_calls == 1);
    pthread_mutex_unlock(&fx.mu);
    cuzk_engine_free(e);
}

static void test_partition_failure(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "f", CUZK_KIND_SNAP_DEALS, 0, "tiny-b", 3, 65, "fail_part=1", NULL) ==
          CUZK_OK);
    cuzk_result r;
    CHECK(cuzk_engine_await(e, "f", 60000, &r) == CUZK_OK && r.state == CUZK_JOB_FAILED);
    CHECK(strstr(r.error, "partition 1") && strstr(r.error, "injected failure"));
    CHECK(r.proof == NULL);
    cuzk_result_clear(&r);
    FX_WAIT_FOR(idle(e));
    CHECK(part_bytes_now(e) == 0);
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    CHECK(s.failed == 1 && s.failed_by_kind[CUZK_KIND_SNAP_DEALS] == 1);
    cuzk_engine_status_clear(&s);
    cuzk_engine_free(e);
}

/* Budget = parameters + 2 partitions: the floor and one more.  Two synthesis
 * workers and a blocked prover must find the budget full and wait. */
static void test_backpressure(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    char err[CUZK_ERROR_LEN];
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", NULL, NULL, err) == CUZK_OK);
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    uint64_t hot = s.n_srs == 1 ? s.srs[0].size_bytes : 0;
    cuzk_engine_status_clear(&s);
    cuzk_engine_free(e);
    CHECK(hot > 0);
    uint64_t pb = engine_synthetic_partition_bytes(fx.syn, "tiny-a");
    c.memory_budget = hot + 2 * pb + pb / 2;
    c.synthesis_threads = 2;
    c.max_gpu_queue_depth = 4;
    fx_reset();
    pthread_mutex_lock(&fx.mu);
    fx.prove_gate_armed = 1;
    pthread_mutex_unlock(&fx.mu);
    e = fx_engine(&c);
    CHECK(fx_submit(e, "bp", CUZK_KIND_POREP_C2, 0, "tiny-a", 6, 66, NULL, NULL) == CUZK_OK);
    FX_WAIT_FOR(fx.prove_entered == 1);
    /* a worker's reservation precedes its synth call: wait for both counts */
    FX_WAIT_FOR(fx.synth_by_seed[66] >= 2);
    engine_debug_stats d;
    for (int i = 0; i < 30000; i++) {
        engine_debug_stats_get(e, &d);
        if (d.mem_waits > 0)
            break;
        usleep(1000);
    }
    CHECK(d.mem_waits > 0); /* a worker is held back by the budget */
    usleep(20000);          /* time for a third partition to start, were it let in */
    pthread_mutex_lock(&fx.mu);
    CHECK(fx.synth_by_seed[66] == 2); /* partition 0 (proving) and 1 (queued), no more */
    pthread_mutex_unlock(&fx.mu);
    fx_open_prover();
    CHECK(fx_await_ok(e, "bp", "tiny-a", 6, 66));
    engine_debug_stats_get(e, &d);
    CHECK(d.mem_peak <= c.memory_budget);
    CHECK(d.mem_peak >= hot + 2 * pb);                  /* it did fill up */
    CHECK(hot + d.part_actual_peak <= c.memory_budget); /* real bytes too */
    CHECK(d.part_actual_peak == 2 * pb);
    cuzk_engine_free(e);

    /* a budget too small for the parameters and one partition fails clearly */
    c.memory_budget = hot + pb / 2;
    fx_reset();
    e = fx_engine(&c);
    CHECK(fx_submit(e, "small", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 67, NULL, NULL) == CUZK_OK);
    cuzk_result r;
    CHECK(cuzk_engine_await(e, "small", 60000, &r) == CUZK_OK && r.state == CUZK_JOB_FAILED);
    CHECK(strstr(r.error, "memory budget") != NULL);
    cuzk_result_clear(&r);
    cuzk_engine_free(e);
}

static void test_self_verify_retry(void) {
    fx_reset();
    pthread_mutex_lock(&fx.mu);
    fx.corrupt_left = 1; /* the first backend proof is wrong */
    pthread_mutex_unlock(&fx.mu);
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "sv", CUZK_KIND_WINNING_POST, 0, "tiny-b", 2, 68, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "sv", "tiny-b", 2, 68));
    cuzk_job_timeline t = fx_timeline(e, "sv");
    CHECK(t.cpu_retries == 1);
    cuzk_job_timeline_clear(&t);
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    CHECK(s.self_verify_failures == 1);
    cuzk_engine_status_clear(&s);
    char *m = cuzk_engine_metrics_text(e);
    CHECK(m && strstr(m, "cuzk_self_verify_failures_total 1\n") &&
          strstr(m, "cuzk_proofs_completed_total{proof_kind=\"winning_post\"} 1\n") &&
          strstr(m, "cuzk_stage_duration_seconds_count{stage=\"prove\"} 2\n"));
    free(m);
    cuzk_engine_free(e);
}

/* Two synthesis workers, one prover thread; three overlapping jobs with
 * pipelining: never more than the configured cores at once. */
static void test_thread_budget(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.synthesis_threads = 2;
    c.gpu_threads = 1;
    c.synthesis_lookahead = 2;
    cuzk_engine *e = fx_engine(&c);
    for (int i = 0; i < 3; i++) {
        char id[8];
        snprintf(id, sizeof id, "t%d", i);
        CHECK(fx_submit(e, id, CUZK_KIND_POREP_C2, 0, i % 2 ? "tiny-a" : "tiny-b", 2, 70 + i, NULL,
                        NULL) == CUZK_OK);
    }
    for (int i = 0; i < 3; i++) {
        char id[8];
        snprintf(id, sizeof id, "t%d", i);
        CHECK(fx_await_ok(e, id, i % 2 ? "tiny-a" : "tiny-b", 2, 70 + i));
    }
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    CHECK(d.synth_workers == 2 && d.prover_threads == 1);
    pthread_mutex_lock(&fx.mu);
    CHECK(fx.synth_max >= 1 && fx.synth_max <= 2);
    CHECK(fx.prove_max == 1 && fx.prove_threads_max == 1);
    pthread_mutex_unlock(&fx.mu);
    cuzk_engine_free(e);

    /* automatic split: synthesis + prover threads fit the cores */
    cuzk_engine_config a;
    fx_config(&a);
    a.synthesis_threads = 0;
    a.gpu_threads = 0;
    e = fx_engine(&a);
    engine_debug_stats_get(e, &d);
    unsigned cores = par_cpu_count();
    CHECK(d.synth_workers >= 1 && d.prover_threads >= 1);
    CHECK(d.synth_workers + d.prover_threads <= (cores > 2 ? cores : 2));
    cuzk_engine_free(e);
}

/* Pipelined, job 2's partitions synthesize while job 1's are stuck in the
 * prover; sequential, job 2 stays queued meanwhile. */
static void test_overlap(void) {
    for (int pipelined = 1; pipelined >= 0; pipelined--) {
        fx_reset();
        pthread_mutex_lock(&fx.mu);
        fx.prove_gate_armed = 1;
        pthread_mutex_unlock(&fx.mu);
        cuzk_engine_config c;
        fx_config(&c);
        c.pipeline_enabled = pipelined;
        cuzk_engine *e = fx_engine(&c);
        CHECK(fx_submit(e, "n1", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 85, NULL, NULL) == CUZK_OK);
        FX_WAIT_FOR(fx.prove_entered == 1);
        CHECK(fx_submit(e, "n2", CUZK_KIND_POREP_C2, 0, "tiny-b", 2, 86, NULL, NULL) == CUZK_OK);
        if (pipelined) {
            FX_WAIT_FOR(fx.synth_by_seed[86] == 2 && fx.prove_entered == 1);
            CHECK(fx_state_of(e, "n1") == CUZK_JOB_RUNNING);
        } else {
            /* wait until the dispatcher has looked at the queue with n2 in it */
            engine_debug_stats d0, d1;
            engine_debug_stats_get(e, &d0);
            CHECK(fx_submit(e, "n3", CUZK_KIND_POREP_C2, 0, "tiny-b", 1, 87, NULL, NULL) ==
                  CUZK_OK);
            for (int i = 0; i < 30000; i++) {
                engine_debug_stats_get(e, &d1);
                if (d1.dispatcher_passes >= d0.dispatcher_passes + 2)
                    break;
                usleep(1000);
            }
            CHECK(d1.dispatcher_passes >= d0.dispatcher_passes + 2);
            CHECK(fx_state_of(e, "n2") == CUZK_JOB_QUEUED);
            pthread_mutex_lock(&fx.mu);
            CHECK(fx.synth_by_seed[86] == 0);
            pthread_mutex_unlock(&fx.mu);
        }
        fx_open_prover();
        CHECK(fx_await_ok(e, "n1", "tiny-a", 1, 85));
        CHECK(fx_await_ok(e, "n2", "tiny-b", 2, 86));
        if (!pipelined)
            CHECK(fx_await_ok(e, "n3", "tiny-b", 1, 87));
        cuzk_engine_free(e);
    }
}

/* Every partition has synthesis -> prove_wait -> prove -> verify in order;
 * with self_verify off there is no verify stage and the proofs still hold. */
static void test_timeline_and_verify_switch(void) {
    for (int verify = 1; verify >= 0; verify--) {
        fx_reset();
        cuzk_engine_config c;
        fx_config(&c);
        c.self_verify = verify;
        cuzk_engine *e = fx_engine(&c);
        CHECK(fx_submit(e, "tl", CUZK_KIND_POREP_C2, 0, "tiny-b", 3, 84, NULL, NULL) == CUZK_OK);
        cuzk_result r;
        CHECK(cuzk_engine_await(e, "tl", 60000, &r) == CUZK_OK && r.state == CUZK_JOB_COMPLETED);
        CHECK(fx_verify("tiny-b", 3, 84, r.proof, r.proof_len));
        CHECK(r.timings.total_ms >= r.timings.prove_ms &&
              r.timings.total_ms >= r.timings.queue_wait_ms);
        cuzk_result_clear(&r);
        cuzk_job_timeline t = fx_timeline(e, "tl");
        CHECK(t.n_partitions == 3 && t.batch_size == 1 && t.state == CUZK_JOB_COMPLETED);
        CHECK(strcmp(t.circuit_id, "tiny-b") == 0 && t.submit_seq == 1 && t.dispatch_seq == 1);
        size_t want = 2 + 3 * (verify ? 4 : 3);
        CHECK(t.n_events == want);
        double at[3][CUZK_STAGE_COUNT][2];
        int seen[3][CUZK_STAGE_COUNT] = {{0}};
        int job_level = 0;
        for (size_t i = 0; i < t.n_events; i++) {
            const cuzk_timeline_event *ev = &t.events[i];
            CHECK(ev->start_ms <= ev->end_ms);
            if (ev->partition < 0) {
                job_level++;
                continue;
            }
            CHECK(ev->partition < 3);
            if (ev->partition >= 3)
                continue;
            seen[ev->partition][ev->stage]++;
            at[ev->partition][ev->stage][0] = ev->start_ms;
            at[ev->partition][ev->stage][1] = ev->end_ms;
        }
        CHECK(job_level == 2);
        for (int p = 0; p < 3; p++) {
            CHECK(seen[p][CUZK_STAGE_SYNTHESIS] == 1 && seen[p][CUZK_STAGE_PROVE] == 1 &&
                  seen[p][CUZK_STAGE_PROVE_WAIT] == 1 && seen[p][CUZK_STAGE_VERIFY] == verify);
            CHECK(at[p][CUZK_STAGE_SYNTHESIS][1] <= at[p][CUZK_STAGE_PROVE][0]);
            if (verify)
                CHECK(at[p][CUZK_STAGE_PROVE][1] <= at[p][CUZK_STAGE_VERIFY][0]);
        }
        cuzk_job_timeline_clear(&t);
        cuzk_engine_free(e);
    }
}

typedef struct {
    cuzk_engine *e;
    const char *id;
    cuzk_result r;
    cuzk_status st;
} await_arg;

static void *await_thread(void *p) {
    await_arg *a = p;
    a->st = cuzk_engine_await(a->e, a->id, 0, &a->r);
    return NULL;
}

static void *shutdown_thread(void *p) {
    cuzk_engine_shutdown(p);
    return NULL;
}

static void run_shutdown(int cancel_running) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.pipeline_enabled = 0;
    c.cancel_running_on_shutdown = cancel_running;
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "run", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 80, "gate=4 gate_part=0", NULL) ==
          CUZK_OK);
    FX_WAIT_FOR(fx.entered[4] == 1);
    CHECK(fx_submit(e, "wait", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 81, NULL, NULL) == CUZK_OK);
    await_arg a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.e = b.e = e;
    a.id = "run";
    b.id = "wait";
    pthread_t ta, tb, ts;
    pthread_create(&ta, NULL, await_thread, &a);
    pthread_create(&tb, NULL, await_thread, &b);
    pthread_create(&ts, NULL, shutdown_thread, e);
    FX_WAIT_FOR(fx_state_of(e, "wait") == CUZK_JOB_CANCELLED); /* queued work is dropped */
    cuzk_submit_info info;
    char text[] = "| synthetic circuit=tiny-a partitions=1 seed=82";
    cuzk_request req;
    memset(&req, 0, sizeof req);
    req.kind = CUZK_KIND_POREP_C2;
    req.vanilla_proof = (const uint8_t *)text;
    req.vanilla_proof_len = strlen(text);
    char err[CUZK_ERROR_LEN];
    CHECK(cuzk_engine_submit(e, &req, &info, err) == CUZK_E_SHUTDOWN);
    fx_open(4);
    pthread_join(ts, NULL);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK(b.st == CUZK_OK && b.r.state == CUZK_JOB_CANCELLED);
    if (cancel_running) {
        CHECK(a.st == CUZK_OK && a.r.state == CUZK_JOB_CANCELLED);
        pthread_mutex_lock(&fx.mu);
        CHECK(fx.prove_calls <= 1 && fx.synth_by_seed[80] == 1);
        pthread_mutex_unlock(&fx.mu);
    } else { /* the running job finished, with valid proofs */
        CHECK(a.st == CUZK_OK && a.r.state == CUZK_JOB_COMPLETED &&
              fx_verify("tiny-a", 2, 80, a.r.proof, a.r.proof_len));
    }
    cuzk_result_clear(&a.r);
    cuzk_result_clear(&b.r);
    CHECK(idle(e));
    cuzk_engine_shutdown(e); /* idempotent */
    cuzk_engine_free(e);
}

int main(void) {
    fx_init();
    test_cancel_queued();
    test_cancel_synthesizing();
    test_cancel_proving();
    test_partition_failure();
    test_backpressure();
    test_self_verify_retry();
    test_thread_budget();
    test_timeline_and_verify_switch();
    test_overlap();
    run_shutdown(0);
    run_shutdown(1);
    fx_cleanup();
    return check_finish();
}
