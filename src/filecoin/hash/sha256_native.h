/* Native SHA-256 for Filecoin: plain digests and the "trimmed" form that maps a
 * digest into Fr (Filecoin's Sha256Hasher clears the top two bits of byte 31).
 *
 * Backed by OpenSSL's libcrypto, which picks SHA-NI / AVX2 code at run time.
 * All functions are thread-safe; a sha256_native_ctx is not shared between threads. */
#ifndef CUZK_FILECOIN_SHA256_NATIVE_H
#define CUZK_FILECOIN_SHA256_NATIVE_H

#include <stddef.h>
#include <stdint.h>

/* One-shot digest of len bytes. */
void sha256_native(uint8_t out[32], const void *data, size_t len);

/* One-shot digest with byte 31 &= 0x3f (the result is a canonical Fr, little-endian). */
void sha256_trunc_native(uint8_t out[32], const void *data, size_t len);

/* Incremental interface for hashing many pieces without copying them together. */
typedef struct sha256_native_ctx sha256_native_ctx;
sha256_native_ctx *sha256_native_new(void); /* NULL on allocation failure */
void sha256_native_free(sha256_native_ctx *ctx);
void sha256_native_init(sha256_native_ctx *ctx);
void sha256_native_update(sha256_native_ctx *ctx, const void *data, size_t len);
void sha256_native_final(sha256_native_ctx *ctx, uint8_t out[32]);

/* Clears the two top bits of a little-endian 32-byte value (Filecoin's fr32 trim). */
static inline void sha256_trim_fr32(uint8_t v[32]) { v[31] &= 0x3f; }

#endif
