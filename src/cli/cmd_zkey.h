/* `cuzk prove zkey` and `cuzk verify zkey`: snarkjs .zkey + .wtns in,
 * snarkjs proof.json / public.json out, for circom circuits on BLS12-381
 * (the rapidsnark contract, groth16/prove_zkey.h). */
#ifndef CUZK_CLI_CMD_ZKEY_H
#define CUZK_CLI_CMD_ZKEY_H

/* argv holds the options after "prove zkey" / "verify zkey". */
int cmd_prove_zkey(int argc, char **argv);
/* Prints OK (exit 0) or INVALID (exit 1); 2 on bad input. */
int cmd_verify_zkey(int argc, char **argv);

#endif
