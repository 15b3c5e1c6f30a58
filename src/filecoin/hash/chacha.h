/* ChaCha (Bernstein) block function and the two stream layouts Filecoin uses.
 *
 * - chacha_rng: rand_chacha's ChaCha8Rng / ChaCha20Rng (rand_chacha 0.3.1, as
 *   pinned by rust-fil-proofs): state = 4 constants, the 32-byte seed as 8 LE
 *   key words, a 64-bit block counter in words 12-13 from 0, a 64-bit stream id
 *   (0) in words 14-15.  Output words come block after block; a u64 is the next
 *   two words, low word first (this also holds across a block boundary, as in
 *   rand_core's BlockRng).  Used by the DRG (filecoin-facts §3.12).
 * - chacha20_ietf_keystream: RFC 8439 layout (32-bit counter in word 12, 96-bit
 *   nonce in words 13-15), the `chacha20` crate's ChaCha20 with byte seeking.
 *   Used by synthetic PoRep challenges (§3.8).
 *
 * OpenSSL has the RFC 8439 cipher (EVP_chacha20), used as an oracle in tests,
 * but no reduced-round variant. */
#ifndef CUZK_FILECOIN_CHACHA_H
#define CUZK_FILECOIN_CHACHA_H

#include <stddef.h>
#include <stdint.h>

/* out = rounds/2 double rounds of in, plus in (word-wise).  rounds is even. */
void chacha_block(uint32_t out[16], const uint32_t in[16], unsigned rounds);

typedef struct {
    uint32_t state[16]; /* next block's input; words 12-13 = block counter */
    uint32_t buf[16];   /* current output block */
    unsigned idx;       /* next unread word of buf, 16 = empty */
    unsigned rounds;
} chacha_rng;

/* rand_chacha's from_seed: key = seed, counter 0, stream 0.  rounds = 8, 12, 20. */
void chacha_rng_seed(chacha_rng *r, const uint8_t seed[32], unsigned rounds);
uint32_t chacha_rng_next_u32(chacha_rng *r);
uint64_t chacha_rng_next_u64(chacha_rng *r); /* low word first */

/* Writes len keystream bytes of ChaCha20 (RFC 8439, initial counter 0) starting
 * at keystream byte `offset`.  Returns 0, or -1 if the range passes the end of
 * the 2^32-block keystream (the crate's seek error). */
int chacha20_ietf_keystream(uint8_t *out, size_t len, const uint8_t key[32],
                            const uint8_t nonce[12], uint64_t offset);

#endif
