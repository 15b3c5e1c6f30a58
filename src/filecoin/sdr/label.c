#include "filecoin/sdr/label.h"

#include <string.h>

#include "filecoin/hash/sha256_native.h"
#include "util/verify.h"

void fc_label_parent_refs(uint32_t nodes_out[FC_LABEL_PARENTS], uint8_t from_prev[FC_LABEL_PARENTS],
                          const uint32_t parents[FC_GRAPH_DEGREE], uint32_t layer) {
    unsigned width = layer == 1 ? FC_DRG_DEGREE : FC_GRAPH_DEGREE;
    for (unsigned i = 0; i < FC_LABEL_PARENTS; i++) {
        unsigned s = i % width;
        nodes_out[i] = parents[s];
        from_prev[i] = s >= FC_DRG_DEGREE;
    }
}

void fc_label(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint32_t node,
              const uint32_t parents[FC_GRAPH_DEGREE], const uint8_t *cur, const uint8_t *prev) {
    VERIFY_CHECK(layer >= 1 && (layer == 1 || prev != NULL));
    uint8_t msg[64 + 32 * FC_LABEL_PARENTS];
    memcpy(msg, replica_id, 32);
    memset(msg + 32, 0, 32);
    for (int i = 0; i < 4; i++)
        msg[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        msg[36 + i] = (uint8_t)((uint64_t)node >> (56 - 8 * i));
    size_t len = 64;
    if (node > 0) {
        uint32_t refs[FC_LABEL_PARENTS];
        uint8_t from_prev[FC_LABEL_PARENTS];
        fc_label_parent_refs(refs, from_prev, parents, layer);
        for (unsigned i = 0; i < FC_LABEL_PARENTS; i++) {
            const uint8_t *src = from_prev[i] ? prev : cur;
            memcpy(msg + len, src + (size_t)refs[i] * 32, 32);
            len += 32;
        }
    }
    sha256_trunc_native(out, msg, len);
}

void fc_labels_generate(uint8_t *labels, const fc_graph *g, const uint8_t replica_id[32],
                        uint32_t layers) {
    size_t layer_bytes = (size_t)g->nodes * 32;
    uint32_t par[FC_GRAPH_DEGREE];
    for (uint32_t l = 1; l <= layers; l++) {
        uint8_t *cur = labels + (size_t)(l - 1) * layer_bytes;
        const uint8_t *prev = l > 1 ? cur - layer_bytes : NULL;
        for (uint64_t v = 0; v < g->nodes; v++) {
            fc_graph_parents(g, (uint32_t)v, par);
            fc_label(cur + v * 32, replica_id, l, (uint32_t)v, par, cur, prev);
        }
    }
}
