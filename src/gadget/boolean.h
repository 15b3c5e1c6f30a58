/* Boolean gadgets, bit-compatible with bellpepper-core 0.2 src/gadgets/boolean.rs.
 *
 * gbit is AllocatedBit: a variable constrained (or known) to be 0/1, with its
 * value cached so later gadgets can compute their witnesses without asking
 * the cs.  gbool is Boolean: a constant, an allocated bit, or the negation of
 * one (negation is free: it only changes how the bit enters an LC).
 *
 * Bit-compatibility means the same variables in the same order, the same
 * constraints in the same order with the same LC terms (zero coefficients
 * included), so the constant and negation special cases below follow
 * upstream's match arms one by one, including their order.
 *
 * Values: -1 = unknown (no values in this mode), else 0 or 1.  A gadget that
 * allocates passes its value to r1cs_alloc only when r1cs_has_values(cs); if
 * values are on but an operand's value is unknown, the cs records
 * R1CS_ERR_MISSING_VALUE (sticky), like bellpepper's AssignmentMissing. */
#ifndef CUZK_GADGET_BOOLEAN_H
#define CUZK_GADGET_BOOLEAN_H

#include <stdint.h>

#include "r1cs/cs.h"
#include "r1cs/lc.h"

typedef struct {
    r1cs_var var;
    int8_t val; /* -1 unknown, 0, 1 */
} gbit;

typedef enum { GBOOL_CONST = 0, GBOOL_IS = 1, GBOOL_NOT = 2 } gbool_kind;

typedef struct {
    uint8_t kind; /* gbool_kind */
    int8_t val;   /* GBOOL_CONST: the constant; else the underlying bit's value */
    r1cs_var var; /* GBOOL_IS / GBOOL_NOT: the underlying bit */
} gbool;

/* AllocatedBit::alloc: one aux variable, then (ONE - v) * (v) = 0.  value is
 * -1 when unknown. */
gbit gbit_alloc(r1cs_cs *cs, int value);

/* One new variable and one constraint each (no booleanity constraint: the
 * constraint itself forces a 0/1 result from 0/1 operands):
 *   xor:     (2a) * (b) = (a + b - r)
 *   and:     (a) * (b) = (r)
 *   and_not: (a) * (ONE - b) = (r)        r = a AND NOT b
 *   nor:     (ONE - a) * (ONE - b) = (r)  r = NOT a AND NOT b */
gbit gbit_xor(r1cs_cs *cs, gbit a, gbit b);
gbit gbit_and(r1cs_cs *cs, gbit a, gbit b);
gbit gbit_and_not(r1cs_cs *cs, gbit a, gbit b);
gbit gbit_nor(r1cs_cs *cs, gbit a, gbit b);

static inline gbool gbool_const(int v) { return (gbool){GBOOL_CONST, (int8_t)(v != 0), R1CS_ONE}; }
static inline gbool gbool_is(gbit b) { return (gbool){GBOOL_IS, b.val, b.var}; }
static inline int gbool_is_const(gbool b) { return b.kind == GBOOL_CONST; }
/* The value: -1 unknown, else 0/1. */
static inline int gbool_value(gbool b) {
    if (b.kind == GBOOL_NOT)
        return b.val < 0 ? -1 : !b.val;
    return b.val;
}
/* The underlying bit of an IS/NOT boolean. */
static inline gbit gbool_bit(gbool b) { return (gbit){b.var, b.val}; }

/* Boolean::alloc: an allocated bit, as IS. */
gbool gbool_alloc(r1cs_cs *cs, int value);
gbool gbool_not(gbool a);

/* Boolean::xor / and / sha256_ch / sha256_maj: free (no constraint) where an
 * operand's constness decides it, as upstream. */
gbool gbool_xor(r1cs_cs *cs, gbool a, gbool b);
gbool gbool_and(r1cs_cs *cs, gbool a, gbool b);
/* ch = (a AND b) XOR (NOT a AND c): one variable "ch" (no booleanity
 * constraint), then (b - c) * (a) = (ch - c). */
gbool gbool_sha256_ch(r1cs_cs *cs, gbool a, gbool b, gbool c);
/* maj = majority(a, b, c): allocates maj, then bc = b AND c (one more variable
 * and constraint), then (2bc - b - c) * (a) = (bc - maj). */
gbool gbool_sha256_maj(r1cs_cs *cs, gbool a, gbool b, gbool c);

/* Boolean::enforce_equal: one constraint 0 * 0 = (a - b) (or against ONE / 0
 * when a side is constant).  Two differing constants are not a constraint
 * but an unsatisfiable circuit: returns -1 then, and 0 otherwise. */
int gbool_enforce_equal(r1cs_cs *cs, gbool a, gbool b);

/* lc += coeff * a, with a as Boolean::lc writes it: constant true ->
 * (coeff, ONE); false -> nothing; IS -> (coeff, v); NOT -> (coeff, ONE) then
 * (-coeff, v). */
void gbool_lc_add(r1cs_lc *lc, gbool a, const fr *coeff);
/* lc -= coeff * a (bellpepper's `lc - &a.lc(one, coeff)`). */
void gbool_lc_sub(r1cs_lc *lc, gbool a, const fr *coeff);

#endif
