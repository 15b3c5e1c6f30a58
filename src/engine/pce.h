/* The engine's PCE manager (docs/PCE.md s.6): per circuit id the recorded
 * matrices, opened (or recorded and written) once on first use into the
 * parameter cache as <stem>.pce, then kept for the process.  Other
 * partitions of that circuit wait while it is obtained; a circuit whose pce
 * cannot be had synthesizes classically (logged once).  The bytes held are
 * counted in the memory budget (mem_budget.pce_bytes) and kept only when
 * they fit it. */
#ifndef CUZK_ENGINE_PCE_H
#define CUZK_ENGINE_PCE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/circuit_provider.h"
#include "r1cs/pce.h"

typedef struct engine_pce {
    char circuit_id[ENGINE_CIRCUIT_ID_LEN];
    int state; /* ENGINE_PCE_* */
    r1cs_pce pce;
    uint64_t bytes;
    double last_used_ms;
    struct engine_pce *next;
} engine_pce;

/* RETRY: obtained but not kept (it did not fit the budget); the next
 * partition of the circuit tries again. */
enum { ENGINE_PCE_LOADING = 1, ENGINE_PCE_READY, ENGINE_PCE_FAILED, ENGINE_PCE_RETRY };

struct cuzk_engine;

/* The pce of plan's circuit (plan->blank recorded when there is no file), or
 * NULL: switch pce off, no blank circuit, or it could not be had.  Called
 * without the engine lock.  *threads gets the synthesis cores divided by the
 * partitions being synthesized now (at least 1). */
const r1cs_pce *engine_pce_get(struct cuzk_engine *e, const engine_plan *plan, unsigned *threads);

/* Frees every entry (at engine teardown, no synthesis running). */
void engine_pce_free_all(struct cuzk_engine *e);

#endif
