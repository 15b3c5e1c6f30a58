/* R1CS_PROVE: bellperson 0.27's ProvingAssignment.
 *
 * Each enforce evaluates its three LCs against the assignment made so far
 * and appends a_j, b_j, c_j; the LCs themselves are dropped, so memory is
 * 96 bytes per row plus 32 per variable, whatever the circuit's term count.
 * As eval_with_trackers does, terms with a zero coefficient are skipped and
 * mark no density, a coefficient of one skips the multiplication, A marks only
 * aux variables (inputs are dense in A through the input rows), B marks inputs
 * and aux, C marks nothing. */
#include <stdlib.h>
#include <string.h>

#include "r1cs/cs_internal.h"

int r1cs_prove_reserve(r1cs_cs *cs, const r1cs_hint *h) {
    size_t rows = h->constraints ? h->constraints + h->inputs : 0;
    return r1cs_reserve(cs, (void **)&cs->a.p, &cs->a.cap, rows, sizeof(fr), R1CS_PRESIZE) &&
           r1cs_reserve(cs, (void **)&cs->b.p, &cs->b.cap, rows, sizeof(fr), R1CS_PRESIZE) &&
           r1cs_reserve(cs, (void **)&cs->c.p, &cs->c.cap, rows, sizeof(fr), R1CS_PRESIZE) &&
           r1cs_bits_reserve(cs, &cs->a_aux, h->aux, R1CS_PRESIZE) &&
           r1cs_bits_reserve(cs, &cs->b_aux, h->aux, R1CS_PRESIZE) &&
           r1cs_bits_reserve(cs, &cs->b_input, h->inputs, R1CS_PRESIZE);
}

/* Called before the count grows: room for one more variable's bits. */
int r1cs_prove_alloc(r1cs_cs *cs, int aux) {
    if (aux) {
        size_t w = cs->num_aux / 64; /* the word of the new variable's bit */
        if (w < cs->a_aux.words && w < cs->b_aux.words)
            return 1;
        return r1cs_bits_reserve(cs, &cs->a_aux, cs->num_aux + 1, R1CS_GROW) &&
               r1cs_bits_reserve(cs, &cs->b_aux, cs->num_aux + 1, R1CS_GROW);
    }
    if (cs->num_inputs / 64 < cs->b_input.words)
        return 1;
    return r1cs_bits_reserve(cs, &cs->b_input, cs->num_inputs + 1, R1CS_GROW);
}

static inline void mark(uint64_t *bits, uint32_t i) {
    if (bits)
        bits[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* out = <lc, z>, marking densities; 0 if a variable does not exist (checked
 * for zero-coefficient terms too, so every mode rejects the same circuits). */
static inline int eval_tracked(fr *out, const r1cs_lc *lc, r1cs_cs *cs, uint64_t *in_bits,
                               uint64_t *aux_bits, uint64_t *nnz) {
    const r1cs_term *t = r1cs_lc_terms(lc);
    const uint32_t n = lc->len;
    fr acc;
    fr_set_zero(&acc);
    uint64_t count = 0;
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t v = t[k].var, i = v & R1CS_MAX_INDEX;
        const int aux = (v & R1CS_AUX_BIT) != 0;
        if (i >= (aux ? cs->num_aux : cs->num_inputs))
            return 0;
        if (r1cs_fr_zero(&t[k].coeff))
            continue;
        const fr *x = aux ? &cs->aux.p[i] : &cs->input.p[i];
        mark(aux ? aux_bits : in_bits, i);
        r1cs_mul_acc(&acc, &t[k].coeff, x, &cs->minus_one);
        count++;
    }
    *nnz += count;
    *out = acc;
    return 1;
}

int r1cs_prove_row(r1cs_cs *cs, const r1cs_lc *a, const r1cs_lc *b, const r1cs_lc *c) {
    fr va, vb, vc;
    if (!eval_tracked(&va, a, cs, NULL, cs->a_aux.w, &cs->nnz[0]) ||
        !eval_tracked(&vb, b, cs, cs->b_input.w, cs->b_aux.w, &cs->nnz[1]) ||
        !eval_tracked(&vc, c, cs, NULL, NULL, &cs->nnz[2]))
        return -1;
    if (cs->a.len == cs->a.cap) { /* a, b, c always have the same length and capacity */
        size_t cap = cs->a.cap;
        if (!r1cs_reserve(cs, (void **)&cs->a.p, &cs->a.cap, cap + 1, sizeof(fr), R1CS_GROW) ||
            !r1cs_reserve(cs, (void **)&cs->b.p, &cs->b.cap, cs->a.cap, sizeof(fr), R1CS_EXACT) ||
            !r1cs_reserve(cs, (void **)&cs->c.p, &cs->c.cap, cs->a.cap, sizeof(fr), R1CS_EXACT))
            return 0;
    }
    cs->a.p[cs->a.len++] = va;
    cs->b.p[cs->b.len++] = vb;
    cs->c.p[cs->c.len++] = vc;
    return 0;
}

static void *take_fr(r1cs_cs *cs, r1cs_frvec *v) {
    r1cs_trim(cs, (void **)&v->p, &v->cap, v->len, sizeof(fr));
    void *p = v->p;
    cs->bytes -= v->cap * sizeof(fr);
    memset(v, 0, sizeof *v);
    return p;
}

static uint64_t *take_bits(r1cs_cs *cs, r1cs_bits *b, size_t nbits) {
    r1cs_trim(cs, (void **)&b->w, &b->words, r1cs_bitmap_words(nbits), sizeof(uint64_t));
    uint64_t *w = b->w;
    cs->bytes -= b->words * sizeof(uint64_t);
    memset(b, 0, sizeof *b);
    return w;
}

int r1cs_take_partition(r1cs_cs *cs, r1cs_partition *out) {
    memset(out, 0, sizeof *out);
    if (cs->err)
        return cs->err;
    if (cs->mode != R1CS_PROVE || !cs->finished || !cs->input.p)
        return R1CS_ERR_STATE;
    out->num_constraints = cs->rows;
    out->num_inputs = cs->num_inputs;
    out->num_aux = cs->num_aux;
    out->a = take_fr(cs, &cs->a);
    out->b = take_fr(cs, &cs->b);
    out->c = take_fr(cs, &cs->c);
    out->input = take_fr(cs, &cs->input);
    out->aux = take_fr(cs, &cs->aux);
    out->a_aux_density = take_bits(cs, &cs->a_aux, cs->num_aux);
    out->b_input_density = take_bits(cs, &cs->b_input, cs->num_inputs);
    out->b_aux_density = take_bits(cs, &cs->b_aux, cs->num_aux);
    return R1CS_OK;
}
