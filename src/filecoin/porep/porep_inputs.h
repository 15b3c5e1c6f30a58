/* From a decoded C1 output (c1.h) to what the PoRep circuit of one partition
 * needs (porep_circuit.h): the witness, read from partition k's vanilla
 * proofs, and the public inputs, computed NATIVELY from the C1's replica_id,
 * comm_d, comm_r and seed (rust-fil-proofs StackedCompound::
 * generate_public_inputs): the challenges of the registered proof
 * (challenges.h: interactive, synthetic or NI), the 6 DRG + 8 expander
 * parents of each from the proof's graph (graph.h, API version's order),
 * then porep_public_inputs.  Nothing is read back from the circuit.
 *
 * comm_c and comm_r_last are not C1 fields: they are the roots of the tree-C
 * column proofs and of the tree-R proofs, which must agree across the
 * partition.  porep_c1_check then holds the witness to every relation of
 * the circuit (porep_witness_check) and to the derived challenges and
 * parents, so a bad C1 is refused before any proving work with a message
 * naming the challenge and the part. */
#ifndef CUZK_FILECOIN_POREP_INPUTS_H
#define CUZK_FILECOIN_POREP_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/porep/porep_circuit.h"

/* The circuit shape of a C1 output's registered proof (one partition).
 * Returns 0, or -1 with a message when the C1's trees do not fit it. */
int porep_c1_shape(porep_shape *out, const c1_output *c, char *err, size_t cap);

/* Partition k's natively derived values: challenges (C), their DRG parents
 * (C x 6) and expander parents (C x 8), and the public inputs (3 + 18 C). */
typedef struct {
    porep_shape shape;
    uint64_t *challenge;
    uint32_t *drg, *exp;
    fr *inputs;
    size_t n_inputs;
    void *mem;
} porep_public;

/* g must be the graph of c->proof (fc_graph_init_proof).  Returns 0, or -1
 * with a message (k out of range, a commitment that is not a canonical Fr,
 * out of memory).  out is empty on failure; porep_public_free is safe. */
int porep_c1_public(porep_public *out, const c1_output *c, unsigned k, const fc_graph *g, char *err,
                    size_t cap);
void porep_public_free(porep_public *p);

/* Partition k's witness, its arrays owned by mem. */
typedef struct {
    porep_shape shape;
    porep_witness w;
    void *mem;
} porep_c1_witness;

/* Reads the witness (no checks beyond canonical field elements and the
 * comm_c / comm_r_last roots agreeing across the partition's proofs).
 * Returns 0, or -1 with a message naming the challenge and field. */
int porep_c1_witness_get(porep_c1_witness *out, const c1_output *c, unsigned k, char *err,
                         size_t cap);
void porep_c1_witness_free(porep_c1_witness *w);

/* The witness satisfies every relation of the circuit (porep_witness_check),
 * its challenges are pub's, and the columns open the challenge and pub's
 * parents.  Returns 0, or -1 with a message. */
int porep_c1_check(const porep_c1_witness *w, const porep_public *pub, char *err, size_t cap);

#endif
