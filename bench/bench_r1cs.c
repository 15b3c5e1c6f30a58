/* Synthesis throughput and memory of the r1cs constraint-system modes.
 *
 * The circuit is synthetic but shaped like the gadgets to come: blocks of 128
 * rows, each one 64-bit decomposition (64 booleanity rows (1 - b) * b = 0 and
 * a 64-term packing row, whose LC spills to the heap once and is reused) and
 * 63 links of a multiplication chain w = (x + k) * y with fresh aux values; a
 * namespace per block (formatted only when checking).  The circuit computes
 * its values whenever the mode asks for them, as a real one would.
 *
 * For each size, mode (prove, count, check, record) and hint (off: buffers
 * grow by doubling; on: exact sizes from a counting run) it prints min /
 * median / max ms over BENCH_REPS runs (default 3) of cs_new + synthesize +
 * taking the result, million rows per second at the median, peak heap bytes
 * per row while synthesizing and bytes per row of the result (partition or
 * CSR matrices).
 * usage: bench_r1cs [lo-hi] [filter]   lo-hi: log2 sizes (default 16-20);
 *        filter: run only "mode-hint" names containing it, e.g. prove, -on */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "field/fr.h"
#include "r1cs/cs.h"
#include "util/timing.h"

typedef struct {
    size_t target; /* circuit constraints, rounded up to a block */
} bench_ctx;

static fr pow2[64];

static int synth(r1cs_cs *cs, void *vctx) {
    const bench_ctx *ctx = vctx;
    const int values = r1cs_has_values(cs);
    r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, c = R1CS_LC_INIT, pack = R1CS_LC_INIT;
    fr xv, yv, k, t, zero;
    fr_set_zero(&zero);
    fr_set_u64(&xv, 5);
    fr_set_u64(&yv, 7);
    fr_set_u64(&k, 3);
    r1cs_var x = r1cs_alloc_input(cs, &xv), y = r1cs_alloc(cs, &yv);
    uint64_t word = 0x243f6a8885a308d3ULL;
    for (size_t made = 0, block = 0; made < ctx->target; block++) {
        r1cs_push(cs, "block %zu", block);
        /* a 64-bit decomposition */
        r1cs_lc_clear(&pack);
        for (int i = 0; i < 64; i++) {
            r1cs_var bv = r1cs_alloc(cs, (word >> i) & 1 ? &FR_ONE : &zero);
            r1cs_lc_set_var(&a, R1CS_ONE);
            r1cs_lc_sub_var(&a, bv);
            r1cs_lc_set_var(&b, bv);
            r1cs_lc_clear(&c);
            r1cs_enforce(cs, "boolean", &a, &b, &c);
            r1cs_lc_add_term(&pack, bv, &pow2[i]);
        }
        fr packed;
        fr_set_u64(&packed, word);
        r1cs_var pv = r1cs_alloc(cs, &packed);
        r1cs_lc_set_var(&b, R1CS_ONE);
        r1cs_lc_set_var(&c, pv);
        r1cs_enforce(cs, "pack", &pack, &b, &c);
        word = word * 6364136223846793005ULL + 1442695040888963407ULL;
        /* 63 chained products */
        for (int i = 0; i < 63; i++) {
            fr wv = {{0}};
            if (values) {
                fr_add(&t, &xv, &k);
                fr_mul(&wv, &t, &yv);
            }
            r1cs_var w = r1cs_alloc(cs, &wv);
            r1cs_lc_set_var(&a, x);
            r1cs_lc_add_term(&a, R1CS_ONE, &k);
            r1cs_lc_set_var(&b, y);
            r1cs_lc_set_var(&c, w);
            r1cs_enforce(cs, "product", &a, &b, &c);
            x = y;
            xv = yv;
            y = w;
            yv = wv;
        }
        r1cs_pop(cs);
        made += 128;
    }
    r1cs_lc_free(&a);
    r1cs_lc_free(&b);
    r1cs_lc_free(&c);
    r1cs_lc_free(&pack);
    return 0;
}

typedef struct {
    const char *name;
    r1cs_mode mode;
    unsigned flags;
} mode_spec;

static const mode_spec modes[] = {{"prove", R1CS_PROVE, 0},
                                  {"count", R1CS_COUNT, 0},
                                  {"check", R1CS_COUNT, R1CS_VALUES},
                                  {"record", R1CS_RECORD, 0}};

typedef struct {
    double ms;
    size_t peak, result, rows;
} run_result;

static int run_once(const mode_spec *m, const r1cs_hint *hint, bench_ctx *ctx, run_result *out) {
    double t0 = timing_now_ms();
    r1cs_cs *cs = r1cs_cs_new(m->mode, m->flags, hint);
    if (!cs || r1cs_synthesize(cs, synth, ctx) != R1CS_OK) {
        fprintf(stderr, "%s: %s\n", m->name, cs ? r1cs_error_message(cs) : "out of memory");
        r1cs_cs_free(cs);
        return 1;
    }
    r1cs_partition p = {0};
    r1cs_matrices mx = {0};
    out->result = 0;
    if (m->mode == R1CS_PROVE) {
        r1cs_take_partition(cs, &p);
        out->result = r1cs_partition_bytes(&p);
    } else if (m->mode == R1CS_RECORD) {
        r1cs_take_matrices(cs, &mx);
        out->result = r1cs_matrices_bytes(&mx);
    }
    out->ms = timing_now_ms() - t0;
    r1cs_counts k;
    r1cs_get_counts(cs, &k);
    if (m->flags & R1CS_VALUES && !k.satisfied)
        fprintf(stderr, "%s: unsatisfied at %s\n", m->name, k.unsatisfied_path);
    out->rows = k.constraints_total;
    out->peak = r1cs_peak_bytes(cs);
    r1cs_partition_free(&p);
    r1cs_matrices_free(&mx);
    r1cs_cs_free(cs);
    return 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    unsigned lo = 16, hi = 20;
    if (argc > 1 && sscanf(argv[1], "%u-%u", &lo, &hi) < 2)
        hi = lo;
    const char *filter = argc > 2 ? argv[2] : "";
    if (hi > 28 || lo > hi) {
        fprintf(stderr, "usage: bench_r1cs [lo-hi] [filter] (log2 of constraints <= 28)\n");
        return 2;
    }
    const char *env = getenv("BENCH_REPS");
    int reps = env ? atoi(env) : 3;
    if (reps < 1 || reps > 64)
        reps = 3;
    pow2[0] = FR_ONE;
    for (int i = 1; i < 64; i++)
        fr_add(&pow2[i], &pow2[i - 1], &pow2[i - 1]);

    printf("%-7s %-4s %9s %10s %10s %10s %9s %11s %13s\n", "mode", "hint", "rows", "min ms",
           "median ms", "max ms", "Mrows/s", "peak B/row", "result B/row");
    for (unsigned lg = lo; lg <= hi; lg++) {
        bench_ctx ctx = {(size_t)1 << lg};
        /* the hint an engine would hold for this circuit shape */
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
        r1cs_counts k;
        if (!cs || r1cs_synthesize(cs, synth, &ctx) != R1CS_OK ||
            r1cs_get_counts(cs, &k) != R1CS_OK) {
            fprintf(stderr, "counting failed\n");
            return 1;
        }
        r1cs_cs_free(cs);
        const r1cs_hint hint = {k.constraints, k.inputs, k.aux, k.nnz_a, k.nnz_b, k.nnz_c};
        for (size_t mi = 0; mi < sizeof modes / sizeof modes[0]; mi++) {
            for (int h = 0; h < 2; h++) {
                char name[32];
                snprintf(name, sizeof name, "%s-%s", modes[mi].name, h ? "on" : "off");
                if (!strstr(name, filter))
                    continue;
                double t[64];
                run_result r = {0};
                for (int i = 0; i < reps; i++) {
                    if (run_once(&modes[mi], h ? &hint : NULL, &ctx, &r))
                        return 1;
                    t[i] = r.ms;
                }
                qsort(t, (size_t)reps, sizeof t[0], cmp_double);
                double med = t[reps / 2];
                printf("%-7s %-4s %9zu %10.1f %10.1f %10.1f %9.2f %11.1f %13.1f\n", modes[mi].name,
                       h ? "on" : "off", r.rows, t[0], med, t[reps - 1], (double)r.rows / med / 1e3,
                       (double)r.peak / (double)r.rows, (double)r.result / (double)r.rows);
            }
        }
    }
    return 0;
}
