/* Table-driven "--name value" option parsing for the CLI's commands. */
#ifndef CUZK_CLI_ARGS_H
#define CUZK_CLI_ARGS_H

#include <stddef.h>

typedef struct {
    const char *name;   /* "--proof" */
    const char **value; /* where the value goes (left as is when absent) */
} cli_opt;

/* Parses argv as pairs "--name value".  "--threads N" (1..1024) sets *threads
 * when threads is non-NULL.  On an unknown option, a missing value or a bad
 * thread count: a message naming it, the usage line, and -1. */
int cli_parse(int argc, char **argv, const cli_opt *opts, size_t n_opts, unsigned *threads,
              const char *usage);

#endif
