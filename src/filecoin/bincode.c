/* The bincode walker and writers (see bincode.h). */
#include "filecoin/bincode.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "field/fr.h"
#include "util/err.h"

void fc_bincode_init(fc_bincode *b, const uint8_t *buf, size_t len, char *err, size_t errlen) {
    memset(b, 0, sizeof *b);
    b->buf = buf;
    b->len = buf ? len : 0;
    b->err = err;
    b->errlen = errlen;
}

int fc_bincode_fail(fc_bincode *b, fc_bincode_fault fault, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    b->fault = fault;
    int rc = err_vset(b->err, b->errlen, fmt, ap);
    va_end(ap);
    return rc;
}

int fc_bincode_need(fc_bincode *b, size_t n, const char *what) {
    if (b->len - b->pos < n)
        return fc_bincode_fail(b, FC_BINCODE_TRUNCATED,
                               "%s: truncated (need %zu bytes at offset %zu, %zu left)", what, n,
                               b->pos, b->len - b->pos);
    return 0;
}

int fc_bincode_u64(fc_bincode *b, uint64_t *v, const char *what) {
    if (fc_bincode_need(b, 8, what))
        return -1;
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | b->buf[b->pos + (size_t)i];
    b->pos += 8;
    *v = x;
    return 0;
}

int fc_bincode_u32(fc_bincode *b, uint32_t *v, const char *what) {
    if (fc_bincode_need(b, 4, what))
        return -1;
    const uint8_t *p = b->buf + b->pos;
    *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    b->pos += 4;
    return 0;
}

int fc_bincode_domain(fc_bincode *b, uint8_t out[32], const char *what) {
    if (fc_bincode_need(b, 32, what))
        return -1;
    fr x;
    if (b->check_fr && !fr_from_bytes_le(&x, b->buf + b->pos))
        return fc_bincode_fail(b, FC_BINCODE_NOT_FR,
                               "%s: not a canonical field element (at offset %zu)", what, b->pos);
    if (out)
        memcpy(out, b->buf + b->pos, 32);
    b->pos += 32;
    return 0;
}

int fc_bincode_len(fc_bincode *b, uint64_t *n, size_t min_each, const char *what) {
    if (fc_bincode_u64(b, n, what))
        return -1;
    if (*n > (b->len - b->pos) / min_each)
        return fc_bincode_fail(b, FC_BINCODE_TRUNCATED,
                               "%s: length %llu exceeds the %zu bytes left", what,
                               (unsigned long long)*n, b->len - b->pos);
    return 0;
}

int fc_bincode_end(fc_bincode *b, const char *what) {
    if (b->pos != b->len)
        return fc_bincode_fail(b, FC_BINCODE_TRAILING, "%zu trailing bytes after %s",
                               b->len - b->pos, what);
    return 0;
}

static unsigned log_base(uint64_t n, unsigned base) {
    unsigned k = 0;
    while (n > 1) {
        n /= base;
        k++;
    }
    return k;
}

fc_bincode_proof_shape fc_bincode_tree_shape(uint64_t nodes, unsigned base, unsigned sub,
                                             unsigned top, const char *owner) {
    fc_bincode_proof_shape s = {.owner = owner};
    s.variant = top ? FC_PROOF_TOP : sub ? FC_PROOF_SUB : FC_PROOF_SINGLE;
    uint64_t leaves = nodes / (sub ? sub : 1) / (top ? top : 1);
    s.base = (fc_bincode_level){base, log_base(leaves, base)};
    s.sub = (fc_bincode_level){sub, 1};
    s.top = (fc_bincode_level){top, 1};
    return s;
}

int fc_bincode_path(fc_bincode *b, const char *name, fc_bincode_level want, uint32_t *n_out) {
    char what[320];
    uint64_t n;
    if (fc_bincode_len(b, &n, 16, name))
        return -1;
    if (want.arity && n != want.levels)
        return fc_bincode_fail(b, FC_BINCODE_SHAPE, "%s: expected %u path elements, got %llu", name,
                               want.levels, (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t nh, index;
        snprintf(what, sizeof what, "%s[%llu].hashes", name, (unsigned long long)i);
        if (fc_bincode_len(b, &nh, 32, what))
            return -1;
        if (nh == 0 || nh > 63)
            return fc_bincode_fail(b, FC_BINCODE_SHAPE, "%s: %llu siblings is not a tree arity",
                                   what, (unsigned long long)nh);
        if (want.arity && nh != want.arity - 1)
            return fc_bincode_fail(b, FC_BINCODE_SHAPE, "%s: expected %u elements, got %llu", what,
                                   want.arity - 1, (unsigned long long)nh);
        fc_path_elem *e = b->fill ? &b->elems[b->n_elems] : NULL;
        if (e) {
            e->n_hashes = (uint32_t)nh;
            e->hashes = (const uint8_t(*)[32])b->hashes[b->n_hashes];
        }
        for (uint64_t h = 0; h < nh; h++) {
            snprintf(what, sizeof what, "%s[%llu].hashes[%llu]", name, (unsigned long long)i,
                     (unsigned long long)h);
            if (fc_bincode_domain(b, e ? b->hashes[b->n_hashes + h] : NULL, what))
                return -1;
        }
        snprintf(what, sizeof what, "%s[%llu].index", name, (unsigned long long)i);
        if (fc_bincode_u64(b, &index, what))
            return -1;
        if (index > nh)
            return fc_bincode_fail(b, FC_BINCODE_INDEX, "%s: %llu is not below arity %llu", what,
                                   (unsigned long long)index, (unsigned long long)nh + 1);
        if (e)
            e->index = (uint32_t)index;
        b->n_hashes += nh;
        b->n_elems++;
    }
    *n_out = (uint32_t)n;
    return 0;
}

int fc_bincode_merkle_proof(fc_bincode *b, fc_inclusion_proof *p, const char *name,
                            const fc_bincode_proof_shape *want) {
    char what[320];
    uint32_t variant;
    snprintf(what, sizeof what, "%s.variant", name);
    if (fc_bincode_u32(b, &variant, what))
        return -1;
    if (variant > 2)
        return fc_bincode_fail(b, FC_BINCODE_VARIANT,
                               "%s: %u is not Single (0), Sub (1) or Top (2)", what, variant);
    fc_bincode_level any = {0, 0};
    fc_bincode_level base = any, sub = any, top = any;
    if (want) {
        if (want->variant >= 0 && variant != (uint32_t)want->variant)
            return fc_bincode_fail(b, FC_BINCODE_VARIANT, "%s: %s needs variant %d, got %u", what,
                                   want->owner ? want->owner : "this proof", want->variant,
                                   variant);
        base = want->base;
        sub = want->sub;
        top = want->top;
    }
    size_t first_elem = b->n_elems;
    uint32_t nb = 0, ns = 0, nt = 0;
    uint8_t *root = p ? p->root : NULL, *leaf = p ? p->leaf : NULL;
    int rc;
    if (variant == FC_PROOF_SINGLE) {
        snprintf(what, sizeof what, "%s.root", name);
        rc = fc_bincode_domain(b, root, what);
        snprintf(what, sizeof what, "%s.leaf", name);
        rc = rc ? rc : fc_bincode_domain(b, leaf, what);
        snprintf(what, sizeof what, "%s.path", name);
        rc = rc ? rc : fc_bincode_path(b, what, base, &nb);
    } else {
        snprintf(what, sizeof what, "%s.base_proof", name);
        rc = fc_bincode_path(b, what, base, &nb);
        snprintf(what, sizeof what, "%s.sub_proof", name);
        rc = rc ? rc : fc_bincode_path(b, what, sub, &ns);
        if (variant == FC_PROOF_TOP) {
            snprintf(what, sizeof what, "%s.top_proof", name);
            rc = rc ? rc : fc_bincode_path(b, what, top, &nt);
        }
        snprintf(what, sizeof what, "%s.root", name);
        rc = rc ? rc : fc_bincode_domain(b, root, what);
        snprintf(what, sizeof what, "%s.leaf", name);
        rc = rc ? rc : fc_bincode_domain(b, leaf, what);
    }
    if (rc)
        return rc;
    if (p) {
        p->kind = (fc_proof_kind)variant;
        p->n_base = nb;
        p->n_sub = ns;
        p->n_top = nt;
        p->elems = &b->elems[first_elem];
    }
    b->n_proofs++;
    return 0;
}

size_t fc_bincode_put_u64(uint8_t *out, size_t pos, uint64_t x) {
    if (out)
        for (int i = 0; i < 8; i++)
            out[pos + (size_t)i] = (uint8_t)(x >> (8 * i));
    return pos + 8;
}

size_t fc_bincode_put_u32(uint8_t *out, size_t pos, uint32_t x) {
    if (out)
        for (int i = 0; i < 4; i++)
            out[pos + (size_t)i] = (uint8_t)(x >> (8 * i));
    return pos + 4;
}

size_t fc_bincode_put_bytes(uint8_t *out, size_t pos, const uint8_t *bytes, size_t n) {
    if (out && n)
        memcpy(out + pos, bytes, n);
    return pos + n;
}

size_t fc_bincode_put_path(uint8_t *out, size_t pos, const fc_path_elem *e, uint32_t n) {
    pos = fc_bincode_put_u64(out, pos, n);
    for (uint32_t i = 0; i < n; i++) {
        pos = fc_bincode_put_u64(out, pos, e[i].n_hashes);
        pos = fc_bincode_put_bytes(out, pos, e[i].hashes[0], (size_t)e[i].n_hashes * 32);
        pos = fc_bincode_put_u64(out, pos, e[i].index);
    }
    return pos;
}

size_t fc_bincode_put_merkle_proof(uint8_t *out, size_t pos, const fc_inclusion_proof *p) {
    pos = fc_bincode_put_u32(out, pos, (uint32_t)p->kind);
    if (p->kind == FC_PROOF_SINGLE) {
        pos = fc_bincode_put_bytes(out, pos, p->root, 32);
        pos = fc_bincode_put_bytes(out, pos, p->leaf, 32);
        return fc_bincode_put_path(out, pos, p->elems, p->n_base);
    }
    pos = fc_bincode_put_path(out, pos, p->elems, p->n_base);
    pos = fc_bincode_put_path(out, pos, p->elems + p->n_base, p->n_sub);
    if (p->kind == FC_PROOF_TOP)
        pos = fc_bincode_put_path(out, pos, p->elems + p->n_base + p->n_sub, p->n_top);
    pos = fc_bincode_put_bytes(out, pos, p->root, 32);
    return fc_bincode_put_bytes(out, pos, p->leaf, 32);
}
