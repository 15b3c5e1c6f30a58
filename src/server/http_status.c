/* HTTP status endpoint (see http_status.h).
 *
 * One thread runs an event loop: poll() over the listening socket, a wake-up
 * pipe and every open connection, all non-blocking.  A connection is read
 * until its headers are complete, answered from a snapshot and closed; no
 * step waits for one client, so a client that sends slowly or not at all
 * holds only its own slot and never delays another client's /status.  Each
 * connection gets HTTP_DEADLINE_MS in all (so dribbling a byte at a time
 * buys nothing); when every slot is taken, the oldest connection is dropped
 * for the new one.
 *
 * Why not libmicrohttpd: the GPU host gets a statically linked binary
 * (CUZK_STATIC_GRPC), and Debian's libmicrohttpd.a needs gnutls, whose own
 * dependencies (p11-kit, libunistring) ship no static archives. */
#define _GNU_SOURCE /* accept4, pipe2 */
#include "server/http_status.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/version.h"
#include "util/slog.h"

#define HTTP_MAX_CONNS 128
#define HTTP_DEADLINE_MS 10000
#define HTTP_HEADER_MAX 8192

typedef struct {
    int fd; /* -1: free slot */
    uint64_t deadline_ms;
    uint64_t opened_ms;
    size_t in_len;
    char in[HTTP_HEADER_MAX];
    char *out; /* the whole answer once the request is complete */
    size_t out_len, out_off;
} http_conn;

struct http_status {
    cuzk_engine *engine;
    int fd;
    int wake[2];
    int port;
    pthread_t thread;
    http_conn conn[HTTP_MAX_CONNS];
};

/* ---- the /status document -------------------------------------------------- */

char *http_status_json(cuzk_engine *e) {
    cuzk_engine_status s;
    cuzk_engine_get_status(e, &s);
    json_t *root = json_object();
    json_object_set_new(root, "uptime_secs", json_integer((json_int_t)s.uptime_s));
    uint64_t avail = s.memory_budget > s.memory_in_use ? s.memory_budget - s.memory_in_use : 0;
    json_object_set_new(root, "memory",
                        json_pack("{s:I,s:I,s:I}", "total_bytes", (json_int_t)s.memory_budget,
                                  "used_bytes", (json_int_t)s.memory_in_use, "available_bytes",
                                  (json_int_t)avail));
    json_object_set_new(root, "synthesis",
                        json_pack("{s:i,s:i}", "max_concurrent", (int)s.synthesis_max, "active",
                                  (int)s.synthesis_active));
    /* The engine API reports jobs per GPU, not per-partition pipelines. */
    json_t *pipelines = json_array(), *workers = json_array();
    unsigned busy = 0;
    for (size_t i = 0; i < s.n_gpus; i++) {
        const cuzk_gpu_status *g = &s.gpus[i];
        int has_job = g->current_job_id[0] != 0;
        busy += has_job;
        json_array_append_new(
            workers,
            json_pack("{s:i,s:i,s:s,s:o,s:n,s:s,s:I,s:I}", "worker_id", (int)i, "gpu_ordinal",
                      (int)g->ordinal, "state", has_job ? "busy" : "idle", "current_job",
                      has_job ? json_string(g->current_job_id) : json_null(), "current_partition",
                      "name", g->name, "vram_total_bytes", (json_int_t)g->vram_total_bytes,
                      "vram_free_bytes", (json_int_t)g->vram_free_bytes));
        if (has_job)
            json_array_append_new(pipelines,
                                  json_pack("{s:s,s:s}", "job_id", g->current_job_id, "proof_kind",
                                            cuzk_kind_name(g->current_kind)));
    }
    json_object_set_new(root, "pipelines", pipelines);
    json_object_set_new(root, "gpu_workers", workers);
    /* every prover device (engine/device.h): GPUs, the CPU backend, simulated ones */
    json_t *devices = json_array();
    for (size_t i = 0; i < s.n_devices; i++) {
        const cuzk_device_status *d = &s.devices[i];
        json_t *res = json_array();
        for (unsigned k = 0; k < d->n_resident; k++)
            json_array_append_new(res, json_string(d->resident[k]));
        json_array_append_new(
            devices, json_pack("{s:i,s:s,s:i,s:s,s:s,s:i,s:i,s:o,s:o,s:I,s:I,s:f}", "index",
                               (int)d->index, "name", d->name, "ordinal", d->ordinal, "state",
                               d->failed         ? "failed"
                               : d->busy_workers ? "busy"
                                                 : "idle",
                               "failed_reason", d->failed_reason, "workers", (int)d->workers,
                               "busy_workers", (int)d->busy_workers, "current_job",
                               d->current_job_id[0] ? json_string(d->current_job_id) : json_null(),
                               "resident_sets", res, "resident_bytes",
                               (json_int_t)d->resident_bytes, "partitions_proven",
                               (json_int_t)d->partitions_proven, "busy_secs", d->busy_ms / 1000));
    }
    json_object_set_new(root, "devices", devices);
    json_t *srs = json_array();
    static const char *const tiers[] = {"hot", "warm", "cold"};
    for (size_t i = 0; i < s.n_srs; i++)
        json_array_append_new(
            srs, json_pack("{s:s,s:I,s:b,s:s,s:i}", "circuit_id", s.srs[i].circuit_id, "bytes",
                           (json_int_t)s.srs[i].size_bytes, "evictable", s.srs[i].ref_count == 0,
                           "tier", (unsigned)s.srs[i].tier < 3 ? tiers[s.srs[i].tier] : "?",
                           "ref_count", (int)s.srs[i].ref_count));
    json_t *pce = json_array();
    for (size_t i = 0; i < s.n_pce; i++)
        json_array_append_new(pce,
                              json_pack("{s:s,s:I,s:I,s:b}", "circuit_id", s.pce[i].circuit_id,
                                        "bytes", (json_int_t)s.pce[i].bytes, "last_used_secs_ago",
                                        (json_int_t)s.pce[i].last_used_secs_ago, "evictable", 0));
    json_object_set_new(root, "allocations", json_pack("{s:o,s:o}", "srs", srs, "pce", pce));
    json_t *done = json_object(), *failed = json_object(), *pending = json_object(),
           *running = json_object();
    uint64_t depth = 0, in_flight = 0;
    for (int k = CUZK_KIND_POREP_C2; k < CUZK_KIND_COUNT; k++) {
        const char *name = cuzk_kind_name((cuzk_proof_kind)k);
        json_object_set_new(done, name, json_integer((json_int_t)s.completed_by_kind[k]));
        json_object_set_new(failed, name, json_integer((json_int_t)s.failed_by_kind[k]));
        json_object_set_new(pending, name, json_integer(s.pending_by_kind[k]));
        json_object_set_new(running, name, json_integer(s.running_by_kind[k]));
        depth += s.pending_by_kind[k];
        in_flight += s.running_by_kind[k];
    }
    json_object_set_new(root, "counters",
                        json_pack("{s:I,s:I,s:I,s:o,s:o,s:I,s:o,s:o,s:I}", "total_completed",
                                  (json_int_t)s.completed, "total_failed", (json_int_t)s.failed,
                                  "total_cancelled", (json_int_t)s.cancelled, "completed_by_kind",
                                  done, "failed_by_kind", failed, "queue_depth", (json_int_t)depth,
                                  "pending_by_kind", pending, "running_by_kind", running,
                                  "self_verify_failures", (json_int_t)s.self_verify_failures));
    json_object_set_new(root, "buffers",
                        json_pack("{s:i,s:i}", "synth_in_flight", (int)s.synthesis_active,
                                  "provers_in_flight", (int)busy));
    json_object_set_new(root, "pinned",
                        json_pack("{s:I,s:I}", "bytes", (json_int_t)s.pinned_bytes, "limit_bytes",
                                  (json_int_t)s.pinned_limit));
    json_object_set_new(root, "jobs_running", json_integer((json_int_t)in_flight));
    json_object_set_new(root, "version", json_string(CUZK_VERSION_STRING));
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    cuzk_engine_status_clear(&s);
    return text;
}

/* ---- the listener ----------------------------------------------------------- */

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The full answer (headers + body unless HEAD) as one malloc'd buffer. */
static char *answer(int code, const char *reason, const char *type, const char *body, int head_only,
                    size_t *len) {
    size_t blen = strlen(body);
    char hdr[512];
    int n = snprintf(hdr, sizeof hdr,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\nAccess-Control-Allow-Origin: *\r\n"
                     "Cache-Control: no-store\r\n\r\n",
                     code, reason, type, blen);
    size_t total = (size_t)n + (head_only ? 0 : blen);
    char *out = malloc(total + 1);
    if (out == NULL)
        return NULL;
    memcpy(out, hdr, (size_t)n);
    if (!head_only)
        memcpy(out + n, body, blen);
    *len = total;
    return out;
}

/* The request line of a complete header block -> the answer. */
static char *route(http_status *h, const char *req, size_t *len) {
    char method[16], path[1024];
    if (sscanf(req, "%15s %1023s HTTP/1.%*d", method, path) != 2)
        return answer(400, "Bad Request", "text/plain", "bad request\n", 0, len);
    char *q = strchr(path, '?');
    if (q)
        *q = 0;
    int head = strcmp(method, "HEAD") == 0;
    slog(SLOG_DEBUG, "http", "request method=%s path=%s", method, path);
    if (strcmp(method, "GET") != 0 && !head)
        return answer(405, "Method Not Allowed", "text/plain", "only GET\n", 0, len);
    char *body = NULL, *out;
    if (strcmp(path, "/status") == 0) {
        body = http_status_json(h->engine);
        out = body ? answer(200, "OK", "application/json", body, head, len) : NULL;
    } else if (strcmp(path, "/metrics") == 0 || strcmp(path, "/debug/metrics") == 0) {
        body = cuzk_engine_metrics_text(h->engine);
        out = body ? answer(200, "OK", "text/plain; version=0.0.4; charset=utf-8", body, head, len)
                   : NULL;
    } else {
        return answer(404, "Not Found", "text/plain", "not found (try /status or /metrics)\n", head,
                      len);
    }
    free(body);
    return out ? out
               : answer(500, "Internal Server Error", "text/plain", "out of memory\n", head, len);
}

static void conn_close(http_conn *c) {
    close(c->fd);
    free(c->out);
    c->fd = -1;
    c->out = NULL;
}

/* Reads what is there; once the headers are complete, prepares the answer. */
static void conn_read(http_status *h, http_conn *c) {
    for (;;) {
        if (c->in_len >= sizeof c->in - 1) {
            c->out = answer(431, "Request Header Fields Too Large", "text/plain",
                            "request headers too large\n", 0, &c->out_len);
            break;
        }
        ssize_t r = recv(c->fd, c->in + c->in_len, sizeof c->in - 1 - c->in_len, 0);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            conn_close(c);
            return;
        }
        if (r < 0)
            return; /* nothing more now */
        c->in_len += (size_t)r;
        c->in[c->in_len] = 0;
        if (strstr(c->in, "\r\n\r\n") || strstr(c->in, "\n\n")) {
            c->out = route(h, c->in, &c->out_len);
            break;
        }
    }
    if (c->out == NULL) /* out of memory */
        conn_close(c);
}

static void conn_write(http_conn *c) {
    while (c->out_off < c->out_len) {
        ssize_t w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return;
        if (w <= 0)
            break;
        c->out_off += (size_t)w;
    }
    conn_close(c);
}

static void accept_all(http_status *h) {
    for (;;) {
        int fd = accept4(h->fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        http_conn *slot = NULL, *oldest = NULL;
        for (int i = 0; i < HTTP_MAX_CONNS && slot == NULL; i++) {
            http_conn *c = &h->conn[i];
            if (c->fd < 0)
                slot = c;
            else if (oldest == NULL || c->opened_ms < oldest->opened_ms)
                oldest = c;
        }
        if (slot == NULL) { /* full: the oldest has had its chance */
            conn_close(oldest);
            slot = oldest;
        }
        slot->fd = fd;
        slot->opened_ms = now_ms();
        slot->deadline_ms = slot->opened_ms + HTTP_DEADLINE_MS;
        slot->in_len = 0;
        slot->out_len = slot->out_off = 0;
    }
}

static void *http_main(void *arg) {
    http_status *h = arg;
    struct pollfd p[HTTP_MAX_CONNS + 2];
    int idx[HTTP_MAX_CONNS + 2];
    for (;;) {
        p[0] = (struct pollfd){h->fd, POLLIN, 0};
        p[1] = (struct pollfd){h->wake[0], POLLIN, 0};
        nfds_t n = 2;
        uint64_t now = now_ms(), next = UINT64_MAX;
        for (int i = 0; i < HTTP_MAX_CONNS; i++) {
            http_conn *c = &h->conn[i];
            if (c->fd < 0)
                continue;
            if (now >= c->deadline_ms) {
                conn_close(c);
                continue;
            }
            if (c->deadline_ms < next)
                next = c->deadline_ms;
            idx[n] = i;
            p[n++] = (struct pollfd){c->fd, (short)(c->out ? POLLOUT : POLLIN), 0};
        }
        int timeout = next == UINT64_MAX ? -1 : (int)(next - now + 1);
        if (poll(p, n, timeout) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (p[1].revents)
            break;
        for (nfds_t k = 2; k < n; k++) {
            http_conn *c = &h->conn[idx[k]];
            if (p[k].revents == 0 || c->fd != p[k].fd)
                continue;
            if (c->out == NULL && (p[k].revents & (POLLIN | POLLHUP | POLLERR)))
                conn_read(h, c);
            if (c->fd >= 0 && c->out != NULL)
                conn_write(c); /* most answers fit the socket buffer at once */
        }
        if (p[0].revents & POLLIN)
            accept_all(h);
    }
    for (int i = 0; i < HTTP_MAX_CONNS; i++)
        if (h->conn[i].fd >= 0)
            conn_close(&h->conn[i]);
    return NULL;
}
http_status *http_status_start(cuzk_engine *e, const char *addr, char err[CUZK_ERROR_LEN]) {
    char host[256], port[32];
    const char *colon = strrchr(addr, ':');
    if (colon == NULL || (size_t)(colon - addr) >= sizeof host || strlen(colon + 1) == 0 ||
        strlen(colon + 1) >= sizeof port) {
        snprintf(err, CUZK_ERROR_LEN, "status_listen \"%s\": expected host:port", addr);
        return NULL;
    }
    memcpy(host, addr, (size_t)(colon - addr));
    host[colon - addr] = 0;
    snprintf(port, sizeof port, "%s", colon + 1);
    if (host[0] == '[' && host[strlen(host) - 1] == ']') { /* [::1]:9821 */
        memmove(host, host + 1, strlen(host));
        host[strlen(host) - 1] = 0;
    }
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int gai = getaddrinfo(host[0] ? host : NULL, port, &hints, &ai);
    if (gai != 0) {
        snprintf(err, CUZK_ERROR_LEN, "status_listen \"%s\": %s", addr, gai_strerror(gai));
        return NULL;
    }
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 64) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "status_listen \"%s\": %s", addr, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return NULL;
    }
    freeaddrinfo(ai);
    http_status *h = calloc(1, sizeof *h);
    if (h == NULL || pipe2(h->wake, O_CLOEXEC) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "out of resources");
        close(fd);
        free(h);
        return NULL;
    }
    h->engine = e;
    h->fd = fd;
    for (int i = 0; i < HTTP_MAX_CONNS; i++)
        h->conn[i].fd = -1;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
        h->port = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                           : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    if (pthread_create(&h->thread, NULL, http_main, h) != 0) {
        snprintf(err, CUZK_ERROR_LEN, "cannot start the HTTP thread");
        close(fd);
        close(h->wake[0]);
        close(h->wake[1]);
        free(h);
        return NULL;
    }
    slog(SLOG_INFO, "http", "serving /status and /metrics listen=%s port=%d", addr, h->port);
    return h;
}

int http_status_port(const http_status *h) { return h->port; }

void http_status_stop(http_status *h) {
    if (h == NULL)
        return;
    ssize_t w = write(h->wake[1], "x", 1);
    (void)w;
    pthread_join(h->thread, NULL);
    close(h->fd);
    close(h->wake[0]);
    close(h->wake[1]);
    free(h);
}
