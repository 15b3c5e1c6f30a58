/* CSR matrices: evaluation against an assignment, size and release. */
#include "r1cs/csr.h"

#include <stdlib.h>
#include <string.h>

void r1cs_csr_mul(fr *out, const r1cs_csr *m, size_t row_begin, size_t row_end, const fr *input,
                  size_t num_inputs, const fr *aux) {
    for (size_t j = row_begin; j < row_end; j++) {
        fr acc, tmp;
        fr_set_zero(&acc);
        for (uint32_t k = m->row_ptr[j]; k < m->row_ptr[j + 1]; k++) {
            uint32_t col = m->col[k];
            const fr *x = col < num_inputs ? &input[col] : &aux[col - num_inputs];
            fr_mul(&tmp, x, &m->val[k]);
            fr_add(&acc, &acc, &tmp);
        }
        out[j - row_begin] = acc;
    }
}

static size_t csr_bytes(const r1cs_csr *m) {
    if (!m->row_ptr)
        return 0;
    return (m->rows + 1) * sizeof(uint32_t) + r1cs_csr_nnz(m) * (sizeof(uint32_t) + sizeof(fr));
}

size_t r1cs_matrices_bytes(const r1cs_matrices *m) {
    return csr_bytes(&m->a) + csr_bytes(&m->b) + csr_bytes(&m->c);
}

static void csr_free(r1cs_csr *m) {
    free(m->row_ptr);
    free(m->col);
    free(m->val);
}

void r1cs_matrices_free(r1cs_matrices *m) {
    csr_free(&m->a);
    csr_free(&m->b);
    csr_free(&m->c);
    memset(m, 0, sizeof *m);
}
