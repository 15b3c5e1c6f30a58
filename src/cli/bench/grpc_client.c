/* cuzk.v1 client over gRPC core (see grpc_client.h).
 *
 * Each RPC is one call with one batch of six ops (send metadata, message and
 * half-close; receive metadata, message and status) on a completion queue of
 * its own, so concurrent callers never share a queue.  Requests are packed
 * with the protobuf-c code generated from proto/cuzk/v1/proving.proto (the
 * same code the server uses); a large request (a 50 MB C1) is handed to gRPC
 * without a copy.  Message limits are 256 MiB each way, as in Curio's client. */
#include "cli/bench/grpc_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/alloc.h>
#include <grpc/support/log.h>
#include <grpc/support/time.h>

#include "cuzk/v1/proving.pb-c.h"
#include "server/grpc_args.h"
#include "util/slog.h"

struct grpc_client {
    grpc_channel *channel;
    char target[512];
};

const char *grpc_client_code_name(int code) {
    static const char *const names[] = {"OK",
                                        "CANCELLED",
                                        "UNKNOWN",
                                        "INVALID_ARGUMENT",
                                        "DEADLINE_EXCEEDED",
                                        "NOT_FOUND",
                                        "ALREADY_EXISTS",
                                        "PERMISSION_DENIED",
                                        "RESOURCE_EXHAUSTED",
                                        "FAILED_PRECONDITION",
                                        "ABORTED",
                                        "OUT_OF_RANGE",
                                        "UNIMPLEMENTED",
                                        "INTERNAL",
                                        "UNAVAILABLE",
                                        "DATA_LOSS",
                                        "UNAUTHENTICATED"};
    if (code >= 0 && (size_t)code < sizeof names / sizeof names[0])
        return names[code];
    return "?";
}

static void grpc_log_to_slog(gpr_log_func_args *a) {
    /* core's errors repeat what the call's status says: debug, not error */
    slog_level l = a->severity == GPR_LOG_SEVERITY_ERROR ? SLOG_DEBUG : SLOG_TRACE;
    const char *file = strrchr(a->file, '/');
    slog(l, "grpc-core", "%s src=%s:%d", a->message, file ? file + 1 : a->file, a->line);
}

grpc_client *grpc_client_open(const char *addr, char err[CUZK_ERROR_LEN]) {
    if (addr == NULL || addr[0] == 0) {
        snprintf(err, CUZK_ERROR_LEN, "empty daemon address");
        return NULL;
    }
    grpc_client *c = calloc(1, sizeof *c);
    if (c == NULL) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return NULL;
    }
    const char *rest = addr;
    if (strncmp(addr, "https://", 8) == 0) {
        snprintf(err, CUZK_ERROR_LEN,
                 "address %s: the daemon speaks plaintext HTTP/2 only; use http://host:port", addr);
        free(c);
        return NULL;
    }
    if (strncmp(addr, "http://", 7) == 0) {
        rest = addr + 7;
        size_t n = strlen(rest);
        if (n && rest[n - 1] == '/')
            n--; /* "http://h:p/" */
        if (n == 0 || n >= sizeof c->target || memchr(rest, '/', n) != NULL ||
            memchr(rest, ':', n) == NULL) {
            snprintf(err, CUZK_ERROR_LEN, "address %s: expected http://host:port", addr);
            free(c);
            return NULL;
        }
        memcpy(c->target, rest, n);
        c->target[n] = 0;
    } else if (strncmp(addr, "unix:", 5) == 0) {
        if (addr[5] == 0 || strcmp(addr, "unix://") == 0) {
            snprintf(err, CUZK_ERROR_LEN, "address %s: expected unix:///path/to/socket", addr);
            free(c);
            return NULL;
        }
        snprintf(c->target, sizeof c->target, "%s", addr);
    } else {
        if (strlen(addr) >= sizeof c->target) {
            snprintf(err, CUZK_ERROR_LEN, "address too long (%zu bytes)", strlen(addr));
            free(c);
            return NULL;
        }
        snprintf(c->target, sizeof c->target, "%s", addr);
    }
    gpr_set_log_function(grpc_log_to_slog);
    grpc_init();
    grpc_args_set args;
    grpc_channel_credentials *cred = grpc_insecure_credentials_create();
    c->channel =
        grpc_channel_create(c->target, cred, grpc_args_fill(&args, 0, GRPC_ARGS_MAX_MESSAGE));
    grpc_channel_credentials_release(cred);
    if (c->channel == NULL) {
        snprintf(err, CUZK_ERROR_LEN, "address %s: gRPC cannot create a channel", addr);
        grpc_shutdown();
        free(c);
        return NULL;
    }
    slog(SLOG_DEBUG, "client", "channel target=%s", c->target);
    return c;
}

void grpc_client_close(grpc_client *c) {
    if (c == NULL)
        return;
    grpc_channel_destroy(c->channel);
    grpc_shutdown();
    free(c);
}

/* One unary call: req[0..len) (taken over: freed by gRPC) -> *resp (a
 * malloc'd copy of the reply, *resp_len bytes).  Returns the status code. */
static int unary(grpc_client *c, const char *method, uint8_t *req, size_t len, uint64_t timeout_ms,
                 uint8_t **resp, size_t *resp_len, char msg[CUZK_ERROR_LEN]) {
    *resp = NULL;
    *resp_len = 0;
    grpc_completion_queue *cq = grpc_completion_queue_create_for_next(NULL);
    gpr_timespec deadline =
        timeout_ms ? gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC),
                                  gpr_time_from_millis((int64_t)timeout_ms, GPR_TIMESPAN))
                   : gpr_inf_future(GPR_CLOCK_MONOTONIC);
    grpc_call *call =
        grpc_channel_create_call(c->channel, NULL, GRPC_PROPAGATE_DEFAULTS, cq,
                                 grpc_slice_from_static_string(method), NULL, deadline, NULL);
    grpc_slice body = len ? grpc_slice_new(req, len, free) : grpc_empty_slice();
    if (!len)
        free(req);
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&body, 1);
    grpc_slice_unref(body);
    grpc_byte_buffer *recv = NULL;
    grpc_metadata_array initial_md, trailing_md;
    grpc_metadata_array_init(&initial_md);
    grpc_metadata_array_init(&trailing_md);
    grpc_status_code status = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();
    const char *error_string = NULL;

    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &initial_md;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &trailing_md;
    ops[5].data.recv_status_on_client.status = &status;
    ops[5].data.recv_status_on_client.status_details = &details;
    ops[5].data.recv_status_on_client.error_string = &error_string;

    int tag = 1;
    grpc_call_error ce = grpc_call_start_batch(call, ops, 6, &tag, NULL);
    int code;
    if (ce != GRPC_CALL_OK) {
        code = GRPC_STATUS_INTERNAL;
        snprintf(msg, CUZK_ERROR_LEN, "%s: cannot start the call (grpc_call_error %d)", method,
                 (int)ce);
    } else {
        grpc_event ev = grpc_completion_queue_next(cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        code = (int)status;
        if (ev.type != GRPC_OP_COMPLETE || !ev.success) {
            code = GRPC_STATUS_INTERNAL;
            snprintf(msg, CUZK_ERROR_LEN, "%s: the call did not complete", method);
        } else if (status != GRPC_STATUS_OK) {
            /* the server's grpc-message; gRPC core's debug string only when
             * there is none (it repeats the message with file/line noise) */
            char *d = grpc_slice_to_c_string(details);
            snprintf(msg, CUZK_ERROR_LEN, "%s",
                     d[0]           ? d
                     : error_string ? error_string
                                    : grpc_client_code_name(code));
            if (error_string)
                slog(SLOG_DEBUG, "client", "call failed method=%s detail=\"%s\"", method,
                     error_string);
            gpr_free(d);
        } else if (recv == NULL) {
            code = GRPC_STATUS_INTERNAL;
            snprintf(msg, CUZK_ERROR_LEN, "%s: status OK but no response message", method);
        } else {
            grpc_byte_buffer_reader rd;
            if (!grpc_byte_buffer_reader_init(&rd, recv)) {
                code = GRPC_STATUS_INTERNAL;
                snprintf(msg, CUZK_ERROR_LEN, "%s: cannot read the response", method);
            } else {
                grpc_slice all = grpc_byte_buffer_reader_readall(&rd);
                grpc_byte_buffer_reader_destroy(&rd);
                size_t n = GRPC_SLICE_LENGTH(all);
                *resp = malloc(n ? n : 1);
                if (*resp == NULL) {
                    code = GRPC_STATUS_RESOURCE_EXHAUSTED;
                    snprintf(msg, CUZK_ERROR_LEN, "%s: out of memory for a %zu-byte reply", method,
                             n);
                } else {
                    memcpy(*resp, GRPC_SLICE_START_PTR(all), n);
                    *resp_len = n;
                }
                grpc_slice_unref(all);
            }
        }
    }
    if (error_string)
        gpr_free((void *)error_string);
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&initial_md);
    grpc_metadata_array_destroy(&trailing_md);
    grpc_byte_buffer_destroy(send);
    if (recv)
        grpc_byte_buffer_destroy(recv);
    grpc_call_unref(call);
    grpc_completion_queue_shutdown(cq);
    while (grpc_completion_queue_next(cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN)
        ;
    grpc_completion_queue_destroy(cq);
    return code;
}

/* Packs message m into a malloc'd buffer; NULL when out of memory. */
static uint8_t *pack(const ProtobufCMessage *m, size_t *len) {
    *len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(*len ? *len : 1);
    if (buf)
        protobuf_c_message_pack(m, buf);
    return buf;
}

static void copy_str(char *dst, size_t cap, const char *src) {
    snprintf(dst, cap, "%s", src ? src : "");
}

static ProtobufCBinaryData bin(const uint8_t *p, size_t n) {
    ProtobufCBinaryData b = {n, (uint8_t *)p};
    return b;
}

/* One unary call with protobuf messages: packs req, calls method and unpacks
 * the reply as rd into *out (free with protobuf_c_message_free_unpacked).
 * Returns the status code, with msg set when it is not OK. */
static int call(grpc_client *c, const char *method, const ProtobufCMessage *req,
                const ProtobufCMessageDescriptor *rd, uint64_t timeout_ms, ProtobufCMessage **out,
                char msg[CUZK_ERROR_LEN]) {
    *out = NULL;
    size_t len, resp_len;
    uint8_t *buf = pack(req, &len), *resp;
    if (buf == NULL) {
        snprintf(msg, CUZK_ERROR_LEN, "out of memory packing a %zu-byte request", len);
        return GRPC_STATUS_RESOURCE_EXHAUSTED;
    }
    int code = unary(c, method, buf, len, timeout_ms, &resp, &resp_len, msg);
    if (code != GRPC_STATUS_OK)
        return code;
    *out = protobuf_c_message_unpack(rd, NULL, resp_len, resp);
    free(resp);
    if (*out == NULL) {
        snprintf(msg, CUZK_ERROR_LEN, "%s: the daemon's reply is not a valid %s", method,
                 rd->short_name);
        return GRPC_STATUS_INTERNAL;
    }
    return GRPC_STATUS_OK;
}

void client_proof_result_free(client_proof_result *r) {
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}

int grpc_client_prove(grpc_client *c, const client_proof_request *q, uint64_t timeout_ms,
                      client_proof_result *out, char msg[CUZK_ERROR_LEN]) {
    static const char method[] = "/cuzk.v1.ProvingEngine/Prove";
    memset(out, 0, sizeof *out);
    Cuzk__V1__SubmitProofRequest s = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    s.request_id = (char *)(q->request_id ? q->request_id : "");
    s.proof_kind = (Cuzk__V1__ProofKind)q->kind;
    s.sector_size = q->sector_size;
    s.registered_proof = q->registered_proof;
    s.priority = (Cuzk__V1__Priority)q->priority;
    s.vanilla_proof = bin(q->vanilla_proof, q->vanilla_proof_len);
    ProtobufCBinaryData *vp = NULL;
    if (q->n_vanilla_proofs) {
        vp = calloc(q->n_vanilla_proofs, sizeof *vp);
        if (vp == NULL) {
            snprintf(msg, CUZK_ERROR_LEN, "out of memory");
            return GRPC_STATUS_RESOURCE_EXHAUSTED;
        }
        for (size_t i = 0; i < q->n_vanilla_proofs; i++)
            vp[i] = bin(q->vanilla_proofs[i], q->vanilla_proof_lens[i]);
    }
    s.n_vanilla_proofs = q->n_vanilla_proofs;
    s.vanilla_proofs = vp;
    s.sector_number = q->sector_number;
    s.miner_id = q->miner_id;
    s.randomness = bin(q->randomness, q->randomness_len);
    s.partition_index = q->partition_index;
    s.comm_r_old = bin(q->comm_r_old, q->comm_r_old_len);
    s.comm_r_new = bin(q->comm_r_new, q->comm_r_new_len);
    s.comm_d_new = bin(q->comm_d_new, q->comm_d_new_len);
    Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
    pr.submit = &s;
    Cuzk__V1__ProveResponse *m;
    int code = call(c, method, &pr.base, &cuzk__v1__prove_response__descriptor, timeout_ms,
                    (ProtobufCMessage **)&m, msg);
    free(vp);
    if (code != GRPC_STATUS_OK)
        return code;
    if (m->result == NULL) {
        cuzk__v1__prove_response__free_unpacked(m, NULL);
        snprintf(msg, CUZK_ERROR_LEN, "%s: the reply has no result", method);
        return GRPC_STATUS_INTERNAL;
    }
    const Cuzk__V1__AwaitProofResponse *r = m->result;
    copy_str(out->job_id, sizeof out->job_id, r->job_id);
    out->status = (int)r->status;
    copy_str(out->error_message, sizeof out->error_message, r->error_message);
    out->queue_wait_ms = r->queue_wait_ms;
    out->srs_load_ms = r->srs_load_ms;
    out->synthesis_ms = r->synthesis_ms;
    out->gpu_compute_ms = r->gpu_compute_ms;
    out->total_ms = r->total_ms;
    if (r->proof.len) {
        out->proof = malloc(r->proof.len);
        if (out->proof == NULL) {
            cuzk__v1__prove_response__free_unpacked(m, NULL);
            snprintf(msg, CUZK_ERROR_LEN, "out of memory");
            return GRPC_STATUS_RESOURCE_EXHAUSTED;
        }
        memcpy(out->proof, r->proof.data, r->proof.len);
        out->proof_len = r->proof.len;
    }
    cuzk__v1__prove_response__free_unpacked(m, NULL);
    return GRPC_STATUS_OK;
}

void client_status_free(client_status *s) {
    free(s->gpus);
    free(s->srs);
    free(s->queues);
    memset(s, 0, sizeof *s);
}

int grpc_client_get_status(grpc_client *c, uint64_t timeout_ms, client_status *out,
                           char msg[CUZK_ERROR_LEN]) {
    static const char method[] = "/cuzk.v1.ProvingEngine/GetStatus";
    memset(out, 0, sizeof *out);
    Cuzk__V1__GetStatusRequest q = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetStatusResponse *m;
    int code = call(c, method, &q.base, &cuzk__v1__get_status_response__descriptor, timeout_ms,
                    (ProtobufCMessage **)&m, msg);
    if (code != GRPC_STATUS_OK)
        return code;
    out->gpus = calloc(m->n_gpus + 1, sizeof *out->gpus);
    out->srs = calloc(m->n_loaded_srs + 1, sizeof *out->srs);
    out->queues = calloc(m->n_queues + 1, sizeof *out->queues);
    if (!out->gpus || !out->srs || !out->queues) {
        client_status_free(out);
        cuzk__v1__get_status_response__free_unpacked(m, NULL);
        snprintf(msg, CUZK_ERROR_LEN, "out of memory");
        return GRPC_STATUS_RESOURCE_EXHAUSTED;
    }
    for (size_t i = 0; i < m->n_gpus; i++) {
        const Cuzk__V1__GPUStatus *g = m->gpus[i];
        client_gpu_status *o = &out->gpus[i];
        o->ordinal = g->ordinal;
        copy_str(o->name, sizeof o->name, g->name);
        o->vram_total_bytes = g->vram_total_bytes;
        o->vram_free_bytes = g->vram_free_bytes;
        copy_str(o->current_job_id, sizeof o->current_job_id, g->current_job_id);
        copy_str(o->current_proof_kind, sizeof o->current_proof_kind, g->current_proof_kind);
    }
    out->n_gpus = m->n_gpus;
    for (size_t i = 0; i < m->n_loaded_srs; i++) {
        const Cuzk__V1__SRSStatus *s = m->loaded_srs[i];
        client_srs_status *o = &out->srs[i];
        copy_str(o->circuit_id, sizeof o->circuit_id, s->circuit_id);
        o->tier = (int)s->tier;
        o->size_bytes = s->size_bytes;
        o->ref_count = s->ref_count;
    }
    out->n_srs = m->n_loaded_srs;
    for (size_t i = 0; i < m->n_queues; i++) {
        const Cuzk__V1__QueueStatus *s = m->queues[i];
        client_queue_status *o = &out->queues[i];
        copy_str(o->proof_kind, sizeof o->proof_kind, s->proof_kind);
        o->pending = s->pending;
        o->in_progress = s->in_progress;
    }
    out->n_queues = m->n_queues;
    out->total_proofs_completed = m->total_proofs_completed;
    out->total_proofs_failed = m->total_proofs_failed;
    out->uptime_seconds = m->uptime_seconds;
    out->pinned_memory_bytes = m->pinned_memory_bytes;
    out->pinned_memory_limit_bytes = m->pinned_memory_limit_bytes;
    cuzk__v1__get_status_response__free_unpacked(m, NULL);
    return GRPC_STATUS_OK;
}

int grpc_client_get_metrics(grpc_client *c, uint64_t timeout_ms, char **text,
                            char msg[CUZK_ERROR_LEN]) {
    static const char method[] = "/cuzk.v1.ProvingEngine/GetMetrics";
    *text = NULL;
    Cuzk__V1__GetMetricsRequest q = CUZK__V1__GET_METRICS_REQUEST__INIT;
    Cuzk__V1__GetMetricsResponse *m;
    int code = call(c, method, &q.base, &cuzk__v1__get_metrics_response__descriptor, timeout_ms,
                    (ProtobufCMessage **)&m, msg);
    if (code != GRPC_STATUS_OK)
        return code;
    *text = strdup(m->prometheus_text ? m->prometheus_text : "");
    cuzk__v1__get_metrics_response__free_unpacked(m, NULL);
    if (*text == NULL) {
        snprintf(msg, CUZK_ERROR_LEN, "out of memory");
        return GRPC_STATUS_RESOURCE_EXHAUSTED;
    }
    return GRPC_STATUS_OK;
}

int grpc_client_preload_srs(grpc_client *c, const char *circuit_id, uint64_t timeout_ms,
                            int *already_loaded, uint64_t *load_time_ms, char msg[CUZK_ERROR_LEN]) {
    static const char method[] = "/cuzk.v1.ProvingEngine/PreloadSRS";
    Cuzk__V1__PreloadSrsRequest q = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    q.circuit_id = (char *)circuit_id;
    Cuzk__V1__PreloadSrsResponse *m;
    int code = call(c, method, &q.base, &cuzk__v1__preload_srs_response__descriptor, timeout_ms,
                    (ProtobufCMessage **)&m, msg);
    if (code != GRPC_STATUS_OK)
        return code;
    *already_loaded = m->already_loaded;
    *load_time_ms = m->load_time_ms;
    cuzk__v1__preload_srs_response__free_unpacked(m, NULL);
    return GRPC_STATUS_OK;
}

int grpc_client_evict_srs(grpc_client *c, const char *circuit_id, uint64_t timeout_ms,
                          int *was_loaded, uint64_t *freed_bytes, char msg[CUZK_ERROR_LEN]) {
    static const char method[] = "/cuzk.v1.ProvingEngine/EvictSRS";
    Cuzk__V1__EvictSrsRequest q = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    q.circuit_id = (char *)circuit_id;
    Cuzk__V1__EvictSrsResponse *m;
    int code = call(c, method, &q.base, &cuzk__v1__evict_srs_response__descriptor, timeout_ms,
                    (ProtobufCMessage **)&m, msg);
    if (code != GRPC_STATUS_OK)
        return code;
    *was_loaded = m->was_loaded;
    *freed_bytes = m->freed_bytes;
    cuzk__v1__evict_srs_response__free_unpacked(m, NULL);
    return GRPC_STATUS_OK;
}
