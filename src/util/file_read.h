/* A whole file into memory, for the CLI's small inputs (C1 files, vanilla
 * proofs, proofs): one reader with one set of error messages. */
#ifndef CUZK_UTIL_FILE_READ_H
#define CUZK_UTIL_FILE_READ_H

#include <stddef.h>
#include <stdint.h>

/* Reads path (a regular file or a pipe) into a malloc'd buffer with a NUL
 * after the last byte; *len gets the byte count.  NULL with a message in err
 * ("cannot open", "read error", "empty file", "larger than MAX bytes", "out
 * of memory"; without the path) when it fails or holds more than max bytes. */
uint8_t *file_read_all(const char *path, size_t max, size_t *len, char *err, size_t cap);

#endif
