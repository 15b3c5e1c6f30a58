/* WindowPoSt and WinningPoSt end to end through the engine on 2 KiB sectors:
 * seal sectors natively, generate their vanilla proofs as Curio would send
 * them (bincode FallbackPoStSectorProof), make TEST-ONLY parameters for the
 * circuits under their Filecoin names, submit the requests the way the
 * daemon does, and check the 192-byte proofs with the verifier against the
 * .vk on disk and public inputs derived here independently of the engine.
 * Requests with other randomness, a wrong proof id or a damaged vanilla
 * proof are refused at submit with a message. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "post_fixture.h"
#include "cuzk/engine.h"
#include "engine/providers.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_circuit.h"
#include "filecoin/post/post_vanilla_gen.h"
#include "sealer/sealer.h"
#include "sealer/sealer_data.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "groth16/vk.h"

static char dir[64];

static void prove_and_check(cuzk_engine *e, const fc_post_proof *p, const groth16_vk *vk,
                            sector *const *secs, size_t n) {
    uint8_t rnd[32];
    check_rand_bytes(rnd, 32);
    rnd[31] &= 0x3f; /* Curio masks randomness into Fr */
    uint8_t *vp[2] = {0};
    size_t vl[2] = {0};
    char err[CUZK_ERROR_LEN];
    for (size_t i = 0; i < n; i++)
        CHECK(fc_post_vanilla_generate(&vp[i], &vl[i], p, &secs[i]->ps, rnd, i, err, sizeof err) ==
              0);
    cuzk_request r = {.kind = p->kind == FC_POST_WINNING ? CUZK_KIND_WINNING_POST
                                                         : CUZK_KIND_WINDOW_POST,
                      .registered_proof = p->id,
                      .vanilla_proofs = (const uint8_t *const *)vp,
                      .vanilla_proofs_len = vl,
                      .n_vanilla_proofs = n,
                      .miner_id = 1000,
                      .randomness = rnd};
    cuzk_submit_info info;
    cuzk_status st = cuzk_engine_submit(e, &r, &info, err);
    CHECK(st == CUZK_OK);
    if (st != CUZK_OK) {
        fprintf(stderr, "%s: submit: %s\n", p->name, err);
        goto done;
    }
    cuzk_result res;
    CHECK(cuzk_engine_await(e, info.job_id, 0, &res) == CUZK_OK);
    CHECK(res.state == CUZK_JOB_COMPLETED && res.proof_len == GROTH16_PROOF_BYTES);
    if (res.state != CUZK_JOB_COMPLETED)
        fprintf(stderr, "%s: %s\n", p->name, res.error);
    else {
        /* Independent of the engine: our verifier, the .vk from setup, inputs derived here. */
        post_shape s;
        post_shape_for_proof(&s, p);
        fr *in = malloc(post_num_public_inputs(&s) * sizeof *in);
        size_t k = expected_inputs(in, p, secs, n, 0, rnd);
        groth16_proof pr;
        groth16_pvk pvk;
        groth16_error ge = {0};
        CHECK(groth16_pvk_prepare(&pvk, vk, &ge) == GROTH16_OK);
        CHECK(groth16_proof_read(&pr, res.proof, &ge) == GROTH16_OK);
        CHECK(groth16_verify(&pvk, &pr, in, k, &ge) == GROTH16_OK);
        fr_add(&in[k - 1], &in[k - 1], &in[0]); /* any other input: rejected */
        CHECK(groth16_verify(&pvk, &pr, in, k, &ge) != GROTH16_OK);
        groth16_pvk_free(&pvk);
        free(in);
        printf("%s: %zu sector(s) proved, %zu-byte proof verified (prove %llu ms)\n", p->name, n,
               res.proof_len, (unsigned long long)res.timings.prove_ms);
    }
    cuzk_result_clear(&res);

    /* Other randomness: the paths open other leaves, refused at submit. */
    uint8_t other[32];
    memcpy(other, rnd, 32);
    other[0] ^= 1;
    r.randomness = other;
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    CHECK(strstr(err, "the randomness challenges leaf") != NULL);
    r.randomness = rnd;
    /* A damaged sibling: the path no longer reaches comm_r_last. */
    size_t at = vl[0] - 64 - 20; /* inside the last path's last sibling or index */
    vp[0][at] ^= 0x01;
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    CHECK(err[0] != 0);
    vp[0][at] ^= 0x01;
    vp[0][100] ^= 0x01; /* a leaf */
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    CHECK(strstr(err, "does not reach comm_r_last") != NULL);
    vp[0][100] ^= 0x01;
    /* The wrong kind for the proof id. */
    r.kind = r.kind == CUZK_KIND_WINNING_POST ? CUZK_KIND_WINDOW_POST : CUZK_KIND_WINNING_POST;
    CHECK(cuzk_engine_submit(e, &r, NULL, err) == CUZK_E_INVALID);
    CHECK(strstr(err, "is not a") != NULL);
done:
    for (size_t i = 0; i < n; i++)
        free(vp[i]);
}

int main(void) {
    check_seed("test_engine_post");
    snprintf(dir, sizeof dir, "/tmp/cuzk-post-test-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const fc_post_proof *window = fc_post_proof_by_id(10); /* Window 2 KiB V1_1 */
    const fc_post_proof *window_v1 = fc_post_proof_by_id(5);
    const fc_post_proof *winning = fc_post_proof_by_id(0); /* Winning 2 KiB */
    groth16_vk vk_window, vk_winning;
    CHECK(write_params(dir, window, &vk_window) == 0);
    CHECK(write_params(dir, winning, &vk_winning) == 0);

    sector a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    CHECK(seal(&a, 7) == 0 && seal(&b, 8) == 0);

    cuzk_engine_config c;
    cuzk_engine_config_defaults(&c);
    snprintf(c.param_cache, sizeof c.param_cache, "%s", dir);
    c.trust_params = 1; /* test-only parameters under the published names, no .meta */
    c.memory_budget = 1ull << 30;
    c.synthesis_threads = 1;
    c.gpu_threads = 2;
    c.use_gpu = 0;
    char err[CUZK_ERROR_LEN];
    cuzk_engine *e = cuzk_engine_new(&c, err);
    CHECK(e != NULL);
    if (e)
        CHECK(engine_register_filecoin_providers(e, err) == CUZK_OK);
    if (e) {
        sector *two[2] = {&a, &b}, *one[1] = {&b};
        prove_and_check(e, window, &vk_window, two, 2);
        prove_and_check(e, window, &vk_window, one, 1);    /* padded by repeating the sector */
        prove_and_check(e, window_v1, &vk_window, two, 2); /* same parameters, V1 challenges */
        prove_and_check(e, winning, &vk_winning, one, 1);
        cuzk_engine_free(e);
    }
    fc_sealed_free(&a.s);
    fc_sealed_free(&b.s);
    groth16_vk_free(&vk_window);
    groth16_vk_free(&vk_winning);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return check_finish();
}
