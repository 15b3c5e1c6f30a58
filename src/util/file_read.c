/* Whole-file reads (file_read.h). */
#include "util/file_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t *file_read_all(const char *path, size_t max, size_t *len, char *err, size_t cap) {
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, cap, "cannot open: %s", strerror(errno));
        return NULL;
    }
    uint8_t *buf = NULL;
    size_t n = 0, size = 0;
    const char *why = NULL;
    for (;;) {
        if (n == size) {
            if (size > max) {
                why = "too large";
                break;
            }
            size_t grow = size ? 2 * size : 1 << 16;
            uint8_t *b = realloc(buf, grow + 1);
            if (!b) {
                why = "out of memory";
                break;
            }
            buf = b;
            size = grow;
        }
        size_t got = fread(buf + n, 1, size - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (!why && ferror(f))
        why = "read error";
    fclose(f);
    if (!why && n == 0)
        why = "empty file";
    if (!why && n > max)
        why = "too large";
    if (why) {
        if (strcmp(why, "too large") == 0)
            snprintf(err, cap, "larger than %zu bytes", max);
        else
            snprintf(err, cap, "%s", why);
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}
