/* checksum64: see checksum.h. */
#include "util/checksum.h"

#include <string.h>

#define K1 0x9e3779b185ebca87ULL
#define K2 0xc2b2ae3d27d4eb4fULL
#define K3 0x165667b19e3779f9ULL

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t load64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8); /* little-endian hosts only, as the file formats */
    return v;
}

static inline uint64_t lane(uint64_t acc, uint64_t w) { return rotl(acc + w * K2, 31) * K1; }

static inline uint64_t avalanche(uint64_t h) {
    h ^= h >> 33;
    h *= K2;
    h ^= h >> 29;
    h *= K3;
    h ^= h >> 32;
    return h;
}

uint64_t checksum64(const void *data, size_t n, uint64_t seed) {
    const unsigned char *p = data, *end = p + n;
    uint64_t v0 = seed + K1 + K2, v1 = seed + K2, v2 = seed, v3 = seed - K1;
    while (end - p >= 32) {
        v0 = lane(v0, load64(p));
        v1 = lane(v1, load64(p + 8));
        v2 = lane(v2, load64(p + 16));
        v3 = lane(v3, load64(p + 24));
        p += 32;
    }
    uint64_t h = rotl(v0, 1) + rotl(v1, 7) + rotl(v2, 12) + rotl(v3, 18);
    h = (h ^ lane(0, v0)) * K1 + K3;
    h = (h ^ lane(0, v1)) * K1 + K3;
    h = (h ^ lane(0, v2)) * K1 + K3;
    h = (h ^ lane(0, v3)) * K1 + K3;
    h += (uint64_t)n;
    while (end - p >= 8) {
        h ^= lane(0, load64(p));
        h = rotl(h, 27) * K1 + K3;
        p += 8;
    }
    while (p < end) {
        h ^= (uint64_t)(*p++) * K3;
        h = rotl(h, 11) * K1;
    }
    return avalanche(h);
}
