/* `cuzk pce build CIRCUIT [--dir DIR] [--threads T]`: records the blank
 * circuit's A, B, C (R1CS_RECORD) into DIR/<params stem>.pce (DIR: the
 * parameter folder rule of filecoin/param_dir.h), reporting non-zeros,
 * dictionary size, bytes and times.
 * `cuzk pce info FILE [--threads T]`: counts, non-zeros, the coefficient
 * dictionary and its classes, bytes per section, build time.
 * `cuzk pce check FILE [--circuit NAME] [--threads T]`: full validation;
 * exit 1 with the problem named when the file must not be used. */
#ifndef CUZK_CLI_CMD_PCE_H
#define CUZK_CLI_CMD_PCE_H

int cmd_pce(int argc, char **argv);

#endif
