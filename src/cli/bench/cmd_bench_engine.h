/* `cuzk bench engine`: engine throughput, pipelined vs sequential and batch
 * size 1 vs 2, on the synthetic circuit (not a Filecoin circuit). */
#ifndef CUZK_CLI_CMD_BENCH_ENGINE_H
#define CUZK_CLI_CMD_BENCH_ENGINE_H

int cmd_bench_engine(int argc, char **argv);

#endif
