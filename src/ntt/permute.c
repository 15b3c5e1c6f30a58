/* The bit-reversal permutation, in place, by tiles.
 *
 * Write an index as (hi, mid, lo) with hi and lo of TILE_LOG bits: its
 * reversal is (rev lo, rev mid, rev hi).  So the 2^TILE_LOG x 2^TILE_LOG tile
 * of all indices with middle bits mid maps onto the tile of rev(mid),
 * transposed with reversed coordinates.  Each tile is 16 rows of 16
 * contiguous elements (512 bytes), so both tiles of a pair are read and
 * written a cache line at a time through two 8 KiB buffers, instead of the
 * element-by-element scattered swaps that miss the cache on every access. */
#include <string.h>

#include "ntt/ntt_internal.h"
#include "util/parallel.h"

#define TILE_LOG 4
#define TILE ((size_t)1 << TILE_LOG)
/* Tile pairs per task: ~64 pairs = 1 MiB of traffic per hand-out. */
#define TILES_PER_TASK_LOG 6

typedef struct {
    fr *a;
    unsigned log_n, mid_bits;
    size_t mids_per_task;
} perm_job;

static void load_tile(fr t[TILE][TILE], const fr *a, size_t row_stride, size_t mid) {
    for (size_t hi = 0; hi < TILE; hi++)
        memcpy(t[hi], a + hi * row_stride + mid * TILE, sizeof t[hi]);
}

/* Writes tile mid from t, the contents of the tile it pairs with. */
static void store_tile_reversed(fr *a, size_t row_stride, size_t mid, fr t[TILE][TILE]) {
    for (size_t hi = 0; hi < TILE; hi++) {
        fr *row = a + hi * row_stride + mid * TILE;
        size_t col = ntt_bitrev(hi, TILE_LOG);
        for (size_t lo = 0; lo < TILE; lo++)
            row[lo] = t[ntt_bitrev(lo, TILE_LOG)][col];
    }
}

static void perm_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    const perm_job *j = ctx;
    size_t row_stride = (size_t)1 << (j->log_n - TILE_LOG);
    fr ta[TILE][TILE], tb[TILE][TILE];
    for (size_t k = 0; k < j->mids_per_task; k++) {
        size_t mid = task * j->mids_per_task + k, mate = ntt_bitrev(mid, j->mid_bits);
        if (mate < mid)
            continue; /* the pair is done from its smaller member */
        load_tile(ta, j->a, row_stride, mid);
        if (mate == mid) {
            store_tile_reversed(j->a, row_stride, mid, ta);
        } else {
            load_tile(tb, j->a, row_stride, mate);
            store_tile_reversed(j->a, row_stride, mate, ta);
            store_tile_reversed(j->a, row_stride, mid, tb);
        }
    }
}

void ntt_bit_reverse(fr *a, unsigned log_n, unsigned threads) {
    if (log_n < 2 * TILE_LOG) {
        size_t n = (size_t)1 << log_n;
        for (size_t i = 0; i < n; i++) {
            size_t r = ntt_bitrev(i, log_n);
            if (i < r) {
                fr t = a[i];
                a[i] = a[r];
                a[r] = t;
            }
        }
        return;
    }
    perm_job j = {a, log_n, log_n - 2 * TILE_LOG, 1};
    if (j.mid_bits > TILES_PER_TASK_LOG)
        j.mids_per_task = (size_t)1 << TILES_PER_TASK_LOG;
    size_t tasks = ((size_t)1 << j.mid_bits) / j.mids_per_task;
    par_run(threads, tasks, perm_task, &j);
}
