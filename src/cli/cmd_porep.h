/* PoRep C2 from a C1 file (filecoin-facts §2, §3.1):
 *   prove porep --c1 FILE [--params-dir DIR] [--out proof.bin] [--threads N]
 *       every partition's witness read from the C1 and checked natively, its
 *       public inputs derived natively (challenges, graph parents), proved,
 *       verified; the 192-byte proofs concatenated in partition order are
 *       written only when all verified.  Per-phase timing on stdout.  (NI-PoRep:
 *       the partition proofs; the chain wants their SnarkPack aggregate.)
 *   verify porep --c1 FILE --proof proof.bin [--params-dir DIR]
 *       OK (exit 0), INVALID (exit 1) or an error (exit 2).
 *   porep public-inputs --c1 FILE [--partition K]
 *       the public inputs as hex lines (tools/oracle/verify_bellperson.mjs).
 * Parameters are found by Filecoin's names (porep_params.h) under DIR, else
 * $FIL_PROOFS_PARAMETER_CACHE. */
#ifndef CUZK_CLI_CMD_POREP_H
#define CUZK_CLI_CMD_POREP_H

int cmd_prove_porep(int argc, char **argv);
int cmd_verify_porep(int argc, char **argv);
int cmd_porep(int argc, char **argv);

#endif
