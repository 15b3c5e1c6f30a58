/* G1: the BLS12-381 curve y^2 = x^3 + 4 over Fp, prime-order subgroup of order r.
 *
 * Affine points are (x, y) in Montgomery form; the point at infinity is
 * (0, 0), which is not on the curve, so an affine array needs no flags and its
 * bytes match blst's blst_p1_affine.  Jacobian (X, Y, Z) means x = X/Z^2,
 * y = Y/Z^3; Z = 0 is infinity.  Outputs may alias inputs.  Functions named
 * _vartime branch on their (public) data. */
#ifndef CUZK_CURVE_G1_H
#define CUZK_CURVE_G1_H

#include <stddef.h>
#include <stdint.h>

#include "field/fp.h"
#include "field/fr.h"

typedef struct {
    fp x, y;
} g1_affine;

typedef struct {
    fp x, y, z;
} g1_jac;

void g1_affine_generator(g1_affine *r);
void g1_affine_set_infinity(g1_affine *r);
int g1_affine_is_infinity(const g1_affine *p);
int g1_affine_equal(const g1_affine *a, const g1_affine *b);
void g1_affine_neg(g1_affine *r, const g1_affine *p);
/* y^2 = x^3 + 4 (infinity counts as on the curve). */
int g1_affine_is_on_curve(const g1_affine *p);
/* In the order-r subgroup, by the endomorphism test phi(P) = -[x^2]P
 * (Scott, eprint 2021/1130 s.6); assumes the point is on the curve. */
int g1_affine_in_subgroup(const g1_affine *p);

void g1_jac_set_infinity(g1_jac *r);
int g1_jac_is_infinity(const g1_jac *p);
void g1_jac_from_affine(g1_jac *r, const g1_affine *p);
/* One inversion. */
void g1_jac_to_affine(g1_affine *r, const g1_jac *p);
/* Many points, one inversion in all (Montgomery's trick); r and p may alias. */
void g1_jac_batch_to_affine(g1_affine *r, const g1_jac *p, size_t n);
int g1_jac_equal(const g1_jac *a, const g1_jac *b);
void g1_jac_neg(g1_jac *r, const g1_jac *p);
void g1_jac_dbl(g1_jac *r, const g1_jac *p);
/* Complete for all inputs (handles doubling and infinity); _vartime: branches. */
void g1_jac_add_vartime(g1_jac *r, const g1_jac *p, const g1_jac *q);
void g1_jac_add_affine_vartime(g1_jac *r, const g1_jac *p, const g1_affine *q);
/* r = k * p, k canonical Fr; variable time (for public or proof-time data). */
void g1_jac_mul_vartime(g1_jac *r, const g1_jac *p, const fr *k);
/* r = k * p, k a plain little-endian integer of n limbs (any size). */
void g1_jac_mul_raw_vartime(g1_jac *r, const g1_jac *p, const uint64_t *k, size_t n);
int g1_jac_in_subgroup(const g1_jac *p);

/* Scratch for g1_affine_batch_add_vartime of up to cap pairs (denominators,
 * their prefix products, a kind byte each); reusable across calls. */
typedef struct {
    fp *den, *pre;
    uint8_t *kind;
    size_t cap;
} g1_batch_scratch;
/* 0, or -1 (and nothing held) when it cannot be allocated. */
int g1_batch_scratch_init(g1_batch_scratch *s, size_t n);
void g1_batch_scratch_free(g1_batch_scratch *s);
/* out[k] = a[k] + b[k] for k < n <= s->cap, affine, one inversion in all
 * (Montgomery's trick).  Complete: infinity, doubling and P + (-P) are
 * handled.  out may alias a or b (element for element). */
void g1_affine_batch_add_vartime(g1_affine *out, const g1_affine *a, const g1_affine *b, size_t n,
                                 g1_batch_scratch *s);

#endif
