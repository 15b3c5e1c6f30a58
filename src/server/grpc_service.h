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

typedef struct grpc_service grpc_service;

/* listen: "unix:///path" (stale socket removed, parent folder created,
 * mode 0660) or "host:port" (port 0 picks a free port).  NULL with err set
 * when the address cannot be bound. */
grpc_service *grpc_service_start(cuzk_engine *engine, const char *listen, char err[CUZK_ERROR_LEN]);
/* The bound TCP port (0 for a unix socket). */
int grpc_service_port(const grpc_service *s);
void grpc_service_stop_accepting(grpc_service *s);
void grpc_service_finish(grpc_service *s, uint64_t grace_ms);

#endif
