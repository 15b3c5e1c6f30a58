/* One PoRep partition's witness (input and aux vectors) on T threads, exactly
 * as classic R1CS_PROVE synthesis allocates it (docs/PCE.md s.5): the prefix
 * serially, then every unit of porep_units.h on its own witness view at the
 * offsets the recording (or a counting run of the blank circuit) gives. */
#ifndef CUZK_FILECOIN_POREP_WITNESS_PAR_H
#define CUZK_FILECOIN_POREP_WITNESS_PAR_H

#include <stddef.h>

#include "filecoin/porep/porep_circuit.h"
#include "r1cs/cs.h"

/* segs/nseg: the shape's segment marks (challenges x porep_units_per_challenge
 * of them, in order); num_inputs (ONE included) and num_aux: the shape's
 * counts.  input and aux are the caller's arrays of those sizes.  The
 * labeling units' results are checked after the join against the c_x rows
 * the tail units took them from.  Returns 0, or -1 with err naming the
 * problem (a segment table of another shape, a unit that does not end at
 * the next segment, a label that differs from its c_x row, a bad witness):
 * the caller then uses classic synthesis. */
int porep_witness_generate(const porep_shape *s, const porep_witness *w,
                           const r1cs_segment_mark *segs, size_t nseg, size_t num_inputs,
                           size_t num_aux, unsigned threads, fr *input, fr *aux, char *err,
                           size_t cap);

/* For synthetic witnesses (tests, benchmarks): sets the c_x rows of rows
 * (the porep_witness layout, C x 15 x L) to the labels create_label computes
 * from the parents' rows, replica_id and the challenges, as a real witness
 * has them, so the post-join label check holds. */
void porep_witness_fix_labels(const porep_shape *s, fr *rows, const fr *replica_id,
                              const uint64_t *challenge);

#endif
