/* PCE through the engine (#28): WindowPoSt 2 KiB proofs with the switch pce
 * off and on, r and s fixed by CUZK_TEST_ONLY_RS_SEED, are byte-identical and
 * verify; the .pce is recorded into the parameter cache on first use; a
 * corrupt .pce found there is renamed .bad and rebuilt, and the proof is
 * still the same.  The proofs verify against inputs derived here. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
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

/* TEST-ONLY parameters of a PoSt circuit, written under its Filecoin name. */
static int write_params(const fc_post_proof *p, groth16_vk *vk_out) {
    post_shape s;
    post_shape_for_proof(&s, p);
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_matrices mx;
    if (!cs || post_circuit_synthesize(cs, &s, NULL) != 0 || r1cs_finish(cs) != R1CS_OK ||
        r1cs_take_matrices(cs, &mx) != R1CS_OK)
        return -1;
    r1cs_cs_free(cs);
    groth16_toxic t;
    groth16_setup_result res;
    groth16_error ge = {0};
    if (groth16_toxic_random(&t, &ge) != GROTH16_OK ||
        groth16_setup(&res, &mx, &t, 2, &ge) != GROTH16_OK) {
        fprintf(stderr, "setup: %s\n", ge.msg);
        return -1;
    }
    r1cs_matrices_free(&mx);
    char stem[200], path[400];
    fc_post_param_stem(stem, sizeof stem, p);
    groth16_params_data d = groth16_setup_data(&res);
    snprintf(path, sizeof path, "%s/%s.params", dir, stem);
    FILE *f = fopen(path, "wb");
    int ok = f && groth16_params_write(f, &d, &ge) == GROTH16_OK;
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/%s.vk", dir, stem);
    f = fopen(path, "wb");
    ok = ok && f && groth16_vk_write_file(f, &res.vk, &ge) == GROTH16_OK;
    if (f)
        fclose(f);
    *vk_out = res.vk; /* the vk's arrays move to the caller */
    memset(&res.vk, 0, sizeof res.vk);
    groth16_setup_free(&res);
    return ok ? 0 : -1;
}

typedef struct {
    fc_sealed s;
    fc_post_sector ps;
} sector;

static int seal(sector *x, uint64_t number) {
    fc_seal_params sp = {
        .proof = fc_seal_proof_by_id(5), .miner_id = 1000, .sector_number = number};
    check_rand_bytes(sp.ticket, 32);
    check_rand_bytes(sp.seed, 32);
    uint8_t raw[2032];
    check_rand_bytes(raw, sizeof raw);
    uint8_t *padded = fc_seal_pad_sector(raw, sizeof raw, 2048);
    char err[256];
    int rc = padded ? fc_seal_precommit(&x->s, &sp, padded, err, sizeof err) : -1;
    free(padded);
    if (rc) {
        fprintf(stderr, "seal: %s\n", err);
        return -1;
    }
    x->ps.tree_r = &x->s.tree_r;
    memcpy(x->ps.comm_c, x->s.comm_c, 32);
    memcpy(x->ps.comm_r_last, x->s.comm_r_last, 32);
    memcpy(x->ps.comm_r, x->s.comm_r, 32);
    x->ps.sector_id = number;
    return 0;
}

/* Public inputs derived here: per sector slot comm_r then its leaf challenges. */
static size_t expected_inputs(fr *out, const fc_post_proof *p, sector *const *secs, size_t n,
                              const uint8_t rnd[32]) {
    post_shape s;
    post_shape_for_proof(&s, p);
    size_t k = 0;
    for (size_t slot = 0; slot < s.sectors; slot++) {
        const sector *x = secs[slot < n ? slot : n - 1]; /* padding repeats the last */
        size_t real = slot < n ? slot : n - 1;
        CHECK(fr_from_bytes_le(&out[k++], x->ps.comm_r));
        for (unsigned j = 0; j < s.challenges; j++) {
            uint64_t idx =
                p->kind == FC_POST_WINNING
                    ? slot
                    : fc_post_challenge_index(p->grindability_fix, real, p->challenge_count, j);
            fr_set_u64(&out[k++],
                       fc_post_leaf_challenge(rnd, x->ps.sector_id, idx, p->shape->nodes));
        }
    }
    return k;
}

/* One WindowPoSt proof of the two sectors on a fresh engine (its PCE
 * manager starts empty), into out; 0 or -1. */
static int prove(uint8_t out[GROTH16_PROOF_BYTES], const fc_post_proof *p, sector *const *secs,
                 size_t n, const uint8_t rnd[32], const groth16_vk *vk) {
    cuzk_engine_config c;
    cuzk_engine_config_defaults(&c);
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
    CHECK(es.n_pce == (switch_get(SW_PCE) ? 1u : 0u));
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
        size_t k = expected_inputs(in, p, secs, n, rnd);
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
    setenv("CUZK_TEST_ONLY_RS_SEED", "5eed", 1);
    snprintf(dir, sizeof dir, "/tmp/cuzk-pce-test-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const fc_post_proof *window = fc_post_proof_by_id(10);
    groth16_vk vk;
    CHECK(write_params(window, &vk) == 0);
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

    fc_sealed_free(&a.s);
    fc_sealed_free(&b.s);
    groth16_vk_free(&vk);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return check_finish();
}
