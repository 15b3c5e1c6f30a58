/* R1CS_RECORD: A, B, C as compact CSR matrices, one row per enforce.
 *
 * Terms are appended in the LC's order with zero coefficients dropped.  While
 * synthesis runs, the final input count is unknown (alloc_input and enforce
 * interleave), so columns are kept as variable ids (bit 31 = aux) and mapped
 * to z's numbering, aux i -> num_inputs + i, when the matrices are taken.
 * Coefficients are stored as indexes into a dictionary of the distinct values
 * (circuits use few: +-1, powers of two, some constants), u16 while the
 * dictionary fits (all three arrays widen to u32 in place if it outgrows
 * 65,536 entries), so a term costs 6 bytes instead of 36.
 * r1cs_take_matrices expands them back to 32-byte values; the PCE file
 * (pce.h) keeps the compact form. */
#include <stdlib.h>
#include <string.h>

#include "r1cs/cs_internal.h"

/* Slot of x in the table: the limbs mixed, the low bits of a Montgomery form
 * alone are well spread but powers of two share structure. */
static inline size_t dict_hash(const fr *x, size_t mask) {
    uint64_t h = x->l[0] ^ (x->l[1] * 0x9e3779b97f4a7c15ULL) ^ (x->l[2] * 0xc2b2ae3d27d4eb4fULL) ^
                 (x->l[3] * 0x165667b19e3779f9ULL);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return (size_t)h & mask;
}

static int dict_rehash(r1cs_cs *cs, size_t slots) {
    uint32_t *t = calloc(slots, sizeof *t);
    if (!t) {
        r1cs_set_error(cs, R1CS_ERR_NOMEM, "out of memory growing the coefficient dictionary");
        return 0;
    }
    for (size_t i = 2; i < cs->dict.len; i++) { /* +-1 never go through the table */
        size_t s = dict_hash(&cs->dict.p[i], slots - 1);
        while (t[s])
            s = (s + 1) & (slots - 1);
        t[s] = (uint32_t)i + 1;
    }
    cs->bytes += (slots - cs->dict_slots) * sizeof *t;
    if (cs->bytes > cs->peak)
        cs->peak = cs->bytes;
    free(cs->dict_slot);
    cs->dict_slot = t;
    cs->dict_slots = slots;
    return 1;
}

/* Index arrays from u16 to u32, in place back to front (the dictionary just
 * outgrew u16).  0 on out of memory. */
static int widen(r1cs_cs *cs) {
    for (int m = 0; m < 3; m++) {
        r1cs_u32vec *c = &cs->coef[m];
        if (!c->cap)
            continue;
        void *q = realloc(c->p, c->cap * sizeof(uint32_t));
        if (!q) {
            r1cs_set_error(cs, R1CS_ERR_NOMEM, "out of memory widening coefficient indexes");
            return 0;
        }
        c->p = q;
        const uint16_t *c16 = q;
        for (size_t k = c->len; k-- > 0;)
            c->p[k] = c16[k];
        cs->bytes += c->cap * 2;
    }
    if (cs->bytes > cs->peak)
        cs->peak = cs->bytes;
    cs->coef_width = 4;
    return 1;
}

/* The dictionary index of a non-zero coefficient; UINT32_MAX on error. */
static inline uint32_t dict_index(r1cs_cs *cs, const fr *x) {
    if (r1cs_fr_one(x))
        return 0;
    const fr *m = &cs->minus_one;
    if (x->l[0] == m->l[0] && x->l[1] == m->l[1] && x->l[2] == m->l[2] && x->l[3] == m->l[3])
        return 1;
    size_t mask = cs->dict_slots - 1, s = dict_hash(x, mask);
    for (uint32_t e; (e = cs->dict_slot[s]) != 0; s = (s + 1) & mask) {
        const fr *d = &cs->dict.p[e - 1];
        if (d->l[0] == x->l[0] && d->l[1] == x->l[1] && d->l[2] == x->l[2] && d->l[3] == x->l[3])
            return e - 1;
    }
    if (cs->dict.len >= UINT32_MAX - 1) {
        r1cs_set_error(cs, R1CS_ERR_TOO_LARGE, "more than 2^32 - 2 distinct coefficients");
        return UINT32_MAX;
    }
    uint32_t idx = (uint32_t)cs->dict.len;
    if (idx == 65536 && !widen(cs))
        return UINT32_MAX;
    if (!r1cs_frvec_push(cs, &cs->dict, x))
        return UINT32_MAX;
    cs->dict_slot[s] = idx + 1;
    if (2 * cs->dict.len > cs->dict_slots && !dict_rehash(cs, 2 * cs->dict_slots))
        return UINT32_MAX;
    return idx;
}

int r1cs_record_reserve(r1cs_cs *cs, const r1cs_hint *h) {
    cs->coef_width = 2;
    const size_t nnz[3] = {h->nnz_a, h->nnz_b, h->nnz_c};
    size_t rows = h->constraints ? h->constraints + h->inputs : 0;
    for (int m = 0; m < 3; m++) {
        if (!r1cs_reserve(cs, (void **)&cs->row_ptr[m].p, &cs->row_ptr[m].cap, rows + 1,
                          sizeof(uint32_t), R1CS_PRESIZE) ||
            !r1cs_reserve(cs, (void **)&cs->col[m].p, &cs->col[m].cap, nnz[m], sizeof(uint32_t),
                          R1CS_PRESIZE) ||
            !r1cs_reserve(cs, (void **)&cs->coef[m].p, &cs->coef[m].cap, nnz[m], 2, R1CS_PRESIZE))
            return 0;
        cs->row_ptr[m].p[0] = 0;
        cs->row_ptr[m].len = 1;
    }
    if (!r1cs_frvec_push(cs, &cs->dict, &FR_ONE) || !r1cs_frvec_push(cs, &cs->dict, &cs->minus_one))
        return 0;
    return dict_rehash(cs, 1024);
}

void r1cs_record_free(r1cs_cs *cs) {
    for (int m = 0; m < 3; m++) {
        free(cs->row_ptr[m].p);
        free(cs->col[m].p);
        free(cs->coef[m].p);
    }
    free(cs->dict.p);
    free(cs->dict_slot);
}

/* Appends lc's non-zero terms as one row of matrix m: 1, 0 (out of memory or
 * too many terms: error set), -1 (unknown variable). */
static int append_row(r1cs_cs *cs, int m, const r1cs_lc *lc) {
    r1cs_u32vec *col = &cs->col[m], *coef = &cs->coef[m], *rp = &cs->row_ptr[m];
    const r1cs_term *t = r1cs_lc_terms(lc);
    size_t nz = 0; /* first pass: check variables, count what will be stored */
    for (uint32_t k = 0; k < lc->len; k++) {
        const uint32_t v = t[k].var, i = v & R1CS_MAX_INDEX;
        if (i >= ((v & R1CS_AUX_BIT) ? cs->num_aux : cs->num_inputs))
            return -1;
        nz += !r1cs_fr_zero(&t[k].coeff);
    }
    size_t need = col->len + nz;
    if (need > UINT32_MAX) {
        r1cs_set_error(cs, R1CS_ERR_TOO_LARGE, "more than 2^32 - 1 terms in one matrix");
        return 0;
    }
    if (!r1cs_reserve(cs, (void **)&col->p, &col->cap, need, sizeof(uint32_t), R1CS_GROW) ||
        !r1cs_reserve(cs, (void **)&coef->p, &coef->cap, need, cs->coef_width, R1CS_GROW) ||
        !r1cs_reserve(cs, (void **)&rp->p, &rp->cap, rp->len + 1, sizeof(uint32_t), R1CS_GROW))
        return 0;
    size_t n = col->len;
    for (uint32_t k = 0; k < lc->len; k++) {
        if (r1cs_fr_zero(&t[k].coeff))
            continue;
        uint32_t d = dict_index(cs, &t[k].coeff);
        if (d == UINT32_MAX)
            return 0;
        col->p[n] = t[k].var;
        if (cs->coef_width == 2) /* read after dict_index: it may have widened */
            ((uint16_t *)coef->p)[n] = (uint16_t)d;
        else
            coef->p[n] = d;
        n++;
    }
    cs->nnz[m] += nz;
    col->len = coef->len = n;
    rp->p[rp->len++] = (uint32_t)n;
    return 1;
}

int r1cs_record_row(r1cs_cs *cs, const r1cs_lc *a, const r1cs_lc *b, const r1cs_lc *c) {
    const r1cs_lc *lcs[3] = {a, b, c};
    for (int m = 0; m < 3; m++) {
        int r = append_row(cs, m, lcs[m]);
        if (r <= 0)
            return r; /* a row left half-appended is moot: the error is sticky */
    }
    return 0;
}

static int take_matrix(r1cs_cs *cs, int m, r1cs_csr *out) {
    r1cs_u32vec *rp = &cs->row_ptr[m], *col = &cs->col[m], *coef = &cs->coef[m];
    fr *val = malloc((col->len ? col->len : 1) * sizeof(fr));
    if (!val)
        return R1CS_ERR_NOMEM;
    const uint32_t nin = (uint32_t)cs->num_inputs;
    for (size_t k = 0; k < col->len; k++) {
        uint32_t v = col->p[k];
        if (v & R1CS_AUX_BIT)
            col->p[k] = nin + (v & R1CS_MAX_INDEX);
        val[k] = cs->dict.p[cs->coef_width == 2 ? ((const uint16_t *)coef->p)[k] : coef->p[k]];
    }
    r1cs_trim(cs, (void **)&rp->p, &rp->cap, rp->len, sizeof(uint32_t));
    r1cs_trim(cs, (void **)&col->p, &col->cap, col->len, sizeof(uint32_t));
    out->rows = rp->len - 1;
    out->row_ptr = rp->p;
    out->col = col->p;
    out->val = val;
    cs->bytes -=
        rp->cap * sizeof(uint32_t) + col->cap * sizeof(uint32_t) + coef->cap * cs->coef_width;
    free(coef->p);
    memset(rp, 0, sizeof *rp);
    memset(col, 0, sizeof *col);
    memset(coef, 0, sizeof *coef);
    return R1CS_OK;
}

int r1cs_take_matrices(r1cs_cs *cs, r1cs_matrices *out) {
    memset(out, 0, sizeof *out);
    if (cs->err)
        return cs->err;
    if (cs->mode != R1CS_RECORD || !cs->finished || !cs->row_ptr[0].p)
        return R1CS_ERR_STATE;
    if ((uint64_t)cs->num_inputs + cs->num_aux > UINT32_MAX)
        return R1CS_ERR_TOO_LARGE;
    out->num_constraints = cs->rows;
    out->num_inputs = cs->num_inputs;
    out->num_aux = cs->num_aux;
    r1cs_csr *mx[3] = {&out->a, &out->b, &out->c};
    for (int m = 0; m < 3; m++)
        if (take_matrix(cs, m, mx[m]) != R1CS_OK) {
            r1cs_matrices_free(out);
            r1cs_set_error(cs, R1CS_ERR_NOMEM, "out of memory expanding the coefficients");
            return R1CS_ERR_NOMEM;
        }
    return R1CS_OK;
}
