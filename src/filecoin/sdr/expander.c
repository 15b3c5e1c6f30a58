#include "filecoin/sdr/expander.h"

void fc_expander_parents(uint32_t out[FC_EXP_DEGREE], const fc_feistel *f, uint32_t node,
                         int legacy_v1) {
    uint64_t base = (uint64_t)node * FC_EXP_DEGREE;
    for (unsigned i = 0; i < FC_EXP_DEGREE; i++) {
        uint64_t t = fc_feistel_permute(f, base + i);
        out[i] = legacy_v1 ? (uint32_t)t / FC_EXP_DEGREE : (uint32_t)(t / FC_EXP_DEGREE);
    }
}
