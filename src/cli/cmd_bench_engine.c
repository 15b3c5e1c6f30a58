/* `cuzk bench engine`: N concurrent jobs through the whole engine (submit,
 * scheduler, synthesis workers, bounded queue, CPU prover, self-verification)
 * in three configurations in one run: pipelined with batch size 1,
 * sequential (no overlap of synthesis and proving) with batch size 1, and
 * pipelined with batch size 2.  For each it prints throughput and how busy
 * the synthesis workers and the prover were (busy time over wall time, from
 * the per-partition stage timeline), and can save every timeline event as
 * CSV.
 *
 * The circuit is the engine's SYNTHETIC test circuit (engine/synthetic.h),
 * with TEST-ONLY parameters made here: it is not a Filecoin circuit and says
 * so in its output.  `work` adds witness computation per partition so that
 * synthesis costs something, as a real circuit's does. */
#include "cli/cmd_bench_engine.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cuzk/engine.h"
#include "engine/synthetic.h"
#include "util/parallel.h"
#include "util/timing.h"

typedef struct {
    const char *name;
    int pipelined;
    unsigned batch;
} bench_case;

typedef struct {
    double wall_ms, synth_busy, prove_busy, verify_busy, queue_wait, prove_wait;
    unsigned synth_workers, partitions, failed, prove_calls;
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

static int run_case(const bench_case *bc, engine_synthetic *syn, const char *dir,
                    const char *circuit, unsigned jobs, unsigned parts, unsigned long long work,
                    unsigned synth, unsigned prove, FILE *csv, bench_result *out) {
    memset(out, 0, sizeof *out);
    cuzk_engine_config c;
    cuzk_engine_config_defaults(&c);
    snprintf(c.param_cache, sizeof c.param_cache, "%s", dir);
    c.use_gpu = 0;
    c.synthesis_threads = synth;
    c.gpu_threads = prove;
    c.pipeline_enabled = bc->pipelined;
    c.max_batch_size = bc->batch;
    c.max_batch_wait_ms = 100; /* all jobs are queued at once: only an odd last one waits */
    c.result_keep_count = jobs + 16;
    char err[CUZK_ERROR_LEN];
    cuzk_engine *e = cuzk_engine_new(&c, err);
    if (!e) {
        fprintf(stderr, "cuzk bench engine: %s\n", err);
        return -1;
    }
    engine_circuit_provider p = engine_synthetic_provider(syn);
    if (engine_synthetic_register(syn, e) != CUZK_OK ||
        cuzk_engine_register_provider(e, CUZK_KIND_POREP_C2, &p) != CUZK_OK ||
        cuzk_engine_preload_srs(e, circuit, NULL, NULL, err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench engine: %s\n", err);
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
        snprintf(text, sizeof text, "synthetic circuit=%s partitions=%u seed=%u work=%llu", circuit,
                 parts, 1 + i, work);
        cuzk_request r;
        memset(&r, 0, sizeof r);
        r.request_id = id;
        r.kind = CUZK_KIND_POREP_C2;
        r.vanilla_proof = (const uint8_t *)text;
        r.vanilla_proof_len = strlen(text);
        cuzk_submit_info info;
        if (cuzk_engine_submit(e, &r, &info, err) != CUZK_OK) {
            fprintf(stderr, "cuzk bench engine: submit: %s\n", err);
            rc = -1;
        }
    }
    for (unsigned i = 0; rc == 0 && i < jobs; i++) {
        char id[64];
        snprintf(id, sizeof id, "bench-%s-%u", bc->name, i);
        cuzk_result res;
        if (cuzk_engine_await(e, id, 0, &res) != CUZK_OK || res.state != CUZK_JOB_COMPLETED) {
            fprintf(stderr, "cuzk bench engine: %s: %s\n", id, res.error);
            out->failed++;
        }
        cuzk_result_clear(&res);
    }
    out->wall_ms = timing_now_ms() - t0;
    for (unsigned i = 0; rc == 0 && i < jobs; i++) {
        char id[64];
        snprintf(id, sizeof id, "bench-%s-%u", bc->name, i);
        cuzk_job_timeline t;
        if (cuzk_engine_job_timeline(e, id, &t) != CUZK_OK)
            continue;
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
    cuzk_engine_status_clear(&st);
    free(iv);
    cuzk_engine_free(e);
    return rc;
}

int cmd_bench_engine(int argc, char **argv) {
    const char *usage = "cuzk bench engine [--jobs N] [--partitions P] [--constraints K] "
                        "[--work W] [--threads T] [--timeline FILE.csv]";
    const char *s_jobs = NULL, *s_parts = NULL, *s_k = NULL, *s_work = NULL, *timeline = NULL;
    unsigned threads = par_cpu_count();
    const cli_opt opts[] = {{"--jobs", &s_jobs},
                            {"--partitions", &s_parts},
                            {"--constraints", &s_k},
                            {"--work", &s_work},
                            {"--timeline", &timeline}};
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], &threads, usage))
        return 2;
    unsigned long jobs = s_jobs ? strtoul(s_jobs, NULL, 10) : 8;
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
    unsigned synth = threads / 2 ? threads / 2 : 1;
    unsigned prove = threads > synth ? threads - synth : 1;
    printf("bench engine: SYNTHETIC circuit (engine/synthetic.h: a chain of squarings, %lu "
           "constraints, + %llu witness squarings per partition), TEST-ONLY parameters made "
           "here.\n  Not a Filecoin circuit: porep-2k does not exist yet.  %lu jobs x %lu "
           "partitions, submitted at once; %u synthesis worker(s), prover %u thread(s); CPU "
           "backend; every proof self-verified.\n",
           k, work, jobs, parts, synth, prove);
    char dir[] = "/tmp/cuzk-bench-engine-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("cuzk bench engine: mkdtemp");
        return 1;
    }
    char circuit[64], err[CUZK_ERROR_LEN];
    snprintf(circuit, sizeof circuit, "bench-%lu", k);
    engine_synthetic *syn = engine_synthetic_new();
    double t0 = timing_now_ms();
    if (!syn || engine_synthetic_add(syn, circuit, k, err) != CUZK_OK ||
        engine_synthetic_write_params(syn, circuit, dir, threads, err) != CUZK_OK) {
        fprintf(stderr, "cuzk bench engine: %s\n", syn ? err : "out of memory");
        engine_synthetic_free(syn);
        rm_dir(dir);
        return 1;
    }
    printf("  test setup: %.0f ms; partition %.1f MiB\n", timing_now_ms() - t0,
           (double)engine_synthetic_partition_bytes(syn, circuit) / (1 << 20));
    FILE *csv = NULL;
    if (timeline) {
        if (!(csv = fopen(timeline, "w"))) {
            fprintf(stderr, "cuzk bench engine: cannot write %s\n", timeline);
            engine_synthetic_free(syn);
            rm_dir(dir);
            return 1;
        }
        fprintf(csv, "case,job,batch_size,partition,stage,start_ms,end_ms\n");
    }
    static const bench_case cases[] = {
        {"pipelined-b1", 1, 1}, {"sequential-b1", 0, 1}, {"pipelined-b2", 1, 2}};
    bench_result res[3];
    printf("\n  %-14s %7s %12s %9s %11s %12s %12s %12s %13s %13s\n", "case", "wall s",
           "partitions/s", "jobs/min", "synth util", "prover util", "queue ms/job", "wait ms/part",
           "synth ms/part", "prove ms/call");
    int rc = 0;
    for (size_t i = 0; i < 3 && rc == 0; i++) {
        rc = run_case(&cases[i], syn, dir, circuit, (unsigned)jobs, (unsigned)parts, work, synth,
                      prove, csv, &res[i]);
        const bench_result *r = &res[i];
        if (rc == 0 && r->failed) {
            rc = -1;
            break;
        }
        if (rc == 0)
            printf("  %-14s %7.2f %12.2f %9.1f %10.0f%% %11.0f%% %12.0f %12.1f %13.0f %13.0f\n",
                   cases[i].name, r->wall_ms / 1000, (double)r->partitions / (r->wall_ms / 1000),
                   (double)jobs / (r->wall_ms / 60000),
                   100 * r->synth_busy / (r->wall_ms * (r->synth_workers ? r->synth_workers : 1)),
                   100 * (r->prove_busy + r->verify_busy) / r->wall_ms,
                   r->queue_wait / (double)jobs,
                   r->prove_wait / (double)(r->partitions ? r->partitions : 1),
                   r->synth_busy / (r->partitions ? r->partitions : 1),
                   r->prove_busy / (r->prove_calls ? r->prove_calls : 1));
    }
    if (rc == 0)
        printf("\n  pipelined vs sequential: %.2fx throughput; batch 2 vs batch 1: %.2fx\n"
               "  (util = busy time / wall time; prover busy = backend calls + self-verification;\n"
               "   a batch-2 call proves two partitions.  Stage times that grow when stages\n"
               "   overlap mean the cores were not free: check the machine's load.)\n",
               res[1].wall_ms / res[0].wall_ms, res[0].wall_ms / res[2].wall_ms);
    if (csv && fclose(csv) != 0)
        rc = -1;
    engine_synthetic_free(syn);
    rm_dir(dir);
    return rc == 0 ? 0 : 1;
}
