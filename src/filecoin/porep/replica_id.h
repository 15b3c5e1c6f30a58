/* replica_id (filecoin-facts §3.9; rust-fil-proofs stacked/vanilla/params.rs
 * generate_replica_id): SHA-256 of prover_id[32] ‖ sector_id u64 BIG-endian ‖
 * ticket[32] ‖ comm_d[32] ‖ porep_id[32], with byte 31 &= 0x3f so that the
 * 32 bytes are a canonical little-endian Fr. */
#ifndef CUZK_FILECOIN_REPLICA_ID_H
#define CUZK_FILECOIN_REPLICA_ID_H

#include <stdint.h>

void fc_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                   const uint8_t ticket[32], const uint8_t comm_d[32], const uint8_t porep_id[32]);

#endif
