/* The CLI's `--backend cpu|cuda` and `--rs-seed HEX` options, shared by
 * `cuzk bench prove`, `cuzk prove porep` and the other prove commands. */
#ifndef CUZK_CLI_BACKEND_PICK_H
#define CUZK_CLI_BACKEND_PICK_H

#include <stddef.h>

#include "field/fr.h"
#include "groth16/backend.h"

/* name NULL or "cpu": the CPU backend; "cuda": the GPU one.  NULL after a
 * message naming why (unknown name, no nvcc in this build, no usable GPU). */
const groth16_backend *cli_pick_backend(const char *name);

/* TEST ONLY: r and s for proof number k derived from a hex seed
 * (groth16_rs_from_seed: SHA-256 of seed || "r"/"s" || k, reduced mod r), so
 * two backends, or the CLI and the daemon, can be compared byte for byte.  Whoever knows the seed
 * can strip the proof's zero knowledge; production proofs draw r, s from the kernel's CSPRNG (seed
 * NULL). Returns -1 after a message if the seed is not 1..64 bytes of hex. */
int cli_rs_from_seed(fr *r, fr *s, const char *seed_hex, size_t k);

#endif
