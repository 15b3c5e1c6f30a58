/* `cuzk bench engine --workload mixed`: see bench_engine_mixed.h. */
#include "cli/bench/bench_engine_mixed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/bench/bench_mixed_input.h"
#include "cli/bench/bench_mixed_run.h"
#include "cli/porep_params.h"
#include "util/parallel.h"
#include "util/timing.h"

/* The default ratio: a busy Curio node proves many PoRep C2s (sealing) and
 * some SnapDeals a day, a WindowPoSt partition per deadline it owns, and a
 * WinningPoSt rarely (a few a day, over-sampled here so that every run
 * measures one). */
#define MIX_DEFAULT "porep:8,snap:2,window:2,winning:1"

#define MIX_USAGE                                                                                \
    "cuzk bench engine --workload mixed [--mix porep:N,snap:N,window:N,winning:N] [--jobs J]\n"  \
    "    [--threads T] [--batch B] [--interval-ms MS] [--backend cpu|cuda] [--params-dir DIR]\n" \
    "    [--sector-size 2KiB|32GiB|...] [--c1 FILE] [--snap-json FILE]\n"                        \
    "    [--window-vanilla FILE[,FILE...] --window-randomness HEX]\n"                            \
    "    [--winning-vanilla FILE --winning-randomness HEX]\n"                                    \
    "  --mix: the ratio, default " MIX_DEFAULT ": a busy Curio node proves\n"                    \
    "         many PoRep C2s and some SnapDeals, a WindowPoSt partition per deadline, and a\n"   \
    "         WinningPoSt rarely but urgently (over-sampled so that each run measures one).\n"   \
    "  --jobs: in all (default: one round of the ratio), submitted interleaved in the ratio,\n"  \
    "          all at once or --interval-ms apart, each at its kind's default priority.\n"       \
    "  Inputs: the files above (any size; `cuzk c1 synth --valid [--post-proof ID]`, `cuzk\n"    \
    "          seal update`); at 2 KiB a kind without files is made here from one sector\n"      \
    "          sealed in memory.  WindowPoSt files are proven as the V1_1 proof of their size."

static int usage_error(const char *msg, const char *arg) {
    fprintf(stderr, "cuzk bench engine: ");
    fprintf(stderr, msg, arg);
    fprintf(stderr, "\nusage: %s\n", MIX_USAGE);
    return 2;
}

/* "kind:N,..." into w[]; kinds left out are 0.  0, or 2 after a message. */
static int parse_mix(unsigned w[MIX_KINDS], const char *s) {
    memset(w, 0, MIX_KINDS * sizeof *w);
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", s);
    unsigned total = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(t, ':'), *end = NULL;
        if (colon)
            *colon = 0;
        int k = 0;
        while (k < MIX_KINDS && strcmp(t, bench_mix_kind_name((bench_mix_kind)k)) != 0)
            k++;
        if (k == MIX_KINDS)
            return usage_error("--mix: unknown kind \"%s\" (porep, snap, window, winning)", t);
        unsigned long n = colon ? strtoul(colon + 1, &end, 10) : 0;
        if (!colon || end == colon + 1 || *end || n > 10000)
            return usage_error("--mix: \"%s\" wants kind:N, N 0..10000", s);
        w[k] = (unsigned)n;
        total += w[k];
    }
    if (total == 0)
        return usage_error("--mix \"%s\": every kind is 0; nothing to prove", s);
    return 0;
}

/* The jobs' kinds, interleaved in the ratio w (smooth weighted round robin:
 * each step the kind furthest behind its share goes next, so every prefix
 * of the stream keeps the ratio as well as whole jobs can). */
static void mix_order(bench_mix_job *jobs, size_t n, const unsigned w[MIX_KINDS]) {
    long cur[MIX_KINDS] = {0}, total = 0;
    for (int k = 0; k < MIX_KINDS; k++)
        total += w[k];
    for (size_t i = 0; i < n; i++) {
        int best = -1;
        for (int k = 0; k < MIX_KINDS; k++) {
            cur[k] += w[k];
            if (w[k] && (best < 0 || cur[k] > cur[best]))
                best = k;
        }
        cur[best] -= total;
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].mk = (bench_mix_kind)best;
    }
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest rank. */
static double pct(const double *sorted, size_t n, double q) {
    size_t r = (size_t)(q * (double)n + 0.999999);
    return sorted[(r ? r : 1) - 1];
}

static void report(const bench_mix_job *jobs, size_t n, const bench_mix_input in[MIX_KINDS],
                   const bench_mix_result *r) {
    printf("\n  %-13s %5s %7s %7s %10s %10s %10s %11s\n", "kind", "jobs", "proved", "failed",
           "p50 s", "p99 s", "max s", "proofs/hour");
    double *lat = malloc((n ? n : 1) * sizeof *lat);
    size_t all = 0, proved_all = 0;
    for (int k = 0; lat && k < MIX_KINDS; k++) {
        size_t count = 0, proved = 0;
        for (size_t i = 0; i < n; i++)
            if (jobs[i].mk == (bench_mix_kind)k) {
                count++;
                if (jobs[i].verified)
                    lat[proved++] = jobs[i].latency_ms / 1000;
            }
        if (!count)
            continue;
        all += count;
        proved_all += proved;
        qsort(lat, proved, sizeof *lat, cmp_double);
        printf("  %-13s %5zu %7zu %7zu", cuzk_kind_name(in[k].kind), count, proved, count - proved);
        if (proved)
            printf(" %10.2f %10.2f %10.2f", pct(lat, proved, 0.5), pct(lat, proved, 0.99),
                   lat[proved - 1]);
        else
            printf(" %10s %10s %10s", "-", "-", "-");
        printf(" %11.1f\n", (double)proved / (r->wall_ms / 3.6e6));
    }
    free(lat);
    printf("\n");
    size_t behind = 0, wins = 0;
    for (size_t i = 0; i < n; i++) {
        const bench_mix_job *j = &jobs[i];
        if (j->mk != MIX_WINNING || !j->completed)
            continue;
        wins++;
        behind += j->behind > 0;
        printf("  winning %-26s queue %.0f ms, wait %.0f ms (proving meanwhile: %s), synthesis "
               "%.0f ms, prove %.0f ms, total %.0f ms; queued behind another kind's batch: %s%s\n",
               j->id, j->queue_ms, j->wait_ms, j->waited_for[0] ? j->waited_for : "none", j->own_ms,
               j->prove_ms, j->latency_ms, j->behind ? "yes: " : "no", j->behind_what);
    }
    if (wins)
        printf("  WinningPoSt queued behind another kind's batch: %zu of %zu\n", behind, wins);
    printf("  wall %.2f s; ", r->wall_ms / 1000);
    if (r->n_gpus)
        printf("GPU busy %.1f%% (%u GPU%s)", 100 * r->gpu_busy_ms / (r->wall_ms * r->n_gpus),
               r->n_gpus, r->n_gpus == 1 ? "" : "s");
    else
        printf("GPU busy: cpu (CPU backend busy %.0f%%)", 100 * r->prover_busy_ms / r->wall_ms);
    struct rusage ru; /* ru_maxrss is the process's VmHWM, in KiB on Linux */
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        printf("; peak host RSS (VmHWM) %.2f GiB", (double)ru.ru_maxrss / (1024.0 * 1024.0));
    printf("\n  proofs verified: %zu of %zu (engine self-check, then every partition again here "
           "against the kind's .vk and the request's own public inputs)\n",
           proved_all, all);
}

/* --sector-size NAME ("2KiB", "32GiB", as the proof names spell it). */
static uint64_t size_by_name(const char *s) {
    for (unsigned i = 0; i < FC_SECTOR_SIZES; i++)
        if (fc_shape_at(i) && strcmp(fc_shape_at(i)->size_name, s) == 0)
            return fc_shape_at(i)->sector_size;
    return 0;
}

/* Each wanted kind's parameter files in dir; 0, or -1 after a message. */
static int params_present(const bench_mix_input in[MIX_KINDS], const int want[MIX_KINDS],
                          const char *dir) {
    for (int k = 0; k < MIX_KINDS; k++) {
        char params[4096], vk[4096], meta[4096];
        if (!want[k])
            continue;
        if (params_paths_of(params, vk, meta, sizeof params, dir, &in[k].circuit) ||
            access(params, R_OK) != 0 || access(vk, R_OK) != 0) {
            fprintf(stderr,
                    "cuzk bench engine: no %s parameters: %s is missing.  Give --params-dir DIR "
                    "(or set FIL_PROOFS_PARAMETER_CACHE); TEST-ONLY ones are made with `cuzk "
                    "setup %s --out DIR`\n",
                    in[k].circuit.id, params, in[k].circuit.id);
            return -1;
        }
    }
    return 0;
}

/* The inputs: the files given, the rest made here at 2 KiB.  0, 1 (an input
 * that cannot be read or made), 2 (one missing at another size, said). */
static int get_inputs(bench_mix_input in[MIX_KINDS], const int want[MIX_KINDS],
                      const bench_mix_files *f, uint64_t size) {
    const char *given[MIX_KINDS] = {f->c1, f->snap_json, f->window_vanilla, f->winning_vanilla};
    const char *need[MIX_KINDS] = {"--c1 FILE", "--snap-json FILE",
                                   "--window-vanilla FILE[,FILE...] --window-randomness HEX",
                                   "--winning-vanilla FILE --winning-randomness HEX"};
    char err[1024];
    if (size && size != 2048) /* nothing is made at this size: refuse before reading */
        for (int k = 0; k < MIX_KINDS; k++)
            if (want[k] && !given[k]) {
                fprintf(stderr,
                        "cuzk bench engine: --mix %s:N at a sector size other than 2 KiB needs "
                        "%s (only 2 KiB inputs are made here)\n",
                        bench_mix_kind_name((bench_mix_kind)k), need[k]);
                return 2;
            }
    if (bench_mix_inputs_read(in, want, f, err, sizeof err)) {
        fprintf(stderr, "cuzk bench engine: %s\n", err);
        return 1;
    }
    int missing = 0;
    for (int k = 0; k < MIX_KINDS; k++) {
        if (!want[k])
            continue;
        if (!in[k].kind) {
            missing = 1;
        } else if (!size) {
            size = in[k].sector_size;
        } else if (in[k].sector_size != size) {
            fprintf(stderr,
                    "cuzk bench engine: the %s input is of another sector size (%llu "
                    "bytes, not %llu)\n",
                    bench_mix_kind_name((bench_mix_kind)k), (unsigned long long)in[k].sector_size,
                    (unsigned long long)size);
            return 2;
        }
    }
    for (int k = 0; missing && size && size != 2048 && k < MIX_KINDS; k++)
        if (want[k] && !in[k].kind) {
            fprintf(stderr,
                    "cuzk bench engine: --mix %s:N with %s inputs needs %s (only 2 KiB "
                    "inputs are made here)\n",
                    bench_mix_kind_name((bench_mix_kind)k),
                    fc_shape_by_size(size) ? fc_shape_by_size(size)->size_name : "other", need[k]);
            return 2;
        }
    const double t0 = timing_now_ms();
    if (missing && bench_mix_inputs_make_2k(in, want, 1, err, sizeof err)) {
        fprintf(stderr, "cuzk bench engine: making 2 KiB inputs: %s\n", err);
        return 1;
    }
    if (missing)
        printf("  2 KiB inputs made in %.1f s (one sector sealed in memory)\n",
               (timing_now_ms() - t0) / 1000);
    return 0;
}

int cmd_bench_engine_mixed(int argc, char **argv) {
    const char *workload = NULL, *s_mix = MIX_DEFAULT, *s_jobs = NULL, *s_batch = "1",
               *s_interval = "0", *backend = "cpu", *params_dir = NULL, *s_size = NULL;
    bench_mix_files f = {0};
    unsigned threads = par_cpu_count();
    const cli_opt opts[] = {{"--workload", &workload},
                            {"--mix", &s_mix},
                            {"--jobs", &s_jobs},
                            {"--batch", &s_batch},
                            {"--interval-ms", &s_interval},
                            {"--backend", &backend},
                            {"--params-dir", &params_dir},
                            {"--sector-size", &s_size},
                            {"--c1", &f.c1},
                            {"--snap-json", &f.snap_json},
                            {"--window-vanilla", &f.window_vanilla},
                            {"--window-randomness", &f.window_rnd},
                            {"--winning-vanilla", &f.winning_vanilla},
                            {"--winning-randomness", &f.winning_rnd}};
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0) {
            printf("usage: %s\n", MIX_USAGE);
            return 0;
        }
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], &threads, MIX_USAGE))
        return 2;
    unsigned w[MIX_KINDS];
    if (parse_mix(w, s_mix))
        return 2;
    unsigned long sum = (unsigned long)w[0] + w[1] + w[2] + w[3];
    unsigned long jobs = s_jobs ? strtoul(s_jobs, NULL, 10) : sum;
    unsigned long batch = strtoul(s_batch, NULL, 10);
    double interval = strtod(s_interval, NULL);
    uint64_t size = s_size ? size_by_name(s_size) : 0;
    if (jobs < 1 || jobs > 10000)
        return usage_error("--jobs %s: 1..10000", s_jobs ? s_jobs : "(one round of --mix)");
    if (batch < 1 || batch > 64)
        return usage_error("--batch %s: 1..64", s_batch);
    if (!(interval >= 0 && interval <= 3600000))
        return usage_error("--interval-ms %s: 0..3600000", s_interval);
    if (strcmp(backend, "cpu") != 0 && strcmp(backend, "cuda") != 0)
        return usage_error("unknown --backend \"%s\" (cpu or cuda)", backend);
    if (s_size && !size)
        return usage_error("--sector-size %s: 2KiB, 8MiB, 512MiB, 32GiB or 64GiB", s_size);
    if (!f.window_vanilla != !f.window_rnd || !f.winning_vanilla != !f.winning_rnd)
        return usage_error("%s", "--window-vanilla and --window-randomness go together, and so "
                                 "do --winning-vanilla and --winning-randomness");
    if (!params_dir)
        params_dir = getenv("FIL_PROOFS_PARAMETER_CACHE");
    if (!params_dir)
        return usage_error("%s", "--params-dir DIR (or FIL_PROOFS_PARAMETER_CACHE) is needed");
    bench_mix_job *jl = calloc(jobs, sizeof *jl);
    if (!jl) {
        fprintf(stderr, "cuzk bench engine: out of memory\n");
        return 1;
    }
    mix_order(jl, jobs, w);
    int want[MIX_KINDS] = {0};
    for (size_t i = 0; i < jobs; i++)
        want[jl[i].mk] = 1;
    const unsigned synth = threads / 2 ? threads / 2 : 1;
    const bench_mix_config cfg = {params_dir,      synth,    threads > synth ? threads - synth : 1,
                                  (unsigned)batch, interval, strcmp(backend, "cuda") == 0};
    printf("bench engine: mixed stream of %lu jobs (ratio %s), interleaved, %s; batch %lu; "
           "%u synthesis worker(s), prover %u thread(s); %s backend; parameters in %s\n",
           jobs, s_mix, interval > 0 ? "one every --interval-ms" : "submitted at once", batch,
           cfg.synth, cfg.prove, cfg.use_gpu ? "CUDA" : "CPU", params_dir);
    fflush(stdout);
    bench_mix_input in[MIX_KINDS];
    memset(in, 0, sizeof in);
    int rc = get_inputs(in, want, &f, size);
    if (rc == 0 && params_present(in, want, params_dir))
        rc = 1;
    if (rc == 0) {
        for (int k = 0; k < MIX_KINDS; k++)
            if (want[k])
                printf("  %-8s %s, %zu partition(s): %s\n", bench_mix_kind_name((bench_mix_kind)k),
                       in[k].circuit.id, in[k].n_parts, in[k].origin);
        /* the engine lets FIL_PROOFS_PARAMETER_CACHE override param_cache */
        unsetenv("FIL_PROOFS_PARAMETER_CACHE");
        bench_mix_result r;
        rc = bench_mix_run(jl, jobs, in, &cfg, &r) ? 1 : 0;
        if (rc == 0) {
            report(jl, jobs, in, &r);
            for (size_t i = 0; i < jobs; i++)
                rc |= !jl[i].verified;
        }
    }
    for (int k = 0; k < MIX_KINDS; k++)
        bench_mix_input_free(&in[k]);
    free(jl);
    return rc;
}
