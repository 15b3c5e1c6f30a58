/* snarkjs .zkey and circom .wtns readers (zkey.h). */
#include "groth16/zkey.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "zkey.c copies little-endian Montgomery limbs directly: little-endian hosts only"
#endif

#define ZKEY_G1_BYTES 96
#define ZKEY_G2_BYTES 192
#define ZKEY_FR_BYTES 32
#define ZKEY_FQ_BYTES 48
#define ZKEY_MAX_LOG_N 28
#define BIN_MAX_SECTIONS 16

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* The primes as little-endian bytes (p - 1 and r - 1 end in ...aa / ...00, so +1 never carries). */
static void prime_p_le(uint8_t out[ZKEY_FQ_BYTES]) {
    fp m;
    uint8_t be[ZKEY_FQ_BYTES];
    fp_set_one(&m);
    fp_neg(&m, &m);
    fp_to_bytes_be(be, &m);
    for (int i = 0; i < ZKEY_FQ_BYTES; i++)
        out[i] = be[ZKEY_FQ_BYTES - 1 - i];
    out[0]++;
}

static void prime_r_le(uint8_t out[ZKEY_FR_BYTES]) {
    fr m;
    fr_set_one(&m);
    fr_neg(&m, &m);
    fr_to_bytes_le(out, &m);
    out[0]++;
}

/* ---- the binfile container -------------------------------------------------- */

typedef struct {
    const uint8_t *data;
    size_t offset; /* of the payload in the file */
    size_t size;
    int present;
} bin_section;

static groth16_status parse_container(bin_section *sec, uint32_t max_id, const uint8_t *buf,
                                      size_t len, const char *magic, uint32_t version,
                                      const char *what, groth16_error *err) {
    memset(sec, 0, sizeof(bin_section) * (max_id + 1));
    if (len < 12)
        return groth16_fail(err, GROTH16_ERR_TRUNCATED,
                            "%s: header at offset 0: %zu bytes, need 12", what, len);
    if (memcmp(buf, magic, 4) != 0)
        return groth16_fail(err, GROTH16_ERR_LAYOUT, "%s: magic at offset 0: not \"%s\"", what,
                            magic);
    if (rd32(buf + 4) != version)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "%s: version at offset 4: %u, only %u is supported", what,
                            rd32(buf + 4), version);
    uint32_t n = rd32(buf + 8);
    size_t off = 12;
    for (uint32_t i = 0; i < n; i++) {
        if (len - off < 12)
            return groth16_fail(err, GROTH16_ERR_TRUNCATED,
                                "%s: section header %u at offset %zu: truncated", what, i, off);
        uint32_t id = rd32(buf + off);
        uint64_t size = rd64(buf + off + 4);
        if (id < 1 || id > max_id)
            return groth16_fail(err, GROTH16_ERR_LAYOUT,
                                "%s: section header %u at offset %zu: unknown section id %u", what,
                                i, off, id);
        if (sec[id].present)
            return groth16_fail(err, GROTH16_ERR_LAYOUT,
                                "%s: section %u at offset %zu: appears twice", what, id, off);
        off += 12;
        if (size > len - off)
            return groth16_fail(err, GROTH16_ERR_TRUNCATED,
                                "%s: section %u at offset %zu: size %llu exceeds the file", what,
                                id, off, (unsigned long long)size);
        sec[id].data = buf + off;
        sec[id].offset = off;
        sec[id].size = (size_t)size;
        sec[id].present = 1;
        off += (size_t)size;
    }
    if (off != len)
        return groth16_fail(err, GROTH16_ERR_TRAILING, "%s: %zu trailing bytes at offset %zu", what,
                            len - off, off);
    return GROTH16_OK;
}

static groth16_status need_section(const bin_section *s, uint32_t id, size_t size, const char *what,
                                   const char *name, groth16_error *err) {
    if (!s[id].present)
        return groth16_fail(err, GROTH16_ERR_LAYOUT, "%s: section %u (%s) is missing", what, id,
                            name);
    if (size != (size_t)-1 && s[id].size != size)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "%s: section %u (%s) at offset %zu: size %zu, expected %zu", what, id,
                            name, s[id].offset, s[id].size, size);
    return GROTH16_OK;
}

/* ---- points ----------------------------------------------------------------------- */

/* 48 bytes LE Montgomery -> fp; 0 if the integer is >= p. */
static int read_fq(fp *out, const uint8_t *in) {
    uint8_t be[ZKEY_FQ_BYTES];
    fp check;
    for (int i = 0; i < ZKEY_FQ_BYTES; i++)
        be[i] = in[ZKEY_FQ_BYTES - 1 - i];
    if (!fp_from_bytes_be(&check, be))
        return 0;
    memcpy(out->l, in, ZKEY_FQ_BYTES);
    return 1;
}

static groth16_status read_g1(g1_affine *out, const uint8_t *in, size_t file_off, int subgroup,
                              const char *name, size_t index, groth16_error *err) {
    if (!read_fq(&out->x, in) || !read_fq(&out->y, in + ZKEY_FQ_BYTES))
        return groth16_fail(err, GROTH16_ERR_POINT, "zkey: %s[%zu] at offset %zu: coordinate >= p",
                            name, index, file_off);
    if (g1_affine_is_infinity(out))
        return GROTH16_OK;
    if (!g1_affine_is_on_curve(out))
        return groth16_fail(err, GROTH16_ERR_POINT,
                            "zkey: %s[%zu] at offset %zu: point is not on the curve", name, index,
                            file_off);
    if (subgroup && !g1_affine_in_subgroup(out))
        return groth16_fail(err, GROTH16_ERR_POINT,
                            "zkey: %s[%zu] at offset %zu: point is not in the prime-order subgroup",
                            name, index, file_off);
    return GROTH16_OK;
}

static groth16_status read_g2(g2_affine *out, const uint8_t *in, size_t file_off, int subgroup,
                              const char *name, size_t index, groth16_error *err) {
    if (!read_fq(&out->x.c0, in) || !read_fq(&out->x.c1, in + ZKEY_FQ_BYTES) ||
        !read_fq(&out->y.c0, in + 2 * ZKEY_FQ_BYTES) ||
        !read_fq(&out->y.c1, in + 3 * ZKEY_FQ_BYTES))
        return groth16_fail(err, GROTH16_ERR_POINT, "zkey: %s[%zu] at offset %zu: coordinate >= p",
                            name, index, file_off);
    if (g2_affine_is_infinity(out))
        return GROTH16_OK;
    if (!g2_affine_is_on_curve(out))
        return groth16_fail(err, GROTH16_ERR_POINT,
                            "zkey: %s[%zu] at offset %zu: point is not on the curve", name, index,
                            file_off);
    if (subgroup && !g2_affine_in_subgroup(out))
        return groth16_fail(err, GROTH16_ERR_POINT,
                            "zkey: %s[%zu] at offset %zu: point is not in the prime-order subgroup",
                            name, index, file_off);
    return GROTH16_OK;
}

static groth16_status read_g1_array(g1_affine **out, size_t n, const bin_section *s, int subgroup,
                                    const char *name, groth16_error *err) {
    *out = malloc((n ? n : 1) * sizeof(g1_affine));
    if (!*out)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "zkey: %s: out of memory", name);
    for (size_t i = 0; i < n; i++) {
        groth16_status st = read_g1(&(*out)[i], s->data + i * ZKEY_G1_BYTES,
                                    s->offset + i * ZKEY_G1_BYTES, subgroup, name, i, err);
        if (st != GROTH16_OK)
            return st;
    }
    return GROTH16_OK;
}

/* ---- .zkey ------------------------------------------------------------------------ */

void zkey_free(zkey *z) {
    free(z->ic);
    free(z->coefs);
    free(z->a);
    free(z->b1);
    free(z->b2);
    free(z->c);
    free(z->h);
    memset(z, 0, sizeof *z);
}

static groth16_status parse_header(zkey *z, const bin_section *s, groth16_error *err) {
    const uint8_t *h = s->data;
    size_t base = s->offset;
    uint8_t pl[ZKEY_FQ_BYTES], rl[ZKEY_FR_BYTES];
    prime_p_le(pl);
    prime_r_le(rl);
    if (s->size < 4 || rd32(h) != ZKEY_FQ_BYTES)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "zkey: section 2 (header) at offset %zu: n8q is not 48", base);
    if (s->size != 964)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "zkey: section 2 (header) at offset %zu: size %zu, expected 964", base,
                            s->size);
    if (memcmp(h + 4, pl, ZKEY_FQ_BYTES) != 0)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "zkey: section 2 (header) at offset %zu: q is not the BLS12-381 "
                            "base field prime",
                            base + 4);
    if (rd32(h + 52) != ZKEY_FR_BYTES || memcmp(h + 56, rl, ZKEY_FR_BYTES) != 0)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "zkey: section 2 (header) at offset %zu: r is not the BLS12-381 "
                            "scalar field prime",
                            base + 52);
    z->n_vars = rd32(h + 88);
    z->n_public = rd32(h + 92);
    z->domain_size = rd32(h + 96);
    if (z->n_public >= z->n_vars)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "zkey: section 2 (header) at offset %zu: nPublic %u >= nVars %u",
                            base + 92, z->n_public, z->n_vars);
    unsigned log_n = 0;
    while (log_n < 32 && ((uint32_t)1 << log_n) < z->domain_size)
        log_n++;
    if (z->domain_size < 2 || ((uint32_t)1 << log_n) != z->domain_size || log_n > ZKEY_MAX_LOG_N)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "zkey: section 2 (header) at offset %zu: domainSize %u is not a "
                            "power of two in [2, 2^%d]",
                            base + 96, z->domain_size, ZKEY_MAX_LOG_N);
    z->log_n = log_n;
    size_t o = 100;
    groth16_status st;
    if ((st = read_g1(&z->alpha_g1, h + o, base + o, 1, "alpha_1 (section 2)", 0, err)) !=
            GROTH16_OK ||
        (st = read_g1(&z->beta_g1, h + o + 96, base + o + 96, 1, "beta_1 (section 2)", 0, err)) !=
            GROTH16_OK ||
        (st = read_g2(&z->beta_g2, h + o + 192, base + o + 192, 1, "beta_2 (section 2)", 0, err)) !=
            GROTH16_OK ||
        (st = read_g2(&z->gamma_g2, h + o + 384, base + o + 384, 1, "gamma_2 (section 2)", 0,
                      err)) != GROTH16_OK ||
        (st = read_g1(&z->delta_g1, h + o + 576, base + o + 576, 1, "delta_1 (section 2)", 0,
                      err)) != GROTH16_OK ||
        (st = read_g2(&z->delta_g2, h + o + 672, base + o + 672, 1, "delta_2 (section 2)", 0,
                      err)) != GROTH16_OK)
        return st;
    return GROTH16_OK;
}

static groth16_status parse_coefs(zkey *z, const bin_section *s, groth16_error *err) {
    const size_t entry = 12 + ZKEY_FR_BYTES;
    if (s->size < 4)
        return groth16_fail(err, GROTH16_ERR_TRUNCATED,
                            "zkey: section 4 (coefficients) at offset %zu: no count", s->offset);
    size_t n = rd32(s->data);
    if (s->size != 4 + n * entry)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "zkey: section 4 (coefficients) at offset %zu: size %zu, expected "
                            "%zu for %zu entries",
                            s->offset, s->size, 4 + n * entry, n);
    z->coefs = malloc((n ? n : 1) * sizeof(zkey_coef));
    if (!z->coefs)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "zkey: section 4: out of memory");
    z->n_coefs = n;
    fr r_inv_mont; /* the element whose Montgomery limbs are the integer 1, i.e. 2^-256 */
    memset(&r_inv_mont, 0, sizeof r_inv_mont);
    r_inv_mont.l[0] = 1;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = s->data + 4 + i * entry;
        size_t off = s->offset + 4 + i * entry;
        zkey_coef *c = &z->coefs[i];
        c->matrix = rd32(p);
        c->constraint = rd32(p + 4);
        c->signal = rd32(p + 8);
        if (c->matrix > 1)
            return groth16_fail(err, GROTH16_ERR_LAYOUT,
                                "zkey: section 4 entry %zu at offset %zu: matrix %u is not 0 or 1",
                                i, off, c->matrix);
        if (c->constraint >= z->domain_size)
            return groth16_fail(err, GROTH16_ERR_LAYOUT,
                                "zkey: section 4 entry %zu at offset %zu: constraint %u >= "
                                "domainSize %u",
                                i, off + 4, c->constraint, z->domain_size);
        if (c->signal >= z->n_vars)
            return groth16_fail(err, GROTH16_ERR_LAYOUT,
                                "zkey: section 4 entry %zu at offset %zu: signal %u >= nVars %u", i,
                                off + 8, c->signal, z->n_vars);
        fr stored;
        if (!fr_from_bytes_le(&stored, p + 12))
            return groth16_fail(err, GROTH16_ERR_LAYOUT,
                                "zkey: section 4 entry %zu at offset %zu: value >= r", i, off + 12);
        /* The file holds S = c*R^2 mod r (R = 2^256).  Taken as Montgomery limbs S is
         * the element c*R; one Montgomery multiply by the limbs 1 gives c. */
        memcpy(stored.l, p + 12, ZKEY_FR_BYTES);
        fr_mul(&c->value, &stored, &r_inv_mont);
    }
    return GROTH16_OK;
}

groth16_status zkey_parse(zkey *z, const uint8_t *buf, size_t len, groth16_error *err) {
    memset(z, 0, sizeof *z);
    bin_section s[11];
    groth16_status st = parse_container(s, 10, buf, len, "zkey", 1, "zkey", err);
    if (st != GROTH16_OK)
        return st;
    if ((st = need_section(s, 1, 4, "zkey", "protocol", err)) != GROTH16_OK)
        return st;
    if (rd32(s[1].data) != 1)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "zkey: section 1 (protocol) at offset %zu: protocol %u is not Groth16 "
                            "(1)",
                            s[1].offset, rd32(s[1].data));
    if ((st = need_section(s, 2, (size_t)-1, "zkey", "header", err)) != GROTH16_OK ||
        (st = parse_header(z, &s[2], err)) != GROTH16_OK)
        goto fail;
    size_t nv = z->n_vars, np = z->n_public, n = z->domain_size;
    if ((st = need_section(s, 3, (np + 1) * ZKEY_G1_BYTES, "zkey", "IC", err)) != GROTH16_OK ||
        (st = need_section(s, 4, (size_t)-1, "zkey", "coefficients", err)) != GROTH16_OK ||
        (st = need_section(s, 5, nv * ZKEY_G1_BYTES, "zkey", "A query", err)) != GROTH16_OK ||
        (st = need_section(s, 6, nv * ZKEY_G1_BYTES, "zkey", "B1 query", err)) != GROTH16_OK ||
        (st = need_section(s, 7, nv * ZKEY_G2_BYTES, "zkey", "B2 query", err)) != GROTH16_OK ||
        (st = need_section(s, 8, (nv - np - 1) * ZKEY_G1_BYTES, "zkey", "C query", err)) !=
            GROTH16_OK ||
        (st = need_section(s, 9, n * ZKEY_G1_BYTES, "zkey", "H query", err)) != GROTH16_OK)
        goto fail;
    if ((st = read_g1_array(&z->ic, np + 1, &s[3], 1, "IC (section 3)", err)) != GROTH16_OK ||
        (st = parse_coefs(z, &s[4], err)) != GROTH16_OK ||
        (st = read_g1_array(&z->a, nv, &s[5], 0, "A (section 5)", err)) != GROTH16_OK ||
        (st = read_g1_array(&z->b1, nv, &s[6], 0, "B1 (section 6)", err)) != GROTH16_OK ||
        (st = read_g1_array(&z->c, nv - np - 1, &s[8], 0, "C (section 8)", err)) != GROTH16_OK ||
        (st = read_g1_array(&z->h, n, &s[9], 0, "H (section 9)", err)) != GROTH16_OK)
        goto fail;
    z->b2 = malloc((nv ? nv : 1) * sizeof(g2_affine));
    if (!z->b2) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "zkey: section 7: out of memory");
        goto fail;
    }
    for (size_t i = 0; i < nv; i++)
        if ((st = read_g2(&z->b2[i], s[7].data + i * ZKEY_G2_BYTES, s[7].offset + i * ZKEY_G2_BYTES,
                          0, "B2 (section 7)", i, err)) != GROTH16_OK)
            goto fail;
    return GROTH16_OK;
fail:
    zkey_free(z);
    return st;
}

groth16_status zkey_read_whole_file(uint8_t **buf, size_t *len, const char *path,
                                    groth16_error *err) {
    *buf = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return groth16_fail(err, GROTH16_ERR_IO, "%s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    uint8_t *b = malloc(cap);
    while (b) {
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        uint8_t *nb = realloc(b, cap * 2);
        if (!nb) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!b)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "%s: out of memory", path);
    if (bad) {
        free(b);
        return groth16_fail(err, GROTH16_ERR_IO, "%s: read error", path);
    }
    *buf = b;
    *len = n;
    return GROTH16_OK;
}

groth16_status zkey_load(zkey *z, const char *path, groth16_error *err) {
    uint8_t *buf;
    size_t len;
    memset(z, 0, sizeof *z);
    groth16_status st = zkey_read_whole_file(&buf, &len, path, err);
    if (st != GROTH16_OK)
        return st;
    st = zkey_parse(z, buf, len, err);
    free(buf);
    return st;
}

/* ---- .wtns ------------------------------------------------------------------------ */

void wtns_free(wtns *w) {
    free(w->bytes);
    memset(w, 0, sizeof *w);
}

groth16_status wtns_parse(wtns *w, const uint8_t *buf, size_t len, groth16_error *err) {
    memset(w, 0, sizeof *w);
    bin_section s[3];
    groth16_status st = parse_container(s, 2, buf, len, "wtns", 2, "wtns", err);
    if (st != GROTH16_OK)
        return st;
    if ((st = need_section(s, 1, 4 + ZKEY_FR_BYTES + 4, "wtns", "header", err)) != GROTH16_OK)
        return st;
    uint8_t rl[ZKEY_FR_BYTES];
    prime_r_le(rl);
    if (rd32(s[1].data) != ZKEY_FR_BYTES || memcmp(s[1].data + 4, rl, ZKEY_FR_BYTES) != 0)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "wtns: section 1 (header) at offset %zu: the prime is not the "
                            "BLS12-381 r (compile with --prime bls12381)",
                            s[1].offset);
    uint32_t n = rd32(s[1].data + 4 + ZKEY_FR_BYTES);
    if ((st = need_section(s, 2, (size_t)n * ZKEY_FR_BYTES, "wtns", "values", err)) != GROTH16_OK)
        return st;
    w->bytes = malloc(n ? (size_t)n * ZKEY_FR_BYTES : 1);
    if (!w->bytes)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "wtns: out of memory");
    for (uint32_t i = 0; i < n; i++) {
        fr check;
        if (!fr_from_bytes_le(&check, s[2].data + (size_t)i * ZKEY_FR_BYTES)) {
            wtns_free(w);
            return groth16_fail(err, GROTH16_ERR_LAYOUT,
                                "wtns: section 2 (values) value %u at offset %zu: >= r", i,
                                s[2].offset + (size_t)i * ZKEY_FR_BYTES);
        }
    }
    memcpy(w->bytes, s[2].data, (size_t)n * ZKEY_FR_BYTES);
    w->n = n;
    return GROTH16_OK;
}

groth16_status wtns_load(wtns *w, const char *path, groth16_error *err) {
    uint8_t *buf;
    size_t len;
    memset(w, 0, sizeof *w);
    groth16_status st = zkey_read_whole_file(&buf, &len, path, err);
    if (st != GROTH16_OK)
        return st;
    st = wtns_parse(w, buf, len, err);
    free(buf);
    return st;
}
