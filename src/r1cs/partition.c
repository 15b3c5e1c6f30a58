/* The synthesized partition's bookkeeping: its size and release. */
#include "r1cs/partition.h"

#include "r1cs/witness_pack.h"

#include <stdlib.h>
#include <string.h>

size_t r1cs_partition_bytes(const r1cs_partition *p) {
    size_t words = 2 * r1cs_bitmap_words(p->num_aux) + r1cs_bitmap_words(p->num_inputs);
    size_t bytes = p->num_inputs * sizeof(fr) + words * sizeof(uint64_t);
    if (!p->abc_pce)
        bytes += 3 * p->num_constraints * sizeof(fr);
    if (p->aux_pack)
        bytes += witness_pack_bytes(p->aux_pack) + sizeof *p->aux_pack;
    else
        bytes += p->num_aux * sizeof(fr);
    return bytes;
}

size_t r1cs_partition_deferred_peak(size_t num_inputs, size_t num_aux) {
    size_t aw = r1cs_bitmap_words(num_aux);
    size_t dens = (2 * aw + r1cs_bitmap_words(num_inputs)) * sizeof(uint64_t);
    size_t pack = (2 * aw + 1) * sizeof(uint64_t) + (aw + 1) * sizeof(uint32_t) +
                  num_aux * sizeof(fr) + sizeof(r1cs_witness_pack);
    return num_inputs * sizeof(fr) + num_aux * sizeof(fr) + pack + dens;
}

void r1cs_partition_free(r1cs_partition *p) {
    free(p->a);
    free(p->b);
    free(p->c);
    free(p->input);
    free(p->aux);
    free(p->a_aux_density);
    free(p->b_input_density);
    free(p->b_aux_density);
    if (p->aux_pack) {
        witness_pack_free(p->aux_pack);
        free(p->aux_pack);
    }
    memset(p, 0, sizeof *p);
}

size_t r1cs_bitmap_popcount(const uint64_t *w, size_t nbits) {
    size_t n = 0, full = nbits / 64;
    for (size_t i = 0; i < full; i++)
        n += (size_t)__builtin_popcountll(w[i]);
    if (nbits % 64)
        n += (size_t)__builtin_popcountll(w[full] & (((uint64_t)1 << (nbits % 64)) - 1));
    return n;
}
