/* SnapDeals through the engine with PCE (#28), given the snap-2k TEST-ONLY
 * parameters (argv[1]: the folder `cuzk setup snap-2k --out` wrote; ctest
 * label slow): a 2 KiB update proved with the switch pce off, then on (its
 * .pce recorded into the parameter cache on first use), then on again (the
 * .pce loaded), r and s fixed by the config's test_rs_seed: every job completes
 * (so its proof passed the engine's self-verification) and the three proofs
 * are byte-identical. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../filecoin/snap_test_util.h"
#include "check.h"
#include "cli/circuit_names.h"
#include "cuzk/engine.h"
#include "engine/providers.h"
#include "groth16/proof.h"
#include "util/switches.h"

static char dir[64];

static int prove(uint8_t out[GROTH16_PROOF_BYTES], snap_fixture *f) {
    cuzk_engine_config c;
    cuzk_engine_config_defaults(&c);
    snprintf(c.test_rs_seed, sizeof c.test_rs_seed, "5eed");
    snprintf(c.param_cache, sizeof c.param_cache, "%s", dir);
    c.trust_params = 1;
    c.memory_budget = 4ull << 30;
    c.synthesis_threads = 2;
    c.gpu_threads = 2;
    c.use_gpu = 0;
    char err[CUZK_ERROR_LEN];
    cuzk_engine *e = cuzk_engine_new(&c, err);
    CHECK(e != NULL);
    if (!e)
        return -1;
    CHECK(engine_register_filecoin_providers(e, err) == CUZK_OK);
    const uint8_t *v[1] = {f->vanilla[0]};
    size_t len[1] = {f->len[0]};
    cuzk_request r = {.kind = CUZK_KIND_SNAP_DEALS,
                      .registered_proof = 0,
                      .vanilla_proofs = v,
                      .vanilla_proofs_len = len,
                      .n_vanilla_proofs = 1,
                      .comm_r_old = f->u.comm_r_old,
                      .comm_r_new = f->u.comm_r_new,
                      .comm_d_new = f->u.comm_d_new};
    cuzk_submit_info info;
    cuzk_result res;
    memset(&res, 0, sizeof res);
    int rc = -1;
    if (cuzk_engine_submit(e, &r, &info, err) != CUZK_OK)
        fprintf(stderr, "submit: %s\n", err);
    else if (cuzk_engine_await(e, info.job_id, 0, &res) != CUZK_OK ||
             res.state != CUZK_JOB_COMPLETED || res.proof_len != GROTH16_PROOF_BYTES)
        fprintf(stderr, "prove: %s\n", res.error);
    else {
        memcpy(out, res.proof, GROTH16_PROOF_BYTES);
        rc = 0;
    }
    cuzk_result_clear(&res);
    cuzk_engine_status es;
    cuzk_engine_get_status(e, &es);
    CHECK(es.n_pce == (switch_get(SW_PCE) ? 1u : 0u));
    CHECK(es.self_verify_failures == 0);
    cuzk_engine_status_clear(&es);
    cuzk_engine_free(e);
    return rc;
}

int main(int argc, char **argv) {
    check_seed("test_engine_snap_pce");
    if (argc < 2) {
        fprintf(stderr, "usage: test_engine_snap_pce PARAMS_DIR (snap-2k parameters)\n");
        return 2;
    }
    /* r, s fixed (the config's test_rs_seed): proofs comparable */
    snprintf(dir, sizeof dir, "/tmp/cuzk-snap-pce-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    circuit_name c;
    CHECK(circuit_name_parse(&c, "snap-2k") == 0);
    char src[4200], dst[4200], pce[4200];
    static const char *const ext[3] = {"params", "vk", "meta"};
    for (int i = 0; i < 3; i++) { /* the parameters linked: the .pce stays in dir */
        snprintf(src, sizeof src, "%s/%s.%s", argv[1], c.stem, ext[i]);
        snprintf(dst, sizeof dst, "%s/%s.%s", dir, c.stem, ext[i]);
        char *abs = realpath(src, NULL);
        CHECK(abs != NULL);
        if (abs)
            CHECK(symlink(abs, dst) == 0);
        free(abs);
    }
    snprintf(pce, sizeof pce, "%s/%s.pce", dir, c.stem);
    snap_fixture f;
    CHECK(snap_fixture_make(&f, fc_update_proof_by_id(0), 0) == 0);
    uint8_t off[GROTH16_PROOF_BYTES], on[GROTH16_PROOF_BYTES], again[GROTH16_PROOF_BYTES];
    char err[256];
    struct stat st;
    CHECK(switch_set(SW_PCE, 0, err, sizeof err) == 0);
    CHECK(prove(off, &f) == 0);
    CHECK(stat(pce, &st) != 0); /* pce off: nothing recorded */
    CHECK(switch_set(SW_PCE, 1, err, sizeof err) == 0);
    CHECK(prove(on, &f) == 0);
    CHECK(stat(pce, &st) == 0); /* recorded on first use */
    CHECK(memcmp(off, on, sizeof off) == 0);
    CHECK(prove(again, &f) == 0); /* loaded */
    CHECK(memcmp(off, again, sizeof off) == 0);
    snap_fixture_free(&f);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return check_finish();
}
