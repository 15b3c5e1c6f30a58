/* The eight cuzk.v1.ProvingEngine methods as plain functions: protobuf bytes
 * in, protobuf bytes plus a gRPC status out.  This file knows protobuf-c and
 * the engine, never gRPC core, so the transport (grpc_service.c) can change
 * without touching what the methods mean. */
#ifndef CUZK_SERVER_RPC_H
#define CUZK_SERVER_RPC_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"

typedef enum {
    RPC_SUBMIT_PROOF,
    RPC_AWAIT_PROOF,
    RPC_PROVE,
    RPC_CANCEL_PROOF,
    RPC_GET_STATUS,
    RPC_GET_METRICS,
    RPC_PRELOAD_SRS,
    RPC_EVICT_SRS,
    RPC_METHOD_COUNT
} rpc_method;

/* "/cuzk.v1.ProvingEngine/SubmitProof" ... */
extern const char *const rpc_method_path[RPC_METHOD_COUNT];

/* gRPC status codes (a wire standard, grpc/status.h). */
enum {
    RPC_OK = 0,
    RPC_CANCELLED = 1,
    RPC_UNKNOWN = 2,
    RPC_INVALID_ARGUMENT = 3,
    RPC_DEADLINE_EXCEEDED = 4,
    RPC_NOT_FOUND = 5,
    RPC_ALREADY_EXISTS = 6,
    RPC_PERMISSION_DENIED = 7,
    RPC_RESOURCE_EXHAUSTED = 8,
    RPC_UNIMPLEMENTED = 12,
    RPC_INTERNAL = 13,
    RPC_UNAVAILABLE = 14
};

typedef struct {
    int code;                     /* RPC_OK or an error code */
    char message[CUZK_ERROR_LEN]; /* grpc-message for errors */
    uint8_t *body;                /* RPC_OK: the packed response (malloc'd) */
    size_t body_len;
} rpc_reply;

/* The transport's side of a call: gone tells a waiting handler that its
 * caller went away (client cancelled, the deadline passed, or the server is
 * closing the call); held is what the transport counted for the request
 * (cuzk_engine_hold_request), which a submit passes on as held_bytes; drop
 * (may be NULL) lets a handler that waits long after submitting (Prove)
 * give the request's bytes and their count back early: req is invalid
 * after it.  peer names the caller's connection (gRPC's peer address; NULL:
 * unknown), the owner of the jobs it submits; privileged: it presented the
 * daemon's shared secret, so it may cancel any job. */
typedef struct {
    int (*gone)(void *arg);
    void *arg;
    uint64_t held;
    void (*drop)(void *arg);
    const char *peer;
    int privileged;
} rpc_call_probe;

/* Runs method m on the packed request req[0..len).  Always fills out; the
 * caller frees out->body.  probe may be NULL (never gone, nothing held,
 * privileged). */
void rpc_handle(cuzk_engine *e, rpc_method m, const uint8_t *req, size_t len,
                const rpc_call_probe *probe, rpc_reply *out);

int rpc_code_from_status(cuzk_status s);
const char *rpc_code_name(int code);

#endif
