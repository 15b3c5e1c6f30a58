/* The prover backend interface (DESIGN.md section 2):
 *   prove(batch of synthesized partitions, parameter set, r[], s[]) -> proofs.
 * The CPU backend implements it today; the CUDA backend will plug in beside
 * it.  For the same r, s every backend must return byte-identical proofs. */
#ifndef CUZK_GROTH16_BACKEND_H
#define CUZK_GROTH16_BACKEND_H

#include "groth16/prover.h"

typedef struct {
    const char *name;
    /* As groth16_prove_cpu: n partitions sharing srs; r, s NULL for fresh
     * randomness; timing (n entries) may be NULL. */
    groth16_status (*prove)(groth16_proof *proofs, const r1cs_partition *parts, size_t n,
                            const groth16_params_data *srs, const fr *r, const fr *s,
                            unsigned threads, groth16_prove_timing *timing, groth16_error *err);
    /* Optional (NULL: nothing to do): the caller is about to free srs's points,
     * so a backend that keeps copies (a GPU's resident bases) drops them. */
    void (*forget)(const groth16_params_data *srs);
} groth16_backend;

/* The CPU backend (always present). */
extern const groth16_backend groth16_backend_cpu;

/* The backend called `name` ("cpu"), or NULL if this build has none such. */
const groth16_backend *groth16_backend_find(const char *name);

#endif
