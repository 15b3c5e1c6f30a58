/* The circuit-provider interface: what the engine needs from a circuit.
 *
 * The engine knows nothing about PoRep, PoSt or SnapDeals.  Per proof kind it
 * holds one provider, which for a request
 *   1. plan:        decodes and validates the request (at submit time, on the
 *                   submitting thread) and says which parameter set it proves
 *                   under (circuit id, the SRS manager's and the batch
 *                   collector's key), how many partitions it has and an upper
 *                   bound of one synthesized partition's bytes (the memory
 *                   budget reserves that much before synthesis starts);
 *   2. synthesize:  builds partition i as an r1cs_partition (R1CS_PROVE mode)
 *                   whose input[] are its public inputs, ONE first;
 *   3. release:     frees what plan decoded.
 * synthesize is called from several synthesis workers at once, for different
 * partitions of one request and for different requests: it must be
 * thread-safe and must not keep pointers into the partition.  It runs on one
 * thread (the engine's thread budget counts one synthesis worker as one
 * core).
 *
 * A kind without a provider fails cleanly at submit with CUZK_E_UNSUPPORTED
 * ("unsupported: porep-c2 circuit not built yet"): a new engine has none;
 * engine_register_filecoin_providers (providers.h) registers the Filecoin
 * circuits, tests register small circuits for every kind.
 *
 * Parameter files are found by circuit id (srs.h): cuzk_engine_register_circuit
 * names each id's file stem (the Filecoin ones: providers.h; test circuits,
 * new sizes: whoever registers them). */
#ifndef CUZK_ENGINE_CIRCUIT_PROVIDER_H
#define CUZK_ENGINE_CIRCUIT_PROVIDER_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "r1cs/cs.h"
#include "r1cs/partition.h"
#include "r1cs/pce.h"

#define ENGINE_CIRCUIT_ID_LEN 64

typedef struct {
    char circuit_id[ENGINE_CIRCUIT_ID_LEN]; /* parameter set and batch key */
    size_t n_partitions;                    /* >= 1 */
    uint64_t partition_bytes;               /* >= r1cs_partition_bytes of each partition */
    void *state;                            /* the decoded request, owned by the provider */
    /* The blank circuit (no values), recorded into the circuit's pce when
     * there is none yet; NULL: this circuit has no PCE path.  blank_arg lives
     * as long as state. */
    r1cs_synth_fn blank;
    void *blank_arg;
    uint64_t rows, num_inputs, num_aux; /* a partition's shape; rows 0: not known */
} engine_plan;

/* How synthesize_pce runs: the recorded matrices, the threads, and whether
 * the partition is left deferred (a/b/c for the backend to evaluate,
 * r1cs/partition.h). */
typedef struct engine_pce_use {
    const r1cs_pce *pce;
    unsigned threads;
    int defer_abc;
    /* a failed witness path is an error, not classic synthesis: the engine
     * reserved memory for a deferred partition and falls back itself */
    int no_fallback;
} engine_pce_use;

typedef struct {
    const char *name; /* for messages */
    void *ctx;
    /* CUZK_OK with *out filled, or an error status (CUZK_E_INVALID for a bad
     * request) with err filled and nothing to release. */
    cuzk_status (*plan)(void *ctx, const cuzk_request *req, engine_plan *out,
                        char err[CUZK_ERROR_LEN]);
    /* CUZK_OK with *out owning a synthesized partition, or an error with
     * err filled and *out zeroed. */
    cuzk_status (*synthesize)(void *ctx, void *state, size_t partition, r1cs_partition *out,
                              char err[CUZK_ERROR_LEN]);
    void (*release)(void *ctx, void *state);
    /* Optional: as synthesize, through the circuit's recorded matrices on
     * threads threads (falls back to classic synthesis by itself when the
     * witness path fails, unless use->no_fallback); the engine calls it when
     * the switch pce is on and the plan has a blank circuit.  Providers build
     * their source with provider_source (provider_util.h). */
    cuzk_status (*synthesize_pce)(void *ctx, void *state, size_t partition,
                                  const engine_pce_use *use, r1cs_partition *out,
                                  char err[CUZK_ERROR_LEN]);
} engine_circuit_provider;

/* Registers (or replaces, with NULL removes) the provider for a kind.  The
 * struct is copied; ctx must outlive the engine.  Register before submitting
 * requests of that kind. */
cuzk_status cuzk_engine_register_provider(cuzk_engine *e, cuzk_proof_kind kind,
                                          const engine_circuit_provider *p);

/* Tells the SRS manager that circuit_id's parameters are FILE_STEM.params
 * (and .vk) in the parameter cache.  Replaces an earlier registration of a
 * set that is not loaded; CUZK_E_INVALID for an over-long id or stem or a
 * stem with '/'. */
cuzk_status cuzk_engine_register_circuit(cuzk_engine *e, const char *circuit_id,
                                         const char *file_stem);

#endif
