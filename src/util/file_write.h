/* Whole-file writes that a reader never sees half done: the bytes go to a
 * temporary file beside the target (PATH.tmpPID), which is flushed, fsync'd
 * and only then renamed over PATH.  A crash or a failed write leaves the old
 * file (or none), never a truncated proof or cache under the real name.
 *
 * Two forms: file_write_atomic for bytes already in memory (proofs), and
 * file_atomic_open / _commit / _abort for a writer that streams into a FILE*
 * (the parent cache, parameter files). */
#ifndef CUZK_UTIL_FILE_WRITE_H
#define CUZK_UTIL_FILE_WRITE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;        /* write here between open and commit/abort */
    char tmp[4200]; /* the temporary's name */
    const char *path;
} file_atomic;

/* Creates the temporary for path (path is borrowed until commit/abort).
 * Returns 0, or -1 with a message naming the temporary in err. */
int file_atomic_open(file_atomic *a, const char *path, char *err, size_t cap);

/* Flushes, fsyncs and closes a->f, then renames the temporary over the
 * path.  Returns 0, or -1 with a message in err; on failure the temporary
 * is removed, so no abort is needed after it. */
int file_atomic_commit(file_atomic *a, char *err, size_t cap);

/* Closes and removes the temporary (after a writer failed).  Safe on an
 * a whose open failed. */
void file_atomic_abort(file_atomic *a);

/* Writes the n bytes at b to path atomically.  Returns 0, or -1 with a
 * message naming the file in err. */
int file_write_atomic(const char *path, const void *b, size_t n, char *err, size_t cap);

#endif
