/* cuzk circuit info / cuzk bench synth: see cmd_circuit.h. */
#include "cli/cmd_circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/circuit_names.h"
#include "util/timing.h"

static unsigned log2_ceil(size_t n) {
    unsigned k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

int cmd_circuit(int argc, char **argv) {
    if (argc != 2 || strcmp(argv[0], "info") != 0) {
        fprintf(stderr, "usage: cuzk circuit info NAME   (NAME: %s)\n", CIRCUIT_NAMES);
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

int cmd_bench_synth(int argc, char **argv) {
    const char *usage = "usage: cuzk bench synth NAME [--reps R]   (proving-mode synthesis of "
                        "one partition, synthetic witness)";
    unsigned reps = 3;
    if (argc != 1 && !(argc == 3 && strcmp(argv[1], "--reps") == 0)) {
        fprintf(stderr, "%s\n", usage);
        return 2;
    }
    if (argc == 3) {
        char *end;
        long r = strtol(argv[2], &end, 10);
        if (*end || r < 1 || r > 1000) {
            fprintf(stderr, "cuzk bench synth: --reps \"%s\" is not 1..1000\n", argv[2]);
            return 2;
        }
        reps = (unsigned)r;
    }
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
    const void *wp = c.porep ? (const void *)&w.pw : (const void *)&w.qw;
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
