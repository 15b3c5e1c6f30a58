/* A fast 64-bit checksum for large files (the PCE's chunk digests): four
 * independent multiply-rotate lanes over 32-byte stripes, folded and
 * avalanched at the end.  It catches corruption (any flipped bit, truncation,
 * swapped chunks through the seed), not an adversary: it is not a
 * cryptographic hash.  Reads memory at several GB/s per core. */
#ifndef CUZK_UTIL_CHECKSUM_H
#define CUZK_UTIL_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* Checksum of the n bytes at p; seed distinguishes chunks (e.g. section and
 * chunk number) so identical data at two places digests differently. */
uint64_t checksum64(const void *p, size_t n, uint64_t seed);

#endif
