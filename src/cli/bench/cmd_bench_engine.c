/* `cuzk bench engine`: N concurrent jobs through the whole engine (submit,
 * scheduler, synthesis workers, bounded queue, CPU prover, self-verification)
 * in up to three configurations in one run: pipelined with batch size 1,
 * sequential (no overlap of synthesis and proving) with batch size 1, and
 * pipelined with batch size 2.  For each it prints throughput and how busy
 * the synthesis workers and the prover were (busy time over wall time, from
 * the per-partition stage timeline), and can save the timeline as CSV (every
 * event) or as an SVG chart (bench_engine_timeline.h).
 *
 * Workloads: `synthetic` (default) is the engine's SYNTHETIC test circuit
 * (engine/synthetic.h) with TEST-ONLY parameters made here: not a Filecoin
 * circuit, and it says so; `work` adds witness computation per partition so
 * that synthesis costs something, as a real circuit's does.  `porep-2k` is
 * real PoRep C2 jobs of one 2 KiB sector (sealed here, or --c1 FILE) through
 * the engine's built-in POREP_C2 provider, with the porep-2k parameters of
 * --params-dir (or FIL_PROOFS_PARAMETER_CACHE).  `mixed` is a stream of all
 * four proof kinds with its own options (bench_engine_mixed.h). */
#include "cli/bench/cmd_bench_engine.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/bench/bench_engine_inject.h"
#include "cli/bench/bench_engine_mixed.h"
#include "cli/bench/bench_engine_timeline.h"
#include "cli/bench/bench_porep_input.h"
#include "cli/engine_devices.h"
#include "cuzk/engine.h"
#include "engine/providers.h"
#include "engine/synthetic.h"
#include "util/parallel.h"
#include "util/timing.h"

typedef struct {
    const char *name;
    int pipelined;
    unsigned batch;
} bench_case;

/* What the jobs are: the synthetic circuit or real 2 KiB PoRep C2 requests. */
typedef struct {
    int porep;
    engine_synthetic *syn; /* synthetic */
    const char *circuit;   /* circuit id to preload */
    unsigned long parts;   /* synthetic: partitions per job */
    unsigned long long work;
    const bench_porep_input *in; /* porep-2k */
} bench_workload;

#define BENCH_MAX_DEVICES 16

typedef struct {
    double wall_ms, synth_busy, prove_busy, verify_busy, queue_wait, prove_wait;
    double first_ms; /* the first job's result (jobs are awaited in submission order) */
    unsigned synth_workers, partitions, failed, prove_calls;
    /* per prover device: name, partitions proven, busy time */
    unsigned n_dev;
    char dev_name[BENCH_MAX_DEVICES][64];
    uint64_t dev_parts[BENCH_MAX_DEVICES];
    double dev_busy_ms[BENCH_MAX_DEVICES];
} bench_result;

static void rm_dir(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Busy time of the prover: a batch's jobs share one backend call, so equal
 * PROVE intervals count once. */
static double unique_sum(double (*iv)[2], size_t n, unsigned *calls) {
    double sum = 0;
    *calls = 0;
    for (size_t i = 0; i < n; i++) {
        int dup = 0;
        for (size_t k = 0; k < i && !dup; k++)
            dup = iv[k][0] == iv[i][0] && iv[k][1] == iv[i][1];
        if (!dup) {
            sum += iv[i][1] - iv[i][0];
            ++*calls;
        }
    }
    return sum;
}

/* --backend cuda: the engine proves on the GPU (gpus.use_gpu); cpu: never. */
static int g_use_gpu;
/* --devices N: GPUs 0..N-1 with cuda, else N simulated devices (TEST ONLY,
 * engine/device.h) whose calls last at least g_device_ms each; 0: the
 * engine's default. */
static unsigned g_devices, g_device_ms;
/* --memory-budget GIB: the engine's memory.total_budget (0: its default) */
static uint64_t g_budget;
/* --gpu-memory-limit GIB: gpus.memory_limit (0: the whole device) */
static uint64_t g_gpu_limit;
/* --inject-winning: WinningPoSt submitted into each case's workload */
static bench_inject g_inject;
/* The GPUs every case's engine proves on, opened once for the whole run so
 * that each case finds them warm (cli/engine_devices.h). */
static cli_engine_devices g_gpus;
static struct cuzk_prover_device g_gpu_list[16];
static size_t g_n_gpus;

static int run_case(const bench_case *bc, unsigned case_index, const bench_workload *wl,
                    const char *dir, unsigned jobs, unsigned synth, unsigned prove, FILE *csv,
                    bench_tl *tl, bench_result *out) {
    const unsigned parts = wl->porep ? wl->in->c1->partitions : (unsigned)wl->parts;
    memset(out, 0, sizeof *out);
    cuzk_engine_config c;
    cuzk_engine_config_defaults(&c);
    snprintf(c.param_cache, sizeof c.param_cache, "%s", dir);
    c.use_gpu = g_use_gpu;
    c.memory_budget = g_budget;
    c.gpu_memory_limit = g_gpu_limit;
    cli_engine_test_hooks(&c);
    memcpy(c.prover_devices, g_gpu_list, sizeof g_gpu_list);
    c.n_prover_devices = g_n_gpus;
    if (g_devices && !g_use_gpu) {
        c.simulate_devices = g_devices;
        c.test_device_delay_ms = g_device_ms;
    }
    c.synthesis_threads = synth;
    c.gpu_threads = prove;
    c.pipeline_enabled = bc->pipelined;
    c.max_batch_size = bc->batch;
    c.max_batch_wait_ms = 100; /* all jobs are queued at once: only an odd last one waits */
    c.result_keep_count = jobs + BENCH_INJECT_MAX; /* every workload and injected result */
    char err[CUZK_ERROR_LEN];
    cuzk_engine *e = cuzk_engine_new(&c, err);
    if (!e) {
        fprintf(stderr, "cuzk bench engine: %s\n", err);
        return -1;
    }
    if (g_use_gpu) { /* the engine falls back to the CPU quietly: a GPU bench must not */
        cuzk_engine_status st;
        cuzk_engine_get_status(e, &st);
        int on_gpu = st.n_gpus > 0 && (!g_devices || st.n_gpus == g_devices);
        for (size_t i = 0; on_gpu && case_index == 0 && i < st.n_gpus; i++)
            printf("  backend: cuda on GPU %u (%s)\n", st.gpus[i].ordinal, st.gpus[i].name);
        cuzk_engine_status_clear(&st);
        if (!on_gpu) {
            fprintf(stderr, "cuzk bench engine: --backend cuda: the engine found no usable GPU "
                            "or fewer than --devices (see its log lines above)\n");
            cuzk_engine_free(e);
            return -1;
        }
    }
    int bad = engine_register_filecoin_providers(e, err) != CUZK_OK;
    if (!bad && !wl->porep) { /* porep-2k keeps the Filecoin PoRep provider */
        engine_circuit_provider p = engine_synthetic_provider(wl->syn);
        bad = engine_synthetic_register(wl->syn, e) != CUZK_OK ||
              cuzk_engine_register_provider(e, CUZK_KIND_POREP_C2, &p) != CUZK_OK;
    }
    uint64_t preload_ms = 0;
    if (bad || cuzk_engine_preload_srs(e, wl->circuit, NULL, &preload_ms, err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench engine: %s\n", err);
        cuzk_engine_free(e);
        return -1;
    }
    if (preload_ms >= 1000) /* before the clock starts: a warm daemon's state */
        printf("  %-14s parameters preloaded in %.2f s (host%s), before the first submit\n",
               bc->name, (double)preload_ms / 1000, g_use_gpu ? " and GPU" : "");
    if (g_inject.n && bench_inject_prepare(&g_inject, e, wl->syn, wl->circuit, err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench engine: --inject-winning: %s\n", err);
        cuzk_engine_free(e);
        return -1;
    }
    double(*iv)[2] = calloc((size_t)jobs * parts, sizeof *iv);
    size_t n_iv = 0;
    int rc = iv ? 0 : -1;
    double t0 = timing_now_ms();
    for (unsigned i = 0; rc == 0 && i < jobs; i++) {
        char id[64], text[256];
        snprintf(id, sizeof id, "bench-%s-%u", bc->name, i);
        snprintf(text, sizeof text, "synthetic circuit=%s partitions=%u seed=%u work=%llu",
                 wl->circuit, parts, 1 + i, wl->work);
        cuzk_request r;
        memset(&r, 0, sizeof r);
        r.request_id = id;
        r.kind = CUZK_KIND_POREP_C2;
        if (wl->porep) { /* the same sector each time: each job is proven in full */
            r.registered_proof = wl->in->c1->proof->id;
            r.vanilla_proof = wl->in->json;
            r.vanilla_proof_len = wl->in->json_len;
            r.miner_id = wl->in->miner_id; /* the engine holds them against replica_id */
            r.sector_number = wl->in->sector_number;
        } else {
            r.vanilla_proof = (const uint8_t *)text;
            r.vanilla_proof_len = strlen(text);
        }
        cuzk_submit_info info;
        if (cuzk_engine_submit(e, &r, &info, err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench engine: submit: %s\n", err);
            rc = -1;
        }
    }
    if (rc == 0 && bench_inject_start(&g_inject, e, bc->name, t0))
        rc = -1;
    for (unsigned i = 0; rc == 0 && i < jobs; i++) {
        char id[64];
        snprintf(id, sizeof id, "bench-%s-%u", bc->name, i);
        cuzk_result res;
        if (cuzk_engine_await(e, id, 0, &res) != CUZK_OK || res.state != CUZK_JOB_COMPLETED) {
            fprintf(stderr, "cuzk bench engine: %s: %s\n", id, res.error);
            out->failed++;
        }
        if (i == 0)
            out->first_ms = timing_now_ms() - t0;
        cuzk_result_clear(&res);
    }
    out->wall_ms = timing_now_ms() - t0;
    if (bench_inject_finish(&g_inject, jobs))
        out->failed++;
    for (unsigned i = 0; rc == 0 && i < jobs; i++) {
        char id[64];
        snprintf(id, sizeof id, "bench-%s-%u", bc->name, i);
        cuzk_job_timeline t;
        if (cuzk_engine_job_timeline(e, id, &t) != CUZK_OK)
            continue;
        if (tl && bench_tl_add(tl, case_index, &t))
            rc = -1;
        for (size_t k = 0; k < t.n_events; k++) {
            const cuzk_timeline_event *ev = &t.events[k];
            double d = ev->end_ms - ev->start_ms;
            switch (ev->stage) {
            case CUZK_STAGE_SYNTHESIS:
                out->synth_busy += d;
                out->partitions++;
                break;
            case CUZK_STAGE_PROVE:
                if (n_iv < (size_t)jobs * parts) {
                    iv[n_iv][0] = ev->start_ms;
                    iv[n_iv++][1] = ev->end_ms;
                }
                break;
            case CUZK_STAGE_VERIFY:
                out->verify_busy += d;
                break;
            case CUZK_STAGE_QUEUE:
                out->queue_wait += d;
                break;
            case CUZK_STAGE_PROVE_WAIT:
                out->prove_wait += d;
                break;
            default:
                break;
            }
            if (csv)
                fprintf(csv, "%s,%s,%u,%d,%s,%.3f,%.3f\n", bc->name, t.job_id, t.batch_size,
                        ev->partition, cuzk_stage_name(ev->stage), ev->start_ms, ev->end_ms);
        }
        cuzk_job_timeline_clear(&t);
    }
    out->prove_busy = unique_sum(iv, n_iv, &out->prove_calls);
    cuzk_engine_status st;
    cuzk_engine_get_status(e, &st);
    out->synth_workers = st.synthesis_max;
    for (size_t i = 0; i < st.n_devices && i < BENCH_MAX_DEVICES; i++) {
        snprintf(out->dev_name[i], sizeof out->dev_name[i], "%s", st.devices[i].name);
        out->dev_parts[i] = st.devices[i].partitions_proven;
        out->dev_busy_ms[i] = st.devices[i].busy_ms;
        out->n_dev = (unsigned)i + 1;
        if (st.devices[i].failed)
            fprintf(stderr, "cuzk bench engine: device %s failed: %s\n", st.devices[i].name,
                    st.devices[i].failed_reason);
    }
    cuzk_engine_status_clear(&st);
    free(iv);
    cuzk_engine_free(e);
    return rc;
}

static int ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static const bench_case CASES[] = {
    {"pipelined-b1", 1, 1}, {"sequential-b1", 0, 1}, {"pipelined-b2", 1, 2}};
#define N_CASES (sizeof CASES / sizeof CASES[0])

/* "--cases a,b": which of CASES run, in their fixed order. */
static int parse_cases(int *on, const char *list) {
    for (size_t i = 0; i < N_CASES; i++)
        on[i] = list == NULL;
    if (!list)
        return 0;
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    for (char *c = strtok_r(buf, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < N_CASES && strcmp(CASES[i].name, c) != 0)
            i++;
        if (i == N_CASES) {
            fprintf(stderr,
                    "cuzk bench engine: unknown case \"%s\" (pipelined-b1, sequential-b1, "
                    "pipelined-b2)\n",
                    c);
            return -1;
        }
        on[i] = 1;
    }
    return 0;
}

/* The synthetic workload's TEST-ONLY parameters in dir. */
static int setup_synthetic(bench_workload *wl, char *circuit, size_t ccap, unsigned long k,
                           const char *dir, unsigned threads) {
    char err[CUZK_ERROR_LEN];
    snprintf(circuit, ccap, "bench-%lu", k);
    wl->circuit = circuit;
    wl->syn = engine_synthetic_new();
    double t0 = timing_now_ms();
    if (!wl->syn || engine_synthetic_add(wl->syn, circuit, k, err) != CUZK_OK ||
        engine_synthetic_write_params(wl->syn, circuit, dir, threads, err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench engine: %s\n", wl->syn ? err : "out of memory");
        return -1;
    }
    printf("  test setup: %.0f ms; partition %.1f MiB\n", timing_now_ms() - t0,
           (double)engine_synthetic_partition_bytes(wl->syn, circuit) / (1 << 20));
    return 0;
}

int cmd_bench_engine(int argc, char **argv) {
    for (int i = 0; i + 1 < argc; i += 2)
        if (strcmp(argv[i], "--workload") == 0 && strcmp(argv[i + 1], "mixed") == 0)
            return cmd_bench_engine_mixed(argc, argv);
    const char *usage =
        "cuzk bench engine [--workload synthetic|porep-2k|porep|mixed] [--jobs N] [--threads T] "
        "[--cases pipelined-b1,sequential-b1,pipelined-b2] [--timeline FILE.svg|FILE.csv] "
        "[--backend cpu|cuda] [--devices N [--device-ms MS]] [--memory-budget GIB]\n"
        "  [--gpu-memory-limit GIB]   (gpus.memory_limit; with simulated --devices too)\n"
        "  [--inject-winning AT_MS[,AT_MS...] [--winning-vanilla FILE --winning-randomness HEX]]\n"
        "  --devices N: GPUs 0..N-1 (cuda), else N simulated devices on the CPU (TEST ONLY;\n"
        "               --device-ms: each simulated call lasts at least MS, as a GPU's would)\n"
        "  synthetic: [--partitions P] [--constraints K] [--work W]\n"
        "  porep-2k:  [--params-dir DIR] [--c1 FILE]   (default: a 2 KiB sector sealed here)\n"
        "  porep:     --c1 FILE --params-dir DIR      (any sector size: the C1's)\n"
        "  mixed:     all four proof kinds in one stream (`cuzk bench engine --workload mixed "
        "--help`)";
    const char *s_jobs = NULL, *s_parts = NULL, *s_k = NULL, *s_work = NULL, *timeline = NULL,
               *workload = "synthetic", *params_dir = NULL, *c1 = NULL, *s_cases = NULL;
    unsigned threads = par_cpu_count();
    const char *backend = NULL, *s_devices = NULL, *s_device_ms = NULL, *s_inject = NULL,
               *win_van = NULL, *win_rnd = NULL, *s_budget = NULL, *s_gpu_limit = NULL;
    const cli_opt opts[] = {{"--jobs", &s_jobs},
                            {"--partitions", &s_parts},
                            {"--constraints", &s_k},
                            {"--work", &s_work},
                            {"--timeline", &timeline},
                            {"--workload", &workload},
                            {"--params-dir", &params_dir},
                            {"--c1", &c1},
                            {"--cases", &s_cases},
                            {"--backend", &backend},
                            {"--devices", &s_devices},
                            {"--device-ms", &s_device_ms},
                            {"--inject-winning", &s_inject},
                            {"--winning-vanilla", &win_van},
                            {"--winning-randomness", &win_rnd},
                            {"--memory-budget", &s_budget},
                            {"--gpu-memory-limit", &s_gpu_limit}};
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], &threads, usage))
        return 2;
    if (backend && strcmp(backend, "cpu") != 0 && strcmp(backend, "cuda") != 0) {
        fprintf(stderr, "cuzk bench engine: unknown --backend \"%s\" (cpu or cuda)\n", backend);
        return 2;
    }
    g_use_gpu = backend && strcmp(backend, "cuda") == 0;
    g_devices = s_devices ? (unsigned)strtoul(s_devices, NULL, 10) : 0;
    g_device_ms = s_device_ms ? (unsigned)strtoul(s_device_ms, NULL, 10) : 0;
    double gib = s_budget ? strtod(s_budget, NULL) : 0;
    if (s_budget && !(gib >= 0.25 && gib <= 65536)) {
        fprintf(stderr, "cuzk bench engine: --memory-budget GIB: 0.25..65536\n");
        return 2;
    }
    g_budget = (uint64_t)(gib * (double)(1ull << 30));
    double lim = s_gpu_limit ? strtod(s_gpu_limit, NULL) : 0;
    if (s_gpu_limit && !(lim >= 0.001 && lim <= 65536)) {
        fprintf(stderr, "cuzk bench engine: --gpu-memory-limit GIB: 0.001..65536\n");
        return 2;
    }
    g_gpu_limit = (uint64_t)(lim * (double)(1ull << 30));
    if (s_devices && (g_devices < 1 || g_devices > BENCH_MAX_DEVICES)) {
        fprintf(stderr, "cuzk bench engine: --devices 1..%d\n", BENCH_MAX_DEVICES);
        return 2;
    }
    if (s_device_ms && (!s_devices || g_use_gpu)) {
        fprintf(stderr, "cuzk bench engine: --device-ms is for simulated --devices (cpu)\n");
        return 2;
    }
    const int any_size = strcmp(workload, "porep") == 0;
    const int porep = any_size || strcmp(workload, "porep-2k") == 0;
    if (!porep && strcmp(workload, "synthetic") != 0) {
        fprintf(stderr,
                "cuzk bench engine: unknown workload \"%s\" (synthetic, porep-2k, porep or "
                "mixed)\n",
                workload);
        return 2;
    }
    if (any_size && (!c1 || !params_dir)) {
        fprintf(stderr, "cuzk bench engine: --workload porep needs --c1 and --params-dir\n");
        return 2;
    }
    if (porep && (s_parts || s_k || s_work)) {
        fprintf(stderr, "cuzk bench engine: --partitions, --constraints and --work are for the "
                        "synthetic workload (a 2 KiB PoRep has its own)\n");
        return 2;
    }
    if (!porep && (params_dir || c1)) {
        fprintf(stderr, "cuzk bench engine: --params-dir and --c1 are for --workload porep-2k\n");
        return 2;
    }
    int case_on[N_CASES];
    if (parse_cases(case_on, s_cases))
        return 2;
    if (timeline && !ends_with(timeline, ".svg") && !ends_with(timeline, ".csv")) {
        fprintf(stderr,
                "cuzk bench engine: --timeline %s: the name must end in .svg (chart) or "
                ".csv (events)\n",
                timeline);
        return 2;
    }
    unsigned long jobs = s_jobs ? strtoul(s_jobs, NULL, 10) : (porep ? 3 : 8);
    unsigned long parts = s_parts ? strtoul(s_parts, NULL, 10) : 2;
    unsigned long k = s_k ? strtoul(s_k, NULL, 10) : 16384;
    unsigned long long work = s_work ? strtoull(s_work, NULL, 10) : 200000;
    if (jobs < 1 || jobs > 10000 || parts < 1 || parts > 1024 || k < 4 || k > (1ul << 22) ||
        work > (1ull << 32)) {
        fprintf(stderr,
                "cuzk bench engine: --jobs 1..10000, --partitions 1..1024, --constraints "
                "4..2^22, --work <= 2^32\nusage: %s\n",
                usage);
        return 2;
    }
    int irc = (s_inject || win_van || win_rnd)
                  ? bench_inject_parse(&g_inject, s_inject ? s_inject : "", win_van, win_rnd)
                  : 0;
    if (irc) {
        bench_inject_free(&g_inject);
        return irc;
    }
    unsigned synth = threads / 2 ? threads / 2 : 1;
    unsigned prove = threads > synth ? threads - synth : 1;
    bench_workload wl = {porep, NULL, NULL, parts, work, NULL};
    bench_porep_input in;
    memset(&in, 0, sizeof in);
    char dir[4096] = "/tmp/cuzk-bench-engine-XXXXXX", circuit[64], err[CUZK_ERROR_LEN];
    int made_dir = 0, rc = 0;
    if (porep) {
        char params[4096], vk[4096], meta[4096];
        double t0 = timing_now_ms();
        if (bench_porep_input_get(&in, c1, 1, err, sizeof err) ||
            bench_porep_params(params, vk, meta, sizeof params, params_dir, in.c1, err,
                               sizeof err)) {
            fprintf(stderr, "cuzk bench engine: %s\n", err);
            bench_porep_input_free(&in);
            bench_inject_free(&g_inject);
            return 1;
        }
        if (!any_size && in.c1->proof->shape->sector_size != 2048) {
            fprintf(stderr, "cuzk bench engine: %s is a %s C1, not 2 KiB\n", in.origin,
                    in.c1->proof->name);
            bench_porep_input_free(&in);
            bench_inject_free(&g_inject);
            return 2;
        }
        /* the engine finds the set by its Filecoin name in its cache directory */
        char *slash = strrchr(params, '/');
        if (slash)
            *slash = 0;
        snprintf(dir, sizeof dir, "%s", slash ? params : ".");
        snprintf(circuit, sizeof circuit, "porep-%s", in.c1->proof->shape->short_name);
        wl.circuit = circuit;
        wl.in = &in;
        printf("bench engine: %s: %lu PoRep C2 jobs of one sector (%s; %s), %u "
               "partition(s) each, through the engine's POREP_C2 provider; parameters in %s; "
               "submitted at once; %u synthesis worker(s), prover %u thread(s); %s backend; "
               "every proof self-verified.  Input ready in %.0f ms.\n",
               circuit, jobs, in.c1->proof->name, in.origin, in.c1->partitions, dir, synth, prove,
               g_use_gpu ? "CUDA" : "CPU", timing_now_ms() - t0);
    } else {
        printf("bench engine: SYNTHETIC circuit (engine/synthetic.h: a chain of squarings, %lu "
               "constraints, + %llu witness squarings per partition), TEST-ONLY parameters made "
               "here.\n  Not a Filecoin circuit (--workload porep-2k is).  %lu jobs x %lu "
               "partitions, submitted at once; %u synthesis worker(s), prover %u thread(s); %s "
               "backend; every proof self-verified.\n",
               k, work, jobs, parts, synth, prove, g_use_gpu ? "CUDA" : "CPU");
        if (!mkdtemp(dir)) {
            perror("cuzk bench engine: mkdtemp");
            return 1;
        }
        made_dir = 1;
        rc = setup_synthetic(&wl, circuit, sizeof circuit, k, dir, threads);
    }
    /* the engine lets FIL_PROOFS_PARAMETER_CACHE override param_cache; the
     * bench has chosen its directory already (porep-2k: from the same variable
     * when --params-dir is absent) */
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
    FILE *csv = NULL;
    bench_tl tl = {0};
    const int svg = timeline && ends_with(timeline, ".svg");
    if (rc == 0 && timeline && !svg) {
        if (!(csv = fopen(timeline, "w"))) {
            fprintf(stderr, "cuzk bench engine: cannot write %s\n", timeline);
            rc = -1;
        } else {
            fprintf(csv, "case,job,batch_size,partition,stage,start_ms,end_ms\n");
        }
    }
    bench_result res[N_CASES];
    const char *names[N_CASES];
    memset(res, 0, sizeof res);
    if (rc == 0)
        printf("\n  %-14s %7s %12s %9s %11s %12s %12s %12s %13s %13s\n", "case", "wall s",
               "partitions/s", "jobs/min", "synth util", "prover util", "queue ms/job",
               "wait ms/part", "synth ms/part", "prove ms/call");
    if (g_use_gpu) {
        cuzk_engine_config gc;
        cuzk_engine_config_defaults(&gc);
        gc.use_gpu = 1;
        for (unsigned i = 0; i < g_devices; i++)
            gc.gpu_devices[i] = (int)i;
        gc.n_gpu_devices = g_devices;
        gc.gpu_memory_limit = g_gpu_limit;
        cli_engine_devices_open(&g_gpus, &gc);
        memcpy(g_gpu_list, gc.prover_devices, sizeof g_gpu_list);
        g_n_gpus = gc.n_prover_devices;
    }
    for (size_t i = 0; i < N_CASES && rc == 0; i++) {
        names[i] = CASES[i].name;
        if (!case_on[i])
            continue;
        rc = run_case(&CASES[i], (unsigned)i, &wl, dir, (unsigned)jobs, synth, prove, csv,
                      svg ? &tl : NULL, &res[i]);
        const bench_result *r = &res[i];
        if (rc == 0 && r->failed) {
            bench_inject_report(&g_inject, stdout); /* the injections that did complete */
            rc = -1;
            break;
        }
        if (rc == 0) {
            printf("  %-14s %7.2f %12.2f %9.1f %10.0f%% %11.0f%% %12.0f %12.1f %13.0f %13.0f\n",
                   CASES[i].name, r->wall_ms / 1000, (double)r->partitions / (r->wall_ms / 1000),
                   (double)jobs / (r->wall_ms / 60000),
                   100 * r->synth_busy / (r->wall_ms * (r->synth_workers ? r->synth_workers : 1)),
                   100 * (r->prove_busy + r->verify_busy) / r->wall_ms,
                   r->queue_wait / (double)jobs,
                   r->prove_wait / (double)(r->partitions ? r->partitions : 1),
                   r->synth_busy / (r->partitions ? r->partitions : 1),
                   r->prove_busy / (r->prove_calls ? r->prove_calls : 1));
            if (jobs > 1) /* the rate once the first job's start-up is paid */
                printf("  %-14s first job %.2f s, then %.2f s/job\n", "", r->first_ms / 1000,
                       (r->wall_ms - r->first_ms) / 1000 / (double)(jobs - 1));
            for (unsigned d = 0; g_devices && d < r->n_dev; d++)
                printf("  %-14s device %-6s %6" PRIu64 " partitions, busy %5.1f%%\n", "",
                       r->dev_name[d], r->dev_parts[d], 100 * r->dev_busy_ms[d] / r->wall_ms);
            bench_inject_report(&g_inject, stdout);
            fflush(stdout);
        }
    }
    if (rc == 0) {
        printf("\n");
        if (case_on[0] && case_on[1])
            printf("  pipelined vs sequential: %.2fx throughput\n",
                   res[1].wall_ms / res[0].wall_ms);
        if (case_on[0] && case_on[2])
            printf("  batch 2 vs batch 1: %.2fx throughput\n", res[0].wall_ms / res[2].wall_ms);
        struct rusage ru; /* ru_maxrss is the process's VmHWM, in KiB on Linux */
        if (getrusage(RUSAGE_SELF, &ru) == 0)
            printf("  peak host RSS (VmHWM, all cases) %.2f GiB\n",
                   (double)ru.ru_maxrss / (1024.0 * 1024.0));
        printf("  (util = busy time / wall time; prover busy = backend calls + self-verification;\n"
               "   a batch-2 call proves two partitions.  Stage times that grow when stages\n"
               "   overlap mean the cores were not free: check the machine's load.)\n");
    }
    if (csv && fclose(csv) != 0)
        rc = -1;
    if (rc == 0 && svg) {
        char title[256];
        snprintf(title, sizeof title,
                 "cuzk bench engine --workload %s: %lu jobs, %u synthesis "
                 "worker(s), prover %u thread(s)",
                 workload, jobs, synth, prove);
        if (bench_tl_write_svg(&tl, timeline, title, names, N_CASES, err, sizeof err)) {
            fprintf(stderr, "cuzk bench engine: %s\n", err);
            rc = -1;
        } else {
            printf("  timeline: %s\n", timeline);
        }
    }
    bench_tl_free(&tl);
    bench_inject_free(&g_inject);
    cli_engine_devices_close(&g_gpus);
    g_n_gpus = 0;
    engine_synthetic_free(wl.syn);
    bench_porep_input_free(&in);
    if (made_dir)
        rm_dir(dir);
    return rc == 0 ? 0 : 1;
}
