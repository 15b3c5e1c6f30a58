/* cuzk circuit info / cuzk bench synth: see cmd_circuit.h. */
#include "cli/cmd_circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <sys/resource.h>

#include "filecoin/porep/porep_circuit.h"
#include "filecoin/porep/porep_witness_par.h"
#include "filecoin/post/post_circuit.h"
#include "filecoin/post/post_witness_par.h"
#include "filecoin/proof_types.h"
#include "util/parallel.h"
#include "util/timing.h"

static const char *names = "porep-2k|porep-8m|porep-512m|porep-32g|porep-64g|winning-2k|"
                           "window-2k|winning-32g|window-32g|window-64g (and winning-/window- "
                           "8m, 512m, 64g)";

typedef struct {
    int porep; /* 1: PoRep partition; 0: PoSt */
    porep_shape ps;
    post_shape qs;
    const char *proof_name; /* the registered proof it stands for */
    char stem[160];         /* the published parameter files' stem */
} circuit_id;

/* Parses NAME; 0, or -1 with a message. */
static int parse_name(circuit_id *out, const char *name) {
    const char *dash = strchr(name, '-');
    if (!dash)
        goto bad;
    const fc_sector_shape *shape = NULL;
    unsigned si = 0;
    for (unsigned i = 0; i < FC_SECTOR_SIZES; i++)
        if (strcmp(fc_shape_at(i)->short_name, dash + 1) == 0) {
            shape = fc_shape_at(i);
            si = i;
        }
    if (!shape)
        goto bad;
    const size_t kind = (size_t)(dash - name);
    memset(out, 0, sizeof *out);
    if (kind == 5 && strncmp(name, "porep", 5) == 0) {
        const fc_seal_proof *p = fc_seal_proof_by_id(5 + si); /* V1_1: every version's circuit */
        out->porep = 1;
        out->proof_name = p->name;
        porep_shape_for_sector(&out->ps, shape, p->challenges_per_partition);
        if (!fc_porep_param_stem(out->stem, sizeof out->stem, shape))
            out->stem[0] = 0;
        return 0;
    }
    int winning = kind == 7 && strncmp(name, "winning", 7) == 0;
    int window = kind == 6 && strncmp(name, "window", 6) == 0;
    if (!winning && !window)
        goto bad;
    const fc_post_proof *p = fc_post_proof_by_id(window ? 5 + si : si);
    out->proof_name = p->name;
    post_shape_for_proof(&out->qs, p);
    if (!fc_post_param_stem(out->stem, sizeof out->stem, p))
        out->stem[0] = 0;
    return 0;
bad:
    fprintf(stderr, "cuzk: unknown circuit \"%s\" (one of %s)\n", name, names);
    return -1;
}

static int synthesize(r1cs_cs *cs, const circuit_id *c, const void *witness) {
    return c->porep ? porep_circuit_synthesize(cs, &c->ps, witness)
                    : post_circuit_synthesize(cs, &c->qs, witness);
}

static void describe(const circuit_id *c) {
    if (c->porep) {
        printf("circuit            %s partition: %llu nodes, %u layers, %u challenges, trees R/C "
               "%u-%u-%u\n",
               c->proof_name, (unsigned long long)c->ps.nodes, c->ps.layers, c->ps.challenges,
               c->ps.arity_base, c->ps.arity_sub, c->ps.arity_top);
    } else {
        printf("circuit            %s: %u sectors x %u challenges, %llu leaves, tree R %u-%u-%u\n",
               c->proof_name, c->qs.sectors, c->qs.challenges, (unsigned long long)c->qs.nodes,
               c->qs.arity_base, c->qs.arity_sub, c->qs.arity_top);
    }
    if (c->stem[0])
        printf("parameters         %s.params / .vk\n", c->stem);
}

static unsigned log2_ceil(size_t n) {
    unsigned k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

int cmd_circuit(int argc, char **argv) {
    if (argc != 2 || strcmp(argv[0], "info") != 0) {
        fprintf(stderr, "usage: cuzk circuit info NAME   (NAME: %s)\n", names);
        return 2;
    }
    circuit_id c;
    if (parse_name(&c, argv[1]))
        return 2;
    double t0 = timing_now_ms();
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    if (!cs) {
        fprintf(stderr, "cuzk circuit: out of memory\n");
        return 1;
    }
    int r = synthesize(cs, &c, NULL);
    int e = r1cs_finish(cs);
    r1cs_counts k;
    if (r || e || r1cs_get_counts(cs, &k)) {
        fprintf(stderr, "cuzk circuit: synthesis failed: %s\n",
                r ? "invalid shape" : r1cs_error_message(cs));
        r1cs_cs_free(cs);
        return 1;
    }
    double ms = timing_now_ms() - t0;
    describe(&c);
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

/* ---- bench synth: a synthetic witness ------------------------------------- */

static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_frs(fr *out, size_t n, uint64_t *s) {
    for (size_t i = 0; i < n; i++) {
        uint8_t b[32];
        for (int j = 0; j < 4; j++) {
            uint64_t v = rng_next(s);
            memcpy(b + 8 * j, &v, 8);
        }
        fr_from_bytes_le_reduce(&out[i], b);
    }
}

/* Path positions below each level's arity, per path of `levels` levels. */
static void rand_index(uint32_t *out, size_t n, const por_shape *t, uint64_t *s) {
    const unsigned lv = por_shape_levels(t);
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)(rng_next(s) % por_shape_arity(t, (unsigned)(i % lv)));
}

/* Everything the witness points to, in one block. */
typedef struct {
    porep_witness pw;
    post_witness qw;
    void *mem;
} synth_witness;

static int make_witness(synth_witness *w, const circuit_id *c, uint64_t seed) {
    memset(w, 0, sizeof *w);
    uint64_t s = seed;
    if (c->porep) {
        porep_witness_sizes z;
        por_shape rc, d;
        porep_witness_sizes_get(&c->ps, &z);
        porep_shape_tree_rc(&c->ps, &rc);
        porep_shape_tree_d(&c->ps, &d);
        size_t nfr = z.data_leaf + z.d_sib + z.rows + z.c_sib + z.r_sib;
        size_t nu32 = z.d_index + z.c_index + z.r_index;
        char *m = malloc(nfr * sizeof(fr) + z.challenge * 8 + nu32 * 4);
        if (!m)
            return -1;
        fr *f = (fr *)m;
        uint64_t *ch = (uint64_t *)(f + nfr);
        uint32_t *u = (uint32_t *)(ch + z.challenge);
        rand_frs(f, nfr, &s);
        for (size_t i = 0; i < z.challenge; i++)
            ch[i] = 1 + rng_next(&s) % (c->ps.nodes - 1);
        rand_index(u, z.d_index, &d, &s);
        rand_index(u + z.d_index, z.c_index, &rc, &s);
        rand_index(u + z.d_index + z.c_index, z.r_index, &rc, &s);
        fr k[5];
        rand_frs(k, 5, &s);
        w->pw = (porep_witness){k[0],
                                k[1],
                                k[2],
                                k[3],
                                k[4],
                                ch,
                                f,
                                u,
                                f + z.data_leaf,
                                f + z.data_leaf + z.d_sib,
                                u + z.d_index,
                                f + z.data_leaf + z.d_sib + z.rows,
                                u + z.d_index + z.c_index,
                                f + z.data_leaf + z.d_sib + z.rows + z.c_sib};
        /* c_x rows = the labels of the parents' rows, as in a real witness
         * (the parallel witness checks them) */
        porep_witness_fix_labels(&c->ps, f + z.data_leaf + z.d_sib, &k[0], ch);
        w->mem = m;
        return 0;
    }
    por_shape t;
    post_shape_tree(&c->qs, &t);
    const size_t S = c->qs.sectors, C = c->qs.challenges, lv = por_shape_levels(&t),
                 sb = por_shape_siblings(&t);
    size_t nfr = 3 * S + S * C * (1 + sb);
    char *m = malloc(nfr * sizeof(fr) + S * C * lv * 4);
    if (!m)
        return -1;
    fr *f = (fr *)m;
    uint32_t *u = (uint32_t *)(f + nfr);
    rand_frs(f, nfr, &s);
    rand_index(u, S * C * lv, &t, &s);
    w->qw = (post_witness){S, f, f + S, f + 2 * S, f + 3 * S, u, f + 3 * S + S * C, NULL};
    w->mem = m;
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
static int bench_witness(const circuit_id *c, const void *wp, unsigned threads, unsigned reps) {
    double t0 = timing_now_ms();
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    if (!cs || synthesize(cs, c, NULL) || r1cs_finish(cs)) {
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
        int r = c->porep ? porep_witness_generate(&c->ps, wp, segs, nseg, k.inputs, k.aux, threads,
                                                  in, aux, err, sizeof err)
                         : post_witness_generate(&c->qs, wp, segs, nseg, k.inputs, k.aux, threads,
                                                 in, aux, err, sizeof err);
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
                        "  proving-mode synthesis of one partition, synthetic witness; with\n"
                        "  --witness, witness generation alone on T threads (default: all CPUs)";
    unsigned reps = 3, threads = 0;
    int witness = 0;
    if (argc < 1) {
        fprintf(stderr, "%s\n", usage);
        return 2;
    }
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
    circuit_id c;
    if (parse_name(&c, argv[0]))
        return 2;
    synth_witness w;
    double t0 = timing_now_ms();
    if (make_witness(&w, &c, 1)) {
        fprintf(stderr, "cuzk bench synth: out of memory for the witness\n");
        return 1;
    }
    describe(&c);
    printf("synthetic witness  %.1f ms\n", timing_now_ms() - t0);
    const void *wp = c.porep ? (const void *)&w.pw : (const void *)&w.qw;
    if (witness) {
        int r = bench_witness(&c, wp, threads, reps);
        free(w.mem);
        return r;
    }
    int rc = 0;
    for (unsigned rep = 0; rep < reps && rc == 0; rep++) {
        double ts = timing_now_ms();
        r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
        if (!cs || synthesize(cs, &c, wp) || r1cs_finish(cs)) {
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
    free(w.mem);
    return rc;
}
