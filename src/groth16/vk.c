/* .vk writer and checked reader (layout in vk.h).  The reader validates the
 * length against the header's count before decoding anything, so a short or
 * lying file costs no allocation and no point decoding. */
#include "groth16/vk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "curve/encode.h"
#include "groth16/point_io.h"

enum { G1B = G1_UNCOMPRESSED_BYTES, G2B = G2_UNCOMPRESSED_BYTES };

/* The six header points in file order: name, offset, group. */
typedef struct {
    const char *name;
    size_t offset;
    int g2;
} vk_field;

static const vk_field VK_FIELDS[6] = {
    {"alpha_g1", 0, 0},   {"beta_g1", 96, 0},   {"beta_g2", 192, 1},
    {"gamma_g2", 384, 1}, {"delta_g1", 576, 0}, {"delta_g2", 672, 1},
};

static void *field_ptr(groth16_vk *vk, int i) {
    switch (i) {
    case 0:
        return &vk->alpha_g1;
    case 1:
        return &vk->beta_g1;
    case 2:
        return &vk->beta_g2;
    case 3:
        return &vk->gamma_g2;
    case 4:
        return &vk->delta_g1;
    default:
        return &vk->delta_g2;
    }
}

size_t groth16_vk_size(size_t n_ic) { return GROTH16_VK_HEADER_BYTES + (size_t)G1B * n_ic; }

void groth16_vk_write(uint8_t *out, const groth16_vk *vk) {
    for (int i = 0; i < 6; i++) {
        const void *p = field_ptr((groth16_vk *)vk, i);
        if (VK_FIELDS[i].g2)
            g2_to_uncompressed(out + VK_FIELDS[i].offset, p);
        else
            g1_to_uncompressed(out + VK_FIELDS[i].offset, p);
    }
    groth16_put_be32(out + 864, (uint32_t)vk->n_ic);
    for (size_t i = 0; i < vk->n_ic; i++)
        g1_to_uncompressed(out + GROTH16_VK_HEADER_BYTES + G1B * i, &vk->ic[i]);
}

groth16_status groth16_vk_write_file(FILE *f, const groth16_vk *vk, groth16_error *err) {
    if (vk->n_ic > UINT32_MAX)
        return groth16_fail(err, GROTH16_ERR_ARG, "vk: n_ic = %zu does not fit the u32 count",
                            vk->n_ic);
    size_t n = groth16_vk_size(vk->n_ic);
    uint8_t *buf = malloc(n);
    if (!buf)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "vk: no memory for %zu bytes", n);
    groth16_vk_write(buf, vk);
    size_t wrote = fwrite(buf, 1, n, f);
    free(buf);
    if (wrote != n)
        return groth16_fail(err, GROTH16_ERR_IO, "vk: write failed after %zu of %zu bytes: %s",
                            wrote, n, strerror(errno));
    return GROTH16_OK;
}

groth16_status groth16_vk_read(groth16_vk *vk, const uint8_t *in, size_t len, size_t *used,
                               groth16_error *err) {
    memset(vk, 0, sizeof *vk);
    if (len < GROTH16_VK_HEADER_BYTES)
        return groth16_fail(err, GROTH16_ERR_TRUNCATED,
                            "vk: truncated: need %d bytes for the header, have %zu",
                            GROTH16_VK_HEADER_BYTES, len);
    size_t n_ic = groth16_get_be32(in + 864);
    size_t need = groth16_vk_size(n_ic);
    if (len < need)
        return groth16_fail(
            err, GROTH16_ERR_TRUNCATED,
            "vk: truncated: n_ic = %zu (u32 at offset 864) needs %zu bytes, have %zu", n_ic, need,
            len);
    if (!used && len > need)
        return groth16_fail(err, GROTH16_ERR_TRAILING,
                            "vk: %zu trailing bytes at offset %zu (n_ic = %zu ends the key there)",
                            len - need, need, n_ic);

    groth16_vk tmp = {0};
    for (int i = 0; i < 6; i++) {
        const vk_field *f = &VK_FIELDS[i];
        curve_err e =
            f->g2 ? groth16_g2_decode(field_ptr(&tmp, i), in + f->offset, GROTH16_CHECK_FULL)
                  : groth16_g1_decode(field_ptr(&tmp, i), in + f->offset, GROTH16_CHECK_FULL);
        if (e != CURVE_OK)
            return groth16_fail(err, GROTH16_ERR_POINT, "vk: %s at offset %zu: %s", f->name,
                                f->offset, curve_err_str(e));
    }
    if (n_ic > 0) {
        tmp.ic = malloc(n_ic * sizeof *tmp.ic);
        if (!tmp.ic)
            return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "vk: no memory for %zu ic points",
                                n_ic);
    }
    for (size_t i = 0; i < n_ic; i++) {
        size_t off = GROTH16_VK_HEADER_BYTES + G1B * i;
        curve_err e = groth16_g1_decode(&tmp.ic[i], in + off, GROTH16_CHECK_FULL);
        groth16_status st = GROTH16_OK;
        if (e != CURVE_OK)
            st = groth16_fail(err, GROTH16_ERR_POINT, "vk: ic[%zu] at offset %zu: %s", i, off,
                              curve_err_str(e));
        else if (g1_affine_is_infinity(&tmp.ic[i]))
            st = groth16_fail(err, GROTH16_ERR_INFINITY,
                              "vk: ic[%zu] at offset %zu: point at infinity", i, off);
        if (st != GROTH16_OK) {
            free(tmp.ic);
            return st;
        }
    }
    tmp.n_ic = n_ic;
    *vk = tmp;
    if (used)
        *used = need;
    return GROTH16_OK;
}

groth16_status groth16_vk_load(groth16_vk *vk, const char *path, groth16_error *err) {
    memset(vk, 0, sizeof *vk);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return groth16_fail(err, GROTH16_ERR_IO, "vk: cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return groth16_fail(err, GROTH16_ERR_IO, "vk: cannot stat %s: %s", path, strerror(e));
    }
    size_t len = (size_t)st.st_size;
    groth16_status s;
    if (len == 0) {
        s = groth16_vk_read(vk, (const uint8_t *)"", 0, NULL, err);
    } else {
        void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED) {
            int e = errno;
            close(fd);
            return groth16_fail(err, GROTH16_ERR_IO, "vk: cannot map %s: %s", path, strerror(e));
        }
        s = groth16_vk_read(vk, map, len, NULL, err);
        munmap(map, len);
    }
    close(fd);
    return s;
}

groth16_status groth16_vk_copy(groth16_vk *dst, const groth16_vk *src, groth16_error *err) {
    *dst = *src;
    dst->ic = NULL;
    if (src->n_ic > 0) {
        dst->ic = malloc(src->n_ic * sizeof *dst->ic);
        if (!dst->ic) {
            dst->n_ic = 0;
            return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "vk: no memory for %zu ic points",
                                src->n_ic);
        }
        memcpy(dst->ic, src->ic, src->n_ic * sizeof *dst->ic);
    }
    return GROTH16_OK;
}

void groth16_vk_free(groth16_vk *vk) {
    free(vk->ic);
    vk->ic = NULL;
    vk->n_ic = 0;
}
