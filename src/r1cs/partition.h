/* The synthesized partition: everything a Groth16 prover backend needs from
 * one circuit instance (DESIGN.md section 2).
 *
 * Produced by the R1CS_PROVE mode, consumed by any backend.  All values are
 * Fr in Montgomery form.
 *   a, b, c[j]   = <A_j, z>, <B_j, z>, <C_j, z> for every row j, input rows
 *                  included (a = input_i, b = c = 0 for the last num_inputs rows)
 *   input[i]     = public inputs, input[0] = 1
 *   aux[i]       = private witness
 *   density bitmaps, bit i of word i/64 = variable i occurs with a non-zero
 *   coefficient in some A (aux only: inputs are always dense in A because of
 *   the input rows) or B row, as bellperson's DensityTrackers.
 * The struct owns every array (one allocation each); bits past the variable
 * count are zero.
 *
 * The deferred form (issue #30), made from a recorded shape for a backend
 * that evaluates a/b/c itself (the GPU): a, b, c are NULL and abc_pce (not
 * owned; it outlives the partition) holds the matrices they come from; aux
 * is NULL and aux_pack (owned) holds the witness compactly.  Any backend
 * takes either form (groth16_prove_with expands a deferred partition for a
 * backend that needs the arrays). */
#ifndef CUZK_R1CS_PARTITION_H
#define CUZK_R1CS_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

struct r1cs_pce;
struct r1cs_witness_pack;

typedef struct {
    size_t num_constraints; /* rows, input rows included */
    size_t num_inputs;      /* ONE included */
    size_t num_aux;
    fr *a, *b, *c;
    fr *input, *aux;
    uint64_t *a_aux_density;            /* ceil(num_aux / 64) words */
    uint64_t *b_input_density;          /* ceil(num_inputs / 64) words */
    uint64_t *b_aux_density;            /* ceil(num_aux / 64) words */
    const struct r1cs_pce *abc_pce;     /* deferred a, b, c: their matrices */
    struct r1cs_witness_pack *aux_pack; /* deferred aux: the compact witness */
} r1cs_partition;

/* Whether a, b, c (and aux) are left to the backend. */
static inline int r1cs_partition_deferred(const r1cs_partition *p) { return p->abc_pce != 0; }

static inline size_t r1cs_bitmap_words(size_t bits) { return (bits + 63) / 64; }

/* Heap bytes the partition owns. */
size_t r1cs_partition_bytes(const r1cs_partition *p);
/* The most a deferred partition of this shape holds while it is made
 * (pce_partition_deferred): the dense witness and the pack built from it,
 * every aux variable dense at worst, with the inputs and density bitmaps.
 * What it keeps afterwards is r1cs_partition_bytes. */
size_t r1cs_partition_deferred_peak(size_t num_inputs, size_t num_aux);
/* Frees every array and zeroes the struct; a zeroed struct is fine. */
void r1cs_partition_free(r1cs_partition *p);
/* Number of set bits among the first nbits. */
size_t r1cs_bitmap_popcount(const uint64_t *w, size_t nbits);

#endif
