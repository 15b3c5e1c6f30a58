/* The Feistel permutation behind the expander parents (filecoin-facts §3.9,
 * §3.12; rust-fil-proofs storage-proofs-core/src/crypto/feistel.rs).
 *
 * Domain [0, n): h = the smallest h >= 1 with 4^h >= n, halves of h bits.
 * encode(x): L = (x >> h) & m, R = x & m (m = 2^h - 1); for the 3 keys in
 * turn (L, R) <- (R, L xor F(R, key)); result (L << h) | R.
 * F(R, key) = first 8 bytes, big-endian, of unkeyed BLAKE2b-512 over
 * (R u64 BE ‖ key u64 BE), masked with m.
 * permute(x) = encode(x), re-encoded until < n (cycle walking).
 *
 * F depends only on R < 2^h (h <= 17 for every Filecoin size), so fc_feistel
 * tabulates it per key once (3 * 2^h BLAKE2b calls) and permutes by lookups. */
#ifndef CUZK_FILECOIN_FEISTEL_H
#define CUZK_FILECOIN_FEISTEL_H

#include <stdint.h>

enum { FC_FEISTEL_ROUNDS = 3, FC_FEISTEL_MAX_HALF_BITS = 24 };

typedef struct {
    uint64_t n;                         /* domain size */
    unsigned half_bits;                 /* h */
    uint64_t mask;                      /* 2^h - 1 */
    uint64_t keys[4];                   /* only the first FC_FEISTEL_ROUNDS are used */
    uint32_t *table[FC_FEISTEL_ROUNDS]; /* F(R, keys[i]) for R < 2^h */
} fc_feistel;

/* The 4 keys of a porep_id: LE u64 words of sha256("Filecoin_Feistel" ‖ porep_id). */
void fc_feistel_keys(uint64_t out[4], const uint8_t porep_id[32]);

/* Prepares the permutation of [0, n) (n >= 1).  Returns 0, or -1 if n needs
 * more than FC_FEISTEL_MAX_HALF_BITS per half or memory runs out. */
int fc_feistel_init(fc_feistel *f, uint64_t n, const uint64_t keys[4]);
void fc_feistel_free(fc_feistel *f);

/* The round function computed directly (no table), for checks. */
uint64_t fc_feistel_round(uint64_t right, uint64_t key, uint64_t mask);

/* permute(x) for x < n, and its inverse. */
uint64_t fc_feistel_permute(const fc_feistel *f, uint64_t x);
uint64_t fc_feistel_invert(const fc_feistel *f, uint64_t y);

#endif
