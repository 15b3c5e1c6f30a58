/* cuzk.toml: the daemon's configuration file.
 *
 * One table (config.c) names every key, its type, its default and where it
 * lands: the engine's cuzk_engine_config or the daemon's own options.  Keys
 * and defaults follow Curio's Rust cuzk daemon (so its config files load
 * unchanged), plus a few keys of ours.  Unknown keys, wrong types and values
 * that do not parse are errors naming the file and line; deprecated keys are
 * accepted with a warning. */
#ifndef CUZK_SERVER_CONFIG_H
#define CUZK_SERVER_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "cuzk/engine.h"

#define CUZK_DEFAULT_CONFIG_PATH "/data/zk/cuzk.toml"
#define CUZK_ADDR_LEN 1024

typedef struct {
    char listen[CUZK_ADDR_LEN];        /* daemon.listen: "unix:///path" or "host:port" */
    char status_listen[CUZK_ADDR_LEN]; /* daemon.status_listen: "" = no HTTP endpoint */
    int allow_remote; /* daemon.allow_remote: TCP listen may be reachable from other hosts */
    char auth_token_file[CUZK_ADDR_LEN]; /* daemon.auth_token_file: "" = no shared secret */
    uint64_t shutdown_timeout_ms; /* daemon.shutdown_timeout: calls still open then are cancelled */
    int log_level;                /* logging.level (slog_level) */
    int log_json;                 /* logging.format = "json" */
} cuzk_daemon_options;

typedef struct {
    cuzk_engine_config engine;
    cuzk_daemon_options daemon;
    int param_cache_from_env; /* FIL_PROOFS_PARAMETER_CACHE supplied srs.param_cache */
} cuzk_config;

/* Fills the defaults, then applies the file at path (NULL: defaults only),
 * then FIL_PROOFS_PARAMETER_CACHE.  Returns 0, or -1 with err set to
 * "FILE: line L: problem".  Warnings (deprecated keys) go to the log. */
int cuzk_config_load(cuzk_config *out, const char *path, char err[CUZK_ERROR_LEN]);

/* The defaults, then the TOML text[0..len) named `name` in messages; no
 * environment, no final checks (the fuzz target's entry: tests/fuzz). */
int cuzk_config_parse_text(cuzk_config *out, const char *text, size_t len, const char *name,
                           char err[CUZK_ERROR_LEN]);

/* Parses "512", "512B", "64KiB", "5 GiB", "2TB" ... into bytes.  0 on
 * success, -1 for anything else or overflow. */
int cuzk_parse_size(const char *s, uint64_t *bytes);
/* Parses "300", "30s", "5m", "2h", "1d", "250ms", "1h30m" into milliseconds;
 * a bare number is seconds. */
int cuzk_parse_duration_ms(const char *s, uint64_t *ms);

/* Startup check of srs.param_cache: the folder exists, is a folder and can
 * be listed.  0, or -1 with err naming the folder and the problem. */
int cuzk_config_check_param_dir(const cuzk_config *cfg, char err[CUZK_ERROR_LEN]);

/* Writes the effective configuration as TOML (what --check-config prints). */
void cuzk_config_print(FILE *to, const cuzk_config *cfg);

#endif
