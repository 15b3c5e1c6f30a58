/* Variables and linear combinations, with bellpepper-core 0.2's semantics.
 *
 * A variable is an input (public; input 0 is the constant ONE) or an aux
 * (private) variable; each kind is numbered from 0 in allocation order.
 * Encoding: bit 31 set = aux, low 31 bits = index.  Sorting by this encoding
 * puts every input before every aux variable and each kind in index order,
 * which is exactly bellpepper's iteration order (its LinearCombination keeps
 * two sorted maps, inputs and aux, and iterates inputs first).
 *
 * A linear combination is a sorted map variable -> coefficient:
 *   - adding a variable that is already present adds to its coefficient;
 *   - terms are never removed: a coefficient that sums to zero stays, and a
 *     term added with a zero coefficient is inserted (bellpepper keeps both;
 *     evaluation, densities and non-zero counts skip them later);
 *   - subtraction adds the negated coefficient.
 * Up to R1CS_LC_INLINE terms live inside the struct, so gadgets build their
 * small LCs without touching the heap; longer ones spill to a heap buffer that
 * r1cs_lc_clear keeps for reuse.
 *
 * Ownership: an r1cs_lc owns its heap buffer.  Do not copy the struct to get a
 * second LC (use r1cs_lc_copy); a struct copy may be used as a *move*.
 * Allocation failure marks the LC broken: later operations on it do nothing and
 * r1cs_enforce reports R1CS_ERR_NOMEM, so gadget code needs no error checks. */
#ifndef CUZK_R1CS_LC_H
#define CUZK_R1CS_LC_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

#define R1CS_AUX_BIT 0x80000000u
#define R1CS_MAX_INDEX 0x7fffffffu

typedef struct {
    uint32_t id; /* bit 31: aux; bits 0..30: index within its kind */
} r1cs_var;

static inline r1cs_var r1cs_input_var(uint32_t index) { return (r1cs_var){index}; }
static inline r1cs_var r1cs_aux_var(uint32_t index) { return (r1cs_var){index | R1CS_AUX_BIT}; }
static inline int r1cs_var_is_aux(r1cs_var v) { return (v.id & R1CS_AUX_BIT) != 0; }
static inline uint32_t r1cs_var_index(r1cs_var v) { return v.id & R1CS_MAX_INDEX; }
/* The constant ONE: input 0, allocated by every constraint system first. */
#define R1CS_ONE ((r1cs_var){0})

/* Terms up to this count need no heap.  8 covers boolean/uint32 gadgets and
 * Poseidon widths up to 8; SHA-256's MultiEq and packing LCs spill. */
#define R1CS_LC_INLINE 8

typedef struct {
    fr coeff;
    uint32_t var; /* r1cs_var.id, the sort key */
} r1cs_term;

typedef struct {
    uint32_t len;
    uint32_t cap;    /* R1CS_LC_INLINE while the terms are inline */
    uint32_t last;   /* position of the last inserted term (bellpepper's
                        consecutive-insert shortcut), UINT32_MAX if none */
    uint32_t broken; /* a heap allocation failed */
    r1cs_term *heap; /* NULL while the terms live in small[] */
    r1cs_term small[R1CS_LC_INLINE];
} r1cs_lc;

/* A zero LC as an initializer: r1cs_lc lc = R1CS_LC_INIT; */
#define R1CS_LC_INIT \
    { .len = 0, .cap = R1CS_LC_INLINE, .last = UINT32_MAX, .broken = 0, .heap = NULL }

void r1cs_lc_init(r1cs_lc *lc);
/* Releases the heap buffer; lc becomes the zero LC. */
void r1cs_lc_free(r1cs_lc *lc);
/* lc = 0, keeping any heap buffer for reuse. */
void r1cs_lc_clear(r1cs_lc *lc);
/* dst = src (dst initialized; may alias nothing but itself). */
void r1cs_lc_copy(r1cs_lc *dst, const r1cs_lc *src);

static inline const r1cs_term *r1cs_lc_terms(const r1cs_lc *lc) {
    return lc->heap ? lc->heap : lc->small;
}
static inline size_t r1cs_lc_len(const r1cs_lc *lc) { return lc->len; }

/* lc = coeff * v; lc = coeff * ONE (a constant); lc = v. */
void r1cs_lc_set_term(r1cs_lc *lc, r1cs_var v, const fr *coeff);
void r1cs_lc_set_const(r1cs_lc *lc, const fr *coeff);
void r1cs_lc_set_var(r1cs_lc *lc, r1cs_var v);

/* lc += coeff * v; lc -= coeff * v; lc += v; lc -= v. */
void r1cs_lc_add_term(r1cs_lc *lc, r1cs_var v, const fr *coeff);
void r1cs_lc_sub_term(r1cs_lc *lc, r1cs_var v, const fr *coeff);
void r1cs_lc_add_var(r1cs_lc *lc, r1cs_var v);
void r1cs_lc_sub_var(r1cs_lc *lc, r1cs_var v);

/* lc += other; lc -= other; lc += k * other; lc -= k * other.  other may be lc. */
void r1cs_lc_add(r1cs_lc *lc, const r1cs_lc *other);
void r1cs_lc_sub(r1cs_lc *lc, const r1cs_lc *other);
void r1cs_lc_add_scaled(r1cs_lc *lc, const fr *k, const r1cs_lc *other);
void r1cs_lc_sub_scaled(r1cs_lc *lc, const fr *k, const r1cs_lc *other);

/* Every coefficient *= k in place; terms stay even when k = 0 (bellpepper's
 * Num::scale multiplies through iter_mut). */
void r1cs_lc_scale(r1cs_lc *lc, const fr *k);

/* The coefficient of v, and 1 if v has a term (possibly zero); 0 otherwise. */
int r1cs_lc_coeff(fr *out, const r1cs_lc *lc, r1cs_var v);

/* out = sum coeff * value over all terms; the caller guarantees every index is
 * within inputs[] / aux[]. */
void r1cs_lc_eval(fr *out, const r1cs_lc *lc, const fr *inputs, const fr *aux);

#endif
