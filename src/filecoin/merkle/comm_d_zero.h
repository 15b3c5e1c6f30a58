/* comm_d of an all-zero (unsealed, fully padded) sector (filecoin-facts §5.4):
 * z_0 = 32 zero bytes, z_{i+1} = trim(sha256(z_i ‖ z_i)); a sector of 2^d
 * nodes has comm_d = z_d.  Computed by repeated hashing; nothing of the
 * sector is materialised.  Same values as go-commp-utils' zerocomm table. */
#ifndef CUZK_FILECOIN_COMM_D_ZERO_H
#define CUZK_FILECOIN_COMM_D_ZERO_H

#include <stdint.h>

enum { FC_ZERO_LEVEL_MAX = 64 };

/* The root of a zero subtree with 2^level leaves (level <= 64). */
void fc_zero_subtree_root(uint8_t out[32], unsigned level);

/* comm_d of an all-zero sector of sector_size bytes (a power of two >= 32).
 * Returns 0, or -1 if the size is not one. */
int fc_comm_d_zero(uint8_t out[32], uint64_t sector_size);

#endif
