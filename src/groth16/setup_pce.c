/* Streaming test-only setup from a pce (see setup_pce.h). */
#include "groth16/setup_pce.h"

#include <stdlib.h>
#include <string.h>

#include "curve/encode.h"
#include "curve/fixed_base.h"
#include "groth16/h_poly.h"
#include "groth16/params.h"
#include "groth16/prove_checked.h"
#include "ntt/ntt.h"
#include "util/parallel.h"
#include "util/timing.h"

int groth16_toxic_from_seed(groth16_toxic *t, const char *seed_hex, char *err, size_t cap) {
    fr spare;
    fr *f[6] = {&t->tau, &t->alpha, &t->beta, &t->gamma, &t->delta, &spare};
    for (size_t i = 0; i < 3; i++)
        if (groth16_rs_from_seed(f[2 * i], f[2 * i + 1], seed_hex, 1000 + i, err, cap) != 0)
            return -1;
    for (int i = 0; i < 5; i++)
        if (fr_is_zero(f[i])) { /* probability 2^-255: say so rather than divide by zero */
            snprintf(err, cap, "setup: seed %s gives a zero secret; pick another", seed_hex);
            return -1;
        }
    return 0;
}

/* ---- CPU ops ------------------------------------------------------------------- */

typedef struct {
    fr *out;
    const fr *base, *scale; /* scale may be NULL */
    size_t start, n, per;
} pow_job;

static void pow_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    pow_job *j = ctx;
    size_t lo = task * j->per, hi = lo + j->per < j->n ? lo + j->per : j->n;
    if (lo >= hi)
        return;
    uint64_t e = (uint64_t)(j->start + lo);
    fr x;
    fr_pow_vartime(&x, j->base, &e, 1);
    if (j->scale)
        fr_mul(&x, &x, j->scale);
    for (size_t i = lo; i < hi; i++) {
        j->out[i] = x;
        fr_mul(&x, &x, j->base);
    }
}

/* out[i] = scale * base^(start + i) for i < n (scale NULL: 1). */
static void powers(fr *out, const fr *base, size_t start, size_t n, const fr *scale,
                   unsigned threads) {
    pow_job j = {out, base, scale, start, n, 1 << 16};
    par_run(threads ? threads : 1, (n + j.per - 1) / j.per, pow_task, &j);
}

typedef struct {
    const r1cs_pce *p;
    const fr *lag;
    fr *out[3];
    size_t blocks, vars, per;
} col_job;

/* Task = (matrix, block of z columns): scan every row, add the terms whose
 * column falls in the block.  Each output is written by one task only, so
 * no locks and no per-thread copies: memory stays O(variables). */
static void col_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    col_job *j = ctx;
    const r1cs_pce *p = j->p;
    unsigned mi = (unsigned)(task / j->blocks);
    size_t lo = (task % j->blocks) * j->per, hi = lo + j->per < j->vars ? lo + j->per : j->vars;
    if (lo >= hi)
        return;
    const uint32_t *rp = p->row_ptr[mi], *col = p->col[mi];
    const uint16_t *c16 = p->coef_width == 2 ? p->coef[mi] : NULL;
    const uint32_t *c32 = p->coef_width == 2 ? NULL : p->coef[mi];
    fr *out = j->out[mi];
    size_t n_in = (size_t)p->num_inputs;
    for (size_t r = 0; r < p->rows; r++)
        for (uint32_t k = rp[r]; k < rp[r + 1]; k++) {
            uint32_t c = col[k];
            size_t v = c & PCE_INPUT_TAG ? (size_t)(c & ~PCE_INPUT_TAG) : n_in + c;
            if (v < lo || v >= hi)
                continue;
            uint32_t d = c16 ? c16[k] : c32[k];
            if (d == 0)
                fr_add(&out[v], &out[v], &j->lag[r]);
            else if (d == 1)
                fr_sub(&out[v], &out[v], &j->lag[r]);
            else {
                fr x;
                fr_mul(&x, &p->dict[d], &j->lag[r]);
                fr_add(&out[v], &out[v], &x);
            }
        }
}

int groth16_setup_columns_cpu(const r1cs_pce *p, const fr *lag, fr *at, fr *bt, fr *ct,
                              unsigned threads) {
    col_job j = {p, lag, {at, bt, ct}, threads ? threads : 1, 0, 0};
    j.vars = (size_t)(p->num_inputs + p->num_aux);
    j.per = (j.vars + j.blocks - 1) / j.blocks;
    if (j.per == 0)
        return 0;
    par_run(threads ? threads : 1, 3 * j.blocks, col_task, &j);
    return 0;
}

/* The CPU ops' context: the generator tables, made on first use, each with
 * the window that suits the multiplications it will serve (n1, n2). */
typedef struct {
    unsigned threads;
    size_t n1, n2;
    g1_fixed_table t1;
    g2_fixed_table t2;
} cpu_ops;

static int cpu_g1(cpu_ops *c, g1_affine *out, const fr *k, size_t n, char *err, size_t cap) {
    if (!c->t1.t) {
        g1_affine g;
        g1_affine_generator(&g);
        if (g1_fixed_table_init(&c->t1, &g, fixed_base_window(c->n1), c->threads))
            return snprintf(err, cap, "setup: out of memory for the G1 table"), -1;
    }
    if (g1_fixed_mul_many(out, &c->t1, k, n, c->threads))
        return snprintf(err, cap, "setup: out of memory in a G1 multiplication"), -1;
    return 0;
}

static int cpu_g2(cpu_ops *c, g2_affine *out, const fr *k, size_t n, char *err, size_t cap) {
    if (!c->t2.t) {
        g2_affine g;
        g2_affine_generator(&g);
        if (g2_fixed_table_init(&c->t2, &g, fixed_base_window(c->n2), c->threads))
            return snprintf(err, cap, "setup: out of memory for the G2 table"), -1;
    }
    if (g2_fixed_mul_many(out, &c->t2, k, n, c->threads))
        return snprintf(err, cap, "setup: out of memory in a G2 multiplication"), -1;
    return 0;
}

typedef struct {
    const fr *at, *bt;
    fr *ct;
    const groth16_toxic *t;
    const fr *gamma_inv, *delta_inv;
    size_t n_in, vars;
} comb_job;

enum { COMB_PER = 1 << 16 };

static void comb_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    comb_job *j = ctx;
    size_t lo = task * COMB_PER, hi = lo + COMB_PER < j->vars ? lo + COMB_PER : j->vars;
    for (size_t v = lo; v < hi; v++) {
        fr e, x;
        fr_mul(&e, &j->at[v], &j->t->beta);
        fr_mul(&x, &j->bt[v], &j->t->alpha);
        fr_add(&e, &e, &x);
        fr_add(&e, &e, &j->ct[v]);
        fr_mul(&j->ct[v], &e, v < j->n_in ? j->gamma_inv : j->delta_inv);
    }
}

/* ---- the driver ----------------------------------------------------------------- */

typedef struct {
    FILE *f;
    const groth16_setup_ops *ops;
    cpu_ops *cpu;
    size_t chunk;
    fr *sc;         /* chunk scalars */
    void *pts;      /* chunk points (G2-sized) */
    uint8_t *bytes; /* their encoding */
    unsigned threads;
    char msg[256];
} writer;

typedef struct {
    const void *pts;
    uint8_t *out;
    size_t n;
    int g2;
} enc_job;

enum { ENC_PER = 4096 };

static void enc_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    enc_job *j = ctx;
    size_t lo = task * ENC_PER, hi = lo + ENC_PER < j->n ? lo + ENC_PER : j->n;
    for (size_t i = lo; i < hi; i++)
        if (j->g2)
            g2_to_uncompressed(j->out + i * G2_UNCOMPRESSED_BYTES, (const g2_affine *)j->pts + i);
        else
            g1_to_uncompressed(j->out + i * G1_UNCOMPRESSED_BYTES, (const g1_affine *)j->pts + i);
}

/* The chunk's points encoded on the threads (one thread cannot keep up with
 * the GPU at 32 GiB), then written in one piece: the same bytes as
 * groth16_params_write_g1s / _g2s. */
static groth16_status write_points(writer *w, size_t n, int g2, groth16_error *err) {
    enc_job j = {w->pts, w->bytes, n, g2};
    par_run(w->threads, (n + ENC_PER - 1) / ENC_PER, enc_task, &j);
    size_t bytes = n * (g2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES);
    if (fwrite(w->bytes, 1, bytes, w->f) != bytes)
        return groth16_fail(err, GROTH16_ERR_IO, "setup: writing %zu bytes of points failed",
                            bytes);
    return GROTH16_OK;
}

static groth16_status mul_write_g1(writer *w, const fr *k, size_t n, groth16_error *err) {
    if (n == 0)
        return GROTH16_OK;
    int rc = w->ops && w->ops->g1_mul
                 ? w->ops->g1_mul(w->ops->ctx, w->pts, k, n, w->msg, sizeof w->msg)
                 : cpu_g1(w->cpu, w->pts, k, n, w->msg, sizeof w->msg);
    if (rc)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "%s", w->msg);
    return write_points(w, n, 0, err);
}

static groth16_status mul_write_g2(writer *w, const fr *k, size_t n, groth16_error *err) {
    if (n == 0)
        return GROTH16_OK;
    int rc = w->ops && w->ops->g2_mul
                 ? w->ops->g2_mul(w->ops->ctx, w->pts, k, n, w->msg, sizeof w->msg)
                 : cpu_g2(w->cpu, w->pts, k, n, w->msg, sizeof w->msg);
    if (rc)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "%s", w->msg);
    return write_points(w, n, 1, err);
}

/* A section of the non-zero entries of s (identities are left out, as
 * bellperson's generator does for a and b), in chunks. */
static groth16_status write_nonzero(writer *w, const fr *s, size_t n, int g2, groth16_error *err) {
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++)
        cnt += !fr_is_zero(&s[i]);
    groth16_status st = groth16_params_write_count(w->f, cnt, err);
    size_t fill = 0;
    for (size_t i = 0; st == GROTH16_OK && i <= n; i++) {
        if (i < n && !fr_is_zero(&s[i]))
            w->sc[fill++] = s[i];
        if (fill == w->chunk || (i == n && fill)) {
            st = g2 ? mul_write_g2(w, w->sc, fill, err) : mul_write_g1(w, w->sc, fill, err);
            fill = 0;
        }
    }
    return st;
}

static groth16_status write_dense_g1(writer *w, const fr *s, size_t n, groth16_error *err) {
    groth16_status st = groth16_params_write_count(w->f, n, err);
    for (size_t i = 0; st == GROTH16_OK && i < n; i += w->chunk)
        st = mul_write_g1(w, s + i, n - i < w->chunk ? n - i : w->chunk, err);
    return st;
}

groth16_status groth16_setup_pce_write(FILE *f, groth16_vk *vk, const r1cs_pce *p,
                                       const groth16_toxic *t, const groth16_setup_ops *ops,
                                       unsigned threads, groth16_setup_info *info,
                                       groth16_error *err) {
    memset(vk, 0, sizeof *vk);
    groth16_setup_info inf = {0};
    size_t rows = (size_t)p->rows, n_in = (size_t)p->num_inputs, n_aux = (size_t)p->num_aux;
    size_t vars = n_in + n_aux;
    int k = h_poly_log_domain(rows);
    if (k < 0 || rows == 0 || n_in == 0)
        return groth16_fail(err, GROTH16_ERR_ARG,
                            "setup: %zu rows, %zu inputs: empty, or more than the largest domain "
                            "2^%d",
                            rows, n_in, NTT_MAX_LOG_N);
    size_t m = (size_t)1 << k;
    cpu_ops cpu = {threads ? threads : 1, 0, 0, {0}, {0}};
    writer w = {f,    ops, &cpu, ops && ops->chunk ? ops->chunk : (size_t)1 << 20, NULL, NULL,
                NULL, 0,   ""};
    w.threads = cpu.threads;
    groth16_status st = GROTH16_OK;
    fr *lag = malloc(m * sizeof *lag), *at = calloc(vars, sizeof *at);
    fr *bt = calloc(vars, sizeof *bt), *ct = calloc(vars, sizeof *ct);
    w.sc = malloc(w.chunk * sizeof *w.sc);
    w.pts = malloc(w.chunk * sizeof(g2_affine));
    w.bytes = malloc(w.chunk * G2_UNCOMPRESSED_BYTES);
    if (!lag || !at || !bt || !ct || !w.sc || !w.pts || !w.bytes) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY,
                          "setup: out of memory for %zu rows, %zu "
                          "variables",
                          rows, vars);
        goto done;
    }
    fr one, z_tau, delta_inv, gamma_inv, zd;
    fr_set_one(&one);
    double t0 = timing_now_ms();
    powers(lag, &t->tau, 0, m, NULL, cpu.threads);
    fr_mul(&z_tau, &lag[m - 1], &t->tau);
    fr_sub(&z_tau, &z_tau, &one); /* tau^m - 1 */
    fr_inv(&delta_inv, &t->delta);
    fr_inv(&gamma_inv, &t->gamma);
    fr_mul(&zd, &z_tau, &delta_inv);
    if (k > 0) {
        if (ops && ops->lagrange) {
            if (ops->lagrange(ops->ctx, lag, (unsigned)k, w.msg, sizeof w.msg)) {
                st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "%s", w.msg);
                goto done;
            }
        } else {
            ntt_domain dom = {0};
            int bad = ntt_domain_init(&dom, (unsigned)k, cpu.threads) != NTT_OK ||
                      ntt_inverse(lag, &dom, NTT_NN, cpu.threads) != NTT_OK;
            ntt_domain_destroy(&dom);
            if (bad) {
                st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: NTT of size 2^%d failed", k);
                goto done;
            }
        }
    }
    double t1 = timing_now_ms();
    int rc = ops && ops->columns ? ops->columns(ops->ctx, p, lag, at, bt, ct, w.msg, sizeof w.msg)
                                 : groth16_setup_columns_cpu(p, lag, at, bt, ct, cpu.threads);
    if (rc) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "%s", w.msg);
        goto done;
    }
    free(lag);
    lag = NULL;
    double t2 = timing_now_ms();
    /* ct becomes (beta A + alpha B + C) / (gamma for inputs, delta for aux) */
    comb_job cj = {at, bt, ct, t, &gamma_inv, &delta_inv, n_in, vars};
    par_run(cpu.threads, (vars + COMB_PER - 1) / COMB_PER, comb_task, &cj);
    for (size_t v = n_in; v < vars; v++)
        if (fr_is_zero(&ct[v])) {
            st = groth16_fail(err, GROTH16_ERR_ARG,
                              "setup: aux variable %zu is unconstrained (its l point would be "
                              "the identity)",
                              v - n_in);
            goto done;
        }
    for (size_t v = 0; v < vars; v++) {
        inf.n_a += !fr_is_zero(&at[v]);
        inf.n_b += !fr_is_zero(&bt[v]);
    }
    /* what the CPU tables will serve: the vk, and the queries ops leaves them */
    cpu.n1 = n_in + 3 + (ops && ops->g1_mul ? 0 : (m - 1) + n_aux + inf.n_a + inf.n_b);
    cpu.n2 = 3 + (ops && ops->g2_mul ? 0 : inf.n_b);
    /* the verifying key: six points and ic, on the CPU (a handful) */
    vk->n_ic = n_in;
    vk->ic = malloc(n_in * sizeof *vk->ic);
    fr ks[3] = {t->alpha, t->beta, t->delta}, ks2[3] = {t->beta, t->gamma, t->delta};
    g1_affine p1[3];
    g2_affine p2[3];
    if (!vk->ic || cpu_g1(&cpu, vk->ic, ct, n_in, w.msg, sizeof w.msg) ||
        cpu_g1(&cpu, p1, ks, 3, w.msg, sizeof w.msg) ||
        cpu_g2(&cpu, p2, ks2, 3, w.msg, sizeof w.msg)) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "setup: out of memory for the vk");
        goto done;
    }
    vk->alpha_g1 = p1[0];
    vk->beta_g1 = p1[1];
    vk->delta_g1 = p1[2];
    vk->beta_g2 = p2[0];
    vk->gamma_g2 = p2[1];
    vk->delta_g2 = p2[2];
    if ((st = groth16_vk_write_file(f, vk, err)) != GROTH16_OK)
        goto done;
    /* h: tau^i Z(tau) / delta for i < m - 1, the powers made again by chunk */
    inf.n_h = m - 1;
    st = groth16_params_write_count(f, inf.n_h, err);
    for (size_t i = 0; st == GROTH16_OK && i < inf.n_h; i += w.chunk) {
        size_t n = inf.n_h - i < w.chunk ? inf.n_h - i : w.chunk;
        powers(w.sc, &t->tau, i, n, &zd, cpu.threads);
        st = mul_write_g1(&w, w.sc, n, err);
    }
    inf.n_l = n_aux;
    if (st == GROTH16_OK)
        st = write_dense_g1(&w, ct + n_in, n_aux, err);
    if (st == GROTH16_OK)
        st = write_nonzero(&w, at, vars, 0, err);
    if (st == GROTH16_OK)
        st = write_nonzero(&w, bt, vars, 0, err);
    if (st == GROTH16_OK)
        st = write_nonzero(&w, bt, vars, 1, err);
    if (st == GROTH16_OK && fflush(f) != 0)
        st = groth16_fail(err, GROTH16_ERR_IO, "setup: writing the parameters failed");
    if (st != GROTH16_OK)
        goto done;
    inf.rows = rows;
    inf.n_in = n_in;
    inf.n_aux = n_aux;
    inf.lagrange_ms = t1 - t0;
    inf.columns_ms = t2 - t1;
    inf.points_ms = timing_now_ms() - t2;
    inf.params_bytes = groth16_vk_size(n_in) + 5 * 4 +
                       (uint64_t)(inf.n_h + inf.n_l + inf.n_a + inf.n_b) * 96 +
                       (uint64_t)inf.n_b * 192;
done:
    if (st != GROTH16_OK)
        groth16_vk_free(vk);
    else if (info)
        *info = inf;
    g1_fixed_table_free(&cpu.t1);
    g2_fixed_table_free(&cpu.t2);
    free(lag);
    free(at);
    free(bt);
    free(ct);
    free(w.sc);
    free(w.pts);
    free(w.bytes);
    return st;
}
