#include "cli/cmd_hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gadget/poseidon.h"
#include "util/hex.h"

static const char *usage = "cuzk hash poseidon --arity A HEX...   (A values, each 64 hex digits: "
                           "a 32-byte little-endian field element)";

int cmd_hash(int argc, char **argv) {
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
