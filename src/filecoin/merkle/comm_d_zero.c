#include "filecoin/merkle/comm_d_zero.h"

#include <string.h>

#include "filecoin/hash/sha256_native.h"
#include "util/verify.h"

void fc_zero_subtree_root(uint8_t out[32], unsigned level) {
    VERIFY_CHECK(level <= FC_ZERO_LEVEL_MAX);
    uint8_t pair[64];
    memset(out, 0, 32);
    for (unsigned i = 0; i < level; i++) {
        memcpy(pair, out, 32);
        memcpy(pair + 32, out, 32);
        sha256_trunc_native(out, pair, sizeof pair);
    }
}

int fc_comm_d_zero(uint8_t out[32], uint64_t sector_size) {
    if (sector_size < 32 || (sector_size & (sector_size - 1)))
        return -1;
    unsigned level = (unsigned)__builtin_ctzll(sector_size) - 5; /* 32-byte leaves */
    fc_zero_subtree_root(out, level);
    return 0;
}
