/* Engine: the memory of deferred partitions (engine/memory.h).  With a
 * backend that evaluates a, b, c itself (fx_backend_deferring, as a GPU's)
 * and the synthetic circuits' PCE path, a partition not under its batch's
 * floor is reserved at the peak of making a deferred one, below the classic
 * bound (while the pce is being obtained, the other partitions wait for it),
 * and shrunk to what it keeps once made; a partition whose witness
 * path fails gives its reservation back, takes the classic bound and is
 * synthesized classically; a PCE proof that fails self-verification
 * (the config's test_pce_flip) is synthesized again classically within the
 * classic bound.  Every job's proofs verify and equal the classic ones (r
 * and s fixed by the config's test_rs_seed), and nothing stays reserved.
 * Two jobs in two batches: the second, admitted at a deferred-sized floor,
 * keeps one classic bound free for fall-backs (none with classic floors). */
#include "engine_fixture.h"
#include "util/switches.h"

enum { PARTS = 6, SEED = 77 };

typedef struct {
    uint8_t proof[PARTS * GROTH16_PROOF_BYTES];
    engine_debug_stats dbg;
    uint64_t part_bytes, part_actual; /* held once the job is final */
} run_result;

/* One job of PARTS partitions of tiny-b on a fresh engine; 0 when it
 * completed with proofs that verify. */
static int run(const groth16_backend *be, const char *prefix, run_result *out) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.synthesis_threads = 2;
    cuzk_engine *e = fx_engine(&c);
    for (int k = 1; k < CUZK_KIND_COUNT; k++)
        cuzk_engine_register_provider(e, (cuzk_proof_kind)k, &fx_provider_pce);
    engine_set_prover_backend(e, be);
    int rc = -1;
    if (fx_submit(e, "j", CUZK_KIND_POREP_C2, 0, "tiny-b", PARTS, SEED, prefix, NULL) == CUZK_OK) {
        cuzk_result res;
        cuzk_status st = cuzk_engine_await(e, "j", 60000, &res);
        if (st == CUZK_OK && res.state == CUZK_JOB_COMPLETED &&
            res.proof_len == sizeof out->proof &&
            fx_verify("tiny-b", PARTS, SEED, res.proof, res.proof_len)) {
            memcpy(out->proof, res.proof, sizeof out->proof);
            rc = 0;
        } else {
            fprintf(stderr, "job: %s, state %d: %s\n", cuzk_status_name(st), (int)res.state,
                    res.error);
        }
        cuzk_result_clear(&res);
    }
    engine_debug_stats_get(e, &out->dbg);
    pthread_mutex_lock(&e->mu);
    out->part_bytes = e->mem.part_bytes;
    out->part_actual = e->mem.part_actual;
    pthread_mutex_unlock(&e->mu);
    cuzk_engine_free(e);
    return rc;
}

/* Two jobs of tiny-b, a batch each, two batches active at once; 0 when both
 * completed with proofs that verify. */
static int run_two(const groth16_backend *be, run_result *out) {
    fx_reset();
    cuzk_engine_config c;
    fx_config(&c);
    c.synthesis_threads = 2;
    c.pipeline_enabled = 1;
    c.synthesis_lookahead = 1;
    cuzk_engine *e = fx_engine(&c);
    for (int k = 1; k < CUZK_KIND_COUNT; k++)
        cuzk_engine_register_provider(e, (cuzk_proof_kind)k, &fx_provider_pce);
    engine_set_prover_backend(e, be);
    int rc = 0;
    const char *ids[] = {"j1", "j2"};
    for (int i = 0; i < 2; i++)
        if (fx_submit(e, ids[i], CUZK_KIND_POREP_C2, 0, "tiny-b", PARTS, SEED, NULL, NULL) !=
            CUZK_OK)
            rc = -1;
    for (int i = 0; i < 2 && rc == 0; i++) {
        cuzk_result res;
        cuzk_status st = cuzk_engine_await(e, ids[i], 60000, &res);
        if (st != CUZK_OK || res.state != CUZK_JOB_COMPLETED ||
            !fx_verify("tiny-b", PARTS, SEED, res.proof, res.proof_len)) {
            fprintf(stderr, "%s: %s, state %d: %s\n", ids[i], cuzk_status_name(st), (int)res.state,
                    res.error);
            rc = -1;
        }
        cuzk_result_clear(&res);
    }
    engine_debug_stats_get(e, &out->dbg);
    pthread_mutex_lock(&e->mu);
    out->part_bytes = e->mem.part_bytes;
    pthread_mutex_unlock(&e->mu);
    cuzk_engine_free(e);
    return rc;
}

int main(void) {
    check_seed("test_engine_deferred");
    snprintf(fx_rs_seed, sizeof fx_rs_seed, "defe");
    fx_init();
    char err[256];
    static run_result classic, deferred, fell_back, retried;

    CHECK(switch_set(SW_PCE, 0, err, sizeof err) == 0);
    CHECK(run(&fx_backend, NULL, &classic) == 0);
    CHECK(classic.dbg.mem_shrinks == 0 && classic.dbg.mem_regrows == 0);
    CHECK(switch_set(SW_PCE, 1, err, sizeof err) == 0);

    /* partition 0 obtains the pce under the batch's floor (the classic
     * bound: the pce was not known at admission); partition 1 waits for it
     * rather than take a second classic bound, so every later partition is
     * reserved at the deferred peak, then shrunk */
    CHECK(run(&fx_backend_deferring, NULL, &deferred) == 0);
    fprintf(stderr, "reserved peaks: classic %llu, deferred %llu; waits for the pce %llu\n",
            (unsigned long long)classic.dbg.part_reserved_peak,
            (unsigned long long)deferred.dbg.part_reserved_peak,
            (unsigned long long)deferred.dbg.pce_probe_waits);
    CHECK(deferred.dbg.part_reserved_peak < classic.dbg.part_reserved_peak);
    CHECK(memcmp(classic.proof, deferred.proof, sizeof classic.proof) == 0);
    CHECK(deferred.dbg.mem_shrinks >= 1);
    CHECK(deferred.dbg.mem_regrows == 0);
    CHECK(deferred.part_bytes == 0 && deferred.part_actual == 0);

    /* the witness path fails from partition 2 on: each deferred reservation
     * is given back for the classic bound, then classic synthesis */
    CHECK(run(&fx_backend_deferring, "pce_fail_part=2", &fell_back) == 0);
    CHECK(memcmp(classic.proof, fell_back.proof, sizeof classic.proof) == 0);
    CHECK(fell_back.dbg.mem_regrows >= 1);
    CHECK(fell_back.part_bytes == 0 && fell_back.part_actual == 0);

    /* every PCE proof fails self-verification: re-synthesized classically,
     * a deferred partition's reservation grown to the classic bound first */
    fx_pce_flip = 1;
    CHECK(run(&fx_backend_deferring, NULL, &retried) == 0);
    fx_pce_flip = 0;
    CHECK(memcmp(classic.proof, retried.proof, sizeof classic.proof) == 0);
    CHECK(retried.dbg.self_verify_failures >= 1);
    CHECK(retried.dbg.mem_regrows >= 1);
    CHECK(retried.part_bytes == 0 && retried.part_actual == 0);

    /* two batches: classic floors need no headroom; beside a deferred-sized
     * floor one classic bound is kept free */
    static run_result two_classic, two_deferred;
    CHECK(run_two(&fx_backend, &two_classic) == 0);
    CHECK(two_classic.dbg.fallback_headroom_max == 0);
    CHECK(run_two(&fx_backend_deferring, &two_deferred) == 0);
    fprintf(stderr, "two batches: headroom kept %llu, reserved peak %llu\n",
            (unsigned long long)two_deferred.dbg.fallback_headroom_max,
            (unsigned long long)two_deferred.dbg.part_reserved_peak);
    CHECK(two_deferred.dbg.fallback_headroom_max > 0);
    CHECK(two_classic.part_bytes == 0 && two_deferred.part_bytes == 0);

    fx_cleanup();
    return check_finish();
}
