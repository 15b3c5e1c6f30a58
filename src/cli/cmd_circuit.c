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

static int make_witness(synth_witness *w, const circuit_name *c, uint64_t seed) {
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
    synth_witness w;
    double t0 = timing_now_ms();
    if (make_witness(&w, &c, 1)) {
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
    free(w.mem);
    return rc;
}
