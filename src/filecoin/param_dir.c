/* The parameter folder rule: see param_dir.h. */
#include "filecoin/param_dir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

int fc_param_dir(char *out, size_t out_cap, const char *explicit_dir, const char *configured,
                 fc_param_dir_source *from, char *err, size_t cap) {
    const char *env = getenv(FC_PARAM_DIR_ENV);
    const char *dir = FC_PARAM_DIR_DEFAULT, *what = "the default parameter folder";
    fc_param_dir_source src = FC_PARAM_DIR_FROM_DEFAULT;
    if (explicit_dir && *explicit_dir) {
        dir = explicit_dir;
        what = "the parameter folder";
        src = FC_PARAM_DIR_FROM_EXPLICIT;
    } else if (configured && *configured) {
        dir = configured;
        what = "srs.param_cache";
        src = FC_PARAM_DIR_FROM_CONFIG;
    } else if (env && *env) {
        dir = env;
        what = FC_PARAM_DIR_ENV;
        src = FC_PARAM_DIR_FROM_ENV;
    }
    size_t n = strlen(dir);
    if (n >= out_cap)
        return err_set(err, cap, "%s is too long (%zu bytes, at most %zu)", what, n, out_cap - 1);
    memmove(out, dir, n + 1);
    if (from)
        *from = src;
    return 0;
}
