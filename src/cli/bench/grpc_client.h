/* A cuzk.v1.ProvingEngine client over gRPC core: the client-side twin of
 * grpc_service.c and the only client file that includes grpc/ or protobuf-c
 * headers.  Callers see plain C structs, so `cuzk bench` (src/cli) needs
 * neither.
 *
 * One channel per grpc_client; it is safe to call from several threads at
 * once (gRPC multiplexes the calls over one HTTP/2 connection).  Every call
 * is blocking and unary, with its own completion queue and a deadline.
 * Errors come back as gRPC status codes (RPC_* in server/rpc.h) with the
 * server's grpc-message, or gRPC core's own text for transport failures
 * (an unreachable daemon is UNAVAILABLE). */
#ifndef CUZK_SERVER_GRPC_CLIENT_H
#define CUZK_SERVER_GRPC_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"

typedef struct grpc_client grpc_client;

/* addr: "unix:///abs/path", "unix:rel/path", "http://host:port" (the Rust
 * cuzk-bench form), "host:port" or any gRPC core target ("dns:///h:p",
 * "ipv4:a.b.c.d:p").  "https://" is refused (the daemon speaks plaintext
 * HTTP/2 only).  Opening never connects; the first call does.  NULL with
 * err set for an address that cannot be a target. */
grpc_client *grpc_client_open(const char *addr, char err[CUZK_ERROR_LEN]);
void grpc_client_close(grpc_client *c);

/* The SubmitProofRequest fields (proving.proto); pointers are borrowed for
 * the duration of the call.  kind and priority are the proto's numbers. */
typedef struct {
    const char *request_id; /* NULL or "": the daemon assigns one */
    int kind;               /* 1 PoRep, 2 SnapDeals, 3 WindowPoSt, 4 WinningPoSt */
    uint64_t sector_size;   /* 0: the daemon derives it from registered_proof */
    uint64_t registered_proof;
    int priority; /* 0: the kind's default */
    const uint8_t *vanilla_proof;
    size_t vanilla_proof_len;
    const uint8_t *const *vanilla_proofs;
    const size_t *vanilla_proof_lens;
    size_t n_vanilla_proofs;
    uint64_t sector_number, miner_id;
    const uint8_t *randomness;
    size_t randomness_len;
    uint32_t partition_index;
    const uint8_t *comm_r_old, *comm_r_new, *comm_d_new;
    size_t comm_r_old_len, comm_r_new_len, comm_d_new_len;
} client_proof_request;

/* AwaitProofResponse.  status: 0 UNKNOWN, 1 COMPLETED, 2 FAILED,
 * 3 CANCELLED, 4 TIMEOUT. */
typedef struct {
    char job_id[128];
    int status;
    uint8_t *proof; /* malloc'd (NULL when empty); free with client_proof_result_free */
    size_t proof_len;
    char error_message[CUZK_ERROR_LEN];
    uint64_t queue_wait_ms, srs_load_ms, synthesis_ms, gpu_compute_ms, total_ms;
} client_proof_result;

void client_proof_result_free(client_proof_result *r);

typedef struct {
    uint32_t ordinal;
    char name[128];
    uint64_t vram_total_bytes, vram_free_bytes;
    char current_job_id[128];
    char current_proof_kind[32];
} client_gpu_status;

typedef struct {
    char circuit_id[64];
    int tier; /* 0 HOT, 1 WARM, 2 COLD */
    uint64_t size_bytes;
    uint32_t ref_count;
} client_srs_status;

typedef struct {
    char proof_kind[32];
    uint32_t pending, in_progress;
} client_queue_status;

/* GetStatusResponse; the arrays are malloc'd (client_status_free). */
typedef struct {
    client_gpu_status *gpus;
    size_t n_gpus;
    client_srs_status *srs;
    size_t n_srs;
    client_queue_status *queues;
    size_t n_queues;
    uint64_t total_proofs_completed, total_proofs_failed, uptime_seconds;
    uint64_t pinned_memory_bytes, pinned_memory_limit_bytes;
} client_status;

void client_status_free(client_status *s);

/* The RPCs.  timeout_ms 0 = no deadline.  Each returns a gRPC status code
 * (0 = OK, out filled) and on error writes a message to msg (out untouched
 * or zeroed). */
int grpc_client_prove(grpc_client *c, const client_proof_request *req, uint64_t timeout_ms,
                      client_proof_result *out, char msg[CUZK_ERROR_LEN]);
int grpc_client_get_status(grpc_client *c, uint64_t timeout_ms, client_status *out,
                           char msg[CUZK_ERROR_LEN]);
/* *text: the Prometheus text, malloc'd, NUL-terminated. */
int grpc_client_get_metrics(grpc_client *c, uint64_t timeout_ms, char **text,
                            char msg[CUZK_ERROR_LEN]);
int grpc_client_preload_srs(grpc_client *c, const char *circuit_id, uint64_t timeout_ms,
                            int *already_loaded, uint64_t *load_time_ms, char msg[CUZK_ERROR_LEN]);
int grpc_client_evict_srs(grpc_client *c, const char *circuit_id, uint64_t timeout_ms,
                          int *was_loaded, uint64_t *freed_bytes, char msg[CUZK_ERROR_LEN]);

/* "OK", "UNAVAILABLE", ... for any gRPC status code. */
const char *grpc_client_code_name(int code);

#endif
