/* The optimal ate pairing e: G1 x G2 -> GT on BLS12-381.
 *
 * e(P, Q) = f_{x,Q}(P)^(3 (p^12 - 1)/r) with x = -0xd201000000010000: the
 * value zkcrypto bls12_381 and @noble/curves return, bit for bit (their final
 * exponentiation raises to 3 (p^4 - p^2 + 1)/r in the hard part, not to
 * (p^4 - p^2 + 1)/r; 3 is coprime to r, so e stays non-degenerate).
 *
 * Inputs must be on their curves and in the order-r subgroups (callers check
 * untrusted points with g1_affine_in_subgroup / g2_affine_in_subgroup).  An
 * input at infinity ((0, 0), see g1.h) makes its pair contribute 1.  The code
 * branches only on which inputs are infinity; nothing depends on the
 * coordinates' values. */
#ifndef CUZK_CURVE_PAIRING_H
#define CUZK_CURVE_PAIRING_H

#include <stddef.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fp12.h"

/* f = prod_i f_{x,q[i]}(p[i]), the Miller loops of n pairs sharing one chain of
 * Fp12 squarings (already conjugated for x < 0).  n = 0 gives f = 1. */
void pairing_miller_loop(fp12 *f, const g1_affine *p, const g2_affine *q, size_t n);
/* r = f^(3 (p^12 - 1)/r); r may alias f. */
void pairing_final_exp(fp12 *r, const fp12 *f);
/* r = e(p, q). */
void pairing(fp12 *r, const g1_affine *p, const g2_affine *q);
/* 1 iff prod_i e(p[i], q[i]) = 1, with one final exponentiation in all. */
int pairing_product_is_one(const g1_affine *p, const g2_affine *q, size_t n);

#endif
