/* Built-in test circuits for `cuzk setup/prove/verify` and the benchmarks.
 *   cubic:X        x^3 + x + 5 = y, y public, witness x = X (structure fixed)
 *   random:N:SEED  N random constraints (products, bits, sums, some public
 *                  outputs); SEED fixes both the structure and the witness
 * They are not Filecoin circuits; they exercise the prover end to end. */
#ifndef CUZK_CLI_TOY_CIRCUITS_H
#define CUZK_CLI_TOY_CIRCUITS_H

#include <stdint.h>

#include "r1cs/cs.h"

typedef struct {
    r1cs_synth_fn fn;
    union {
        struct {
            fr x;
        } cubic;
        struct {
            uint64_t seed;
            size_t n;
        } random;
    } u;
} toy_circuit;

/* Parses a circuit spec; 0 on success, -1 with a message in why. */
int toy_circuit_parse(toy_circuit *c, const char *spec, char *why, size_t whylen);

#endif
