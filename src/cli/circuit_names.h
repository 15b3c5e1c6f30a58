/* The CLI's circuit names (porep-2k ... porep-64g, winning-/window-*): one
 * parser for `cuzk circuit info`, `cuzk bench synth` and `cuzk pce`. */
#ifndef CUZK_CLI_CIRCUIT_NAMES_H
#define CUZK_CLI_CIRCUIT_NAMES_H

#include "filecoin/porep/porep_circuit.h"
#include "filecoin/post/post_circuit.h"
#include "filecoin/snap/snap_circuit.h"
#include "r1cs/cs.h"

/* The list for usage lines. */
extern const char *const CIRCUIT_NAMES;

typedef struct {
    int porep; /* 1: PoRep partition; 0: PoSt (or SnapDeals when snap) */
    int snap;  /* 1: SnapDeals update partition */
    porep_shape ps;
    snap_shape ss;
    post_shape qs;
    const char *proof_name; /* the registered proof it stands for */
    char stem[160];         /* the published parameter files' stem */
} circuit_name;

/* Parses NAME; 0, or -1 with a message on stderr. */
int circuit_name_parse(circuit_name *out, const char *name);
/* Runs the circuit on cs; witness is a porep_witness / post_witness or NULL
 * (blank synthesis). */
int circuit_name_synthesize(r1cs_cs *cs, const circuit_name *c, const void *witness);
/* Prints the circuit's description and parameter stem lines. */
void circuit_name_describe(const circuit_name *c);

/* A synthetic witness (random values and paths, not satisfying): enough for
 * timing and for comparing synthesis paths.  Everything in one block. */
typedef struct {
    porep_witness pw;
    post_witness qw;
    snap_witness sw;
    void *mem;
} circuit_witness;

/* 0, or -1 when out of memory.  The witness for circuit_name_synthesize is
 * circuit_witness_of(w, c). */
int circuit_name_witness(circuit_witness *w, const circuit_name *c, uint64_t seed);
void circuit_witness_free(circuit_witness *w);
static inline const void *circuit_witness_of(const circuit_witness *w, const circuit_name *c) {
    return c->snap ? (const void *)&w->sw : c->porep ? (const void *)&w->pw : (const void *)&w->qw;
}

#endif
