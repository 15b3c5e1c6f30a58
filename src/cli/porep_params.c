/* PoRep parameter files: see porep_params.h. */
#include "cli/porep_params.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/args.h"
#include "cuzk/version.h"
#include "filecoin/param_dir.h"
#include "groth16/setup.h"
#include "groth16/setup_pce.h"
#include "r1cs/pce_cache.h"
#include "util/file_write.h"
#include "util/err.h"
#include "util/parallel.h"
#include "util/timing.h"

#ifdef CUZK_HAVE_CUDA
#include "cuda/cuda_setup.h"
#endif

/* Counts of a blank circuit: synth(cs, arg) without values. */
static int expect_blank(porep_params_expect *out, int (*synth)(r1cs_cs *, const void *),
                        const void *arg) {
    memset(out, 0, sizeof *out);
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    if (!cs)
        return -1;
    r1cs_counts k;
    int bad = synth(cs, arg) || r1cs_finish(cs) || r1cs_get_counts(cs, &k);
    r1cs_cs_free(cs);
    if (bad)
        return -1;
    size_t m = 1;
    while (m < k.constraints_total)
        m <<= 1;
    out->rows = k.constraints_total;
    out->inputs = k.inputs;
    out->aux = k.aux;
    out->n_h = m - 1;
    out->n_l = k.aux;
    out->n_a = k.inputs + k.a_aux_density;
    out->n_b = k.b_input_density + k.b_aux_density;
    return 0;
}

static int blank_porep(r1cs_cs *cs, const void *s) { return porep_circuit_synthesize(cs, s, NULL); }

int porep_params_expect_get(porep_params_expect *out, const porep_shape *s) {
    return expect_blank(out, blank_porep, s);
}

/* The blank circuit of a kind's circuit (fc_circuit or its shape). */
typedef struct {
    const fc_kind *k;
    const void *shape;
} kind_blank;

static int blank_kind(r1cs_cs *cs, const void *arg) {
    const kind_blank *b = arg;
    return b->k->synthesize(cs, b->shape, NULL);
}

int params_expect_of(porep_params_expect *out, const fc_kind *k, const void *shape) {
    const kind_blank b = {k, shape};
    return expect_blank(out, blank_kind, &b);
}

/* DIR/STEM.{params,vk,meta}, DIR by the one rule (filecoin/param_dir.h). */
static int paths_for_stem(char *params, char *vk, char *meta, size_t cap, const char *dir_arg,
                          const char *stem) {
    char dir[4096];
    if (fc_param_dir(dir, sizeof dir, dir_arg, NULL, NULL, NULL, 0))
        return -1;
    if (snprintf(params, cap, "%s/%s.params", dir, stem) >= (int)cap ||
        snprintf(vk, cap, "%s/%s.vk", dir, stem) >= (int)cap ||
        snprintf(meta, cap, "%s/%s.meta", dir, stem) >= (int)cap)
        return -1;
    return 0;
}

int porep_params_paths(char *params, char *vk, char *meta, size_t cap, const char *dir,
                       const fc_sector_shape *shape) {
    char stem[160];
    if (!fc_porep_param_stem(stem, sizeof stem, shape))
        return -1;
    return paths_for_stem(params, vk, meta, cap, dir, stem);
}

int params_paths_of(char *params, char *vk, char *meta, size_t cap, const char *dir,
                    const fc_circuit *c) {
    char stem[160];
    if (!c->kind->param_stem(stem, sizeof stem, c))
        return -1;
    return paths_for_stem(params, vk, meta, cap, dir, stem);
}

int params_paths_by_id(char *params, char *vk, char *meta, size_t cap, const char *dir,
                       const char *circuit_id) {
    fc_circuit c;
    return fc_circuit_by_id(&c, circuit_id) ? -1 : params_paths_of(params, vk, meta, cap, dir, &c);
}

/* The counts of an opened file against e. */
static int check_layout(const groth16_params *gp, const porep_params_expect *e, const char *path,
                        char *err, size_t cap) {
    const groth16_params_layout *L = &gp->layout;
    const size_t got[] = {L->n_ic, L->sec[GROTH16_SEC_H].count, L->sec[GROTH16_SEC_L].count,
                          L->sec[GROTH16_SEC_A].count, L->sec[GROTH16_SEC_B_G1].count};
    const size_t want[] = {e->inputs, e->n_h, e->n_l, e->n_a, e->n_b};
    const char *what[] = {"vk ic points", "h points", "l points", "a points", "b points"};
    for (size_t i = 0; i < 5; i++)
        if (got[i] != want[i] && (i == 0 || want[i] != 0)) /* 0: not checked */
            return err_set(err, cap,
                           "%s: %zu %s, the circuit needs %zu: not this circuit's parameters", path,
                           got[i], what[i], want[i]);
    return 0;
}

static int read_meta_test_only(const char *meta_path) {
    json_error_t je;
    json_t *m = meta_path ? json_load_file(meta_path, 0, &je) : NULL;
    int t = m && json_is_true(json_object_get(m, "test_only"));
    json_decref(m);
    return t;
}

void porep_params_free(porep_params_loaded *p) {
    free(p->h);
    free(p->l);
    free(p->a);
    free(p->b1);
    free(p->b2);
    groth16_params_close(&p->gp);
    memset(p, 0, sizeof *p);
}

int porep_params_load(porep_params_loaded *p, const char *path, const char *meta_path,
                      const porep_params_expect *e, unsigned threads, int on_host, char *err,
                      size_t cap) {
    memset(p, 0, sizeof *p);
    groth16_error ge = {0};
    if (groth16_params_open(&p->gp, path, &ge) != GROTH16_OK)
        return err_set(err, cap, "%s: %s", path, ge.msg);
    if (e && check_layout(&p->gp, e, path, err, cap)) {
        porep_params_free(p);
        return -1;
    }
    p->test_only = read_meta_test_only(meta_path);
    const groth16_params_layout *L = &p->gp.layout;
    size_t nh = L->sec[GROTH16_SEC_H].count, nl = L->sec[GROTH16_SEC_L].count;
    size_t na = L->sec[GROTH16_SEC_A].count, nb = L->sec[GROTH16_SEC_B_G1].count;
    if (!on_host) {
        groth16_params_data d = {&p->gp.vk, NULL, nh,   NULL, nl,     NULL,
                                 na,        NULL, NULL, nb,   &p->gp, 0};
        p->d = d;
        return 0;
    }
    p->h = malloc((nh + 1) * sizeof *p->h);
    p->l = malloc((nl + 1) * sizeof *p->l);
    p->a = malloc((na + 1) * sizeof *p->a);
    p->b1 = malloc((nb + 1) * sizeof *p->b1);
    p->b2 = malloc((nb + 1) * sizeof *p->b2);
    /* curve checks only, as rust-fil-proofs reads mapped parameters; every
     * proof is verified before it is handed out */
    if (!p->h || !p->l || !p->a || !p->b1 || !p->b2 ||
        groth16_params_read_g1(&p->gp, GROTH16_SEC_H, 0, nh, p->h, GROTH16_CHECK_CURVE, threads,
                               &ge) ||
        groth16_params_read_g1(&p->gp, GROTH16_SEC_L, 0, nl, p->l, GROTH16_CHECK_CURVE, threads,
                               &ge) ||
        groth16_params_read_g1(&p->gp, GROTH16_SEC_A, 0, na, p->a, GROTH16_CHECK_CURVE, threads,
                               &ge) ||
        groth16_params_read_g1(&p->gp, GROTH16_SEC_B_G1, 0, nb, p->b1, GROTH16_CHECK_CURVE, threads,
                               &ge) ||
        groth16_params_read_g2(&p->gp, GROTH16_SEC_B_G2, 0, nb, p->b2, GROTH16_CHECK_CURVE, threads,
                               &ge)) {
        err_set(err, cap, "%s: %s", path, ge.status ? ge.msg : "out of memory");
        porep_params_free(p);
        return -1;
    }
    groth16_params_data d = {&p->gp.vk, p->h, nh, p->l, nl, p->a, na, p->b1, p->b2, nb, NULL, 0};
    p->d = d;
    return 0;
}

int porep_params_match(const char *params, const char *vk, const porep_params_expect *e, char *err,
                       size_t cap) {
    if (access(params, R_OK) != 0 || access(vk, R_OK) != 0)
        return err_set(err, cap, "%s or its .vk: not found", params);
    groth16_params gp;
    groth16_error ge = {0};
    if (groth16_params_open(&gp, params, &ge) != GROTH16_OK)
        return err_set(err, cap, "%s: %s", params, ge.msg);
    int rc = check_layout(&gp, e, params, err, cap);
    /* the .vk must be the vk at the head of the .params */
    FILE *f = rc ? NULL : fopen(vk, "rb");
    if (!rc) {
        size_t n = gp.layout.vk_bytes;
        uint8_t *b = malloc(n + 1);
        size_t got = f && b ? fread(b, 1, n + 1, f) : 0;
        if (got != n || memcmp(b, gp.data, n) != 0)
            rc = err_set(err, cap, "%s does not hold the verifying key of %s", vk, params);
        free(b);
    }
    if (f)
        fclose(f);
    groth16_params_close(&gp);
    return rc;
}

/* ---- test-only setup ------------------------------------------------------------ */

static int write_meta(const char *path, const char *circuit, const char *identifier,
                      unsigned long long sector_size) {
    /* rust-fil-proofs' .meta holds {"sector_size": N}; the rest is ours */
    json_t *m = json_pack("{s:I, s:b, s:s, s:s, s:s, s:s}", "sector_size", (json_int_t)sector_size,
                          "test_only", 1, "warning",
                          "INSECURE TEST-ONLY PARAMETERS from random toxic waste seen by one "
                          "process: whoever ran this setup can forge proofs. They are NOT "
                          "Filecoin's ceremony parameters despite the file name.",
                          "generator", "cuzk setup " CUZK_VERSION_STRING, "circuit", circuit,
                          "identifier", identifier);
    int rc = m ? json_dump_file(m, path, JSON_INDENT(2)) : -1;
    json_decref(m);
    return rc;
}

typedef struct {
    int (*fn)(r1cs_cs *, const void *);
    const void *arg;
} blank_call;

static int blank_adapt(r1cs_cs *cs, void *ctx) {
    blank_call *b = ctx;
    return b->fn(cs, b->arg);
}

/* The GPU's setup steps (cuda/cuda_setup.h) when backend is "cuda", else
 * none (the CPU).  0, or -1 after a message. */
static int setup_ops_open(groth16_setup_ops *ops, const char *backend, unsigned threads) {
    memset(ops, 0, sizeof *ops);
    if (!backend || strcmp(backend, "cpu") == 0)
        return 0;
#ifdef CUZK_HAVE_CUDA
    if (strcmp(backend, "cuda") == 0) {
        char err[256];
        const char *g = getenv("CUZK_GPU");
        if (cuda_setup_ops_init(ops, g ? atoi(g) : 0, threads, err, sizeof err) == 0)
            return 0;
        fprintf(stderr, "cuzk setup: --backend cuda: %s\n", err);
        return -1;
    }
#else
    (void)threads;
#endif
    fprintf(stderr, "cuzk setup: unknown --backend \"%s\" (cpu%s)\n", backend,
#ifdef CUZK_HAVE_CUDA
            " or cuda"
#else
            "; this build has no nvcc"
#endif
    );
    return -1;
}

static void setup_ops_close(groth16_setup_ops *ops) {
#ifdef CUZK_HAVE_CUDA
    cuda_setup_ops_free(ops);
#else
    (void)ops;
#endif
}

/* The parameters of pce p streamed into params, the vk into vk (both
 * atomically: the vk is committed first, so an interrupted setup never
 * leaves a params file without its vk under the real names). */
static int write_files(const r1cs_pce *p, const groth16_toxic *t, const groth16_setup_ops *ops,
                       unsigned threads, const char *params, const char *vk,
                       groth16_setup_info *info, char *err, size_t cap) {
    groth16_error ge = {0};
    file_atomic pa, va;
    if (file_atomic_open(&pa, params, err, cap))
        return -1;
    if (file_atomic_open(&va, vk, err, cap)) {
        file_atomic_abort(&pa);
        return -1;
    }
    groth16_vk v;
    if (groth16_setup_pce_write(pa.f, &v, p, t, ops, threads, info, &ge) != GROTH16_OK) {
        file_atomic_abort(&pa);
        file_atomic_abort(&va);
        return err_set(err, cap, "%s", ge.msg);
    }
    int bad = groth16_vk_write_file(va.f, &v, &ge) != GROTH16_OK;
    groth16_vk_free(&v);
    if (bad) {
        file_atomic_abort(&pa);
        file_atomic_abort(&va);
        return err_set(err, cap, "%s", ge.msg);
    }
    if (file_atomic_commit(&va, err, cap)) {
        file_atomic_abort(&pa);
        return -1;
    }
    return file_atomic_commit(&pa, err, cap);
}

/* --pce: the recording the parameters came from, as <out>/<stem>.pce (where
 * the engine and `cuzk prove` look for it first). */
static int write_pce(const r1cs_pce *pce, const char *out, const char *stem, unsigned threads) {
    char path[4200], err[400];
    double t0 = timing_now_ms();
    snprintf(path, sizeof path, "%s/%s.pce", out, stem);
    if (pce_write(pce, path, threads, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk setup: writing %s: %s\n", path, err);
        return -1;
    }
    struct stat st;
    long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
    printf("setup: %s (%lld bytes, %.1f s)\n", path, bytes, (timing_now_ms() - t0) / 1e3);
    return 0;
}

int cmd_setup_porep(int argc, char **argv) {
    /* CIRCUIT: every kind's circuit id prefix, then -SIZE */
    char ids[256] = "", usage[1024];
    for (size_t i = 0, n = 0; fc_kind_at(i) && n < sizeof ids; i++)
        n += (size_t)snprintf(ids + n, sizeof ids - n, "%s%s-SIZE", i ? "|" : "",
                              fc_kind_at(i)->id_prefix);
    snprintf(usage, sizeof usage,
             "cuzk setup %s --out DIR [--threads N] [--force] [--pce] [--backend cpu|cuda] "
             "[--seed HEX (TEST ONLY: the toxic waste from a seed, to compare backends)]\n"
             "  SIZE: 2k 8m 512m 32g 64g\n"
             "  --pce: also write the circuit's recorded constraints (STEM.pce) beside the "
             "parameters, so that the engine need not record them",
             ids);
    if (argc < 1) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    /* The circuit: any kind's circuit id (filecoin/kinds.h; wpost-SIZE is
     * WindowPoSt, whose V1 and V1_1 share parameters). */
    fc_circuit c;
    if (fc_circuit_by_id(&c, argv[0]) != 0) {
        fprintf(stderr, "cuzk setup: unknown circuit \"%s\"\nusage: %s\n", argv[0], usage);
        return 2;
    }
    int force = 0, with_pce = 0;
    char *rest[16];
    int nrest = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--force") == 0)
            force = 1;
        else if (strcmp(argv[i], "--pce") == 0)
            with_pce = 1;
        else if (nrest < 16)
            rest[nrest++] = argv[i];
    }
    const char *out = NULL, *backend = NULL, *seed = NULL;
    unsigned threads = par_cpu_count();
    const cli_opt opts[] = {{"--out", &out}, {"--backend", &backend}, {"--seed", &seed}};
    if (cli_parse(nrest, rest, opts, 3, &threads, usage))
        return 2;
    if (!out) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    if (mkdir(out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "cuzk setup: cannot create %s: %s\n", out, strerror(errno));
        return 1;
    }
    char params[4096], vk[4096], meta[4096], ident[2048], err[512], stem[160];
    const fc_sector_shape *shape = fc_shape_at(c.size);
    if (!c.kind->param_stem(stem, sizeof stem, &c) ||
        paths_for_stem(params, vk, meta, sizeof params, out, stem) ||
        !c.kind->param_identifier(ident, sizeof ident, &c)) {
        fprintf(stderr, "cuzk setup: path too long\n");
        return 2;
    }
    const kind_blank kb = {c.kind, c.shape};
    int (*blank)(r1cs_cs *, const void *) = blank_kind;
    const void *arg = &kb;
    double t0 = timing_now_ms();
    porep_params_expect e;
    if (expect_blank(&e, blank, arg)) {
        fprintf(stderr, "cuzk setup: counting the %s circuit failed\n", argv[0]);
        return 1;
    }
    if (!force && porep_params_match(params, vk, &e, err, sizeof err) == 0) {
        printf("setup %s: reusing %s (matches the circuit: %zu inputs, %zu aux, h %zu)\n", argv[0],
               params, e.inputs, e.aux, e.n_h);
        return 0;
    }
    if (!force && access(params, F_OK) == 0)
        fprintf(stderr, "cuzk setup: %s; generating again\n", err);
    fprintf(stderr,
            "cuzk setup: WARNING: INSECURE TEST-ONLY PARAMETERS under Filecoin's file name %s. "
            "They come from random toxic waste this process saw; whoever has it can forge "
            "proofs. Never use them for anything but tests and benchmarks.\n",
            params);
    fprintf(stderr, "setup %s: synthesizing the blank circuit (%zu rows, domain 2^%u)...\n",
            argv[0], e.rows, (unsigned)__builtin_ctzll((unsigned long long)e.n_h + 1));
    groth16_setup_ops ops;
    if (setup_ops_open(&ops, backend, threads))
        return 1;
    blank_call bc = {blank, arg};
    r1cs_pce pce;
    if (pce_record(blank_adapt, &bc, argv[0], stem, &pce, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk setup: synthesis failed: %s\n", err);
        setup_ops_close(&ops);
        return 1;
    }
    double t1 = timing_now_ms();
    fprintf(stderr,
            "setup %s: recorded in %.1f s; evaluating the QAP and the points "
            "(%s, %u threads)...\n",
            argv[0], (t1 - t0) / 1e3, backend ? backend : "cpu", threads);
    groth16_toxic t;
    groth16_error ge = {0};
    groth16_setup_info info = {0};
    int rc = 1;
    if (seed ? groth16_toxic_from_seed(&t, seed, err, sizeof err) != 0
             : (groth16_toxic_random(&t, &ge) != GROTH16_OK &&
                snprintf(err, sizeof err, "%s", ge.msg) >= 0)) {
        fprintf(stderr, "cuzk setup: %s\n", err);
    } else if (write_meta(meta, argv[0], ident, (unsigned long long)shape->sector_size) != 0) {
        fprintf(stderr, "cuzk setup: cannot write %s\n", meta);
    } else if (write_files(&pce, &t, &ops, threads, params, vk, &info, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk setup: %s\n", err);
    } else if (porep_params_match(params, vk, &e, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk setup: the written files do not match the circuit: %s\n", err);
    } else if (with_pce && write_pce(&pce, out, stem, threads) != 0) {
        /* said there */
    } else {
        struct stat st;
        long long psize = stat(params, &st) == 0 ? (long long)st.st_size : -1;
        printf("setup %s: %zu rows, %zu inputs, %zu aux; h %zu, l %zu, a %zu, b %zu points\n"
               "  %s (%lld bytes) and .vk, .meta (test-only)\n"
               "  time: synthesis %.1f s, lagrange %.1f s, columns %.1f s, points and write "
               "%.1f s, total %.1f s (%s)\n",
               argv[0], info.rows, info.n_in, info.n_aux, info.n_h, info.n_l, info.n_a, info.n_b,
               params, psize, (t1 - t0) / 1e3, info.lagrange_ms / 1e3, info.columns_ms / 1e3,
               info.points_ms / 1e3, (timing_now_ms() - t0) / 1e3, backend ? backend : "cpu");
        rc = 0;
    }
    memset(&t, 0, sizeof t); /* the waste goes no further than this process */
    pce_free(&pce);
    setup_ops_close(&ops);
    return rc;
}
