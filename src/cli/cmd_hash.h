/* `cuzk hash poseidon --arity A HEX...`: Filecoin's Poseidon (neptune v11,
 * MerkleTree tag) of field elements given and printed as 32-byte
 * little-endian hex (Fr's canonical repr), for users and independent checks. */
#ifndef CUZK_CLI_CMD_HASH_H
#define CUZK_CLI_CMD_HASH_H

int cmd_hash(int argc, char **argv);

#endif
