/* cuzk pce gpu (cmd_pce_gpu.h). */
#include "cli/cmd_pce_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli/circuit_names.h"
#include "r1cs/pce.h"
#include "r1cs/witness_pack.h"
#include "util/parallel.h"
#include "util/timing.h"

#ifndef CUZK_HAVE_CUDA
int cmd_pce_gpu(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "cuzk pce gpu: this build has no CUDA backend\n");
    return 1;
}
#else
#include "cuda/cuda_backend.h"

static const char *usage = "usage: cuzk pce gpu FILE --circuit NAME [--threads T] [--reps R]\n";

static double peak_mib(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static fr *fr_dup(const fr *x, size_t n) {
    fr *y = malloc((n ? n : 1) * sizeof(fr));
    if (y)
        memcpy(y, x, n * sizeof(fr));
    return y;
}

/* input and aux of NAME's synthetic witness through p's segments. */
static int make_witness(const circuit_name *c, const r1cs_pce *p, unsigned threads, fr **in,
                        fr **aux) {
    circuit_witness w;
    char err[256] = "";
    *in = malloc((p->num_inputs ? p->num_inputs : 1) * sizeof(fr));
    *aux = malloc((p->num_aux ? p->num_aux : 1) * sizeof(fr));
    if (!*in || !*aux || circuit_name_witness(&w, c, 1)) {
        fprintf(stderr, "cuzk pce gpu: out of memory\n");
        return -1;
    }
    const void *wp = circuit_witness_of(&w, c);
    double t0 = timing_now_ms();
    int r = circuit_name_witness_generate(c, wp, p->segments, p->n_segments, p->num_inputs,
                                          p->num_aux, threads, *in, *aux, err, sizeof err);
    circuit_witness_free(&w);
    if (r) {
        fprintf(stderr, "cuzk pce gpu: witness: %s\n", err);
        return -1;
    }
    printf("witness            %.1f ms on %u threads (%zu inputs, %zu aux)\n", timing_now_ms() - t0,
           threads, (size_t)p->num_inputs, (size_t)p->num_aux);
    return 0;
}

int cmd_pce_gpu(int argc, char **argv) {
    const char *file = argc > 0 ? argv[0] : NULL, *name = NULL;
    unsigned threads = par_cpu_count(), reps = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--circuit") == 0)
            name = argv[i + 1];
        else if (strcmp(argv[i], "--threads") == 0 && atoi(argv[i + 1]) > 0)
            threads = (unsigned)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--reps") == 0 && atoi(argv[i + 1]) > 0)
            reps = (unsigned)atoi(argv[i + 1]);
        else
            file = NULL;
    }
    circuit_name c;
    if (!file || !name || argc % 2 == 0 || circuit_name_parse(&c, name)) {
        fprintf(stderr, "%s", usage);
        return 2;
    }
    char err[512];
    r1cs_pce p;
    pce_expect ex = {.circuit_id = name};
    if (pce_open(file, &ex, threads, &p, err, sizeof err)) {
        fprintf(stderr, "cuzk pce gpu: %s\n", err);
        return 1;
    }
    fr *in = NULL, *aux = NULL;
    r1cs_partition ref, def;
    memset(&ref, 0, sizeof ref);
    memset(&def, 0, sizeof def);
    int rc = 1;
    cuda_prover *pr = NULL;
    cuda_error ce = {CUDA_OK, ""};
    fr *ga = NULL, *gb = NULL, *gc = NULL, *gaux = NULL;
    if (make_witness(&c, &p, threads, &in, &aux))
        goto done;
    /* the CPU's a, b, c (the reference), then the deferred form */
    double t0 = timing_now_ms();
    fr *in2 = fr_dup(in, p.num_inputs), *aux2 = fr_dup(aux, p.num_aux);
    if (!in2 || !aux2 || pce_partition(&p, in2, aux2, threads, &ref, err, sizeof err)) {
        fprintf(stderr, "cuzk pce gpu: %s\n", in2 && aux2 ? err : "out of memory");
        goto done;
    }
    double cpu_ms = timing_now_ms() - t0;
    t0 = timing_now_ms();
    if (pce_partition_deferred(&p, in, aux, threads, &def, err, sizeof err)) {
        in = aux = NULL; /* taken */
        fprintf(stderr, "cuzk pce gpu: %s\n", err);
        goto done;
    }
    in = aux = NULL;
    double pack_ms = timing_now_ms() - t0;
    const r1cs_witness_pack *w = def.aux_pack;
    printf("cpu a/b/c          %.1f ms on %u threads (host partition %.1f MiB)\n", cpu_ms, threads,
           (double)r1cs_partition_bytes(&ref) / 1048576.0);
    printf("pack               %.1f ms: %zu of %zu aux not bits (%.2f%%), %.1f MiB to send "
           "(full aux %.1f MiB, a/b/c %.1f MiB); deferred partition %.1f MiB on the host\n",
           pack_ms, w->n_dense, w->num_aux, 100.0 * (double)w->n_dense / (double)(w->num_aux + 1),
           (double)witness_pack_bytes(w) / 1048576.0, (double)w->num_aux * 32 / 1048576.0,
           (double)p.rows * 96 / 1048576.0, (double)r1cs_partition_bytes(&def) / 1048576.0);
    if (cuda_prover_create(&pr, 0, &ce)) {
        fprintf(stderr, "cuzk pce gpu: %s\n", ce.msg);
        goto done;
    }
    ga = malloc(p.rows * sizeof(fr) + 1);
    gb = malloc(p.rows * sizeof(fr) + 1);
    gc = malloc(p.rows * sizeof(fr) + 1);
    gaux = malloc(p.num_aux * sizeof(fr) + 1);
    if (!ga || !gb || !gc || !gaux) {
        fprintf(stderr, "cuzk pce gpu: out of memory\n");
        goto done;
    }
    cuda_abc_stats st;
    t0 = timing_now_ms();
    if (cuda_prover_abc(pr, &def, ga, gb, gc, gaux, &st, &ce)) {
        fprintf(stderr, "cuzk pce gpu: %s\n", ce.msg);
        goto done;
    }
    size_t rb = p.rows * sizeof(fr);
    int same = !memcmp(ga, ref.a, rb) && !memcmp(gb, ref.b, rb) && !memcmp(gc, ref.c, rb) &&
               !memcmp(gaux, ref.aux, p.num_aux * sizeof(fr));
    printf("first (matrices %.1f MiB up)  %.1f ms; a, b, c and aux %s the CPU's\n",
           (double)cuda_prover_pce_bytes(pr) / 1048576.0, timing_now_ms() - t0,
           same ? "identical to" : "DIFFERENT from");
    rc = !same;
    for (unsigned r = 0; r < reps && !rc; r++) {
        if (cuda_prover_abc(pr, &def, NULL, NULL, NULL, NULL, &st, &ce)) {
            fprintf(stderr, "cuzk pce gpu: %s\n", ce.msg);
            rc = 1;
            break;
        }
        printf("rep %u: %.1f MiB sent; upload %.2f ms (%.1f GB/s), expand %.2f ms, SpMV %.2f ms "
               "(%.1f M terms/ms); %.2f ms wall\n",
               r, (double)st.bytes / 1048576.0, st.upload_ms,
               (double)st.bytes / 1e6 / (st.upload_ms > 0 ? st.upload_ms : 1), st.expand_ms,
               st.spmv_ms, 1e-6 * (double)(p.nnz[0] + p.nnz[1] + p.nnz[2]) / st.spmv_ms,
               st.total_ms);
    }
    printf("peak RSS %.1f MiB (the reference and the copies back included)\n", peak_mib());
done:
    free(in);
    free(aux);
    free(ga);
    free(gb);
    free(gc);
    free(gaux);
    if (pr)
        cuda_prover_destroy(pr);
    r1cs_partition_free(&ref);
    r1cs_partition_free(&def);
    pce_free(&p);
    return rc;
}
#endif
