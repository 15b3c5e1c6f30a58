/* The blank Filecoin circuits' counts, one row per circuit the engine proves
 * (its circuit ids: porep-, wpost-, winning-, snap- and the sector's short
 * name).  Counting a 32 GiB circuit takes tens of seconds of one core; the
 * engine needs these numbers before a job is queued (its memory reservation)
 * and to check a loaded pce, so a cold engine would pay that count before its
 * first proof.  The rows are made by tools/gen_circuit_counts.sh and held
 * against the circuit code by test_circuit_counts (the 32 GiB rows also
 * against curio's measured R1CS, facts 3.7). */
#ifndef CUZK_FILECOIN_CIRCUIT_COUNTS_H
#define CUZK_FILECOIN_CIRCUIT_COUNTS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *id;
    uint64_t rows;   /* constraints including the input constraints */
    uint64_t inputs; /* public inputs + ONE */
    uint64_t aux;
    uint64_t nnz[3]; /* non-zeros of A, B, C */
} fc_circuit_counts;

/* The row of circuit_id, or NULL (then count the circuit). */
const fc_circuit_counts *fc_circuit_counts_find(const char *circuit_id);

/* Row i (for the test), NULL past the end. */
const fc_circuit_counts *fc_circuit_counts_at(size_t i);

#endif
