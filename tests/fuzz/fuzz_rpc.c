/* libFuzzer target for the daemon's request decoding: server/rpc.c (the
 * protobuf-c unpack of each cuzk.v1 request and its translation into an
 * engine request) over an engine stand-in defined here.  The first input
 * byte picks the method, the rest is the request message.  Any input: the
 * reply is OK with a body, or an error code with a message; whatever rpc.c
 * hands the engine is read in full (so ASan sees any bad pointer or length),
 * and an OK reply's body decodes as that method's response. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/v1/proving.pb-c.h"
#include "server/rpc.h"
#include "util/slog.h"

#define must(cond)                                                                          \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "fuzz_rpc: property failed at line %d: %s\n", __LINE__, #cond); \
            abort();                                                                        \
        }                                                                                   \
    } while (0)

/* ---- the engine stand-in: touches every byte it is given ---------------------- */

static volatile unsigned sink;

static void touch(const uint8_t *p, size_t n) {
    must(p != NULL || n == 0);
    unsigned s = 0;
    for (size_t i = 0; i < n; i++)
        s += p[i];
    sink += s;
}

static void touch_str(const char *s, size_t cap) {
    must(s != NULL);
    must(strnlen(s, cap) < cap);
}

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_request *r, cuzk_submit_info *info,
                               char err[CUZK_ERROR_LEN]) {
    (void)e;
    must(r->kind > CUZK_KIND_UNSPECIFIED && r->kind < CUZK_KIND_COUNT);
    if (r->request_id)
        touch((const uint8_t *)r->request_id, strlen(r->request_id));
    touch(r->vanilla_proof, r->vanilla_proof_len);
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        touch(r->vanilla_proofs[i], r->vanilla_proofs_len[i]);
    touch(r->randomness, r->randomness ? 32 : 0);
    touch(r->comm_r_old, r->comm_r_old ? 32 : 0);
    touch(r->comm_r_new, r->comm_r_new ? 32 : 0);
    touch(r->comm_d_new, r->comm_d_new ? 32 : 0);
    if (r->vanilla_proof_len == 1) { /* some requests are refused, as the engine does */
        snprintf(err, CUZK_ERROR_LEN, "vanilla_proof: too short");
        return CUZK_E_INVALID;
    }
    memset(info, 0, sizeof *info);
    snprintf(info->job_id, sizeof info->job_id, "%s",
             r->request_id && r->request_id[0] ? r->request_id : "uuid");
    return CUZK_OK;
}

cuzk_status cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                              cuzk_result *out) {
    (void)e;
    (void)timeout_ms;
    touch_str(job_id, 1 << 20);
    memset(out, 0, sizeof *out);
    snprintf(out->job_id, sizeof out->job_id, "%s", job_id);
    if (job_id[0] == 'n')
        return CUZK_E_NOT_FOUND;
    out->state = job_id[0] == 'f' ? CUZK_JOB_FAILED : CUZK_JOB_COMPLETED;
    if (out->state == CUZK_JOB_COMPLETED) {
        out->proof = calloc(1, 192);
        out->proof_len = 192;
    } else {
        snprintf(out->error, sizeof out->error, "failed");
    }
    return CUZK_OK;
}

cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *job_id, int *was_running) {
    (void)e;
    touch_str(job_id, 1 << 20);
    *was_running = 0;
    return job_id[0] == 'n' ? CUZK_E_NOT_FOUND : CUZK_OK;
}

cuzk_status cuzk_engine_cancel_as(cuzk_engine *e, const char *job_id, const char *caller,
                                  int *was_running) {
    if (caller)
        touch_str(caller, 1 << 20);
    return cuzk_engine_cancel(e, job_id, was_running);
}

cuzk_status cuzk_engine_attach(cuzk_engine *e, const char *job_id, int created) {
    (void)e;
    (void)created;
    touch_str(job_id, 1 << 20);
    return CUZK_OK;
}

cuzk_status cuzk_engine_abandon(cuzk_engine *e, const char *job_id, int *cancelled) {
    (void)e;
    touch_str(job_id, 1 << 20);
    *cancelled = 0;
    return CUZK_OK;
}

cuzk_status cuzk_engine_preload_srs(cuzk_engine *e, const char *id, int *already_loaded,
                                    uint64_t *load_ms, char err[CUZK_ERROR_LEN]) {
    (void)e;
    touch_str(id, 1 << 20);
    *already_loaded = 0;
    *load_ms = 1;
    if (strcmp(id, "porep-2k") == 0)
        return CUZK_OK;
    snprintf(err, CUZK_ERROR_LEN, "unknown circuit");
    return CUZK_E_NOT_FOUND;
}

cuzk_status cuzk_engine_evict_srs(cuzk_engine *e, const char *id, int *was_loaded,
                                  uint64_t *freed_bytes) {
    (void)e;
    touch_str(id, 1 << 20);
    *was_loaded = 0;
    *freed_bytes = 0;
    return strcmp(id, "porep-2k") == 0 ? CUZK_OK : CUZK_E_NOT_FOUND;
}

void cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *s) {
    (void)e;
    memset(s, 0, sizeof *s);
    s->srs = calloc(1, sizeof *s->srs);
    s->n_srs = 1;
    snprintf(s->srs[0].circuit_id, sizeof s->srs[0].circuit_id, "porep-2k");
}

void cuzk_engine_status_clear(cuzk_engine_status *s) {
    free(s->gpus);
    free(s->srs);
    memset(s, 0, sizeof *s);
}

char *cuzk_engine_metrics_text(cuzk_engine *e) {
    (void)e;
    return strdup("# TYPE cuzk_up gauge\ncuzk_up 1\n");
}

void cuzk_result_clear(cuzk_result *r) {
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}

const char *cuzk_kind_name(cuzk_proof_kind k) {
    static const char *const n[] = {"unspecified", "porep_c2", "snap_deals", "window_post",
                                    "winning_post"};
    return (unsigned)k < CUZK_KIND_COUNT ? n[k] : "?";
}

const char *cuzk_status_name(cuzk_status s) { return s == CUZK_OK ? "ok" : "error"; }

/* ---- the target ------------------------------------------------------------------- */

static const ProtobufCMessageDescriptor *const responses[RPC_METHOD_COUNT] = {
    [RPC_SUBMIT_PROOF] = &cuzk__v1__submit_proof_response__descriptor,
    [RPC_AWAIT_PROOF] = &cuzk__v1__await_proof_response__descriptor,
    [RPC_PROVE] = &cuzk__v1__prove_response__descriptor,
    [RPC_CANCEL_PROOF] = &cuzk__v1__cancel_proof_response__descriptor,
    [RPC_GET_STATUS] = &cuzk__v1__get_status_response__descriptor,
    [RPC_GET_METRICS] = &cuzk__v1__get_metrics_response__descriptor,
    [RPC_PRELOAD_SRS] = &cuzk__v1__preload_srs_response__descriptor,
    [RPC_EVICT_SRS] = &cuzk__v1__evict_srs_response__descriptor,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int quiet;
    if (!quiet) {
        slog_set_level(SLOG_OFF);
        quiet = 1;
    }
    if (size == 0)
        return 0;
    rpc_method m = (rpc_method)(data[0] % RPC_METHOD_COUNT);
    /* an exact-size copy, so that ASan sees any read past the end */
    uint8_t *req = malloc(size - 1 ? size - 1 : 1);
    memcpy(req, data + 1, size - 1);
    rpc_reply r;
    rpc_handle(NULL, m, req, size - 1, NULL, &r);
    if (r.code == RPC_OK) {
        must(r.body != NULL || r.body_len == 0);
        ProtobufCMessage *msg = protobuf_c_message_unpack(responses[m], NULL, r.body_len, r.body);
        must(msg != NULL);
        protobuf_c_message_free_unpacked(msg, NULL);
    } else {
        must(r.message[0] != 0 && strnlen(r.message, sizeof r.message) < sizeof r.message);
    }
    free(r.body);
    free(req);
    return 0;
}
