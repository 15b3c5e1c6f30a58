/* Chunked, file-backed Merkle trees: see tree_stream.h. */
#include "sealer/tree_stream.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/merkle/merkle_tree.h"
#include "sealer/seal_io.h"
#include "util/err.h"
#include "util/parallel.h"

int tree_stream_layout(tree_stream *t, tree_hasher h, unsigned base, unsigned sub, unsigned top,
                       uint64_t leaves, unsigned first_row) {
    memset(t, 0, sizeof *t);
    por_shape s;
    int err = merkle_shape_for_leaves(&s, h, base, sub, top, (size_t)leaves);
    if (err)
        return err;
    t->shape = s;
    t->leaves = leaves;
    t->levels = por_shape_levels(&s);
    t->first_row = first_row > t->levels ? t->levels : first_row;
    t->width[0] = leaves;
    for (unsigned l = 0; l < t->levels; l++)
        t->width[l + 1] = t->width[l] / por_shape_arity(&s, l);
    uint64_t off = 0;
    for (unsigned l = t->first_row; l <= t->levels; l++) {
        t->offset[l] = off;
        off += t->width[l] * 32;
    }
    t->file_bytes = off;
    return MERKLE_OK;
}

typedef struct {
    tree_stream *t;
    const tree_stream_params *p;
    unsigned k;                           /* levels inside a chunk */
    uint64_t chunk;                       /* leaves per chunk = base^k */
    size_t rows_bytes;                    /* a worker's rows 0..k-1 */
    uint64_t row_off[POR_MAX_LEVELS + 1]; /* in a worker buffer, rows 0..k-1 */
    uint8_t **buf, **scratch;
    uint8_t *upper; /* rows k..levels */
    uint64_t upper_off[POR_MAX_LEVELS + 1];
    _Atomic int failed;
    pthread_mutex_t lock;
    char err[384];
} build_ctx;

static void task_fail(build_ctx *b, const char *fmt, ...) {
    pthread_mutex_lock(&b->lock);
    if (!b->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(b->err, sizeof b->err, fmt, ap);
        va_end(ap);
        b->failed = 1;
    }
    pthread_mutex_unlock(&b->lock);
}

static void chunk_task(void *ctx, size_t c, unsigned worker) {
    build_ctx *b = ctx;
    if (b->failed)
        return;
    const tree_stream *t = b->t;
    const tree_stream_params *p = b->p;
    uint8_t *buf = b->buf[worker];
    char msg[256] = "";
    if (p->leaf(p->leaf_ctx, (uint64_t)c * b->chunk, (size_t)b->chunk, buf, b->scratch[worker], msg,
                sizeof msg) != 0) {
        task_fail(b, "%s", msg);
        return;
    }
    unsigned a = t->shape.base;
    uint64_t n = b->chunk;
    for (unsigned j = 0; j < b->k; j++, n /= a) {
        const uint8_t *src = buf + b->row_off[j];
        uint8_t *dst = j + 1 == b->k ? b->upper + (uint64_t)c * 32 : buf + b->row_off[j + 1];
        for (uint64_t i = 0; i < n / a; i++) {
            int rc = merkle_hash_node(dst + 32 * i, t->shape.hasher, src + 32 * i * a, a);
            if (rc != MERKLE_OK) {
                task_fail(b, "row %u node %llu: %s", j + 1,
                          (unsigned long long)((uint64_t)c * (n / a) + i), merkle_strerror(rc));
                return;
            }
        }
        if (j >= t->first_row &&
            fc_pwrite_full(p->fd, src, n * 32, t->offset[j] + (uint64_t)c * n * 32) != 0) {
            task_fail(b, "cannot write row %u of the tree file", j);
            return;
        }
    }
}

/* Bytes a build with chunk level k books: the workers' buffers and the upper rows. */
static uint64_t need_bytes(const tree_stream *t, unsigned k, unsigned workers, size_t scratch) {
    uint64_t chunk = 1, rows = 0, upper = 0;
    for (unsigned j = 0; j < k; j++)
        chunk *= t->shape.base;
    uint64_t n = chunk;
    for (unsigned j = 0; j < k; j++, n /= t->shape.base)
        rows += n * 32;
    for (unsigned l = k; l <= t->levels; l++)
        upper += t->width[l] * 32;
    return (uint64_t)workers * (rows + chunk * scratch) + upper;
}

int tree_stream_build(tree_stream *t, const tree_stream_params *p, char *err, size_t cap) {
    build_ctx b = {.t = t, .p = p};
    uint64_t max_chunk = p->max_chunk ? p->max_chunk : (1u << 16);
    unsigned threads = p->threads ? p->threads : 1, a = t->shape.base;
    unsigned k = 0, workers = 1;
    uint64_t need = 0;
    for (unsigned c = t->shape.base_levels; c >= 1; c--) {
        uint64_t chunk = 1;
        for (unsigned j = 0; j < c; j++)
            chunk *= a;
        if (chunk > max_chunk && c > 1)
            continue;
        uint64_t chunks = t->width[0] / chunk;
        workers = chunks < threads ? (unsigned)chunks : threads;
        need = need_bytes(t, c, workers, p->leaf_scratch);
        if (need <= fc_seal_mem_left(p->mem)) {
            k = c;
            b.chunk = chunk;
            break;
        }
    }
    if (!k)
        return err_set(err, cap,
                       "memory budget: a tree of %llu leaves needs %llu bytes in chunks, %llu left",
                       (unsigned long long)t->leaves, (unsigned long long)need,
                       (unsigned long long)fc_seal_mem_left(p->mem));
    b.k = k;
    uint64_t n = b.chunk;
    for (unsigned j = 0; j < k; j++, n /= a) {
        b.row_off[j] = b.rows_bytes;
        b.rows_bytes += n * 32;
    }
    size_t upper_bytes = 0;
    for (unsigned l = k; l <= t->levels; l++) {
        b.upper_off[l] = upper_bytes;
        upper_bytes += t->width[l] * 32;
    }
    size_t scratch_bytes = (size_t)(b.chunk * p->leaf_scratch);
    int rc = -1;
    pthread_mutex_init(&b.lock, NULL);
    b.buf = calloc(workers, sizeof *b.buf);
    b.scratch = calloc(workers, sizeof *b.scratch);
    b.upper = fc_seal_mem_alloc(p->mem, upper_bytes);
    int ok = b.buf && b.scratch && b.upper;
    for (unsigned w = 0; ok && w < workers; w++) {
        b.buf[w] = fc_seal_mem_alloc(p->mem, b.rows_bytes);
        b.scratch[w] = scratch_bytes ? fc_seal_mem_alloc(p->mem, scratch_bytes) : NULL;
        ok = b.buf[w] && (!scratch_bytes || b.scratch[w]);
    }
    if (!ok) {
        snprintf(err, cap, "out of memory (or over budget) for tree chunks of %llu leaves",
                 (unsigned long long)b.chunk);
        goto out;
    }
    par_run(workers, (size_t)(t->width[0] / b.chunk), chunk_task, &b);
    if (b.failed) {
        snprintf(err, cap, "%s", b.err);
        goto out;
    }
    for (unsigned l = k; l < t->levels; l++) {
        unsigned ar = por_shape_arity(&t->shape, l);
        const uint8_t *src = b.upper + b.upper_off[l];
        uint8_t *dst = b.upper + b.upper_off[l + 1];
        for (uint64_t i = 0; i < t->width[l + 1]; i++) {
            int e = merkle_hash_node(dst + 32 * i, t->shape.hasher, src + 32 * i * ar, ar);
            if (e != MERKLE_OK) {
                snprintf(err, cap, "row %u node %llu: %s", l + 1, (unsigned long long)i,
                         merkle_strerror(e));
                goto out;
            }
        }
    }
    for (unsigned l = k < t->first_row ? t->first_row : k; l <= t->levels; l++)
        if (fc_pwrite_full(p->fd, b.upper + b.upper_off[l], t->width[l] * 32, t->offset[l]) != 0) {
            snprintf(err, cap, "cannot write row %u of the tree file", l);
            goto out;
        }
    memcpy(t->root, b.upper + b.upper_off[t->levels], 32);
    rc = 0;
out:
    for (unsigned w = 0; b.buf && w < workers; w++)
        fc_seal_mem_free(p->mem, b.buf[w], b.rows_bytes);
    for (unsigned w = 0; b.scratch && w < workers; w++)
        fc_seal_mem_free(p->mem, b.scratch[w], scratch_bytes);
    fc_seal_mem_free(p->mem, b.upper, upper_bytes);
    free(b.buf);
    free(b.scratch);
    pthread_mutex_destroy(&b.lock);
    return rc;
}

int tree_stream_proof(merkle_proof *p, const tree_stream *t, int tree_fd, int leaf_fd, uint64_t i) {
    memset(p, 0, sizeof *p);
    if (i >= t->leaves)
        return MERKLE_ERR_INDEX;
    p->shape = t->shape;
    p->siblings = malloc(por_shape_siblings(&t->shape) * 32);
    if (!p->siblings)
        return MERKLE_ERR_NOMEM;
    uint8_t group[POR_MAX_ARITY * 32];
    uint64_t j = i;
    size_t out = 0;
    int bad = fc_pread_full(tree_fd, p->root, 32, t->offset[t->levels]);
    for (unsigned l = 0; !bad && l < t->levels; l++) {
        unsigned a = por_shape_arity(&t->shape, l);
        uint64_t first = j / a * a;
        int fd = l < t->first_row ? leaf_fd : tree_fd;
        uint64_t off = l < t->first_row ? first * 32 : t->offset[l] + first * 32;
        bad = fc_pread_full(fd, group, (size_t)a * 32, off);
        if (bad)
            break;
        if (l == 0)
            memcpy(p->leaf, group + 32 * (j - first), 32);
        p->index[l] = (uint32_t)(j - first);
        for (unsigned k = 0; k < a; k++)
            if (first + k != j)
                memcpy(p->siblings + 32 * out++, group + 32 * k, 32);
        j /= a;
    }
    if (bad) {
        merkle_proof_free(p);
        return -1;
    }
    return MERKLE_OK;
}
