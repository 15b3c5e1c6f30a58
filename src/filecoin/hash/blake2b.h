/* BLAKE2b (RFC 7693): keyed or unkeyed, any output length 1..64.
 *
 * OpenSSL 3.0's EVP digest has only the fixed 64-byte unkeyed form; Filecoin
 * needs the 32-byte keyed form (synthetic PoRep challenge keys, §3.8) and the
 * 64-byte unkeyed form (the Feistel round function, §3.9).  This is a plain
 * portable implementation; none of its callers is hot (the Feistel rounds are
 * tabulated, see feistel.h). */
#ifndef CUZK_FILECOIN_BLAKE2B_H
#define CUZK_FILECOIN_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

enum { BLAKE2B_OUT_MAX = 64, BLAKE2B_KEY_MAX = 64, BLAKE2B_BLOCK = 128 };

typedef struct {
    uint64_t h[8];
    uint64_t t[2]; /* byte counter, 128 bits */
    uint8_t buf[BLAKE2B_BLOCK];
    size_t buflen; /* bytes in buf, 0..128; a full block is kept until more input or final */
    size_t outlen;
} blake2b_ctx;

/* Starts a hash with outlen in 1..64 and a key of keylen in 0..64 bytes
 * (key may be NULL when keylen is 0).  Returns 0, or -1 for a bad length. */
int blake2b_init(blake2b_ctx *c, size_t outlen, const void *key, size_t keylen);
void blake2b_update(blake2b_ctx *c, const void *in, size_t len);
/* Writes c->outlen bytes; c must be re-initialised before reuse. */
void blake2b_final(blake2b_ctx *c, uint8_t *out);

/* One-shot form; returns 0, or -1 for a bad length. */
int blake2b(uint8_t *out, size_t outlen, const void *key, size_t keylen, const void *in,
            size_t inlen);

#endif
