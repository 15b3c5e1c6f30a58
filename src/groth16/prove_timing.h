/* Per-phase timing of one proof, filled by the prover and its backends
 * (prover.c implements the two helpers). */
#ifndef CUZK_GROTH16_PROVE_TIMING_H
#define CUZK_GROTH16_PROVE_TIMING_H

#include <stddef.h>

#include "groth16/h_poly.h"

/* Per-phase timing of one proof (ms), for CUZK_TIMING and the API. */
typedef struct {
    h_poly_timing h_steps;
    double h_ms, scalars_ms, msm_l_ms, msm_a_ms, msm_b1_ms, msm_b2_ms, msm_h_ms, assemble_ms;
    double total_ms;
    /* device time of each stage (CUDA events, without copies) where the
     * backend is a GPU; 0 on the CPU backend */
    double dev_h_ms, dev_l_ms, dev_a_ms, dev_b1_ms, dev_b2_ms, dev_hm_ms;
    /* the GPU's MSMs in pieces: how many, over all (one per MSM when each
     * working set fitted the device's free memory) */
    double dev_msm_pieces;
    /* a deferred partition (partition.h): a, b, c made at prove time (wall
     * ms, on the host or the device), the device's part of it (expanding
     * the witness + SpMV, CUDA events), and the witness bytes sent */
    double abc_ms, dev_abc_ms;
    double witness_bytes;
} groth16_prove_timing;

/* a += b, stage by stage (sums over partitions). */
void groth16_prove_timing_add(groth16_prove_timing *a, const groth16_prove_timing *b);

/* Prints one proof's timing on stderr (what CUZK_TIMING=1 shows). */
void groth16_prove_timing_print(const groth16_prove_timing *t, size_t index);

#endif
