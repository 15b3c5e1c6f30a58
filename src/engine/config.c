/* The engine's configuration defaults and its names for kinds, statuses and
 * stages.  Defaults follow the Rust daemon's cuzk.example.toml and config.rs
 * (api-and-ecosystem.md s.2.6), except that results are kept bounded. */
#include <string.h>

#include "cuzk/engine.h"

void cuzk_engine_config_defaults(cuzk_engine_config *c) {
    memset(c, 0, sizeof *c);
    strcpy(c->param_cache, "/data/zk/params"); /* srs.param_cache; the env var wins */
    c->memory_budget = 0;                      /* auto: MemTotal - margin */
    c->memory_safety_margin = 5ULL << 30;
    c->eviction_min_idle_s = 300;
    c->n_gpu_devices = 0;
    c->gpu_threads = 0;
    c->gpu_workers_per_device = 2;
    c->use_gpu = 1; /* falls back to the CPU backend when the build has no GPU one */
    c->max_batch_size = 1;
    c->max_batch_wait_ms = 10000;
    c->sort_by_type = 1;
    c->synthesis_threads = 0;
    c->pipeline_enabled = 1;
    c->synthesis_lookahead = 1;
    c->synthesis_concurrency = 1;
    c->max_parallel_synthesis = 18;
    c->max_gpu_queue_depth = 0;
    c->max_pending_jobs = 0;
    c->result_keep_count = 1000;
    c->result_keep_s = 3600;
    c->self_verify = 1;
    c->cancel_running_on_shutdown = 0;
}

const char *cuzk_status_name(cuzk_status s) {
    static const char *names[] = {
        "ok",        "invalid argument", "unsupported", "not found",      "timeout",
        "exhausted", "shutdown",         "internal",    "already exists", "permission denied"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

const char *cuzk_stage_name(cuzk_stage s) {
    static const char *names[] = {"queue",      "srs_load", "synthesis",
                                  "prove_wait", "prove",    "verify"};
    return (unsigned)s < CUZK_STAGE_COUNT ? names[s] : "unknown";
}
