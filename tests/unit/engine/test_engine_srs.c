/* Engine: the SRS manager.  Published Filecoin file names, the parameter
 * cache (FIL_PROOFS_PARAMETER_CACHE wins), preload/evict across the tiers,
 * LRU demotion under a tight budget that never drops a set in use, no
 * demotion for idleness alone (only pressure or EvictSRS), and clear errors
 * for missing or corrupt files. */
#include "engine_fixture.h"
#include "filecoin/param_digest.h"
#include "util/switches.h"

static int tier_of(cuzk_engine *e, const char *id, uint64_t *size, uint32_t *refs) {
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    int t = -1;
    for (size_t i = 0; i < s.n_srs; i++)
        if (strcmp(s.srs[i].circuit_id, id) == 0) {
            t = s.srs[i].tier;
            if (size)
                *size = s.srs[i].size_bytes;
            if (refs)
                *refs = s.srs[i].ref_count;
        }
    cuzk_engine_status_clear(&s);
    return t;
}

/* The message of preloading a published set that is not in the cache names
 * its file: stem must be in it. */
static int names_file(cuzk_engine *e, const char *id, const char *stem) {
    char err[CUZK_ERROR_LEN];
    return cuzk_engine_preload_srs(e, id, NULL, NULL, err) == CUZK_E_NOT_FOUND &&
           strstr(err, fx.dir) && strstr(err, stem);
}

static void test_names(void) {
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    char err[CUZK_ERROR_LEN];
    int already = 7;
    /* the engine knows no Filecoin name until they are registered */
    CHECK(cuzk_engine_preload_srs(e, "porep-32g", NULL, NULL, err) == CUZK_E_NOT_FOUND);
    CHECK(strstr(err, "unknown circuit id \"porep-32g\"") != NULL);
    CHECK(engine_register_filecoin_providers(e, err) == CUZK_OK);
    CHECK(names_file(
        e, "porep-32g",
        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
        "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params"));
    CHECK(names_file(
        e, "porep-2k",
        "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
        "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params"));
    CHECK(names_file(e, "winning-32g",
                     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                     "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params"));
    CHECK(names_file(e, "snap-32g",
                     "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"));
    CHECK(cuzk_engine_preload_srs(e, "porep-1k", NULL, NULL, err) == CUZK_E_NOT_FOUND);
    CHECK(cuzk_engine_preload_srs(e, "no-such", &already, NULL, err) == CUZK_E_NOT_FOUND);
    CHECK(strstr(err, "unknown circuit id \"no-such\"") != NULL && already == 0);
    CHECK(cuzk_engine_register_circuit(e, "x", "a/b") == CUZK_E_INVALID);
    CHECK(cuzk_engine_register_circuit(e, "", "ab") == CUZK_E_INVALID);
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", NULL, NULL, err) == CUZK_OK);
    /* renaming a loaded set is refused */
    CHECK(cuzk_engine_register_circuit(e, "tiny-a", "v28-other") == CUZK_E_INVALID);
    cuzk_engine_free(e);

    /* the config's cache does not hold the files; the environment's does */
    snprintf(c.param_cache, sizeof c.param_cache, "/nonexistent-cuzk-cache");
    e = fx_engine(&c);
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", NULL, NULL, err) == CUZK_E_NOT_FOUND);
    CHECK(strstr(err, "/nonexistent-cuzk-cache/v28-cuzk-synthetic-tiny-a.params") != NULL);
    cuzk_engine_free(e);
    /* an explicit param_cache wins over the environment (#32) */
    setenv("FIL_PROOFS_PARAMETER_CACHE", fx.dir, 1);
    e = fx_engine(&c);
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", NULL, NULL, err) == CUZK_E_NOT_FOUND);
    CHECK(strstr(err, "/nonexistent-cuzk-cache/") != NULL);
    cuzk_engine_free(e);
    /* none configured: the environment's */
    c.param_cache[0] = 0;
    e = fx_engine(&c);
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", NULL, NULL, err) == CUZK_OK);
    cuzk_engine_free(e);
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
}

/* A file under a published Filecoin name is held against parameters.json's
 * digest at first load (#32): a foreign file is a clear error naming both
 * digests; a TEST-ONLY file (its .meta says test_only) loads with a warning;
 * trust_params skips the check. */
/* A backend that keeps its own copy of a set's points (as a GPU does). */
static void keep_forget(void *self, const groth16_params_data *d) { (void)self, (void)d; }
static const groth16_backend keeping = {
    .name = "keeping", .prove = fx_prove, .forget = keep_forget};

/* Where HOT keeps the points (switch params_host): automatic with a backend
 * that keeps its own copy, or forced (2), they stay in the file (HOT costs a
 * reader's chunk; the proofs read the file and verify); automatic with the
 * CPU's backend, or forced (1), they are decoded. */
static void test_file_backed(void) {
    char err[CUZK_ERROR_LEN];
    cuzk_engine_config c;
    fx_config(&c);
    const struct {
        long sw;
        const groth16_backend *be;
        int in_file;
    } cases[] = {{0, &keeping, 1}, {2, &fx_backend, 1}, {0, &fx_backend, 0}, {1, &keeping, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(switch_set(SW_PARAMS_HOST, cases[i].sw, err, sizeof err) == 0);
        cuzk_engine *e = fx_engine(&c);
        engine_set_prover_backend(e, cases[i].be);
        uint64_t size = 0;
        CHECK(cuzk_engine_preload_srs(e, "tiny-b", NULL, NULL, err) == CUZK_OK);
        CHECK(tier_of(e, "tiny-b", &size, NULL) == 0);
        const srs_set *s = e->srs.sets;
        CHECK(s && s->points_bytes > 0 && (size < s->points_bytes) == cases[i].in_file);
        CHECK((s->data.file != NULL && !s->data.l) == cases[i].in_file);
        CHECK(fx_submit(e, "f", CUZK_KIND_POREP_C2, 0, "tiny-b", 2, 93, NULL, NULL) == CUZK_OK);
        CHECK(fx_await_ok(e, "f", "tiny-b", 2, 93));
        cuzk_engine_free(e);
    }
    CHECK(switch_set(SW_PARAMS_HOST, 0, err, sizeof err) == 0);
}

static void test_published_digest(void) {
    static const char *stem = "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-"
                              "sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b"
                              "3793b06832f";
    char src[600], dst[600], meta[600], err[CUZK_ERROR_LEN];
    char tstem[128];
    engine_synthetic_stem(tstem, "tiny-a");
    snprintf(src, sizeof src, "%s/%s.params", fx.dir, tstem);
    snprintf(dst, sizeof dst, "%s/%s.params", fx.dir, stem);
    snprintf(meta, sizeof meta, "%s/%s.meta", fx.dir, stem);
    unsetenv("TRUST_PARAMS");
    CHECK(fc_param_published_digest("v28-cuzk-synthetic-tiny-a.params") == NULL);
    char want[40];
    snprintf(want, sizeof want, "%s", "434fb1338ecfaf0f59256f30dde4968f");
    char name[300];
    snprintf(name, sizeof name, "%s.params", stem);
    CHECK(fc_param_published_digest(name) && strcmp(fc_param_published_digest(name), want) == 0);
    CHECK(link(src, dst) == 0); /* tiny-a's parameters under porep-2k's published name */
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    CHECK(cuzk_engine_register_circuit(e, "porep-2k-test", stem) == CUZK_OK);
    CHECK(cuzk_engine_preload_srs(e, "porep-2k-test", NULL, NULL, err) == CUZK_E_INTERNAL);
    CHECK(strstr(err, want) != NULL && strstr(err, "not Filecoin's published") != NULL &&
          strstr(err, "TRUST_PARAMS") != NULL);
    cuzk_engine_free(e);
    c.trust_params = 1;
    e = fx_engine(&c);
    CHECK(cuzk_engine_register_circuit(e, "porep-2k-test", stem) == CUZK_OK);
    CHECK(cuzk_engine_preload_srs(e, "porep-2k-test", NULL, NULL, err) == CUZK_OK);
    cuzk_engine_free(e);
    FILE *f = fopen(meta, "w");
    fputs("{\"sector_size\": 2048, \"test_only\": true}\n", f);
    fclose(f);
    c.trust_params = 0;
    e = fx_engine(&c);
    CHECK(cuzk_engine_register_circuit(e, "porep-2k-test", stem) == CUZK_OK);
    CHECK(cuzk_engine_preload_srs(e, "porep-2k-test", NULL, NULL, err) == CUZK_OK);
    cuzk_engine_free(e);
    /* the digest rule itself: BLAKE2b-512 of the file, first 16 bytes in hex */
    char hex[FC_PARAM_DIGEST_HEX + 1];
    f = fopen(meta, "w");
    fputs("abc", f);
    fclose(f);
    CHECK(fc_param_file_digest(meta, hex, err, sizeof err) == 0);
    CHECK(strcmp(hex, "ba80a53f981c4d0d6a2797b69f12f6e9") == 0);
    unlink(meta);
    unlink(dst);
}

static void test_preload_evict(void) {
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    char err[CUZK_ERROR_LEN];
    int already = 7, was = 7;
    uint64_t ms = 0, size = 0, freed = 0;
    uint32_t refs = 9;
    CHECK(cuzk_engine_preload_srs(e, "tiny-b", &already, &ms, err) == CUZK_OK && already == 0);
    CHECK(tier_of(e, "tiny-b", &size, &refs) == 0 && size > 0 && refs == 0);
    CHECK(cuzk_engine_preload_srs(e, "tiny-b", &already, &ms, err) == CUZK_OK && already == 1 &&
          ms == 0);
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    CHECK(s.memory_in_use == size);
    cuzk_engine_status_clear(&s);
    CHECK(cuzk_engine_evict_srs(e, "tiny-b", &was, &freed) == CUZK_OK && was == 1 && freed == size);
    CHECK(tier_of(e, "tiny-b", NULL, NULL) == 2);
    CHECK(cuzk_engine_evict_srs(e, "tiny-b", &was, &freed) == CUZK_OK && was == 0 && freed == 0);
    CHECK(cuzk_engine_evict_srs(e, "nope", &was, &freed) == CUZK_E_NOT_FOUND);
    cuzk_engine_get_status(e, &s);
    CHECK(s.memory_in_use == 0);
    cuzk_engine_status_clear(&s);
    /* and back: a job loads it again */
    CHECK(fx_submit(e, "j", CUZK_KIND_POREP_C2, 0, "tiny-b", 1, 90, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "j", "tiny-b", 1, 90));
    CHECK(tier_of(e, "tiny-b", NULL, NULL) == 0);
    cuzk_engine_free(e);
}

/* Room for one parameter set and its partitions, not two: the set in use
 * stays; the other waits; then LRU demotes the idle one. */
static void test_eviction_respects_use(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    char err[CUZK_ERROR_LEN];
    uint64_t ha = 0, hb = 0;
    CHECK(cuzk_engine_preload_srs(e, "tiny-a", NULL, NULL, err) == CUZK_OK);
    CHECK(cuzk_engine_preload_srs(e, "tiny-b", NULL, NULL, err) == CUZK_OK);
    tier_of(e, "tiny-a", &ha, NULL);
    tier_of(e, "tiny-b", &hb, NULL);
    cuzk_engine_free(e);
    uint64_t pa = engine_synthetic_partition_bytes(fx.syn, "tiny-a");
    uint64_t pb = engine_synthetic_partition_bytes(fx.syn, "tiny-b");
    uint64_t need_a = ha + pa, need_b = hb + pb;
    c.memory_budget = (need_a > need_b ? need_a : need_b) + 64;
    CHECK(c.memory_budget < ha + hb + pb);
    e = fx_engine(&c);
    CHECK(fx_submit(e, "A", CUZK_KIND_POREP_C2, 0, "tiny-a", 2, 91, "gate=5 gate_part=0", NULL) ==
          CUZK_OK);
    FX_WAIT_FOR(fx.entered[5] == 1);
    uint32_t refs = 0;
    CHECK(tier_of(e, "tiny-a", NULL, &refs) == 0 && refs == 1);
    CHECK(cuzk_engine_preload_srs(e, "tiny-b", NULL, NULL, err) == CUZK_E_EXHAUSTED);
    CHECK(strstr(err, "memory budget") != NULL);
    int was = 0;
    uint64_t freed = 1;
    CHECK(cuzk_engine_evict_srs(e, "tiny-a", &was, &freed) == CUZK_E_EXHAUSTED && freed == 0);
    CHECK(tier_of(e, "tiny-a", NULL, &refs) == 0 && refs == 1);
    CHECK(fx_submit(e, "B", CUZK_KIND_POREP_C2, 0, "tiny-b", 1, 92, NULL, NULL) == CUZK_OK);
    engine_debug_stats d;
    for (int i = 0; i < 30000; i++) { /* B's admission waits for memory */
        engine_debug_stats_get(e, &d);
        if (d.mem_waits > 0)
            break;
        usleep(1000);
    }
    CHECK(d.mem_waits > 0);
    CHECK(tier_of(e, "tiny-a", NULL, NULL) == 0 && tier_of(e, "tiny-b", NULL, NULL) != 0);
    fx_open(5);
    CHECK(fx_await_ok(e, "A", "tiny-a", 2, 91));
    CHECK(fx_await_ok(e, "B", "tiny-b", 1, 92));
    CHECK(tier_of(e, "tiny-a", NULL, NULL) == 1 && tier_of(e, "tiny-b", NULL, NULL) == 0);
    engine_debug_stats_get(e, &d);
    CHECK(d.srs_demotions == 1 && d.mem_peak <= c.memory_budget);
    cuzk_engine_free(e);
}

/* Idleness alone demotes nothing (#32): past eviction_min_idle the set is
 * still HOT and counted; only EvictSRS (or pressure) lets it go. */
static void test_no_idle_demotion(void) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.eviction_min_idle_s = 1;
    cuzk_engine *e = fx_engine(&c);
    CHECK(fx_submit(e, "i", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 93, NULL, NULL) == CUZK_OK);
    CHECK(fx_await_ok(e, "i", "tiny-a", 1, 93));
    usleep(2500 * 1000); /* idle 2.5 s: more than eviction_min_idle, several dispatcher ticks */
    CHECK(tier_of(e, "tiny-a", NULL, NULL) == 0);
    engine_debug_stats d;
    engine_debug_stats_get(e, &d);
    CHECK(d.srs_demotions == 0);
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    CHECK(s.memory_in_use > 0);
    cuzk_engine_status_clear(&s);
    int was = 0;
    uint64_t freed = 0;
    CHECK(cuzk_engine_evict_srs(e, "tiny-a", &was, &freed) == CUZK_OK && was && freed > 0);
    CHECK(tier_of(e, "tiny-a", NULL, NULL) == 2);
    cuzk_engine_free(e);
}

static void test_bad_files(void) {
    fx_reset();
    char path[512];
    snprintf(path, sizeof path, "%s/v28-broken.params", fx.dir);
    FILE *f = fopen(path, "wb");
    fputs("this is not a parameter file", f);
    fclose(f);
    cuzk_engine_config c;
    fx_config(&c);
    cuzk_engine *e = fx_engine(&c);
    CHECK(cuzk_engine_register_circuit(e, "tiny-a", "v28-broken") == CUZK_OK);
    CHECK(fx_submit(e, "bad", CUZK_KIND_POREP_C2, 0, "tiny-a", 1, 94, NULL, NULL) == CUZK_OK);
    cuzk_result r;
    CHECK(cuzk_engine_await(e, "bad", 60000, &r) == CUZK_OK && r.state == CUZK_JOB_FAILED);
    CHECK(strstr(r.error, "v28-broken.params") != NULL);
    cuzk_result_clear(&r);
    /* a parameter set of another circuit: the prover names the mismatch */
    CHECK(cuzk_engine_register_circuit(e, "tiny-b", "v28-cuzk-synthetic-tiny-a") == CUZK_OK);
    CHECK(fx_submit(e, "mismatch", CUZK_KIND_POREP_C2, 0, "tiny-b", 1, 95, NULL, NULL) == CUZK_OK);
    CHECK(cuzk_engine_await(e, "mismatch", 60000, &r) == CUZK_OK && r.state == CUZK_JOB_FAILED);
    CHECK(strstr(r.error, "do not match") != NULL);
    cuzk_result_clear(&r);
    cuzk_engine_free(e);
    unlink(path);
}

int main(void) {
    fx_init();
    test_names();
    test_preload_evict();
    test_file_backed();
    test_eviction_respects_use();
    test_no_idle_demotion();
    test_published_digest();
    test_bad_files();
    fx_cleanup();
    return check_finish();
}
