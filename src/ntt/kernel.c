/* The in-cache kernels: all stages of a contiguous block, and a run of
 * stages over a gathered group of columns.
 *
 * Multiplication count.  A radix-2 butterfly is one fr_mul and an add and a
 * subtract (far cheaper together); radix-4 saves nothing in a prime field,
 * where multiplying by the fourth root of unity is a full multiply.  What can
 * be saved is the multiply by 1: the first butterfly of every block (j = 0),
 * the whole last DIF (first DIT) stage, and half of the one next to it (done
 * together as a radix-4 tail).  That brings a transform to about
 * (n/2)(log n - 2) multiplies.  (A radix-4 sweep measured no faster than
 * two radix-2 stages over a 2^12 block: the loads and stores it saves are L1
 * hits beside a multiply.) */
#include "ntt/ntt_internal.h"

/* Below 2^9 elements (16 KiB) a block and its twiddles stay in L1: run the
 * stages breadth-first there; above it, recurse so each half shrinks into L1. */
#define NTT_L1_LOG 9

/* One DIF stage over 2h elements; w[j] = omega_2h^j. */
static void dif_stage(fr *x, size_t h, const fr *w, int x86) {
    fr *y = x + h;
    ntt_bf_plain(&x[0], &y[0], x86);
    for (size_t j = 1; j < h; j++)
        ntt_bf_dif(&x[j], &y[j], &w[j], x86);
}

static void dit_stage(fr *x, size_t h, const fr *w, int x86) {
    fr *y = x + h;
    ntt_bf_plain(&x[0], &y[0], x86);
    for (size_t j = 1; j < h; j++)
        ntt_bf_dit(&x[j], &y[j], &w[j], x86);
}

/* The last two DIF stages (h = 2 then h = 1) on groups of 4; w4 = omega_4^(+-1). */
static void dif_tail4(fr *x, size_t count, const fr *w4, int x86) {
    for (size_t i = 0; i < count; i += 4) {
        fr *v = x + i;
        ntt_bf_plain(&v[0], &v[2], x86);
        ntt_bf_dif(&v[1], &v[3], w4, x86);
        ntt_bf_plain(&v[0], &v[1], x86);
        ntt_bf_plain(&v[2], &v[3], x86);
    }
}

/* The first two DIT stages (h = 1 then h = 2). */
static void dit_head4(fr *x, size_t count, const fr *w4, int x86) {
    for (size_t i = 0; i < count; i += 4) {
        fr *v = x + i;
        ntt_bf_plain(&v[0], &v[1], x86);
        ntt_bf_plain(&v[2], &v[3], x86);
        ntt_bf_plain(&v[0], &v[2], x86);
        ntt_bf_dit(&v[1], &v[3], w4, x86);
    }
}

static void block_dif(fr *x, unsigned b, const fr *layers, int x86) {
    if (b == 0)
        return;
    if (b == 1) {
        ntt_bf_plain(&x[0], &x[1], x86);
        return;
    }
    size_t size = (size_t)1 << b;
    if (b > NTT_L1_LOG) {
        size_t h = size / 2;
        dif_stage(x, h, layers + h, x86);
        block_dif(x, b - 1, layers, x86);
        block_dif(x + h, b - 1, layers, x86);
        return;
    }
    for (size_t h = size / 2; h > 2; h /= 2)
        for (size_t blk = 0; blk < size; blk += 2 * h)
            dif_stage(x + blk, h, layers + h, x86);
    dif_tail4(x, size, &layers[3], x86);
}

void ntt_block_dif(fr *x, unsigned b, const fr *layers) { block_dif(x, b, layers, ntt_use_x86()); }

static void block_dit(fr *x, unsigned b, const fr *layers, int x86) {
    if (b == 0)
        return;
    if (b == 1) {
        ntt_bf_plain(&x[0], &x[1], x86);
        return;
    }
    size_t size = (size_t)1 << b;
    if (b > NTT_L1_LOG) {
        size_t h = size / 2;
        block_dit(x, b - 1, layers, x86);
        block_dit(x + h, b - 1, layers, x86);
        dit_stage(x, h, layers + h, x86);
        return;
    }
    dit_head4(x, size, &layers[3], x86);
    for (size_t h = 4; h < size; h *= 2)
        for (size_t blk = 0; blk < size; blk += 2 * h)
            dit_stage(x + blk, h, layers + h, x86);
}

void ntt_block_dit(fr *x, unsigned b, const fr *layers) { block_dit(x, b, layers, ntt_use_x86()); }

/* Row pair (m, m + half) of stage s: column c's twiddle exponent is
 * 2^s (j0 + c + m stride), below n/2 (see ntt_internal.h).  The block loop
 * runs inside the row loop so one row of twiddles serves every block of the
 * stage.  In the first pass of a large domain those twiddles are scattered
 * over a table far larger than the caches, one miss per line: fetch them two
 * rows ahead. */
#define TW_AHEAD 2

static inline void prefetch_twiddles(const fr *powers, size_t half_n, size_t e, size_t de,
                                     size_t cols, int inv) {
    size_t step = de == 1 ? 2 : 1; /* two elements to a 64-byte line */
    for (size_t c = 0; c < cols; c += step)
        __builtin_prefetch(inv ? &powers[half_n - e - c * de] : &powers[e + c * de]);
}

/* Stage s of either direction (dit a constant once inlined, so each caller
 * keeps its own loop with one kind of butterfly). */
static inline __attribute__((always_inline)) void
cols_stage(fr *buf, size_t rows, unsigned s, size_t cols, const fr *powers, size_t half_n,
           size_t j0, size_t stride, int inv, int dit, int x86) {
    size_t half = rows >> (s + 1), de = (size_t)1 << s;
    for (size_t m = 0; m < half; m++) {
        size_t e = (j0 + m * stride) << s;
        if (m + TW_AHEAD < half)
            prefetch_twiddles(powers, half_n, (j0 + (m + TW_AHEAD) * stride) << s, de, cols, inv);
        for (size_t blk = 0; blk < rows; blk += 2 * half) {
            fr *x = buf + (blk + m) * cols, *y = x + half * cols;
            if (inv)
                for (size_t c = 0; c < cols; c++)
                    (dit ? ntt_bf_dit_swap : ntt_bf_dif_swap)(&x[c], &y[c],
                                                              &powers[half_n - e - c * de], x86);
            else
                for (size_t c = 0; c < cols; c++)
                    (dit ? ntt_bf_dit : ntt_bf_dif)(&x[c], &y[c], &powers[e + c * de], x86);
        }
    }
}

void ntt_cols_dif(fr *buf, unsigned b, size_t cols, const fr *powers, size_t half_n, size_t j0,
                  size_t stride, int inv) {
    size_t rows = (size_t)1 << b;
    int x86 = ntt_use_x86();
    for (unsigned s = 0; s < b; s++)
        cols_stage(buf, rows, s, cols, powers, half_n, j0, stride, inv, 0, x86);
}

void ntt_cols_dit(fr *buf, unsigned b, size_t cols, const fr *powers, size_t half_n, size_t j0,
                  size_t stride, int inv) {
    size_t rows = (size_t)1 << b;
    int x86 = ntt_use_x86();
    for (unsigned s = b; s-- > 0;)
        cols_stage(buf, rows, s, cols, powers, half_n, j0, stride, inv, 1, x86);
}
