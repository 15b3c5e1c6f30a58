/* One PoSt partition's witness on T threads, one unit per sector
 * (post_sector_synth), exactly as classic R1CS_PROVE synthesis allocates it. */
#ifndef CUZK_FILECOIN_POST_WITNESS_PAR_H
#define CUZK_FILECOIN_POST_WITNESS_PAR_H

#include <stddef.h>

#include "filecoin/post/post_circuit.h"
#include "r1cs/cs.h"

/* segs/nseg: the shape's segment marks (one per sector, in order);
 * num_inputs (ONE included), num_aux: its counts; input and aux the caller's
 * arrays of those sizes.  Returns 0, or -1 with err naming the problem (the
 * caller then uses classic synthesis). */
int post_witness_generate(const post_shape *s, const post_witness *w, const r1cs_segment_mark *segs,
                          size_t nseg, size_t num_inputs, size_t num_aux, unsigned threads,
                          fr *input, fr *aux, char *err, size_t cap);

#endif
