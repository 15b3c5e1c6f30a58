/* Prover id of a miner actor: the actor id as an unsigned LEB128 varint,
 * left-aligned in 32 zero bytes (Curio cuzk-core prover.rs make_prover_id,
 * filecoin-facts §2.7; go-address's ID-address payload). */
#ifndef CUZK_FILECOIN_PROVER_ID_H
#define CUZK_FILECOIN_PROVER_ID_H

#include <stddef.h>
#include <stdint.h>

/* Writes the prover id of actor `miner` (any u64: at most 10 varint bytes). */
void fc_prover_id(uint8_t out[32], uint64_t miner);

/* Reads it back: returns 0 and sets *miner, or -1 if the bytes are not a
 * minimal varint followed by zeros. */
int fc_prover_id_miner(uint64_t *miner, const uint8_t in[32]);

#endif
