/* The transforms: a plan of passes, each one par_run over in-cache tasks.
 *
 * Decomposition.  A transform of 2^L is cut into passes of consecutive
 * stages.  The last DIF pass (first DIT pass) works on contiguous blocks of
 * up to 2^14 elements (512 KiB), all its stages in cache.  Each earlier pass,
 * of b stages starting at stage s0, works on sub-problems of N = 2^(L - s0)
 * elements: its stages only mix the 2^b elements j0 + m * N/2^b of one
 * column j0, so a task gathers `cols` adjacent columns (rows of cols
 * contiguous elements) into a private buffer, runs the b stages there and
 * writes them back.  Gathering sidesteps the power-of-two strides that would
 * otherwise map every row onto the same cache sets.  2^20 runs as 6 + 14
 * stages, 2^24 as 10 + 14, 2^26 as 12 + 14, 2^28 as 7 + 7 + 14: two or
 * three par_run calls of hundreds to thousands of tasks, each element read
 * and written once per pass.
 *
 * Scaling rides along: the coset factor c * g^i (and 1/n) is applied in the
 * buffer of the pass that holds natural-order data (the first DIF pass, the
 * last DIT pass) or, on the bit-reversed side, in the block pass.  A natural
 * order on both sides adds one bit-reversal pass (permute.c). */
#include <stdlib.h>
#include <string.h>

#include "ntt/ntt_internal.h"
#include "util/parallel.h"

typedef enum { SCALE_NONE, SCALE_CONST, SCALE_POWERS } scale_kind;

/* The element of natural index i is multiplied by c * h^i (h = 1: by c). */
typedef struct {
    scale_kind kind;
    fr c, h;
} scaler;

typedef struct {
    unsigned passes;
    unsigned bits[NTT_MAX_LOG_N]; /* stages per pass, in DIF order */
} plan;

typedef struct {
    fr *a;
    const ntt_domain *d;
    plan p;
    int inv;    /* inverse twiddles */
    int dit;    /* pass direction: DIT (reversed -> natural) or DIF */
    scaler nat; /* natural side: DIF input, DIT output */
    scaler rev; /* bit-reversed side: DIF output, DIT input */
    fr *scratch;
    size_t buf_elems; /* per worker */
    unsigned workers; /* buffers in scratch: the column passes' thread limit */
    fr *row_pow;      /* h^(m * stride) for the first column pass's rows */
    fr *rev_pow;      /* H^(bitrev_b r), H = h^(2^(L - b)), for the block pass */
    fr *pass_tw;      /* omega_N^e, e <= N/2, for a column pass with s0 > 0 */
    const fr *tw;     /* the current column pass's twiddles: powers or pass_tw */
    size_t tw_half;   /* its N/2 */
    /* the pass being run */
    unsigned s0, b;
    size_t stride, cols, groups;
} job;

static unsigned ceil_log2(size_t x) {
    unsigned k = 0;
    while (((size_t)1 << k) < x)
        k++;
    return k;
}

/* The block pass takes as many stages as fit a block (its butterflies are
 * cheaper than a column pass's, which also gathers, so 2^22 runs faster as
 * 8 + 14 than as 11 + 11) but leaves at least 8 blocks per thread;
 * the fewest column passes share the rest evenly. */
static void make_plan(plan *p, const ntt_tuning *t, unsigned L, unsigned threads) {
    unsigned lb = t->log_block, lc = t->log_col < 1 ? 1 : t->log_col;
    if (lb > NTT_MAX_LOG_BLOCK)
        lb = NTT_MAX_LOG_BLOCK;
    if (lb < 1)
        lb = 1;
    int single = L <= t->log_single || (threads <= 1 && L <= lb);
    if (L == 1 || (single && L <= NTT_MAX_LOG_BLOCK)) {
        p->passes = 1;
        p->bits[0] = L;
        return;
    }
    unsigned spread = ceil_log2((size_t)8 * threads);
    if (L > spread && lb > L - spread)
        lb = L - spread;
    if (lb > L - 1)
        lb = L - 1;
    if (lb < 1)
        lb = 1;
    unsigned last = lb, cols = (L - last + lc - 1) / lc;
    unsigned rest = L - last;
    p->passes = cols + 1;
    for (unsigned k = 0; k < cols; k++)
        p->bits[k] = rest / cols + (k < rest % cols);
    p->bits[cols] = last;
}

/* Natural-side scaling of a gathered group: row m, column c has index
 * j0 + c + m * stride (first pass only, so no sub-problem offset). */
static void scale_cols(const job *j, fr *buf, size_t j0) {
    size_t rows = (size_t)1 << j->b, cols = j->cols;
    if (j->nat.kind == SCALE_CONST) {
        for (size_t k = 0; k < rows * cols; k++)
            fr_mul(&buf[k], &buf[k], &j->nat.c);
        return;
    }
    fr colf[64];
    ntt_pow_u64(&colf[0], &j->nat.h, j0);
    fr_mul(&colf[0], &colf[0], &j->nat.c);
    for (size_t c = 1; c < cols; c++)
        fr_mul(&colf[c], &colf[c - 1], &j->nat.h);
    for (size_t m = 0; m < rows; m++)
        for (size_t c = 0; c < cols; c++) {
            fr f;
            fr_mul(&f, &colf[c], &j->row_pow[m]);
            fr_mul(&buf[m * cols + c], &buf[m * cols + c], &f);
        }
}

#define GATHER_AHEAD 8

static void col_task(void *ctx, size_t task, unsigned worker) {
    const job *j = ctx;
    const ntt_domain *d = j->d;
    unsigned L = d->log_n;
    size_t rows = (size_t)1 << j->b, cols = j->cols, row_bytes = cols * sizeof(fr);
    size_t sub = task / j->groups, j0 = (task % j->groups) * cols;
    fr *base = j->a + (sub << (L - j->s0)) + j0;
    fr *buf = j->scratch + worker * j->buf_elems;
    int scale_here = j->s0 == 0 && j->nat.kind != SCALE_NONE;

    /* Rows lie 2^(L - s0 - b) elements apart: no hardware prefetcher follows
     * that, so ask for the lines a few rows ahead. */
    for (size_t m = 0; m < rows; m++) {
        if (m + GATHER_AHEAD < rows)
            for (size_t off = 0; off < row_bytes; off += 64)
                __builtin_prefetch((const char *)(base + (m + GATHER_AHEAD) * j->stride) + off);
        memcpy(buf + m * cols, base + m * j->stride, row_bytes);
    }
    if (!j->dit) {
        if (scale_here)
            scale_cols(j, buf, j0);
        ntt_cols_dif(buf, j->b, cols, j->tw, j->tw_half, j0, j->stride, j->inv);
    } else {
        ntt_cols_dit(buf, j->b, cols, j->tw, j->tw_half, j0, j->stride, j->inv);
        if (scale_here)
            scale_cols(j, buf, j0);
    }
    for (size_t m = 0; m < rows; m++)
        memcpy(base + m * j->stride, buf + m * cols, row_bytes);
}

/* Bit-reversed-side scaling of block q: position r holds natural index
 * bitrev_b(r) * 2^(L - b) + bitrev_(L-b)(q). */
static void scale_block_rev(const job *j, fr *x, size_t q) {
    size_t size = (size_t)1 << j->b;
    if (j->rev.kind == SCALE_CONST) {
        for (size_t r = 0; r < size; r++)
            fr_mul(&x[r], &x[r], &j->rev.c);
        return;
    }
    unsigned hb = j->d->log_n - j->b;
    fr cq, f;
    ntt_pow_u64(&cq, &j->rev.h, ntt_bitrev(q, hb));
    fr_mul(&cq, &cq, &j->rev.c);
    for (size_t r = 0; r < size; r++) {
        fr_mul(&f, &cq, &j->rev_pow[r]);
        fr_mul(&x[r], &x[r], &f);
    }
}

static void block_task(void *ctx, size_t q, unsigned worker) {
    (void)worker;
    const job *j = ctx;
    fr *x = j->a + (q << j->b);
    const fr *layers = j->inv ? j->d->layers_inv : j->d->layers;
    int single = j->p.passes == 1;
    if (!j->dit) { /* DIF: natural in, bit-reversed out */
        if (single && j->nat.kind != SCALE_NONE)
            ntt_powers_range(x, j->d->n, 0, &j->nat.c,
                             j->nat.kind == SCALE_POWERS ? &j->nat.h : NULL);
        ntt_block_dif(x, j->b, layers);
        if (j->rev.kind != SCALE_NONE)
            scale_block_rev(j, x, q);
    } else {
        if (j->rev.kind != SCALE_NONE)
            scale_block_rev(j, x, q);
        ntt_block_dit(x, j->b, layers);
        if (single && j->nat.kind != SCALE_NONE)
            ntt_powers_range(x, j->d->n, 0, &j->nat.c,
                             j->nat.kind == SCALE_POWERS ? &j->nat.h : NULL);
    }
}

static void set_pass(job *j, unsigned k) {
    unsigned L = j->d->log_n;
    j->s0 = 0;
    for (unsigned i = 0; i < k; i++)
        j->s0 += j->p.bits[i];
    j->b = j->p.bits[k];
    j->stride = (size_t)1 << (L - j->s0 - j->b);
    j->cols = j->d->tune.cols > 64 ? 64 : j->d->tune.cols;
    if (j->cols == 0) /* auto: 2^13 elements (256 KiB), 4..16 columns */
        j->cols = j->b >= 11 ? 4 : j->b <= 9 ? 16 : 8;
    if (j->cols > j->stride)
        j->cols = j->stride;
    while (j->stride % j->cols) /* a power of two divides the stride */
        j->cols--;
    j->groups = j->stride / j->cols;
}

/* A column pass at s0 > 0 reads omega^(2^s0 e): copied to a table of its
 * own first, since at a stride of 2^s0 every entry would take a cache line
 * and all of them the same few cache sets. */
static void run_pass(job *j, unsigned k, unsigned threads) {
    set_pass(j, k);
    unsigned L = j->d->log_n;
    if (k + 1 == j->p.passes) {
        par_run(threads, (size_t)1 << (L - j->b), block_task, j);
    } else {
        j->tw = j->d->powers;
        j->tw_half = j->d->n / 2;
        if (j->s0 > 0) {
            j->tw_half >>= j->s0;
            for (size_t e = 0; e <= j->tw_half; e++)
                j->pass_tw[e] = j->d->powers[e << j->s0];
            j->tw = j->pass_tw;
        }
        par_run(j->workers, (size_t)j->groups << j->s0, col_task, j);
    }
}

/* h^(k * step) for k < count, stored at k or at bitrev(k). */
static void fill_powers(fr *out, size_t count, const fr *h, uint64_t step, int bitrev) {
    fr hs, f;
    ntt_pow_u64(&hs, h, step);
    fr_set_one(&f);
    unsigned bits = (unsigned)__builtin_ctzll(count);
    for (size_t k = 0; k < count; k++) {
        out[bitrev ? ntt_bitrev(k, bits) : k] = f;
        fr_mul(&f, &f, &hs);
    }
}

/* Forward runs DIF (natural -> reversed) unless its input is reversed; the
 * inverse runs DIT (reversed -> natural) unless its output is reversed.
 * `inv` picks the twiddles; the pass direction follows the order. */
static ntt_status run(fr *a, const ntt_domain *d, int inv, ntt_order order, const scaler *sc,
                      unsigned threads) {
    int use_dit = inv ? order != NTT_NR : order == NTT_RN;
    int coef_side_natural = inv ? order != NTT_NR : order != NTT_RN; /* where sc applies */
    job j;
    memset(&j, 0, sizeof j);
    j.a = a;
    j.d = d;
    j.inv = inv;
    j.dit = use_dit;
    if (threads < 1)
        threads = 1;
    make_plan(&j.p, &d->tune, d->log_n, threads);
    if (coef_side_natural)
        j.nat = *sc;
    else
        j.rev = *sc;

    /* All scratch first, so that a failure leaves a untouched. */
    unsigned L = d->log_n, last = j.p.bits[j.p.passes - 1];
    size_t max_buf = 0, workers = threads;
    for (unsigned k = 0; k + 1 < j.p.passes; k++) {
        set_pass(&j, k);
        size_t tasks = (size_t)j.groups << j.s0;
        if (tasks < workers)
            workers = tasks;
        if (((size_t)j.cols << j.b) > max_buf)
            max_buf = (size_t)j.cols << j.b;
    }
    j.buf_elems = (max_buf + 1) & ~(size_t)1; /* keep each buffer 64-byte aligned */
    j.workers = (unsigned)workers;
    size_t row_n = j.nat.kind == SCALE_POWERS && j.p.passes > 1 ? (size_t)1 << j.p.bits[0] : 0;
    size_t rev_n = j.rev.kind == SCALE_POWERS ? (size_t)1 << last : 0;
    size_t tw_n =
        j.p.passes > 2 ? (d->n >> (j.p.bits[0] + 1)) + 1 : 0; /* pass 1's N/2 + 1, the largest */
    size_t total = j.buf_elems * workers + row_n + rev_n + tw_n;
    if (total) {
        j.scratch = aligned_alloc(64, ((total * sizeof(fr)) + 63) & ~(size_t)63);
        if (!j.scratch)
            return NTT_ERR_NO_MEMORY;
    }
    if (row_n) {
        j.row_pow = j.scratch + j.buf_elems * workers;
        fill_powers(j.row_pow, row_n, &j.nat.h, (uint64_t)1 << (L - j.p.bits[0]), 0);
    }
    if (rev_n) {
        j.rev_pow = j.scratch + j.buf_elems * workers + row_n;
        fill_powers(j.rev_pow, rev_n, &j.rev.h, (uint64_t)1 << (L - last), 1);
    }

    if (tw_n)
        j.pass_tw = j.scratch + j.buf_elems * workers + row_n + rev_n;
    if (order == NTT_NN && use_dit)
        ntt_bit_reverse(a, L, threads);
    if (j.p.passes == 1) {
        set_pass(&j, 0);
        block_task(&j, 0, 0);
    } else if (!use_dit) {
        for (unsigned k = 0; k < j.p.passes; k++)
            run_pass(&j, k, threads);
    } else {
        for (unsigned k = j.p.passes; k-- > 0;)
            run_pass(&j, k, threads);
    }
    if (order == NTT_NN && !use_dit)
        ntt_bit_reverse(a, L, threads);
    free(j.scratch);
    return NTT_OK;
}

ntt_status ntt_forward(fr *a, const ntt_domain *d, ntt_order order, unsigned threads) {
    scaler sc = {.kind = SCALE_NONE};
    return run(a, d, 0, order, &sc, threads);
}

ntt_status ntt_inverse(fr *a, const ntt_domain *d, ntt_order order, unsigned threads) {
    scaler sc = {.kind = SCALE_CONST, .c = d->n_inv};
    return run(a, d, 1, order, &sc, threads);
}

ntt_status ntt_coset_forward(fr *a, const ntt_domain *d, const fr *g, ntt_order order,
                             unsigned threads) {
    scaler sc = {.kind = SCALE_POWERS, .h = *g};
    fr_set_one(&sc.c);
    return run(a, d, 0, order, &sc, threads);
}

/* inverse, then a_i *= g^-i: one pass of c * h^i with c = 1/n, h = 1/g. */
ntt_status ntt_coset_inverse(fr *a, const ntt_domain *d, const fr *g, ntt_order order,
                             unsigned threads) {
    if (fr_is_zero(g))
        return NTT_ERR_NOT_INVERTIBLE;
    scaler sc = {.kind = SCALE_POWERS, .c = d->n_inv};
    fr_inv(&sc.h, g);
    return run(a, d, 1, order, &sc, threads);
}
