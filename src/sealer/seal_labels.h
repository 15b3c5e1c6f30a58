/* SDR labelling for the streaming sealer: layer by layer with only the
 * previous and the current layer in memory (2 × nodes × 32 bytes on the
 * ledger), each finished layer written to its own file (like rust-fil-
 * proofs' sc-02-data-layer-N.dat).
 *
 * Within a layer the labels are sequential (node v hashes label v-1 and
 * other DRG parents of the same layer), so one thread hashes while a second
 * one runs ahead: it reads the nodes' 14 parents from the parent cache file
 * and gathers the 8 expander parents' labels of the previous layer into a
 * ring of chunks, so the hashing thread only copies the 6 DRG labels and
 * runs SHA-256 (libcrypto) over one contiguous message per node.  Same
 * labels as label.h's fc_label. */
#ifndef CUZK_FILECOIN_SEAL_LABELS_H
#define CUZK_FILECOIN_SEAL_LABELS_H

#include <stddef.h>
#include <stdint.h>

#include "sealer/seal_mem.h"

/* Called on the calling thread: stage "labels", done/total nodes of all layers. */
typedef void (*fc_labels_progress_fn)(void *ctx, const char *stage, uint64_t done, uint64_t total);

typedef struct {
    uint64_t nodes;
    unsigned layers;
    const uint8_t *replica_id; /* 32 bytes */
    int parents_fd;            /* the parent cache file (parent_cache.h layout) */
    const int *layer_fds;      /* layers descriptors: layer l goes to layer_fds[l - 1] */
    fc_seal_mem *mem;
    fc_labels_progress_fn progress; /* may be NULL */
    void *progress_ctx;
    double *layer_seconds; /* layers entries (wall time of each layer), or NULL */
} fc_labels_stream_params;

/* Bytes fc_labels_stream books: the two layers and the ring. */
uint64_t fc_labels_stream_bytes(uint64_t nodes);

/* Labels layers 1..layers into their files.  0, or -1 with a message
 * (budget, I/O, thread creation). */
int fc_labels_stream(const fc_labels_stream_params *p, char *err, size_t cap);

#endif
