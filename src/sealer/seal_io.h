/* Whole-buffer positioned file I/O for the streaming sealer (pread/pwrite
 * may move fewer bytes than asked; these loop).  Safe from several threads
 * on one descriptor. */
#ifndef CUZK_FILECOIN_SEAL_IO_H
#define CUZK_FILECOIN_SEAL_IO_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

/* 0 when all n bytes were read at off; -1 on an error or end of file. */
static inline int fc_pread_full(int fd, void *buf, size_t n, uint64_t off) {
    uint8_t *p = buf;
    while (n) {
        ssize_t r = pread(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r, n -= (size_t)r, off += (uint64_t)r;
    }
    return 0;
}

/* 0 when all n bytes were written at off; -1 on an error. */
static inline int fc_pwrite_full(int fd, const void *buf, size_t n, uint64_t off) {
    const uint8_t *p = buf;
    while (n) {
        ssize_t r = pwrite(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r, n -= (size_t)r, off += (uint64_t)r;
    }
    return 0;
}

#endif
