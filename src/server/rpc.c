/* cuzk.v1 method bodies (see rpc.h).
 *
 * Each handler decodes its request with protobuf-c, checks what can be
 * checked on the wire (enum ranges, byte lengths, sector sizes), calls the
 * engine, and packs the answer.  Engine errors map to gRPC codes one to one
 * (rpc_code_from_status).  Waits are sliced: the handler asks the engine for
 * at most AWAIT_SLICE_MS at a time and looks at the call probe in between, so
 * a client that cancels or runs out of deadline is noticed within one slice
 * -- Prove then cancels the job it created, AwaitProof just stops waiting
 * (the job belongs to whoever submitted it).  A job's owner is the
 * connection that submitted it (the probe's peer): CancelProof from another
 * connection is PERMISSION_DENIED unless it presented the shared secret. */
#include "server/rpc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/v1/proving.pb-c.h"
#include "util/slog.h"

#define AWAIT_SLICE_MS 200

const char *const rpc_method_path[RPC_METHOD_COUNT] = {
    "/cuzk.v1.ProvingEngine/SubmitProof", "/cuzk.v1.ProvingEngine/AwaitProof",
    "/cuzk.v1.ProvingEngine/Prove",       "/cuzk.v1.ProvingEngine/CancelProof",
    "/cuzk.v1.ProvingEngine/GetStatus",   "/cuzk.v1.ProvingEngine/GetMetrics",
    "/cuzk.v1.ProvingEngine/PreloadSRS",  "/cuzk.v1.ProvingEngine/EvictSRS"};

int rpc_code_from_status(cuzk_status s) {
    switch (s) {
    case CUZK_OK:
        return RPC_OK;
    case CUZK_E_INVALID:
        return RPC_INVALID_ARGUMENT;
    case CUZK_E_UNSUPPORTED:
        return RPC_UNIMPLEMENTED;
    case CUZK_E_NOT_FOUND:
        return RPC_NOT_FOUND;
    case CUZK_E_TIMEOUT:
        return RPC_DEADLINE_EXCEEDED;
    case CUZK_E_EXHAUSTED:
        return RPC_RESOURCE_EXHAUSTED;
    case CUZK_E_SHUTDOWN:
        return RPC_UNAVAILABLE;
    case CUZK_E_INTERNAL:
        return RPC_INTERNAL;
    case CUZK_E_EXISTS:
        return RPC_ALREADY_EXISTS;
    case CUZK_E_DENIED:
        return RPC_PERMISSION_DENIED;
    }
    return RPC_INTERNAL;
}

const char *rpc_code_name(int code) {
    switch (code) {
    case RPC_OK:
        return "OK";
    case RPC_CANCELLED:
        return "CANCELLED";
    case RPC_UNKNOWN:
        return "UNKNOWN";
    case RPC_INVALID_ARGUMENT:
        return "INVALID_ARGUMENT";
    case RPC_DEADLINE_EXCEEDED:
        return "DEADLINE_EXCEEDED";
    case RPC_NOT_FOUND:
        return "NOT_FOUND";
    case RPC_ALREADY_EXISTS:
        return "ALREADY_EXISTS";
    case RPC_PERMISSION_DENIED:
        return "PERMISSION_DENIED";
    case RPC_RESOURCE_EXHAUSTED:
        return "RESOURCE_EXHAUSTED";
    case RPC_UNIMPLEMENTED:
        return "UNIMPLEMENTED";
    case RPC_INTERNAL:
        return "INTERNAL";
    case RPC_UNAVAILABLE:
        return "UNAVAILABLE";
    }
    return "?";
}

static void fail(rpc_reply *out, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(rpc_reply *out, int code, const char *fmt, ...) {
    out->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message, sizeof out->message, fmt, ap);
    va_end(ap);
}

/* Packs msg into out->body with OK. */
static void reply(rpc_reply *out, const ProtobufCMessage *msg) {
    size_t n = protobuf_c_message_get_packed_size(msg);
    out->body = malloc(n ? n : 1);
    if (out->body == NULL) {
        fail(out, RPC_INTERNAL, "out of memory packing the response");
        return;
    }
    out->body_len = protobuf_c_message_pack(msg, out->body);
    out->code = RPC_OK;
}

static uint64_t mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int probe_gone(const rpc_call_probe *p) { return p && p->gone && p->gone(p->arg); }

/* ---- request translation ------------------------------------------------- */

static int valid_sector_size(uint64_t s) {
    return s == 0 || s == 2048 || s == (8ull << 20) || s == (512ull << 20) || s == (32ull << 30) ||
           s == (64ull << 30);
}

/* Wire checks and conversion of SubmitProofRequest; the pointers in r borrow
 * from m (and from *lens, which the caller frees). */
static int to_request(const Cuzk__V1__SubmitProofRequest *m, cuzk_request *r, size_t **lens,
                      rpc_reply *out) {
    memset(r, 0, sizeof *r);
    *lens = NULL;
    int kind = (int)m->proof_kind;
    if (kind < CUZK_KIND_POREP_C2 || kind >= CUZK_KIND_COUNT) {
        fail(out, RPC_INVALID_ARGUMENT, "invalid proof_kind: %d", kind);
        return -1;
    }
    int prio = (int)m->priority;
    if (prio < CUZK_PRIORITY_DEFAULT || prio > CUZK_PRIORITY_CRITICAL) {
        fail(out, RPC_INVALID_ARGUMENT, "invalid priority: %d", prio);
        return -1;
    }
    if (!valid_sector_size(m->sector_size)) {
        fail(out, RPC_INVALID_ARGUMENT,
             "invalid sector_size: %" PRIu64 " (0 or 2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
             m->sector_size);
        return -1;
    }
    if (strlen(m->request_id) >= CUZK_JOB_ID_LEN) {
        fail(out, RPC_INVALID_ARGUMENT, "request_id is longer than %d bytes", CUZK_JOB_ID_LEN - 1);
        return -1;
    }
    const struct {
        const char *name;
        const ProtobufCBinaryData *d;
        const uint8_t **dst;
    } b32[] = {{"randomness", &m->randomness, &r->randomness},
               {"comm_r_old", &m->comm_r_old, &r->comm_r_old},
               {"comm_r_new", &m->comm_r_new, &r->comm_r_new},
               {"comm_d_new", &m->comm_d_new, &r->comm_d_new}};
    for (size_t i = 0; i < sizeof b32 / sizeof b32[0]; i++) {
        if (b32[i].d->len != 0 && b32[i].d->len != 32) {
            fail(out, RPC_INVALID_ARGUMENT, "%s must be 32 bytes, got %zu", b32[i].name,
                 b32[i].d->len);
            return -1;
        }
        *b32[i].dst = b32[i].d->len ? b32[i].d->data : NULL;
    }
    r->request_id = m->request_id;
    r->kind = (cuzk_proof_kind)kind;
    r->priority = (cuzk_priority)prio;
    r->sector_size = m->sector_size;
    r->registered_proof = m->registered_proof;
    r->vanilla_proof = m->vanilla_proof.data;
    r->vanilla_proof_len = m->vanilla_proof.len;
    r->n_vanilla_proofs = m->n_vanilla_proofs;
    if (m->n_vanilla_proofs) {
        /* the engine takes parallel pointer/length arrays */
        const uint8_t **ptrs = calloc(m->n_vanilla_proofs, sizeof *ptrs);
        size_t *l = calloc(m->n_vanilla_proofs, sizeof *l);
        if (ptrs == NULL || l == NULL) {
            free(ptrs);
            free(l);
            fail(out, RPC_RESOURCE_EXHAUSTED, "out of memory for %zu vanilla proofs",
                 m->n_vanilla_proofs);
            return -1;
        }
        for (size_t i = 0; i < m->n_vanilla_proofs; i++) {
            ptrs[i] = m->vanilla_proofs[i].data;
            l[i] = m->vanilla_proofs[i].len;
        }
        r->vanilla_proofs = ptrs;
        r->vanilla_proofs_len = l;
        *lens = l;
    }
    r->sector_number = m->sector_number;
    r->miner_id = m->miner_id;
    r->partition_index = m->partition_index;
    return 0;
}

static void free_request(cuzk_request *r) {
    free((void *)r->vanilla_proofs);
    free((void *)r->vanilla_proofs_len);
}

/* Submits; fills info or out's error.  Logs every decision. */
static int submit(cuzk_engine *e, const Cuzk__V1__SubmitProofRequest *m,
                  const rpc_call_probe *probe, cuzk_submit_info *info, rpc_reply *out) {
    cuzk_request r;
    size_t *lens;
    if (to_request(m, &r, &lens, out) != 0) {
        slog(SLOG_WARN, "rpc", "submit rejected request_id=%s code=%s error=\"%s\"", m->request_id,
             rpc_code_name(out->code), out->message);
        return -1;
    }
    r.held_bytes = probe ? probe->held : 0; /* the transport counted the message's copies */
    r.owner = probe ? probe->peer : NULL;
    char err[CUZK_ERROR_LEN] = "";
    cuzk_status st = cuzk_engine_submit(e, &r, info, err);
    free_request(&r);
    if (st != CUZK_OK) {
        fail(out, rpc_code_from_status(st), "%s", err[0] ? err : cuzk_status_name(st));
        slog(SLOG_WARN, "rpc", "submit rejected request_id=%s code=%s error=\"%s\"", m->request_id,
             rpc_code_name(out->code), out->message);
        return -1;
    }
    slog(SLOG_INFO, "rpc", "submitted job_id=%s kind=%s existing=%d queue_position=%u",
         info->job_id, cuzk_kind_name(r.kind), info->existing, info->queue_position);
    return 0;
}

/* ---- waiting ------------------------------------------------------------- */

typedef enum { WAIT_DONE, WAIT_TIMEOUT, WAIT_GONE, WAIT_ERROR } wait_result;

/* Waits for job_id up to timeout_ms (0 = no limit) in slices, watching the
 * probe.  WAIT_DONE/WAIT_TIMEOUT leave res filled; WAIT_ERROR sets *st. */
static wait_result wait_job(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                            const rpc_call_probe *probe, cuzk_result *res, cuzk_status *st) {
    uint64_t start = mono_ms();
    for (;;) {
        uint64_t slice = AWAIT_SLICE_MS;
        if (timeout_ms) {
            uint64_t spent = mono_ms() - start;
            if (spent >= timeout_ms)
                return WAIT_TIMEOUT;
            if (timeout_ms - spent < slice)
                slice = timeout_ms - spent;
        }
        cuzk_result_clear(res);
        *st = cuzk_engine_await(e, job_id, slice, res);
        if (*st == CUZK_OK)
            return WAIT_DONE;
        if (*st != CUZK_E_TIMEOUT)
            return WAIT_ERROR;
        if (probe_gone(probe))
            return WAIT_GONE;
    }
}

static void fill_result(Cuzk__V1__AwaitProofResponse *r, const cuzk_result *res, int timed_out) {
    r->job_id = (char *)res->job_id;
    if (timed_out)
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
    else if (res->state == CUZK_JOB_COMPLETED)
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
    else if (res->state == CUZK_JOB_FAILED)
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
    else if (res->state == CUZK_JOB_CANCELLED)
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED;
    else
        r->status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN;
    if (res->state == CUZK_JOB_COMPLETED && !timed_out) {
        r->proof.data = res->proof;
        r->proof.len = res->proof_len;
    }
    r->error_message =
        (char *)(timed_out ? "timed out waiting for the proof; the job continues" : res->error);
    r->queue_wait_ms = res->timings.queue_wait_ms;
    r->srs_load_ms = res->timings.srs_load_ms;
    r->synthesis_ms = res->timings.synthesis_ms;
    r->gpu_compute_ms = res->timings.prove_ms;
    r->total_ms = res->timings.total_ms;
}

static const char *state_name(cuzk_job_state s) {
    static const char *const n[] = {"queued", "running", "completed", "failed", "cancelled"};
    return (unsigned)s <= CUZK_JOB_CANCELLED ? n[s] : "?";
}

/* ---- the methods ---------------------------------------------------------- */

static void do_submit(cuzk_engine *e, const uint8_t *req, size_t len, const rpc_call_probe *probe,
                      rpc_reply *out) {
    Cuzk__V1__SubmitProofRequest *m = cuzk__v1__submit_proof_request__unpack(NULL, len, req);
    if (m == NULL) {
        fail(out, RPC_INVALID_ARGUMENT, "SubmitProofRequest does not decode");
        return;
    }
    cuzk_submit_info info;
    if (submit(e, m, probe, &info, out) == 0) {
        Cuzk__V1__SubmitProofResponse r = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        r.job_id = info.job_id;
        r.queue_position = info.queue_position;
        reply(out, &r.base);
    }
    cuzk__v1__submit_proof_request__free_unpacked(m, NULL);
}

static void do_await(cuzk_engine *e, const uint8_t *req, size_t len, const rpc_call_probe *probe,
                     rpc_reply *out) {
    Cuzk__V1__AwaitProofRequest *m = cuzk__v1__await_proof_request__unpack(NULL, len, req);
    if (m == NULL) {
        fail(out, RPC_INVALID_ARGUMENT, "AwaitProofRequest does not decode");
        return;
    }
    if (m->job_id[0] == 0) {
        fail(out, RPC_INVALID_ARGUMENT, "missing job_id");
    } else {
        cuzk_result res;
        memset(&res, 0, sizeof res);
        cuzk_status st;
        wait_result w = wait_job(e, m->job_id, m->timeout_ms, probe, &res, &st);
        if (w == WAIT_ERROR) {
            fail(out, rpc_code_from_status(st), "%s",
                 res.error[0] ? res.error : cuzk_status_name(st));
        } else if (w == WAIT_GONE) {
            fail(out, RPC_CANCELLED, "the caller went away; job %s continues", m->job_id);
            slog(SLOG_INFO, "rpc", "await abandoned job_id=%s", m->job_id);
        } else {
            Cuzk__V1__AwaitProofResponse r = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
            if (res.job_id[0] == 0)
                snprintf(res.job_id, sizeof res.job_id, "%s", m->job_id);
            fill_result(&r, &res, w == WAIT_TIMEOUT);
            reply(out, &r.base);
            slog(SLOG_DEBUG, "rpc", "await answered job_id=%s state=%s timed_out=%d", m->job_id,
                 state_name(res.state), w == WAIT_TIMEOUT);
        }
        cuzk_result_clear(&res);
    }
    cuzk__v1__await_proof_request__free_unpacked(m, NULL);
}

static void do_prove(cuzk_engine *e, const uint8_t *req, size_t len, const rpc_call_probe *probe,
                     rpc_reply *out) {
    Cuzk__V1__ProveRequest *m = cuzk__v1__prove_request__unpack(NULL, len, req);
    if (m == NULL) {
        fail(out, RPC_INVALID_ARGUMENT, "ProveRequest does not decode");
        return;
    }
    cuzk_submit_info info;
    if (m->submit == NULL) {
        fail(out, RPC_INVALID_ARGUMENT, "missing submit field");
    } else if (submit(e, m->submit, probe, &info, out) == 0) {
        /* the job holds its own copy: the request's bytes go back now, not
         * when the proof is done */
        cuzk__v1__prove_request__free_unpacked(m, NULL);
        m = NULL;
        if (probe && probe->drop)
            probe->drop(probe->arg);
        cuzk_result res;
        memset(&res, 0, sizeof res);
        cuzk_status st;
        cuzk_engine_attach(e, info.job_id, !info.existing);
        wait_result w = wait_job(e, info.job_id, 0, probe, &res, &st);
        if (w == WAIT_ERROR) {
            fail(out, rpc_code_from_status(st), "%s",
                 res.error[0] ? res.error : cuzk_status_name(st));
        } else if (w == WAIT_GONE) {
            /* Nobody may collect this proof: the engine stops it when this was
             * its last waiting caller and a Prove created it (a SubmitProof
             * caller or a retry still waiting keeps it).  Abandoned, not
             * cancelled: a retry with this id starts it again. */
            int cancelled = 0;
            cuzk_engine_abandon(e, info.job_id, &cancelled);
            fail(out, RPC_CANCELLED, "the caller went away; job %s %s", info.job_id,
                 cancelled ? "cancelled" : "continues");
            slog(SLOG_INFO, "rpc", "prove abandoned by the caller job_id=%s cancelled=%d",
                 info.job_id, cancelled);
        } else {
            Cuzk__V1__AwaitProofResponse r = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
            Cuzk__V1__ProveResponse pr = CUZK__V1__PROVE_RESPONSE__INIT;
            if (res.job_id[0] == 0)
                snprintf(res.job_id, sizeof res.job_id, "%s", info.job_id);
            fill_result(&r, &res, 0);
            pr.result = &r;
            reply(out, &pr.base);
            slog(res.state == CUZK_JOB_COMPLETED ? SLOG_INFO : SLOG_WARN, "rpc",
                 "prove finished job_id=%s state=%s total_ms=%" PRIu64 " error=\"%s\"", info.job_id,
                 state_name(res.state), res.timings.total_ms, res.error);
        }
        cuzk_result_clear(&res);
    }
    if (m)
        cuzk__v1__prove_request__free_unpacked(m, NULL);
}

static void do_cancel(cuzk_engine *e, const uint8_t *req, size_t len, const rpc_call_probe *probe,
                      rpc_reply *out) {
    Cuzk__V1__CancelProofRequest *m = cuzk__v1__cancel_proof_request__unpack(NULL, len, req);
    if (m == NULL) {
        fail(out, RPC_INVALID_ARGUMENT, "CancelProofRequest does not decode");
        return;
    }
    int was_running = 0;
    /* a privileged caller (or none: in-process) may cancel any job */
    const char *caller = probe && !probe->privileged ? (probe->peer ? probe->peer : "") : NULL;
    cuzk_status st =
        m->job_id[0] ? cuzk_engine_cancel_as(e, m->job_id, caller, &was_running) : CUZK_E_INVALID;
    if (m->job_id[0] == 0) {
        fail(out, RPC_INVALID_ARGUMENT, "missing job_id");
    } else if (st == CUZK_E_DENIED) {
        fail(out, RPC_PERMISSION_DENIED,
             "job \"%.200s\" was submitted by another connection: only that connection, or a "
             "caller presenting the daemon's shared secret, may cancel it",
             m->job_id);
    } else if (st != CUZK_OK) {
        fail(out, rpc_code_from_status(st), "%s job \"%.200s\"", cuzk_status_name(st), m->job_id);
    } else {
        Cuzk__V1__CancelProofResponse r = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        r.was_running = was_running;
        reply(out, &r.base);
        slog(SLOG_INFO, "rpc", "cancel job_id=%s was_running=%d", m->job_id, was_running);
    }
    cuzk__v1__cancel_proof_request__free_unpacked(m, NULL);
}

static void do_status(cuzk_engine *e, const uint8_t *req, size_t len, rpc_reply *out) {
    Cuzk__V1__GetStatusRequest *m = cuzk__v1__get_status_request__unpack(NULL, len, req);
    if (m == NULL) {
        fail(out, RPC_INVALID_ARGUMENT, "GetStatusRequest does not decode");
        return;
    }
    cuzk__v1__get_status_request__free_unpacked(m, NULL);
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    Cuzk__V1__GetStatusResponse r = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    Cuzk__V1__GPUStatus gpu[s.n_gpus ? s.n_gpus : 1], *gpup[s.n_gpus ? s.n_gpus : 1];
    Cuzk__V1__SRSStatus srs[s.n_srs ? s.n_srs : 1], *srsp[s.n_srs ? s.n_srs : 1];
    Cuzk__V1__QueueStatus q[CUZK_KIND_COUNT], *qp[CUZK_KIND_COUNT];
    for (size_t i = 0; i < s.n_gpus; i++) {
        cuzk__v1__gpustatus__init(&gpu[i]);
        gpu[i].ordinal = s.gpus[i].ordinal;
        gpu[i].name = s.gpus[i].name;
        gpu[i].vram_total_bytes = s.gpus[i].vram_total_bytes;
        gpu[i].vram_free_bytes = s.gpus[i].vram_free_bytes;
        gpu[i].current_job_id = s.gpus[i].current_job_id;
        gpu[i].current_proof_kind =
            (char *)(s.gpus[i].current_job_id[0] ? cuzk_kind_name(s.gpus[i].current_kind) : "");
        gpup[i] = &gpu[i];
    }
    for (size_t i = 0; i < s.n_srs; i++) {
        cuzk__v1__srsstatus__init(&srs[i]);
        srs[i].circuit_id = s.srs[i].circuit_id;
        srs[i].tier = (Cuzk__V1__SRSStatus__Tier)s.srs[i].tier;
        srs[i].size_bytes = s.srs[i].size_bytes;
        srs[i].ref_count = s.srs[i].ref_count;
        srsp[i] = &srs[i];
    }
    size_t nq = 0;
    for (int k = CUZK_KIND_POREP_C2; k < CUZK_KIND_COUNT; k++) {
        if (s.pending_by_kind[k] == 0 && s.running_by_kind[k] == 0)
            continue;
        cuzk__v1__queue_status__init(&q[nq]);
        q[nq].proof_kind = (char *)cuzk_kind_name((cuzk_proof_kind)k);
        q[nq].pending = s.pending_by_kind[k];
        q[nq].in_progress = s.running_by_kind[k];
        qp[nq] = &q[nq];
        nq++;
    }
    r.n_gpus = s.n_gpus;
    r.gpus = gpup;
    r.n_loaded_srs = s.n_srs;
    r.loaded_srs = srsp;
    r.n_queues = nq;
    r.queues = qp;
    r.total_proofs_completed = s.completed;
    r.total_proofs_failed = s.failed;
    r.uptime_seconds = s.uptime_s;
    r.pinned_memory_bytes = s.pinned_bytes;
    r.pinned_memory_limit_bytes = s.pinned_limit;
    reply(out, &r.base);
    cuzk_engine_status_clear(&s);
}

static void do_metrics(cuzk_engine *e, const uint8_t *req, size_t len, rpc_reply *out) {
    Cuzk__V1__GetMetricsRequest *m = cuzk__v1__get_metrics_request__unpack(NULL, len, req);
    if (m == NULL) {
        fail(out, RPC_INVALID_ARGUMENT, "GetMetricsRequest does not decode");
        return;
    }
    cuzk__v1__get_metrics_request__free_unpacked(m, NULL);
    char *text = cuzk_engine_metrics_text(e);
    if (text == NULL) {
        fail(out, RPC_INTERNAL, "metrics unavailable (out of memory)");
        return;
    }
    Cuzk__V1__GetMetricsResponse r = CUZK__V1__GET_METRICS_RESPONSE__INIT;
    r.prometheus_text = text;
    reply(out, &r.base);
    free(text);
}

static void do_preload(cuzk_engine *e, const uint8_t *req, size_t len, rpc_reply *out) {
    Cuzk__V1__PreloadSrsRequest *m = cuzk__v1__preload_srs_request__unpack(NULL, len, req);
    if (m == NULL) {
        fail(out, RPC_INVALID_ARGUMENT, "PreloadSrsRequest does not decode");
        return;
    }
    int already = 0;
    uint64_t ms = 0;
    char err[CUZK_ERROR_LEN] = "";
    cuzk_status st = CUZK_E_INVALID;
    if (m->circuit_id[0] == 0)
        fail(out, RPC_INVALID_ARGUMENT, "missing circuit_id");
    else if ((st = cuzk_engine_preload_srs(e, m->circuit_id, &already, &ms, err)) != CUZK_OK)
        fail(out, rpc_code_from_status(st), "%s", err[0] ? err : cuzk_status_name(st));
    else {
        Cuzk__V1__PreloadSrsResponse r = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
        r.already_loaded = already;
        r.load_time_ms = ms;
        reply(out, &r.base);
        slog(SLOG_INFO, "rpc", "preload srs circuit_id=%s already_loaded=%d load_ms=%" PRIu64,
             m->circuit_id, already, ms);
    }
    cuzk__v1__preload_srs_request__free_unpacked(m, NULL);
}

static void do_evict(cuzk_engine *e, const uint8_t *req, size_t len, rpc_reply *out) {
    Cuzk__V1__EvictSrsRequest *m = cuzk__v1__evict_srs_request__unpack(NULL, len, req);
    if (m == NULL) {
        fail(out, RPC_INVALID_ARGUMENT, "EvictSrsRequest does not decode");
        return;
    }
    int was = 0;
    uint64_t freed = 0;
    cuzk_status st = CUZK_E_INVALID;
    if (m->circuit_id[0] == 0)
        fail(out, RPC_INVALID_ARGUMENT, "missing circuit_id");
    else if ((st = cuzk_engine_evict_srs(e, m->circuit_id, &was, &freed)) != CUZK_OK)
        fail(out, rpc_code_from_status(st), "%s circuit id \"%.100s\"", cuzk_status_name(st),
             m->circuit_id);
    else {
        Cuzk__V1__EvictSrsResponse r = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
        r.was_loaded = was;
        r.freed_bytes = freed;
        reply(out, &r.base);
        slog(SLOG_INFO, "rpc", "evict srs circuit_id=%s was_loaded=%d freed_bytes=%" PRIu64,
             m->circuit_id, was, freed);
    }
    cuzk__v1__evict_srs_request__free_unpacked(m, NULL);
}

void rpc_handle(cuzk_engine *e, rpc_method m, const uint8_t *req, size_t len,
                const rpc_call_probe *probe, rpc_reply *out) {
    memset(out, 0, sizeof *out);
    static const uint8_t empty[1];
    if (req == NULL)
        req = empty; /* an empty message may arrive as no payload at all */
    switch (m) {
    case RPC_SUBMIT_PROOF:
        do_submit(e, req, len, probe, out);
        break;
    case RPC_AWAIT_PROOF:
        do_await(e, req, len, probe, out);
        break;
    case RPC_PROVE:
        do_prove(e, req, len, probe, out);
        break;
    case RPC_CANCEL_PROOF:
        do_cancel(e, req, len, probe, out);
        break;
    case RPC_GET_STATUS:
        do_status(e, req, len, out);
        break;
    case RPC_GET_METRICS:
        do_metrics(e, req, len, out);
        break;
    case RPC_PRELOAD_SRS:
        do_preload(e, req, len, out);
        break;
    case RPC_EVICT_SRS:
        do_evict(e, req, len, out);
        break;
    default:
        fail(out, RPC_UNIMPLEMENTED, "unknown method");
        break;
    }
}
