/* The shared gRPC channel arguments: see grpc_args.h. */
#include "server/grpc_args.h"

#include <string.h>

static void int_arg(grpc_arg *g, const char *key, int value) {
    g->type = GRPC_ARG_INTEGER;
    g->key = (char *)key;
    g->value.integer = value;
}

const grpc_channel_args *grpc_args_fill(grpc_args_set *a, int server, uint64_t max_receive) {
    memset(a, 0, sizeof *a);
    if (max_receive > GRPC_ARGS_MAX_MESSAGE)
        max_receive = GRPC_ARGS_MAX_MESSAGE;
    int_arg(&a->arg[0], GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, (int)max_receive);
    int_arg(&a->arg[1], GRPC_ARG_MAX_SEND_MESSAGE_LENGTH, GRPC_ARGS_MAX_MESSAGE);
    size_t n = 2;
    if (server)
        int_arg(&a->arg[n++], GRPC_ARG_ALLOW_REUSEPORT, 0);
    a->set.num_args = n;
    a->set.args = a->arg;
    return &a->set;
}
