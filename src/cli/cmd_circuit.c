/* cuzk circuit info / cuzk bench synth: see cmd_circuit.h. */
#include "cli/cmd_circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "cli/bench/bench_synth.h"
#include "cli/circuit_names.h"
#include "util/parallel.h"
#include "util/timing.h"

static unsigned log2_ceil(size_t n) {
    unsigned k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

/* `cuzk circuit list`: every circuit's name and circuit id, one per line
 * (tools/gen_circuit_counts.sh walks them). */
static int list_circuits(void) {
    for (size_t i = 0; fc_kind_at(i); i++)
        for (unsigned z = 0; z < FC_SECTOR_SIZES; z++)
            printf("%s-%s %s-%s\n", fc_kind_at(i)->circuit_name, fc_shape_at(z)->short_name,
                   fc_kind_at(i)->id_prefix, fc_shape_at(z)->short_name);
    return 0;
}

int cmd_circuit(int argc, char **argv) {
    if (argc == 1 && strcmp(argv[0], "list") == 0)
        return list_circuits();
    if (argc != 2 || strcmp(argv[0], "info") != 0) {
        fprintf(stderr, "usage: cuzk circuit info NAME | list   (NAME: %s)\n",
                circuit_names_list());
        return 2;
    }
    circuit_name c;
    if (circuit_name_parse(&c, argv[1]))
        return 2;
    double t0 = timing_now_ms();
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    if (!cs) {
        fprintf(stderr, "cuzk circuit: out of memory\n");
        return 1;
    }
    int r = circuit_name_synthesize(cs, &c, NULL);
    int e = r1cs_finish(cs);
    r1cs_counts k;
    if (r || e || r1cs_get_counts(cs, &k)) {
        fprintf(stderr, "cuzk circuit: synthesis failed: %s\n",
                r ? "invalid shape" : r1cs_error_message(cs));
        r1cs_cs_free(cs);
        return 1;
    }
    double ms = timing_now_ms() - t0;
    circuit_name_describe(&c);
    printf("constraints        %zu (circuit), %zu (with %zu input constraints)\n", k.constraints,
           k.constraints_total, k.inputs);
    printf("public inputs      %zu (+ ONE = %zu)\n", k.inputs - 1, k.inputs);
    printf("aux variables      %zu\n", k.aux);
    printf("non-zeros A/B/C    %llu / %llu / %llu\n", (unsigned long long)k.nnz_a,
           (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c);
    printf("density A          aux %zu of %zu (inputs: all, through the input constraints)\n",
           k.a_aux_density, k.aux);
    printf("density B          inputs %zu of %zu, aux %zu of %zu\n", k.b_input_density, k.inputs,
           k.b_aux_density, k.aux);
    printf("domain             2^%u\n", log2_ceil(k.constraints_total));
    printf("time               %.2f s (counting mode, %.2f M constraints/s, %.1f MiB peak)\n",
           ms / 1e3, 1e-3 * (double)k.constraints_total / ms,
           (double)r1cs_peak_bytes(cs) / 1048576.0);
    r1cs_cs_free(cs);
    return 0;
}

/* CPU time of the process (all threads): steadier than wall time on a shared
 * machine. */
static double cpu_ms(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return 1e3 * (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-3 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* 2 MiB-aligned memory advised for transparent huge pages. */
static void *huge_alloc(size_t bytes) {
    void *p = NULL;
    if (posix_memalign(&p, (size_t)2 << 20, bytes ? bytes : 1))
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

/* --witness: the blank circuit's segments by a counting run, then witness
 * generation alone (R1CS_WITNESS views on `threads` threads) into one input and
 * one aux vector, reps times. */
static int bench_witness(const circuit_name *c, const void *wp, unsigned threads, unsigned reps) {
    double t0 = timing_now_ms();
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    if (!cs || circuit_name_synthesize(cs, c, NULL) || r1cs_finish(cs)) {
        fprintf(stderr, "cuzk bench synth: counting failed: %s\n",
                cs ? r1cs_error_message(cs) : "out of memory");
        r1cs_cs_free(cs);
        return 1;
    }
    r1cs_counts k;
    r1cs_get_counts(cs, &k);
    const r1cs_segment_mark *segs;
    size_t nseg = r1cs_get_segments(cs, &segs);
    printf("segments           %zu (counting run %.1f ms)\n", nseg, timing_now_ms() - t0);
    int rc = 0;
    for (unsigned rep = 0; rep < reps && rc == 0; rep++) {
        /* fresh vectors every rep, as a partition gets them: first-touch
         * faults are part of the cost (huge pages advised, as r1cs does) */
        fr *in = malloc(k.inputs * sizeof(fr)), *aux = huge_alloc(k.aux * sizeof(fr));
        if (!in || !aux) {
            fprintf(stderr, "cuzk bench synth: out of memory for the witness vectors\n");
            free(in);
            free(aux);
            rc = 1;
            break;
        }
        char err[256] = "";
        double cs0 = cpu_ms(), ts = timing_now_ms();
        int r = circuit_name_witness_generate(c, wp, segs, nseg, k.inputs, k.aux, threads, in, aux,
                                              err, sizeof err);
        double ms = timing_now_ms() - ts, cpu = cpu_ms() - cs0;
        if (r) {
            fprintf(stderr, "cuzk bench synth: witness: %s\n", err);
            free(in);
            free(aux);
            rc = 1;
            break;
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("rep %u: witness %zu inputs, %zu aux on %u threads in %.1f ms = %.2f M "
               "constraints/s, %.1f ms CPU, peak RSS %.1f MiB\n",
               rep, k.inputs, k.aux, threads, ms, 1e-3 * (double)k.constraints_total / ms, cpu,
               (double)ru.ru_maxrss / 1024.0);
        free(in);
        free(aux);
    }
    r1cs_cs_free(cs);
    return rc;
}

int cmd_bench_synth(int argc, char **argv) {
    const char *usage = "usage: cuzk bench synth NAME [--reps R] [--witness [--threads T]]\n"
                        "       cuzk bench synth NAME --pce on|off|on,off [--threads LIST] ...\n"
                        "  proving-mode synthesis of one partition, synthetic witness; with\n"
                        "  --witness, witness generation alone on T threads (default: all CPUs)";
    unsigned reps = 3, threads = 0;
    int witness = 0;
    if (argc < 1) {
        fprintf(stderr, "%s\n", usage);
        return 2;
    }
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--pce") == 0) /* both paths, each in a child */
            return bench_synth_pce(argc, argv);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--witness") == 0) {
            witness = 1;
            continue;
        }
        int is_reps = strcmp(argv[i], "--reps") == 0,
            is_threads = strcmp(argv[i], "--threads") == 0;
        if ((!is_reps && !is_threads) || i + 1 >= argc) {
            fprintf(stderr, "%s\n", usage);
            return 2;
        }
        char *end;
        long r = strtol(argv[++i], &end, 10);
        if (*end || r < 1 || r > (is_reps ? 1000 : 1024)) {
            fprintf(stderr, "cuzk bench synth: %s \"%s\" is not 1..%d\n", argv[i - 1], argv[i],
                    is_reps ? 1000 : 1024);
            return 2;
        }
        if (is_reps)
            reps = (unsigned)r;
        else
            threads = (unsigned)r;
    }
    if (threads && !witness) {
        fprintf(stderr, "cuzk bench synth: --threads goes with --witness\n");
        return 2;
    }
    if (!threads)
        threads = par_cpu_count();
    circuit_name c;
    if (circuit_name_parse(&c, argv[0]))
        return 2;
    circuit_witness w;
    double t0 = timing_now_ms();
    if (circuit_name_witness(&w, &c, 1)) {
        fprintf(stderr, "cuzk bench synth: out of memory for the witness\n");
        return 1;
    }
    circuit_name_describe(&c);
    printf("synthetic witness  %.1f ms\n", timing_now_ms() - t0);
    const void *wp = circuit_witness_of(&w, &c);
    if (witness) {
        int r = bench_witness(&c, wp, threads, reps);
        circuit_witness_free(&w);
        return r;
    }
    int rc = 0;
    for (unsigned rep = 0; rep < reps && rc == 0; rep++) {
        double ts = timing_now_ms();
        r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
        if (!cs || circuit_name_synthesize(cs, &c, wp) || r1cs_finish(cs)) {
            fprintf(stderr, "cuzk bench synth: %s\n",
                    cs ? r1cs_error_message(cs) : "out of memory");
            rc = 1;
        } else {
            r1cs_partition p;
            rc = r1cs_take_partition(cs, &p) != R1CS_OK;
            double ms = timing_now_ms() - ts;
            printf("rep %u: %zu rows, %zu aux in %.1f ms = %.2f M constraints/s, %.1f MiB "
                   "partition (%.1f MiB peak)\n",
                   rep, p.num_constraints, p.num_aux, ms, 1e-3 * (double)p.num_constraints / ms,
                   (double)r1cs_partition_bytes(&p) / 1048576.0,
                   (double)r1cs_peak_bytes(cs) / 1048576.0);
            r1cs_partition_free(&p);
        }
        r1cs_cs_free(cs);
    }
    circuit_witness_free(&w);
    return rc;
}
