/* A synthetic circuit provider, for tests and benchmarks only.
 *
 * NOT a Filecoin circuit.  Until the PoRep/PoSt/Snap circuits exist, it lets
 * the engine be driven end to end (several partitions per request, real
 * Groth16 proofs under test-only parameters, self-verified) and measured.
 *
 * Circuit "<id>" with K constraints, per partition:
 *   public tag = seed * 2^16 + partition;  private x_0 = f(seed, partition)
 *   x_{i+1} = x_i^2 + c_i   (i < K - 2, fixed constants c_i)
 *   (x_0 + tag) * 1 = w;    public y = x_last
 * so every partition has its own witness and public inputs, and one
 * parameter set serves every request of that circuit id.
 *
 * Requests: vanilla_proof = "synthetic circuit=<id> partitions=<n> seed=<s>"
 * (1 <= n <= 1024), optionally followed by " work=<w>": w extra squarings in
 * the witness computation of x_0 (synthesis cost for benchmarks; the
 * constraints do not change).  Anything else is CUZK_E_INVALID naming the
 * problem.
 * Parameter files: v28-cuzk-synthetic-<id>.{params,vk,meta}, TEST-ONLY
 * (random toxic waste, .meta says so). */
#ifndef CUZK_ENGINE_SYNTHETIC_H
#define CUZK_ENGINE_SYNTHETIC_H

#include <stddef.h>
#include <stdint.h>

#include "engine/circuit_provider.h"

typedef struct engine_synthetic engine_synthetic;

engine_synthetic *engine_synthetic_new(void);
void engine_synthetic_free(engine_synthetic *s);
/* Adds circuit id with k >= 4 constraints (before the provider is used). */
cuzk_status engine_synthetic_add(engine_synthetic *s, const char *circuit_id, size_t k,
                                 char err[CUZK_ERROR_LEN]);
/* The file stem of a circuit's parameters. */
void engine_synthetic_stem(char out[128], const char *circuit_id);
/* Runs a TEST-ONLY Groth16 setup for circuit_id and writes its .params, .vk
 * and .meta into dir. */
cuzk_status engine_synthetic_write_params(engine_synthetic *s, const char *circuit_id,
                                          const char *dir, unsigned threads,
                                          char err[CUZK_ERROR_LEN]);
/* Registers every added circuit's stem with the engine. */
cuzk_status engine_synthetic_register(engine_synthetic *s, cuzk_engine *e);
/* The provider (ctx = s; s must outlive the engine). */
engine_circuit_provider engine_synthetic_provider(engine_synthetic *s);
/* The same with a PCE path (synthesize_pce: the witness alone, the circuit
 * recorded by the engine as <stem>.pce beside the parameters). */
engine_circuit_provider engine_synthetic_provider_pce(engine_synthetic *s);
/* Formats a request payload; returns its length. */
size_t engine_synthetic_request(char *buf, size_t len, const char *circuit_id, unsigned partitions,
                                uint64_t seed);
/* The exact bytes of one synthesized partition of circuit_id (0 if unknown). */
uint64_t engine_synthetic_partition_bytes(const engine_synthetic *s, const char *circuit_id);

#endif
