/* SDR labels against rust-fil-proofs storage-proofs-porep/tests/stacked_vanilla.rs
 * test_stacked_porep_generate_labels (filecoin-facts §3.12): replica_id
 * [9; 32], 11 layers, the last label of the last layer, for 64 and 128 nodes,
 * porep_id [0; 32] under API 1.0 and [123; 32] under API 1.1 and 1.2. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/sdr/label.h"
#include "filecoin/hash/sha256_native.h"

static void limbs(uint8_t out[32], const uint64_t l[4]) {
    for (int i = 0; i < 32; i++)
        out[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
}

static void vector(uint64_t nodes, uint8_t porep_byte, unsigned api, const uint64_t want[4]) {
    uint8_t porep[32], rid[32], w[32];
    memset(porep, porep_byte, 32);
    memset(rid, 9, 32);
    limbs(w, want);
    fc_graph g;
    CHECK(fc_graph_init(&g, porep, nodes, api) == 0);
    uint8_t *labels = malloc(11 * nodes * 32);
    fc_labels_generate(labels, &g, rid, 11);
    CHECK_MEM(labels + (10 * nodes + nodes - 1) * 32, w, 32);
    /* Every label is a canonical Fr (top two bits cleared). */
    for (uint64_t i = 0; i < 11 * nodes; i++)
        CHECK((labels[32 * i + 31] & 0xc0) == 0);
    /* Spot-check one label by its byte layout, built by hand: layer 2, node 5. */
    uint32_t par[FC_GRAPH_DEGREE];
    fc_graph_parents(&g, 5, par);
    uint8_t msg[64 + 37 * 32] = {0}, d[32];
    memcpy(msg, rid, 32);
    msg[35] = 2; /* layer u32 BE */
    msg[43] = 5; /* node u64 BE */
    for (int i = 0; i < 37; i++) {
        int s = i % 14;
        const uint8_t *layer = labels + (s < 6 ? nodes : 0) * 32; /* 6 DRG: layer 2, exp: layer 1 */
        memcpy(msg + 64 + 32 * i, layer + par[s] * 32, 32);
    }
    sha256_trunc_native(d, msg, sizeof msg);
    CHECK_MEM(d, labels + (nodes + 5) * 32, 32);
    free(labels);
    fc_graph_free(&g);
}

int main(void) {
    static const uint64_t v1_64[4] = {0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3,
                                      0x0462f4f4f1a68d37};
    static const uint64_t v1_128[4] = {0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8,
                                       0x234c00d1dc1d53be};
    static const uint64_t v11_64[4] = {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc,
                                       0x06021188c7a71cb5};
    static const uint64_t v11_128[4] = {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23,
                                        0x0f777c18cc2c55bd};
    vector(64, 0, 0, v1_64);
    vector(128, 0, 0, v1_128);
    vector(64, 123, 1, v11_64);
    vector(128, 123, 1, v11_128);
    vector(64, 123, 2, v11_64);
    vector(128, 123, 2, v11_128);

    /* The 37-parent order. */
    uint32_t par[14], refs[37];
    uint8_t prev[37];
    for (int i = 0; i < 14; i++)
        par[i] = 100 + (uint32_t)i;
    fc_label_parent_refs(refs, prev, par, 1);
    for (int i = 0; i < 36; i++)
        CHECK(refs[i] == 100 + (uint32_t)(i % 6) && !prev[i]);
    CHECK(refs[36] == 100 && !prev[36]);
    fc_label_parent_refs(refs, prev, par, 3);
    for (int i = 0; i < 28; i++)
        CHECK(refs[i] == 100 + (uint32_t)(i % 14) && prev[i] == (i % 14 >= 6));
    for (int i = 28; i < 37; i++)
        CHECK(refs[i] == 100 + (uint32_t)(i - 28) && prev[i] == (i - 28 >= 6));
    return check_finish();
}
