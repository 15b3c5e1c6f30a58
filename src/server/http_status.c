/* HTTP status endpoint (see http_status.h).
 *
 * A single thread polls the listening socket and a wake-up pipe; each
 * accepted connection is read (at most 8 KiB of headers, 5 s timeout),
 * answered and closed.  Requests are tiny and answers are snapshots, so
 * serving them one at a time keeps this file small without hurting anyone;
 * a slow client costs at most the timeout. */
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
#include <unistd.h>

#include "cuzk/version.h"
#include "util/slog.h"

struct http_status {
    cuzk_engine *engine;
    int fd;
    int wake[2];
    int port;
    pthread_t thread;
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
    json_t *srs = json_array();
    static const char *const tiers[] = {"hot", "warm", "cold"};
    for (size_t i = 0; i < s.n_srs; i++)
        json_array_append_new(
            srs, json_pack("{s:s,s:I,s:b,s:s,s:i}", "circuit_id", s.srs[i].circuit_id, "bytes",
                           (json_int_t)s.srs[i].size_bytes, "evictable", s.srs[i].ref_count == 0,
                           "tier", (unsigned)s.srs[i].tier < 3 ? tiers[s.srs[i].tier] : "?",
                           "ref_count", (int)s.srs[i].ref_count));
    json_object_set_new(root, "allocations", json_pack("{s:o,s:[]}", "srs", srs, "pce"));
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

static void send_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

static void respond(int fd, int code, const char *reason, const char *type, const char *body,
                    int head_only) {
    char hdr[512];
    size_t len = strlen(body);
    int n = snprintf(hdr, sizeof hdr,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\nAccess-Control-Allow-Origin: *\r\n"
                     "Cache-Control: no-store\r\n\r\n",
                     code, reason, type, len);
    send_all(fd, hdr, (size_t)n);
    if (!head_only)
        send_all(fd, body, len);
}

static void serve_one(http_status *h, int fd) {
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    char buf[8192];
    size_t n = 0;
    while (n < sizeof buf - 1) {
        ssize_t r = recv(fd, buf + n, sizeof buf - 1 - n, 0);
        if (r <= 0)
            break;
        n += (size_t)r;
        buf[n] = 0;
        if (strstr(buf, "\r\n\r\n") || strstr(buf, "\n\n"))
            break;
    }
    buf[n] = 0;
    char method[16], path[1024];
    if (sscanf(buf, "%15s %1023s HTTP/1.%*d", method, path) != 2) {
        respond(fd, 400, "Bad Request", "text/plain", "bad request\n", 0);
        return;
    }
    char *q = strchr(path, '?');
    if (q)
        *q = 0;
    int head = strcmp(method, "HEAD") == 0;
    if (strcmp(method, "GET") != 0 && !head) {
        respond(fd, 405, "Method Not Allowed", "text/plain", "only GET\n", 0);
        return;
    }
    if (strcmp(path, "/status") == 0) {
        char *json = http_status_json(h->engine);
        if (json)
            respond(fd, 200, "OK", "application/json", json, head);
        else
            respond(fd, 500, "Internal Server Error", "text/plain", "out of memory\n", head);
        free(json);
    } else if (strcmp(path, "/metrics") == 0 || strcmp(path, "/debug/metrics") == 0) {
        char *text = cuzk_engine_metrics_text(h->engine);
        if (text)
            respond(fd, 200, "OK", "text/plain; version=0.0.4; charset=utf-8", text, head);
        else
            respond(fd, 500, "Internal Server Error", "text/plain", "out of memory\n", head);
        free(text);
    } else {
        respond(fd, 404, "Not Found", "text/plain", "not found (try /status or /metrics)\n", head);
    }
    slog(SLOG_DEBUG, "http", "request method=%s path=%s", method, path);
}

static void *http_main(void *arg) {
    http_status *h = arg;
    for (;;) {
        struct pollfd p[2] = {{h->fd, POLLIN, 0}, {h->wake[0], POLLIN, 0}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (p[1].revents)
            break;
        if (p[0].revents & POLLIN) {
            int c = accept4(h->fd, NULL, NULL, SOCK_CLOEXEC);
            if (c >= 0) {
                serve_one(h, c);
                close(c);
            }
        }
    }
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
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
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
