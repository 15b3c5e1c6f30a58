/* The compact witness (issue #30): an aux vector as the GPU receives it.
 *
 * Most aux variables of a Filecoin circuit are bits (SHA-256, comparisons),
 * so the vector is sent as two bitmaps and the rest:
 *   isbool[w]  bit i%64 of word i/64: aux[i] is 0 or 1
 *   isone[w]   bit set: aux[i] is 1 (only where isbool is set)
 *   rank[w]    the number of non-bit values in words 0..w-1 (words + 1
 *              entries, rank[words] = n_dense)
 *   dense[]    every other value, in variable order (Montgomery fr)
 * aux[i] = isbool ? (isone ? 1 : 0) : dense[rank[w] + popcount(~isbool[w]
 * below bit i%64)].  The classes come from the values, not from the circuit,
 * so any circuit packs; a value that is 0 or 1 is exact either way.  The
 * same form is what pce_eval's bit path reads, and what the device expands
 * (src/cuda/cuda_abc.cu). */
#ifndef CUZK_R1CS_WITNESS_PACK_H
#define CUZK_R1CS_WITNESS_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

typedef struct r1cs_witness_pack {
    size_t num_aux, words, n_dense;
    uint64_t *isbool, *isone; /* words each, one allocation */
    uint32_t *rank;           /* words + 1 */
    fr *dense;                /* n_dense */
} r1cs_witness_pack;

/* Packs aux (n values) on threads threads.  0, or -1 when out of memory
 * (*out is then empty).  n must be below 2^32. */
int witness_pack(r1cs_witness_pack *out, const fr *aux, size_t n, unsigned threads);

/* The values back into aux (w->num_aux entries), on threads threads. */
void witness_unpack(const r1cs_witness_pack *w, fr *aux, unsigned threads);

/* Bytes the pack holds (what the GPU path sends over PCIe). */
size_t witness_pack_bytes(const r1cs_witness_pack *w);

void witness_pack_free(r1cs_witness_pack *w);

#endif
