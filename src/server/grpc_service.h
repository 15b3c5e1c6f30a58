/* The cuzk.v1 gRPC endpoint: the one module that uses gRPC core.
 *
 * Lifecycle: start (binds and serves), stop_accepting (new calls refused,
 * open calls continue), finish (waits for open calls, cancels those still
 * open after grace_ms, releases everything).  The engine must outlive
 * finish; shut the engine down between stop_accepting and finish so that
 * waiting calls get their final answers. */
#ifndef CUZK_SERVER_GRPC_SERVICE_H
#define CUZK_SERVER_GRPC_SERVICE_H

#include <stdint.h>

#include "cuzk/engine.h"
#include "server/config.h"

typedef struct grpc_service grpc_service;

/* o->listen: "unix:///path" (stale socket removed, parent folder created,
 * mode 0660) or "host:port" (port 0 picks a free port).  A TCP host other
 * than loopback (127.0.0.0/8, ::1, localhost) is refused unless
 * o->allow_remote.  o->auth_token_file: a file whose first line is the
 * shared secret (>= 16 bytes); then every call that does not come over the
 * unix socket must carry the metadata "authorization: Bearer <secret>" or
 * gets UNAUTHENTICATED.  NULL with err set when the address cannot be bound
 * or the secret cannot be read. */
grpc_service *grpc_service_start(cuzk_engine *engine, const cuzk_daemon_options *o,
                                 char err[CUZK_ERROR_LEN]);

/* 1 when the TCP host of "host:port" is a loopback address. */
int grpc_listen_is_loopback(const char *listen);
/* The bound TCP port (0 for a unix socket). */
int grpc_service_port(const grpc_service *s);
void grpc_service_stop_accepting(grpc_service *s);
void grpc_service_finish(grpc_service *s, uint64_t grace_ms);

#endif
