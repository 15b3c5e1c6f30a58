/* R1CS_RECORD: A, B, C as CSR matrices, one row per enforce.
 *
 * Terms are appended in the LC's order with zero coefficients dropped.  While
 * synthesis runs, the final input count is unknown (alloc_input and enforce
 * interleave), so columns are kept as variable ids (bit 31 = aux) and mapped
 * to z's numbering, aux i -> num_inputs + i, when the matrices are taken.
 * Cost: 36 bytes per stored term plus 4 bytes per row and matrix. */
#include <stdlib.h>
#include <string.h>

#include "r1cs/cs_internal.h"

int r1cs_record_reserve(r1cs_cs *cs, const r1cs_hint *h) {
    const size_t nnz[3] = {h->nnz_a, h->nnz_b, h->nnz_c};
    size_t rows = h->constraints ? h->constraints + h->inputs : 0;
    for (int m = 0; m < 3; m++) {
        if (!r1cs_reserve(cs, (void **)&cs->row_ptr[m].p, &cs->row_ptr[m].cap, rows + 1,
                          sizeof(uint32_t), R1CS_PRESIZE) ||
            !r1cs_reserve(cs, (void **)&cs->col[m].p, &cs->col[m].cap, nnz[m], sizeof(uint32_t),
                          R1CS_PRESIZE) ||
            !r1cs_reserve(cs, (void **)&cs->val[m].p, &cs->val[m].cap, nnz[m], sizeof(fr),
                          R1CS_PRESIZE))
            return 0;
        cs->row_ptr[m].p[0] = 0;
        cs->row_ptr[m].len = 1;
    }
    return 1;
}

void r1cs_record_free(r1cs_cs *cs) {
    for (int m = 0; m < 3; m++) {
        free(cs->row_ptr[m].p);
        free(cs->col[m].p);
        free(cs->val[m].p);
    }
}

/* Appends lc's non-zero terms as one row of matrix m: 1, 0 (out of memory or
 * too many terms: error set), -1 (unknown variable). */
static int append_row(r1cs_cs *cs, int m, const r1cs_lc *lc) {
    r1cs_u32vec *col = &cs->col[m], *rp = &cs->row_ptr[m];
    r1cs_frvec *val = &cs->val[m];
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
        !r1cs_reserve(cs, (void **)&val->p, &val->cap, need, sizeof(fr), R1CS_GROW) ||
        !r1cs_reserve(cs, (void **)&rp->p, &rp->cap, rp->len + 1, sizeof(uint32_t), R1CS_GROW))
        return 0;
    size_t n = col->len;
    for (uint32_t k = 0; k < lc->len; k++) {
        if (r1cs_fr_zero(&t[k].coeff))
            continue;
        col->p[n] = t[k].var;
        val->p[n] = t[k].coeff;
        n++;
    }
    cs->nnz[m] += nz;
    col->len = val->len = n;
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

static void take_matrix(r1cs_cs *cs, int m, r1cs_csr *out) {
    r1cs_u32vec *rp = &cs->row_ptr[m], *col = &cs->col[m];
    r1cs_frvec *val = &cs->val[m];
    const uint32_t nin = (uint32_t)cs->num_inputs;
    for (size_t k = 0; k < col->len; k++) {
        uint32_t v = col->p[k];
        if (v & R1CS_AUX_BIT)
            col->p[k] = nin + (v & R1CS_MAX_INDEX);
    }
    r1cs_trim(cs, (void **)&rp->p, &rp->cap, rp->len, sizeof(uint32_t));
    r1cs_trim(cs, (void **)&col->p, &col->cap, col->len, sizeof(uint32_t));
    r1cs_trim(cs, (void **)&val->p, &val->cap, val->len, sizeof(fr));
    out->rows = rp->len - 1;
    out->row_ptr = rp->p;
    out->col = col->p;
    out->val = val->p;
    cs->bytes -= rp->cap * sizeof(uint32_t) + col->cap * sizeof(uint32_t) + val->cap * sizeof(fr);
    memset(rp, 0, sizeof *rp);
    memset(col, 0, sizeof *col);
    memset(val, 0, sizeof *val);
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
    take_matrix(cs, 0, &out->a);
    take_matrix(cs, 1, &out->b);
    take_matrix(cs, 2, &out->c);
    return R1CS_OK;
}
