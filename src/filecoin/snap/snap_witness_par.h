/* One SnapDeals partition's witness on T threads (docs/PCE.md s.5): the
 * prefix (snap_prefix_synth) serially, then every challenge's sub-circuit on
 * its own witness view at the offsets the recording (or a counting run of
 * the blank circuit) gives, exactly as classic R1CS_PROVE synthesis
 * allocates it. */
#ifndef CUZK_FILECOIN_SNAP_WITNESS_PAR_H
#define CUZK_FILECOIN_SNAP_WITNESS_PAR_H

#include <stddef.h>

#include "filecoin/snap/snap_partition.h"
#include "r1cs/cs.h"
#include "r1cs/pce.h"

/* segs/nseg: the shape's segment marks (one per challenge, in order);
 * num_inputs (ONE included), num_aux: its counts; input and aux the caller's
 * arrays of those sizes.  Returns 0, or -1 with err naming the problem (a
 * segment table of another shape, a unit that does not end at the next
 * segment, a bad witness): the caller then uses classic synthesis. */
int snap_witness_generate(const snap_shape *s, const snap_witness *w, const r1cs_segment_mark *segs,
                          size_t nseg, size_t num_inputs, size_t num_aux, unsigned threads,
                          fr *input, fr *aux, char *err, size_t cap);

/* A groth16_witness_fn over a snap_partition_job (the engine's and the
 * CLI's PCE path). */
int snap_partition_job_witness(void *job, const r1cs_pce *p, unsigned threads, fr *input, fr *aux,
                               char *err, size_t cap);

#endif
