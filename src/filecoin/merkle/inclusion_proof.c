/* Decoded inclusion proofs -> the shared merkle_proof form. */
#include "filecoin/merkle/inclusion_proof.h"

#include <stdlib.h>
#include <string.h>

uint64_t fc_inclusion_leaf_index(const fc_inclusion_proof *p) {
    size_t n = fc_inclusion_levels(p);
    uint64_t acc = 0;
    for (size_t i = n; i-- > 0;)
        acc = acc * (p->elems[i].n_hashes + 1) + p->elems[i].index;
    return acc;
}

int fc_inclusion_to_merkle(merkle_proof *out, const fc_inclusion_proof *in, tree_hasher h) {
    memset(out, 0, sizeof *out);
    size_t n = fc_inclusion_levels(in);
    if (n == 0 || n > POR_MAX_LEVELS || in->n_base == 0)
        return -1;
    por_shape s = {.hasher = h, .base = in->elems[0].n_hashes + 1, .base_levels = in->n_base};
    for (uint32_t l = 1; l < in->n_base; l++)
        if (in->elems[l].n_hashes + 1 != s.base)
            return -1;
    if (in->n_sub)
        s.sub = in->elems[in->n_base].n_hashes + 1;
    if (in->n_top)
        s.top = in->elems[in->n_base + in->n_sub].n_hashes + 1;
    if ((in->kind == FC_PROOF_SINGLE) != (in->n_sub == 0 && in->n_top == 0) ||
        (in->kind == FC_PROOF_TOP) != (in->n_top == 1) || por_shape_check(&s) != 0)
        return -1;
    size_t nsib = por_shape_siblings(&s);
    out->siblings = malloc(nsib * 32);
    if (!out->siblings)
        return -1;
    out->shape = s;
    memcpy(out->leaf, in->leaf, 32);
    memcpy(out->root, in->root, 32);
    size_t k = 0;
    for (size_t l = 0; l < n; l++) {
        out->index[l] = in->elems[l].index;
        memcpy(out->siblings + 32 * k, in->elems[l].hashes, 32 * (size_t)in->elems[l].n_hashes);
        k += in->elems[l].n_hashes;
    }
    return 0;
}
