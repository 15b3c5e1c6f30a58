/* The .pce file: write (atomic, checksummed) and open (mmap, full validation).
 * Layout in pce.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "field/constants.h"
#include "r1cs/pce.h"
#include "util/checksum.h"
#include "util/err.h"
#include "util/file_write.h"
#include "util/parallel.h"

#define HEADER_BYTES 4096u
#define ALIGN 4096u
static const char MAGIC[8] = {'C', 'U', 'Z', 'K', 'P', 'C', 'E', 0};

typedef struct {
    uint32_t kind, reserved;
    uint64_t offset, bytes, first_digest; /* first_digest: index in DIGESTS */
} sec_entry;

typedef struct {
    char magic[8];
    uint32_t version, header_bytes, flags, circuit_version; /* flags bit 0: u32 coefficients */
    char circuit_id[64];
    char params_stem[256];
    uint64_t rows, circuit_rows, num_inputs, num_aux;
    uint64_t nnz[3], density[3];
    uint32_t dict_len, n_segments;
    uint64_t build_ms, chunk_bytes, file_bytes;
    uint32_t n_sections, reserved;
    uint64_t digests_checksum; /* checksum64 of the DIGESTS section */
    sec_entry sec[PCE_SECTIONS];
    uint64_t header_checksum; /* of the 4096 header bytes with this field zeroed */
} pce_header;

_Static_assert(sizeof(pce_header) <= HEADER_BYTES, "header fits its block");
_Static_assert(sizeof(r1cs_segment_mark) == 32, "segment record layout");

static const char *const SEC_NAMES[PCE_SECTIONS + 1] = {
    "?",     "DICT",   "ROWPTR_A", "ROWPTR_B", "ROWPTR_C", "COL_A",    "COL_B",
    "COL_C", "COEF_A", "COEF_B",   "COEF_C",   "DENSITY",  "SEGMENTS", "DIGESTS"};

const char *pce_section_name(unsigned kind) {
    return kind >= 1 && kind <= PCE_SECTIONS ? SEC_NAMES[kind] : "?";
}

static uint64_t density_words(uint64_t num_inputs, uint64_t num_aux) {
    return 2 * r1cs_bitmap_words(num_aux) + r1cs_bitmap_words(num_inputs);
}

static uint64_t chunks(uint64_t bytes) { return (bytes + PCE_CHUNK - 1) / PCE_CHUNK; }

/* Section sizes from the counts (DIGESTS from the others). */
static void section_sizes(uint64_t out[PCE_SECTIONS + 1], uint64_t rows, uint64_t num_inputs,
                          uint64_t num_aux, const uint64_t nnz[3], uint32_t dict_len,
                          uint32_t width, uint32_t n_segments) {
    out[0] = 0;
    out[PCE_SEC_DICT] = (uint64_t)dict_len * (sizeof(fr) + 2);
    for (int m = 0; m < 3; m++) {
        out[PCE_SEC_ROWPTR_A + m] = (rows + 1) * 4;
        out[PCE_SEC_COL_A + m] = nnz[m] * 4;
        out[PCE_SEC_COEF_A + m] = nnz[m] * width;
    }
    out[PCE_SEC_DENSITY] = density_words(num_inputs, num_aux) * 8;
    out[PCE_SEC_SEGMENTS] = (uint64_t)n_segments * sizeof(r1cs_segment_mark);
    uint64_t n = 0;
    for (unsigned k = 1; k < PCE_SEC_DIGESTS; k++)
        n += chunks(out[k]);
    out[PCE_SEC_DIGESTS] = n * 8;
}

uint64_t pce_section_bytes(const r1cs_pce *p, unsigned kind) {
    uint64_t s[PCE_SECTIONS + 1];
    section_sizes(s, p->rows, p->num_inputs, p->num_aux, p->nnz, p->dict_len, p->coef_width,
                  p->n_segments);
    return kind >= 1 && kind <= PCE_SECTIONS ? s[kind] : 0;
}

static uint64_t align_up(uint64_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

/* ---- checksums of every chunk, in parallel ----------------------------------- */

typedef struct {
    const unsigned char *base[PCE_SECTIONS + 1];
    uint64_t bytes[PCE_SECTIONS + 1];
    uint64_t first[PCE_SECTIONS + 1]; /* first digest index per section */
    uint64_t n;                       /* digests */
    uint64_t *out;
} digest_job;

static uint64_t chunk_seed(unsigned kind, uint64_t chunk) { return ((uint64_t)kind << 40) ^ chunk; }

static void digest_task(void *vctx, size_t task, unsigned worker) {
    (void)worker;
    digest_job *j = vctx;
    unsigned k = 1;
    while (k + 1 < PCE_SEC_DIGESTS && task >= j->first[k + 1])
        k++;
    uint64_t c = task - j->first[k], off = c * PCE_CHUNK, n = j->bytes[k] - off;
    if (n > PCE_CHUNK)
        n = PCE_CHUNK;
    j->out[task] = checksum64(j->base[k] + off, n, chunk_seed(k, c));
}

static void digest_layout(digest_job *j, const uint64_t sizes[PCE_SECTIONS + 1]) {
    j->n = 0;
    for (unsigned k = 1; k < PCE_SEC_DIGESTS; k++) {
        j->bytes[k] = sizes[k];
        j->first[k] = j->n;
        j->n += chunks(sizes[k]);
    }
}

/* ---- write ---------------------------------------------------------------------- */

int pce_write(const r1cs_pce *p, const char *path, unsigned threads, char *err, size_t cap) {
    uint64_t sizes[PCE_SECTIONS + 1];
    section_sizes(sizes, p->rows, p->num_inputs, p->num_aux, p->nnz, p->dict_len, p->coef_width,
                  p->n_segments);
    /* DICT and DENSITY as one block each */
    const uint64_t wa = r1cs_bitmap_words(p->num_aux), wi = r1cs_bitmap_words(p->num_inputs);
    unsigned char *dict = malloc(sizes[PCE_SEC_DICT] + 1);
    uint64_t *dens = malloc(sizes[PCE_SEC_DENSITY] + 8);
    digest_job j = {0};
    digest_layout(&j, sizes);
    j.out = malloc((j.n + 1) * 8);
    if (!dict || !dens || !j.out) {
        free(dict);
        free(dens);
        free(j.out);
        return err_set(err, cap, "out of memory writing %s", path);
    }
    memcpy(dict, p->dict, (size_t)p->dict_len * sizeof(fr));
    memcpy(dict + (size_t)p->dict_len * sizeof(fr), p->dict_class, p->dict_len);
    memcpy(dict + (size_t)p->dict_len * (sizeof(fr) + 1), p->dict_k, p->dict_len);
    memcpy(dens, p->a_aux, wa * 8);
    memcpy(dens + wa, p->b_input, wi * 8);
    memcpy(dens + wa + wi, p->b_aux, wa * 8);
    const void *data[PCE_SECTIONS + 1] = {0};
    data[PCE_SEC_DICT] = dict;
    for (int m = 0; m < 3; m++) {
        data[PCE_SEC_ROWPTR_A + m] = p->row_ptr[m];
        data[PCE_SEC_COL_A + m] = p->col[m];
        data[PCE_SEC_COEF_A + m] = p->coef[m];
    }
    data[PCE_SEC_DENSITY] = dens;
    data[PCE_SEC_SEGMENTS] = p->segments;
    data[PCE_SEC_DIGESTS] = j.out;
    for (unsigned k = 1; k < PCE_SEC_DIGESTS; k++)
        j.base[k] = data[k];
    par_run(threads, j.n, digest_task, &j);

    pce_header h; /* zeroed whole below: its padding is checksummed too */
    unsigned char block[HEADER_BYTES];
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MAGIC, 8);
    h.version = PCE_VERSION;
    h.header_bytes = HEADER_BYTES;
    h.flags = p->coef_width == 4 ? 1u : 0u;
    h.circuit_version = p->circuit_version;
    memcpy(h.circuit_id, p->circuit_id, sizeof h.circuit_id);
    memcpy(h.params_stem, p->params_stem, sizeof h.params_stem);
    h.rows = p->rows;
    h.circuit_rows = p->circuit_rows;
    h.num_inputs = p->num_inputs;
    h.num_aux = p->num_aux;
    for (int m = 0; m < 3; m++) {
        h.nnz[m] = p->nnz[m];
        h.density[m] = p->density[m];
    }
    h.dict_len = p->dict_len;
    h.n_segments = p->n_segments;
    h.build_ms = p->build_ms;
    h.chunk_bytes = PCE_CHUNK;
    h.n_sections = PCE_SECTIONS;
    h.digests_checksum = checksum64(j.out, sizes[PCE_SEC_DIGESTS], chunk_seed(PCE_SEC_DIGESTS, 0));
    uint64_t off = HEADER_BYTES;
    for (unsigned k = 1; k <= PCE_SECTIONS; k++) {
        h.sec[k - 1] = (sec_entry){k, 0, off, sizes[k], k < PCE_SEC_DIGESTS ? j.first[k] : 0};
        off = align_up(off + sizes[k]);
    }
    h.file_bytes = off;
    memset(block, 0, sizeof block);
    memcpy(block, &h, sizeof h);
    h.header_checksum = checksum64(block, HEADER_BYTES, 0);
    memcpy(block, &h, sizeof h);

    file_atomic fa;
    int rc = -1;
    static const unsigned char zeros[ALIGN];
    if (file_atomic_open(&fa, path, err, cap) == 0) {
        int ok = fwrite(block, 1, HEADER_BYTES, fa.f) == HEADER_BYTES;
        for (unsigned k = 1; k <= PCE_SECTIONS && ok; k++) {
            uint64_t n = sizes[k],
                     pad = align_up(h.sec[k - 1].offset + n) - h.sec[k - 1].offset - n;
            ok = (n == 0 || fwrite(data[k], 1, n, fa.f) == n) &&
                 (pad == 0 || fwrite(zeros, 1, pad, fa.f) == pad);
        }
        if (!ok) {
            err_set(err, cap, "writing %s: %s", fa.tmp, strerror(errno));
            file_atomic_abort(&fa);
        } else {
            rc = file_atomic_commit(&fa, err, cap);
        }
    }
    free(dict);
    free(dens);
    free(j.out);
    return rc;
}

/* ---- open and validate ----------------------------------------------------------- */

/* Structural checks in parallel: each task a piece of one array. */
typedef struct {
    const r1cs_pce *p;
    uint64_t piece;      /* entries per task */
    size_t first[10];    /* first task of: rowptr A/B/C, col A/B/C, coef A/B/C, end */
    _Atomic int bad;     /* 0, or the first failing kind seen (1-based section kind) */
    _Atomic uint64_t at; /* its entry */
} struct_job;

static void struct_task(void *vctx, size_t task, unsigned worker) {
    (void)worker;
    struct_job *j = vctx;
    const r1cs_pce *p = j->p;
    unsigned a = 0;
    while (task >= j->first[a + 1])
        a++;
    const int m = (int)(a % 3), what = (int)(a / 3); /* 0 rowptr, 1 col, 2 coef */
    const uint64_t n = what == 0 ? p->rows : p->nnz[m];
    uint64_t lo = (task - j->first[a]) * j->piece, hi = lo + j->piece;
    if (hi > n)
        hi = n;
    uint64_t fail = UINT64_MAX;
    if (what == 0) {
        const uint32_t *r = p->row_ptr[m];
        for (uint64_t i = lo; i < hi && fail == UINT64_MAX; i++)
            if (r[i + 1] < r[i])
                fail = i;
    } else if (what == 1) {
        const uint32_t *c = p->col[m];
        for (uint64_t i = lo; i < hi && fail == UINT64_MAX; i++) {
            uint32_t v = c[i];
            if ((v & PCE_INPUT_TAG) ? (v & R1CS_MAX_INDEX) >= p->num_inputs : v >= p->num_aux)
                fail = i;
        }
    } else if (p->coef_width == 2) {
        const uint16_t *c = p->coef[m];
        for (uint64_t i = lo; i < hi && fail == UINT64_MAX; i++)
            if (c[i] >= p->dict_len)
                fail = i;
    } else {
        const uint32_t *c = p->coef[m];
        for (uint64_t i = lo; i < hi && fail == UINT64_MAX; i++)
            if (c[i] >= p->dict_len)
                fail = i;
    }
    if (fail != UINT64_MAX) {
        int expect = 0;
        unsigned kind = (what == 0   ? PCE_SEC_ROWPTR_A
                         : what == 1 ? PCE_SEC_COL_A
                                     : PCE_SEC_COEF_A) +
                        (unsigned)m;
        if (atomic_compare_exchange_strong(&j->bad, &expect, (int)kind))
            atomic_store(&j->at, fail);
    }
}

static int fr_canonical(const fr *x) {
    for (int i = 3; i >= 0; i--) {
        if (x->l[i] != FR_MODULUS_RAW.l[i])
            return x->l[i] < FR_MODULUS_RAW.l[i];
    }
    return 0;
}

static int tail_clear(const uint64_t *w, uint64_t nbits) {
    return nbits % 64 == 0 || (w[nbits / 64] >> (nbits % 64)) == 0;
}

/* Everything after the mapping: header, sections, checksums, structure. */
static int validate(r1cs_pce *p, const unsigned char *map, uint64_t size, const char *path,
                    const pce_expect *ex, unsigned threads, int full, char *err, size_t cap) {
    pce_header h;
    if (size < sizeof MAGIC || memcmp(map, MAGIC, sizeof MAGIC) != 0)
        return err_set(err, cap, "%s: not a PCE file (bad magic)", path);
    if (size < HEADER_BYTES)
        return err_set(err, cap, "%s: truncated: %llu bytes, shorter than the header", path,
                       (unsigned long long)size);
    memcpy(&h, map, sizeof h);
    if (h.version != PCE_VERSION)
        return err_set(err, cap, "%s: PCE format version %u, this build reads version %u", path,
                       h.version, PCE_VERSION);
    {
        unsigned char block[HEADER_BYTES];
        memcpy(block, map, HEADER_BYTES);
        memset(block + offsetof(pce_header, header_checksum), 0, 8);
        if (h.header_bytes != HEADER_BYTES ||
            checksum64(block, HEADER_BYTES, 0) != h.header_checksum)
            return err_set(err, cap, "%s: header checksum mismatch (corrupt header)", path);
    }
    if (h.circuit_version != PCE_CIRCUIT_VERSION)
        return err_set(err, cap,
                       "%s: recorded by circuit version %u, this build's circuits are version %u "
                       "(stale file: rebuild it)",
                       path, h.circuit_version, PCE_CIRCUIT_VERSION);
    if (h.file_bytes != size)
        return err_set(err, cap, "%s: %s: %llu bytes, the header says %llu", path,
                       size < h.file_bytes ? "truncated" : "trailing bytes",
                       (unsigned long long)size, (unsigned long long)h.file_bytes);
    h.circuit_id[sizeof h.circuit_id - 1] = 0;
    h.params_stem[sizeof h.params_stem - 1] = 0;
    if (ex && ex->circuit_id && ex->circuit_id[0] && strcmp(ex->circuit_id, h.circuit_id) != 0)
        return err_set(err, cap, "%s: shape mismatch: recorded for circuit \"%s\", expected \"%s\"",
                       path, h.circuit_id, ex->circuit_id);
    if (ex &&
        ((ex->rows && ex->rows != h.rows) || (ex->num_inputs && ex->num_inputs != h.num_inputs) ||
         (ex->num_aux && ex->num_aux != h.num_aux)))
        return err_set(err, cap,
                       "%s: shape mismatch: %llu rows, %llu inputs, %llu aux recorded; expected "
                       "%llu, %llu, %llu",
                       path, (unsigned long long)h.rows, (unsigned long long)h.num_inputs,
                       (unsigned long long)h.num_aux, (unsigned long long)ex->rows,
                       (unsigned long long)ex->num_inputs, (unsigned long long)ex->num_aux);
    if (h.rows >= UINT32_MAX || h.rows < h.num_inputs || h.circuit_rows + h.num_inputs != h.rows ||
        h.num_inputs == 0 || h.num_inputs > R1CS_MAX_INDEX || h.num_aux > R1CS_MAX_INDEX ||
        h.dict_len < 2 || (h.flags & ~1u) || (!(h.flags & 1) && h.dict_len > 65536) ||
        h.chunk_bytes != PCE_CHUNK || h.n_sections != PCE_SECTIONS)
        return err_set(err, cap, "%s: inconsistent header counts", path);
    for (int m = 0; m < 3; m++)
        if (h.nnz[m] > UINT32_MAX)
            return err_set(err, cap, "%s: inconsistent header counts", path);
    uint64_t sizes[PCE_SECTIONS + 1];
    const uint32_t width = (h.flags & 1) ? 4 : 2;
    section_sizes(sizes, h.rows, h.num_inputs, h.num_aux, h.nnz, h.dict_len, width, h.n_segments);
    digest_job j = {0};
    digest_layout(&j, sizes);
    uint64_t prev_end = HEADER_BYTES;
    for (unsigned k = 1; k <= PCE_SECTIONS; k++) {
        const sec_entry *s = &h.sec[k - 1];
        if (s->kind != k || s->offset % ALIGN || s->offset < prev_end || s->bytes != sizes[k] ||
            s->offset > size || s->bytes > size - s->offset ||
            (k < PCE_SEC_DIGESTS && s->first_digest != j.first[k]))
            return err_set(err, cap, "%s: section %s: bad table entry or out of the file's bounds",
                           path, pce_section_name(k));
        prev_end = s->offset + s->bytes;
        j.base[k] = map + s->offset;
    }
    const uint64_t *digests = (const uint64_t *)(map + h.sec[PCE_SEC_DIGESTS - 1].offset);
    if (checksum64(digests, sizes[PCE_SEC_DIGESTS], chunk_seed(PCE_SEC_DIGESTS, 0)) !=
        h.digests_checksum)
        return err_set(err, cap, "%s: checksum of section DIGESTS mismatch", path);
    j.out = full ? malloc((j.n + 1) * 8) : NULL;
    if (full && !j.out)
        return err_set(err, cap, "out of memory checking %s", path);
    if (full)
        par_run(threads, j.n, digest_task, &j);
    for (uint64_t t = 0; full && t < j.n; t++)
        if (j.out[t] != digests[t]) {
            unsigned k = 1;
            while (k + 1 < PCE_SEC_DIGESTS && t >= j.first[k + 1])
                k++;
            free(j.out);
            return err_set(err, cap, "%s: checksum of section %s (chunk %llu) mismatch", path,
                           pce_section_name(k), (unsigned long long)(t - j.first[k]));
        }
    free(j.out);

    /* the fields, then the structure */
    memcpy(p->circuit_id, h.circuit_id, sizeof p->circuit_id);
    memcpy(p->params_stem, h.params_stem, sizeof p->params_stem);
    p->circuit_version = h.circuit_version;
    p->rows = h.rows;
    p->circuit_rows = h.circuit_rows;
    p->num_inputs = h.num_inputs;
    p->num_aux = h.num_aux;
    for (int m = 0; m < 3; m++) {
        p->nnz[m] = h.nnz[m];
        p->density[m] = h.density[m];
        p->row_ptr[m] = (const uint32_t *)j.base[PCE_SEC_ROWPTR_A + m];
        p->col[m] = (const uint32_t *)j.base[PCE_SEC_COL_A + m];
        p->coef[m] = j.base[PCE_SEC_COEF_A + m];
    }
    p->dict_len = h.dict_len;
    p->coef_width = width;
    p->n_segments = h.n_segments;
    p->build_ms = h.build_ms;
    p->dict = (const fr *)j.base[PCE_SEC_DICT];
    p->dict_class = j.base[PCE_SEC_DICT] + (size_t)h.dict_len * sizeof(fr);
    p->dict_k = p->dict_class + h.dict_len;
    const uint64_t wa = r1cs_bitmap_words(h.num_aux), wi = r1cs_bitmap_words(h.num_inputs);
    p->a_aux = (const uint64_t *)j.base[PCE_SEC_DENSITY];
    p->b_input = p->a_aux + wa;
    p->b_aux = p->b_input + wi;
    p->segments = (const r1cs_segment_mark *)j.base[PCE_SEC_SEGMENTS];
    p->file_bytes = size;

    for (int m = 0; m < 3; m++)
        if (p->row_ptr[m][0] != 0 || p->row_ptr[m][p->rows] != p->nnz[m])
            return err_set(err, cap, "%s: section %s: row pointers do not span the %llu terms",
                           path, pce_section_name(PCE_SEC_ROWPTR_A + (unsigned)m),
                           (unsigned long long)p->nnz[m]);
    struct_job sj = {.p = p, .piece = (uint64_t)4 << 20};
    size_t t = 0;
    for (unsigned a = 0; a < 9; a++) {
        sj.first[a] = t;
        uint64_t n = a < 3 ? p->rows : p->nnz[a % 3];
        t += (size_t)((n + sj.piece - 1) / sj.piece);
    }
    sj.first[9] = t;
    if (full)
        par_run(threads, t, struct_task, &sj);
    if (sj.bad)
        return err_set(err, cap, "%s: section %s: entry %llu is %s", path,
                       pce_section_name((unsigned)sj.bad), (unsigned long long)sj.at,
                       sj.bad <= PCE_SEC_ROWPTR_C ? "below its predecessor (not monotone)"
                       : sj.bad <= PCE_SEC_COL_C  ? "not an allocated variable"
                                                  : "past the dictionary");
    uint8_t *cls = malloc(2 * (size_t)p->dict_len);
    if (!cls)
        return err_set(err, cap, "out of memory checking %s", path);
    pce_classify(p->dict, p->dict_len, cls, cls + p->dict_len);
    int dict_ok = memcmp(cls, p->dict_class, 2 * (size_t)p->dict_len) == 0 &&
                  memcmp(&p->dict[0], &FR_ONE, sizeof(fr)) == 0 && cls[1] == PCE_MINUS_ONE;
    free(cls);
    for (uint32_t i = 0; i < p->dict_len && dict_ok; i++)
        dict_ok = fr_canonical(&p->dict[i]);
    if (!dict_ok)
        return err_set(err, cap, "%s: section DICT: entries not canonical or classes wrong", path);
    if (!tail_clear(p->a_aux, p->num_aux) || !tail_clear(p->b_input, p->num_inputs) ||
        !tail_clear(p->b_aux, p->num_aux) ||
        r1cs_bitmap_popcount(p->a_aux, p->num_aux) != p->density[0] ||
        r1cs_bitmap_popcount(p->b_input, p->num_inputs) != p->density[1] ||
        r1cs_bitmap_popcount(p->b_aux, p->num_aux) != p->density[2])
        return err_set(err, cap, "%s: section DENSITY: bits disagree with the header's counts",
                       path);
    for (uint32_t i = 0; i < p->n_segments; i++) {
        const r1cs_segment_mark *s = &p->segments[i], *q = i ? s - 1 : NULL;
        if (s->row > p->circuit_rows || s->aux > p->num_aux || s->input > p->num_inputs ||
            (q && (s->row < q->row || s->aux < q->aux || s->input < q->input)))
            return err_set(err, cap, "%s: section SEGMENTS: mark %u out of order or bounds", path,
                           i);
    }
    if (pce_make_tasks(p))
        return err_set(err, cap, "out of memory opening %s", path);
    return 0;
}

int pce_open_mode(const char *path, const pce_expect *expect, unsigned threads, int full,
                  r1cs_pce *out, char *err, size_t cap) {
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(err, cap, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return err_set(err, cap, "%s: not a regular file", path);
    }
    uint64_t size = (uint64_t)st.st_size;
    if (size == 0) {
        close(fd);
        return err_set(err, cap, "%s: not a PCE file (empty)", path);
    }
    void *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return err_set(err, cap, "%s: mmap: %s", path, strerror(errno));
    out->map = map;
    out->map_bytes = size;
    if (validate(out, map, size, path, expect, threads, full, err, cap) != 0) {
        pce_free(out);
        return -1;
    }
    return 0;
}

int pce_open(const char *path, const pce_expect *expect, unsigned threads, r1cs_pce *out, char *err,
             size_t cap) {
    return pce_open_mode(path, expect, threads, 1, out, err, cap);
}
