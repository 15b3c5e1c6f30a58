/* A strict reader and writer of the bincode 1.3 forms that rust-fil-proofs'
 * vanilla proofs take (default options): little-endian fixed-width integers,
 * usize as u64, Vec<T> as a u64 length then the items, an enum as a u32
 * variant then its payload, a 32-byte domain value as its raw bytes.
 *
 * Merkle proofs (storage-proofs-core merkle/proof.rs, facts §2.4):
 *   MerkleProof  = u32 variant ; payload
 *     0 Single : root 32 | leaf 32 | path
 *     1 Sub    : base path | sub path | root 32 | leaf 32
 *     2 Top    : base path | sub path | top path | root 32 | leaf 32
 *   path         = u64 n ; n x (u64 n_hashes | n_hashes x 32 B | u64 index)
 *
 * Decoders built on it (PoSt, SnapDeals) walk their bytes twice: a first pass
 * validates and counts without allocating (so a hostile length cannot make
 * them allocate), the second fills one arena sized from the counts.  The
 * walker keeps the path-element and sibling cursors of that arena; callers
 * keep their own. */
#ifndef CUZK_FILECOIN_BINCODE_H
#define CUZK_FILECOIN_BINCODE_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle/inclusion_proof.h"

/* What kind of fault the last failure was, so a caller can map it to its own
 * codes without reading the message. */
typedef enum {
    FC_BINCODE_OK = 0,
    FC_BINCODE_TRUNCATED, /* fewer bytes than a field needs, or a length past the bytes left */
    FC_BINCODE_TRAILING,  /* bytes left after the value (set by callers: fc_bincode_end) */
    FC_BINCODE_LENGTH,    /* a vector length the caller's shape does not allow */
    FC_BINCODE_VARIANT,   /* a MerkleProof variant that is not 0..2 or not the expected one */
    FC_BINCODE_SHAPE,     /* a path with the wrong element count or sibling count */
    FC_BINCODE_INDEX,     /* a path element's index not below its arity */
    FC_BINCODE_NOT_FR,    /* a 32-byte value that is not a canonical field element */
} fc_bincode_fault;

typedef struct {
    const uint8_t *buf;
    size_t len, pos;
    int fill;               /* second pass: write into elems / hashes */
    int check_fr;           /* every domain value must be a canonical Fr (< r) */
    size_t n_elems;         /* path elements read so far (count, or the next slot) */
    size_t n_hashes;        /* siblings read so far */
    size_t n_proofs;        /* Merkle proofs read so far */
    fc_path_elem *elems;    /* fill: the arena's path elements */
    uint8_t (*hashes)[32];  /* fill: the arena's siblings */
    fc_bincode_fault fault; /* the last failure's kind */
    char *err;
    size_t errlen;
} fc_bincode;

/* A reader over len bytes (buf NULL reads as empty). */
void fc_bincode_init(fc_bincode *b, const uint8_t *buf, size_t len, char *err, size_t errlen);

/* Sets the message (printf) and the fault; returns -1. */
int fc_bincode_fail(fc_bincode *b, fc_bincode_fault fault, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Each returns 0, or -1 with "<what>: truncated (...)" and so on. */
int fc_bincode_need(fc_bincode *b, size_t n, const char *what);
int fc_bincode_u64(fc_bincode *b, uint64_t *v, const char *what);
int fc_bincode_u32(fc_bincode *b, uint32_t *v, const char *what);
/* 32 raw bytes into out (NULL: skip); with check_fr, refuses a value >= r. */
int fc_bincode_domain(fc_bincode *b, uint8_t out[32], const char *what);
/* A vector length that fits in the bytes left at min_each bytes per item. */
int fc_bincode_len(fc_bincode *b, uint64_t *n, size_t min_each, const char *what);
/* 0 when every byte was read, else -1 with "N trailing bytes after <what>". */
int fc_bincode_end(fc_bincode *b, const char *what);

/* The expected form of one path: arity 0 leaves it unchecked (any arity up
 * to 64, any element count). */
typedef struct {
    unsigned arity;
    unsigned levels;
} fc_bincode_level;

/* The expected form of a MerkleProof: variant -1 takes any; base/sub/top
 * give each path's shape (unchecked with arity 0).  `owner` names what
 * needs that variant in the message ("a 2KiB sector"). */
typedef struct {
    int variant;
    fc_bincode_level base, sub, top;
    const char *owner;
} fc_bincode_proof_shape;

/* The expected shape of a tree with `nodes` leaves and arities base-sub-top
 * (sub/top 0: none), e.g. tree R 8-8-0 or tree D 2-0-0. */
fc_bincode_proof_shape fc_bincode_tree_shape(uint64_t nodes, unsigned base, unsigned sub,
                                             unsigned top, const char *owner);

/* One path named `name`; *n_out = its element count.  Fill mode writes the
 * elements at elems[n_elems...] and their siblings at hashes[n_hashes...]. */
int fc_bincode_path(fc_bincode *b, const char *name, fc_bincode_level want, uint32_t *n_out);

/* One MerkleProof named `name` into p (fill mode; NULL in the count pass),
 * checked against want (NULL: any shape). */
int fc_bincode_merkle_proof(fc_bincode *b, fc_inclusion_proof *p, const char *name,
                            const fc_bincode_proof_shape *want);

/* Writers: each appends at pos and returns the new position; with out NULL
 * they only count. */
size_t fc_bincode_put_u64(uint8_t *out, size_t pos, uint64_t x);
size_t fc_bincode_put_u32(uint8_t *out, size_t pos, uint32_t x);
size_t fc_bincode_put_bytes(uint8_t *out, size_t pos, const uint8_t *bytes, size_t n);
size_t fc_bincode_put_path(uint8_t *out, size_t pos, const fc_path_elem *e, uint32_t n);
size_t fc_bincode_put_merkle_proof(uint8_t *out, size_t pos, const fc_inclusion_proof *p);

#endif
