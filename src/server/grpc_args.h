/* The gRPC core channel arguments that the daemon (grpc_service.c) and its
 * client (grpc_client.c) share, set up in one place so that both ends agree
 * on the message-size limit.  Only those two files include this header (and
 * so grpc/). */
#ifndef CUZK_SERVER_GRPC_ARGS_H
#define CUZK_SERVER_GRPC_ARGS_H

#include <stdint.h>

#include <grpc/grpc.h>

/* Curio's client allows 256 MiB each way; so do both of ours (and the test
 * clients: tests/integration/daemon_util.py, node/interop.mjs), except that
 * the daemon receives at most its memory budget's share for a request
 * (cuzk_engine_request_limit). */
#define GRPC_ARGS_MAX_MESSAGE (256 << 20)

typedef struct {
    grpc_arg arg[3];
    grpc_channel_args set;
} grpc_args_set;

/* Fills a: the receive limit (max_receive, at most GRPC_ARGS_MAX_MESSAGE:
 * gRPC core refuses a longer message with RESOURCE_EXHAUSTED from its length
 * prefix, before reading it), the send limit, and for a server (server != 0)
 * GRPC_ARG_ALLOW_REUSEPORT = 0, so that a second daemon on the same port
 * fails to bind.  Returns &a->set, valid while a lives. */
const grpc_channel_args *grpc_args_fill(grpc_args_set *a, int server, uint64_t max_receive);

#endif
