/* The streaming sealer: PreCommit 1/2 and Commit 1 like sealer.h, with the
 * same results byte for byte, but with bounded memory: data, layers and trees
 * live in files in one directory and memory holds at most
 *
 *   2 layers (2 × sector size) + the labelling ring (2.5 MiB; less for tiny sectors)
 *
 * during labelling (the peak), and per-thread tree chunks plus the rows above
 * them while building trees (budget-sized, a few MiB by default).  Every large
 * buffer is booked on a ledger (seal_mem.h) whose budget is the caller's; an
 * allocation past it fails with a message instead of growing.
 *
 * Directory (dir) contents; `unsealed` must exist before the call:
 *   unsealed        the Fr32-padded data, nodes × 32 bytes (tree D's leaves)
 *   tree-d          tree D's rows above the leaves      (tree_stream.h layout)
 *   <cache key>.cache  the parent cache (parent_cache.h), unless o->parent_cache
 *   layer-1 .. layer-L  the labels of each layer, nodes × 32 bytes
 *   tree-c          tree C's rows, the column hashes (leaves) first
 *   sealed          the replica = label_L + data in Fr (tree R's leaves)
 *   tree-r-last     tree R's rows above the leaves
 * Commit 1 then reads columns and paths from those files. */
#ifndef CUZK_FILECOIN_SEALER_STREAM_H
#define CUZK_FILECOIN_SEALER_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "sealer/sealer.h"

typedef struct {
    const char *dir;          /* holds `unsealed`; everything is written here */
    uint64_t mem_budget;      /* bytes; 0: fc_seal_stream_min_budget + 64 MiB */
    const char *parent_cache; /* NULL: dir/<key>.cache, generated when missing */
    uint64_t max_chunk;       /* tree chunk leaves (0: 1 << 16); tests use small ones */
} fc_stream_opts;

enum { FC_STREAM_MAX_LAYERS = 11 };

typedef struct {
    fc_sealed s;         /* header and commitments; no labels, no trees */
    uint64_t mem_budget; /* the budget used */
    uint64_t mem_peak;   /* the ledger's peak */
    double t_tree_d, t_parents, t_layer[FC_STREAM_MAX_LAYERS], t_tree_c, t_tree_r, t_c1;
} fc_stream_result;

/* The smallest budget that seals this proof: two layers, the labelling ring,
 * the parent-cache generation windows for `threads`. */
uint64_t fc_seal_stream_min_budget(const fc_seal_proof *p, unsigned threads);

/* PreCommit 1/2 and Commit 1 of p over dir/unsealed.  Returns 0 with *c1
 * set (c1_output_free) and res filled, or -1 with a message. */
int fc_seal_stream(fc_stream_result *res, c1_output **c1, const fc_seal_params *p,
                   const fc_stream_opts *o, char *err, size_t cap);

#endif
