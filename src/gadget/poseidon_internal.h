/* Shared between the Poseidon files: the precomputed "optimized" form. */
#ifndef CUZK_GADGET_POSEIDON_INTERNAL_H
#define CUZK_GADGET_POSEIDON_INTERNAL_H

#include "gadget/poseidon.h"

/* Partial rounds rewritten so each costs 2t - 1 multiplications instead of t^2
 * (see poseidon_opt.c for the derivation).  All arrays in one allocation. */
struct poseidon_opt {
    fr *full_rc;  /* rf * t: full-round constants; round rf/2 absorbs the pushed ones */
    fr *part_rc;  /* rp: the one constant each partial round adds to state[0] */
    fr *sparse_v; /* rp * (t-1): first row (past [0][0]) of each sparse matrix */
    fr *sparse_w; /* rp * (t-1): first column (below [0][0]) of each sparse matrix */
    fr *tail;     /* (t-1)^2: Mhat^rp, applied to state[1..] after the partial rounds */
};

/* Builds p's optimized form; NULL when memory runs out (callers then use the
 * reference form). */
struct poseidon_opt *poseidon_opt_build(const poseidon_params *p);

/* Matrix helpers for the precomputations (n x n, row-major).
 * poseidon_mat_mul: c = a * b, c must not alias a or b.
 * poseidon_mat_inv: inv = a^-1, destroying a; 0 if a is singular. */
void poseidon_mat_mul(fr *c, const fr *a, const fr *b, unsigned n);
int poseidon_mat_inv(fr *inv, fr *a, unsigned n);

#endif
