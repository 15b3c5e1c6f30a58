/* SDR labels (filecoin-facts §3.3; rust-fil-proofs stacked/vanilla/
 * create_label/single.rs create_label / create_label_exp, graph.rs
 * copy_parents_data*).
 *
 * label(layer, v) = sha256(replica_id[32] ‖ layer u32 BE ‖ v u64 BE ‖ 20 zero
 * bytes ‖ 37 parent labels) with byte 31 &= 0x3f.  The 37 parents:
 *   layer 1:  the 6 DRG parents (this layer) six times, then DRG parent 0;
 *   layer >1: [6 DRG parents from this layer, 8 expander parents from the
 *             previous layer] twice, then the first 9 of those 14.
 * Node 0 hashes only the first 64 bytes (no parents). */
#ifndef CUZK_FILECOIN_LABEL_H
#define CUZK_FILECOIN_LABEL_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/sdr/graph.h"

enum { FC_LABEL_PARENTS = 37 };

/* The 37 (node, from-previous-layer) references a label hashes, in order, from
 * the node's 14 graph parents.  from_prev[i] = 1 for expander parents (layer > 1). */
void fc_label_parent_refs(uint32_t nodes_out[FC_LABEL_PARENTS], uint8_t from_prev[FC_LABEL_PARENTS],
                          const uint32_t parents[FC_GRAPH_DEGREE], uint32_t layer);

/* One label.  cur = this layer's labels (at least those of the DRG parents,
 * all < node), prev = the previous layer's labels (layer > 1; NULL for
 * layer 1).  layer >= 1. */
void fc_label(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint32_t node,
              const uint32_t parents[FC_GRAPH_DEGREE], const uint8_t *cur, const uint8_t *prev);

/* All layers of a (small) graph, sequentially: labels[(l-1)*nodes*32 + v*32] =
 * label(l, v) for l = 1..layers.  The caller provides layers*nodes*32 bytes. */
void fc_labels_generate(uint8_t *labels, const fc_graph *g, const uint8_t replica_id[32],
                        uint32_t layers);

#endif
