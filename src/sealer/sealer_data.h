/* Sector data for the test-data sealer: Fr32 padding (filecoin-facts §5.3;
 * rust-fil-proofs fr32/src/padding.rs) and the unpadded byte sources.
 *
 * Padding: the raw bytes are a bit stream read LSB-first; every 254 bits are
 * followed by 2 zero bits, so 127 raw bytes become 128 padded bytes (four
 * 32-byte nodes with byte 31 & 0xc0 = 0).  A sector of S bytes holds
 * S / 128 * 127 raw bytes. */
#ifndef CUZK_FILECOIN_SEALER_DATA_H
#define CUZK_FILECOIN_SEALER_DATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Raw bytes a sector of sector_size (a multiple of 128) holds. */
static inline uint64_t fc_fr32_unpadded_size(uint64_t sector_size) {
    return sector_size / 128 * 127;
}

/* Pads quads × 127 bytes of in into quads × 128 bytes of out (no overlap). */
void fc_fr32_pad(uint8_t *out, const uint8_t *in, size_t quads);

/* The inverse: quads × 128 padded bytes into quads × 127 raw bytes; the two
 * top bits of every node are ignored. */
void fc_fr32_unpad(uint8_t *out, const uint8_t *in, size_t quads);

/* Deterministic pseudo-random bytes of a seed (splitmix64 stream; test data). */
void fc_seal_random_bytes(uint8_t *out, size_t n, uint64_t seed);

/* The same stream from byte `offset` on (a multiple of 8): equal to bytes
 * [offset, offset + n) of fc_seal_random_bytes(.., seed). */
void fc_seal_random_bytes_at(uint8_t *out, size_t n, uint64_t seed, uint64_t offset);

/* Writes the padded sector (sector_size bytes, a multiple of 128) to out_fd
 * from its start, a bounded chunk at a time: the raw bytes are read from `in`
 * when not NULL (at most the unpadded size; the rest is zero), else are
 * fc_seal_random_bytes(random_seed) when random_seed is not NULL, else zero.
 * 0, or -1 with a message (oversize input, I/O). */
int fc_seal_pad_stream(int out_fd, FILE *in, const uint64_t *random_seed, uint64_t sector_size,
                       char *err, size_t cap);

/* A padded sector of sector_size bytes from raw (raw_len <= the unpadded size;
 * the rest is zero).  malloc'd; NULL on allocation failure or oversize raw. */
uint8_t *fc_seal_pad_sector(const uint8_t *raw, size_t raw_len, uint64_t sector_size);

#endif
