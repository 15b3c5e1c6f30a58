/* Merkle trees built in chunks and stored on disk, for the streaming sealer.
 * Same trees as merkle_tree.h (same shapes, hashers and nodes), but the
 * leaves come from a callback a chunk at a time and the rows go to a file,
 * so memory holds only one chunk per thread plus the rows above the chunks.
 *
 * A chunk is base^k leaves (k <= base_levels), so it is a whole subtree of
 * the first k levels: each task computes its chunk's rows 1..k-1 and its root
 * (a node of row k), writes its rows, and leaves the root in memory; rows
 * k..levels are computed from those roots at the end.
 *
 * File: rows first_row .. levels, leaf side first, each row whole and 32
 * bytes a node (with first_row = 1 this is the layout cmd_seal has always
 * written as tree-r-last). */
#ifndef CUZK_FILECOIN_TREE_STREAM_H
#define CUZK_FILECOIN_TREE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle/merkle_proof.h"
#include "sealer/seal_mem.h"
#include "gadget/por.h"

typedef struct {
    por_shape shape;
    uint64_t leaves;
    unsigned levels, first_row;
    uint64_t width[POR_MAX_LEVELS + 1];
    uint64_t offset[POR_MAX_LEVELS + 1]; /* byte offset of row l (l >= first_row) */
    uint64_t file_bytes;
    uint8_t root[32]; /* set by tree_stream_build */
} tree_stream;

/* The layout of a tree of `leaves` leaves (merkle_shape_for_leaves; base, sub,
 * top as merkle_tree_build).  MERKLE_OK or a MERKLE_ERR_* code. */
int tree_stream_layout(tree_stream *t, tree_hasher h, unsigned base, unsigned sub, unsigned top,
                       uint64_t leaves, unsigned first_row);

/* Fills out with leaves [first, first + n) (n * 32 bytes, canonical nodes for
 * Poseidon).  scratch: leaf_scratch bytes of the calling worker's own.
 * Called from worker threads.  0, or -1 with a message in err. */
typedef int (*tree_leaf_fn)(void *ctx, uint64_t first, size_t n, uint8_t *out, uint8_t *scratch,
                            char *err, size_t cap);

typedef struct {
    int fd;             /* the tree file, opened for writing */
    unsigned threads;   /* par_run workers (0 or 1: inline) */
    uint64_t max_chunk; /* most leaves a task takes (0: 1 << 16) */
    tree_leaf_fn leaf;  /* leaves source */
    void *leaf_ctx;
    size_t leaf_scratch; /* bytes of scratch per leaf the callback needs */
    fc_seal_mem *mem;    /* every buffer is booked here */
} tree_stream_params;

/* Builds the tree whose layout is t, writing its rows to p->fd and its root
 * to t->root.  The chunk is the largest base^k within max_chunk whose buffers
 * (threads chunks, the upper rows) fit in the ledger's free budget.  0, or -1
 * with a message (budget, I/O, a leaf callback's error). */
int tree_stream_build(tree_stream *t, const tree_stream_params *p, char *err, size_t cap);

/* The proof of leaf i, reading the tree file tree_fd and, for row 0 when the
 * file does not hold it (first_row = 1), leaf_fd (leaves × 32 bytes).
 * MERKLE_OK, MERKLE_ERR_INDEX, MERKLE_ERR_NOMEM, or -1 on a read error. */
int tree_stream_proof(merkle_proof *p, const tree_stream *t, int tree_fd, int leaf_fd, uint64_t i);

#endif
