/* `cuzk seal`: the test-data sealer (filecoin/sealer.h), and
 * `cuzk verify-vanilla`: native verification of a C1's vanilla proofs
 * (filecoin/vanilla_verify.h).
 *
 *   seal --sector-size 2KiB|8MiB|512MiB --registered-proof NAME|ID
 *        [--data FILE | --zeros | --random SEED] --miner-id N --sector-number N
 *        --ticket HEX --seed HEX --out DIR [--curio] [--threads N]
 *        [--mem-budget SIZE] [--parent-cache FILE] [--in-memory]
 *     (--threads: tree building, column hashing, encoding, the parent cache;
 *     default all CPUs.  Streams through files in DIR (filecoin/
 *     sealer_stream.h) with at most --mem-budget bytes booked (N, NKiB, NMiB,
 *     NGiB; default two layers + 66.5 MiB); prints per-phase times and the
 *     ledger's peak.  --parent-cache: where the parent cache is kept (reused
 *     when complete, generated there when not; default DIR/<key>.cache).
 *     --in-memory runs the in-memory reference sealer
 *     instead, which writes the same files minus the streaming ones.)
 *     writes into DIR (created if missing):
 *       c1.json      the C1 output (serde JSON; Curio's wrapper with --curio)
 *       p_aux        comm_c ‖ comm_r_last, 64 bytes (rust-fil-proofs' PersistentAux)
 *       sealed       the replica = tree R's leaves, nodes × 32 bytes
 *       unsealed     the Fr32-padded data = tree D's leaves, nodes × 32 bytes
 *       tree-r-last  tree R's rows above the leaves, leaf side first, 32 bytes a node
 *       sector.json  proof, miner, sector, ticket, seed and every commitment in hex
 *     and, streaming: layer-1 .. layer-L (labels), tree-d, tree-c (rows incl.
 *     the column hashes), <parent cache key>.cache (reused by later seals into
 *     the same DIR)
 *   seal update --sector DIR --out DIR [--data FILE | --zeros | --random SEED] [--h N]
 *     the SnapDeals update of a CC sector sealed into DIR (sealer/seal_snap.h):
 *     writes update, update-data, vanilla-0 .. vanilla-<P-1> (bincode
 *     PartitionProofs as Curio sends them) and snap.json (the three
 *     commitments, the registered update proof, h)
 *   verify-vanilla --c1 FILE [--miner-id N --sector-number N]
 *     exit 0 and "ok: ..." when every check holds; 1 and the failing part. */
#ifndef CUZK_CLI_CMD_SEAL_H
#define CUZK_CLI_CMD_SEAL_H

int cmd_seal(int argc, char **argv);
int cmd_verify_vanilla(int argc, char **argv);

#endif
