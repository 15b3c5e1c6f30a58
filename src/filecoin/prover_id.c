#include "filecoin/prover_id.h"

#include <string.h>

void fc_prover_id(uint8_t out[32], uint64_t miner) {
    memset(out, 0, 32);
    size_t i = 0;
    do {
        uint8_t b = (uint8_t)(miner & 0x7f);
        miner >>= 7;
        out[i++] = miner ? (uint8_t)(b | 0x80) : b;
    } while (miner);
}

int fc_prover_id_miner(uint64_t *miner, const uint8_t in[32]) {
    uint64_t v = 0;
    size_t i = 0;
    for (;; i++) {
        if (i == 10)
            return -1;
        uint64_t b = in[i] & 0x7f;
        if (i == 9 && (in[i] & 0xfe)) /* the tenth byte carries only bit 63 */
            return -1;
        v |= b << (7 * i);
        if (!(in[i] & 0x80))
            break;
    }
    if (i > 0 && in[i] == 0) /* not minimal: a trailing zero group */
        return -1;
    for (size_t j = i + 1; j < 32; j++)
        if (in[j])
            return -1;
    *miner = v;
    return 0;
}
