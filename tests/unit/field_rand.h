/* Random field elements for tests, from check.h's seeded PRNG (so a printed
 * seed replays them).  rand_fp draws 381-bit values and retries those >= p,
 * rand_fr reduces 256 random bits mod r. */
#ifndef CUZK_TEST_FIELD_RAND_H
#define CUZK_TEST_FIELD_RAND_H

#include "check.h"
#include "field/fp2.h"
#include "field/fr.h"

static inline fp rand_fp(void) {
    for (;;) {
        uint8_t b[48];
        check_rand_bytes(b, 48);
        b[0] &= 0x1f;
        fp r;
        if (fp_from_bytes_be(&r, b))
            return r;
    }
}

static inline fp2 rand_fp2(void) {
    fp2 r = {rand_fp(), rand_fp()};
    return r;
}

static inline fr rand_fr(void) {
    uint8_t b[32];
    check_rand_bytes(b, 32);
    fr r;
    fr_from_bytes_le_reduce(&r, b);
    return r;
}

#endif
