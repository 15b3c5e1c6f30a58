/* Engine parts on their own, without an engine: the job table's bookkeeping
 * (start, stage histogram, final states and their counters, retention) and
 * the SRS manager driven only through its srs_env inputs (clock, budget,
 * can_release, the backend's forget hook). */
#include "engine_fixture.h"
#include "engine/job.h"
#include "engine/srs.h"

static engine_job *new_job(job_table *t, const char *id) {
    engine_circuit_provider p = {"parts", NULL, NULL, NULL, NULL, NULL};
    engine_plan plan = {.circuit_id = "x", .n_partitions = 2, .partition_bytes = 1};
    engine_job *j = job_new(id, CUZK_KIND_POREP_C2, CUZK_PRIORITY_NORMAL, &p, &plan);
    CHECK(j != NULL);
    job_table_insert(t, j);
    return j;
}

static void test_job_bookkeeping(void) {
    pthread_cond_t done = PTHREAD_COND_INITIALIZER;
    job_table t;
    job_table_init(&t, 2, 1000, &done);
    const job_stats *s = &t.stats;
    engine_job *a = new_job(&t, "a"), *b = new_job(&t, "b"), *c = new_job(&t, "c");
    a->submit_ms = 10;

    job_start(&t, a, 1, 20);
    CHECK(a->state == CUZK_JOB_RUNNING && a->dispatch_seq == 1 && a->dispatch_ms == 20);
    CHECK(s->running_by_kind[CUZK_KIND_POREP_C2] == 1 && job_live(a));

    job_stage(&t, a, 0, CUZK_STAGE_SYNTHESIS, 0, 5);   /* <= 10 ms */
    job_stage(&t, a, 1, CUZK_STAGE_SYNTHESIS, 0, 50);  /* <= 100 ms */
    job_stage(&t, a, 1, CUZK_STAGE_PROVE, 0, 4000000); /* past the last bound */
    CHECK(s->stage_bucket[CUZK_STAGE_SYNTHESIS][0] == 1);
    CHECK(s->stage_bucket[CUZK_STAGE_SYNTHESIS][1] == 1);
    CHECK(s->stage_bucket[CUZK_STAGE_PROVE][JOB_STAGE_BUCKETS - 1] == 1);
    CHECK(s->stage_count[CUZK_STAGE_SYNTHESIS] == 2 && s->stage_sum_ms[CUZK_STAGE_SYNTHESIS] == 55);
    CHECK(a->n_events == 3 && a->events[1].partition == 1 && a->events[1].end_ms == 50);

    job_finish(&t, a, CUZK_JOB_COMPLETED, 1010, "%s", "");
    CHECK(a->state == CUZK_JOB_COMPLETED && a->end_ms == 1010 && !job_live(a));
    CHECK(s->completed_by_kind[CUZK_KIND_POREP_C2] == 1);
    CHECK(s->running_by_kind[CUZK_KIND_POREP_C2] == 0 &&
          s->duration_sum_s[CUZK_KIND_POREP_C2] == 1);
    job_finish(&t, a, CUZK_JOB_FAILED, 1020, "too late"); /* a final job stays as it is */
    CHECK(a->state == CUZK_JOB_COMPLETED && a->error[0] == 0 && a->end_ms == 1010);
    CHECK(s->failed_by_kind[CUZK_KIND_POREP_C2] == 0);

    /* never dispatched: the running count is not touched */
    job_finish(&t, b, CUZK_JOB_CANCELLED, 1100, "cancelled while %s", "queued");
    CHECK(s->cancelled == 1 && strcmp(b->error, "cancelled while queued") == 0);
    snprintf(c->error, sizeof c->error, "partition 1: boom");
    job_start(&t, c, 2, 1100);
    job_finish(&t, c, CUZK_JOB_FAILED, 1200, "%s", c->error); /* its own message */
    CHECK(strcmp(c->error, "partition 1: boom") == 0 && s->failed_by_kind[CUZK_KIND_POREP_C2] == 1);
    CHECK(s->running_by_kind[CUZK_KIND_POREP_C2] == 0);

    /* retention: at most 2 finished, none older than 1000 ms */
    CHECK(t.n_finished == 3 && t.count == 3);
    job_table_prune(&t, 1200);
    CHECK(!job_table_find(&t, "a") && job_table_find(&t, "b") && job_table_find(&t, "c"));
    job_table_prune(&t, 2150); /* b ended at 1100: older than 1000 ms */
    CHECK(!job_table_find(&t, "b") && job_table_find(&t, "c") && t.count == 1);
    job_table_clear(&t);
    CHECK(t.count == 0 && t.keep_count == 2 && t.done == &done);
    pthread_cond_destroy(&done);
}

typedef struct {
    double now;
    int can_release, can_release_calls, forgets;
} fake_env;
static fake_env env_state;

static double env_now(void *ctx) { return ((fake_env *)ctx)->now; }
static int env_can_release(void *ctx) {
    ((fake_env *)ctx)->can_release_calls++;
    return ((fake_env *)ctx)->can_release;
}
static void env_forget(void *ctx, const groth16_params_data *d) {
    (void)d;
    ((fake_env *)ctx)->forgets++;
}

static void test_srs_inputs(void) {
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    mem_budget mem;
    mem_init(&mem, 1ULL << 30);
    srs_env env = {&mem, &mu, &cv, &env_state, env_now, env_can_release, env_forget};
    srs_manager m;
    srs_init(&m, fx.dir, &env);
    char stem[128], err[CUZK_ERROR_LEN] = "";
    engine_synthetic_stem(stem, "tiny-a");
    CHECK(srs_register(&m, "tiny-a", stem) == CUZK_OK);

    pthread_mutex_lock(&mu);
    cuzk_status st = CUZK_OK;
    srs_set *s = srs_lookup(&m, "tiny-a", &st, err);
    CHECK(s && s->tier == SRS_COLD);
    env_state.now = 42;
    double load_ms = -1;
    CHECK(srs_acquire(&m, s, 0, 0, 0, &load_ms, err) == CUZK_OK);
    CHECK(s->tier == SRS_HOT && s->refs == 1 && s->last_used_ms == 42 && load_ms >= 0);
    CHECK(mem.srs_bytes == s->hot_bytes && s->hot_bytes > 0 && m.loads == 1);

    /* short of memory while the set is in use: may wait only when running
     * work can release some; told it cannot, the acquire fails at once */
    mem.budget = s->hot_bytes + 10;
    CHECK(srs_acquire(&m, s, 100, 0, 1, &load_ms, err) == CUZK_E_EXHAUSTED);
    CHECK(env_state.can_release_calls == 1 && strstr(err, "memory budget: tiny-a needs 100"));
    CHECK(srs_acquire(&m, s, 1000 + s->hot_bytes, 0, 1, &load_ms, err) == CUZK_E_EXHAUSTED);
    CHECK(strstr(err, "budget is") != NULL && env_state.can_release_calls == 1);

    /* keep_free (a fall-back's headroom) is asked for only while running
     * work could use it: waived with nothing running, refused beside it */
    mem.budget = s->hot_bytes + 150;
    CHECK(srs_acquire(&m, s, 100, 100, 0, &load_ms, err) == CUZK_OK && mem.part_bytes == 100);
    mem_put_parts(&mem, 100);
    srs_release(&m, s);
    env_state.can_release = 1;
    CHECK(srs_acquire(&m, s, 100, 100, 0, &load_ms, err) == CUZK_E_EXHAUSTED);
    CHECK(srs_acquire(&m, s, 100, 50, 0, &load_ms, err) == CUZK_OK && mem.part_bytes == 100);
    mem_put_parts(&mem, 100);
    srs_release(&m, s);
    env_state.can_release = 0;
    mem.budget = s->hot_bytes + 10;

    /* released at 100; under pressure a set used within min_idle (500 ms) is
     * demoted only when no running work will free memory (#32) */
    env_state.now = 100;
    srs_release(&m, s);
    CHECK(s->refs == 0 && s->last_used_ms == 100);
    m.min_idle_ms = 500;
    mem.budget = s->hot_bytes + 10;
    env_state.now = 550;
    env_state.can_release = 1;
    CHECK(srs_make_room(&m, 100, NULL) == 0);
    CHECK(s->tier == SRS_HOT && env_state.forgets == 0);
    env_state.can_release = 0; /* waiting cannot help: the young set goes */
    CHECK(srs_make_room(&m, 100, NULL) == 1);
    CHECK(s->tier == SRS_WARM && env_state.forgets == 1 && mem.srs_bytes == 0 && m.demotions == 1);
    pthread_mutex_unlock(&mu);

    srs_free(&m); /* every set's device copy is forgotten */
    CHECK(env_state.forgets == 2);
    pthread_cond_destroy(&cv);
    pthread_mutex_destroy(&mu);
}

int main(void) {
    fx_init();
    test_job_bookkeeping();
    test_srs_inputs();
    fx_cleanup();
    return check_finish();
}
