/* Bincode FallbackPoStSectorProof codec.  Decoding runs the same walk twice:
 * the first pass validates and counts (no allocation, so a hostile length
 * cannot make us allocate), the second fills one arena. */
#include "filecoin/post/post_vanilla.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

typedef struct {
    const uint8_t *buf;
    size_t len, pos;
    int fill; /* second pass: write into the arena */
    /* counts (first pass) and cursors (second pass) */
    size_t n_sectors, n_proofs, n_elems, n_hashes;
    fc_post_sector_proof *sectors;
    fc_inclusion_proof *proofs;
    fc_path_elem *elems;
    uint8_t (*hashes)[32];
    const fc_post_proof *expect;
    char *err;
    size_t errlen;
} walker;

static int fail(walker *w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = err_vset(w->err, w->errlen, fmt, ap);
    va_end(ap);
    return rc;
}

static int need(walker *w, size_t n, const char *what) {
    if (w->len - w->pos < n)
        return fail(w, "%s: truncated (need %zu bytes at offset %zu, %zu left)", what, n, w->pos,
                    w->len - w->pos);
    return 0;
}

static int read_u64(walker *w, uint64_t *v, const char *what) {
    if (need(w, 8, what))
        return -1;
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | w->buf[w->pos + (size_t)i];
    w->pos += 8;
    *v = x;
    return 0;
}

static int read_u32(walker *w, uint32_t *v, const char *what) {
    if (need(w, 4, what))
        return -1;
    const uint8_t *p = w->buf + w->pos;
    *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    w->pos += 4;
    return 0;
}

static int read_domain(walker *w, uint8_t out[32], const char *what) {
    if (need(w, 32, what))
        return -1;
    if (out)
        memcpy(out, w->buf + w->pos, 32);
    w->pos += 32;
    return 0;
}

/* A vector length that must fit in the remaining bytes at min_each bytes per item. */
static int read_len(walker *w, uint64_t *n, size_t min_each, const char *what) {
    if (read_u64(w, n, what))
        return -1;
    if (*n > (w->len - w->pos) / min_each)
        return fail(w, "%s: length %llu exceeds the %zu bytes left", what, (unsigned long long)*n,
                    w->len - w->pos);
    return 0;
}

/* Expected shape of one level group for the registered proof (0 = unchecked). */
typedef struct {
    unsigned arity;
    unsigned levels;
} level_shape;

static unsigned log_base(uint64_t n, unsigned base) {
    unsigned k = 0;
    while (n > 1) {
        n /= base;
        k++;
    }
    return k;
}

static int read_path(walker *w, const char *name, level_shape want, uint32_t *n_out) {
    char what[320];
    uint64_t n;
    snprintf(what, sizeof what, "%s", name);
    if (read_len(w, &n, 16, what))
        return -1;
    if (want.arity && n != want.levels)
        return fail(w, "%s: expected %u path elements, got %llu", name, want.levels,
                    (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t nh, index;
        snprintf(what, sizeof what, "%s[%llu].hashes", name, (unsigned long long)i);
        if (read_len(w, &nh, 32, what))
            return -1;
        if (nh == 0 || nh > 63)
            return fail(w, "%s: %llu siblings is not a tree arity", what, (unsigned long long)nh);
        if (want.arity && nh != want.arity - 1)
            return fail(w, "%s: expected %u elements, got %llu", what, want.arity - 1,
                        (unsigned long long)nh);
        fc_path_elem *e = w->fill ? &w->elems[w->n_elems] : NULL;
        if (e) {
            e->n_hashes = (uint32_t)nh;
            e->hashes = (const uint8_t(*)[32])w->hashes[w->n_hashes];
        }
        for (uint64_t h = 0; h < nh; h++)
            if (read_domain(w, e ? w->hashes[w->n_hashes + h] : NULL, what))
                return -1;
        snprintf(what, sizeof what, "%s[%llu].index", name, (unsigned long long)i);
        if (read_u64(w, &index, what))
            return -1;
        if (index > nh)
            return fail(w, "%s: %llu is not below arity %llu", what, (unsigned long long)index,
                        (unsigned long long)nh + 1);
        if (e)
            e->index = (uint32_t)index;
        w->n_hashes += nh;
        w->n_elems++;
    }
    *n_out = (uint32_t)n;
    return 0;
}

static int read_merkle_proof(walker *w, const char *name) {
    char what[192];
    uint32_t variant;
    snprintf(what, sizeof what, "%s.variant", name);
    if (read_u32(w, &variant, what))
        return -1;
    if (variant > 2)
        return fail(w, "%s: %u is not Single (0), Sub (1) or Top (2)", what, variant);

    level_shape base = {0, 0}, one = {0, 1}, top = {0, 1};
    if (w->expect) {
        const fc_sector_shape *s = w->expect->shape;
        fc_proof_kind want = s->arity_top   ? FC_PROOF_TOP
                             : s->arity_sub ? FC_PROOF_SUB
                                            : FC_PROOF_SINGLE;
        if (variant != (uint32_t)want)
            return fail(w, "%s: a %s sector needs variant %d, got %u", what, s->size_name,
                        (int)want, variant);
        uint64_t leaves =
            s->nodes / (s->arity_sub ? s->arity_sub : 1) / (s->arity_top ? s->arity_top : 1);
        base = (level_shape){s->arity_base, log_base(leaves, s->arity_base)};
        one.arity = s->arity_sub;
        top.arity = s->arity_top;
    }
    fc_inclusion_proof *p = w->fill ? &w->proofs[w->n_proofs] : NULL;
    size_t first_elem = w->n_elems;
    uint32_t nb = 0, ns = 0, nt = 0;
    uint8_t *root = p ? p->root : NULL, *leaf = p ? p->leaf : NULL;
    int rc = 0;
    if (variant == FC_PROOF_SINGLE) {
        snprintf(what, sizeof what, "%s.root", name);
        rc = read_domain(w, root, what);
        snprintf(what, sizeof what, "%s.leaf", name);
        rc = rc ? rc : read_domain(w, leaf, what);
        snprintf(what, sizeof what, "%s.path", name);
        rc = rc ? rc : read_path(w, what, base, &nb);
    } else {
        snprintf(what, sizeof what, "%s.base_proof", name);
        rc = read_path(w, what, base, &nb);
        snprintf(what, sizeof what, "%s.sub_proof", name);
        rc = rc ? rc : read_path(w, what, one, &ns);
        if (variant == FC_PROOF_TOP) {
            snprintf(what, sizeof what, "%s.top_proof", name);
            rc = rc ? rc : read_path(w, what, top, &nt);
        }
        snprintf(what, sizeof what, "%s.root", name);
        rc = rc ? rc : read_domain(w, root, what);
        snprintf(what, sizeof what, "%s.leaf", name);
        rc = rc ? rc : read_domain(w, leaf, what);
    }
    if (rc)
        return rc;
    if (p) {
        p->kind = (fc_proof_kind)variant;
        p->n_base = nb;
        p->n_sub = ns;
        p->n_top = nt;
        p->elems = &w->elems[first_elem];
    }
    w->n_proofs++;
    return 0;
}

static int walk(walker *w, fc_post_vanilla *out) {
    char what[96];
    uint64_t sector_id, n_sectors;
    if (read_u64(w, &sector_id, "sector_id") ||
        read_domain(w, w->fill ? out->comm_r : NULL, "comm_r") ||
        read_len(w, &n_sectors, 8 + 64, "vanilla_proof.sectors"))
        return -1;
    if (n_sectors == 0)
        return fail(w, "vanilla_proof.sectors: empty");
    if (w->fill) {
        out->sector_id = sector_id;
        out->n_sectors = (size_t)n_sectors;
    }
    for (uint64_t s = 0; s < n_sectors; s++) {
        uint64_t n;
        snprintf(what, sizeof what, "sectors[%llu].inclusion_proofs", (unsigned long long)s);
        if (read_len(w, &n, 4 + 64, what))
            return -1;
        if (w->expect && n != fc_post_vanilla_challenges(w->expect))
            return fail(w, "%s: %s needs %u challenges per sector, got %llu", what, w->expect->name,
                        fc_post_vanilla_challenges(w->expect), (unsigned long long)n);
        fc_post_sector_proof *sp = w->fill ? &w->sectors[s] : NULL;
        if (sp) {
            sp->proofs = &w->proofs[w->n_proofs];
            sp->n_proofs = (size_t)n;
        }
        for (uint64_t i = 0; i < n; i++) {
            snprintf(what, sizeof what, "sectors[%llu].inclusion_proofs[%llu]",
                     (unsigned long long)s, (unsigned long long)i);
            if (read_merkle_proof(w, what))
                return -1;
        }
        snprintf(what, sizeof what, "sectors[%llu].comm_c", (unsigned long long)s);
        if (read_domain(w, sp ? sp->comm_c : NULL, what))
            return -1;
        snprintf(what, sizeof what, "sectors[%llu].comm_r_last", (unsigned long long)s);
        if (read_domain(w, sp ? sp->comm_r_last : NULL, what))
            return -1;
        w->n_sectors++;
    }
    if (w->pos != w->len)
        return fail(w, "%zu trailing bytes after the proof", w->len - w->pos);
    return 0;
}

unsigned fc_post_vanilla_challenges(const fc_post_proof *p) {
    return p->kind == FC_POST_WINNING ? 66 : p->challenge_count;
}

int fc_post_vanilla_decode(fc_post_vanilla *out, const uint8_t *buf, size_t len,
                           const fc_post_proof *expect, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    walker w = {.buf = buf, .len = buf ? len : 0, .expect = expect, .err = err, .errlen = errlen};
    if (walk(&w, out))
        return -1;
    size_t bytes = w.n_sectors * sizeof(fc_post_sector_proof) +
                   w.n_proofs * sizeof(fc_inclusion_proof) + w.n_elems * sizeof(fc_path_elem) +
                   w.n_hashes * 32;
    uint8_t *arena = malloc(bytes ? bytes : 1);
    if (!arena) {
        snprintf(err, errlen, "out of memory for a %zu-byte vanilla proof", bytes);
        return -1;
    }
    walker f = {.buf = buf, .len = len, .fill = 1, .err = err, .errlen = errlen};
    f.sectors = (fc_post_sector_proof *)arena;
    f.proofs = (fc_inclusion_proof *)(f.sectors + w.n_sectors);
    f.elems = (fc_path_elem *)(f.proofs + w.n_proofs);
    f.hashes = (uint8_t(*)[32])(f.elems + w.n_elems);
    out->arena = arena;
    out->sectors = f.sectors;
    if (walk(&f, out)) { /* cannot happen after a clean first pass */
        fc_post_vanilla_free(out);
        return -1;
    }
    return 0;
}

void fc_post_vanilla_free(fc_post_vanilla *v) {
    free(v->arena);
    memset(v, 0, sizeof *v);
}

static size_t put_u64(uint8_t *out, size_t pos, uint64_t x) {
    if (out)
        for (int i = 0; i < 8; i++)
            out[pos + (size_t)i] = (uint8_t)(x >> (8 * i));
    return pos + 8;
}

static size_t put_bytes(uint8_t *out, size_t pos, const uint8_t *b, size_t n) {
    if (out)
        memcpy(out + pos, b, n);
    return pos + n;
}

static size_t put_path(uint8_t *out, size_t pos, const fc_path_elem *e, uint32_t n) {
    pos = put_u64(out, pos, n);
    for (uint32_t i = 0; i < n; i++) {
        pos = put_u64(out, pos, e[i].n_hashes);
        pos = put_bytes(out, pos, e[i].hashes[0], (size_t)e[i].n_hashes * 32);
        pos = put_u64(out, pos, e[i].index);
    }
    return pos;
}

size_t fc_post_vanilla_encode(uint8_t *out, const fc_post_vanilla *v) {
    size_t pos = put_u64(out, 0, v->sector_id);
    pos = put_bytes(out, pos, v->comm_r, 32);
    pos = put_u64(out, pos, v->n_sectors);
    for (size_t s = 0; s < v->n_sectors; s++) {
        const fc_post_sector_proof *sp = &v->sectors[s];
        pos = put_u64(out, pos, sp->n_proofs);
        for (size_t i = 0; i < sp->n_proofs; i++) {
            const fc_inclusion_proof *p = &sp->proofs[i];
            uint8_t var[4] = {(uint8_t)p->kind, 0, 0, 0};
            pos = put_bytes(out, pos, var, 4);
            if (p->kind == FC_PROOF_SINGLE) {
                pos = put_bytes(out, pos, p->root, 32);
                pos = put_bytes(out, pos, p->leaf, 32);
                pos = put_path(out, pos, p->elems, p->n_base);
            } else {
                pos = put_path(out, pos, p->elems, p->n_base);
                pos = put_path(out, pos, p->elems + p->n_base, p->n_sub);
                if (p->kind == FC_PROOF_TOP)
                    pos = put_path(out, pos, p->elems + p->n_base + p->n_sub, p->n_top);
                pos = put_bytes(out, pos, p->root, 32);
                pos = put_bytes(out, pos, p->leaf, 32);
            }
        }
        pos = put_bytes(out, pos, sp->comm_c, 32);
        pos = put_bytes(out, pos, sp->comm_r_last, 32);
    }
    return pos;
}
