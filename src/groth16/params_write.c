/* .params writer (layout in params.h).  Points are encoded into a fixed block
 * and written as they go, so a file of any size needs only the caller's
 * arrays and one block of memory. */
#include <errno.h>
#include <string.h>

#include "curve/encode.h"
#include "groth16/params.h"

enum { WRITE_BLOCK = 340 }; /* points per block: 64 KiB of G2, 32 KiB of G1 */

static groth16_status write_bytes(FILE *f, const void *buf, size_t n, const char *what,
                                  groth16_error *err) {
    if (fwrite(buf, 1, n, f) != n)
        return groth16_fail(err, GROTH16_ERR_IO, "params: writing %s failed: %s", what,
                            strerror(errno));
    return GROTH16_OK;
}

uint64_t groth16_params_size(const groth16_params_data *d) {
    uint64_t g1 = (uint64_t)d->n_h + d->n_l + d->n_a + d->n_b;
    return groth16_vk_size(d->vk->n_ic) + 5 * 4 + g1 * G1_UNCOMPRESSED_BYTES +
           (uint64_t)d->n_b * G2_UNCOMPRESSED_BYTES;
}

groth16_status groth16_params_write_count(FILE *f, size_t n, groth16_error *err) {
    if (n > UINT32_MAX)
        return groth16_fail(err, GROTH16_ERR_ARG, "params: %zu points do not fit the u32 count", n);
    uint8_t b[4];
    groth16_put_be32(b, (uint32_t)n);
    return write_bytes(f, b, 4, "a count", err);
}

groth16_status groth16_params_write_g1s(FILE *f, const g1_affine *pts, size_t n,
                                        groth16_error *err) {
    uint8_t buf[WRITE_BLOCK * G1_UNCOMPRESSED_BYTES];
    for (size_t i = 0; i < n; i += WRITE_BLOCK) {
        size_t m = n - i < WRITE_BLOCK ? n - i : WRITE_BLOCK;
        for (size_t j = 0; j < m; j++)
            g1_to_uncompressed(buf + j * G1_UNCOMPRESSED_BYTES, &pts[i + j]);
        groth16_status s = write_bytes(f, buf, m * G1_UNCOMPRESSED_BYTES, "G1 points", err);
        if (s != GROTH16_OK)
            return s;
    }
    return GROTH16_OK;
}

groth16_status groth16_params_write_g2s(FILE *f, const g2_affine *pts, size_t n,
                                        groth16_error *err) {
    uint8_t buf[WRITE_BLOCK * G2_UNCOMPRESSED_BYTES];
    for (size_t i = 0; i < n; i += WRITE_BLOCK) {
        size_t m = n - i < WRITE_BLOCK ? n - i : WRITE_BLOCK;
        for (size_t j = 0; j < m; j++)
            g2_to_uncompressed(buf + j * G2_UNCOMPRESSED_BYTES, &pts[i + j]);
        groth16_status s = write_bytes(f, buf, m * G2_UNCOMPRESSED_BYTES, "G2 points", err);
        if (s != GROTH16_OK)
            return s;
    }
    return GROTH16_OK;
}

groth16_status groth16_params_write(FILE *f, const groth16_params_data *d, groth16_error *err) {
    groth16_status s = groth16_vk_write_file(f, d->vk, err);
    const g1_affine *g1s[4] = {d->h, d->l, d->a, d->b_g1};
    const size_t n_g1[4] = {d->n_h, d->n_l, d->n_a, d->n_b};
    for (int i = 0; i < 4 && s == GROTH16_OK; i++) {
        s = groth16_params_write_count(f, n_g1[i], err);
        if (s == GROTH16_OK)
            s = groth16_params_write_g1s(f, g1s[i], n_g1[i], err);
    }
    if (s == GROTH16_OK)
        s = groth16_params_write_count(f, d->n_b, err);
    if (s == GROTH16_OK)
        s = groth16_params_write_g2s(f, d->b_g2, d->n_b, err);
    return s;
}
