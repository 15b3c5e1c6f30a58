/* Error messages into a caller's buffer: the one helper behind every module's
 * "fill err, return failure" path (char *err, size_t cap is the house
 * convention; err may be NULL or cap 0 when the caller wants no text). */
#ifndef CUZK_UTIL_ERR_H
#define CUZK_UTIL_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* Formats into err (truncated to cap bytes, always terminated) and returns -1,
 * so a failing path reads `return err_set(err, cap, "...", ...);`. */
int err_set(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int err_vset(char *err, size_t cap, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
