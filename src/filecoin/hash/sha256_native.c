/* SHA-256 through OpenSSL's EVP interface.  The digest object is fetched once
 * (EVP_MD_fetch is costly) and reused by every context. */
#include "filecoin/hash/sha256_native.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct sha256_native_ctx {
    EVP_MD_CTX *md;
};

static EVP_MD *g_sha256;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void fetch_sha256(void) {
    g_sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (!g_sha256) {
        /* libcrypto without SHA-256 is a broken install, not a recoverable input error. */
        fprintf(stderr, "cuzk: OpenSSL has no SHA256 digest\n");
        abort();
    }
}

static const EVP_MD *sha256_md(void) {
    pthread_once(&g_once, fetch_sha256);
    return g_sha256;
}

void sha256_native(uint8_t out[32], const void *data, size_t len) {
    unsigned int n = 32;
    if (EVP_Digest(data, len, out, &n, sha256_md(), NULL) != 1 || n != 32)
        abort();
}

void sha256_trunc_native(uint8_t out[32], const void *data, size_t len) {
    sha256_native(out, data, len);
    sha256_trim_fr32(out);
}

sha256_native_ctx *sha256_native_new(void) {
    sha256_native_ctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->md = EVP_MD_CTX_new();
    if (!ctx->md) {
        free(ctx);
        return NULL;
    }
    sha256_native_init(ctx);
    return ctx;
}

void sha256_native_free(sha256_native_ctx *ctx) {
    if (!ctx)
        return;
    EVP_MD_CTX_free(ctx->md);
    free(ctx);
}

void sha256_native_init(sha256_native_ctx *ctx) {
    if (EVP_DigestInit_ex(ctx->md, sha256_md(), NULL) != 1)
        abort();
}

void sha256_native_update(sha256_native_ctx *ctx, const void *data, size_t len) {
    if (EVP_DigestUpdate(ctx->md, data, len) != 1)
        abort();
}

void sha256_native_final(sha256_native_ctx *ctx, uint8_t out[32]) {
    unsigned int n = 32;
    if (EVP_DigestFinal_ex(ctx->md, out, &n) != 1 || n != 32)
        abort();
}
