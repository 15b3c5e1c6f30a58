/* The SDR graph of one porep_id and size: 6 DRG parents (drg.h) then 8
 * expander parents (expander.h) per node, the 14-entry order of the parent
 * cache and of the labelling (filecoin-facts §3.3, §3.12).  The API version
 * only changes the DRG slot order and the expander's V1 truncation. */
#ifndef CUZK_FILECOIN_GRAPH_H
#define CUZK_FILECOIN_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/sdr/drg.h"
#include "filecoin/sdr/expander.h"
#include "filecoin/sdr/feistel.h"
#include "filecoin/proof_types.h"

enum { FC_GRAPH_DEGREE = FC_DRG_DEGREE + FC_EXP_DEGREE }; /* 14 */

typedef struct {
    uint64_t nodes;
    int legacy_v1; /* ApiVersion 1.0.0 */
    uint8_t porep_id[32];
    uint8_t drg_seed[28];
    uint64_t feistel_keys[4];
    fc_feistel feistel; /* over [0, 8*nodes) */
} fc_graph;

/* nodes in 2 .. 2^32 - 1 (rust-fil-proofs' bound); api_minor 0, 1 or 2.
 * Returns 0, or -1 (bad size, out of memory). */
int fc_graph_init(fc_graph *g, const uint8_t porep_id[32], uint64_t nodes, unsigned api_minor);
/* The graph of a registered seal proof (its porep_id, size and API version). */
int fc_graph_init_proof(fc_graph *g, const fc_seal_proof *p);
void fc_graph_free(fc_graph *g);

/* out[0..5] DRG parents, out[6..13] expander parents of node (< nodes). */
void fc_graph_parents(const fc_graph *g, uint32_t node, uint32_t out[FC_GRAPH_DEGREE]);

#endif
