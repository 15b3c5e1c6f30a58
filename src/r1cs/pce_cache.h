/* Obtaining a circuit's PCE (docs/PCE.md s.6): the one way the CLI, the
 * engine and the benches get the recorded matrices of a shape.
 *
 * <dir>/<stem>.pce is opened and fully validated; when it is missing it is
 * recorded from the blank circuit (R1CS_RECORD) and written atomically under
 * an flock on <stem>.pce.lock, so two processes never record one shape at
 * once (the file is looked for again once the lock is held).  A file that is
 * refused (corrupt, another version, another shape) is renamed to
 * <stem>.pce.bad and rebuilt; when the folder cannot be written the
 * recording is kept in memory only.  What happened is said in the info. */
#ifndef CUZK_R1CS_PCE_CACHE_H
#define CUZK_R1CS_PCE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "r1cs/cs.h"
#include "r1cs/pce.h"

/* The blank circuit's counts (R1CS_COUNT), when the caller has them: a
 * loaded file must match.  0 fields are not checked. */
typedef struct {
    uint64_t rows, num_inputs, num_aux;
    uint64_t nnz[3];
} pce_shape_counts;

typedef struct {
    int loaded;     /* an existing file was used */
    int built;      /* recorded from the blank circuit */
    int in_memory;  /* recorded but not written (the folder refused it) */
    int refused;    /* a file was refused and renamed to .bad */
    double ms;      /* open or record + write */
    char note[512]; /* why a file was refused, or why it was not written */
} pce_obtain_info;

/* Fills *out (pce_free it) for circuit_id, whose parameters are stem.params
 * in dir, recording blank(cs, blank_arg) when needed.  counts may be NULL.
 * Returns 0, or -1 with a message (recording failed, out of memory). */
int pce_obtain(const char *dir, const char *circuit_id, const char *stem, r1cs_synth_fn blank,
               void *blank_arg, const pce_shape_counts *counts, unsigned threads, r1cs_pce *out,
               pce_obtain_info *info, char *err, size_t cap);

/* Records blank(cs, arg) into an in-memory pce.  0, or -1 with a message. */
int pce_record(r1cs_synth_fn blank, void *arg, const char *circuit_id, const char *stem,
               r1cs_pce *out, char *err, size_t cap);

#endif
