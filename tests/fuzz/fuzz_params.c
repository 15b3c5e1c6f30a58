/* libFuzzer target for the .params reader (groth16/params.h): the header
 * (the vk, fully checked) and the five section counts.  Any input: it parses,
 * or fails with a status and a message; a parsed file's layout lies inside
 * the input and every section's first and last points decode or fail
 * cleanly (never a read outside the buffer). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/params.h"

#define must(cond)                                                                             \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "fuzz_params: property failed at line %d: %s\n", __LINE__, #cond); \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

static void try_point(const groth16_params *p, groth16_section s, size_t i) {
    groth16_error err;
    if (s == GROTH16_SEC_B_G2) {
        g2_affine q;
        if (groth16_params_read_g2(p, s, i, 1, &q, GROTH16_CHECK_FULL, 1, &err) != GROTH16_OK)
            must(err.msg[0] != 0);
    } else {
        g1_affine q;
        if (groth16_params_read_g1(p, s, i, 1, &q, GROTH16_CHECK_FULL, 1, &err) != GROTH16_OK)
            must(err.msg[0] != 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* an exact-size copy, so that ASan sees any read past the end */
    uint8_t *buf = malloc(size ? size : 1);
    memcpy(buf, data, size);
    groth16_params p;
    memset(&p, 0, sizeof p);
    groth16_error err;
    memset(&err, 0, sizeof err);
    groth16_status st = groth16_params_parse(&p, buf, size, &err);
    if (st != GROTH16_OK) {
        must(err.status == st && err.msg[0] != 0);
    } else {
        must(p.layout.total_bytes == size);
        for (int s = 0; s < GROTH16_SECTIONS; s++) {
            const groth16_section_layout *l = &p.layout.sec[s];
            must(l->offset + (uint64_t)l->count * l->point_bytes <= size);
            if (l->count) {
                try_point(&p, (groth16_section)s, 0);
                try_point(&p, (groth16_section)s, l->count - 1);
            }
        }
    }
    groth16_params_close(&p);
    free(buf);
    return 0;
}
