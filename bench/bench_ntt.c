/* NTT benchmarks: forward / inverse / coset transforms of 2^log_n elements.
 *
 * Prints min / median / max milliseconds per transform over BENCH_REPS
 * repetitions (default 5, 3 from 2^22 up), and "ns/bfly": the median's
 * thread-seconds per radix-2 butterfly, (n/2) log n of them, so that sizes
 * and thread counts compare on one scale (a butterfly is ~28 ns of field
 * arithmetic on the reference machine).
 *
 * usage: bench_ntt [sizes] [threads] [ops]
 *   sizes    log2 sizes, comma-separated or a range: 16,20,22,24 (default) or 16-24
 *   threads  comma-separated thread counts (default 1,2)
 *   ops      comma-separated subset of fwd,fwd_nr,fwd_rn,inv,inv_nr,inv_rn,coset,
 *            coset_inv,coset_nr,coset_inv_rn,bitrev,distribute (default: all but the last four)
 * env: BENCH_REPS; CUZK_NTT_LOG_BLOCK, CUZK_NTT_LOG_COL, CUZK_NTT_COLS,
 *      CUZK_NTT_LOG_SINGLE override the domain's pass tuning (ntt.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "field/constants.h"
#include "ntt/ntt.h"

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef enum { OP_NTT, OP_BITREV, OP_DISTRIBUTE } op_kind;

typedef struct {
    const char *name;
    op_kind kind;
    int inverse, coset;
    ntt_order order;
    int by_default;
} op;

static const op ops[] = {
    {"fwd", OP_NTT, 0, 0, NTT_NN, 1},       {"fwd_nr", OP_NTT, 0, 0, NTT_NR, 1},
    {"fwd_rn", OP_NTT, 0, 0, NTT_RN, 0},    {"inv", OP_NTT, 1, 0, NTT_NN, 1},
    {"inv_nr", OP_NTT, 1, 0, NTT_NR, 0},    {"inv_rn", OP_NTT, 1, 0, NTT_RN, 1},
    {"coset", OP_NTT, 0, 1, NTT_NN, 1},     {"coset_inv", OP_NTT, 1, 1, NTT_NN, 1},
    {"coset_nr", OP_NTT, 0, 1, NTT_NR, 0},  {"coset_inv_rn", OP_NTT, 1, 1, NTT_RN, 0},
    {"bitrev", OP_BITREV, 0, 0, NTT_NN, 0}, {"distribute", OP_DISTRIBUTE, 0, 0, NTT_NN, 0},
};
#define N_OPS (sizeof ops / sizeof ops[0])

/* "a,b,c" or "a-b" into out[]; returns the count. */
static int parse_list(const char *s, unsigned *out, int max) {
    int count = 0;
    char *end;
    while (*s && count < max) {
        unsigned long a = strtoul(s, &end, 10);
        if (end == s)
            break;
        if (*end == '-') {
            unsigned long b = strtoul(end + 1, &end, 10);
            for (unsigned long v = a; v <= b && count < max; v++)
                out[count++] = (unsigned)v;
        } else {
            out[count++] = (unsigned)a;
        }
        s = *end == ',' ? end + 1 : end;
    }
    return count;
}

static void env_tune(unsigned *field, const char *name) {
    const char *v = getenv(name);
    if (v)
        *field = (unsigned)atoi(v);
}

static int run_op(const op *o, fr *a, const ntt_domain *d, const fr *g, unsigned threads) {
    switch (o->kind) {
    case OP_BITREV:
        ntt_bit_reverse(a, d->log_n, threads);
        return 0;
    case OP_DISTRIBUTE:
        ntt_distribute_powers(a, d->n, g, threads);
        return 0;
    case OP_NTT:
        break;
    }
    ntt_status st;
    if (o->coset)
        st = o->inverse ? ntt_coset_inverse(a, d, g, o->order, threads)
                        : ntt_coset_forward(a, d, g, o->order, threads);
    else
        st = o->inverse ? ntt_inverse(a, d, o->order, threads)
                        : ntt_forward(a, d, o->order, threads);
    if (st != NTT_OK) {
        fprintf(stderr, "%s: %s\n", o->name, ntt_status_str(st));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    unsigned sizes[32] = {16, 20, 22, 24}, threads[32] = {1, 2};
    int n_sizes = 4, n_threads = 2;
    int selected[N_OPS];
    for (size_t i = 0; i < N_OPS; i++)
        selected[i] = ops[i].by_default;
    if (argc > 1)
        n_sizes = parse_list(argv[1], sizes, 32);
    if (argc > 2)
        n_threads = parse_list(argv[2], threads, 32);
    if (argc > 3)
        for (size_t i = 0; i < N_OPS; i++) {
            const char *p = strstr(argv[3], ops[i].name);
            size_t len = strlen(ops[i].name);
            /* whole names only: "fwd" must not match inside "fwd_nr" */
            while (p && ((p != argv[3] && p[-1] != ',') || (p[len] && p[len] != ',')))
                p = strstr(p + 1, ops[i].name);
            selected[i] = p != NULL;
        }
    const char *reps_env = getenv("BENCH_REPS");

    fr g;
    fr_set_u64(&g, FR_GENERATOR);
    printf("%-13s %5s %7s %11s %11s %11s %8s   (ms per transform)\n", "op", "log_n", "threads",
           "min", "median", "max", "ns/bfly");
    for (int si = 0; si < n_sizes; si++) {
        unsigned log_n = sizes[si];
        ntt_domain d;
        ntt_status st = ntt_domain_init(&d, log_n, threads[n_threads - 1]);
        if (st != NTT_OK) {
            fprintf(stderr, "2^%u: %s\n", log_n, ntt_status_str(st));
            return 1;
        }
        env_tune(&d.tune.log_block, "CUZK_NTT_LOG_BLOCK");
        env_tune(&d.tune.log_col, "CUZK_NTT_LOG_COL");
        env_tune(&d.tune.cols, "CUZK_NTT_COLS");
        env_tune(&d.tune.log_single, "CUZK_NTT_LOG_SINGLE");
        fr *a = malloc(d.n * sizeof(fr));
        if (!a) {
            fprintf(stderr, "2^%u: out of memory\n", log_n);
            return 1;
        }
        uint64_t x = 0x9e3779b97f4a7c15ULL;
        for (size_t i = 0; i < d.n; i++) { /* any field elements; touches every page */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            fr_set_u64(&a[i], x);
        }
        int reps = reps_env ? atoi(reps_env) : log_n >= 22 ? 3 : 5;
        if (reps < 1)
            reps = 1;
        if (reps > 64)
            reps = 64;
        for (size_t oi = 0; oi < N_OPS; oi++) {
            if (!selected[oi])
                continue;
            for (int ti = 0; ti < n_threads; ti++) {
                double t[64];
                if (log_n < 22 && run_op(&ops[oi], a, &d, &g, threads[ti])) /* warm up */
                    return 1;
                for (int r = 0; r < reps; r++) {
                    double t0 = now_ms();
                    if (run_op(&ops[oi], a, &d, &g, threads[ti]))
                        return 1;
                    t[r] = now_ms() - t0;
                }
                qsort(t, reps, sizeof t[0], cmp_double);
                double bfly = (double)(d.n / 2) * log_n;
                printf("%-13s %5u %7u %11.2f %11.2f %11.2f %8.1f\n", ops[oi].name, log_n,
                       threads[ti], t[0], t[reps / 2], t[reps - 1],
                       t[reps / 2] * 1e6 * threads[ti] / bfly);
                fflush(stdout);
            }
        }
        free(a);
        ntt_domain_destroy(&d);
    }
    return 0;
}
