#include "groth16/random.h"

#include <errno.h>
#include <sys/random.h>

int groth16_random_fr(fr *out) {
    for (;;) {
        uint8_t b[FR_BYTES];
        size_t got = 0;
        while (got < sizeof b) {
            ssize_t n = getrandom(b + got, sizeof b - got, 0);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return -1;
            }
            got += (size_t)n;
        }
        b[FR_BYTES - 1] &= 0x7f; /* < 2^255; r > 2^254, so ~55% pass */
        if (fr_from_bytes_le(out, b))
            return 0;
    }
}
