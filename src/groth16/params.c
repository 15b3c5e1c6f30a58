/* .params reader: structure first, points on demand (see params.h).
 *
 * Opening costs one pass over the 868 + 96 n_ic bytes of the vk and five u32
 * reads; no other page of the file is touched until the prover asks for a
 * range.  Range decoding splits into blocks handed out by par_run; a shared
 * "lowest bad index" lets workers stop early, and the failing point is decoded
 * once more at the end so the message is the same for any thread count. */
#include "groth16/params.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/parallel.h"

enum {
    DECODE_BLOCK = 1024
}; /* points per task: enough subgroup checks to outweigh the task's cost */

static const char *const SECTION_NAMES[GROTH16_SECTIONS] = {"h", "l", "a", "b_g1", "b_g2"};

const char *groth16_section_name(groth16_section s) {
    return (unsigned)s < GROTH16_SECTIONS ? SECTION_NAMES[s] : "?";
}

/* Section structure after the vk; all lengths checked against len. */
static groth16_status parse_sections(groth16_params_layout *lay, const uint8_t *data, size_t len,
                                     groth16_error *err) {
    uint64_t off = lay->vk_bytes;
    for (int s = 0; s < GROTH16_SECTIONS; s++) {
        groth16_section_layout *sec = &lay->sec[s];
        sec->point_bytes = s == GROTH16_SEC_B_G2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
        sec->count_offset = off;
        if (len - off < 4)
            return groth16_fail(err, GROTH16_ERR_TRUNCATED,
                                "params: truncated: need 4 bytes for the %s count at offset %llu,"
                                " file ends at %zu",
                                SECTION_NAMES[s], (unsigned long long)off, len);
        sec->count = groth16_get_be32(data + off);
        sec->offset = off + 4;
        uint64_t bytes = (uint64_t)sec->count * sec->point_bytes;
        if (len - sec->offset < bytes)
            return groth16_fail(err, GROTH16_ERR_TRUNCATED,
                                "params: truncated: %s has %zu points (%llu bytes from offset "
                                "%llu), file ends at %zu",
                                SECTION_NAMES[s], sec->count, (unsigned long long)bytes,
                                (unsigned long long)sec->offset, len);
        off = sec->offset + bytes;
    }
    lay->total_bytes = off;
    if (off != len)
        return groth16_fail(err, GROTH16_ERR_TRAILING,
                            "params: %llu trailing bytes at offset %llu after b_g2",
                            (unsigned long long)(len - off), (unsigned long long)off);
    const groth16_section_layout *b1 = &lay->sec[GROTH16_SEC_B_G1],
                                 *b2 = &lay->sec[GROTH16_SEC_B_G2];
    if (b1->count != b2->count)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "params: b_g1 has %zu points (count at offset %llu) but b_g2 has %zu "
                            "(count at offset %llu); they share one index set",
                            b1->count, (unsigned long long)b1->count_offset, b2->count,
                            (unsigned long long)b2->count_offset);
    const groth16_section_layout *a = &lay->sec[GROTH16_SEC_A];
    if (a->count < lay->n_ic)
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "params: a has %zu points (count at offset %llu), fewer than the %zu "
                            "inputs of the vk; every input has an a point",
                            a->count, (unsigned long long)a->count_offset, lay->n_ic);
    lay->a_inputs = lay->n_ic;
    lay->a_aux = a->count - lay->n_ic;
    return GROTH16_OK;
}

static groth16_status parse_into(groth16_params *p, const uint8_t *data, size_t len, void *map,
                                 groth16_error *err) {
    memset(p, 0, sizeof *p);
    p->map = map;
    p->data = data;
    p->len = len;
    groth16_error vk_err;
    size_t used;
    groth16_status s = groth16_vk_read(&p->vk, data, len, &used, &vk_err);
    if (s != GROTH16_OK)
        return groth16_fail(err, s, "params: %s", vk_err.msg);
    p->layout.n_ic = p->vk.n_ic;
    p->layout.vk_bytes = used;
    s = parse_sections(&p->layout, data, len, err);
    if (s != GROTH16_OK)
        groth16_vk_free(&p->vk);
    return s;
}

groth16_status groth16_params_parse(groth16_params *p, const uint8_t *data, size_t len,
                                    groth16_error *err) {
    return parse_into(p, data, len, NULL, err);
}

groth16_status groth16_params_open(groth16_params *p, const char *path, groth16_error *err) {
    memset(p, 0, sizeof *p);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return groth16_fail(err, GROTH16_ERR_IO, "params: cannot open %s: %s", path,
                            strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return groth16_fail(err, GROTH16_ERR_IO, "params: cannot stat %s: %s", path, strerror(e));
    }
    size_t len = (size_t)st.st_size;
    if (len == 0) { /* mmap refuses length 0; the parser names the problem */
        close(fd);
        return groth16_params_parse(p, (const uint8_t *)"", 0, err);
    }
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd); /* the mapping keeps the file */
    if (map == MAP_FAILED)
        return groth16_fail(err, GROTH16_ERR_IO, "params: cannot map %s (%zu bytes): %s", path, len,
                            strerror(e));
    groth16_status s = parse_into(p, map, len, map, err);
    if (s != GROTH16_OK)
        groth16_params_close(p);
    return s;
}

void groth16_params_close(groth16_params *p) {
    groth16_vk_free(&p->vk);
    if (p->map)
        munmap(p->map, p->len);
    memset(p, 0, sizeof *p);
}

/* ---- range decoding ------------------------------------------------------------ */

typedef struct {
    const uint8_t *src; /* point `start` of the section */
    size_t count, point_bytes;
    void *out;
    int g2;
    groth16_check check;
    atomic_size_t first_bad; /* lowest failing index within the range, or SIZE_MAX */
} decode_job;

/* CURVE_OK, a curve error, or -1 for a point at infinity. */
static int decode_one(const decode_job *job, size_t i) {
    const uint8_t *in = job->src + i * job->point_bytes;
    if (job->g2) {
        g2_affine *r = (g2_affine *)job->out + i;
        curve_err e = groth16_g2_decode(r, in, job->check);
        return e != CURVE_OK ? (int)e : g2_affine_is_infinity(r) ? -1 : CURVE_OK;
    }
    g1_affine *r = (g1_affine *)job->out + i;
    curve_err e = groth16_g1_decode(r, in, job->check);
    return e != CURVE_OK ? (int)e : g1_affine_is_infinity(r) ? -1 : CURVE_OK;
}

static void note_bad(decode_job *job, size_t i) {
    size_t cur = atomic_load_explicit(&job->first_bad, memory_order_relaxed);
    while (i < cur && !atomic_compare_exchange_weak_explicit(
                          &job->first_bad, &cur, i, memory_order_relaxed, memory_order_relaxed)) {
    }
}

static void decode_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    decode_job *job = ctx;
    size_t lo = task * DECODE_BLOCK, hi = lo + DECODE_BLOCK;
    if (hi > job->count)
        hi = job->count;
    for (size_t i = lo; i < hi; i++) {
        if (atomic_load_explicit(&job->first_bad, memory_order_relaxed) < i)
            return; /* an earlier point failed; this block cannot matter */
        if (decode_one(job, i) != CURVE_OK) {
            note_bad(job, i);
            return;
        }
    }
}

static groth16_status read_range(const groth16_params *p, groth16_section sec, size_t start,
                                 size_t count, void *out, int g2, groth16_check check,
                                 unsigned threads, groth16_error *err) {
    if ((unsigned)sec >= GROTH16_SECTIONS || (sec == GROTH16_SEC_B_G2) != g2)
        return groth16_fail(err, GROTH16_ERR_ARG, "params: section %s is not a %s section",
                            groth16_section_name(sec), g2 ? "G2" : "G1");
    const groth16_section_layout *lay = &p->layout.sec[sec];
    if (start > lay->count || count > lay->count - start)
        return groth16_fail(err, GROTH16_ERR_ARG,
                            "params: range [%zu, %zu + %zu) is outside %s (%zu points)", start,
                            start, count, SECTION_NAMES[sec], lay->count);
    decode_job job = {
        .src = p->data + lay->offset + (uint64_t)start * lay->point_bytes,
        .count = count,
        .point_bytes = lay->point_bytes,
        .out = out,
        .g2 = g2,
        .check = check,
    };
    atomic_init(&job.first_bad, SIZE_MAX);
    if (count > 0)
        par_run(threads, (count + DECODE_BLOCK - 1) / DECODE_BLOCK, decode_task, &job);
    size_t bad = atomic_load(&job.first_bad);
    if (bad == SIZE_MAX)
        return GROTH16_OK;
    int e = decode_one(&job, bad);
    unsigned long long off = lay->offset + (uint64_t)(start + bad) * lay->point_bytes;
    if (e < 0)
        return groth16_fail(err, GROTH16_ERR_INFINITY,
                            "params: %s[%zu] at offset %llu: point at infinity", SECTION_NAMES[sec],
                            start + bad, off);
    return groth16_fail(err, GROTH16_ERR_POINT, "params: %s[%zu] at offset %llu: %s",
                        SECTION_NAMES[sec], start + bad, off, curve_err_str((curve_err)e));
}

groth16_status groth16_params_read_g1(const groth16_params *p, groth16_section sec, size_t start,
                                      size_t count, g1_affine *out, groth16_check check,
                                      unsigned threads, groth16_error *err) {
    return read_range(p, sec, start, count, out, 0, check, threads, err);
}

groth16_status groth16_params_read_g2(const groth16_params *p, groth16_section sec, size_t start,
                                      size_t count, g2_affine *out, groth16_check check,
                                      unsigned threads, groth16_error *err) {
    return read_range(p, sec, start, count, out, 1, check, threads, err);
}
