/* `cuzk c1 ...`: the PoRep C1 output (SealCommitPhase1Output JSON, bare or in
 * Curio's c1.json wrapper).
 *   c1 check FILE     decode and check the shape against the registered proof;
 *                     one summary line (exit 0) or the first problem with its
 *                     JSON path (exit 1); "-" reads stdin
 *   c1 synth --proof NAME [--seed N] [--wrapper SECTOR_NUM] --out FILE
 *                     a synthetic file of that shape with random values (for
 *                     tests and benchmarks; NOT a proof) */
#ifndef CUZK_CLI_CMD_C1_H
#define CUZK_CLI_CMD_C1_H

int cmd_c1(int argc, char **argv);

#endif
