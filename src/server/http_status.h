/* HTTP/1.1 status endpoint (daemon.status_listen): GET /status (JSON, the
 * Rust daemon's keys plus ours), GET /metrics and /debug/metrics (Prometheus
 * text), 404 for any other path, 405 for other methods.  One thread serves
 * up to 128 connections at once without waiting on any of them; each gets
 * 10 s in all; one request per connection (Connection: close). */
#ifndef CUZK_SERVER_HTTP_STATUS_H
#define CUZK_SERVER_HTTP_STATUS_H

#include "cuzk/engine.h"

typedef struct http_status http_status;

/* listen: "host:port" (port 0 picks one).  NULL with err on failure. */
http_status *http_status_start(cuzk_engine *e, const char *listen, char err[CUZK_ERROR_LEN]);
int http_status_port(const http_status *h);
void http_status_stop(http_status *h);

/* The /status document (malloc'd JSON text), also used by tests. */
char *http_status_json(cuzk_engine *e);

#endif
