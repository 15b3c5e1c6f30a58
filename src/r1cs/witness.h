/* Parallel witness generation over segments (docs/PCE.md s.5).
 *
 * A circuit cut into units with r1cs_segment (a serial prefix, then units that
 * read only the prefix and their own values) has its witness generated here
 * on T threads: the prefix on a witness view at offset 0, then every unit on
 * a view at its segment's offsets, longest first (by aux span), into disjoint
 * slices of the caller's input and aux vectors.  Each unit must end exactly
 * where the next segment starts (the last one at num_inputs / num_aux):
 * anything else is an error naming the unit, and the caller falls back to
 * classic synthesis.  The result does not depend on the thread count. */
#ifndef CUZK_R1CS_WITNESS_H
#define CUZK_R1CS_WITNESS_H

#include <stddef.h>

#include "r1cs/cs.h"

/* Synthesizes the prefix into view.  Returns 0, or non-zero with a message in
 * err (the view's own error is reported by the caller). */
typedef int (*r1cs_prefix_fn)(r1cs_cs *view, void *ctx, char *err, size_t cap);
/* Synthesizes unit seg (an index into the segment table) into view; called
 * from any thread, concurrently for different units. */
typedef int (*r1cs_unit_fn)(r1cs_cs *view, size_t seg, void *ctx, char *err, size_t cap);

/* Checks the segment table (offsets non-decreasing, within num_inputs and
 * num_aux, at least ONE before the first), runs prefix then every unit.
 * input holds num_inputs elements (ONE first), aux num_aux.  Returns 0, or
 * -1 with the first failure in err. */
int r1cs_witness_run(const r1cs_segment_mark *segs, size_t nseg, size_t num_inputs, size_t num_aux,
                     unsigned threads, fr *input, fr *aux, r1cs_prefix_fn prefix, r1cs_unit_fn unit,
                     void *ctx, char *err, size_t cap);

#endif
