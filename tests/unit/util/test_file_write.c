/* file_write_atomic and file_atomic_*: the bytes land under the real name,
 * an existing file is replaced whole, an aborted or failed write leaves the
 * old file and no temporary, and a missing directory is refused. */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "util/file_read.h"
#include "util/file_write.h"

/* Entries of dir other than . and .. */
static int entries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static int holds(const char *path, const uint8_t *want, size_t n) {
    char err[256];
    size_t len = 0;
    uint8_t *got = file_read_all(path, n + 1, &len, err, sizeof err);
    int ok = got && len == n && memcmp(got, want, n) == 0;
    free(got);
    return ok;
}

int main(void) {
    check_seed("test_file_write");
    char dir[] = "/tmp/cuzk-file-write-XXXXXX", path[256], err[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/proof", dir);
    size_t n = 1000 + (size_t)(check_rand64() % 1000);
    uint8_t *a = malloc(n), *b = malloc(n);
    check_rand_bytes(a, n);
    check_rand_bytes(b, n);

    CHECK(file_write_atomic(path, a, n, err, sizeof err) == 0);
    CHECK(holds(path, a, n));
    CHECK(file_write_atomic(path, b, n / 2, err, sizeof err) == 0); /* replaced whole */
    CHECK(holds(path, b, n / 2));
    CHECK(entries(dir) == 1);

    file_atomic w;
    CHECK(file_atomic_open(&w, path, err, sizeof err) == 0);
    CHECK(fwrite(a, 1, n, w.f) == n);
    CHECK(entries(dir) == 2); /* the temporary beside it */
    file_atomic_abort(&w);
    CHECK(holds(path, b, n / 2) && entries(dir) == 1);

    CHECK(file_atomic_open(&w, path, err, sizeof err) == 0);
    CHECK(fwrite(a, 1, n, w.f) == n);
    CHECK(file_atomic_commit(&w, err, sizeof err) == 0);
    CHECK(holds(path, a, n) && entries(dir) == 1);

    /* a directory under the real name: the rename fails, the temporary goes */
    char sub[300];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    CHECK(mkdir(sub, 0700) == 0);
    snprintf(sub + strlen(sub), sizeof sub - strlen(sub), "/x");
    CHECK(mkdir(sub, 0700) == 0);
    sub[strlen(sub) - 2] = 0;
    CHECK(file_write_atomic(sub, a, n, err, sizeof err) != 0 && strstr(err, "cannot write"));
    CHECK(entries(dir) == 2); /* proof and sub, no temporary */
    snprintf(sub + strlen(sub), sizeof sub - strlen(sub), "/x");
    CHECK(rmdir(sub) == 0);
    sub[strlen(sub) - 2] = 0;
    CHECK(rmdir(sub) == 0);

    CHECK(file_write_atomic("/nonexistent-dir/proof", a, n, err, sizeof err) != 0 &&
          strstr(err, "cannot create"));
    unlink(path);
    CHECK(rmdir(dir) == 0);
    free(a);
    free(b);
    return check_finish();
}
