/* Linear combinations: a sorted array of terms with bellpepper's
 * insert-or-update rule.  Single-term updates follow bellpepper's Indexer
 * (try the last inserted position and the one after it before a binary
 * search); whole-LC additions are a linear merge, which gives the same map
 * as inserting the terms one by one. */
#include "r1cs/lc.h"

#include <stdlib.h>
#include <string.h>

#include "field/constants.h"

#define NO_LAST UINT32_MAX

void r1cs_lc_init(r1cs_lc *lc) {
    lc->len = 0;
    lc->cap = R1CS_LC_INLINE;
    lc->last = NO_LAST;
    lc->broken = 0;
    lc->heap = NULL;
}

void r1cs_lc_free(r1cs_lc *lc) {
    free(lc->heap);
    r1cs_lc_init(lc);
}

void r1cs_lc_clear(r1cs_lc *lc) {
    lc->len = 0;
    lc->last = NO_LAST;
    lc->broken = 0;
}

static inline r1cs_term *terms_mut(r1cs_lc *lc) { return lc->heap ? lc->heap : lc->small; }

/* Room for need terms; doubling, so a long LC built term by term costs
 * O(log n) allocations. */
static int reserve(r1cs_lc *lc, uint32_t need) {
    if (need <= lc->cap)
        return 1;
    if (lc->broken)
        return 0;
    uint64_t cap = (uint64_t)lc->cap * 2;
    if (cap < need)
        cap = need;
    if (cap > R1CS_MAX_INDEX) {
        lc->broken = 1;
        return 0;
    }
    r1cs_term *p = realloc(lc->heap, (size_t)cap * sizeof *p);
    if (!p) {
        lc->broken = 1;
        return 0;
    }
    if (!lc->heap)
        memcpy(p, lc->small, lc->len * sizeof *p);
    lc->heap = p;
    lc->cap = (uint32_t)cap;
    return 1;
}

void r1cs_lc_copy(r1cs_lc *dst, const r1cs_lc *src) {
    if (dst == src)
        return;
    r1cs_lc_clear(dst);
    if (src->broken || !reserve(dst, src->len)) {
        dst->broken = 1;
        return;
    }
    memcpy(terms_mut(dst), r1cs_lc_terms(src), src->len * sizeof(r1cs_term));
    dst->len = src->len;
    dst->last = src->last;
}

static void insert_at(r1cs_lc *lc, uint32_t pos, uint32_t key, const fr *coeff) {
    if (!reserve(lc, lc->len + 1))
        return;
    r1cs_term *t = terms_mut(lc);
    /* shift the tail up by one (a loop, not memmove: newer GCCs' fortified
     * memmove warns here on a bound they cannot see after inlining) */
    for (uint32_t i = lc->len; i > pos; i--)
        t[i] = t[i - 1];
    t[pos].coeff = *coeff;
    t[pos].var = key;
    lc->len++;
    lc->last = pos;
}

/* bellpepper's Indexer::insert_or_update with "update" = add. */
static void add_key(r1cs_lc *lc, uint32_t key, const fr *coeff) {
    if (lc->broken)
        return;
    r1cs_term *t = terms_mut(lc);
    if (lc->last != NO_LAST) {
        uint32_t lk = t[lc->last].var;
        if (lk == key) {
            fr_add(&t[lc->last].coeff, &t[lc->last].coeff, coeff);
            return;
        }
        if ((uint64_t)lk + 1 == key) {
            uint32_t i = lc->last + 1;
            if (i < lc->len && t[i].var == key)
                fr_add(&t[i].coeff, &t[i].coeff, coeff);
            else
                insert_at(lc, i, key, coeff); /* t[i].var > key: still sorted */
            return;
        }
    }
    if (lc->len == 0 || t[lc->len - 1].var < key) { /* the common append */
        if (lc->len < lc->cap) {
            t[lc->len].coeff = *coeff;
            t[lc->len].var = key;
            lc->last = lc->len++;
        } else {
            insert_at(lc, lc->len, key, coeff);
        }
        return;
    }
    uint32_t lo = 0, hi = lc->len;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t[mid].var < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < lc->len && t[lo].var == key)
        fr_add(&t[lo].coeff, &t[lo].coeff, coeff);
    else
        insert_at(lc, lo, key, coeff);
}

void r1cs_lc_add_term(r1cs_lc *lc, r1cs_var v, const fr *coeff) { add_key(lc, v.id, coeff); }

void r1cs_lc_sub_term(r1cs_lc *lc, r1cs_var v, const fr *coeff) {
    fr n;
    fr_neg(&n, coeff);
    add_key(lc, v.id, &n);
}

void r1cs_lc_add_var(r1cs_lc *lc, r1cs_var v) { add_key(lc, v.id, &FR_ONE); }

void r1cs_lc_sub_var(r1cs_lc *lc, r1cs_var v) { r1cs_lc_sub_term(lc, v, &FR_ONE); }

void r1cs_lc_set_term(r1cs_lc *lc, r1cs_var v, const fr *coeff) {
    r1cs_lc_clear(lc);
    add_key(lc, v.id, coeff);
}

void r1cs_lc_set_const(r1cs_lc *lc, const fr *coeff) { r1cs_lc_set_term(lc, R1CS_ONE, coeff); }

void r1cs_lc_set_var(r1cs_lc *lc, r1cs_var v) { r1cs_lc_set_term(lc, v, &FR_ONE); }

/* The coefficient other's term j contributes: c, k*c, -c or -(k*c). */
static inline void incoming(fr *out, const r1cs_term *t, const fr *k, int negate) {
    if (k)
        fr_mul(out, &t->coeff, k);
    else
        *out = t->coeff;
    if (negate)
        fr_neg(out, out);
}

/* lc += (+-)(k)*other as one merge of two sorted arrays: count the new keys,
 * make room, then fill from the back so that nothing is overwritten before it
 * is read.  The resulting map equals bellpepper's term-by-term insertion. */
static void merge(r1cs_lc *lc, const r1cs_lc *other, const fr *k, int negate) {
    if (other->broken)
        lc->broken = 1;
    if (lc->broken || other->len == 0)
        return;
    const r1cs_term *o = r1cs_lc_terms(other);
    const uint32_t olen = other->len;
    uint32_t fresh = 0;
    {
        const r1cs_term *t = r1cs_lc_terms(lc);
        uint32_t i = 0, j = 0;
        while (j < olen) {
            if (i < lc->len && t[i].var < o[j].var) {
                i++;
            } else {
                if (i >= lc->len || t[i].var != o[j].var)
                    fresh++;
                else
                    i++;
                j++;
            }
        }
    }
    if ((uint64_t)lc->len + fresh > R1CS_MAX_INDEX || !reserve(lc, lc->len + fresh)) {
        lc->broken = 1;
        return;
    }
    o = r1cs_lc_terms(other); /* other == lc: reserve may have moved it */
    r1cs_term *t = terms_mut(lc);
    int64_t i = (int64_t)lc->len - 1, j = (int64_t)olen - 1, w = (int64_t)lc->len + fresh - 1;
    uint32_t last = NO_LAST;
    while (j >= 0) {
        if (i >= 0 && t[i].var > o[j].var) {
            t[w--] = t[i--];
            continue;
        }
        fr c; /* read o[j] before t[w] is written: they are one term when other == lc */
        incoming(&c, &o[j], k, negate);
        if (i >= 0 && t[i].var == o[j].var) {
            t[w] = t[i--];
            fr_add(&t[w].coeff, &t[w].coeff, &c);
        } else {
            t[w].var = o[j].var;
            t[w].coeff = c;
        }
        if (last == NO_LAST)
            last = (uint32_t)w;
        w--;
        j--;
    }
    lc->len += fresh;
    lc->last = last;
}

void r1cs_lc_add(r1cs_lc *lc, const r1cs_lc *other) { merge(lc, other, NULL, 0); }
void r1cs_lc_sub(r1cs_lc *lc, const r1cs_lc *other) { merge(lc, other, NULL, 1); }
void r1cs_lc_add_scaled(r1cs_lc *lc, const fr *k, const r1cs_lc *other) { merge(lc, other, k, 0); }
void r1cs_lc_sub_scaled(r1cs_lc *lc, const fr *k, const r1cs_lc *other) { merge(lc, other, k, 1); }

void r1cs_lc_scale(r1cs_lc *lc, const fr *k) {
    r1cs_term *t = terms_mut(lc);
    for (uint32_t i = 0; i < lc->len; i++)
        fr_mul(&t[i].coeff, &t[i].coeff, k);
}

int r1cs_lc_coeff(fr *out, const r1cs_lc *lc, r1cs_var v) {
    const r1cs_term *t = r1cs_lc_terms(lc);
    for (uint32_t i = 0; i < lc->len; i++) {
        if (t[i].var == v.id) {
            *out = t[i].coeff;
            return 1;
        }
    }
    fr_set_zero(out);
    return 0;
}

void r1cs_lc_eval(fr *out, const r1cs_lc *lc, const fr *inputs, const fr *aux) {
    const r1cs_term *t = r1cs_lc_terms(lc);
    fr acc, tmp;
    fr_set_zero(&acc);
    for (uint32_t i = 0; i < lc->len; i++) {
        uint32_t v = t[i].var;
        const fr *x = (v & R1CS_AUX_BIT) ? &aux[v & R1CS_MAX_INDEX] : &inputs[v];
        fr_mul(&tmp, x, &t[i].coeff);
        fr_add(&acc, &acc, &tmp);
    }
    *out = acc;
}
