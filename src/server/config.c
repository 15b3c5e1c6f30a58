/* cuzk.toml -> cuzk_config (see config.h).
 *
 * The key table below is the whole configuration surface: section, key, how
 * the value is read, and where it is stored.  Loading walks the parsed TOML
 * tree (util/toml) and looks every key up in the table, so a key that is not
 * in the table -- a typo -- is an error, never silently ignored.
 * Defaults: cuzk_engine_config_defaults for the engine's part, the Rust
 * daemon's values for the daemon's part. */
#include "server/config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecoin/param_dir.h"
#include "util/err.h"
#include "util/slog.h"
#include "util/toml.h"

typedef enum {
    K_STR,       /* string into a char[] of `size` bytes */
    K_SIZE,      /* bytes: integer or "5GiB"; `flag` 1 allows "auto" (= 0) */
    K_DUR_S,     /* duration stored in whole seconds */
    K_DUR_MS,    /* duration stored in milliseconds */
    K_UINT,      /* unsigned, `min`..UINT32_MAX */
    K_U64,       /* uint64 */
    K_BOOL,      /* int 0/1 */
    K_DEVICES,   /* gpus.devices: array of GPU ordinals */
    K_LEVEL,     /* logging.level */
    K_FORMAT,    /* logging.format: "text" | "json" */
    K_SHUTDOWN,  /* daemon.shutdown: "finish" | "cancel" */
    K_DEPRECATED /* accepted, warned about, ignored */
} key_kind;

typedef struct {
    const char *section, *key;
    key_kind kind;
    size_t offset; /* into cuzk_config */
    size_t size;   /* K_STR: buffer size */
    unsigned min;  /* K_UINT: smallest allowed value */
    int flag;
    const char *note; /* K_DEPRECATED: what replaced it */
} key_spec;

#define ENG(f) offsetof(cuzk_config, engine.f)
#define DMN(f) offsetof(cuzk_config, daemon.f)

static const key_spec keys[] = {
    {"daemon", "listen", K_STR, DMN(listen), CUZK_ADDR_LEN, 0, 0, NULL},
    {"daemon", "status_listen", K_STR, DMN(status_listen), CUZK_ADDR_LEN, 0, 0, NULL},
    {"daemon", "allow_remote", K_BOOL, DMN(allow_remote), 0, 0, 0, NULL},
    {"daemon", "auth_token_file", K_STR, DMN(auth_token_file), CUZK_ADDR_LEN, 0, 0, NULL},
    {"daemon", "shutdown", K_SHUTDOWN, ENG(cancel_running_on_shutdown), 0, 0, 0, NULL},
    {"daemon", "shutdown_timeout", K_DUR_MS, DMN(shutdown_timeout_ms), 0, 0, 0, NULL},
    {"srs", "param_cache", K_STR, ENG(param_cache), sizeof(((cuzk_engine_config *)0)->param_cache),
     1, 0, NULL},
    {"srs", "trust_params", K_BOOL, ENG(trust_params), 0, 0, 0, NULL},
    {"srs", "preload", K_DEPRECATED, 0, 0, 0, 0, "parameters load on demand or by PreloadSRS"},
    {"memory", "total_budget", K_SIZE, ENG(memory_budget), 0, 0, 1, NULL},
    {"memory", "safety_margin", K_SIZE, ENG(memory_safety_margin), 0, 0, 0, NULL},
    {"memory", "eviction_min_idle", K_DUR_S, ENG(eviction_min_idle_s), 0, 0, 0, NULL},
    {"memory", "pinned_budget", K_DEPRECATED, 0, 0, 0, 0, "memory.total_budget covers it"},
    {"memory", "working_memory_budget", K_DEPRECATED, 0, 0, 0, 0, "memory.total_budget covers it"},
    {"gpus", "devices", K_DEVICES, 0, 0, 0, 0, NULL},
    {"gpus", "gpu_threads", K_UINT, ENG(gpu_threads), 0, 0, 0, NULL},
    {"gpus", "gpu_workers_per_device", K_UINT, ENG(gpu_workers_per_device), 0, 1, 0, NULL},
    {"gpus", "use_gpu", K_BOOL, ENG(use_gpu), 0, 0, 0, NULL},
    {"gpus", "memory_limit", K_SIZE, ENG(gpu_memory_limit), 0, 0, 0, NULL},
    {"scheduler", "max_batch_size", K_UINT, ENG(max_batch_size), 0, 1, 0, NULL},
    {"scheduler", "max_batch_wait_ms", K_U64, ENG(max_batch_wait_ms), 0, 0, 0, NULL},
    {"scheduler", "sort_by_type", K_BOOL, ENG(sort_by_type), 0, 0, 0, NULL},
    {"scheduler", "max_pending_jobs", K_UINT, ENG(max_pending_jobs), 0, 0, 0, NULL},
    {"scheduler", "result_keep_count", K_UINT, ENG(result_keep_count), 0, 0, 0, NULL},
    {"scheduler", "result_keep_time", K_DUR_S, ENG(result_keep_s), 0, 0, 0, NULL},
    {"synthesis", "threads", K_UINT, ENG(synthesis_threads), 0, 0, 0, NULL},
    {"synthesis", "partition_workers", K_DEPRECATED, 0, 0, 0, 0,
     "the memory budget sets partition concurrency"},
    {"pipeline", "enabled", K_BOOL, ENG(pipeline_enabled), 0, 0, 0, NULL},
    {"pipeline", "synthesis_lookahead", K_UINT, ENG(synthesis_lookahead), 0, 0, 0, NULL},
    {"pipeline", "synthesis_concurrency", K_UINT, ENG(synthesis_concurrency), 0, 1, 0, NULL},
    {"pipeline", "max_parallel_synthesis", K_UINT, ENG(max_parallel_synthesis), 0, 0, 0, NULL},
    {"pipeline", "max_gpu_queue_depth", K_UINT, ENG(max_gpu_queue_depth), 0, 0, 0, NULL},
    {"pipeline", "slot_size", K_DEPRECATED, 0, 0, 0, 0,
     "cuzk (C) pipelines per partition always; the key has no effect"},
    {"pipeline", "self_verify", K_BOOL, ENG(self_verify), 0, 0, 0, NULL},
    {"logging", "level", K_LEVEL, DMN(log_level), 0, 0, 0, NULL},
    {"logging", "format", K_FORMAT, DMN(log_json), 0, 0, 0, NULL},
    /* TEST ONLY: N simulated prover devices on the CPU backend (engine/device.h) */
    {"gpus", "simulate", K_UINT, ENG(simulate_devices), 0, 0, 0, NULL},
};

/* ---- sizes and durations ------------------------------------------------- */

int cuzk_parse_size(const char *s, uint64_t *bytes) {
    static const struct {
        const char *unit;
        uint64_t mul;
    } units[] = {{"", 1},
                 {"B", 1},
                 {"KiB", 1ull << 10},
                 {"MiB", 1ull << 20},
                 {"GiB", 1ull << 30},
                 {"TiB", 1ull << 40},
                 {"KB", 1000ull},
                 {"MB", 1000000ull},
                 {"GB", 1000000000ull},
                 {"TB", 1000000000000ull}};
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    uint64_t n = 0;
    for (; isdigit((unsigned char)*s); s++) {
        if (n > (UINT64_MAX - 9) / 10)
            return -1;
        n = n * 10 + (uint64_t)(*s - '0');
    }
    while (*s == ' ')
        s++;
    size_t ul = strlen(s);
    while (ul > 0 && isspace((unsigned char)s[ul - 1]))
        ul--;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strlen(units[i].unit) == ul && strncmp(s, units[i].unit, ul) == 0) {
            if (n != 0 && units[i].mul > UINT64_MAX / n)
                return -1;
            *bytes = n * units[i].mul;
            return 0;
        }
    }
    return -1;
}

int cuzk_parse_duration_ms(const char *s, uint64_t *ms) {
    while (isspace((unsigned char)*s))
        s++;
    uint64_t total = 0;
    int parts = 0;
    while (*s && !isspace((unsigned char)*s)) {
        if (!isdigit((unsigned char)*s))
            return -1;
        uint64_t n = 0;
        for (; isdigit((unsigned char)*s); s++) {
            if (n > (UINT64_MAX - 9) / 10)
                return -1;
            n = n * 10 + (uint64_t)(*s - '0');
        }
        uint64_t mul;
        if (strncmp(s, "ms", 2) == 0) {
            mul = 1;
            s += 2;
        } else if (*s == 's' || *s == 'm' || *s == 'h' || *s == 'd') {
            mul = *s == 's' ? 1000 : *s == 'm' ? 60000 : *s == 'h' ? 3600000 : 86400000;
            s++;
        } else if (*s == 0 || isspace((unsigned char)*s)) {
            if (parts > 0)
                return -1; /* "1m30" is ambiguous */
            mul = 1000;
        } else {
            return -1;
        }
        if (n != 0 && mul > UINT64_MAX / n)
            return -1;
        if (total > UINT64_MAX - n * mul)
            return -1;
        total += n * mul;
        parts++;
    }
    while (isspace((unsigned char)*s))
        s++;
    if (parts == 0 || *s)
        return -1;
    *ms = total;
    return 0;
}

/* ---- applying one key ---------------------------------------------------- */

static int bad(char *err, const char *path, const toml_value *v, const key_spec *k,
               const char *why) {
    snprintf(err, CUZK_ERROR_LEN, "%s: line %d: %s.%s: %s", path, v->line, k->section, k->key, why);
    return -1;
}

static int want_type(char *err, const char *path, const toml_value *v, const key_spec *k,
                     toml_type t) {
    if (v->type == t)
        return 0;
    char why[128];
    snprintf(why, sizeof why, "expected a %s, found a %s", toml_type_name(t),
             toml_type_name(v->type));
    return bad(err, path, v, k, why);
}

static int apply(cuzk_config *cfg, const key_spec *k, const toml_value *v, const char *path,
                 char *err) {
    char *base = (char *)cfg;
    char why[160];
    switch (k->kind) {
    case K_STR: {
        if (want_type(err, path, v, k, TOML_STRING))
            return -1;
        if (strlen(v->str) >= k->size)
            return bad(err, path, v, k, "too long");
        if (k->min && v->str[0] == 0)
            return bad(err, path, v, k, "must not be empty");
        strcpy(base + k->offset, v->str);
        return 0;
    }
    case K_SIZE: {
        uint64_t b;
        if (v->type == TOML_INT) {
            if (v->i < 0)
                return bad(err, path, v, k, "a size cannot be negative");
            b = (uint64_t)v->i;
        } else if (v->type == TOML_STRING) {
            if (k->flag && strcmp(v->str, "auto") == 0) {
                b = 0;
            } else if (cuzk_parse_size(v->str, &b) != 0) {
                snprintf(why, sizeof why,
                         "\"%.60s\" is not a size (bytes, or a number with KiB MiB GiB TiB "
                         "KB MB GB TB%s)",
                         v->str, k->flag ? ", or \"auto\"" : "");
                return bad(err, path, v, k, why);
            } else if (k->flag && b == 0) {
                return bad(err, path, v, k, "must be more than 0 (or \"auto\")");
            }
        } else {
            return want_type(err, path, v, k, TOML_STRING);
        }
        memcpy(base + k->offset, &b, sizeof b);
        return 0;
    }
    case K_DUR_S:
    case K_DUR_MS: {
        uint64_t ms;
        if (v->type == TOML_INT) {
            if (v->i < 0 || (uint64_t)v->i > UINT64_MAX / 1000)
                return bad(err, path, v, k, "out of range");
            ms = (uint64_t)v->i * 1000;
        } else if (v->type == TOML_STRING) {
            if (cuzk_parse_duration_ms(v->str, &ms) != 0) {
                snprintf(why, sizeof why,
                         "\"%.60s\" is not a duration (e.g. \"300\", \"30s\", \"5m\", \"2h\", "
                         "\"250ms\")",
                         v->str);
                return bad(err, path, v, k, why);
            }
        } else {
            return want_type(err, path, v, k, TOML_STRING);
        }
        uint64_t out = k->kind == K_DUR_S ? ms / 1000 : ms;
        if (k->kind == K_DUR_S && ms % 1000 != 0)
            return bad(err, path, v, k, "must be whole seconds");
        memcpy(base + k->offset, &out, sizeof out);
        return 0;
    }
    case K_UINT: {
        if (want_type(err, path, v, k, TOML_INT))
            return -1;
        if (v->i < (int64_t)k->min || v->i > (int64_t)UINT32_MAX) {
            snprintf(why, sizeof why, "%lld is out of range (%u..%u)", (long long)v->i, k->min,
                     UINT32_MAX);
            return bad(err, path, v, k, why);
        }
        unsigned u = (unsigned)v->i;
        memcpy(base + k->offset, &u, sizeof u);
        return 0;
    }
    case K_U64: {
        if (want_type(err, path, v, k, TOML_INT))
            return -1;
        if (v->i < 0)
            return bad(err, path, v, k, "cannot be negative");
        uint64_t u = (uint64_t)v->i;
        memcpy(base + k->offset, &u, sizeof u);
        return 0;
    }
    case K_BOOL: {
        if (want_type(err, path, v, k, TOML_BOOL))
            return -1;
        int b = v->b;
        memcpy(base + k->offset, &b, sizeof b);
        return 0;
    }
    case K_DEVICES: {
        if (want_type(err, path, v, k, TOML_ARRAY))
            return -1;
        size_t max = sizeof cfg->engine.gpu_devices / sizeof cfg->engine.gpu_devices[0];
        if (v->n > max) {
            snprintf(why, sizeof why, "at most %zu devices", max);
            return bad(err, path, v, k, why);
        }
        for (size_t i = 0; i < v->n; i++) {
            const toml_value *e = v->kids[i];
            if (e->type != TOML_INT)
                return bad(err, path, v, k, "devices must be integers (GPU ordinals)");
            if (e->i < 0 || e->i > 255) {
                snprintf(why, sizeof why, "GPU ordinal %lld is out of range (0..255)",
                         (long long)e->i);
                return bad(err, path, v, k, why);
            }
            for (size_t j = 0; j < i; j++)
                if (v->kids[j]->i == e->i) {
                    snprintf(why, sizeof why, "GPU %lld is listed twice", (long long)e->i);
                    return bad(err, path, v, k, why);
                }
            cfg->engine.gpu_devices[i] = (int)e->i;
        }
        cfg->engine.n_gpu_devices = v->n;
        return 0;
    }
    case K_LEVEL: {
        if (want_type(err, path, v, k, TOML_STRING))
            return -1;
        int l = slog_level_parse(v->str);
        if (l < 0) {
            snprintf(why, sizeof why,
                     "\"%.40s\" is not a level (trace, debug, info, warn, error, off)", v->str);
            return bad(err, path, v, k, why);
        }
        cfg->daemon.log_level = l;
        return 0;
    }
    case K_FORMAT: {
        if (want_type(err, path, v, k, TOML_STRING))
            return -1;
        if (strcmp(v->str, "json") != 0 && strcmp(v->str, "text") != 0)
            return bad(err, path, v, k, "must be \"text\" or \"json\"");
        cfg->daemon.log_json = strcmp(v->str, "json") == 0;
        return 0;
    }
    case K_SHUTDOWN: {
        if (want_type(err, path, v, k, TOML_STRING))
            return -1;
        if (strcmp(v->str, "finish") != 0 && strcmp(v->str, "cancel") != 0)
            return bad(err, path, v, k, "must be \"finish\" (running jobs complete) or \"cancel\"");
        cfg->engine.cancel_running_on_shutdown = strcmp(v->str, "cancel") == 0;
        return 0;
    }
    case K_DEPRECATED:
        slog(SLOG_WARN, "config", "deprecated key ignored key=%s.%s file=%s line=%d note=\"%s\"",
             k->section, k->key, path, v->line, k->note);
        return 0;
    }
    return bad(err, path, v, k, "internal: unhandled key kind");
}

static const key_spec *find_key(const char *section, const char *key) {
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i].section, section) == 0 && strcmp(keys[i].key, key) == 0)
            return &keys[i];
    return NULL;
}

static int section_known(const char *section) {
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i].section, section) == 0)
            return 1;
    return 0;
}

static void defaults(cuzk_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cuzk_engine_config_defaults(&cfg->engine);
    snprintf(cfg->daemon.listen, sizeof cfg->daemon.listen, "unix:///run/curio/cuzk.sock");
    cfg->daemon.status_listen[0] = 0;
    cfg->daemon.shutdown_timeout_ms = 30000;
    cfg->daemon.log_level = SLOG_INFO;
    cfg->daemon.log_json = 0;
}

static int apply_tree(cuzk_config *cfg, const toml_value *root, const char *path, char *err) {
    for (size_t i = 0; i < root->n; i++) {
        const toml_value *sec = root->kids[i];
        if (sec->type != TOML_TABLE) {
            snprintf(err, CUZK_ERROR_LEN,
                     "%s: line %d: key \"%s\" must be inside a [section] (daemon, srs, memory, "
                     "gpus, scheduler, synthesis, pipeline, logging)",
                     path, sec->line, sec->key);
            return -1;
        }
        if (!section_known(sec->key)) {
            snprintf(err, CUZK_ERROR_LEN,
                     "%s: line %d: unknown section [%s] (known: daemon, srs, memory, gpus, "
                     "scheduler, synthesis, pipeline, logging)",
                     path, sec->line, sec->key);
            return -1;
        }
        for (size_t j = 0; j < sec->n; j++) {
            const toml_value *v = sec->kids[j];
            const key_spec *k = find_key(sec->key, v->key);
            if (k == NULL) {
                snprintf(err, CUZK_ERROR_LEN, "%s: line %d: unknown key %s.%s", path, v->line,
                         sec->key, v->key);
                return -1;
            }
            if (apply(cfg, k, v, path, err) != 0)
                return -1;
        }
    }
    return 0;
}

int cuzk_config_parse_text(cuzk_config *out, const char *text, size_t len, const char *name,
                           char err[CUZK_ERROR_LEN]) {
    defaults(out);
    err[0] = 0;
    char terr[TOML_ERR_LEN];
    toml_value *root = toml_parse(text, len, terr);
    if (root == NULL) {
        snprintf(err, CUZK_ERROR_LEN, "%s: %s", name, terr);
        return -1;
    }
    int rc = apply_tree(out, root, name, err);
    toml_free(root);
    return rc;
}

int cuzk_config_load(cuzk_config *out, const char *path, char err[CUZK_ERROR_LEN]) {
    defaults(out);
    err[0] = 0;
    /* srs.param_cache: "" until the file sets it, so the folder rule can
     * tell an explicit setting from the default (#32) */
    char param_default[sizeof out->engine.param_cache];
    snprintf(param_default, sizeof param_default, "%s", out->engine.param_cache);
    out->engine.param_cache[0] = 0;
    if (path != NULL) {
        char terr[TOML_ERR_LEN];
        toml_value *root = toml_parse_file(path, terr);
        if (root == NULL) {
            snprintf(err, CUZK_ERROR_LEN, "%s", terr);
            return -1;
        }
        int rc = apply_tree(out, root, path, err);
        toml_free(root);
        if (rc != 0)
            return -1;
    }
    /* one rule for the parameter folder (filecoin/param_dir.h): an explicit
     * srs.param_cache wins over FIL_PROOFS_PARAMETER_CACHE, loudly if both
     * are set and differ; without either, the daemon's default */
    char dir[sizeof out->engine.param_cache], why[256];
    fc_param_dir_source from;
    if (fc_param_dir(dir, sizeof dir, NULL, out->engine.param_cache, &from, why, sizeof why)) {
        snprintf(err, CUZK_ERROR_LEN, "%s", why);
        return -1;
    }
    const char *env = getenv(FC_PARAM_DIR_ENV);
    if (from == FC_PARAM_DIR_FROM_CONFIG && env && *env && strcmp(env, dir) != 0)
        slog(SLOG_WARN, "config",
             "srs.param_cache wins over FIL_PROOFS_PARAMETER_CACHE config=%s env=%s", dir, env);
    if (from == FC_PARAM_DIR_FROM_DEFAULT)
        snprintf(dir, sizeof dir, "%s", param_default);
    out->param_cache_from_env = from == FC_PARAM_DIR_FROM_ENV;
    snprintf(out->engine.param_cache, sizeof out->engine.param_cache, "%s", dir);
    if (out->daemon.listen[0] == 0) {
        snprintf(err, CUZK_ERROR_LEN, "%s: daemon.listen must not be empty",
                 path ? path : "(defaults)");
        return -1;
    }
    return 0;
}

int cuzk_config_check_param_dir(const cuzk_config *cfg, char err[CUZK_ERROR_LEN]) {
    const char *dir = cfg->engine.param_cache;
    const char *src = cfg->param_cache_from_env ? "FIL_PROOFS_PARAMETER_CACHE" : "srs.param_cache";
    struct stat st;
    if (stat(dir, &st) != 0) {
        return err_set(err, CUZK_ERROR_LEN, "parameter folder %s (%s): %s", dir, src,
                       strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) {
        return err_set(err, CUZK_ERROR_LEN, "parameter folder %s (%s) is not a folder", dir, src);
    }
    /* the provers open files by name inside it: listing it proves read and search rights */
    DIR *d = opendir(dir);
    if (d == NULL || access(dir, R_OK | X_OK) != 0) {
        int e = errno ? errno : EACCES;
        if (d)
            closedir(d);
        return err_set(err, CUZK_ERROR_LEN, "parameter folder %s (%s) cannot be read: %s", dir, src,
                       strerror(e));
    }
    closedir(d);
    return 0;
}

/* A TOML basic string (quotes and backslashes escaped). */
static void print_str(FILE *to, const char *key, const char *v) {
    fprintf(to, "%s = \"", key);
    for (; *v; v++) {
        if (*v == '"' || *v == '\\')
            fputc('\\', to);
        if ((unsigned char)*v < 0x20)
            fprintf(to, "\\u%04x", (unsigned char)*v);
        else
            fputc(*v, to);
    }
    fputs("\"\n", to);
}

static void print_size(FILE *to, const char *key, uint64_t b, int auto_zero) {
    if (auto_zero && b == 0)
        fprintf(to, "%s = \"auto\"\n", key);
    else if (b > (uint64_t)INT64_MAX) /* a TOML integer is signed: keep it a size string */
        fprintf(to, "%s = \"%lluB\"\n", key, (unsigned long long)b);
    else
        fprintf(to, "%s = %llu\n", key, (unsigned long long)b);
}

void cuzk_config_print(FILE *to, const cuzk_config *c) {
    const cuzk_engine_config *e = &c->engine;
    fprintf(to, "[daemon]\n");
    print_str(to, "listen", c->daemon.listen);
    print_str(to, "status_listen", c->daemon.status_listen);
    fprintf(to, "allow_remote = %s\n", c->daemon.allow_remote ? "true" : "false");
    print_str(to, "auth_token_file", c->daemon.auth_token_file);
    fprintf(to, "shutdown = \"%s\"\n", e->cancel_running_on_shutdown ? "cancel" : "finish");
    fprintf(to, "shutdown_timeout = \"%llums\"\n",
            (unsigned long long)c->daemon.shutdown_timeout_ms);
    fprintf(to, "\n[srs]\n");
    print_str(to, "param_cache", e->param_cache);
    fprintf(to, "\n[memory]\n");
    print_size(to, "total_budget", e->memory_budget, 1);
    print_size(to, "safety_margin", e->memory_safety_margin, 0);
    fprintf(to, "eviction_min_idle = \"%llus\"\n", (unsigned long long)e->eviction_min_idle_s);
    fprintf(to, "\n[gpus]\ndevices = [");
    for (size_t i = 0; i < e->n_gpu_devices; i++)
        fprintf(to, "%s%d", i ? ", " : "", e->gpu_devices[i]);
    fprintf(to, "]\ngpu_threads = %u\ngpu_workers_per_device = %u\nuse_gpu = %s\n", e->gpu_threads,
            e->gpu_workers_per_device, e->use_gpu ? "true" : "false");
    print_size(to, "memory_limit", e->gpu_memory_limit, 0);
    if (e->simulate_devices) /* TEST ONLY, printed only when set */
        fprintf(to, "simulate = %u\n", e->simulate_devices);
    fprintf(to,
            "\n[scheduler]\nmax_batch_size = %u\nmax_batch_wait_ms = %llu\nsort_by_type = %s\n"
            "max_pending_jobs = %u\nresult_keep_count = %u\nresult_keep_time = \"%llus\"\n",
            e->max_batch_size, (unsigned long long)e->max_batch_wait_ms,
            e->sort_by_type ? "true" : "false", e->max_pending_jobs, e->result_keep_count,
            (unsigned long long)e->result_keep_s);
    fprintf(to, "\n[synthesis]\nthreads = %u\n", e->synthesis_threads);
    fprintf(to,
            "\n[pipeline]\nenabled = %s\nsynthesis_lookahead = %u\nsynthesis_concurrency = %u\n"
            "max_parallel_synthesis = %u\nmax_gpu_queue_depth = %u\nself_verify = %s\n",
            e->pipeline_enabled ? "true" : "false", e->synthesis_lookahead,
            e->synthesis_concurrency, e->max_parallel_synthesis, e->max_gpu_queue_depth,
            e->self_verify ? "true" : "false");
    fprintf(to, "\n[logging]\nlevel = \"%s\"\nformat = \"%s\"\n",
            slog_level_name((slog_level)c->daemon.log_level), c->daemon.log_json ? "json" : "text");
}
