/* cuzk pce build / info / check: see cmd_pce.h. */
#include "cli/cmd_pce.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/circuit_names.h"
#include "cli/cmd_pce_gpu.h"
#include "filecoin/param_dir.h"
#include "r1cs/pce.h"
#include "util/parallel.h"
#include "util/timing.h"

static const char *usage = "usage: cuzk pce build CIRCUIT [--dir DIR] [--threads T]\n"
                           "       cuzk pce info FILE [--threads T]\n"
                           "       cuzk pce check FILE [--circuit NAME] [--threads T]\n"
                           "       cuzk pce bench FILE --circuit NAME [--threads T]\n"
                           "       cuzk pce gpu FILE --circuit NAME [--threads T] [--reps R]\n";

typedef struct {
    const char *dir, *circuit;
    unsigned threads;
} pce_opts;

/* Options after the positional argument; 0, or -1 with a message. */
static int parse_opts(pce_opts *o, int argc, char **argv, int allow_dir, int allow_circuit) {
    o->dir = o->circuit = NULL;
    o->threads = par_cpu_count();
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "cuzk pce: %s needs a value\n%s", a, usage);
            return -1;
        }
        if (strcmp(a, "--threads") == 0) {
            char *end;
            long t = strtol(v, &end, 10);
            if (*end || t < 1 || t > 1024) {
                fprintf(stderr, "cuzk pce: --threads \"%s\" is not 1..1024\n", v);
                return -1;
            }
            o->threads = (unsigned)t;
        } else if (allow_dir && strcmp(a, "--dir") == 0) {
            o->dir = v;
        } else if (allow_circuit && strcmp(a, "--circuit") == 0) {
            o->circuit = v;
        } else {
            fprintf(stderr, "cuzk pce: unknown option \"%s\"\n%s", a, usage);
            return -1;
        }
        i++;
    }
    return 0;
}

static double mib(uint64_t b) { return (double)b / 1048576.0; }

static int build(int argc, char **argv) {
    pce_opts o;
    circuit_name c;
    if (argc < 1 || parse_opts(&o, argc - 1, argv + 1, 1, 0) || circuit_name_parse(&c, argv[0]))
        return 2;
    char dir[4096], err[512], path[4400];
    if (fc_param_dir(dir, sizeof dir, o.dir, NULL, NULL, err, sizeof err)) {
        fprintf(stderr, "cuzk pce build: %s\n", err);
        return 2;
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cuzk pce build: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    snprintf(path, sizeof path, "%s/%s.pce", dir, c.stem[0] ? c.stem : argv[0]);
    circuit_name_describe(&c);
    double t0 = timing_now_ms();
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    if (!cs) {
        fprintf(stderr, "cuzk pce build: out of memory\n");
        return 1;
    }
    int r = circuit_name_synthesize(cs, &c, NULL);
    int e = r1cs_finish(cs);
    if (r || e) {
        fprintf(stderr, "cuzk pce build: recording failed: %s\n",
                r ? "invalid shape" : r1cs_error_message(cs));
        r1cs_cs_free(cs);
        return 1;
    }
    double t_rec = timing_now_ms() - t0;
    size_t peak = r1cs_peak_bytes(cs);
    r1cs_pce p;
    if (pce_from_recording(cs, argv[0], c.stem, (uint64_t)t_rec, &p, err, sizeof err)) {
        fprintf(stderr, "cuzk pce build: %s\n", err);
        r1cs_cs_free(cs);
        return 1;
    }
    r1cs_cs_free(cs);
    double t1 = timing_now_ms();
    int rc = pce_write(&p, path, o.threads, err, sizeof err);
    double t_write = timing_now_ms() - t1;
    if (rc) {
        fprintf(stderr, "cuzk pce build: %s\n", err);
        pce_free(&p);
        return 1;
    }
    uint64_t bytes = 0;
    for (unsigned k = 1; k <= PCE_SECTIONS; k++)
        bytes += pce_section_bytes(&p, k);
    printf("file               %s\n", path);
    printf("rows               %llu (%llu circuit), %llu inputs, %llu aux\n",
           (unsigned long long)p.rows, (unsigned long long)p.circuit_rows,
           (unsigned long long)p.num_inputs, (unsigned long long)p.num_aux);
    printf("non-zeros A/B/C    %llu / %llu / %llu = %llu\n", (unsigned long long)p.nnz[0],
           (unsigned long long)p.nnz[1], (unsigned long long)p.nnz[2],
           (unsigned long long)(p.nnz[0] + p.nnz[1] + p.nnz[2]));
    printf("dictionary         %u coefficients (u%u indexes)\n", p.dict_len, 8 * p.coef_width);
    printf("bytes              %llu (%.1f MiB, %.2f B/term)\n", (unsigned long long)bytes,
           mib(bytes), (double)bytes / (double)(p.nnz[0] + p.nnz[1] + p.nnz[2] + 1));
    printf("time               record %.2f s (%.1f MiB peak), write %.2f s\n", t_rec / 1e3,
           mib(peak), t_write / 1e3);
    pce_free(&p);
    return 0;
}

static int info(int argc, char **argv) {
    pce_opts o;
    if (argc < 1 || parse_opts(&o, argc - 1, argv + 1, 0, 0))
        return 2;
    char err[512];
    r1cs_pce p;
    if (pce_open(argv[0], NULL, o.threads, &p, err, sizeof err)) {
        fprintf(stderr, "cuzk pce info: %s\n", err);
        return 1;
    }
    printf("circuit            %s (circuit version %u)\n", p.circuit_id, p.circuit_version);
    printf("parameters         %s\n", p.params_stem);
    printf("rows               %llu (%llu circuit), %llu inputs, %llu aux\n",
           (unsigned long long)p.rows, (unsigned long long)p.circuit_rows,
           (unsigned long long)p.num_inputs, (unsigned long long)p.num_aux);
    printf("non-zeros A/B/C    %llu / %llu / %llu\n", (unsigned long long)p.nnz[0],
           (unsigned long long)p.nnz[1], (unsigned long long)p.nnz[2]);
    printf("density            A aux %llu, B inputs %llu, B aux %llu\n",
           (unsigned long long)p.density[0], (unsigned long long)p.density[1],
           (unsigned long long)p.density[2]);
    printf("segments           %u\n", p.n_segments);
    printf("dictionary         %u coefficients (u%u indexes)\n", p.dict_len, 8 * p.coef_width);
    uint64_t *uses = calloc(p.dict_len, sizeof *uses);
    if (!uses) {
        pce_free(&p);
        return 1;
    }
    for (int m = 0; m < 3; m++)
        for (uint64_t k = 0; k < p.nnz[m]; k++)
            uses[p.coef_width == 2 ? ((const uint16_t *)p.coef[m])[k]
                                   : ((const uint32_t *)p.coef[m])[k]]++;
    static const char *cls_name[] = {"+1", "-1", "+2^k", "-2^k", "other"};
    uint64_t entries[5] = {0}, terms[5] = {0}, total = p.nnz[0] + p.nnz[1] + p.nnz[2];
    for (uint32_t i = 0; i < p.dict_len; i++) {
        entries[p.dict_class[i]]++;
        terms[p.dict_class[i]] += uses[i];
    }
    free(uses);
    for (int k = 0; k < 5; k++)
        printf("  class %-6s     %u entries, %llu terms (%.1f%%)\n", cls_name[k],
               (unsigned)entries[k], (unsigned long long)terms[k],
               total ? 100.0 * (double)terms[k] / (double)total : 0.0);
    uint64_t sum = 0;
    for (unsigned k = 1; k <= PCE_SECTIONS; k++) {
        uint64_t b = pce_section_bytes(&p, k);
        sum += b;
        printf("  section %-9s %llu bytes (%.1f MiB)\n", pce_section_name(k), (unsigned long long)b,
               mib(b));
    }
    printf("file               %llu bytes (%.1f MiB; sections %.1f MiB)\n",
           (unsigned long long)p.file_bytes, mib(p.file_bytes), mib(sum));
    if (p.build_ms)
        printf("build time         %.2f s (recording)\n", (double)p.build_ms / 1e3);
    pce_free(&p);
    return 0;
}

static int check(int argc, char **argv) {
    pce_opts o;
    if (argc < 1 || parse_opts(&o, argc - 1, argv + 1, 0, 1))
        return 2;
    pce_expect ex = {.circuit_id = o.circuit};
    char err[512];
    r1cs_pce p;
    double t0 = timing_now_ms();
    if (pce_open(argv[0], &ex, o.threads, &p, err, sizeof err)) {
        fprintf(stderr, "cuzk pce check: %s\n", err);
        return 1;
    }
    printf("%s: ok (%s, %llu rows, %llu terms; checked in %.2f s on %u threads)\n", argv[0],
           p.circuit_id, (unsigned long long)p.rows,
           (unsigned long long)(p.nnz[0] + p.nnz[1] + p.nnz[2]), (timing_now_ms() - t0) / 1e3,
           o.threads);
    pce_free(&p);
    return 0;
}

static fr *fr_copy(const fr *x, size_t n) {
    fr *y = malloc(n * sizeof(fr) + 1);
    if (y)
        memcpy(y, x, n * sizeof(fr));
    return y;
}

static int same(const r1cs_partition *x, const r1cs_partition *y) {
    size_t rb = x->num_constraints * sizeof(fr), wa = r1cs_bitmap_words(x->num_aux) * 8;
    return x->num_constraints == y->num_constraints && memcmp(x->a, y->a, rb) == 0 &&
           memcmp(x->b, y->b, rb) == 0 && memcmp(x->c, y->c, rb) == 0 &&
           memcmp(x->a_aux_density, y->a_aux_density, wa) == 0 &&
           memcmp(x->b_aux_density, y->b_aux_density, wa) == 0 &&
           memcmp(x->b_input_density, y->b_input_density, r1cs_bitmap_words(x->num_inputs) * 8) ==
               0;
}

/* Classic synthesis of a synthetic witness, then a/b/c from FILE with its
 * input and aux: times of both and whether the bytes are the same. */
static int bench(int argc, char **argv) {
    pce_opts o;
    circuit_name c;
    if (argc < 1 || parse_opts(&o, argc - 1, argv + 1, 0, 1))
        return 2;
    if (!o.circuit || circuit_name_parse(&c, o.circuit)) {
        fprintf(stderr, "%s", usage);
        return 2;
    }
    circuit_witness w;
    if (circuit_name_witness(&w, &c, 1)) {
        fprintf(stderr, "cuzk pce bench: out of memory\n");
        return 1;
    }
    double t0 = timing_now_ms();
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    r1cs_partition classic;
    if (!cs || circuit_name_synthesize(cs, &c, circuit_witness_of(&w, &c)) || r1cs_finish(cs) ||
        r1cs_take_partition(cs, &classic)) {
        fprintf(stderr, "cuzk pce bench: classic synthesis failed\n");
        r1cs_cs_free(cs);
        circuit_witness_free(&w);
        return 1;
    }
    r1cs_cs_free(cs);
    circuit_witness_free(&w);
    double t_classic = timing_now_ms() - t0;
    char err[512];
    r1cs_pce p;
    pce_expect ex = {.circuit_id = o.circuit,
                     .rows = classic.num_constraints,
                     .num_inputs = classic.num_inputs,
                     .num_aux = classic.num_aux};
    t0 = timing_now_ms();
    if (pce_open(argv[0], &ex, o.threads, &p, err, sizeof err)) {
        fprintf(stderr, "cuzk pce bench: %s\n", err);
        r1cs_partition_free(&classic);
        return 1;
    }
    double t_open = timing_now_ms() - t0;
    printf("classic synthesis  %.1f ms (%zu rows)\n", t_classic, classic.num_constraints);
    printf("open + validate    %.1f ms on %u threads\n", t_open, o.threads);
    int rc = 0;
    for (unsigned t = 1; t <= o.threads && rc == 0; t *= 2) {
        for (int rep = 0; rep < 2 && rc == 0; rep++) { /* the first touches the mapping */
            r1cs_partition q;
            fr *in = fr_copy(classic.input, classic.num_inputs),
               *aux = fr_copy(classic.aux, classic.num_aux);
            t0 = timing_now_ms();
            if (!in || !aux || pce_partition(&p, in, aux, t, &q, err, sizeof err)) {
                fprintf(stderr, "cuzk pce bench: %s\n", in && aux ? err : "out of memory");
                free(in);
                free(aux);
                rc = 1;
                break;
            }
            double ms = timing_now_ms() - t0;
            int ok = same(&classic, &q);
            t0 = timing_now_ms(); /* again into the touched buffers: the SpMV alone */
            rc = pce_eval(&p, q.input, q.aux, q.a, q.b, q.c, t) != 0;
            double ms_eval = timing_now_ms() - t0;
            ok = ok && same(&classic, &q);
            printf("pce T=%-3u          partition %.1f ms, SpMV alone %.1f ms (%.1f M rows/s, "
                   "%.1f M terms/s)%s\n",
                   t, ms, ms_eval, 1e-3 * (double)p.rows / ms_eval,
                   1e-3 * (double)(p.nnz[0] + p.nnz[1] + p.nnz[2]) / ms_eval,
                   ok ? ", identical to classic" : ", DIFFERENT");
            rc = rc || !ok;
            r1cs_partition_free(&q);
        }
        if (t < o.threads && 2 * t > o.threads)
            t = o.threads / 2;
    }
    pce_free(&p);
    r1cs_partition_free(&classic);
    return rc;
}

int cmd_pce(int argc, char **argv) {
    if (argc >= 1 && strcmp(argv[0], "gpu") == 0)
        return cmd_pce_gpu(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[0], "bench") == 0)
        return bench(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[0], "build") == 0)
        return build(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[0], "info") == 0)
        return info(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[0], "check") == 0)
        return check(argc - 1, argv + 1);
    fprintf(stderr, "%s", usage);
    return 2;
}
