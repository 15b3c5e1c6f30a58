/* The StackedDrg PoRep partition circuit (C2): rust-fil-proofs
 * storage-proofs-porep src/stacked/circuit/proof.rs (StackedCircuit) and
 * params.rs (Proof::synthesize); filecoin-facts.md 3.1, 3.2.
 *
 * Synthesis order:
 *   replica_id alloc + inputize + to_bits_le (-> 256 message bits),
 *   comm_d alloc + inputize, comm_r alloc + inputize, comm_r_last, comm_c,
 *   comm_r == Poseidon2(comm_c, comm_r_last);
 *   per challenge i, namespace "challenge_i":
 *     data_leaf, its PoR in tree D (binary SHA-256, root comm_d)  -> input
 *     6 DRG parent columns: L rows, column hash, PoR in tree C      -> 6 inputs
 *     8 expander parent columns, the same                          -> 8 inputs
 *     the challenge as UInt64, packed                              -> input
 *     per layer 1..L: parent rows to bits, 37 parents, the label
 *     encoded = label_L + data_leaf, its PoR in tree R             -> input
 *     the column hash of the L labels, its PoR in tree C           -> input
 * Public inputs: 3 + 18 per challenge.
 *
 * The witness is what one partition's vanilla proofs carry (facts 2.3), in
 * flat arrays.  Column k of challenge c is k = 0 for c_x, 1..6 the DRG
 * parents, 7..14 the expander parents (the C1 file's replica_column_proofs
 * order); rows[l] is the label of layer l + 1 at that node. */
#ifndef CUZK_FILECOIN_POREP_CIRCUIT_H
#define CUZK_FILECOIN_POREP_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "filecoin/proof_types.h"
#include "gadget/num.h"
#include "gadget/por.h"
#include "gadget/uint64.h"
#include "r1cs/cs.h"

#define POREP_DRG_PARENTS 6 /* BASE_DEGREE */
#define POREP_EXP_PARENTS 8 /* EXP_DEGREE */
#define POREP_COLUMNS (1 + POREP_DRG_PARENTS + POREP_EXP_PARENTS)
#define POREP_INPUTS_PER_CHALLENGE (1 + POREP_DRG_PARENTS + POREP_EXP_PARENTS + 3)
#define POREP_MAX_LAYERS 11

/* The circuit's shape: production sizes (porep_shape_for_sector) or
 * upstream's test shapes (nodes = 8 x base tree count, L = 2, 1 challenge). */
typedef struct {
    uint64_t nodes;                            /* power of two, >= 2 */
    unsigned layers;                           /* L: 2 or 11 (column hash arity) */
    unsigned challenges;                       /* per partition */
    unsigned arity_base, arity_sub, arity_top; /* trees R and C */
} porep_shape;

/* The production shape of a sector size (challenges per partition from a
 * registered proof of that size: 2 or 18). */
void porep_shape_for_sector(porep_shape *out, const fc_sector_shape *s, unsigned challenges);

/* 0 if the shape is usable: nodes a power of two with trees R/C of the given
 * arities filling it exactly, L in {2, 11}, 1 <= challenges <= 1024.  -1
 * otherwise. */
int porep_shape_check(const porep_shape *s);
/* Tree shapes: R and C (Poseidon) and D (binary SHA-256, log2(nodes) levels).
 * Only for a checked shape. */
void porep_shape_tree_rc(const porep_shape *s, por_shape *out);
void porep_shape_tree_d(const porep_shape *s, por_shape *out);
/* 3 + 18 x challenges. */
size_t porep_num_public_inputs(const porep_shape *s);

/* One partition's witness.  Sizes with C = challenges, L = layers,
 * lr = por_shape_levels(tree R/C), sr = por_shape_siblings(tree R/C),
 * d = log2(nodes):
 *   challenge[C]               challenged node (the labeling proofs' node)
 *   data_leaf[C]               tree D leaf (comm_d proof's leaf)
 *   d_index[C*d], d_sib[C*d]   tree D path (positions 0/1, siblings)
 *   rows[C*15*L]               columns' rows, [(c*15 + k)*L + l]
 *   c_index[C*15*lr]           columns' tree C paths, [(c*15 + k)*lr + level]
 *   c_sib[C*15*sr]             [(c*15 + k)*sr + j]
 *   r_index[C*lr], r_sib[C*sr] tree R path of the encoded node
 * From a C1 file (facts 2.3), partition p's vanilla proofs P[0..C-1]:
 *   replica_id, comm_d, comm_r   the C1 output's fields
 *   comm_r_last, comm_c          P[0].comm_r_last_proof.root and
 *                                P[0].replica_column_proofs.c_x.inclusion_proof.root
 *                                (upstream requires every P[c] to agree)
 *   challenge[c]                 P[c].labeling_proofs[0].node
 *   data_leaf[c], d_*            P[c].comm_d_proofs: leaf, path (index, hashes[0])
 *   rows, c_* of column k        P[c].replica_column_proofs: c_x, drg_parents[0..5],
 *                                exp_parents[0..7]: column.rows, inclusion_proof path
 *   r_*                          P[c].comm_r_last_proof path
 * Paths are base elements, then the sub element, then the top element.
 * The c_x rows (k = 0) are not read by the circuit (it recomputes the labels)
 * but belong to the vanilla proof; porep_witness_check compares them with
 * the labels computed from the parents' rows. */
typedef struct {
    fr replica_id, comm_d, comm_r, comm_c, comm_r_last;
    const uint64_t *challenge;
    const fr *data_leaf;
    const uint32_t *d_index;
    const fr *d_sib;
    const fr *rows;
    const uint32_t *c_index;
    const fr *c_sib;
    const uint32_t *r_index;
    const fr *r_sib;
} porep_witness;

/* Element counts of each array for shape s. */
typedef struct {
    size_t challenge, data_leaf, d_index, d_sib, rows, c_index, c_sib, r_index, r_sib;
} porep_witness_sizes;
void porep_witness_sizes_get(const porep_shape *s, porep_witness_sizes *out);

/* Synthesizes one partition into cs.  w = NULL is the blank circuit
 * (parameter generation, counting): every value unknown, so the cs must not
 * want values.  Returns 0, or -1 for a bad shape (nothing synthesized);
 * everything else is the cs's sticky error. */
int porep_circuit_synthesize(r1cs_cs *cs, const porep_shape *s, const porep_witness *w);

/* Natively, every relation the circuit enforces (porep_witness.c): comm_r =
 * Poseidon2(comm_c, comm_r_last); per challenge the tree D path of the data
 * leaf (opening the challenge), the 15 column hashes' tree C paths (c_x
 * opening the challenge), the L labels (create_label over the parents' rows)
 * equal to c_x's rows, and label_L + data leaf's tree R path (opening the
 * challenge).  column_index (C x 15, may be NULL) receives the node every
 * column path opens: the parents, for comparing with the graph.  Returns 0,
 * or -1 with err naming the challenge and the part. */
int porep_witness_check(const porep_shape *s, const porep_witness *w, uint64_t *column_index,
                        char *err, size_t errlen);

/* StackedCompound::generate_public_inputs for one partition, natively:
 *   replica_id, comm_d, comm_r, then per challenge c: challenge[c] (the tree
 *   D leaf index), drg[c*6 + 0..5], exp[c*8 + 0..7], challenge[c] (the
 *   packed UInt64), challenge[c] (tree R), challenge[c] (tree C).
 * out holds porep_num_public_inputs(s) elements (ONE excluded).  Returns 0,
 * or -1 if an index is not below nodes (error text in err when non-NULL). */
int porep_public_inputs(fr *out, const porep_shape *s, const fr *replica_id, const fr *comm_d,
                        const fr *comm_r, const uint64_t *challenge, const uint32_t *drg,
                        const uint32_t *exp, char *err, size_t errlen);

/* ---- units (docs/PCE.md s.5) ------------------------------------------------
 * The circuit cut into units, shared by the classic synthesis
 * (porep_circuit_synthesize runs them in order) and the parallel witness
 * driver (porep_witness_par.h runs them on witness views).
 * The prefix allocates replica_id, its bits, comm_d, comm_r, comm_r_last,
 * comm_c and checks comm_r.  Then challenge c has K = 17 + L units, unit u
 * marked r1cs_segment(kind, c * K + u):
 *   u = 0          tree D: data_leaf and its PoR                 POREP_SEG_TREE_D
 *   u = 1..14      parent column u - 1 (6 DRG, 8 expander)       POREP_SEG_COLUMN
 *   u = 15         the challenge UInt64 and its packed input    POREP_SEG_CHALLENGE
 *   u = 16..15+L   labeling layer u - 15                         POREP_SEG_LABEL
 *   u = 16+L       encode, tree R, c_x column hash, tree C       POREP_SEG_TAIL
 * A unit reads the prefix (porep_ctx) and the values other units of its
 * challenge hand on in porep_chal: the tree D unit writes data_leaf, the
 * column units cols, the challenge unit ch, the labeling units labels. */
typedef enum {
    POREP_SEG_TREE_D = 1,
    POREP_SEG_COLUMN = 2,
    POREP_SEG_CHALLENGE = 3,
    POREP_SEG_LABEL = 4,
    POREP_SEG_TAIL = 5,
} porep_unit_kind;

enum {
    POREP_UNIT_TREE_D = 0,
    POREP_UNIT_CHALLENGE = 1 + POREP_DRG_PARENTS + POREP_EXP_PARENTS, /* 15 */
    POREP_UNIT_LABEL0 = POREP_UNIT_CHALLENGE + 1,                     /* 16: layer 1 */
};

/* What the prefix hands to every unit. */
typedef struct {
    const porep_shape *s;
    por_shape rc, d;
    gnum comm_d, comm_c, comm_r_last;
    gbool id_bits[256];
} porep_ctx;

/* What a challenge's units hand to each other. */
typedef struct {
    gnum data_leaf;
    gnum cols[POREP_DRG_PARENTS + POREP_EXP_PARENTS][POREP_MAX_LAYERS];
    gu64 ch;
    gnum labels[POREP_MAX_LAYERS];
} porep_chal;

unsigned porep_units_per_challenge(const porep_shape *s);
porep_unit_kind porep_unit_kind_of(const porep_shape *s, unsigned u);

/* The prefix; fills x.  -1 for a bad shape or an incomplete witness. */
int porep_prefix_synth(r1cs_cs *cs, porep_ctx *x, const porep_shape *s, const porep_witness *w);
/* Unit u of challenge c (its segment mark and namespace included). */
int porep_unit_synth(r1cs_cs *cs, const porep_ctx *x, const porep_witness *w, size_t c, unsigned u,
                     porep_chal *st);

#endif
