/* Error messages into a caller's buffer: see err.h. */
#include "util/err.h"

#include <stdio.h>

int err_vset(char *err, size_t cap, const char *fmt, va_list ap) {
    if (err && cap)
        vsnprintf(err, cap, fmt, ap);
    return -1;
}

int err_set(char *err, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_vset(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}
