/* Poseidon over BLS12-381 Fr as neptune v11 instantiates it for Filecoin:
 * Strength::Standard, x^5 S-box, width t = arity + 1, R_F = 8 full rounds,
 * Grain-LFSR round constants, Cauchy MDS, output state[1]
 * (shared/reference/filecoin-facts.md section 4).
 *
 * Parameters are built lazily, once per arity, thread-safe (pthread_once), and
 * live for the life of the process.  poseidon_neptune.h has the constants of
 * neptune's optimized form, which its circuit uses. */
#ifndef CUZK_GADGET_POSEIDON_H
#define CUZK_GADGET_POSEIDON_H

#include "field/fr.h"

/* 36: the widest arity Filecoin instantiates (rust-fil-proofs poseidon_types.rs). */
#define POSEIDON_MAX_ARITY 36
#define POSEIDON_MAX_WIDTH (POSEIDON_MAX_ARITY + 1)

typedef struct {
    unsigned arity;                 /* inputs per hash */
    unsigned t;                     /* width: arity + 1 (the tag / capacity element first) */
    unsigned rf;                    /* full rounds, split R_F/2 before and after the partial ones */
    unsigned rp;                    /* partial rounds (S-box on state[0] only) */
    const fr *rc;                   /* (rf + rp) * t round constants, t per round in order */
    const fr *mds;                  /* t * t Cauchy matrix, row-major; symmetric */
    fr tag;                         /* HashType::MerkleTree domain tag, 2^arity - 1 */
    const struct poseidon_opt *opt; /* the fast form's tables; NULL: reference only */
} poseidon_params;

/* 1 for the supported arities: 2, 4, 8, 11, 16, 24, 36. */
int poseidon_arity_supported(unsigned arity);

/* neptune's round numbers for width t (Standard strength); 0 if t is not tabled. */
int poseidon_round_numbers(unsigned t, unsigned *rf, unsigned *rp);

/* The constants for an arity, built on first use; NULL if unsupported. */
const poseidon_params *poseidon_params_get(unsigned arity);

/* The reference ("Correct") permutation of state[0..t-1], in place. */
void poseidon_permute(const poseidon_params *p, fr *state);

/* The same permutation with sparse partial rounds (about 2.5x fewer
 * multiplications at t = 9); falls back to poseidon_permute without tables. */
void poseidon_permute_fast(const poseidon_params *p, fr *state);

/* out = Poseidon-MerkleTree(in[0..arity-1]): state = [tag, in...], permute,
 * take state[1] (the fast form).  Returns 0, or -1 (out untouched) for an unsupported arity. */
int poseidon_hash(fr *out, const fr *in, unsigned arity);

/* neptune's HashType::Custom(CType::Arbitrary(id)) domain tag, id * 2^40
 * (1 <= id <= 256; no padding, same constants and rounds as MerkleTree).
 * SnapDeals draws phi, rho and its challenge digests with id 1
 * (storage-proofs-update constants.rs HASH_TYPE_GEN_RANDOMNESS). */
#define POSEIDON_CTYPE_GEN_RANDOMNESS 1
void poseidon_custom_tag(fr *out, uint64_t id);

/* As poseidon_hash with state[0] = tag instead of the MerkleTree tag. */
int poseidon_hash_tagged(fr *out, const fr *in, unsigned arity, const fr *tag);

#endif
