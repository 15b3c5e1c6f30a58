/* Proof of retrievability (Merkle inclusion) circuits, as rust-fil-proofs
 * storage-proofs-core src/gadgets/por.rs (filecoin-facts.md 3.4).
 *
 * A tree has a shape: base arity with base_levels path elements, then
 * optionally one sub-tree element (sub arity) and one top-tree element (top
 * arity; only with a sub level).  Filecoin's shapes are 8-0-0, 8-8-0, 8-8-2
 * (Poseidon trees R and C) and 2-0-0 (the SHA-256 tree D).  Arities are
 * powers of two, 2 .. 16.
 *
 * Per path element (PoRCircuit, namespace "merkle tree hash i"): log2(arity)
 * index bits (AllocatedBit, LSB first), the arity - 1 siblings
 * (AllocatedNum), insert (insertion.h), then the node hash (tree_hash.h).
 * After the last element: the concatenated index bits packed into one public
 * input (multipack), the root allocated (or taken), computed == root as
 * (computed) * (ONE) = (root), and for a public root its inputize.
 *
 * Witness layout (por_path): flat arrays, element by element from the leaf
 * up: index[l] is the running node's position among its siblings at element
 * l, siblings hold every element's arity - 1 values one after another. */
#ifndef CUZK_GADGET_POR_H
#define CUZK_GADGET_POR_H

#include <stddef.h>
#include <stdint.h>

#include "gadget/boolean.h"
#include "gadget/num.h"
#include "gadget/tree_hash.h"
#include "r1cs/cs.h"

#define POR_MAX_ARITY 16
#define POR_MAX_LEVELS 64

typedef struct {
    tree_hasher hasher;
    unsigned base, sub, top; /* arities; sub = 0 / top = 0: no such level */
    unsigned base_levels;    /* path elements inside a base tree */
} por_shape;

/* 0 if the shape is valid (power-of-two arities 2 .. POR_MAX_ARITY, top only
 * with sub, at most POR_MAX_LEVELS elements, at most 63 index bits, a
 * Poseidon arity neptune has), else -1. */
int por_shape_check(const por_shape *s);
/* Path elements: base_levels + (sub > 0) + (top > 0). */
unsigned por_shape_levels(const por_shape *s);
/* Arity of element l (0 if l is out of range). */
unsigned por_shape_arity(const por_shape *s, unsigned l);
/* Siblings over all elements: sum of (arity - 1). */
size_t por_shape_siblings(const por_shape *s);
/* Index bits over all elements: sum of log2(arity) = log2(leaves). */
unsigned por_shape_index_bits(const por_shape *s);

typedef struct {
    const uint32_t *index; /* por_shape_levels entries; NULL: no values */
    const fr *siblings;    /* por_shape_siblings entries; NULL: no values */
} por_path;

/* storage-proofs-core's Root: a value still to be allocated (Root::Val) or
 * an already allocated num (Root::Var). */
typedef struct {
    int allocated; /* 1: num.var is used as is; 0: allocated from num.val */
    gnum num;      /* the value (has_val = 0: unknown) */
} por_root;

static inline por_root por_root_val(const fr *v) {
    por_root r = {0, {.var = R1CS_ONE, .has_val = v != NULL}};
    if (v)
        r.num.val = *v;
    else
        fr_set_zero(&r.num.val);
    return r;
}
static inline por_root por_root_var(gnum n) { return (por_root){1, n}; }

/* PoRCircuit::synthesize: leaf value, auth path and root; public inputs:
 * the packed path bits, then (private_root = 0) the root.  Returns 0, or -1
 * for an invalid shape / witness (nothing allocated then, except when a
 * hasher fails midway, which the valid-shape check excludes). */
int por_circuit(r1cs_cs *cs, const por_shape *s, const por_root *value, const por_path *path,
                const por_root *root, int private_root);

/* por_no_challenge_input: the same ascent without index-bit allocation or a
 * public input: challenge_bits (por_shape_index_bits of them, LSB first,
 * allocated bits) pick the positions, path_values holds every element's
 * allocated siblings (por_shape_siblings), and the last row is
 * (computed) * (ONE) = (root).  Returns 0 or -1 (bad shape / bit count /
 * a bit that is not an unnegated allocated bit where size 8 needs one). */
int por_no_challenge_input(r1cs_cs *cs, const por_shape *s, const gbool *challenge_bits,
                           size_t nbits, const gnum *leaf, const gnum *path_values,
                           const gnum *root);

/* The public inputs PoRCompound::generate_public_inputs gives: the leaf
 * index as one Fr, then the root when public.  Returns how many it wrote
 * (1 or 2). */
size_t por_public_inputs(fr out[2], uint64_t challenge, const fr *root, int private_root);

#endif
