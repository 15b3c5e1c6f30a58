/* C1 codec speed and memory on a synthetic output (random values in the
 * registered proof's shape; 32 GiB: 10 x 18 challenges, ~39 MB of JSON).
 *
 * The parent writes the bare JSON and the Curio wrapper to a temporary
 * folder, then runs each measurement in a fresh child process (this program
 * again), so every peak RSS (getrusage ru_maxrss) belongs to one operation:
 *   decode time   c1_decode on an in-memory copy, BENCH_REPS runs (default 5)
 *   decode peak   c1_decode_file: read the file, decode (a wrapper in place)
 *   encode        decode once, then c1_encode / c1_encode_wrapper, timed
 *   jansson       json_loadb of the bare file (the DOM alternative), for scale
 *                 (skipped above 100 MiB of JSON)
 * Times are min / median / max ms.
 * usage: bench_c1 [registered proof name or id] (default StackedDrg32GiBV1_1) */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filecoin/c1/c1.h"
#include "util/timing.h"

static double peak_mb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0; /* Linux: kilobytes */
}

static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int reps(void) {
    const char *e = getenv("BENCH_REPS");
    int r = e ? atoi(e) : 5;
    return r < 1 ? 1 : r > 100 ? 100 : r;
}

static void report(const char *what, double *ms, int n, size_t bytes) {
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    printf("  %-16s %8.1f / %8.1f / %8.1f ms  (%6.1f MB/s at the median)\n", what, ms[0], ms[n / 2],
           ms[n - 1], (double)bytes / 1e6 / (ms[n / 2] / 1e3));
}

static int child_decode_time(const char *path) {
    size_t len;
    uint8_t *buf = slurp(path, &len);
    if (!buf)
        return 1;
    int n = reps();
    double ms[100];
    for (int r = 0; r < n; r++) {
        c1_output *c;
        c1_error err;
        double t = timing_now_ms();
        if (c1_decode(&c, buf, len, &err) != C1_OK) {
            fprintf(stderr, "decode: %s\n", err.msg);
            return 1;
        }
        ms[r] = timing_now_ms() - t;
        c1_output_free(c);
    }
    report("decode", ms, n, len);
    free(buf);
    return 0;
}

static int child_decode_peak(const char *path) {
    double before = peak_mb();
    c1_output *c;
    c1_error err;
    double t = timing_now_ms();
    if (c1_decode_file(&c, path, &err) != C1_OK) {
        fprintf(stderr, "decode: %s\n", err.msg);
        return 1;
    }
    t = timing_now_ms() - t;
    printf("  c1_decode_file   %8.1f ms read+decode; peak RSS %.1f MB (process before: %.1f MB; "
           "decoded model %.2f MB)\n",
           t, peak_mb(), before, (double)c->bytes / 1e6);
    c1_output_free(c);
    return 0;
}

static int child_encode(const char *path) {
    c1_output *c;
    c1_error err;
    if (c1_decode_file(&c, path, &err) != C1_OK) {
        fprintf(stderr, "decode: %s\n", err.msg);
        return 1;
    }
    double base = peak_mb();
    int n = reps();
    double ms[100];
    size_t len = 0;
    for (int r = 0; r < n; r++) {
        uint8_t *out;
        double t = timing_now_ms();
        c1_status st = c->wrapped ? c1_encode_wrapper(&out, &len, c, c->sector_num, &err)
                                  : c1_encode(&out, &len, c, &err);
        ms[r] = timing_now_ms() - t;
        if (st != C1_OK) {
            fprintf(stderr, "encode: %s\n", err.msg);
            return 1;
        }
        free(out);
    }
    report(c->wrapped ? "encode_wrapper" : "encode", ms, n, len);
    printf("  encode peak RSS  %.1f MB (after decoding: %.1f MB; output %.1f MB)\n", peak_mb(),
           base, (double)len / 1e6);
    c1_output_free(c);
    return 0;
}

static int child_jansson(const char *path) {
    size_t len;
    uint8_t *buf = slurp(path, &len);
    if (!buf)
        return 1;
    double t = timing_now_ms();
    json_error_t e;
    json_t *j = json_loadb((const char *)buf, len, 0, &e);
    t = timing_now_ms() - t;
    if (!j) {
        fprintf(stderr, "jansson: %s\n", e.text);
        return 1;
    }
    printf("  jansson load     %8.1f ms (DOM only, no walk); peak RSS %.1f MB\n", t, peak_mb());
    json_decref(j);
    free(buf);
    return 0;
}

static int run_child(const char *self, const char *mode, const char *path) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl(self, self, mode, path, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int write_file(const char *path, const uint8_t *b, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(b, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc == 3 && argv[1][0] == '-') {
        if (!strcmp(argv[1], "--decode-time"))
            return child_decode_time(argv[2]);
        if (!strcmp(argv[1], "--decode-peak"))
            return child_decode_peak(argv[2]);
        if (!strcmp(argv[1], "--encode"))
            return child_encode(argv[2]);
        if (!strcmp(argv[1], "--jansson"))
            return child_jansson(argv[2]);
    }
    const char *name = argc > 1 ? argv[1] : "StackedDrg32GiBV1_1";
    const fc_seal_proof *p = fc_seal_proof_by_name(name);
    if (!p && name[0] >= '0' && name[0] <= '9')
        p = fc_seal_proof_by_id(strtoull(name, NULL, 10));
    if (!p) {
        fprintf(stderr, "usage: bench_c1 [registered proof name or id]\n");
        return 2;
    }
    c1_output *c = c1_output_alloc(p, NULL);
    if (!c)
        return 1;
    c1_output_fill_random(c, 1);
    uint8_t *bare, *wrapped;
    size_t blen, wlen;
    if (c1_encode(&bare, &blen, c, NULL) != C1_OK ||
        c1_encode_wrapper(&wrapped, &wlen, c, 1, NULL) != C1_OK)
        return 1;
    printf("bench_c1: %s, %u partitions x %u challenges, %zu nodes per challenge\n", p->name,
           c->partitions, c->challenges, c1_nodes_per_challenge(p));
    printf("decoded model: %zu bytes (%zu nodes = %.2f MB of 32-byte nodes + %zu bytes of "
           "structs)\n",
           c->bytes, c->arena_nodes, (double)c->arena_nodes * 32 / 1e6,
           c->bytes - c->arena_nodes * 32);
    printf("JSON: bare %zu bytes, Curio wrapper %zu bytes; BENCH_REPS=%d\n", blen, wlen, reps());
    c1_output_free(c);

    char dir[] = "/tmp/bench_c1.XXXXXX", fb[64], fw[64];
    if (!mkdtemp(dir))
        return 1;
    snprintf(fb, sizeof fb, "%s/c1.json", dir);
    snprintf(fw, sizeof fw, "%s/c1-wrapper.json", dir);
    int bad = write_file(fb, bare, blen) || write_file(fw, wrapped, wlen);
    free(bare);
    free(wrapped);
    const char *self = "/proc/self/exe";
    char exe[4096];
    ssize_t n = readlink(self, exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        self = exe;
    }
    if (!bad) {
        printf("bare JSON:\n");
        bad |= run_child(self, "--decode-time", fb);
        bad |= run_child(self, "--decode-peak", fb);
        bad |= run_child(self, "--encode", fb);
        if (blen < ((size_t)100 << 20)) /* a DOM of more would not fit small machines */
            bad |= run_child(self, "--jansson", fb);
        printf("Curio wrapper (base64):\n");
        bad |= run_child(self, "--decode-time", fw);
        bad |= run_child(self, "--decode-peak", fw);
        bad |= run_child(self, "--encode", fw);
    }
    unlink(fb);
    unlink(fw);
    rmdir(dir);
    return bad ? 1 : 0;
}
