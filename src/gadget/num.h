/* AllocatedNum: one field-element variable with its cached value, as
 * bellpepper-core 0.2 src/gadgets/num.rs (filecoin-facts.md 5.2).
 *
 * The value is kept beside the variable so gadgets compute their witnesses
 * without asking the cs (upstream's Option<Scalar>).  has_val = 0 means
 * unknown; a gadget that allocates while the cs wants values but an operand
 * is unknown passes NULL, and the cs records R1CS_ERR_MISSING_VALUE. */
#ifndef CUZK_GADGET_NUM_H
#define CUZK_GADGET_NUM_H

#include "gadget/boolean.h"
#include "r1cs/cs.h"

typedef struct {
    r1cs_var var;
    int has_val; /* 1: val holds the value */
    fr val;
} gnum;

/* AllocatedNum::alloc: one aux variable; value may be NULL (unknown). */
gnum gnum_alloc(r1cs_cs *cs, const fr *value);

/* AllocatedNum::inputize: alloc_input v, then (v) * (ONE) = (x).  Returns v. */
r1cs_var gnum_inputize(r1cs_cs *cs, const gnum *x);

/* AllocatedNum::to_bits_le (non-strict): 255 AllocatedBits, least significant
 * first (1 constraint each), then 0 * 0 = (sum 2^i b_i - x): 256 constraints.
 * bits[] receives 255 entries.  x is not range-checked against r (upstream's
 * non-strict form); the witness is x's canonical bits. */
#define GNUM_BITS 255
void gnum_to_bits_le(r1cs_cs *cs, const gnum *x, gbool bits[GNUM_BITS]);

/* The first n (1 <= n <= 255) bits of x as AllocatedBits, least significant
 * first (1 booleanity constraint each), then the one row
 * (sum 2^i b_i) * (ONE) = (x): storage-proofs-update's
 * allocated_num_to_allocated_bits (n = 255) and its k_and_h_select
 * decomposition.  n + 1 constraints; with n < 255 it also forces x < 2^n. */
void gnum_to_bits_le_packed(r1cs_cs *cs, const gnum *x, unsigned n, gbool *bits);

/* AllocatedNum::to_bits_le_strict: the bits are also forced to be at most
 * r - 1 (no second decomposition): walking r - 1's bits from the top, each
 * run of ones is AND-ed (with the previous runs) into a bit that, when set,
 * forbids a one in the next zero position (AllocatedBit::alloc_conditionally,
 * (ONE - run - a) * (a) = 0).  255 bits + the ANDs + 1 unpacking constraint. */
void gnum_to_bits_le_strict(r1cs_cs *cs, const gnum *x, gbool bits[GNUM_BITS]);

/* AllocatedNum::add: one variable s, then (a + b) * (ONE) = (s). */
gnum gnum_add(r1cs_cs *cs, const gnum *a, const gnum *b);
/* AllocatedNum::mul: (a) * (b) = (ab).  square: (a) * (a) = (a^2). */
gnum gnum_mul(r1cs_cs *cs, const gnum *a, const gnum *b);
gnum gnum_square(r1cs_cs *cs, const gnum *a);

/* Value to pass to r1cs_alloc*: NULL when the mode keeps none or it is unknown. */
static inline const fr *gnum_alloc_value(const r1cs_cs *cs, int has_val, const fr *val) {
    return (r1cs_has_values(cs) && has_val) ? val : NULL;
}

#endif
