/* Atomic whole-file writes: see file_write.h. */
#include "util/file_write.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "util/err.h"

int file_atomic_open(file_atomic *a, const char *path, char *err, size_t cap) {
    a->path = path;
    a->f = NULL;
    int n = snprintf(a->tmp, sizeof a->tmp, "%s.tmp%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof a->tmp) {
        a->tmp[0] = 0;
        return err_set(err, cap, "path too long: %s", path);
    }
    a->f = fopen(a->tmp, "wb");
    if (!a->f)
        return err_set(err, cap, "cannot create %s: %s", a->tmp, strerror(errno));
    return 0;
}

int file_atomic_commit(file_atomic *a, char *err, size_t cap) {
    if (!a->f)
        return err_set(err, cap, "cannot write %s: not open", a->path);
    int e = 0;
    if (fflush(a->f) != 0 || ferror(a->f) || fsync(fileno(a->f)) != 0)
        e = errno ? errno : EIO;
    if (fclose(a->f) != 0 && !e)
        e = errno;
    a->f = NULL;
    if (!e && rename(a->tmp, a->path) != 0)
        e = errno;
    if (!e)
        return 0;
    unlink(a->tmp);
    return err_set(err, cap, "cannot write %s: %s", a->path, strerror(e));
}

void file_atomic_abort(file_atomic *a) {
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
    }
    if (a->tmp[0])
        unlink(a->tmp);
}

int file_write_atomic(const char *path, const void *b, size_t n, char *err, size_t cap) {
    file_atomic a;
    if (file_atomic_open(&a, path, err, cap) != 0)
        return -1;
    if (n && fwrite(b, 1, n, a.f) != n) {
        int e = errno;
        file_atomic_abort(&a);
        return err_set(err, cap, "cannot write %s: %s", path, strerror(e));
    }
    return file_atomic_commit(&a, err, cap);
}
