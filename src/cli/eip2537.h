/* Runs the Ethereum EIP-2537 precompile vector files (JSON arrays of
 * {"Input", "Expected"} or {"Input", "ExpectedError"}) against cuzk's curve
 * code, translating EIP-2537's encoding (64-byte zero-padded Fp, Fp2 as c0
 * then c1, infinity as all zeros, 32-byte big-endian scalars). */
#ifndef CUZK_CLI_EIP2537_H
#define CUZK_CLI_EIP2537_H

/* The op comes from the file name (add_G1, mul_G2, msm_G1, pairing_check, with
 * an optional "fail-" prefix).  Prints failures and "N passed, N failed".
 * Returns 0 if all passed, 1 on a failure, 2 if the file is unusable. */
int eip2537_check_file(const char *path);

#endif
