#include "cli/cmd_hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/hash/sha256_native.h"
#include "gadget/poseidon.h"
#include "util/hex.h"

static const char *usage = "cuzk hash poseidon --arity A HEX...   (A values, each 64 hex digits: "
                           "a 32-byte little-endian field element)\n"
                           "       cuzk hash sha256-trunc HEX        (the bytes to hash; prints "
                           "SHA-256 with byte 31 &= 0x3f)";

/* cuzk hash sha256-trunc HEX: Filecoin's trimmed SHA-256 (Sha256Function::hash)
 * of the given bytes, as the 32 stored bytes (a little-endian Fr) in hex. */
static int hash_sha256_trunc(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    size_t len = strlen(argv[1]);
    uint8_t *msg = malloc(len / 2 + 1);
    if (!msg) {
        fprintf(stderr, "cuzk hash: out of memory for %zu bytes\n", len / 2);
        return 1;
    }
    long n = hex_decode(msg, len / 2 + 1, argv[1]);
    if (n < 0) {
        fprintf(stderr, "cuzk hash: \"%.64s%s\" is not hex (an even number of hex digits)\n",
                argv[1], len > 64 ? "..." : "");
        free(msg);
        return 2;
    }
    uint8_t out[32];
    char hex[65];
    sha256_trunc_native(out, msg, (size_t)n);
    free(msg);
    hex_encode(hex, out, 32);
    printf("%s\n", hex);
    return 0;
}

int cmd_hash(int argc, char **argv) {
    if (argc >= 1 && strcmp(argv[0], "sha256-trunc") == 0)
        return hash_sha256_trunc(argc, argv);
    if (argc < 3 || strcmp(argv[0], "poseidon") != 0 || strcmp(argv[1], "--arity") != 0) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    char *end;
    long arity = strtol(argv[2], &end, 10);
    if (*end || arity < 1 || !poseidon_arity_supported((unsigned)arity)) {
        fprintf(stderr, "cuzk hash: arity \"%s\" is not supported (2, 4, 8, 11, 16, 24, 36)\n",
                argv[2]);
        return 2;
    }
    if (argc - 3 != arity) {
        fprintf(stderr, "cuzk hash: arity %ld needs %ld values, got %d\n", arity, arity, argc - 3);
        return 2;
    }
    fr in[36], out;
    for (long i = 0; i < arity; i++) {
        uint8_t b[FR_BYTES];
        if (hex_decode(b, sizeof b, argv[3 + i]) != FR_BYTES) {
            fprintf(stderr, "cuzk hash: value %ld \"%s\" is not 64 hex digits\n", i + 1,
                    argv[3 + i]);
            return 2;
        }
        if (!fr_from_bytes_le(&in[i], b)) {
            fprintf(stderr, "cuzk hash: value %ld is not below the field modulus r\n", i + 1);
            return 2;
        }
    }
    if (poseidon_hash(&out, in, (unsigned)arity) != 0) {
        fprintf(stderr, "cuzk hash: Poseidon failed\n");
        return 1;
    }
    uint8_t b[FR_BYTES];
    char hex[2 * FR_BYTES + 1];
    fr_to_bytes_le(b, &out);
    hex_encode(hex, b, FR_BYTES);
    printf("%s\n", hex);
    return 0;
}
