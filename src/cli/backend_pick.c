/* --backend and --rs-seed for the prove commands (see backend_pick.h). */
#include "cli/backend_pick.h"

#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/hex.h"

#ifdef CUZK_HAVE_CUDA
#include "cuda/cuda_backend.h"
#endif

const groth16_backend *cli_pick_backend(const char *name) {
    if (!name || strcmp(name, "cpu") == 0)
        return &groth16_backend_cpu;
#ifdef CUZK_HAVE_CUDA
    if (strcmp(name, "cuda") == 0) {
        char why[256] = "";
        const groth16_backend *b = cuda_backend_why(why, sizeof why);
        if (!b)
            fprintf(stderr, "cuzk: --backend cuda: %s\n", why);
        return b;
    }
    fprintf(stderr, "cuzk: unknown --backend \"%s\" (cpu or cuda)\n", name);
#else
    fprintf(stderr, "cuzk: unknown --backend \"%s\" (this build has only cpu: no nvcc)\n", name);
#endif
    return NULL;
}

static void derive(fr *out, const uint8_t *seed, size_t n, char tag, size_t k) {
    uint8_t buf[64 + 1 + 8], h[SHA256_DIGEST_LENGTH];
    memcpy(buf, seed, n);
    buf[n] = (uint8_t)tag;
    for (int i = 0; i < 8; i++)
        buf[n + 1 + i] = (uint8_t)((uint64_t)k >> (8 * i));
    SHA256(buf, n + 9, h);
    fr_from_bytes_le_reduce(out, h);
}

int cli_rs_from_seed(fr *r, fr *s, const char *seed_hex, size_t k) {
    uint8_t seed[64];
    long n = hex_decode(seed, sizeof seed, seed_hex);
    if (n <= 0) {
        fprintf(stderr, "cuzk: --rs-seed wants 1 to 64 bytes of hex, got \"%s\"\n", seed_hex);
        return -1;
    }
    derive(r, seed, (size_t)n, 'r', k);
    derive(s, seed, (size_t)n, 's', k);
    return 0;
}
