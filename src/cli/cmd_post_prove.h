/* WindowPoSt and WinningPoSt from vanilla proofs (filecoin-facts 3.10):
 *   prove post PROOF --vanilla F [--vanilla F ...] --randomness HEX
 *              [--miner-id N] [--partition K] [--params-dir DIR]
 *              [--out proof.bin] [--threads N]
 *       one bincode FallbackPoStSectorProof per sector (`cuzk post-vanilla`,
 *       or what Curio sends in vanilla_proofs), checked natively (shape,
 *       paths, comm_r, the leaves the randomness challenges), proved per
 *       partition, each proof verified; the 192-byte proofs concatenated in
 *       partition order are written only when all verified.
 *   verify post PROOF (--vanilla F ... | --sector N:COMM_R ...) --randomness HEX
 *              [--partition K] --proof proof.bin [--params-dir DIR]
 *       OK (exit 0), INVALID (exit 1) or an error (exit 2).  Public inputs
 *       come from the sector ids, comm_r's and the randomness only (the
 *       vanilla files are read for their sector id and comm_r).
 *   post public-inputs PROOF (--vanilla F ... | --sector N:COMM_R ...)
 *              --randomness HEX [--partition K]
 *       the public inputs as hex lines (tools/oracle/verify_bellperson.mjs).
 * PROOF: --registered-proof ID (RegisteredPoStProof 0..14, as Curio's
 * request carries it) or --kind winning|window (the sector size read from
 * the first vanilla proof; window means the V1_1 proofs, 10..14).
 * Partitions: with --partition K the sectors given are partition K's (at
 * most the proof's sector count; Curio's one-partition requests); without
 * it they are split in the order given into partitions 0, 1, ...
 * (rust-fil-proofs' generate_window_post orders them by sector number, a
 * BTreeMap; give them so for proofs its verifier checks).  WinningPoSt takes
 * one sector.  --miner-id is accepted as Curio sends it; the FallbackPoSt
 * circuit does not depend on the prover id.  Parameters are found by
 * Filecoin's names under DIR, else $FIL_PROOFS_PARAMETER_CACHE. */
#ifndef CUZK_CLI_CMD_POST_PROVE_H
#define CUZK_CLI_CMD_POST_PROVE_H

int cmd_prove_post(int argc, char **argv);
int cmd_verify_post(int argc, char **argv);
int cmd_post(int argc, char **argv);

#endif
