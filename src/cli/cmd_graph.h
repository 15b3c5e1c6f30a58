/* `cuzk graph`: the SDR graph of a registered seal proof.
 *   cache-name PROOF                 the parent cache's manifest key
 *   cache-digest PROOF [--out FILE] [--threads N]
 *                                    SHA-256 of the parent cache file (and the file)
 *   parents PROOF NODE               the node's 14 parents (6 DRG, 8 expander)
 * PROOF is a RegisteredSealProof name ("StackedDrg2KiBV1_1") or id (0..19). */
#ifndef CUZK_CLI_CMD_GRAPH_H
#define CUZK_CLI_CMD_GRAPH_H

int cmd_graph(int argc, char **argv);

#endif
