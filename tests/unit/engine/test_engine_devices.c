/* Several prover devices in one engine (engine/device.h), with gpus.simulate
 * devices on the CPU backend:
 *
 *   byte-identical: a 10-partition job on 3 simulated devices (each call
 *     lasting 20 ms, as a GPU's would) spreads over the devices, and with the
 *     TEST-ONLY fixed r, s its proof is byte for byte the single-device one;
 *   critical: with both devices busy (the prover gate) and LOW partitions
 *     queued, a WinningPoSt's partition is the next one proven;
 *   affinity: single-partition jobs of one circuit all go to the device that
 *     holds its set while it is free; the other device never loads it; a
 *     per-device evict drops that copy only; a device keeps at most
 *     gpu_srs_sets sets, least recently used out first;
 *   a failing device: taken out of rotation (status, metric), its partition
 *     proven elsewhere, the job complete and verified;
 *   no device left: jobs fail with a clear error instead of hanging;
 *   mixed work (two circuits, all priorities, batching) on 3 devices x 2
 *     workers: every partition proven exactly once, every proof verifies.
 * Orderings come from latches and timelines; the spread test only needs each
 * device to get one partition of ten. */
#include "engine_fixture.h"
#include "util/switches.h"

#define SEED_HEX "5eed0fc0ffee"

static int get_devices(cuzk_engine *e, cuzk_device_status *out, size_t cap) {
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    size_t n = s.n_devices < cap ? s.n_devices : cap;
    memcpy(out, s.devices, n * sizeof *out);
    cuzk_engine_status_clear(&s);
    return (int)n;
}

/* The proof bytes of a finished job (caller frees), NULL if it failed. */
static uint8_t *proof_of(cuzk_engine *e, const char *id, size_t *len) {
    cuzk_result r;
    uint8_t *p = NULL;
    if (cuzk_engine_await(e, id, 60000, &r) == CUZK_OK && r.state == CUZK_JOB_COMPLETED) {
        p = r.proof;
        *len = r.proof_len;
        r.proof = NULL;
    } else {
        fprintf(stderr, "job %s: state %d: %s\n", id, (int)r.state, r.error);
    }
    cuzk_result_clear(&r);
    return p;
}

static void test_cpu_single(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    cuzk_device_status d[4];
    CHECK(get_devices(e, d, 4) == 1);
    CHECK(strcmp(d[0].name, "cpu") == 0 && d[0].ordinal == -1 && d[0].workers == 1);
    cuzk_engine_free(e);
}

static void test_byte_identical(void) {
    snprintf(fx_rs_seed, sizeof fx_rs_seed, "%s", SEED_HEX);
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "one", CUZK_KIND_POREP_C2, 0, "tiny-a", 10, 31, NULL, NULL) == CUZK_OK);
    size_t n1 = 0, n3 = 0;
    uint8_t *p1 = proof_of(e, "one", &n1);
    cuzk_engine_free(e);

    fx_reset();
    fx_config(&c);
    c.simulate_devices = 3;
    c.gpu_workers_per_device = 1;
    c.test_device_delay_ms = 20;
    e = fx_engine(&c);
    CHECK(fx_submit(e, "three", CUZK_KIND_POREP_C2, 0, "tiny-a", 10, 31, NULL, NULL) == CUZK_OK);
    uint8_t *p3 = proof_of(e, "three", &n3);
    CHECK(p1 && p3 && n1 == 10 * GROTH16_PROOF_BYTES && n1 == n3);
    CHECK(p1 && p3 && n1 == n3 && memcmp(p1, p3, n1) == 0);
    CHECK(fx_verify("tiny-a", 10, 31, p3, n3));
    cuzk_device_status d[4];
    CHECK(get_devices(e, d, 4) == 3);
    uint64_t sum = 0;
    unsigned used = 0;
    for (int i = 0; i < 3; i++) {
        CHECK(d[i].ordinal == -1 && d[i].workers == 1 && !d[i].failed);
        sum += d[i].partitions_proven;
        used += d[i].partitions_proven > 0;
        printf("spread: %s proved %" PRIu64 " partitions, busy %.0f ms\n", d[i].name,
               d[i].partitions_proven, d[i].busy_ms);
        /* a device that proved a partition holds the set, counted in its bytes */
        if (d[i].partitions_proven)
            CHECK(d[i].n_resident == 1 && strcmp(d[i].resident[0], "tiny-a") == 0 &&
                  d[i].resident_bytes > 0);
    }
    CHECK(sum == 10);
    CHECK(used == 3); /* partitions of one job ran on every device */
    char *m = cuzk_engine_metrics_text(e);
    CHECK(m && strstr(m, "cuzk_device_partitions_total{device=\"sim0\"}") &&
          strstr(m, "cuzk_device_up{device=\"sim2\"} 1"));
    free(m);
    free(p1);
    free(p3);
    cuzk_engine_free(e);
    fx_rs_seed[0] = 0;
}

/* Whether a CRITICAL group sits in the prove queue. */
static int critical_queued(cuzk_engine *e) {
    pthread_mutex_lock(&e->mu);
    int found = 0;
    for (engine_group *g = e->prove_queue; g; g = g->next)
        found |= g->batch->priority == CUZK_PRIORITY_CRITICAL;
    pthread_mutex_unlock(&e->mu);
    return found;
}

static unsigned queued_groups(cuzk_engine *e) {
    pthread_mutex_lock(&e->mu);
    unsigned n = (unsigned)e->n_queued_groups;
    pthread_mutex_unlock(&e->mu);
    return n;
}

static double prove_start(cuzk_engine *e, const char *id, int part) {
    cuzk_job_timeline t = fx_timeline(e, id);
    double at = -1;
    for (size_t i = 0; i < t.n_events; i++)
        if (t.events[i].partition == part && t.events[i].stage == CUZK_STAGE_PROVE)
            at = t.events[i].start_ms;
    cuzk_job_timeline_clear(&t);
    return at;
}

static void test_critical(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.simulate_devices = 2;
    c.gpu_workers_per_device = 1;
    cuzk_engine *e = fx_engine(&c);
    pthread_mutex_lock(&fx.mu);
    fx.prove_gate_armed = 1;
    pthread_mutex_unlock(&fx.mu);
    CHECK(fx_submit(e, "bulk", CUZK_KIND_POREP_C2, CUZK_PRIORITY_LOW, "tiny-a", 4, 41, NULL,
                    NULL) == CUZK_OK);
    FX_WAIT_FOR(fx.prove_entered == 2); /* both devices hold a LOW partition */
    FX_WAIT_FOR(queued_groups(e) == 2); /* the engine's lock inside fx's: no other order */
    CHECK(fx_submit(e, "win", CUZK_KIND_WINNING_POST, 0, "tiny-b", 1, 42, NULL, NULL) == CUZK_OK);
    int seen = 0;
    for (int i = 0; i < 30000 && !(seen = critical_queued(e)); i++)
        usleep(1000);
    CHECK(seen);
    fx_open_prover();
    CHECK(fx_await_ok(e, "win", "tiny-b", 1, 42));
    CHECK(fx_await_ok(e, "bulk", "tiny-a", 4, 41));
    double w = prove_start(e, "win", 0);
    unsigned before = 0;
    for (int p = 0; p < 4; p++) {
        double b = prove_start(e, "bulk", p);
        CHECK(b >= 0);
        before += b < w;
    }
    CHECK(w >= 0 && before == 2); /* only the two already on the devices */
    cuzk_engine_free(e);
}

/* The fixture's backend with a forget hook that counts. */
static int forgets;
static void count_forget(void *self, const groth16_params_data *srs) {
    (void)self, (void)srs;
    __atomic_fetch_add(&forgets, 1, __ATOMIC_SEQ_CST);
}
static const groth16_backend forget_backend = {
    .name = "fixture", .prove = fx_prove, .forget = count_forget};

static void test_affinity(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.simulate_devices = 2;
    c.gpu_workers_per_device = 1;
    cuzk_engine *e = fx_engine(&c);
    engine_set_prover_backend(e, &forget_backend);
    char id[32];
    for (int i = 0; i < 5; i++) {
        snprintf(id, sizeof id, "aff%d", i);
        CHECK(fx_submit(e, id, CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 50 + (uint64_t)i, NULL, NULL) ==
              CUZK_OK);
        CHECK(fx_await_ok(e, id, "tiny-a", 1, 50 + (uint64_t)i));
    }
    cuzk_device_status d[2];
    CHECK(get_devices(e, d, 2) == 2);
    int h = d[0].partitions_proven ? 0 : 1, o = 1 - h;
    CHECK(d[h].partitions_proven == 5 && d[o].partitions_proven == 0);
    CHECK(d[h].n_resident == 1 && d[o].n_resident == 0 && d[o].resident_bytes == 0);
    /* per-device evict: that copy only; the host copy stays HOT */
    int was = 0;
    uint64_t freed = 0;
    forgets = 0;
    CHECK(cuzk_engine_evict_srs_device(e, "tiny-a", (unsigned)h, &was, &freed) == CUZK_OK);
    CHECK(was == 1 && freed == d[h].resident_bytes);
    CHECK(forgets == 1); /* that device's backend was told */
    CHECK(cuzk_engine_evict_srs_device(e, "tiny-a", 7, &was, &freed) == CUZK_E_NOT_FOUND);
    CHECK(cuzk_engine_evict_srs_device(e, "no-such", 0, &was, &freed) == CUZK_E_NOT_FOUND);
    CHECK(get_devices(e, d, 2) == 2);
    CHECK(d[h].n_resident == 0 && d[h].resident_bytes == 0);
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    for (size_t i = 0; i < s.n_srs; i++)
        if (strcmp(s.srs[i].circuit_id, "tiny-a") == 0)
            CHECK(s.srs[i].tier == 0);
    cuzk_engine_status_clear(&s);
    /* a host-side evict drops every device's copy */
    CHECK(fx_submit(e, "aff-again", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 60, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "aff-again", "tiny-a", 1, 60));
    forgets = 0;
    CHECK(cuzk_engine_evict_srs(e, "tiny-a", &was, &freed) == CUZK_OK);
    CHECK(forgets == 2); /* every device's backend */
    CHECK(get_devices(e, d, 2) == 2);
    CHECK(d[0].n_resident == 0 && d[1].n_resident == 0);
    cuzk_engine_free(e);
}

/* The table keeps at most gpu_srs_sets sets, least recently used out first. */
static void test_resident_cap(void) {
    fx_reset();
    char err[256];
    long was = switch_get(SW_GPU_SRS_SETS);
    CHECK(switch_set(SW_GPU_SRS_SETS, 1, err, sizeof err) == 0);
    cuzk_engine_config c;
    fx_config(&c);
    c.simulate_devices = 1;
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "cap-a", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 90, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "cap-a", "tiny-a", 1, 90));
    CHECK(fx_submit(e, "cap-b", CUZK_KIND_POREP_C2, 0, "tiny-b", 1, 91, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "cap-b", "tiny-b", 1, 91));
    cuzk_device_status d[1];
    CHECK(get_devices(e, d, 1) == 1);
    CHECK(d[0].n_resident == 1 && strcmp(d[0].resident[0], "tiny-b") == 0);
    CHECK(switch_set(SW_GPU_SRS_SETS, 2, err, sizeof err) == 0);
    CHECK(fx_submit(e, "cap-a2", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 92, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "cap-a2", "tiny-a", 1, 92));
    CHECK(get_devices(e, d, 1) == 1);
    CHECK(d[0].n_resident == 2 && strcmp(d[0].resident[0], "tiny-a") == 0 &&
          strcmp(d[0].resident[1], "tiny-b") == 0);
    cuzk_engine_free(e);
    CHECK(switch_set(SW_GPU_SRS_SETS, was, err, sizeof err) == 0);
}

/* Mixed work on 3 devices with 2 workers each: two circuits, every priority,
 * 1-3 partitions, batching on.  Every job completes and verifies; every
 * partition is proven exactly once, on some device. */
static void test_mixed(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.simulate_devices = 3;
    c.gpu_workers_per_device = 2;
    c.synthesis_threads = 2;
    c.max_batch_size = 2;
    c.max_batch_wait_ms = 5;
    cuzk_engine *e = fx_engine(&c);
    enum { N = 30 };
    static const cuzk_priority prios[] = {CUZK_PRIORITY_LOW, CUZK_PRIORITY_NORMAL,
                                          CUZK_PRIORITY_HIGH, CUZK_PRIORITY_CRITICAL};
    unsigned parts[N], total = 0;
    char id[32];
    for (unsigned i = 0; i < N; i++) {
        parts[i] = 1 + (unsigned)(check_rand64() % 3);
        total += parts[i];
        snprintf(id, sizeof id, "mix%u", i);
        CHECK(fx_submit(e, id, CUZK_KIND_POREP_C2, prios[check_rand64() % 4],
                        i % 2 ? "tiny-a" : "tiny-b", parts[i], 300 + i, NULL, NULL) == CUZK_OK);
    }
    for (unsigned i = 0; i < N; i++) {
        snprintf(id, sizeof id, "mix%u", i);
        CHECK(fx_await_ok(e, id, i % 2 ? "tiny-a" : "tiny-b", parts[i], 300 + i));
    }
    cuzk_device_status d[3];
    CHECK(get_devices(e, d, 3) == 3);
    uint64_t sum = 0;
    for (int i = 0; i < 3; i++)
        sum += d[i].partitions_proven;
    CHECK(sum == total);
    pthread_mutex_lock(&fx.mu);
    CHECK(fx.prove_partitions == total);
    pthread_mutex_unlock(&fx.mu);
    cuzk_engine_free(e);
}

static void test_failing_device(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.simulate_devices = 3;
    c.gpu_workers_per_device = 1;
    c.test_device_delay_ms = 10;
    c.test_fail_devices = 1u << 1;
    cuzk_engine *e = fx_engine(&c);
    /* the first group goes to a free device; hold device 0 and 2 busy so that
     * device 1 surely gets one: a 10-partition job with 10 ms calls does */
    CHECK(fx_submit(e, "f", CUZK_KIND_POREP_C2, 0, "tiny-a", 10, 71, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "f", "tiny-a", 10, 71));
    cuzk_device_status d[3];
    CHECK(get_devices(e, d, 3) == 3);
    CHECK(d[1].failed && d[1].faults == 1 && d[1].partitions_proven == 0);
    CHECK(strstr(d[1].failed_reason, "injected") != NULL);
    CHECK(!d[0].failed && !d[2].failed);
    CHECK(d[0].partitions_proven + d[2].partitions_proven == 10);
    engine_debug_stats st;
    engine_debug_stats_get(e, &st);
    CHECK(st.device_requeues == 1);
    char *m = cuzk_engine_metrics_text(e);
    CHECK(m && strstr(m, "cuzk_device_failed_total{device=\"sim1\"} 1\n") &&
          strstr(m, "cuzk_device_failed_total{device=\"sim0\"} 0\n") &&
          strstr(m, "cuzk_device_up{device=\"sim1\"} 0\n"));
    free(m);
    /* later work keeps going on the others */
    CHECK(fx_submit(e, "g", CUZK_KIND_POREP_C2, 0, "tiny-b", 3, 72, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "g", "tiny-b", 3, 72));
    cuzk_engine_free(e);
}

/* PreloadSRS: the set goes onto every device that has a preload hook, once;
 * a device whose upload fails is left to its first proof, and the preload
 * still succeeds (the host set is loaded). */
static int preloads, preload_fail;
static groth16_status count_preload(void *self, const groth16_params_data *srs, unsigned threads,
                                    groth16_error *err) {
    (void)self, (void)srs;
    CHECK(threads >= 1);
    if (__atomic_fetch_add(&preloads, 1, __ATOMIC_SEQ_CST) < preload_fail)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "device full (test)");
    return GROTH16_OK;
}
static const groth16_backend preload_backend = {
    .name = "fixture", .prove = fx_prove, .preload = count_preload};

static void test_preload(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.simulate_devices = 2;
    cuzk_engine *e = fx_engine(&c);
    engine_set_prover_backend(e, &preload_backend);
    int already = -1;
    uint64_t ms = 0;
    char err[CUZK_ERROR_LEN];
    preloads = 0;
    preload_fail = 1; /* the first upload fails */
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", &already, &ms, err) == CUZK_OK);
    CHECK(already == 0 && preloads == 2);
    cuzk_device_status d[2];
    CHECK(get_devices(e, d, 2) == 2);
    CHECK(d[0].n_resident + d[1].n_resident == 1); /* the one that took it */
    /* again: the device without it is tried once more, the other not */
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", &already, &ms, err) == CUZK_OK);
    CHECK(already == 0 && preloads == 3);
    CHECK(get_devices(e, d, 2) == 2);
    CHECK(d[0].n_resident == 1 && d[1].n_resident == 1 && strcmp(d[0].resident[0], "tiny-a") == 0 &&
          d[0].resident_bytes > 0);
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", &already, &ms, err) == CUZK_OK);
    CHECK(already == 1 && preloads == 3); /* host and devices: nothing to do */
    CHECK(cuzk_engine_preload_srs(e, "no-such", &already, &ms, err) == CUZK_E_NOT_FOUND);
    CHECK(preloads == 3);
    /* proofs still go through */
    CHECK(fx_submit(e, "pre", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 95, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "pre", "tiny-a", 2, 95));
    cuzk_engine_free(e);
}

static void test_no_device_left(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.test_fail_devices = 3; /* devices 0 and 1 */
    c.simulate_devices = 2;
    c.gpu_workers_per_device = 1;
    cuzk_engine *e = fx_engine(&c);
    for (int i = 0; i < 2; i++) {
        const char *id = i ? "late" : "doomed";
        CHECK(fx_submit(e, id, CUZK_KIND_POREP_C2, 0, "tiny-a", 4, 80 + (uint64_t)i, NULL, NULL) ==
              CUZK_OK);
        cuzk_result r;
        CHECK(cuzk_engine_await(e, id, 60000, &r) == CUZK_OK);
        CHECK(r.state == CUZK_JOB_FAILED);
        CHECK(strstr(r.error, "no prover device left") && strstr(r.error, "sim0 failed") &&
              strstr(r.error, "sim1 failed"));
        if (i == 0)
            printf("no device left: %s\n", r.error);
        cuzk_result_clear(&r);
    }
    cuzk_device_status d[2];
    CHECK(get_devices(e, d, 2) == 2);
    CHECK(d[0].failed && d[1].failed);
    cuzk_engine_free(e);
}

int main(void) {
    check_seed("test_engine_devices");
    fx_init();
    test_cpu_single();
    test_byte_identical();
    test_critical();
    test_affinity();
    test_resident_cap();
    test_mixed();
    test_failing_device();
    test_no_device_left();
    test_preload();
    fx_cleanup();
    return check_finish();
}
