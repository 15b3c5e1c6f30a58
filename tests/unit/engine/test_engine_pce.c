/* PCE through the engine (#28): WindowPoSt 2 KiB proofs with the switch pce
 * off and on, r and s fixed by the config's test_rs_seed, are byte-identical and
 * verify; the .pce is recorded into the parameter cache on first use; a
 * corrupt .pce found there is renamed .bad and rebuilt, and the proof is
 * still the same; a pce corrupted in memory (the config's test_pce_flip) makes a
 * proof that fails self-verification, and the engine synthesizes that
 * partition classically and proves it again: the job still completes with
 * the classic proof, and that pce is unmapped (suspect).  The proofs verify against inputs derived
 * here. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "post_fixture.h"
#include "cuzk/engine.h"
#include "engine/providers.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_circuit.h"
#include "filecoin/post/post_vanilla_gen.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "groth16/vk.h"
#include "sealer/sealer.h"
#include "sealer/sealer_data.h"
#include "util/switches.h"

static char dir[64];
static uint64_t last_svf;     /* the last engine's self-verification failures */
static unsigned want_pce = 1; /* pces held at the end, with the switch on */

/* One WindowPoSt proof of the two sectors on a fresh engine (its PCE
 * manager starts empty), into out; 0 or -1. */
/* TEST ONLY: the next engines corrupt their pce in memory */
static int g_pce_flip;

static int prove(uint8_t out[GROTH16_PROOF_BYTES], const fc_post_proof *p, sector *const *secs,
                 size_t n, const uint8_t rnd[32], const groth16_vk *vk) {
    cuzk_engine_config c;
    cuzk_engine_config_defaults(&c);
    snprintf(c.test_rs_seed, sizeof c.test_rs_seed, "5eed");
    c.test_pce_flip = g_pce_flip;
    snprintf(c.param_cache, sizeof c.param_cache, "%s", dir);
    c.trust_params = 1;
    c.memory_budget = 1ull << 30;
    c.synthesis_threads = 2;
    c.gpu_threads = 2;
    c.use_gpu = 0;
    char err[CUZK_ERROR_LEN];
    cuzk_engine *e = cuzk_engine_new(&c, err);
    CHECK(e != NULL);
    if (!e)
        return -1;
    CHECK(engine_register_filecoin_providers(e, err) == CUZK_OK);
    uint8_t *vp[2] = {0};
    size_t vl[2] = {0};
    for (size_t i = 0; i < n; i++)
        CHECK(fc_post_vanilla_generate(&vp[i], &vl[i], p, &secs[i]->ps, rnd, i, err, sizeof err) ==
              0);
    cuzk_request r = {.kind = CUZK_KIND_WINDOW_POST,
                      .registered_proof = p->id,
                      .vanilla_proofs = (const uint8_t *const *)vp,
                      .vanilla_proofs_len = vl,
                      .n_vanilla_proofs = n,
                      .miner_id = 1000,
                      .randomness = rnd};
    cuzk_submit_info info;
    int rc = -1;
    cuzk_result res;
    memset(&res, 0, sizeof res);
    if (cuzk_engine_submit(e, &r, &info, err) != CUZK_OK) {
        fprintf(stderr, "submit: %s\n", err);
    } else if (cuzk_engine_await(e, info.job_id, 0, &res) != CUZK_OK ||
               res.state != CUZK_JOB_COMPLETED || res.proof_len != GROTH16_PROOF_BYTES) {
        fprintf(stderr, "prove: %s\n", res.error);
    } else {
        memcpy(out, res.proof, GROTH16_PROOF_BYTES);
        rc = 0;
    }
    cuzk_result_clear(&res);
    /* /status: the pce held and counted in the budget while the switch is on */
    cuzk_engine_status es;
    cuzk_engine_get_status(e, &es);
    CHECK(es.n_pce == (switch_get(SW_PCE) ? want_pce : 0u));
    last_svf = es.self_verify_failures;
    if (es.n_pce) {
        CHECK(strcmp(es.pce[0].circuit_id, "wpost-2k") == 0);
        CHECK(es.pce[0].bytes > 0 && es.memory_in_use >= es.pce[0].bytes);
    }
    cuzk_engine_status_clear(&es);
    cuzk_engine_free(e);
    for (size_t i = 0; i < n; i++)
        free(vp[i]);
    if (rc == 0) { /* the verifier holds it against the .vk (the engine did too) */
        groth16_proof pr;
        groth16_pvk pvk;
        groth16_error ge = {0};
        CHECK(groth16_pvk_prepare(&pvk, vk, &ge) == GROTH16_OK);
        CHECK(groth16_proof_read(&pr, out, &ge) == GROTH16_OK);
        post_shape s;
        post_shape_for_proof(&s, p);
        fr *in = malloc(post_num_public_inputs(&s) * sizeof *in);
        size_t k = expected_inputs(in, p, secs, n, 0, rnd);
        CHECK(groth16_verify(&pvk, &pr, in, k, &ge) == GROTH16_OK);
        free(in);
        groth16_pvk_free(&pvk);
    }
    return rc;
}

static int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

int main(void) {
    check_seed("test_engine_pce");
    /* r, s fixed (the config's test_rs_seed): proofs comparable */
    snprintf(dir, sizeof dir, "/tmp/cuzk-pce-test-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const fc_post_proof *window = fc_post_proof_by_id(10);
    groth16_vk vk;
    CHECK(write_params(dir, window, &vk) == 0);
    sector a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    CHECK(seal(&a, 7) == 0 && seal(&b, 8) == 0);
    sector *two[2] = {&a, &b};
    uint8_t rnd[32];
    check_rand_bytes(rnd, 32);
    rnd[31] &= 0x3f;
    char stem[200], pce[400], bad[420];
    fc_post_param_stem(stem, sizeof stem, window);
    snprintf(pce, sizeof pce, "%s/%s.pce", dir, stem);
    snprintf(bad, sizeof bad, "%s.bad", pce);

    uint8_t classic[GROTH16_PROOF_BYTES], with[GROTH16_PROOF_BYTES], rebuilt[GROTH16_PROOF_BYTES];
    char err[256];
    CHECK(switch_set(SW_PCE, 0, err, sizeof err) == 0);
    CHECK(prove(classic, window, two, 2, rnd, &vk) == 0);
    CHECK(!exists(pce)); /* pce off: nothing recorded */
    CHECK(switch_set(SW_PCE, 1, err, sizeof err) == 0);
    CHECK(prove(with, window, two, 2, rnd, &vk) == 0);
    CHECK(exists(pce)); /* recorded on first use */
    CHECK(memcmp(classic, with, sizeof classic) == 0);
    /* the file is loaded by the next engine: same proof */
    memset(with, 0, sizeof with);
    CHECK(prove(with, window, two, 2, rnd, &vk) == 0);
    CHECK(memcmp(classic, with, sizeof classic) == 0);

    /* a corrupt file: one byte of a section flipped */
    FILE *f = fopen(pce, "r+b");
    CHECK(f != NULL);
    if (f) {
        CHECK(fseek(f, 8192 + 17, SEEK_SET) == 0);
        int ch = fgetc(f);
        CHECK(fseek(f, 8192 + 17, SEEK_SET) == 0);
        fputc(ch ^ 0x40, f);
        fclose(f);
    }
    CHECK(prove(rebuilt, window, two, 2, rnd, &vk) == 0);
    CHECK(exists(bad));
    CHECK(exists(pce));
    CHECK(memcmp(classic, rebuilt, sizeof classic) == 0);
    /* the rebuilt file opens cleanly: no second .bad */
    CHECK(unlink(bad) == 0);
    CHECK(prove(rebuilt, window, two, 2, rnd, &vk) == 0);
    CHECK(!exists(bad));
    CHECK(memcmp(classic, rebuilt, sizeof classic) == 0);

    CHECK(last_svf == 0);
    /* a pce corrupted in memory (one dictionary entry, TEST ONLY): the PCE
     * proof fails self-verification, the partition is synthesized classically
     * and proved again (logged): the job completes with the classic proof */
    g_pce_flip = 1;
    want_pce = 0; /* the suspect pce is unmapped */
    memset(rebuilt, 0, sizeof rebuilt);
    CHECK(prove(rebuilt, window, two, 2, rnd, &vk) == 0);
    CHECK(last_svf == 1);
    CHECK(memcmp(classic, rebuilt, sizeof classic) == 0);
    g_pce_flip = 0;

    fc_sealed_free(&a.s);
    fc_sealed_free(&b.s);
    groth16_vk_free(&vk);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return check_finish();
}
