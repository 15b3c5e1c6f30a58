/* neptune's "OptimizedStatic" Poseidon form, whose constants neptune's circuit
 * (neptune::circuit::poseidon_hash, used by every Filecoin circuit) bakes into
 * its constraints (filecoin-facts.md 4.6): round keys compressed to after the
 * S-boxes, a dense pre-sparse matrix at round R_F/2 - 1, and one sparse matrix
 * M'' per partial round.  Derived as neptune's preprocessing.rs / mds.rs do,
 * with its conventions: every matrix product is row vector x matrix,
 * out_j = sum_i e_i * A[i][j].  Built lazily, on first use of an arity. */
#ifndef CUZK_GADGET_POSEIDON_NEPTUNE_H
#define CUZK_GADGET_POSEIDON_NEPTUNE_H

#include "gadget/poseidon.h"

typedef struct {
    const poseidon_params *p;
    /* rf * t + rp: t added before round 0, then after each S-box layer: t per
     * full round except the last (which has none), 1 per partial round */
    const fr *compressed_rc;
    const fr *pre_sparse; /* t * t, row-major, used as round R_F/2 - 1's matrix */
    const fr *w_hat;      /* rp * t: column 0 of each partial round's M'' */
    const fr *v_rest;     /* rp * (t-1): row 0 of each M'' past [0][0] */
} poseidon_neptune;

/* NULL for an unsupported arity or when memory runs out. */
const poseidon_neptune *poseidon_neptune_get(unsigned arity);

/* The permutation evaluated in that form (same result as poseidon_permute);
 * a check that the constants are right, and the circuit's witness order. */
void poseidon_neptune_permute(const poseidon_neptune *n, fr *state);

#endif
