/* A, B, C in compressed sparse row form, as the R1CS_RECORD mode produces them.
 *
 * Row j is constraint j, input rows included (so rows = circuit constraints +
 * num_inputs, the same rows as a partition's a/b/c).  Columns index the full
 * assignment z = (input[0..num_inputs), aux[0..num_aux)): column k < num_inputs
 * is input k, column num_inputs + i is aux i.  Within a row the terms keep the
 * LC's order (inputs, then aux, each ascending), so columns are strictly
 * increasing.  Only non-zero coefficients are stored (bellpepper keeps zero
 * terms in its LCs; they add nothing to any evaluation), so nnz equals the
 * counting mode's non-zero counts.  Row pointers are 32-bit: at most 2^32 - 1
 * terms per matrix (the 32 GiB PoRep has 309M in A). */
#ifndef CUZK_R1CS_CSR_H
#define CUZK_R1CS_CSR_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

typedef struct {
    size_t rows;
    uint32_t *row_ptr; /* rows + 1 entries; row j is [row_ptr[j], row_ptr[j+1]) */
    uint32_t *col;     /* row_ptr[rows] entries */
    fr *val;           /* row_ptr[rows] entries, Montgomery form */
} r1cs_csr;

typedef struct {
    size_t num_constraints; /* rows, input rows included */
    size_t num_inputs;      /* ONE included */
    size_t num_aux;
    r1cs_csr a, b, c;
} r1cs_matrices;

static inline size_t r1cs_csr_nnz(const r1cs_csr *m) {
    return m->row_ptr ? m->row_ptr[m->rows] : 0;
}

/* out[j] = <row j, z> for rows [row_begin, row_end), with z = (input, aux) split
 * at num_inputs.  out has row_end - row_begin entries. */
void r1cs_csr_mul(fr *out, const r1cs_csr *m, size_t row_begin, size_t row_end, const fr *input,
                  size_t num_inputs, const fr *aux);

size_t r1cs_matrices_bytes(const r1cs_matrices *m);
void r1cs_matrices_free(r1cs_matrices *m);

#endif
