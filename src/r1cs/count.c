/* R1CS_COUNT: counting and, with values, checking.
 *
 * Counting keeps nothing per row: constraints, variables, the number of
 * non-zero coefficients in A, B and C (the nnz a recording would store) and
 * the density bitmaps of the proving mode (2 bits per aux variable), marked
 * the same way: A marks aux variables, B inputs and aux, C nothing; terms
 * with a zero coefficient mark nothing.
 * Checking also keeps the assignment, evaluates a_j * b_j - c_j for every row
 * and remembers the first row that fails, as bellpepper's
 * TestConstraintSystem::which_is_unsatisfied does; cs.c then names it with the
 * namespace path, which only this mode formats. */
#include "r1cs/cs_internal.h"

/* Counts lc's non-zero terms into *nnz and marks their variables in
 * in_bits / aux_bits (either may be NULL); 0 if a variable does not exist. */
static inline int count_lc(const r1cs_lc *lc, const r1cs_cs *cs, uint64_t *nnz, uint64_t *in_bits,
                           uint64_t *aux_bits) {
    const r1cs_term *t = r1cs_lc_terms(lc);
    uint64_t count = 0;
    for (uint32_t k = 0; k < lc->len; k++) {
        const uint32_t v = t[k].var, i = v & R1CS_MAX_INDEX;
        const int aux = (v & R1CS_AUX_BIT) != 0;
        if (i >= (aux ? cs->num_aux : cs->num_inputs))
            return 0;
        if (r1cs_fr_zero(&t[k].coeff))
            continue;
        count++;
        uint64_t *bits = aux ? aux_bits : in_bits;
        if (bits)
            bits[i >> 6] |= (uint64_t)1 << (i & 63);
    }
    *nnz += count;
    return 1;
}

static inline void eval_lc(fr *out, const r1cs_lc *lc, const r1cs_cs *cs) {
    const r1cs_term *t = r1cs_lc_terms(lc);
    fr acc;
    fr_set_zero(&acc);
    for (uint32_t k = 0; k < lc->len; k++) {
        const uint32_t v = t[k].var;
        const fr *x = (v & R1CS_AUX_BIT) ? &cs->aux.p[v & R1CS_MAX_INDEX] : &cs->input.p[v];
        if (r1cs_fr_zero(&t[k].coeff))
            continue;
        r1cs_mul_acc(&acc, &t[k].coeff, x, &cs->minus_one);
    }
    *out = acc;
}

int r1cs_count_row(r1cs_cs *cs, const r1cs_lc *a, const r1cs_lc *b, const r1cs_lc *c) {
    if (!count_lc(a, cs, &cs->nnz[0], NULL, cs->a_aux.w) ||
        !count_lc(b, cs, &cs->nnz[1], cs->b_input.w, cs->b_aux.w) ||
        !count_lc(c, cs, &cs->nnz[2], NULL, NULL))
        return -1;
    if (!cs->values || cs->unsat)
        return 0; /* after the first failure only counting remains */
    fr va, vb, vc, ab;
    eval_lc(&va, a, cs);
    eval_lc(&vb, b, cs);
    eval_lc(&vc, c, cs);
    fr_mul(&ab, &va, &vb);
    if (fr_equal(&ab, &vc))
        return 0;
    cs->unsat = 1;
    cs->unsat_row = cs->rows;
    return 1;
}
