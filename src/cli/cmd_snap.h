/* cuzk prove snap / verify snap / snap public-inputs: SnapDeals
 * (empty-sector update) proofs from the request's parts, as Curio sends them
 * (docs/SNAPDEALS.md 1.1): the registered update proof (0..4), one bincode
 * PartitionProof file per partition (--vanilla, in partition order) and the
 * three commitments as 64 hex digits of their raw 32 bytes (--comm-r-old,
 * --comm-r-new, --comm-d-new).  --snap-json FILE (what `cuzk seal update`
 * writes) gives the proof id, h, the commitments and, without --vanilla, the
 * vanilla files next to it; options given explicitly win.
 *
 * prove: every partition is decoded and checked natively
 * (snap_partition_prepare, the engine's path too) before the parameters
 * load; each is then synthesized, proved, self-verified (CPU retry) and the
 * P 192-byte proofs are written concatenated in partition order.
 * verify: the P proofs against the natively derived public inputs and the
 * vk (no vanilla proofs needed); OK exits 0, INVALID 1, errors 2.
 * public-inputs: the 4 inputs of every partition, one hex Fr per line.
 * Parameters are found by Filecoin's names (fc_update_param_stem) under
 * --params-dir, else $FIL_PROOFS_PARAMETER_CACHE. */
#ifndef CUZK_CLI_CMD_SNAP_H
#define CUZK_CLI_CMD_SNAP_H

int cmd_prove_snap(int argc, char **argv);
int cmd_verify_snap(int argc, char **argv);
int cmd_snap(int argc, char **argv);

#endif
