/* The proof kinds: one row per circuit family (PoRep, WindowPoSt,
 * WinningPoSt, SnapDeals), everything the layers above need to know about a
 * kind without naming it.
 *
 * A row says what the kind is called (circuit ids "porep-32g", `cuzk
 * circuit` names, the CLI verb, the wire's ProofKind and its names), which
 * circuit a sector size gives (shape, registered proof, parameter stem and
 * identifier), how that circuit synthesizes and how its witness is made, and
 * how a request of the kind is prepared: decoded and checked, its public
 * inputs derived, its partitions built for synthesis.  The engine adapts
 * every row to its provider interface (engine/provider_kind.c); the CLI
 * parses a kind's own arguments and hands the rest to one shared flow.
 *
 * Each row lives in its kind's folder (filecoin/<kind>/<kind>_kind.c);
 * kinds.c lists them.  A new kind is its folder plus one line there
 * (docs/ARCHITECTURE.md, "Where a new proof kind plugs in"). */
#ifndef CUZK_FILECOIN_KINDS_H
#define CUZK_FILECOIN_KINDS_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "filecoin/proof_types.h"
#include "gadget/por.h"
#include "r1cs/cs.h"
#include "r1cs/pce.h"

typedef struct fc_kind fc_kind;

/* Room for any kind's circuit shape and synthetic witness (each row's file
 * asserts that its types fit). */
#define FC_KIND_SHAPE_BYTES 512
#define FC_KIND_WITNESS_BYTES 512

/* One circuit: a kind at one sector size. */
typedef struct {
    const fc_kind *kind;
    unsigned size;          /* sector size index, fc_shape_at */
    const char *proof_name; /* the registered proof it stands for */
    char id[32];            /* circuit id: "<id_prefix>-<short name>" */
    _Alignas(16) unsigned char shape[FC_KIND_SHAPE_BYTES]; /* the kind's shape type */
} fc_circuit;

/* A synthetic witness of a circuit (random values, not satisfying): enough
 * for timing and for comparing synthesis paths. */
typedef struct {
    _Alignas(16) unsigned char w[FC_KIND_WITNESS_BYTES]; /* the kind's witness type */
    void *mem;                                           /* one block behind it */
} fc_kind_witness;

/* A partition's witness through a recorded circuit p (groth16_witness_fn's
 * shape): input and aux filled on threads threads; 0, or -1 with err. */
typedef int (*fc_witness_fn)(void *arg, const r1cs_pce *p, unsigned threads, fr *input, fr *aux,
                             char *err, size_t cap);

/* What a request carries: the wire's SubmitProofRequest fields a kind may
 * read (a CLI fills the same from its arguments). */
typedef struct {
    uint64_t registered_proof;
    uint64_t sector_size;   /* 0: the registered proof's */
    const uint8_t *vanilla; /* one blob: PoRep's C1 output */
    size_t vanilla_len;
    const uint8_t *const *vanilla_proofs; /* PoSt: one per sector; Snap: one per partition */
    const size_t *vanilla_proofs_len;
    size_t n_vanilla_proofs;
    const uint8_t *randomness; /* 32 bytes or NULL */
    uint64_t partition_index;
    uint64_t miner_id, sector_number;
    const uint8_t *comm_r_old, *comm_r_new, *comm_d_new; /* 32 bytes each or NULL */
} fc_kind_request;

/* How preparing a request failed: the engine maps these to its statuses. */
typedef enum {
    FC_KIND_OK = 0,
    FC_KIND_INVALID = -1,  /* the request is refused */
    FC_KIND_NOMEM = -2,    /* out of memory: the same request may succeed later */
    FC_KIND_INTERNAL = -3, /* our fault */
} fc_kind_status;

/* A prepared request: every partition's witness built and checked. */
typedef struct {
    void *state; /* the kind's, freed by release */
    size_t n_partitions;
    unsigned size;     /* sector size index of its circuit */
    const void *shape; /* its circuit's shape (lives as long as state) */
} fc_kind_plan;

/* One prepared partition, ready for synthesis: synth(cs, synth_arg) in
 * proving mode inputizes exactly inputs[0..n_inputs); witness(witness_arg,
 * ...) is the same through a recorded circuit.  Pointers into the plan's
 * state, read-only: partitions synthesize in parallel. */
typedef struct {
    r1cs_synth_fn synth;
    void *synth_arg;
    fc_witness_fn witness;
    void *witness_arg;
    const fr *inputs;
    size_t n_inputs;
} fc_kind_part;

struct fc_kind {
    /* ---- names ---- */
    const char *id_prefix;    /* circuit ids, counts rows: "porep" -> "porep-32g" */
    const char *circuit_name; /* `cuzk circuit|pce|setup` names: "window" -> "window-2k" */
    const char *cli_verb;     /* `cuzk prove|verify VERB`, `cuzk VERB public-inputs` */
    int wire_kind;            /* cuzk.v1.ProofKind (cuzk_proof_kind) */
    const char *wire_name;    /* the kind in GetStatus, /status, logs: "porep-c2" */
    const char *wire_label;   /* the kind in /metrics labels: "porep_c2" */
    int wire_priority;        /* default cuzk.v1.Priority: 2 NORMAL, 3 HIGH, 4 CRITICAL */
    const char *engine_name;  /* its engine provider, in messages: "porep-c2" */
    const char *part_noun;    /* a partition in messages: "partition", "Snap partition" */
    int variant;              /* the kind's own use (PoSt: 1 for the Winning row) */

    /* ---- circuits ---- */
    /* The circuit of sector size index i (0..FC_SECTOR_SIZES-1) into *out
     * (out->kind, size, proof_name, id, shape); 0, or -1. */
    int (*circuit_at)(const fc_kind *k, fc_circuit *out, unsigned i);
    /* Parameter file stem "v28-..." and identifier of c (proof_types.h);
     * the length written, 0 when cap is too small. */
    size_t (*param_stem)(char *out, size_t cap, const fc_circuit *c);
    size_t (*param_identifier)(char *out, size_t cap, const fc_circuit *c);
    /* A line describing c for `cuzk circuit info`. */
    void (*describe)(char *out, size_t cap, const fc_circuit *c);
    /* The circuit of shape on cs; witness: the kind's witness type, NULL for
     * the blank circuit. */
    int (*synthesize)(r1cs_cs *cs, const void *shape, const void *witness);
    /* The parallel witness generator through a recording's segments (NULL:
     * the kind has none); its r1cs/witness.h contract. */
    int (*witness_generate)(const void *shape, const void *witness, const r1cs_segment_mark *segs,
                            size_t nseg, size_t num_inputs, size_t num_aux, unsigned threads,
                            fr *input, fr *aux, char *err, size_t cap);
    /* A synthetic witness for shape into *w; 0, or -1 when out of memory. */
    int (*witness_random)(fc_kind_witness *w, const void *shape, uint64_t seed);

    /* ---- requests ---- */
    /* Decodes and checks req (everything, so that a request that prepares
     * proves), derives the public inputs and builds every partition. */
    fc_kind_status (*prepare)(const fc_kind *k, fc_kind_plan *out, const fc_kind_request *req,
                              char *err, size_t cap);
    /* Partition i of a prepared state; 0, or -1 when there is none. */
    int (*partition)(fc_kind_part *out, void *state, size_t i);
    void (*release)(void *state);
};

/* Row i of the table (NULL past the end), and the rows by name. */
const fc_kind *fc_kind_at(size_t i);
const fc_kind *fc_kind_by_wire(int wire_kind);
const fc_kind *fc_kind_by_id_prefix(const char *prefix);

/* The circuit of a circuit id ("porep-32g") or of a `cuzk circuit` name
 * ("window-2k"); 0, or -1 when no row has it. */
int fc_circuit_by_id(fc_circuit *out, const char *id);
int fc_circuit_by_name(fc_circuit *out, const char *name);

/* Fills what every row's circuit_at fills besides the shape: kind, size,
 * proof name and id. */
void fc_circuit_init(fc_circuit *out, const fc_kind *k, unsigned i, const char *proof_name);

/* The synthetic witness's memory. */
void fc_kind_witness_free(fc_kind_witness *w);

/* Random field elements and path positions for the kinds' synthetic
 * witnesses (splitmix64 from *s). */
uint64_t fc_kind_rand64(uint64_t *s);
void fc_kind_rand_frs(fr *out, size_t n, uint64_t *s);
/* n path positions below each level's arity of t, level by level. */
void fc_kind_rand_index(uint32_t *out, size_t n, const por_shape *t, uint64_t *s);

#endif
