/* `cuzk bench single|batch|stress|status|preload|evict|metrics`: drives a
 * running daemon over cuzk.v1 (server/grpc_client.h) with the flags of the
 * Rust cuzk-bench (api-and-ecosystem.md §2.7), plus a load mix (`stress`),
 * latency percentiles and a pipeline timeline (`--timeline FILE.svg`).
 *
 * One difference from the Rust tool on purpose: it always sends
 * sector_size = 32 GiB; we send the sector size of the proof being asked
 * for (--sector-size, else the C1 wrapper's SectorSize, else the registered
 * proof's), so 2 KiB test sectors work against a checking daemon.  For
 * PoRep the registered proof and sector number default to what the C1 says.
 *
 * Flow: flags -> per-kind request specs (files read once, shared by every
 * request) -> bench_run (cli/bench_load.c) -> per-proof lines, summary,
 * optional timeline.  Exit: 0 all proofs COMPLETED / the call succeeded,
 * 1 a proof or call failed, 2 bad flags or unreadable input. */
#include "cli/bench/cmd_bench_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/bench/bench_args.h"
#include "cli/bench/bench_load.h"
#include "cli/bench/grpc_client.h"
#include "util/file_write.h"
#include "util/slog.h"

int cmd_bench_client_matches(const char *w) {
    for (int i = 0; i < SUB_N; i++)
        if (strcmp(w, bench_sub_names[i]) == 0)
            return 1;
    return w[0] == '-'; /* `bench prove|synth|engine` start with their word */
}

/* ---- commands ---------------------------------------------------------------- */

static uint64_t call_timeout(const bench_args *a, uint64_t default_s) {
    return (uint64_t)((a->timeout_s > 0 ? a->timeout_s : (double)default_s) * 1000.0);
}

/* Opens the channel; a unix socket that is not there is named at once
 * (gRPC would only say "failed to connect"). */
static grpc_client *open_client(const bench_args *a) {
    const char *path = NULL;
    if (strncmp(a->addr, "unix://", 7) == 0)
        path = a->addr + 7;
    else if (strncmp(a->addr, "unix:", 5) == 0)
        path = a->addr + 5;
    struct stat st;
    if (path && path[0] && stat(path, &st) != 0) {
        fprintf(stderr, "cuzk bench: daemon socket %s: %s (is `cuzk daemon` listening on %s?)\n",
                path, strerror(errno), a->addr);
        return NULL;
    }
    if (path && path[0] && !S_ISSOCK(st.st_mode)) {
        fprintf(stderr, "cuzk bench: daemon address %s: %s is not a socket\n", a->addr, path);
        return NULL;
    }
    char err[CUZK_ERROR_LEN];
    grpc_client *c = grpc_client_open(a->addr, err);
    if (c == NULL)
        fprintf(stderr, "cuzk bench: %s\n", err);
    return c;
}

static int call_failed(const bench_args *a, const char *rpc, int code, const char *msg) {
    fprintf(stderr, "cuzk bench: %s at %s failed: %s: %s\n", rpc, a->addr,
            grpc_client_code_name(code), msg);
    return 1;
}

static void print_hex(FILE *f, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%02x", p[i]);
}

static int cmd_status(const bench_args *a, grpc_client *c) {
    client_status s;
    char msg[CUZK_ERROR_LEN];
    int code = grpc_client_get_status(c, call_timeout(a, 60), &s, msg);
    if (code)
        return call_failed(a, "GetStatus", code, msg);
    static const char *const tiers[] = {"hot", "warm", "cold"};
    printf("=== cuzk daemon status ===\n");
    printf("uptime:           %llus\n", (unsigned long long)s.uptime_seconds);
    printf("proofs completed: %llu\n", (unsigned long long)s.total_proofs_completed);
    printf("proofs failed:    %llu\n", (unsigned long long)s.total_proofs_failed);
    printf("pinned memory:    %llu / %llu bytes\n", (unsigned long long)s.pinned_memory_bytes,
           (unsigned long long)s.pinned_memory_limit_bytes);
    printf("\nGPUs: %zu\n", s.n_gpus);
    for (size_t i = 0; i < s.n_gpus; i++) {
        const client_gpu_status *g = &s.gpus[i];
        printf("  [%u] %s - %llu MiB free of %llu MiB VRAM - ", g->ordinal, g->name,
               (unsigned long long)(g->vram_free_bytes >> 20),
               (unsigned long long)(g->vram_total_bytes >> 20));
        if (g->current_job_id[0])
            printf("proving %s (%s)\n", g->current_proof_kind, g->current_job_id);
        else
            printf("idle\n");
    }
    printf("\nSRS: %zu\n", s.n_srs);
    for (size_t i = 0; i < s.n_srs; i++)
        printf("  %s (tier=%s, size=%llu bytes, refs=%u)\n", s.srs[i].circuit_id,
               s.srs[i].tier >= 0 && s.srs[i].tier <= 2 ? tiers[s.srs[i].tier] : "?",
               (unsigned long long)s.srs[i].size_bytes, s.srs[i].ref_count);
    printf("\nQueues: %zu\n", s.n_queues);
    for (size_t i = 0; i < s.n_queues; i++)
        printf("  %s: pending=%u, in_progress=%u\n", s.queues[i].proof_kind, s.queues[i].pending,
               s.queues[i].in_progress);
    client_status_free(&s);
    return 0;
}

static int cmd_metrics(const bench_args *a, grpc_client *c) {
    char *text, msg[CUZK_ERROR_LEN];
    int code = grpc_client_get_metrics(c, call_timeout(a, 60), &text, msg);
    if (code)
        return call_failed(a, "GetMetrics", code, msg);
    fputs(text, stdout);
    free(text);
    return 0;
}

static int cmd_srs(const bench_args *a, grpc_client *c) {
    if (a->circuit_id == NULL || a->circuit_id[0] == 0)
        return bench_bad("%s: -c/--circuit-id ID is required (porep-32g, wpost-32g, ...)%s",
                         bench_sub_names[a->sub], "");
    char msg[CUZK_ERROR_LEN];
    int flag, code;
    uint64_t v;
    if (a->sub == SUB_PRELOAD) {
        code = grpc_client_preload_srs(c, a->circuit_id, call_timeout(a, 3600), &flag, &v, msg);
        if (code)
            return call_failed(a, "PreloadSRS", code, msg);
        if (flag)
            printf("%s already loaded\n", a->circuit_id);
        else
            printf("%s loaded in %llu ms\n", a->circuit_id, (unsigned long long)v);
    } else {
        code = grpc_client_evict_srs(c, a->circuit_id, call_timeout(a, 60), &flag, &v, msg);
        if (code)
            return call_failed(a, "EvictSRS", code, msg);
        if (flag)
            printf("%s evicted (%llu bytes freed)\n", a->circuit_id, (unsigned long long)v);
        else
            printf("%s was not loaded\n", a->circuit_id);
    }
    return 0;
}

/* "porep=1,wpost=2" -> weights per kind (a bare kind weighs 1). */
static int parse_mix(const char *mix, double w[KINDS]) {
    char buf[256];
    if (mix == NULL || snprintf(buf, sizeof buf, "%s", mix) >= (int)sizeof buf)
        return bench_bad("stress: --mix KIND=WEIGHT[,KIND=WEIGHT...] is required (e.g. "
                         "porep=1,wpost=2)%s%s",
                         "", "");
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '=');
        double weight = 1;
        if (eq) {
            *eq = 0;
            char *end;
            weight = strtod(eq + 1, &end);
            if (end == eq + 1 || *end || !(weight > 0) || weight > 1e6)
                return bench_bad("--mix: weight \"%s\" of %s is not a number > 0", eq + 1, t);
        }
        int k = bench_kind_from_str(t);
        if (k == 0)
            return bench_bad("--mix: unknown proof type \"%s\"%s (porep, snap, wpost, winning)", t,
                             "");
        if (w[k] > 0)
            return bench_bad("--mix: %s given twice%s", t, "");
        w[k] = weight;
    }
    return 0;
}

static void print_result_block(const bench_record *r) {
    const client_proof_result *x = &r->res;
    static const char *const names[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    printf("\n=== Proof Result ===\n");
    printf("status:    %s\n", x->status >= 0 && x->status <= 4 ? names[x->status] : "UNKNOWN");
    printf("job_id:    %s\n", x->job_id);
    if (x->status == 1) {
        printf(
            "timings:   total=%llu ms (queue=%llu ms, srs=%llu ms, synth=%llu ms, gpu=%llu ms)\n",
            (unsigned long long)x->total_ms, (unsigned long long)x->queue_wait_ms,
            (unsigned long long)x->srs_load_ms, (unsigned long long)x->synthesis_ms,
            (unsigned long long)x->gpu_compute_ms);
        printf("wall time: %.0f ms\n", r->end_ms - r->start_ms);
        printf("proof:     %zu bytes (hex: ", x->proof_len);
        print_hex(stdout, x->proof, x->proof_len <= 256 ? x->proof_len : 128);
        printf("%s)\n", x->proof_len <= 256 ? "" : "...");
    } else {
        printf("error:     %s\n", x->error_message);
    }
}

static int cmd_prove(const bench_args *a, grpc_client *c) {
    bench_spec specs[KINDS];
    bench_spec_data data[KINDS];
    memset(data, 0, sizeof data);
    size_t n_specs = 0;
    int rc = 0;
    if (a->sub == SUB_STRESS) {
        double w[KINDS] = {0};
        if ((rc = parse_mix(a->mix, w)))
            return rc;
        if (!(a->rate > 0) || !(a->duration_s > 0))
            return bench_bad("stress: --rate R and --duration S are required%s%s", "", "");
        for (int k = 1; k < KINDS && rc == 0; k++)
            if (w[k] > 0) {
                rc = bench_spec_build(a, k, &specs[n_specs], &data[n_specs]);
                specs[n_specs].weight = w[k];
                n_specs++;
            }
    } else {
        int k = a->type ? bench_kind_from_str(a->type) : 0;
        if (k == 0)
            rc = a->type
                     ? bench_bad("unknown proof type \"%s\"%s (porep, snap, wpost, winning)",
                                 a->type, "")
                     : bench_bad("%s: -t/--type TYPE is required%s", bench_sub_names[a->sub], "");
        else
            rc = bench_spec_build(a, k, &specs[n_specs++], &data[0]);
    }
    size_t count = a->sub == SUB_SINGLE  ? 1
                   : a->sub == SUB_BATCH ? a->count
                                         : (size_t)(a->rate * a->duration_s + 0.5);
    if (rc == 0 && a->sub == SUB_STRESS && (count == 0 || count > 1000000))
        rc = bench_bad("stress: rate x duration gives %s requests%s (1..1000000)",
                       count ? "too many" : "no", "");
    bench_plan plan = {c, call_timeout(a, 7200), specs, n_specs, 1, count, 0, stdout};
    if (rc == 0 && a->timeline) { /* an unwritable path fails now, not after the proofs */
        FILE *f = fopen(a->timeline, "w");
        if (f == NULL)
            rc = bench_bad("--timeline %s: %s", a->timeline, strerror(errno));
        else
            fclose(f);
    }
    if (rc == 0 && a->sub != SUB_SINGLE) {
        plan.slots = (unsigned)a->concurrency;
        if (a->sub == SUB_BATCH && plan.slots > count)
            plan.slots = (unsigned)count;
        plan.rate_per_s = a->sub == SUB_STRESS ? a->rate : 0;
        /* fail fast, with one message, when the daemon is not there */
        client_status st;
        char msg[CUZK_ERROR_LEN];
        int code = grpc_client_get_status(c, call_timeout(a, 30), &st, msg);
        if (code)
            rc = call_failed(a, "GetStatus (reachability check)", code, msg);
        else
            client_status_free(&st);
    }
    if (rc) {
        for (size_t i = 0; i < n_specs; i++)
            bench_spec_data_free(&data[i]);
        return rc;
    }
    if (a->sub == SUB_SINGLE)
        plan.progress = NULL;
    if (a->sub == SUB_BATCH)
        printf("=== Batch Benchmark ===\nproof type:  %s\ncount:       %zu\nconcurrency: %u\n",
               specs[0].name, count, plan.slots);
    if (a->sub == SUB_STRESS)
        printf("=== Stress Benchmark ===\nmix:         %s\nrate:        %.3f/s for %.1f s (%zu "
               "requests)\nconcurrency: %u\n",
               a->mix, a->rate, a->duration_s, count, plan.slots);
    for (size_t i = 0; i < n_specs; i++)
        printf("request:     %s\n", data[i].desc);
    printf("daemon:      %s\n", a->addr);
    fflush(stdout);

    bench_record *rec;
    double elapsed;
    char err[CUZK_ERROR_LEN];
    if (bench_run(&plan, &rec, &elapsed, err) != 0) {
        fprintf(stderr, "cuzk bench: %s\n", err);
        rc = 1;
        goto out;
    }
    size_t ok = 0;
    for (size_t i = 0; i < count; i++)
        ok += (size_t)bench_record_ok(&rec[i]);
    if (a->sub == SUB_SINGLE) {
        if (rec[0].code)
            rc = call_failed(a, "Prove", rec[0].code, rec[0].msg);
        else
            print_result_block(&rec[0]);
        char werr[512];
        if (a->proof_out && ok &&
            file_write_atomic(a->proof_out, rec[0].res.proof, rec[0].res.proof_len, werr,
                              sizeof werr) != 0) {
            fprintf(stderr, "cuzk bench: --proof-out: %s\n", werr);
            rc = 1;
        }
    }
    printf("\n=== %s Summary ===\n", a->sub == SUB_SINGLE  ? "Single"
                                     : a->sub == SUB_BATCH ? "Batch"
                                                           : "Stress");
    bench_summary(stdout, &plan, rec, count, elapsed);
    if (a->timeline) {
        char title[300];
        snprintf(title, sizeof title, "cuzk bench %s: %zu x %s%s, %u slot%s",
                 bench_sub_names[a->sub], count, a->sub == SUB_STRESS ? a->mix : specs[0].name, "",
                 plan.slots, plan.slots == 1 ? "" : "s");
        if (bench_timeline(a->timeline, title, &plan, rec, count, err) != 0) {
            fprintf(stderr, "cuzk bench: --timeline %s\n", err);
            rc = 1;
        } else {
            printf("timeline:    %s\n", a->timeline);
        }
    }
    if (ok != count && rc == 0)
        rc = 1;
    bench_records_free(rec, count);
out:
    for (size_t i = 0; i < n_specs; i++)
        bench_spec_data_free(&data[i]);
    return rc;
}

int cmd_bench_client(int argc, char **argv) {
    bench_args a;
    int rc = bench_args_parse(&a, argc, argv);
    if (rc >= 0)
        return rc;
    int level = slog_level_parse(a.log_level);
    if (level < 0)
        return bench_bad("--log-level %s: expected trace, debug, info, warn or error%s",
                         a.log_level, "");
    slog_set_level((slog_level)level);
    grpc_client *c = open_client(&a);
    if (c == NULL)
        return 1;
    switch (a.sub) {
    case SUB_STATUS:
        rc = cmd_status(&a, c);
        break;
    case SUB_METRICS:
        rc = cmd_metrics(&a, c);
        break;
    case SUB_PRELOAD:
    case SUB_EVICT:
        rc = cmd_srs(&a, c);
        break;
    default:
        rc = cmd_prove(&a, c);
    }
    fflush(stdout);
    grpc_client_close(c);
    return rc;
}
