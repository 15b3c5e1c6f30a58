#include "filecoin/sdr/graph.h"

#include <string.h>

#include "util/verify.h"

int fc_graph_init(fc_graph *g, const uint8_t porep_id[32], uint64_t nodes, unsigned api_minor) {
    memset(g, 0, sizeof *g);
    if (nodes < 2 || nodes > UINT32_MAX || api_minor > 2)
        return -1;
    g->nodes = nodes;
    g->legacy_v1 = api_minor == 0;
    memcpy(g->porep_id, porep_id, 32);
    fc_drg_seed(g->drg_seed, porep_id);
    fc_feistel_keys(g->feistel_keys, porep_id);
    return fc_feistel_init(&g->feistel, nodes * FC_EXP_DEGREE, g->feistel_keys);
}

int fc_graph_init_proof(fc_graph *g, const fc_seal_proof *p) {
    uint8_t id[32];
    fc_porep_id(id, p);
    return fc_graph_init(g, id, p->shape->nodes, p->api_minor);
}

void fc_graph_free(fc_graph *g) { fc_feistel_free(&g->feistel); }

void fc_graph_parents(const fc_graph *g, uint32_t node, uint32_t out[FC_GRAPH_DEGREE]) {
    VERIFY_CHECK(node < g->nodes);
    fc_drg_parents(out, g->drg_seed, node, g->legacy_v1);
    fc_expander_parents(out + FC_DRG_DEGREE, &g->feistel, node, g->legacy_v1);
}
