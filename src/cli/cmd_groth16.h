/* `cuzk setup`, `cuzk prove`, `cuzk verify`, `cuzk bench prove` for the
 * built-in test circuits (toy_circuits.h) in bellperson's file formats. */
#ifndef CUZK_CLI_CMD_GROTH16_H
#define CUZK_CLI_CMD_GROTH16_H

int cmd_setup(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_bench_prove(int argc, char **argv);

#endif
