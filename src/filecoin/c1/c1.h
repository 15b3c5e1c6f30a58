/* The PoRep C1 output (SealCommitPhase1Output, filecoin-facts.md §2) decoded
 * into flat arrays, its JSON codec, and Curio's c1.json wrapper.
 *
 * Model.  A c1_output is ONE allocation: this header, the per-challenge
 * structs, the labeling proofs and an arena of 32-byte nodes.  Every shape
 * (path lengths, arities, layers, partitions, challenges) comes from the
 * registered proof, so the decoder knows where every node goes before it
 * reads it and never allocates per node.  Node bytes are kept exactly as the
 * JSON gives them (little-endian field-element reprs, SHA digests as stored).
 *
 * Merkle proofs: a c1_merkle's nodes are [root, leaf, sibling hashes of path
 * element 0, of element 1, ...], elements leaf side first (base elements,
 * then the sub element, then the top element).  Element e has
 * tree->arity[e] - 1 hashes starting at nodes[2 + tree->first[e]], and
 * index[e] is the running node's position (0..arity-1) among its siblings.
 *
 * Codec.  c1_decode reads the rust-fil-proofs serde JSON (any key order,
 * unknown keys ignored, "_h": null optional) or Curio's wrapper
 * {"SectorNum", "Phase1Out": base64 of that JSON, "SectorSize"}, checks the
 * shape against the registered proof and reports the FIRST problem with its
 * JSON path.  c1_encode writes serde_json's compact form (field order as
 * declared in Rust), so encode(decode(f)) == f for files in that form.
 * (The decoder checks shapes and ranges only; whether the proofs hold is
 * vanilla verification, which reads this model.) */
#ifndef CUZK_FILECOIN_C1_H
#define CUZK_FILECOIN_C1_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/proof_types.h"

enum {
    C1_NODE_BYTES = 32,
    C1_MAX_PATH = 32,      /* path elements: comm_d depth <= 31, tree R <= 11 */
    C1_LABEL_PARENTS = 37, /* parents per labeling/encoding proof */
    C1_DRG_PARENTS = 6,
    C1_EXP_PARENTS = 8,
    C1_MAX_DEPTH = 128 /* JSON nesting the decoder accepts */
};

typedef uint8_t c1_node[C1_NODE_BYTES];

typedef enum { C1_TREE_SINGLE = 0, C1_TREE_SUB = 1, C1_TREE_TOP = 2 } c1_tree_kind;

/* The shape of one tree's inclusion proofs. */
typedef struct {
    c1_tree_kind kind;
    unsigned base_arity, base_len; /* base path elements */
    unsigned sub_arity, top_arity; /* 0 when the level is absent */
    unsigned len;                  /* all path elements: base_len (+1 sub) (+1 top) */
    unsigned hashes;               /* sibling hashes in all elements */
    uint8_t arity[C1_MAX_PATH];    /* per element */
    uint16_t first[C1_MAX_PATH];   /* per element: offset of its first hash */
} c1_tree;

typedef struct {
    const c1_tree *tree;
    c1_node *nodes;             /* 2 + tree->hashes: root, leaf, hashes */
    uint8_t index[C1_MAX_PATH]; /* per element, < tree->arity[e] */
} c1_merkle;

/* A column of tree C: the labels of one node in every layer, and the
 * inclusion proof of the column's Poseidon hash. */
typedef struct {
    uint32_t index; /* the node, < sector nodes */
    c1_node *rows;  /* layers labels; rows[i] is layer i + 1 */
    c1_merkle proof;
} c1_column;

/* LabelingProof and EncodingProof have the same fields. */
typedef struct {
    c1_node *parents; /* C1_LABEL_PARENTS */
    uint32_t layer_index;
    uint64_t node;
} c1_labeling;

/* One challenge's vanilla proof (stacked::Proof). */
typedef struct {
    c1_merkle comm_d;      /* binary SHA-256 tree D (Single) */
    c1_merkle comm_r_last; /* tree R */
    c1_column c_x;
    c1_column drg[C1_DRG_PARENTS];
    c1_column exp[C1_EXP_PARENTS];
    c1_labeling *labeling; /* layers entries */
    c1_labeling encoding;
} c1_challenge;

typedef struct {
    const fc_seal_proof *proof;
    unsigned partitions, challenges, layers;
    uint64_t nodes;   /* sector nodes (range of indices) */
    c1_tree tree_d;   /* comm_d proofs */
    c1_tree tree_r;   /* comm_r_last proofs and tree C column proofs */
    c1_challenge *ch; /* partitions * challenges, partition-major */
    uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32];
    int wrapped;         /* decoded from a Curio wrapper: */
    uint64_t sector_num; /* its SectorNum */
    size_t arena_nodes;  /* nodes in the arena */
    size_t bytes;        /* the whole allocation */
    c1_node *arena;
} c1_output;

/* ---- errors ---------------------------------------------------------------------- */

typedef enum {
    C1_OK = 0,
    C1_ERR_SYNTAX,    /* not JSON: truncated, bad token, trailing bytes, too deep */
    C1_ERR_TYPE,      /* a JSON value of the wrong type */
    C1_ERR_SHAPE,     /* counts or variants that differ from the registered proof's shape,
                         missing or duplicate fields */
    C1_ERR_RANGE,     /* a number outside its range: byte > 255, negative, index >= arity */
    C1_ERR_PROOF,     /* unknown registered proof, or fields that contradict it */
    C1_ERR_BASE64,    /* the wrapper's Phase1Out is not strict padded standard base64 */
    C1_ERR_NO_MEMORY, /* allocation failed */
    C1_ERR_IO         /* a file could not be read or written */
} c1_status;

#define C1_MSG_BYTES 512

typedef struct {
    c1_status status;
    size_t offset;          /* byte offset of the problem in the text it was found in */
    char msg[C1_MSG_BYTES]; /* "<JSON path>: <problem>" */
} c1_error;

const char *c1_status_str(c1_status s);

/* ---- the model ---------------------------------------------------------------------- */

/* Fills the tree shapes for a registered proof's sector shape. */
void c1_tree_d_shape(c1_tree *t, const fc_sector_shape *s);
void c1_tree_r_shape(c1_tree *t, const fc_sector_shape *s);

/* Nodes of one challenge's proof for this registered proof (arena share). */
size_t c1_nodes_per_challenge(const fc_seal_proof *p);

/* Allocates an output of p's shape with all nodes, indices and numbers zero
 * and every pointer wired; NULL (and *err) on allocation failure. */
c1_output *c1_output_alloc(const fc_seal_proof *p, c1_error *err);
void c1_output_free(c1_output *c);

/* Partition p's challenge i (p < partitions, i < challenges). */
static inline c1_challenge *c1_at(const c1_output *c, unsigned p, unsigned i) {
    return &c->ch[(size_t)p * c->challenges + i];
}
static inline const uint8_t *c1_merkle_root(const c1_merkle *m) { return m->nodes[0]; }
static inline const uint8_t *c1_merkle_leaf(const c1_merkle *m) { return m->nodes[1]; }
/* Path element e's sibling hashes (count c1_path_hashes_len) and index. */
static inline c1_node *c1_path_hashes(const c1_merkle *m, unsigned e) {
    return &m->nodes[2 + m->tree->first[e]];
}
static inline unsigned c1_path_hashes_len(const c1_merkle *m, unsigned e) {
    return m->tree->arity[e] - 1u;
}
static inline unsigned c1_path_arity(const c1_merkle *m, unsigned e) { return m->tree->arity[e]; }
/* The leaf position the path proves: fold from the root end, acc*arity + index. */
uint64_t c1_merkle_path_index(const c1_merkle *m);

/* 1 if a and b hold the same proof type and values (wrapper fields ignored). */
int c1_output_equal(const c1_output *a, const c1_output *b);

/* Random values in a valid shape: node bytes random; per challenge a random
 * node whose comm_d, comm_r_last and c_x paths point at it, random parent
 * columns whose paths point at their index, layer_index 1..L.  Consistent
 * indices, hashes that do not verify: for tests and benchmarks, NOT a proof. */
void c1_output_fill_random(c1_output *c, uint64_t seed);

/* ---- the codec ---------------------------------------------------------------------- */

/* Decodes a bare SealCommitPhase1Output JSON or a Curio wrapper (told apart by
 * their keys).  On success *out owns the result (c1_output_free) and err is
 * cleared; on failure *out = NULL and err says what and where (first problem,
 * JSON path).  Wrapper errors inside Phase1Out carry the prefix "Phase1Out:"
 * and the offset within the decoded JSON.  Thread-safe; buf is only read.
 * Memory: the model, plus for a wrapper a few MiB of text window (its base64
 * is decoded as a stream; inputs the stream cannot take are decoded again the
 * plain way, with a full copy of the text). */
c1_status c1_decode(c1_output **out, const void *buf, size_t len, c1_error *err);

/* The same, but buf may be overwritten: a wrapper's base64 is decoded in place
 * (no second copy of the text). */
c1_status c1_decode_mutable(c1_output **out, void *buf, size_t len, c1_error *err);

/* Decodes a file: mapped read-only, pages dropped once the parser has passed
 * them (a 32 GiB output costs about the model's 10.6 MB plus a few MiB); a
 * pipe or other non-regular file is read into memory first. */
c1_status c1_decode_file(c1_output **out, const char *path, c1_error *err);

/* serde_json::to_vec form of c->  *out is malloc'd, *len its size. */
c1_status c1_encode(uint8_t **out, size_t *len, const c1_output *c, c1_error *err);

/* Curio's wrapper {"SectorNum":n,"Phase1Out":"<base64>","SectorSize":s} around
 * c1_encode's bytes (Go's encoding/json form). */
c1_status c1_encode_wrapper(uint8_t **out, size_t *len, const c1_output *c, uint64_t sector_num,
                            c1_error *err);

/* ---- strict standard base64 (RFC 4648 §4, padded) ---------------------------------- */

/* Decoded size of n base64 characters before looking at padding: n / 4 * 3. */
static inline size_t c1_base64_max_decoded(size_t n) { return n / 4 * 3; }
/* Decodes n characters into out (room for c1_base64_max_decoded(n)); *out_len
 * is the byte count.  Rejects lengths not a multiple of 4, characters outside
 * the alphabet, misplaced '=' and non-zero unused bits.  Returns 0, or -1 with
 * *bad = offset of the offending character and *why a short reason.  out may
 * equal in (in-place decoding moves left). */
int c1_base64_decode(uint8_t *out, size_t *out_len, const char *in, size_t n, size_t *bad,
                     const char **why);
/* Encoded size of n bytes: 4 * ceil(n / 3). */
static inline size_t c1_base64_encoded_len(size_t n) { return (n + 2) / 3 * 4; }
void c1_base64_encode(char *out, const uint8_t *in, size_t n);

#endif
