/* `cuzk bench ab`: A/B comparison of switch configurations in one process
 * (cmd_bench_ab.c). */
#ifndef CUZK_CLI_CMD_BENCH_AB_H
#define CUZK_CLI_CMD_BENCH_AB_H

int cmd_bench_ab(int argc, char **argv);

#endif
