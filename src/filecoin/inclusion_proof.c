/* Native checks of Merkle inclusion proofs (the Poseidon trees R and C). */
#include "filecoin/inclusion_proof.h"

#include <string.h>

#include "gadget/poseidon.h"

uint64_t fc_inclusion_leaf_index(const fc_inclusion_proof *p) {
    size_t n = fc_inclusion_levels(p);
    uint64_t acc = 0;
    for (size_t i = n; i-- > 0;)
        acc = acc * (p->elems[i].n_hashes + 1) + p->elems[i].index;
    return acc;
}

int fc_inclusion_root_poseidon(uint8_t root_out[32], const fc_inclusion_proof *p) {
    fr cur, in[POSEIDON_MAX_ARITY];
    if (!fr_from_bytes_le(&cur, p->leaf))
        return -1;
    for (size_t l = 0; l < fc_inclusion_levels(p); l++) {
        const fc_path_elem *e = &p->elems[l];
        unsigned arity = e->n_hashes + 1;
        if (arity > POSEIDON_MAX_ARITY || !poseidon_arity_supported(arity) || e->index >= arity)
            return -1;
        /* The running node goes in at its index; the siblings fill the rest in order. */
        for (unsigned j = 0, h = 0; j < arity; j++) {
            if (j == e->index)
                in[j] = cur;
            else if (!fr_from_bytes_le(&in[j], e->hashes[h++]))
                return -1;
        }
        if (poseidon_hash(&cur, in, arity) != 0)
            return -1;
    }
    fr_to_bytes_le(root_out, &cur);
    return 0;
}

int fc_inclusion_verify_poseidon(const fc_inclusion_proof *p, const uint8_t *expected_root) {
    uint8_t root[32];
    if (fc_inclusion_root_poseidon(root, p) != 0)
        return 0;
    if (memcmp(root, p->root, 32) != 0)
        return 0;
    return expected_root == NULL || memcmp(root, expected_root, 32) == 0;
}
