/* groth16 status strings and message formatting (see error.h). */
#include "groth16/error.h"

#include <stdarg.h>

#include "util/err.h"

const char *groth16_status_str(groth16_status s) {
    switch (s) {
    case GROTH16_OK:
        return "ok";
    case GROTH16_ERR_TRUNCATED:
        return "truncated";
    case GROTH16_ERR_TRAILING:
        return "trailing bytes";
    case GROTH16_ERR_LAYOUT:
        return "inconsistent layout";
    case GROTH16_ERR_POINT:
        return "invalid point";
    case GROTH16_ERR_INFINITY:
        return "point at infinity";
    case GROTH16_ERR_ARG:
        return "invalid argument";
    case GROTH16_ERR_IO:
        return "i/o error";
    case GROTH16_ERR_NO_MEMORY:
        return "out of memory";
    case GROTH16_ERR_MALFORMED_VK:
        return "malformed verifying key";
    case GROTH16_ERR_INVALID_PROOF:
        return "invalid proof";
    }
    return "unknown status";
}

groth16_status groth16_fail(groth16_error *err, groth16_status s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (err)
        err->status = s;
    err_vset(err ? err->msg : NULL, sizeof err->msg, fmt, ap);
    va_end(ap);
    return s;
}

void groth16_error_clear(groth16_error *err) {
    if (err) {
        err->status = GROTH16_OK;
        err->msg[0] = '\0';
    }
}
