/* The folder that holds Filecoin's parameter files (.params, .vk, .meta):
 * one rule for the daemon's config, the engine and every CLI command.
 *
 *   1. an explicit folder (the CLI's --params-dir) when given;
 *   2. else the configured folder (srs.param_cache set in the config file)
 *      when not empty: the operator's explicit setting for this daemon wins
 *      over the machine-wide variable, as in the Rust cuzk;
 *   3. else $FIL_PROOFS_PARAMETER_CACHE when set and not empty (rust-fil-
 *      proofs' variable, shared by every Filecoin tool on the machine);
 *   4. else rust-fil-proofs' default, /var/tmp/filecoin-proof-parameters
 *      (the daemon's config puts its own default, /data/zk/params, here).
 * Callers log which one was used (`from`). */
#ifndef CUZK_FILECOIN_PARAM_DIR_H
#define CUZK_FILECOIN_PARAM_DIR_H

#include <stddef.h>

#define FC_PARAM_DIR_ENV "FIL_PROOFS_PARAMETER_CACHE"
#define FC_PARAM_DIR_DEFAULT "/var/tmp/filecoin-proof-parameters"

typedef enum {
    FC_PARAM_DIR_FROM_EXPLICIT,
    FC_PARAM_DIR_FROM_ENV,
    FC_PARAM_DIR_FROM_CONFIG,
    FC_PARAM_DIR_FROM_DEFAULT,
} fc_param_dir_source;

/* Writes the folder into out (out_cap bytes; out may alias explicit_dir or
 * configured).  explicit_dir and configured may be NULL.  from (may be NULL)
 * says which rule chose it.  Returns 0, or -1 with a message naming the
 * source when the folder does not fit. */
int fc_param_dir(char *out, size_t out_cap, const char *explicit_dir, const char *configured,
                 fc_param_dir_source *from, char *err, size_t cap);

#endif
