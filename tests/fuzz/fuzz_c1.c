/* libFuzzer target for the C1 codec.  Any input: c1_decode must either fail
 * cleanly (no output, a message, an offset inside the input) or succeed, and
 * then encode -> decode must give the same model and encode must be stable
 * (the serde form is a fixed point).  The in-place decoder must agree with
 * the copying one (which, for wrappers over 192 bytes of base64, is the
 * streamed decoder with its plain retry: the build sets a 64-byte window and
 * 16-character steps), and the base64 decoder must reproduce what it accepted.
 * Built with clang -fsanitize=fuzzer,address,undefined (tests/CMakeLists.txt);
 * run by tests/fuzz/run_fuzz_c1.sh with seeds from `cuzk c1 synth`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/c1/c1.h"

#include <stdio.h>

#define must(cond)                                                                         \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "fuzz_c1: property failed at line %d: %s\n", __LINE__, #cond); \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    c1_output *c = (c1_output *)1;
    c1_error err;
    c1_status st = c1_decode(&c, data, size, &err);
    must(st == err.status);
    if (st != C1_OK) {
        must(c == NULL && err.msg[0] != 0 && err.offset <= size);
    } else {
        uint8_t *e1, *e2;
        size_t l1, l2;
        must(c1_encode(&e1, &l1, c, NULL) == C1_OK);
        c1_output *d;
        must(c1_decode(&d, e1, l1, NULL) == C1_OK && c1_output_equal(c, d));
        must(c1_encode(&e2, &l2, d, NULL) == C1_OK && l1 == l2 && memcmp(e1, e2, l1) == 0);
        free(e1);
        free(e2);
        c1_output_free(d);
    }
    /* the in-place decoder on a copy reaches the same verdict */
    uint8_t *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    c1_output *m = NULL;
    c1_error err2;
    must(c1_decode_mutable(&m, copy, size, &err2) == st);
    if (st == C1_OK)
        must(c1_output_equal(c, m));
    else if (strcmp(err.msg, err2.msg) != 0)
        fprintf(stderr, "copying: %s\nin place: %s\n", err.msg, err2.msg);
    if (st != C1_OK)
        must(strcmp(err.msg, err2.msg) == 0);
    c1_output_free(m);
    c1_output_free(st == C1_OK ? c : NULL);
    /* base64: accepted text re-encodes to itself */
    size_t got, bad;
    const char *why;
    if (c1_base64_decode(copy, &got, (const char *)data, size, &bad, &why) == 0) {
        char *enc = malloc(c1_base64_encoded_len(got) + 1);
        c1_base64_encode(enc, copy, got);
        must(c1_base64_encoded_len(got) == size && memcmp(enc, data, size) == 0);
        free(enc);
    } else {
        must(bad <= size && why != NULL);
    }
    free(copy);
    return 0;
}
