/* `cuzk bench single|batch|stress|status|preload|evict|metrics`: a client of
 * a running cuzk daemon (cuzk.v1 over gRPC), with the Rust cuzk-bench's
 * flags. */
#ifndef CUZK_CLI_CMD_BENCH_CLIENT_H
#define CUZK_CLI_CMD_BENCH_CLIENT_H

/* 1 when `cuzk bench WORD ...` is a client command: WORD is one of the
 * subcommands above or a flag (the client's flags may precede the
 * subcommand; the in-process `bench prove|synth|engine` start with their
 * word). */
int cmd_bench_client_matches(const char *word);

/* argv[0] is "bench"; the subcommand and flags follow in any order. */
int cmd_bench_client(int argc, char **argv);

#endif
