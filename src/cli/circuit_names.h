/* The CLI's circuit names (porep-2k ... porep-64g, window-*, winning-*,
 * snap-*: each kind's circuit_name and a sector size, filecoin/kinds.h): one
 * parser for `cuzk circuit info`, `cuzk bench synth` and `cuzk pce`. */
#ifndef CUZK_CLI_CIRCUIT_NAMES_H
#define CUZK_CLI_CIRCUIT_NAMES_H

#include "filecoin/kinds.h"
#include "r1cs/cs.h"

/* The list for usage lines ("porep-2k|porep-8m|...", every kind's
 * circuit_name at every size). */
const char *circuit_names_list(void);

typedef struct {
    fc_circuit fc;          /* the kind and its shape at the size */
    const char *proof_name; /* the registered proof it stands for */
    char stem[160];         /* the published parameter files' stem */
} circuit_name;

/* Parses NAME; 0, or -1 with a message on stderr. */
int circuit_name_parse(circuit_name *out, const char *name);
/* Runs the circuit on cs; witness is the kind's witness type (as
 * circuit_witness_of gives it) or NULL (blank synthesis). */
int circuit_name_synthesize(r1cs_cs *cs, const circuit_name *c, const void *witness);
/* Prints the circuit's description and parameter stem lines. */
void circuit_name_describe(const circuit_name *c);
/* The kind's parallel witness generator (r1cs/witness.h) for witness
 * through segs; 0, or -1 with err (also when the kind has none). */
int circuit_name_witness_generate(const circuit_name *c, const void *witness,
                                  const r1cs_segment_mark *segs, size_t nseg, size_t num_inputs,
                                  size_t num_aux, unsigned threads, fr *input, fr *aux, char *err,
                                  size_t cap);

/* A synthetic witness (random values and paths, not satisfying): enough for
 * timing and for comparing synthesis paths.  Everything in one block. */
typedef fc_kind_witness circuit_witness;

/* 0, or -1 when out of memory.  The witness for circuit_name_synthesize is
 * circuit_witness_of(w, c). */
int circuit_name_witness(circuit_witness *w, const circuit_name *c, uint64_t seed);
void circuit_witness_free(circuit_witness *w);
static inline const void *circuit_witness_of(const circuit_witness *w, const circuit_name *c) {
    (void)c;
    return w->w;
}

#endif
