/* G2: the sextic M-twist y^2 = x^3 + 4(u + 1) over Fp2, order-r subgroup.
 * Conventions as in g1.h: affine infinity is (0, 0); Jacobian Z = 0. */
#ifndef CUZK_CURVE_G2_H
#define CUZK_CURVE_G2_H

#include <stddef.h>
#include <stdint.h>

#include "field/fp2.h"
#include "field/fr.h"

typedef struct {
    fp2 x, y;
} g2_affine;

typedef struct {
    fp2 x, y, z;
} g2_jac;

void g2_affine_generator(g2_affine *r);
void g2_affine_set_infinity(g2_affine *r);
int g2_affine_is_infinity(const g2_affine *p);
int g2_affine_equal(const g2_affine *a, const g2_affine *b);
void g2_affine_neg(g2_affine *r, const g2_affine *p);
int g2_affine_is_on_curve(const g2_affine *p);
/* psi(P) = [x]P (eprint 2021/1130 s.4, proof in 2022/352); P on the curve. */
int g2_affine_in_subgroup(const g2_affine *p);

void g2_jac_set_infinity(g2_jac *r);
int g2_jac_is_infinity(const g2_jac *p);
void g2_jac_from_affine(g2_jac *r, const g2_affine *p);
void g2_jac_to_affine(g2_affine *r, const g2_jac *p);
void g2_jac_batch_to_affine(g2_affine *r, const g2_jac *p, size_t n);
int g2_jac_equal(const g2_jac *a, const g2_jac *b);
void g2_jac_neg(g2_jac *r, const g2_jac *p);
void g2_jac_dbl(g2_jac *r, const g2_jac *p);
void g2_jac_add_vartime(g2_jac *r, const g2_jac *p, const g2_jac *q);
void g2_jac_add_affine_vartime(g2_jac *r, const g2_jac *p, const g2_affine *q);
void g2_jac_mul_vartime(g2_jac *r, const g2_jac *p, const fr *k);
void g2_jac_mul_raw_vartime(g2_jac *r, const g2_jac *p, const uint64_t *k, size_t n);
int g2_jac_in_subgroup(const g2_jac *p);

/* Batched affine additions, as g1_affine_batch_add_vartime. */
typedef struct {
    fp2 *den, *pre;
    uint8_t *kind;
    size_t cap;
} g2_batch_scratch;
int g2_batch_scratch_init(g2_batch_scratch *s, size_t n);
void g2_batch_scratch_free(g2_batch_scratch *s);
void g2_affine_batch_add_vartime(g2_affine *out, const g2_affine *a, const g2_affine *b, size_t n,
                                 g2_batch_scratch *s);

#endif
