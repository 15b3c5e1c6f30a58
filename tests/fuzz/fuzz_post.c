/* libFuzzer target for the PoSt vanilla-proof decoder (bincode
 * FallbackPoStSectorProof, filecoin/post/post_vanilla.h).  Any input: it
 * decodes, or fails with a message; a decoded proof encodes back to exactly
 * the input bytes (the format has one encoding).  The shape check for each
 * 2 KiB PoSt kind runs on what decoded. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/post/post_vanilla.h"
#include "filecoin/proof_types.h"

#define must(cond)                                                                           \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "fuzz_post: property failed at line %d: %s\n", __LINE__, #cond); \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fc_post_vanilla v;
    char err[256] = {0};
    if (fc_post_vanilla_decode(&v, data, size, NULL, err, sizeof err) != 0) {
        must(err[0] != 0);
        return 0;
    }
    size_t n = fc_post_vanilla_encode(NULL, &v);
    must(n == size);
    uint8_t *back = malloc(n ? n : 1);
    must(fc_post_vanilla_encode(back, &v) == n && memcmp(back, data, n) == 0);
    free(back);
    fc_post_vanilla_free(&v);
    /* with the shape check of each small PoSt kind: accepted or refused cleanly */
    static const unsigned ids[] = {0, 5, 10}; /* Winning, Window, Window V1_1: 2 KiB */
    for (int k = 0; k < 3; k++) {
        const fc_post_proof *p = fc_post_proof_by_id(ids[k]);
        if (p == NULL)
            continue;
        err[0] = 0;
        if (fc_post_vanilla_decode(&v, data, size, p, err, sizeof err) == 0)
            fc_post_vanilla_free(&v);
        else
            must(err[0] != 0);
    }
    return 0;
}
