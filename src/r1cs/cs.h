/* One synthesis API, several constraint-system modes.
 *
 * A circuit is a C function written once against this API:
 *
 *     int my_circuit(r1cs_cs *cs, void *ctx) {
 *         r1cs_var x = r1cs_alloc(cs, have ? &x_val : NULL);
 *         ...
 *         r1cs_enforce(cs, "x squared", &a, &b, &c);     // a * b = c
 *         return 0;
 *     }
 *
 * and run by r1cs_synthesize in one of these modes:
 *   R1CS_PROVE  - keeps the input/aux assignments, the evaluations a_j, b_j,
 *                 c_j of every constraint and the density bitmaps; yields an
 *                 r1cs_partition (partition.h) for a prover backend.  Needs
 *                 values.  This is bellperson 0.27's ProvingAssignment.
 *   R1CS_COUNT  - counts constraints, variables and non-zero A/B/C terms.
 *                 With values (R1CS_VALUES) it also checks every constraint
 *                 and reports the first unsatisfied one with its namespace
 *                 path ("porep/challenge 3/sha256/.../maj"); only then are
 *                 namespace names formatted at all.
 *   R1CS_RECORD - records A, B, C as CSR matrices (csr.h), for parameter
 *                 generation and a pre-compiled evaluator.  No values:
 *                 r1cs_has_values is false whatever the flags say.
 *   R1CS_WITNESS - values only (bellpepper's WitnessCS): alloc stores the value
 *                 and advances, enforce returns at once, namespaces count
 *                 depth only; no rows, no densities, no counts of terms.
 *                 Gadgets skip building LCs here (r1cs_wants_lcs).  Either
 *                 owns growable input/aux arrays (r1cs_cs_new) or is a view
 *                 into slices of caller arrays (r1cs_witness_view), for one
 *                 unit of a parallel witness (docs/PCE.md s.5).
 * Every mode except R1CS_WITNESS first allocates input 0 = ONE (a witness
 * view only when its input slice starts at 0) and, when synthesis ends, appends
 * bellperson's input constraints: for each input i (ONE included) one row
 * A = input_i, B = 0, C = 0, so rows = circuit constraints + inputs.
 *
 * Errors are sticky: alloc/enforce never fail in the caller's face; the first
 * error is kept (r1cs_error), later calls do nothing, and r1cs_synthesize /
 * r1cs_finish return it.  An unsatisfied constraint is a finding of the
 * checking mode, not an error.
 *
 * A handle is used by one thread at a time. */
#ifndef CUZK_R1CS_CS_H
#define CUZK_R1CS_CS_H

#include <stddef.h>
#include <stdint.h>

#include "r1cs/csr.h"
#include "r1cs/lc.h"
#include "r1cs/partition.h"

typedef enum { R1CS_PROVE = 0, R1CS_COUNT = 1, R1CS_RECORD = 2, R1CS_WITNESS = 3 } r1cs_mode;

/* Flags for r1cs_cs_new. */
#define R1CS_VALUES 1u /* values are present (implied by R1CS_PROVE) */

enum {
    R1CS_OK = 0,
    R1CS_ERR_NOMEM,         /* an allocation failed (also: a broken LC)          */
    R1CS_ERR_MISSING_VALUE, /* a value was needed but NULL (AssignmentMissing)    */
    R1CS_ERR_BAD_VARIABLE,  /* an LC names a variable not allocated yet           */
    R1CS_ERR_NAMESPACE,     /* pop without push, or pushes left open at the end   */
    R1CS_ERR_TOO_LARGE,     /* more than 2^31 - 1 variables or 2^32 - 1 terms     */
    R1CS_ERR_STATE,         /* call not valid in this mode / after finish         */
    R1CS_ERR_CIRCUIT,       /* the synthesize function returned non-zero          */
    R1CS_ERR_OVERFLOW,      /* a witness view allocated past the end of its slice */
};

/* Expected sizes; buffers are reserved once up front instead of growing.  Any
 * field may be 0 (unknown); an underestimate only means growth, an
 * overestimate is trimmed when the result is taken.  Passing NULL instead of
 * a hint is the "off" side of this switch. */
typedef struct {
    size_t constraints; /* circuit constraints (input rows are added to it) */
    size_t inputs;      /* including ONE */
    size_t aux;
    size_t nnz_a, nnz_b, nnz_c; /* R1CS_RECORD: expected non-zero terms */
} r1cs_hint;

typedef struct r1cs_cs r1cs_cs;

typedef int (*r1cs_synth_fn)(r1cs_cs *cs, void *ctx);

/* NULL when out of memory or mode is unknown.  Input 0 (ONE, value 1) is
 * allocated here. */
r1cs_cs *r1cs_cs_new(r1cs_mode mode, unsigned flags, const r1cs_hint *hint);
void r1cs_cs_free(r1cs_cs *cs);

/* Runs fn(cs, ctx), then r1cs_finish.  Returns the first error (R1CS_OK). */
int r1cs_synthesize(r1cs_cs *cs, r1cs_synth_fn fn, void *ctx);
/* Appends the input constraints and checks namespaces are closed; for code
 * that drives alloc/enforce itself.  Once only. */
int r1cs_finish(r1cs_cs *cs);

r1cs_mode r1cs_get_mode(const r1cs_cs *cs);
/* Whether the circuit should compute and pass values. */
int r1cs_has_values(const r1cs_cs *cs);
int r1cs_error(const r1cs_cs *cs);
/* Whether linear combinations are wanted: false only in R1CS_WITNESS, where
 * enforce drops them.  Gadgets guard code that only builds LCs with
 * R1CS_LC_ONLY(cs) { ... } (never allocation or value code: the aux order
 * of every mode must stay the same). */
int r1cs_wants_lcs(const r1cs_cs *cs);
#define R1CS_LC_ONLY(cs) if (r1cs_wants_lcs(cs))
/* A readable description of the error, "" when none. */
const char *r1cs_error_message(const r1cs_cs *cs);

/* New private / public variable.  value may be NULL only when the mode has no
 * values; it is read only when it has.  Both return a valid handle even after
 * an error, so synthesis can run to its end. */
r1cs_var r1cs_alloc(r1cs_cs *cs, const fr *value);
r1cs_var r1cs_alloc_input(r1cs_cs *cs, const fr *value);

/* The assigned value of v (modes with values); 0 if there is none. */
int r1cs_get_value(fr *out, const r1cs_cs *cs, r1cs_var v);

/* a * b = c.  The LCs stay owned by the caller.  name (may be NULL) is the
 * constraint's annotation, read only if it is reported as unsatisfied; the
 * _f form formats it printf-style, and only then. */
void r1cs_enforce(r1cs_cs *cs, const char *name, const r1cs_lc *a, const r1cs_lc *b,
                  const r1cs_lc *c);
void r1cs_enforcef(r1cs_cs *cs, const r1cs_lc *a, const r1cs_lc *b, const r1cs_lc *c,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Namespaces (bellpepper's cs.namespace(|| name)).  The name is formatted only
 * in the checking mode; elsewhere only the depth is tracked. */
void r1cs_push(r1cs_cs *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void r1cs_pop(r1cs_cs *cs);
/* The current namespace path ("" at the root, or when names are not kept). */
const char *r1cs_path(const r1cs_cs *cs);

/* Segments: a circuit marks the start of each independent sub-circuit (a
 * PoRep challenge's units, a PoSt sector) with r1cs_segment.  A unit reads
 * only values allocated before the first segment (the prefix) and its own,
 * so with the offsets recorded here a witness for it can be generated on its
 * own thread into its slice of the aux and input vectors (docs/PCE.md s.5).
 * Kind and index are the circuit's names for the unit.  Marks are kept in
 * R1CS_RECORD and R1CS_COUNT; the other modes ignore them. */
typedef struct {
    uint64_t row;   /* rows enforced before the unit starts */
    uint64_t aux;   /* aux variables allocated before it */
    uint32_t input; /* inputs allocated before it (ONE included) */
    uint32_t kind;  /* the circuit's unit kind */
    uint32_t index; /* the circuit's unit index */
    uint32_t reserved;
} r1cs_segment_mark;

void r1cs_segment(r1cs_cs *cs, uint32_t kind, uint32_t index);
/* The marks so far, in order (valid until the next r1cs_segment or free). */
size_t r1cs_get_segments(const r1cs_cs *cs, const r1cs_segment_mark **out);

/* A witness view (R1CS_WITNESS): allocations go to input[in_begin, in_end)
 * and aux[aux_begin, aux_end) of the caller's arrays, with the variable ids
 * they have there (so ids equal classic synthesis').  One allocation past an
 * end is R1CS_ERR_OVERFLOW.  r1cs_get_value reads any variable below the
 * cursors: the prefix's values and the view's own (values between are other
 * views', possibly not written yet: a unit must not read them).  With
 * in_begin = 0 the view allocates ONE first, as r1cs_cs_new does.  The
 * cursors are r1cs_num_inputs / r1cs_num_aux.  NULL on a bad range or out of
 * memory.  Free with r1cs_cs_free (the arrays stay the caller's). */
r1cs_cs *r1cs_witness_view(fr *input, size_t in_begin, size_t in_end, fr *aux, size_t aux_begin,
                           size_t aux_end);

/* Moves the assignments out of a finished, non-view R1CS_WITNESS cs: *input
 * (num_inputs, ONE first) and *aux (num_aux), malloc'd, the caller frees. */
int r1cs_take_witness(r1cs_cs *cs, fr **input, size_t *num_inputs, fr **aux, size_t *num_aux);

/* Current sizes: circuit constraints so far (rows after finish), variables
 * (in a witness view: the absolute cursors). */
size_t r1cs_num_constraints(const r1cs_cs *cs);
size_t r1cs_num_inputs(const r1cs_cs *cs);
size_t r1cs_num_aux(const r1cs_cs *cs);

typedef struct {
    size_t constraints;       /* enforced by the circuit (TestConstraintSystem's count) */
    size_t constraints_total; /* rows: + one input constraint per input */
    size_t inputs;            /* including ONE */
    size_t aux;
    uint64_t nnz_a, nnz_b, nnz_c; /* non-zero coefficients over all rows */
    int checked;                  /* values were present and every row was checked */
    int satisfied;                /* checked and no row failed */
    size_t first_unsatisfied;     /* row index, when !satisfied */
    const char *unsatisfied_path; /* "ns/ns/name", owned by cs; NULL if none */
    /* Density counts as bellperson's trackers (PROVE and COUNT modes; 0 in
     * RECORD): aux variables with a non-zero A term, inputs and aux variables
     * with a non-zero B term.  The input rows are not counted (they only put
     * inputs into A). */
    size_t a_aux_density, b_input_density, b_aux_density;
} r1cs_counts;

/* Any mode, after finish. */
int r1cs_get_counts(const r1cs_cs *cs, r1cs_counts *out);

/* Move the result out of a finished cs (which keeps only its counts). */
int r1cs_take_partition(r1cs_cs *cs, r1cs_partition *out); /* R1CS_PROVE */
int r1cs_take_matrices(r1cs_cs *cs, r1cs_matrices *out);   /* R1CS_RECORD */

/* Heap bytes the cs holds now and at most so far (for benchmarks and the
 * engine's memory budget). */
size_t r1cs_bytes(const r1cs_cs *cs);
size_t r1cs_peak_bytes(const r1cs_cs *cs);

#endif
