/* The CLI's `--backend cpu|cuda` and `--rs-seed HEX` options, shared by
 * `cuzk bench prove`, `cuzk prove porep` and the other prove commands. */
#ifndef CUZK_CLI_BACKEND_PICK_H
#define CUZK_CLI_BACKEND_PICK_H

#include <stddef.h>

#include "field/fr.h"
#include "groth16/backend.h"

/* name NULL or "cpu": the CPU backend; "cuda": GPU cli_gpu_ordinal()'s,
 * opened once per process and closed by cli_backends_close.  NULL after a
 * message naming why (unknown name, no nvcc in this build, no usable GPU). */
const groth16_backend *cli_pick_backend(const char *name);
/* Closes the backends cli_pick_backend opened (main.c, after the command). */
void cli_backends_close(void);
/* The GPU a command uses: CUZK_GPU in the environment, else 0. */
int cli_gpu_ordinal(void);

/* TEST ONLY: r and s for proof number k derived from a hex seed
 * (groth16_rs_from_seed: SHA-256 of seed || "r"/"s" || k, reduced mod r), so
 * two backends, or the CLI and the daemon, can be compared byte for byte.  Whoever knows the seed
 * can strip the proof's zero knowledge; production proofs draw r, s from the kernel's CSPRNG (seed
 * NULL). Returns -1 after a message if the seed is not 1..64 bytes of hex. */
int cli_rs_from_seed(fr *r, fr *s, const char *seed_hex, size_t k);

#endif
