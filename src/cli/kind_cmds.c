/* The kinds' command rows: see kind_cmds.h.  Each is defined in its kind's
 * command file; this list is the one place that names them all. */
#include "cli/kind_cmds.h"

extern const cli_kind_cmds cli_cmds_porep; /* cmd_porep.c */
extern const cli_kind_cmds cli_cmds_post;  /* cmd_post_prove.c */
extern const cli_kind_cmds cli_cmds_snap;  /* cmd_snap.c */

static const cli_kind_cmds *const table[] = {&cli_cmds_porep, &cli_cmds_post, &cli_cmds_snap};

const cli_kind_cmds *cli_kind_cmds_at(size_t i) {
    return i < sizeof table / sizeof table[0] ? table[i] : NULL;
}
