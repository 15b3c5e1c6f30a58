/* The CLI's commands per proof kind: `cuzk prove VERB`, `cuzk verify VERB`
 * and `cuzk VERB public-inputs` (VERB: a row's cli_verb, filecoin/kinds.h).
 * Each kind's command file (cmd_<kind>.c) parses its own arguments, prepares
 * its partitions and hands the rest to the shared flow (prove_kind.h); it
 * defines one row here, and kind_cmds.c lists the rows.  main.c dispatches
 * and lists them in its help. */
#ifndef CUZK_CLI_KIND_CMDS_H
#define CUZK_CLI_KIND_CMDS_H

#include <stddef.h>

typedef struct {
    const char *verb;
    int (*prove)(int argc, char **argv);  /* argv after "prove VERB" */
    int (*verify)(int argc, char **argv); /* argv after "verify VERB" */
    int (*inputs)(int argc, char **argv); /* argv after "VERB" ("public-inputs" first) */
    /* the help lines: synopsis and one line each */
    const char *prove_synopsis, *prove_help;
    const char *verify_synopsis, *verify_help;
    const char *inputs_synopsis, *inputs_help;
} cli_kind_cmds;

/* Row i (NULL past the end). */
const cli_kind_cmds *cli_kind_cmds_at(size_t i);

#endif
