/* file_read_all: contents and the NUL after them, growth past the first
 * buffer, and each refusal (missing, empty, over the limit, a directory). */
#include <unistd.h>

#include "check.h"
#include "util/file_read.h"

int main(void) {
    check_seed("test_file_read");
    char path[] = "/tmp/cuzk-file-read-XXXXXX", err[256];
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    size_t n = 200000 + (size_t)(check_rand64() % 1000), len = 0; /* > the first 64 KiB */
    uint8_t *want = malloc(n);
    check_rand_bytes(want, n);
    CHECK(write(fd, want, n) == (ssize_t)n);
    close(fd);
    uint8_t *got = file_read_all(path, n, &len, err, sizeof err);
    CHECK(got != NULL && len == n);
    if (got) {
        CHECK_MEM(got, want, n);
        CHECK(got[n] == 0);
    }
    free(got);
    CHECK(file_read_all(path, n - 1, &len, err, sizeof err) == NULL && strstr(err, "larger than"));
    CHECK(truncate(path, 0) == 0);
    CHECK(file_read_all(path, n, &len, err, sizeof err) == NULL && strstr(err, "empty file"));
    unlink(path);
    CHECK(file_read_all(path, n, &len, err, sizeof err) == NULL && strstr(err, "cannot open"));
    CHECK(file_read_all("/tmp", n, &len, err, sizeof err) == NULL);
    free(want);
    return check_finish();
}
