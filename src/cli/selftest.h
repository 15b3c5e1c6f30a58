/* `cuzk selftest`: built-in known answers, or vector files. */
#ifndef CUZK_CLI_SELFTEST_H
#define CUZK_CLI_SELFTEST_H

int cmd_selftest(int argc, char **argv);

/* The built-in known-answer tests; prints one line per failure, returns the
 * number of failures and sets *checked to the number of checks. */
int selftest_builtin(int *checked);

#endif
