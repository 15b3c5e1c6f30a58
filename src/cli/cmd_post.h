/* cuzk post-vanilla: PoSt vanilla proofs from a sector sealed by cuzk seal. */
#ifndef CUZK_CLI_CMD_POST_H
#define CUZK_CLI_CMD_POST_H

int cmd_post_vanilla(int argc, char **argv);

#endif
