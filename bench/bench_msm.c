/* MSM benchmark: G1 / G2, random or bit-heavy scalars, any thread counts.
 *
 * usage: bench_msm [g1|g2] [log2 min] [log2 max] [threads,threads,...] [random|bitheavy|both]
 *   defaults: g1 12 20 1,2 both.  Env: BENCH_REPS (default 3), MSM_WINDOW (fixed c).
 * Prints min / median / max ms and the per-phase split of the median run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msm/msm.h"
#include "util/parallel.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next64(void) {
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* bit-heavy: 45% zeros, 45% ones, 10% random, like a SHA-256 witness */
static void make_scalars(uint8_t *s, size_t n, int bit_heavy) {
    for (size_t i = 0; i < n; i++) {
        uint8_t *k = s + 32 * i;
        uint64_t r = next64() % 100;
        memset(k, 0, 32);
        if (bit_heavy && r < 90) {
            k[0] = (uint8_t)(r >= 45);
            continue;
        }
        uint8_t b[32];
        for (int j = 0; j < 32; j++)
            b[j] = (uint8_t)next64();
        fr f;
        fr_from_bytes_le_reduce(&f, b);
        fr_to_bytes_le(k, &f);
    }
}

static int cmp(const void *a, const void *b) {
    double x = ((const msm_stats *)a)->total_ms, y = ((const msm_stats *)b)->total_ms;
    return (x > y) - (x < y);
}

static void report(const char *g, unsigned lg, unsigned threads, const char *kind, msm_stats *st,
                   int reps) {
    qsort(st, reps, sizeof *st, cmp);
    msm_stats *m = &st[reps / 2];
    printf("%s 2^%-2u t=%u %-8s %10.1f %10.1f %10.1f   c=%-2u zero/one/other=%zu/%zu/%zu "
           "classify %.1f ones %.1f buckets %.1f reduce %.1f (task-summed ms)\n",
           g, lg, threads, kind, st[0].total_ms, m->total_ms, st[reps - 1].total_ms, m->window_bits,
           m->n_zero, m->n_one, m->n_other, m->classify_ms, m->ones_ms, m->buckets_ms,
           m->reduce_ms);
    fflush(stdout);
}

int main(int argc, char **argv) {
    int g2 = argc > 1 && strcmp(argv[1], "g2") == 0;
    unsigned lo = argc > 2 ? (unsigned)atoi(argv[2]) : 12,
             hi = argc > 3 ? (unsigned)atoi(argv[3]) : (g2 ? 18 : 20);
    const char *tlist = argc > 4 ? argv[4] : "1,2";
    const char *kinds = argc > 5 ? argv[5] : "both";
    int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 3;
    if (reps < 1 || reps > 64)
        reps = 3;
    msm_config base = msm_config_default(1);
    if (getenv("MSM_WINDOW"))
        base.window_bits = (unsigned)atoi(getenv("MSM_WINDOW"));
    size_t nmax = (size_t)1 << hi;
    printf("bench_msm %s: bases 2^%u..2^%u, reps %d, window %s\n", g2 ? "G2" : "G1", lo, hi, reps,
           base.window_bits ? "fixed" : "auto");
    printf("%-26s %10s %10s %10s\n", "size threads scalars", "min ms", "median", "max");
    /* bases: a chain of additions from a random multiple, one inversion in all */
    void *bases;
    uint8_t *scalars = malloc(32 * nmax);
    if (g2) {
        g2_jac *j = malloc(nmax * sizeof *j), cur, step;
        g2_affine g;
        g2_affine_generator(&g);
        g2_jac_from_affine(&cur, &g);
        fr k;
        fr_set_u64(&k, next64());
        g2_jac_mul_vartime(&step, &cur, &k);
        for (size_t i = 0; i < nmax; i++) {
            g2_jac_add_vartime(&cur, &cur, &step);
            j[i] = cur;
        }
        bases = malloc(nmax * sizeof(g2_affine));
        g2_jac_batch_to_affine(bases, j, nmax);
        free(j);
    } else {
        g1_jac *j = malloc(nmax * sizeof *j), cur, step;
        g1_affine g;
        g1_affine_generator(&g);
        g1_jac_from_affine(&cur, &g);
        fr k;
        fr_set_u64(&k, next64());
        g1_jac_mul_vartime(&step, &cur, &k);
        for (size_t i = 0; i < nmax; i++) {
            g1_jac_add_vartime(&cur, &cur, &step);
            j[i] = cur;
        }
        bases = malloc(nmax * sizeof(g1_affine));
        g1_jac_batch_to_affine(bases, j, nmax);
        free(j);
    }
    msm_stats st[64];
    for (unsigned lg = lo; lg <= hi; lg++) {
        size_t n = (size_t)1 << lg;
        for (int heavy = 0; heavy < 2; heavy++) {
            if ((heavy && strcmp(kinds, "random") == 0) ||
                (!heavy && strcmp(kinds, "bitheavy") == 0))
                continue;
            make_scalars(scalars, n, heavy);
            char tl[64];
            snprintf(tl, sizeof tl, "%s", tlist);
            for (char *tok = strtok(tl, ","); tok; tok = strtok(NULL, ",")) {
                msm_config cfg = base;
                cfg.threads = (unsigned)atoi(tok);
                for (int r = 0; r < reps; r++) {
                    msm_status rc;
                    if (g2) {
                        g2_jac out;
                        rc = msm_g2(&out, bases, scalars, n, &cfg, &st[r], NULL);
                    } else {
                        g1_jac out;
                        rc = msm_g1(&out, bases, scalars, n, &cfg, &st[r], NULL);
                    }
                    if (rc != MSM_OK) {
                        fprintf(stderr, "msm failed: %s\n", msm_status_str(rc));
                        return 1;
                    }
                }
                report(g2 ? "G2" : "G1", lg, cfg.threads, heavy ? "bitheavy" : "random", st, reps);
            }
        }
    }
    free(bases);
    free(scalars);
    return 0;
}
