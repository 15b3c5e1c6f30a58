/* `cuzk circuit info NAME`: the shape of a Filecoin circuit (constraints,
 * inputs, aux variables, A/B/C non-zeros, densities, domain) from its blank
 * circuit in the counting mode, with the time that took.
 * `cuzk bench synth NAME [--reps R] [--witness [--threads T]]`: proving-mode synthesis of one
 * partition with a synthetic (random, unsatisfying) witness, per rep time
 * and constraints/s.
 * NAME: porep-2k|8m|512m|32g|64g, winning-2k, window-2k, winning-32g,
 * window-32g, window-64g (any porep-/winning-/window- with a sector size
 * 2k, 8m, 512m, 32g, 64g). */
#ifndef CUZK_CLI_CMD_CIRCUIT_H
#define CUZK_CLI_CMD_CIRCUIT_H

int cmd_circuit(int argc, char **argv);
int cmd_bench_synth(int argc, char **argv);

#endif
