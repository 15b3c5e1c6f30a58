/* GPU benchmarks (CUDA events, medians): G1/G2 MSM with resident bases
 * (random and 90%-bit scalars), NTT forward/inverse, the H step.
 *   bench_cuda msm LOGMIN LOGMAX [random|bits90|bits100|both|all] [g1|g2]
 *     bits90: 45% 0, 45% 1, 10% random; bits100: 50% 0, 50% 1; both = random
 *     and bits90; all = the three
 *   bench_cuda ntt LOGMIN LOGMAX
 *   bench_cuda h LOG
 *   bench_cuda field: Fp and Fr multiply throughput, PTX chains vs portable C
 * BENCH_REPS (default 5) repetitions; CUZK_MSM_WINDOW (gpu_msm_window) forces the window.
 * BENCH_SWITCH=name=v1/v2[/..]: each measurement once per value of the switch,
 * in turn in the same process (an A/B without remaking the bases); a value
 * may set several switches (name=v,name2=v2).
 * Device times exclude host copies (the data is resident, as sppark's
 * anchor figures); the scalar upload is printed apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CUZK_HAVE_CUDA
#include "cuda/cuda_device.h"
#include "cuda/cuda_gpu.h"
#include "util/parallel.h"
#include "util/switches.h"
#include "util/timing.h"

/* BENCH_SWITCH: the values measured in turn, separated by '/'; each value
 * sets one or more switches ("name=v" pieces joined by ','; a bare "v" is for
 * the name before it), the others named anywhere in the list back at their
 * starting values: "gpu_msm_red_part=0/5/6",
 * "gpu_msm_red_levels=1,gpu_msm_red_part=4/0,0".  One pass with the switches as
 * they are when unset or malformed (with a message). */
#define BS_VALS 12
#define BS_SETS 4
static int g_nval = 1, g_nset[BS_VALS];
static int g_id[BS_VALS][BS_SETS];
static long g_val[BS_VALS][BS_SETS];
static int g_used[SW_COUNT];
static long g_start[SW_COUNT];

static void parse_bench_switch(void) {
    const char *e = getenv("BENCH_SWITCH");
    if (!e || !*e)
        return;
    char buf[512], err[128];
    snprintf(buf, sizeof buf, "%s", e);
    int n = 0, id = -1;
    char *sv1, *sv2;
    for (char *t = strtok_r(buf, "/", &sv1); t; t = strtok_r(NULL, "/", &sv1)) {
        if (n == BS_VALS) {
            fprintf(stderr, "bench_cuda: BENCH_SWITCH: at most %d values\n", BS_VALS);
            goto bad;
        }
        g_nset[n] = 0;
        for (char *p = strtok_r(t, ",", &sv2); p; p = strtok_r(NULL, ",", &sv2)) {
            char *eq = strchr(p, '='), *v = p;
            if (eq) {
                *eq = 0;
                id = switch_find(p);
                v = eq + 1;
            }
            if (id < 0 || g_nset[n] == BS_SETS) {
                fprintf(stderr, "bench_cuda: BENCH_SWITCH=%s: want name=v1/v2[,name2=v]\n", e);
                goto bad;
            }
            if (switch_parse_value((switch_id)id, v, &g_val[n][g_nset[n]], err, sizeof err)) {
                fprintf(stderr, "bench_cuda: BENCH_SWITCH: %s\n", err);
                goto bad;
            }
            g_id[n][g_nset[n]++] = id;
            if (!g_used[id]) {
                g_used[id] = 1;
                g_start[id] = switch_get((switch_id)id);
            }
        }
        n++;
    }
    g_nval = n ? n : 1;
    return;
bad: /* as if unset */
    g_nval = 1;
    memset(g_nset, 0, sizeof g_nset);
    memset(g_used, 0, sizeof g_used);
}

/* Sets value v of BENCH_SWITCH; the tag names it for the output line. */
static const char *bench_switch_apply(int v, char *tag, size_t cap) {
    tag[0] = 0;
    if (g_nval == 1 && g_nset[0] == 0)
        return tag;
    char err[128];
    for (int id = 0; id < SW_COUNT; id++)
        if (g_used[id] && switch_set((switch_id)id, g_start[id], err, sizeof err))
            fprintf(stderr, "bench_cuda: %s\n", err);
    size_t len = 0;
    for (int k = 0; k < g_nset[v]; k++) {
        if (switch_set((switch_id)g_id[v][k], g_val[v][k], err, sizeof err))
            fprintf(stderr, "bench_cuda: %s\n", err);
        len += (size_t)snprintf(tag + len, len < cap ? cap - len : 0, "%s%s=%ld", k ? "," : " [",
                                switch_describe((switch_id)g_id[v][k])->name, g_val[v][k]);
        if (len >= cap)
            break;
    }
    if (len + 2 <= cap)
        snprintf(tag + len, cap - len, "]");
    return tag;
}

static unsigned reps(void) {
    const char *e = getenv("BENCH_REPS");
    int r = e ? atoi(e) : 5;
    return r > 0 ? (unsigned)r : 5;
}

static uint64_t rng = 0x1234567;
static uint64_t mix(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint64_t rnd(void) { return mix(&rng); }

static fr rand_fr(void) {
    uint8_t b[32];
    for (int i = 0; i < 32; i += 8) {
        uint64_t x = rnd();
        memcpy(b + i, &x, 8);
    }
    fr r;
    fr_from_bytes_le_reduce(&r, b);
    return r;
}

/* n random elements, filled in parallel from per-chunk seeds (one at a time,
 * a 2^27 H step's three inputs took most of the benchmark's wall time). */
typedef struct {
    fr *x;
    size_t n;
    uint64_t seed;
} fill_job;
#define FCHUNK 65536
static void fill_task(void *ctx, size_t task, unsigned worker) {
    fill_job *j = ctx;
    (void)worker;
    uint64_t st = j->seed ^ (task * 0xd1b54a32d192ed03ULL);
    size_t b = task * FCHUNK, e = b + FCHUNK < j->n ? b + FCHUNK : j->n;
    for (size_t i = b; i < e; i++) {
        uint8_t buf[32];
        for (int k = 0; k < 32; k += 8) {
            uint64_t z = mix(&st);
            memcpy(buf + k, &z, 8);
        }
        fr_from_bytes_le_reduce(&j->x[i], buf);
    }
}
static void fill_fr(fr *x, size_t n) {
    fill_job j = {x, n, rnd()};
    par_run(par_cpu_count(), (n + FCHUNK - 1) / FCHUNK, fill_task, &j);
}

static int cmp_f(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float median(float *v, unsigned n) {
    qsort(v, n, sizeof *v, cmp_f);
    return v[n / 2];
}

/* 2^20 distinct points (chunked walks P + iQ), tiled up to n. */
typedef struct {
    g1_affine *g1;
    g2_affine *g2;
    size_t n;
    fr *starts;
    fr q;
} pts_job;
#define PCHUNK 16384
static void pts_task(void *ctx, size_t task, unsigned worker) {
    pts_job *j = ctx;
    (void)worker;
    size_t s = task * PCHUNK, e = s + PCHUNK < j->n ? s + PCHUNK : j->n;
    if (j->g1) {
        g1_affine gen;
        g1_affine_generator(&gen);
        g1_jac p, q, *tmp = malloc((e - s) * sizeof *tmp);
        g1_jac_from_affine(&p, &gen);
        g1_jac_from_affine(&q, &gen);
        g1_jac_mul_vartime(&q, &q, &j->q);
        g1_jac_mul_vartime(&p, &p, &j->starts[task]);
        for (size_t i = s; i < e; i++) {
            tmp[i - s] = p;
            g1_jac_add_vartime(&p, &p, &q);
        }
        g1_jac_batch_to_affine(j->g1 + s, tmp, e - s);
        free(tmp);
    } else {
        g2_affine gen;
        g2_affine_generator(&gen);
        g2_jac p, q, *tmp = malloc((e - s) * sizeof *tmp);
        g2_jac_from_affine(&p, &gen);
        g2_jac_from_affine(&q, &gen);
        g2_jac_mul_vartime(&q, &q, &j->q);
        g2_jac_mul_vartime(&p, &p, &j->starts[task]);
        for (size_t i = s; i < e; i++) {
            tmp[i - s] = p;
            g2_jac_add_vartime(&p, &p, &q);
        }
        g2_jac_batch_to_affine(j->g2 + s, tmp, e - s);
        free(tmp);
    }
}

static void *make_points(size_t n, int g2) {
    size_t uniq = n < ((size_t)1 << 20) ? n : ((size_t)1 << 20);
    size_t sz = g2 ? sizeof(g2_affine) : sizeof(g1_affine);
    char *out = malloc(n * sz);
    if (!out)
        return NULL;
    size_t chunks = (uniq + PCHUNK - 1) / PCHUNK;
    pts_job j = {g2 ? NULL : (g1_affine *)out, g2 ? (g2_affine *)out : NULL, uniq,
                 malloc(chunks * sizeof(fr)), rand_fr()};
    for (size_t i = 0; i < chunks; i++)
        j.starts[i] = rand_fr();
    par_run(par_cpu_count(), chunks, pts_task, &j);
    free(j.starts);
    for (size_t i = uniq; i < n; i += uniq)
        memcpy(out + i * sz, out, (n - i < uniq ? n - i : uniq) * sz);
    return out;
}

enum { K_RANDOM, K_BITS90, K_BITS100, K_COUNT };
static const char *const kind_names[K_COUNT] = {"random", "bits90", "bits100"};

static void make_scalars(uint8_t *sc, size_t n, int kind) {
    for (size_t i = 0; i < n; i++) {
        fr x = rand_fr();
        unsigned p = (unsigned)(rnd() % 100);
        if (kind == K_BITS100)
            p = p < 50 ? 0 : 50;
        if (kind != K_RANDOM && p < 45)
            fr_set_zero(&x);
        else if (kind != K_RANDOM && p < 90)
            fr_set_one(&x);
        fr_to_bytes_le(sc + 32 * i, &x);
    }
}

static int kind_wanted(const char *which, int kind) {
    if (!strcmp(which, "all") || !strcmp(which, kind_names[kind]))
        return 1;
    return !strcmp(which, "both") && kind != K_BITS100;
}

static int bench_msm(cuda_ctx *c, unsigned lo, unsigned hi, const char *which, int g2) {
    size_t nmax = (size_t)1 << hi;
    double t0 = timing_now_ms();
    void *pts = make_points(nmax, g2);
    uint8_t *sc = malloc(32 * nmax);
    if (!pts || !sc) {
        fprintf(stderr, "bench_cuda: out of host memory\n");
        return 1;
    }
    cuda_bases *b;
    cuda_error e;
    cuda_status s = g2 ? cuda_bases_upload_g2(c, &b, pts, nmax, &e)
                       : cuda_bases_upload_g1(c, &b, pts, nmax, &e);
    if (s) {
        fprintf(stderr, "bench_cuda: %s\n", e.msg);
        return 1;
    }
    printf("bench_cuda: %zu %s bases made and uploaded in %.0f ms\n", nmax, g2 ? "G2" : "G1",
           timing_now_ms() - t0);
    cuda_msm_config cfg = cuda_msm_config_default();
    unsigned R = reps();
    for (int kind = 0; kind < K_COUNT; kind++) {
        if (!kind_wanted(which, kind))
            continue;
        for (unsigned lg = lo; lg <= hi; lg += 2) {
            size_t n = (size_t)1 << lg;
            make_scalars(sc, n, kind);
            for (int v = 0; v < g_nval; v++) {
                char tag[160];
                bench_switch_apply(v, tag, sizeof tag);
                /* gpu_msm_window (CUZK_MSM_WINDOW), read per value so that
                   BENCH_SWITCH can vary it */
                cfg.window_bits = (unsigned)switch_get(SW_GPU_MSM_WINDOW);
                float tot[64], cls[64], srt[64], bk[64], red[64], cp[64];
                cuda_msm_stats st;
                for (unsigned r = 0; r <= R && r < 64; r++) { /* r = 0 warms up */
                    g1_jac o1;
                    g2_jac o2;
                    s = g2 ? cuda_msm_g2(c, &o2, b, 0, sc, NULL, n, &cfg, &st, &e)
                           : cuda_msm_g1(c, &o1, b, 0, sc, NULL, n, &cfg, &st, &e);
                    if (s) {
                        fprintf(stderr, "bench_cuda: %s\n", e.msg);
                        return 1;
                    }
                    if (r) {
                        tot[r - 1] = st.total_ms;
                        cls[r - 1] = st.classify_ms;
                        srt[r - 1] = st.sort_ms;
                        bk[r - 1] = st.buckets_ms;
                        red[r - 1] = st.reduce_ms;
                        cp[r - 1] = st.copy_ms;
                    }
                }
                printf("bench_cuda msm %s 2^%u %s%s: %.2f ms resident (classify %.2f, digits+sort "
                       "%.2f, buckets %.2f, reduce %.2f; c=%u, %zu other) + scalar upload %.2f ms; "
                       "median of %u\n",
                       g2 ? "g2" : "g1", lg, kind_names[kind], tag, median(tot, R), median(cls, R),
                       median(srt, R), median(bk, R), median(red, R), st.window_bits, st.n_other,
                       median(cp, R), R);
                fflush(stdout);
            }
        }
    }
    cuda_bases_free(b);
    free(pts);
    free(sc);
    return 0;
}

static int bench_ntt(cuda_ctx *c, unsigned lo, unsigned hi) {
    unsigned R = reps();
    for (unsigned lg = lo; lg <= hi; lg++) {
        size_t n = (size_t)1 << lg;
        fr *a = malloc(n * sizeof *a);
        if (!a)
            return 1;
        fill_fr(a, n);
        static const struct {
            cuda_ntt_kind k;
            ntt_order o;
            const char *name;
        } cases[] = {{CUDA_NTT_FORWARD, NTT_NR, "forward NR"},
                     {CUDA_NTT_FORWARD, NTT_NN, "forward NN"},
                     {CUDA_NTT_INVERSE, NTT_NN, "inverse NN"},
                     {CUDA_NTT_COSET_FORWARD, NTT_RN, "coset fwd RN"}};
        for (int v = 0; v < g_nval; v++) {
            char tag[160];
            bench_switch_apply(v, tag, sizeof tag);
            printf("bench_cuda ntt 2^%u%s:", lg, tag);
            for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
                float t[64];
                cuda_error e;
                for (unsigned r = 0; r <= R && r < 64; r++) {
                    float ms;
                    if (cuda_ntt(c, a, lg, cases[k].k, cases[k].o, &ms, &e)) {
                        fprintf(stderr, "bench_cuda: %s\n", e.msg);
                        return 1;
                    }
                    if (r)
                        t[r - 1] = ms;
                }
                printf(" %s %.3f ms;", cases[k].name, median(t, R));
            }
            printf(" median of %u, resident\n", R);
            fflush(stdout);
        }
        free(a);
    }
    return 0;
}

static int bench_h(cuda_ctx *c, unsigned lg) {
    size_t n = (size_t)1 << lg;
    fr *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *cc = malloc(n * sizeof *cc);
    if (!a || !b || !cc)
        return 1;
    fill_fr(a, n);
    fill_fr(b, n);
    fill_fr(cc, n);
    unsigned R = reps();
    for (int v = 0; v < g_nval; v++) {
        char tag[160];
        bench_switch_apply(v, tag, sizeof tag);
        float t[64];
        for (unsigned r = 0; r <= R && r < 64; r++) {
            float ms;
            cuda_error e;
            if (cuda_h_poly(c, a, b, cc, n, lg, &ms, &e)) {
                fprintf(stderr, "bench_cuda: %s\n", e.msg);
                free(a), free(b), free(cc);
                return 1;
            }
            if (r)
                t[r - 1] = ms;
        }
        printf("bench_cuda H step 2^%u%s: %.2f ms resident (3 iNTT + 2 coset NTT + pointwise + "
               "coset iNTT - C); median of %u\n",
               lg, tag, median(t, R), R);
        fflush(stdout);
    }
    free(a), free(b), free(cc);
    return 0;
}

/* Multiplies per second for Fp and Fr, the PTX carry chains against the
 * portable C in the same binary; the two must end with equal values. */
static int bench_field(cuda_ctx *c) {
    size_t threads = (size_t)1 << 20;
    unsigned iters = 256;
    char *x = malloc(4 * threads * sizeof(fp)), *y = malloc(threads * sizeof(fp));
    if (!x || !y) {
        free(x), free(y);
        return 1;
    }
    int rc = 0;
    for (int which_fr = 0; which_fr < 2 && !rc; which_fr++) {
        size_t el = which_fr ? sizeof(fr) : sizeof(fp);
        for (size_t i = 0; i < 5 * threads; i++) {
            char *dst = i < 4 * threads ? x + i * el : y + (i - 4 * threads) * el;
            if (which_fr) {
                fr v = rand_fr();
                memcpy(dst, &v, el);
            } else {
                uint64_t raw[6];
                for (int k = 0; k < 6; k++)
                    raw[k] = rnd();
                raw[5] &= 0x0fffffffffffffffULL; /* < 2^380 < p */
                fp v;
                fp_from_raw(&v, raw);
                memcpy(dst, &v, el);
            }
        }
        float ms[2][9];
        unsigned R = reps() < 9 ? reps() : 9;
        int equal = 1;
        cuda_error e;
        for (unsigned r = 0; r < R && !rc; r++) {
            int eq = 0;
            float t[2];
            if (cuda_field_bench(c, which_fr, threads, iters, x, y, t, &eq, &e)) {
                fprintf(stderr, "bench_cuda: %s\n", e.msg);
                rc = 1;
            }
            for (int v = 0; v < 2; v++)
                ms[v][r] = t[v];
            equal &= eq;
        }
        if (rc)
            break;
        double muls = 4.0 * (double)threads * iters;
        float m2 = median(ms[0], R), mc = median(ms[1], R);
        printf("bench_cuda field %s mul: PTX (ptx_mul2) %.2f ms (%.2f G/s); portable C %.2f ms "
               "(%.2f G/s); results %s; median of %u\n",
               which_fr ? "Fr" : "Fp", m2, muls / m2 / 1e6, mc, muls / mc / 1e6,
               equal ? "equal" : "DIFFERENT", R);
        if (!equal)
            rc = 1;
    }
    free(x), free(y);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 3 && !(argc == 2 && !strcmp(argv[1], "field"))) {
        fprintf(stderr, "usage: bench_cuda msm LOGMIN LOGMAX [random|bits90|bits100|both|all] "
                        "[g1|g2]\n"
                        "       bench_cuda ntt LOGMIN LOGMAX\n       bench_cuda h LOG\n"
                        "       bench_cuda field\n");
        return 2;
    }
    char msg[256] = "";
    if (cuda_device_count(msg, sizeof msg) <= 0) {
        printf("bench_cuda: no CUDA device %s\n", msg);
        return 0;
    }
    cuda_ctx *c;
    cuda_error e;
    if (cuda_ctx_create(&c, 0, &e)) {
        fprintf(stderr, "bench_cuda: %s\n", e.msg);
        return 1;
    }
    int rc;
    parse_bench_switch();
    unsigned lo = argc > 2 ? (unsigned)atoi(argv[2]) : 0;
    unsigned hi = argc > 3 ? (unsigned)atoi(argv[3]) : lo;
    if (!strcmp(argv[1], "msm"))
        rc = bench_msm(c, lo, hi, argc > 4 ? argv[4] : "both", argc > 5 && !strcmp(argv[5], "g2"));
    else if (!strcmp(argv[1], "ntt"))
        rc = bench_ntt(c, lo, hi);
    else if (!strcmp(argv[1], "h"))
        rc = bench_h(c, lo);
    else if (!strcmp(argv[1], "field"))
        rc = bench_field(c);
    else
        rc = 2;
    cuda_ctx_destroy(c);
    return rc;
}
#else
int main(void) {
    printf("bench_cuda: this build has no CUDA backend (no nvcc at build time)\n");
    return 0;
}
#endif
