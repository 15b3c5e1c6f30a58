/* The SnapDeals provider through the engine, without parameters: a 2 KiB
 * update (snap_test_util.h) submitted as the daemon does (registered_proof 0,
 * sector_size 0) plans and is queued under circuit id snap-2k (it then fails
 * for want of the snap-2k parameter file, which this test does not make:
 * proving is tests/snap_e2e.sh and snap_daemon_e2e).  Every bad request is
 * refused at submit with CUZK_E_INVALID and a message naming the field: a
 * wrong registered proof or sector size, a missing commitment, another
 * comm_d_new / comm_r_old, a tampered path sibling, a trailing byte, a
 * missing or extra partition proof. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../filecoin/snap_test_util.h"
#include "check.h"
#include "cuzk/engine.h"
#include "engine/providers.h"

static cuzk_request request(snap_fixture *f, const uint8_t *const *v, const size_t *len, size_t n) {
    return (cuzk_request){.kind = CUZK_KIND_SNAP_DEALS,
                          .registered_proof = 0,
                          .vanilla_proofs = v,
                          .vanilla_proofs_len = len,
                          .n_vanilla_proofs = n,
                          .comm_r_old = f->u.comm_r_old,
                          .comm_r_new = f->u.comm_r_new,
                          .comm_d_new = f->u.comm_d_new};
}

static void refused(cuzk_engine *e, const cuzk_request *r, const char *want, const char *what) {
    char err[CUZK_ERROR_LEN] = "";
    cuzk_status st = cuzk_engine_submit(e, r, NULL, err);
    CHECK(st == CUZK_E_INVALID);
    CHECK(strstr(err, want) != NULL);
    if (st != CUZK_E_INVALID || !strstr(err, want))
        fprintf(stderr, "%s: status %d, \"%s\" (wanted \"%s\")\n", what, (int)st, err, want);
}

int main(void) {
    check_seed("test_engine_snap");
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/cuzk-snap-test-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snap_fixture f;
    CHECK(snap_fixture_make(&f, fc_update_proof_by_id(0), 0) == 0);

    cuzk_engine_config c;
    cuzk_engine_config_defaults(&c);
    snprintf(c.param_cache, sizeof c.param_cache, "%s", dir);
    c.memory_budget = 1ull << 30;
    c.synthesis_threads = 1;
    c.gpu_threads = 1;
    c.use_gpu = 0;
    char err[CUZK_ERROR_LEN];
    cuzk_engine *e = cuzk_engine_new(&c, err);
    CHECK(e != NULL);
    if (e)
        CHECK(engine_register_filecoin_providers(e, err) == CUZK_OK);
    if (e) {
        const uint8_t *v[2] = {f.vanilla[0], f.vanilla[0]};
        size_t len[2] = {f.len[0], f.len[0]};
        cuzk_request r = request(&f, v, len, 1);

        /* A good request plans and is queued; no parameters: it fails naming them. */
        cuzk_submit_info info;
        CHECK(cuzk_engine_submit(e, &r, &info, err) == CUZK_OK);
        cuzk_result res;
        CHECK(cuzk_engine_await(e, info.job_id, 0, &res) == CUZK_OK);
        CHECK(res.state == CUZK_JOB_FAILED);
        CHECK(strstr(res.error, "snap-2k") != NULL);
        CHECK(strstr(res.error, "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-") !=
              NULL);
        printf("no parameters: %s\n", res.error);
        cuzk_result_clear(&res);

        cuzk_request x = r;
        x.registered_proof = 5;
        refused(e, &x, "registered_proof: 5 is not a RegisteredUpdateProof", "proof 5");
        x = r;
        x.sector_size = 8u << 20;
        refused(e, &x, "sector_size: 8388608", "sector size");
        x = r;
        x.comm_r_new = NULL;
        refused(e, &x, "comm_r_new: missing", "no comm_r_new");
        x = r;
        x.comm_d_new = f.u.comm_r_old;
        refused(e, &x, "comm_d_new", "another comm_d_new");
        x = r;
        x.comm_r_old = f.u.comm_r_new;
        refused(e, &x, "is not comm_r_old", "another comm_r_old");
        x = r;
        x.n_vanilla_proofs = 2;
        refused(e, &x, "vanilla_proofs: 2 partition proofs", "two partitions");
        x = r;
        x.vanilla_proofs = NULL;
        x.n_vanilla_proofs = 0;
        refused(e, &x, "vanilla_proofs: missing", "none");

        uint8_t *t = malloc(f.len[0] + 1);
        CHECK(t != NULL);
        if (t) {
            /* challenge 0's proof_r_old, sibling 0 (after comm_c, 8 apex leaves) */
            memcpy(t, f.vanilla[0], f.len[0]);
            t[390] ^= 0x5a;
            const uint8_t *tv[1] = {t};
            x = request(&f, tv, len, 1);
            refused(e, &x, "vanilla_proofs[0] (partition 0): challenge_proofs[0].proof_r_old",
                    "tampered sibling");
            memcpy(t, f.vanilla[0], f.len[0]);
            t[f.len[0]] = 0;
            size_t tl[1] = {f.len[0] + 1};
            x = request(&f, tv, tl, 1);
            refused(e, &x, "vanilla_proofs[0]", "trailing byte");
            free(t);
        }
        cuzk_engine_free(e);
    }
    snap_fixture_free(&f);
    rmdir(dir);
    return check_finish();
}
