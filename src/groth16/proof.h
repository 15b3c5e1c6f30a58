/* The 192-byte Groth16 proof (bellperson Proof::write):
 *   A  G1 compressed  48   offset   0
 *   B  G2 compressed  96   offset  48
 *   C  G1 compressed  48   offset 144
 * A multi-partition proof is the partitions' proofs concatenated in order.
 * Reading checks each point fully (flags, < p, on the curve, in the subgroup)
 * and rejects an identity A, B or C ("point at infinity"), as
 * Proof::read_many does. */
#ifndef CUZK_GROTH16_PROOF_H
#define CUZK_GROTH16_PROOF_H

#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "groth16/error.h"

#define GROTH16_PROOF_BYTES 192

typedef struct {
    g1_affine a;
    g2_affine b;
    g1_affine c;
} groth16_proof;

void groth16_proof_write(uint8_t out[GROTH16_PROOF_BYTES], const groth16_proof *p);
groth16_status groth16_proof_read(groth16_proof *p, const uint8_t in[GROTH16_PROOF_BYTES],
                                  groth16_error *err);

/* len must be a multiple of 192; its len / 192 proofs go to out, which has
 * room for cap of them; *n gets the count.  len = 0 gives *n = 0.  Errors name
 * the proof and the byte offset, e.g. "proof[1]: B at offset 240: point is not
 * in the prime-order subgroup". */
groth16_status groth16_proof_read_many(groth16_proof *out, size_t cap, size_t *n, const uint8_t *in,
                                       size_t len, groth16_error *err);

#endif
