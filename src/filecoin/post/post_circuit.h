/* The FallbackPoSt circuit (WinningPoSt and WindowPoSt): rust-fil-proofs
 * storage-proofs-post src/fallback/circuit.rs and compound.rs;
 * filecoin-facts.md 3.10.
 *
 * Per sector (namespace "outer namespace/sector_i"): alloc comm_r_last,
 * comm_c, comm_r; inputize comm_r; comm_r == Poseidon2(comm_c, comm_r_last);
 * per challenge j ("challenge_inclusion_j") a PoR of an allocated leaf
 * (Root::Val) with the private root comm_r_last (Root::Var) -> input: the
 * leaf index.  Public inputs: sectors x (1 + challenges).  A partition with
 * fewer real sectors than the circuit holds repeats the last one (the
 * vanilla prover pads its proofs so, and generate_public_inputs its inputs).
 *
 * The leaf challenges that feed the public inputs are post_challenges.h's. */
#ifndef CUZK_FILECOIN_POST_CIRCUIT_H
#define CUZK_FILECOIN_POST_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "filecoin/post/post_vanilla.h"
#include "filecoin/proof_types.h"
#include "gadget/por.h"
#include "r1cs/cs.h"

typedef struct {
    uint64_t nodes;                            /* leaves per sector (tree R) */
    unsigned sectors;                          /* per partition */
    unsigned challenges;                       /* per sector */
    unsigned arity_base, arity_sub, arity_top; /* tree R */
} post_shape;

/* The registered proof's shape: sector_count x challenge_count. */
void post_shape_for_proof(post_shape *out, const fc_post_proof *p);
/* 0 if nodes fills the tree shape exactly and 1 <= sectors, challenges with
 * sectors x challenges <= 2^24; else -1. */
int post_shape_check(const post_shape *s);
/* Tree R (only for a checked shape). */
void post_shape_tree(const post_shape *s, por_shape *out);
size_t post_num_public_inputs(const post_shape *s);

/* The witness of n_sectors real sectors (1 <= n_sectors <= sectors); with
 * C = challenges, lv = por_shape_levels, sb = por_shape_siblings:
 *   comm_r, comm_c, comm_r_last [n_sectors]
 *   leaf [n_sectors*C]             challenged leaf values
 *   index [n_sectors*C*lv]         path positions, leaf to root
 *   sib [n_sectors*C*sb]           siblings
 * mem: the block that owns the arrays when post_witness_from_vanilla made
 * them (post_witness_free), else NULL. */
typedef struct {
    size_t n_sectors;
    const fr *comm_r, *comm_c, *comm_r_last;
    const fr *leaf;
    const uint32_t *index;
    const fr *sib;
    void *mem;
} post_witness;

/* Synthesizes the circuit; w = NULL is the blank circuit (no values).
 * Returns 0, or -1 for a bad shape or witness size (nothing synthesized).
 * Each sector is one unit (docs/PCE.md s.5): post_sector_synth, marked
 * r1cs_segment(POST_SEG_SECTOR, i), reads nothing but its witness row, so
 * the sectors' witnesses can be generated in parallel (post_witness_par.h). */
int post_circuit_synthesize(r1cs_cs *cs, const post_shape *s, const post_witness *w);

#define POST_SEG_SECTOR 1u
/* 0 if s is a checked shape and w (may be NULL) fits it, else -1. */
int post_witness_valid(const post_shape *s, const post_witness *w);
/* Sector i (0 <= i < s->sectors) of a valid shape and witness: its segment
 * mark, namespaces "outer namespace/sector_i" and synthesis. */
int post_sector_synth(r1cs_cs *cs, const post_shape *s, const post_witness *w, size_t i);

/* FallbackPoStCompound::generate_public_inputs: per sector comm_r, then the
 * challenges' leaf indices, n_sectors real sectors padded by repeating the
 * last; out holds post_num_public_inputs(s).  challenges: n_sectors x C.
 * Returns 0, or -1 (err) for a count or a leaf index out of range. */
int post_public_inputs(fr *out, const post_shape *s, size_t n_sectors, const fr *comm_r,
                       const uint64_t *challenges, char *err, size_t errlen);

/* The witness from decoded vanilla proofs, one FallbackPoStSectorProof per
 * sector (as Curio sends them: each v[i] holds one sector's proof; a v[i]
 * with several sector proofs contributes each, all with v[i]'s comm_r).
 * Each proof's shape must be s's tree with s->challenges paths.  Fills w
 * (post_witness_free) and, when leaf_index is non-NULL, the leaf index of
 * every path (n_sectors x C entries, allocated room by the caller: at most
 * s->sectors x s->challenges).  Returns 0, or -1 with a message in err. */
int post_witness_from_vanilla(post_witness *w, uint64_t *leaf_index, const post_shape *s,
                              const fc_post_vanilla *const *v, size_t n, char *err, size_t errlen);
void post_witness_free(post_witness *w);

#endif
