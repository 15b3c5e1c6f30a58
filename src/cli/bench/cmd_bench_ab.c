/* `cuzk bench ab`: two configurations of the optimization switches
 * (util/switches.h) compared in one process.
 *
 * Runs alternate A, B, A, B, ... so that drift (thermal state, page cache,
 * the other tenants of a shared machine) falls on both sides alike; before
 * each run every switch is set back to its starting value (environment or
 * default) and the side's list is applied on top, so a run's configuration
 * does not depend on the one before.  The report is the median of each
 * phase per side and the ratio B/A: above 1 means B is slower.  The
 * workload's expensive preparation (parameters, sealing) happens once,
 * before the runs, and is not measured. */
#include "cli/bench/cmd_bench_ab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/backend_pick.h"
#include "cli/bench/bench_ab.h"
#include "util/parallel.h"
#include "util/switches.h"
#include "util/timing.h"

static const char *const USAGE =
    "cuzk bench ab --workload porep-2k|porep-512m|random:N[:SEED] --a K=V,... --b K=V,...\n"
    "       [--runs N] [--warmup W] [--threads T] [--backend cpu|cuda] [--params-dir DIR] "
    "[--c1 FILE]\n"
    "       cuzk bench ab --list";

static void list_switches(FILE *to) {
    fprintf(to, "%-18s %-24s %-8s %-8s %s\n", "switch", "env (initial value)", "default", "now",
            "what it does");
    for (int i = 0; i < SW_COUNT; i++) {
        const switch_info *s = switch_describe((switch_id)i);
        char def[16], now[16];
        switch_format(def, sizeof def, (switch_id)i, s->def);
        switch_format(now, sizeof now, (switch_id)i, switch_get((switch_id)i));
        fprintf(to, "%-18s %-24s %-8s %-8s %s\n", s->name, s->env, def, now, s->desc);
    }
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "field_asm=off gpu_srs_sets=2" for a side, or "(starting values)". */
static void describe_side(char *out, size_t cap, const switch_assignments *a) {
    size_t len = 0;
    out[0] = 0;
    for (size_t k = 0; k < a->n && len < cap; k++) {
        char v[16];
        switch_format(v, sizeof v, a->id[k], a->value[k]);
        len += (size_t)snprintf(out + len, cap - len, "%s%s=%s", k ? " " : "",
                                switch_describe(a->id[k])->name, v);
    }
    if (!a->n)
        snprintf(out, cap, "(starting values)");
}

/* Every switch's value when side a is applied on top of the start. */
static void print_config(const switch_snapshot *start, const switch_assignments *a,
                         const switch_assignments *b) {
    printf("  %-18s %8s %8s\n", "switch", "A", "B");
    for (int i = 0; i < SW_COUNT; i++) {
        long va = start->value[i], vb = start->value[i];
        for (size_t k = 0; k < a->n; k++)
            if (a->id[k] == (switch_id)i)
                va = a->value[k];
        for (size_t k = 0; k < b->n; k++)
            if (b->id[k] == (switch_id)i)
                vb = b->value[k];
        char sa[16], sb[16];
        switch_format(sa, sizeof sa, (switch_id)i, va);
        switch_format(sb, sizeof sb, (switch_id)i, vb);
        printf("  %-18s %8s %8s%s\n", switch_describe((switch_id)i)->name, sa, sb,
               va != vb ? "   <- differs" : "");
    }
}

/* Same phases, same order, in every run: a workload that broke this would
 * make the medians meaningless. */
static int same_phases(const ab_phases *a, const ab_phases *b) {
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->name[i], b->name[i]) != 0)
            return 0;
    return 1;
}

static void report(const ab_phases *runs, unsigned n_runs) {
    const ab_phases *first = &runs[0];
    double *va = malloc(n_runs * sizeof *va), *vb = malloc(n_runs * sizeof *vb);
    if (!va || !vb) {
        free(va);
        free(vb);
        return;
    }
    printf("\n%-18s %14s %14s %8s\n", "phase", "A median ms", "B median ms", "B/A");
    for (size_t p = 0; p < first->n; p++) {
        for (unsigned r = 0; r < n_runs; r++) {
            va[r] = runs[2 * r].ms[p];
            vb[r] = runs[2 * r + 1].ms[p];
        }
        double ma = median(va, n_runs), mb = median(vb, n_runs);
        if (ma > 0)
            printf("%-18s %14.1f %14.1f %8.3f\n", first->name[p], ma, mb, mb / ma);
        else
            printf("%-18s %14.1f %14.1f %8s\n", first->name[p], ma, mb, "-");
    }
    free(va);
    free(vb);
}

int cmd_bench_ab(int argc, char **argv) {
    if (argc == 1 && strcmp(argv[0], "--list") == 0) {
        list_switches(stdout);
        return 0;
    }
    const char *workload = NULL, *sa = NULL, *sb = NULL, *s_runs = NULL, *s_warm = NULL,
               *backend = "cpu";
    ab_options o = {NULL, NULL, par_cpu_count(), &groth16_backend_cpu};
    const cli_opt opts[] = {{"--workload", &workload},
                            {"--a", &sa},
                            {"--b", &sb},
                            {"--runs", &s_runs},
                            {"--params-dir", &o.params_dir},
                            {"--c1", &o.c1},
                            {"--warmup", &s_warm},
                            {"--backend", &backend}};
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], &o.threads, USAGE))
        return 2;
    if (!workload || !sa || !sb) {
        fprintf(stderr, "cuzk bench ab: --workload, --a and --b are required\nusage: %s\n", USAGE);
        return 2;
    }
    if (!ab_workload_known(workload)) {
        fprintf(stderr, "cuzk bench ab: unknown workload \"%s\" (%s)\n", workload, AB_WORKLOADS);
        return 2;
    }
    if (strcmp(backend, "cuda") == 0) {
#ifdef CUZK_HAVE_CUDA
        if (!(o.backend = cli_pick_backend("cuda")))
            return 1;
#else
        fprintf(stderr, "cuzk bench ab: --backend cuda: this build has no CUDA backend\n");
        return 2;
#endif
    } else if (strcmp(backend, "cpu") != 0) {
        fprintf(stderr, "cuzk bench ab: unknown --backend \"%s\" (cpu or cuda)\n", backend);
        return 2;
    }
    unsigned runs = 3;
    if (s_runs) {
        char *end;
        long r = strtol(s_runs, &end, 10);
        if (*end || !*s_runs || r < 1 || r > 1000) {
            fprintf(stderr, "cuzk bench ab: --runs \"%s\" is not 1..1000\n", s_runs);
            return 2;
        }
        runs = (unsigned)r;
    }
    unsigned warm = 0; /* unrecorded A,B pairs first: cold caches and page faults */
    if (s_warm) {
        char *end;
        long r = strtol(s_warm, &end, 10);
        if (*end || !*s_warm || r < 0 || r > 100) {
            fprintf(stderr, "cuzk bench ab: --warmup \"%s\" is not 0..100\n", s_warm);
            return 2;
        }
        warm = (unsigned)r;
    }
    switch_assignments a, b;
    char err[1024];
    if (switch_parse_list(&a, sa, err, sizeof err)) {
        fprintf(stderr, "cuzk bench ab: --a: %s\n", err);
        return 2;
    }
    if (switch_parse_list(&b, sb, err, sizeof err)) {
        fprintf(stderr, "cuzk bench ab: --b: %s\n", err);
        return 2;
    }
    switch_snapshot start;
    switch_save(&start);
    ab_workload w;
    double t0 = timing_now_ms();
    if (ab_workload_open(&w, workload, &o, err, sizeof err)) {
        fprintf(stderr, "cuzk bench ab: %s\n", err);
        return 1;
    }
    char da[256], db[256];
    describe_side(da, sizeof da, &a);
    describe_side(db, sizeof db, &b);
    printf("bench ab: %s\n  prepared in %.0f ms (not measured); %u run(s) per side, alternating "
           "A,B,A,B,... after %u unrecorded warm-up pair(s); every proof verified\n  A: %s\n"
           "  B: %s\n",
           w.desc, timing_now_ms() - t0, runs, warm, da, db);
    print_config(&start, &a, &b);
    ab_phases *res = calloc(2 * (size_t)runs, sizeof *res);
    int rc = res ? 0 : 1;
    for (unsigned i = 0; rc == 0 && i < 2 * warm; i++) {
        ab_phases scratch;
        switch_restore(&start);
        switch_apply(i % 2 ? &b : &a);
        if (w.run(w.state, &scratch, err, sizeof err)) {
            fprintf(stderr, "cuzk bench ab: warm-up %u %c: %s\n", i / 2 + 1, i % 2 ? 'B' : 'A',
                    err);
            rc = 1;
        } else {
            printf("warm-up %u %c: total %.1f ms (not counted)\n", i / 2 + 1, i % 2 ? 'B' : 'A',
                   scratch.n ? scratch.ms[scratch.n - 1] : 0.0);
            fflush(stdout);
        }
    }
    for (unsigned i = 0; rc == 0 && i < 2 * runs; i++) {
        const int side_b = i % 2;
        switch_restore(&start);
        switch_apply(side_b ? &b : &a);
        if (w.run(w.state, &res[i], err, sizeof err)) {
            fprintf(stderr, "cuzk bench ab: run %u %c: %s\n", i / 2 + 1, side_b ? 'B' : 'A', err);
            rc = 1;
        } else if (!same_phases(&res[0], &res[i]) || res[i].n == 0) {
            fprintf(stderr, "cuzk bench ab: internal: run %u reported other phases\n", i + 1);
            rc = 1;
        } else {
            printf("run %u %c: total %.1f ms\n", i / 2 + 1, side_b ? 'B' : 'A',
                   res[i].ms[res[i].n - 1]);
            fflush(stdout);
        }
    }
    switch_restore(&start);
    if (rc == 0)
        report(res, runs);
    if (rc == 0)
        printf("(B/A > 1: B is slower.  Phases are summed over partitions; MSM and H phases "
               "are the prover's own timers.)\n");
    free(res);
    ab_workload_close(&w);
    return rc;
}
