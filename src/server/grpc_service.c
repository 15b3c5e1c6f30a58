/* cuzk.v1 over gRPC core (see grpc_service.h); with grpc_client.c and
 * grpc_args.c, the only files that include grpc/ headers.
 *
 * Threads and ownership:
 *  - One completion-queue thread owns the queue.  For every method it keeps
 *    CALLS_PER_METHOD registered-call requests outstanding (the request
 *    payload arrives with the call) plus a few unregistered ones that are
 *    answered UNIMPLEMENTED.
 *  - A new call immediately starts RECV_CLOSE_ON_SERVER, so a client's
 *    cancellation or expired deadline marks the call "gone" while a handler
 *    still waits; handlers poll that flag between await slices (rpc.c).
 *  - The queue thread never calls the engine: every call runs on a detached
 *    thread of its own (Await and Prove wait for minutes; even a status call
 *    may wait for an engine lock), bounded by MAX_WORKERS (beyond it:
 *    RESOURCE_EXHAUSTED).  The handler's thread sends the reply batch under
 *    the call's mutex.
 *  - A call is freed when both its close event and its send event have come
 *    back (refs 2 -> 0), always on the queue thread.
 * Shutdown: stop_accepting -> grpc_server_shutdown_and_notify; finish waits
 * for the notify tag, cancels all calls after the grace period, waits for the
 * handler threads, then shuts the queue down and joins its thread. */
#include "server/grpc_service.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/slice.h>
#include <grpc/support/alloc.h>
#include <grpc/support/log.h>
#include <grpc/support/time.h>

#include "server/grpc_args.h"
#include "server/rpc.h"
#include "util/err.h"
#include "util/slog.h"

#define CALLS_PER_METHOD 8
#define UNREGISTERED_CALLS 2
#define MAX_WORKERS 1024
#define AUTH_TOKEN_MIN 16
#define AUTH_TOKEN_MAX 512
#define RPC_UNAUTHENTICATED 16

typedef enum { TAG_NEW, TAG_CLOSE, TAG_SEND, TAG_SHUTDOWN } tag_kind;

struct call;
typedef struct {
    tag_kind kind;
    struct call *call;
} tag;

typedef struct call {
    grpc_service *svc;
    int method; /* rpc_method, or -1: not a cuzk.v1 method */
    grpc_call *gcall;
    gpr_timespec deadline;
    grpc_metadata_array md;
    grpc_call_details details; /* unregistered calls only */
    grpc_byte_buffer *payload;
    grpc_slice request; /* the payload read whole (have_request), while the handler needs it */
    int have_request;
    uint64_t held; /* what the engine's budget counts for the request (memory.h) */
    grpc_byte_buffer *resp;
    int close_cancelled;
    atomic_int gone;
    atomic_int refs;
    pthread_mutex_t mu;
    tag t_new, t_close, t_send;
} call;

struct grpc_service {
    cuzk_engine *engine;
    grpc_server *server;
    grpc_completion_queue *cq;
    void *methods[RPC_METHOD_COUNT];
    pthread_t cq_thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int accepting;
    int shutdown_done;
    int workers;
    int port;
    char unix_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    char token[AUTH_TOKEN_MAX + 1]; /* "" = no shared secret */
    tag t_shutdown;
};

/* ---- call lifetime -------------------------------------------------------- */

static void call_free(call *c) {
    if (c->gcall)
        grpc_call_unref(c->gcall);
    grpc_metadata_array_destroy(&c->md);
    if (c->method < 0)
        grpc_call_details_destroy(&c->details);
    if (c->payload)
        grpc_byte_buffer_destroy(c->payload);
    if (c->resp)
        grpc_byte_buffer_destroy(c->resp);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

static void call_unref(call *c) {
    if (atomic_fetch_sub(&c->refs, 1) == 1)
        call_free(c);
}

/* Posts one request for a new call of `method` (-1: unregistered). */
static void post_request(grpc_service *s, int method) {
    call *c = calloc(1, sizeof *c);
    if (c == NULL) {
        slog(SLOG_ERROR, "grpc", "out of memory posting a call request");
        return;
    }
    c->svc = s;
    c->method = method;
    pthread_mutex_init(&c->mu, NULL);
    grpc_metadata_array_init(&c->md);
    c->t_new = (tag){TAG_NEW, c};
    c->t_close = (tag){TAG_CLOSE, c};
    c->t_send = (tag){TAG_SEND, c};
    grpc_call_error e;
    if (method >= 0) {
        e = grpc_server_request_registered_call(s->server, s->methods[method], &c->gcall,
                                                &c->deadline, &c->md, &c->payload, s->cq, s->cq,
                                                &c->t_new);
    } else {
        grpc_call_details_init(&c->details);
        e = grpc_server_request_call(s->server, &c->gcall, &c->details, &c->md, s->cq, s->cq,
                                     &c->t_new);
    }
    if (e != GRPC_CALL_OK) {
        slog(SLOG_ERROR, "grpc", "request_call failed error=%d", (int)e);
        call_free(c);
    }
}

/* Sends the reply (message only with OK) and the status; consumes r->body
 * and the handler's reference to c (c may be freed when it returns). */
static void send_reply(call *c, rpc_reply *r) {
    grpc_op ops[3];
    memset(ops, 0, sizeof ops);
    size_t n = 0;
    ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
    if (r->code == RPC_OK) {
        grpc_slice body = grpc_slice_new(r->body ? r->body : malloc(1), r->body_len, free);
        r->body = NULL;
        c->resp = grpc_raw_byte_buffer_create(&body, 1);
        grpc_slice_unref(body);
        ops[n].op = GRPC_OP_SEND_MESSAGE;
        ops[n++].data.send_message.send_message = c->resp;
    } else {
        free(r->body);
        r->body = NULL;
    }
    grpc_slice details = grpc_slice_from_copied_string(r->code == RPC_OK ? "" : r->message);
    ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
    ops[n].data.send_status_from_server.status = (grpc_status_code)r->code;
    ops[n++].data.send_status_from_server.status_details = &details;
    pthread_mutex_lock(&c->mu);
    grpc_call_error e = grpc_call_start_batch(c->gcall, ops, n, &c->t_send, NULL);
    pthread_mutex_unlock(&c->mu);
    grpc_slice_unref(details);
    if (e != GRPC_CALL_OK) {
        slog(SLOG_ERROR, "grpc", "sending a reply failed error=%d", (int)e);
        call_unref(c); /* the send tag will never come back */
    }
    /* the handler's reference, dropped last: the send and close tags may
     * both have come back on the queue thread by now */
    call_unref(c);
}

static int call_gone(void *arg) { return atomic_load(&((call *)arg)->gone); }
static int call_has_secret(grpc_service *s, call *c);

/* The request's bytes and their count go back (the handler's thread only). */
static void call_drop_request(void *arg) {
    call *c = arg;
    if (c->payload) {
        grpc_byte_buffer_destroy(c->payload);
        c->payload = NULL;
    }
    if (c->have_request) {
        grpc_slice_unref(c->request);
        c->have_request = 0;
    }
    cuzk_engine_release_request(c->svc->engine, c->held);
    c->held = 0;
}

static void run_handler(call *c) {
    const uint8_t *data = NULL;
    size_t len = 0;
    rpc_reply r;
    memset(&r, 0, sizeof r);
    /* counted before it is copied: gRPC has the message, the copies follow */
    cuzk_status st = cuzk_engine_hold_request(
        c->svc->engine, c->payload ? grpc_byte_buffer_length(c->payload) : 0, &c->held, r.message);
    if (st != CUZK_OK) {
        r.code = rpc_code_from_status(st);
        call_drop_request(c);
        slog(SLOG_WARN, "grpc", "call refused method=%s code=%s message=\"%s\"",
             rpc_method_path[c->method], rpc_code_name(r.code), r.message);
        send_reply(c, &r);
        return;
    }
    if (c->payload) {
        grpc_byte_buffer_reader rd;
        if (grpc_byte_buffer_reader_init(&rd, c->payload)) {
            c->request = grpc_byte_buffer_reader_readall(&rd);
            grpc_byte_buffer_reader_destroy(&rd);
            data = GRPC_SLICE_START_PTR(c->request);
            len = GRPC_SLICE_LENGTH(c->request);
            c->have_request = 1;
        }
        grpc_byte_buffer_destroy(c->payload);
        c->payload = NULL;
    }
    /* the connection owns the jobs it submits; the secret may cancel any
     * (over a unix socket every peer may look alike: the secret tells) */
    char *peer = grpc_call_get_peer(c->gcall);
    rpc_call_probe probe = {call_gone,         c,    c->held,
                            call_drop_request, peer, call_has_secret(c->svc, c)};
    rpc_handle(c->svc->engine, (rpc_method)c->method, data, len, &probe, &r);
    gpr_free(peer);
    call_drop_request(c);
    if (r.code != RPC_OK)
        slog(r.code == RPC_CANCELLED ? SLOG_INFO : SLOG_WARN, "grpc",
             "call failed method=%s code=%s message=\"%s\"", rpc_method_path[c->method],
             rpc_code_name(r.code), r.message);
    send_reply(c, &r);
}

static void *worker_main(void *arg) {
    call *c = arg;
    grpc_service *s = c->svc;
    run_handler(c); /* c may be freed from here on */
    pthread_mutex_lock(&s->mu);
    s->workers--;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---- who may call --------------------------------------------------------- */

/* Compares without an early exit, so the time taken does not tell how many
 * leading bytes of a guess were right. */
static int same_secret(const char *a, size_t an, const char *b, size_t bn) {
    unsigned diff = an != bn;
    for (size_t i = 0; i < an; i++)
        diff |= (unsigned char)a[i] ^ (unsigned char)b[i % (bn ? bn : 1)];
    return diff == 0;
}

/* 1 when the daemon has a secret and the call carries "authorization:
 * Bearer <secret>". */
static int call_has_secret(grpc_service *s, call *c) {
    if (s->token[0] == 0)
        return 0;
    size_t tn = strlen(s->token);
    for (size_t i = 0; i < c->md.count; i++) {
        const grpc_metadata *m = &c->md.metadata[i];
        if (grpc_slice_str_cmp(m->key, "authorization") != 0)
            continue;
        const char *v = (const char *)GRPC_SLICE_START_PTR(m->value);
        size_t vn = GRPC_SLICE_LENGTH(m->value);
        if (vn > 7 && strncasecmp(v, "Bearer ", 7) == 0 && same_secret(v + 7, vn - 7, s->token, tn))
            return 1;
    }
    return 0;
}

/* With a secret: a call from the unix socket (guarded by its file mode) or
 * one carrying the secret. */
static int call_authorized(grpc_service *s, call *c) {
    if (s->token[0] == 0)
        return 1;
    char *peer = grpc_call_get_peer(c->gcall);
    int local = peer && strncmp(peer, "unix:", 5) == 0;
    gpr_free(peer);
    return local || call_has_secret(s, c);
}

/* A new call arrived on the queue thread. */
static void on_new_call(grpc_service *s, call *c) {
    pthread_mutex_lock(&s->mu);
    int accepting = s->accepting;
    pthread_mutex_unlock(&s->mu);
    if (accepting)
        post_request(s, c->method);
    atomic_store(&c->refs, 3); /* the close tag's, the send tag's, the handler's (send_reply) */
    grpc_op op;
    memset(&op, 0, sizeof op);
    op.op = GRPC_OP_RECV_CLOSE_ON_SERVER;
    op.data.recv_close_on_server.cancelled = &c->close_cancelled;
    pthread_mutex_lock(&c->mu);
    grpc_call_error e = grpc_call_start_batch(c->gcall, &op, 1, &c->t_close, NULL);
    pthread_mutex_unlock(&c->mu);
    if (e != GRPC_CALL_OK) {
        slog(SLOG_ERROR, "grpc", "recv_close failed error=%d", (int)e);
        atomic_store(&c->gone, 1);
        atomic_fetch_sub(&c->refs, 1);
    }
    rpc_reply r;
    memset(&r, 0, sizeof r);
    if (c->method < 0) {
        char *m = grpc_slice_to_c_string(c->details.method);
        r.code = RPC_UNIMPLEMENTED;
        snprintf(r.message, sizeof r.message, "unknown method %s", m);
        slog(SLOG_WARN, "grpc", "unknown method path=%s", m);
        gpr_free(m);
        send_reply(c, &r);
        return;
    }
    if (!call_authorized(s, c)) {
        char *peer = grpc_call_get_peer(c->gcall);
        r.code = RPC_UNAUTHENTICATED;
        snprintf(r.message, sizeof r.message,
                 "this daemon requires \"authorization: Bearer <secret>\" (daemon.auth_token_file) "
                 "from callers outside its unix socket");
        slog(SLOG_WARN, "grpc", "call refused, no valid secret method=%s peer=%s",
             rpc_method_path[c->method], peer ? peer : "?");
        gpr_free(peer);
        send_reply(c, &r);
        return;
    }
    pthread_mutex_lock(&s->mu);
    int ok = s->workers < MAX_WORKERS;
    if (ok)
        s->workers++;
    pthread_mutex_unlock(&s->mu);
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (ok && pthread_create(&t, &attr, worker_main, c) == 0) {
        pthread_attr_destroy(&attr);
        return;
    }
    pthread_attr_destroy(&attr);
    if (ok) {
        pthread_mutex_lock(&s->mu);
        s->workers--;
        pthread_mutex_unlock(&s->mu);
    }
    r.code = RPC_RESOURCE_EXHAUSTED;
    snprintf(r.message, sizeof r.message, "too many concurrent calls (%d)", MAX_WORKERS);
    send_reply(c, &r);
}

static void *cq_main(void *arg) {
    grpc_service *s = arg;
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(s->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN)
            break;
        if (ev.type != GRPC_OP_COMPLETE)
            continue;
        tag *t = ev.tag;
        switch (t->kind) {
        case TAG_NEW:
            if (ev.success)
                on_new_call(s, t->call);
            else
                call_free(t->call); /* the server is shutting down */
            break;
        case TAG_CLOSE:
            if (t->call->close_cancelled)
                atomic_store(&t->call->gone, 1);
            call_unref(t->call);
            break;
        case TAG_SEND:
            call_unref(t->call);
            break;
        case TAG_SHUTDOWN:
            pthread_mutex_lock(&s->mu);
            s->shutdown_done = 1;
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
            break;
        }
    }
    return NULL;
}

/* gRPC core's own messages join our log (same format, same level filter). */
static void grpc_log_to_slog(gpr_log_func_args *a) {
    slog_level l = a->severity == GPR_LOG_SEVERITY_ERROR  ? SLOG_ERROR
                   : a->severity == GPR_LOG_SEVERITY_INFO ? SLOG_DEBUG
                                                          : SLOG_TRACE;
    const char *file = strrchr(a->file, '/');
    slog(l, "grpc-core", "%s src=%s:%d", a->message, file ? file + 1 : a->file, a->line);
}

/* ---- binding -------------------------------------------------------------- */

static int mkdir_p(const char *dir) {
    char buf[sizeof(((struct sockaddr_un *)0)->sun_path)];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Prepares a unix socket path: parent folder created; an existing socket
 * that nobody answers on is removed; a live one is an error. */
static int prepare_unix(const char *path, char *err) {
    char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        if (mkdir_p(dir) != 0) {
            err_set(err, CUZK_ERROR_LEN, "cannot create the socket folder %s: %s", dir,
                    strerror(errno));
            return -1;
        }
    }
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    if (!S_ISSOCK(st.st_mode)) {
        err_set(err, CUZK_ERROR_LEN, "%s exists and is not a socket", path);
        return -1;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    int live = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    if (fd >= 0)
        close(fd);
    if (live) {
        err_set(err, CUZK_ERROR_LEN, "%s: another process is serving on this socket", path);
        return -1;
    }
    if (unlink(path) != 0) {
        err_set(err, CUZK_ERROR_LEN, "cannot remove the stale socket %s: %s", path,
                strerror(errno));
        return -1;
    }
    slog(SLOG_INFO, "grpc", "removed a stale socket path=%s", path);
    return 0;
}

int grpc_listen_is_loopback(const char *listen) {
    const char *colon = strrchr(listen, ':');
    if (colon == NULL || colon == listen)
        return 0; /* ":9820" binds every interface */
    char host[256];
    size_t n = (size_t)(colon - listen);
    if (n >= sizeof host)
        return 0;
    memcpy(host, listen, n);
    host[n] = 0;
    if (host[0] == '[' && n >= 2 && host[n - 1] == ']') {
        memmove(host, host + 1, n - 2);
        host[n - 2] = 0;
    }
    if (strcasecmp(host, "localhost") == 0)
        return 1;
    unsigned char a[16];
    if (inet_pton(AF_INET, host, a) == 1)
        return a[0] == 127;
    if (inet_pton(AF_INET6, host, a) == 1) {
        static const unsigned char v6_loop[16] = {[15] = 1};
        static const unsigned char v4_mapped[12] = {[10] = 0xff, [11] = 0xff};
        return memcmp(a, v6_loop, 16) == 0 || (memcmp(a, v4_mapped, 12) == 0 && a[12] == 127);
    }
    return 0; /* a host name may resolve anywhere */
}

/* The first line of path, trailing blanks dropped. */
static int read_token(const char *path, char *out, size_t cap, char *err) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        err_set(err, CUZK_ERROR_LEN, "daemon.auth_token_file %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && (st.st_mode & 0077))
        slog(SLOG_WARN, "grpc", "the secret file is readable by others; chmod 600 it path=%s",
             path);
    if (fgets(out, (int)cap, f) == NULL)
        out[0] = 0;
    fclose(f);
    size_t n = strlen(out);
    while (n > 0 && isspace((unsigned char)out[n - 1]))
        out[--n] = 0;
    if (n < AUTH_TOKEN_MIN || n >= cap - 1) {
        err_set(err, CUZK_ERROR_LEN,
                "daemon.auth_token_file %s: the secret (its first line) must have %d to %d "
                "bytes, it has %zu",
                path, AUTH_TOKEN_MIN, (int)cap - 2, n);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)out[i] < 0x21 || (unsigned char)out[i] > 0x7e) {
            err_set(err, CUZK_ERROR_LEN,
                    "daemon.auth_token_file %s: the secret must be printable ASCII without "
                    "spaces (it travels in a gRPC header)",
                    path);
            return -1;
        }
    return 0;
}

grpc_service *grpc_service_start(cuzk_engine *engine, const cuzk_daemon_options *o,
                                 char err[CUZK_ERROR_LEN]) {
    const char *listen = o->listen;
    grpc_service *s = calloc(1, sizeof *s);
    if (s == NULL) {
        err_set(err, CUZK_ERROR_LEN, "out of memory");
        return NULL;
    }
    s->engine = engine;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->t_shutdown = (tag){TAG_SHUTDOWN, NULL};

    char addr[CUZK_ADDR_LEN + 8];
    if (strncmp(listen, "unix:", 5) == 0) {
        const char *path = listen + 5;
        if (strncmp(path, "//", 2) == 0)
            path += 2;
        if (path[0] != '/' || strlen(path) >= sizeof s->unix_path) {
            err_set(err, CUZK_ERROR_LEN,
                    "listen address %s: expected unix:///absolute/path (at most %zu bytes)", listen,
                    sizeof s->unix_path - 1);
            goto fail_early;
        }
        snprintf(s->unix_path, sizeof s->unix_path, "%s", path);
        if (prepare_unix(path, err) != 0)
            goto fail_early;
        snprintf(addr, sizeof addr, "unix:%s", path);
    } else {
        if (strchr(listen, ':') == NULL) {
            err_set(err, CUZK_ERROR_LEN,
                    "listen address \"%s\": expected host:port or unix:///path", listen);
            goto fail_early;
        }
        snprintf(addr, sizeof addr, "%s", listen);
        if (!grpc_listen_is_loopback(listen) && !o->allow_remote) {
            err_set(err, CUZK_ERROR_LEN,
                    "listen address \"%s\" is reachable from other hosts: listen on a unix "
                    "socket or 127.0.0.1, or set daemon.allow_remote = true (with "
                    "daemon.auth_token_file)",
                    listen);
            goto fail_early;
        }
    }
    if (o->auth_token_file[0] && read_token(o->auth_token_file, s->token, sizeof s->token, err))
        goto fail_early;

    gpr_set_log_function(grpc_log_to_slog);
    grpc_init();
    grpc_args_set args;
    uint64_t max_receive = cuzk_engine_request_limit(engine);
    if (max_receive > GRPC_ARGS_MAX_MESSAGE)
        max_receive = GRPC_ARGS_MAX_MESSAGE;
    s->server = grpc_server_create(grpc_args_fill(&args, 1, max_receive), NULL);
    s->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(s->server, s->cq, NULL);
    for (int m = 0; m < RPC_METHOD_COUNT; m++) {
        s->methods[m] = grpc_server_register_method(s->server, rpc_method_path[m], NULL,
                                                    GRPC_SRM_PAYLOAD_READ_INITIAL_BYTE_BUFFER, 0);
        if (s->methods[m] == NULL) {
            err_set(err, CUZK_ERROR_LEN, "cannot register %s", rpc_method_path[m]);
            goto fail;
        }
    }
    grpc_server_credentials *cred = grpc_insecure_server_credentials_create();
    s->port = grpc_server_add_http2_port(s->server, addr, cred);
    grpc_server_credentials_release(cred);
    if (s->port <= 0) {
        err_set(err, CUZK_ERROR_LEN, "cannot listen on %s (address in use or invalid)", listen);
        goto fail;
    }
    if (s->unix_path[0])
        s->port = 0;
    grpc_server_start(s->server);
    if (s->unix_path[0] && chmod(s->unix_path, 0660) != 0)
        slog(SLOG_WARN, "grpc", "cannot chmod 0660 path=%s error=\"%s\"", s->unix_path,
             strerror(errno));
    s->accepting = 1;
    for (int m = 0; m < RPC_METHOD_COUNT; m++)
        for (int i = 0; i < CALLS_PER_METHOD; i++)
            post_request(s, m);
    for (int i = 0; i < UNREGISTERED_CALLS; i++)
        post_request(s, -1);
    if (pthread_create(&s->cq_thread, NULL, cq_main, s) != 0) {
        err_set(err, CUZK_ERROR_LEN, "cannot start the completion-queue thread");
        grpc_server_shutdown_and_notify(s->server, s->cq, &s->t_shutdown);
        grpc_server_cancel_all_calls(s->server);
        grpc_completion_queue_shutdown(s->cq);
        cq_main(s);
        goto fail;
    }
    if (s->unix_path[0])
        slog(SLOG_INFO, "grpc", "serving cuzk.v1 listen=unix://%s max_receive=%llu", s->unix_path,
             (unsigned long long)max_receive);
    else
        slog(SLOG_INFO, "grpc", "serving cuzk.v1 listen=%s port=%d max_receive=%llu", listen,
             s->port, (unsigned long long)max_receive);
    if (!s->unix_path[0] && !grpc_listen_is_loopback(listen))
        slog(SLOG_WARN, "grpc",
             "REMOTE ACCESS ENABLED: cuzk.v1 is reachable from other hosts listen=%s "
             "auth=%s",
             listen,
             s->token[0] ? "shared-secret"
                         : "NONE (anyone who reaches the port can "
                           "submit, await and cancel proofs)");
    else if (s->token[0])
        slog(SLOG_INFO, "grpc", "shared secret required from callers outside the unix socket");
    return s;

fail:
    if (s->server)
        grpc_server_destroy(s->server);
    if (s->cq)
        grpc_completion_queue_destroy(s->cq);
    grpc_shutdown();
fail_early:
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
    return NULL;
}

int grpc_service_port(const grpc_service *s) { return s->port; }

void grpc_service_stop_accepting(grpc_service *s) {
    pthread_mutex_lock(&s->mu);
    int was = s->accepting;
    s->accepting = 0;
    pthread_mutex_unlock(&s->mu);
    if (was) {
        grpc_server_shutdown_and_notify(s->server, s->cq, &s->t_shutdown);
        slog(SLOG_INFO, "grpc", "no longer accepting calls");
    }
}

/* Waits on s->cv until *flag (read under s->mu) reaches want or deadline. */
static int wait_until(grpc_service *s, int *value, int want_zero, uint64_t ms) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)(ms / 1000);
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&s->mu);
    int rc = 0;
    while ((want_zero ? *value != 0 : *value == 0) && rc == 0)
        rc = pthread_cond_timedwait(&s->cv, &s->mu, &until);
    int ok = want_zero ? *value == 0 : *value != 0;
    pthread_mutex_unlock(&s->mu);
    return ok;
}

void grpc_service_finish(grpc_service *s, uint64_t grace_ms) {
    grpc_service_stop_accepting(s);
    if (!wait_until(s, &s->shutdown_done, 0, grace_ms)) {
        slog(SLOG_WARN, "grpc", "calls still open after the grace period; cancelling grace_ms=%llu",
             (unsigned long long)grace_ms);
        grpc_server_cancel_all_calls(s->server);
        wait_until(s, &s->shutdown_done, 0, 10000);
    }
    /* handler threads notice "gone" within one await slice */
    if (!wait_until(s, &s->workers, 1, 30000)) {
        /* a handler is stuck in the engine: leave gRPC's objects alive for it */
        slog(SLOG_ERROR, "grpc", "handler threads still running at exit; not releasing workers=%d",
             s->workers);
        return;
    }
    grpc_completion_queue_shutdown(s->cq);
    pthread_join(s->cq_thread, NULL);
    grpc_server_destroy(s->server);
    grpc_completion_queue_destroy(s->cq);
    grpc_shutdown();
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    slog(SLOG_INFO, "grpc", "stopped");
    free(s);
}
