/* The .params file (bellperson 0.27 Parameters::write): the .vk layout (vk.h),
 * then five vectors, each a u32 big-endian count followed by uncompressed
 * points:
 *
 *   h     G1, m - 1 points (m = the FFT domain size)
 *   l     G1, one per aux variable
 *   a     G1, every input (ONE included), then the aux variables that occur in A
 *   b_g1  G1, the inputs that occur in B, then the aux variables that occur in B
 *   b_g2  G2, the same index set as b_g1
 *
 * Opening maps the file and validates its structure up front: the vk (fully
 * checked), each count against the remaining length, b_g1 and b_g2 of equal
 * length, a at least as long as the inputs, no trailing bytes.  Points are
 * decoded only on request, by range, into caller arrays, at a chosen check
 * level (point_io.h), with an identity point rejected ("point at infinity"),
 * as bellperson's readers do.  A 32 GiB PoRep file is about 44 GiB: nothing
 * here copies it. */
#ifndef CUZK_GROTH16_PARAMS_H
#define CUZK_GROTH16_PARAMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "groth16/error.h"
#include "groth16/point_io.h"
#include "groth16/vk.h"

typedef enum {
    GROTH16_SEC_H = 0,
    GROTH16_SEC_L,
    GROTH16_SEC_A,
    GROTH16_SEC_B_G1,
    GROTH16_SEC_B_G2,
    GROTH16_SECTIONS
} groth16_section;

/* "h", "l", "a", "b_g1", "b_g2". */
const char *groth16_section_name(groth16_section s);

typedef struct {
    uint64_t count_offset; /* file offset of the u32 count */
    uint64_t offset;       /* file offset of point 0 */
    size_t count;          /* points in the section */
    size_t point_bytes;    /* 96 (G1) or 192 (G2) */
} groth16_section_layout;

typedef struct {
    size_t n_ic;     /* vk ic points: the inputs, ONE included */
    size_t vk_bytes; /* the vk's size, = sec[GROTH16_SEC_H].count_offset */
    groth16_section_layout sec[GROTH16_SECTIONS];
    size_t a_inputs; /* a[0 .. a_inputs) are the inputs' points (= n_ic) */
    size_t a_aux;    /* a[a_inputs .. a_inputs + a_aux) the aux variables' */
    uint64_t total_bytes;
} groth16_params_layout;

typedef struct {
    const uint8_t *data; /* the whole file */
    size_t len;
    void *map; /* non-NULL when groth16_params_open mapped it */
    groth16_vk vk;
    groth16_params_layout layout;
} groth16_params;

/* Maps path read-only and parses it; groth16_params_close unmaps. */
groth16_status groth16_params_open(groth16_params *p, const char *path, groth16_error *err);
/* Parses a buffer the caller keeps alive until groth16_params_close. */
groth16_status groth16_params_parse(groth16_params *p, const uint8_t *data, size_t len,
                                    groth16_error *err);
/* Frees the vk and unmaps; safe on a zeroed or failed struct. */
void groth16_params_close(groth16_params *p);

/* Decodes points [start, start + count) of a G1 section (h, l, a, b_g1) or of
 * b_g2 into out, using up to `threads` threads (0 = 1).  On failure the
 * message names the lowest bad index and its file offset, e.g.
 * "params: l[17] at offset 5236: point at infinity"; out is then partly
 * written.  A range outside the section, or a section of the other group, is
 * GROTH16_ERR_ARG. */
groth16_status groth16_params_read_g1(const groth16_params *p, groth16_section sec, size_t start,
                                      size_t count, g1_affine *out, groth16_check check,
                                      unsigned threads, groth16_error *err);
groth16_status groth16_params_read_g2(const groth16_params *p, groth16_section sec, size_t start,
                                      size_t count, g2_affine *out, groth16_check check,
                                      unsigned threads, groth16_error *err);

/* ---- writing ------------------------------------------------------------------
 * The writer streams to a FILE in 64 KiB-ish blocks and encodes what it is
 * given, identity points included (so tests can build bad files). */
typedef struct {
    const groth16_vk *vk;
    const g1_affine *h;
    size_t n_h;
    const g1_affine *l;
    size_t n_l;
    const g1_affine *a;
    size_t n_a;
    const g1_affine *b_g1; /* n_b points each */
    const g2_affine *b_g2;
    size_t n_b;
    /* Optional: the opened file the points come from.  A section whose array
     * is NULL while file is set is not on the host: its readers take it from
     * the file a range at a time (groth16_params_data_g1/_g2), so no copy of
     * the parameters stays in memory (a GPU keeps its own).  file_chunk: the
     * points such readers decode at once (0: GROTH16_PARAMS_CHUNK). */
    const groth16_params *file;
    size_t file_chunk;
} groth16_params_data;

#define GROTH16_PARAMS_CHUNK ((size_t)1 << 20)

/* d's points chunk for readers of file-backed sections (>= 64, a multiple of 64). */
size_t groth16_params_data_chunk(const groth16_params_data *d);
/* 1 when every section of d is in memory (none is read from d->file). */
int groth16_params_data_on_host(const groth16_params_data *d);
/* Points [start, start + count) of section sec of d (h, l, a, b_g1 / b_g2):
 * d's own array from start when it has one, else decoded from d->file into
 * buf (count entries) at the curve check level, the file's pages for the
 * range then given back.  NULL with err filled on a bad point or range. */
const g1_affine *groth16_params_data_g1(const groth16_params_data *d, groth16_section sec,
                                        size_t start, size_t count, g1_affine *buf,
                                        unsigned threads, groth16_error *err);
const g2_affine *groth16_params_data_g2(const groth16_params_data *d, size_t start, size_t count,
                                        g2_affine *buf, unsigned threads, groth16_error *err);

/* Gives back the mapped pages holding points [start, start + count) of sec
 * (whole pages only; the page cache keeps them, the process no longer
 * counts them).  Nothing for a parsed buffer. */
void groth16_params_drop_pages(const groth16_params *p, groth16_section sec, size_t start,
                               size_t count);

/* The file size the data will have. */
uint64_t groth16_params_size(const groth16_params_data *d);
groth16_status groth16_params_write(FILE *f, const groth16_params_data *d, groth16_error *err);

/* The pieces, for producers that make a section in chunks: write the vk, then
 * per section its count and then its points in as many calls as they like. */
groth16_status groth16_params_write_count(FILE *f, size_t n, groth16_error *err);
groth16_status groth16_params_write_g1s(FILE *f, const g1_affine *pts, size_t n,
                                        groth16_error *err);
groth16_status groth16_params_write_g2s(FILE *f, const g2_affine *pts, size_t n,
                                        groth16_error *err);

#endif
