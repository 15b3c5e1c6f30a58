/* PCE: a circuit shape's A, B, C matrices recorded once (R1CS_RECORD) and
 * evaluated against any witness of that shape (docs/PCE.md s.2, s.4).
 *
 * Compact form, the same in memory and in the .pce file:
 *   row_ptr[m]  rows + 1 u32 per matrix
 *   col[m]      nnz u32: bit 31 set = input index, else aux index
 *   coef[m]     nnz u16 (coef_width 2, when the dictionary has <= 65,536
 *               entries) or u32: index into dict; 0 = +1, 1 = -1
 *   dict        dict_len Fr (Montgomery, canonical), dict_class its class
 *   densities   a_aux, b_input, b_aux bitmaps exactly as R1CS_PROVE's
 *               partition has them (A marks aux, B inputs and aux)
 *   segments    the circuit's r1cs_segment marks
 * File layout (little-endian, version PCE_VERSION): a 4096-byte header
 * (magic "CUZKPCE\0", version, circuit version, circuit id, params stem,
 * counts, section table, a checksum of the DIGESTS section, the header's own
 * checksum), then 4096-aligned sections DICT, ROWPTR_A/B/C, COL_A/B/C,
 * COEF_A/B/C, DENSITY, SEGMENTS, DIGESTS; DIGESTS holds checksum64 of every
 * PCE_CHUNK-byte piece of every other section.
 *
 * A pce is read-only once made and may be shared by any number of threads. */
#ifndef CUZK_R1CS_PCE_H
#define CUZK_R1CS_PCE_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "r1cs/cs.h"
#include "r1cs/partition.h"

#define PCE_VERSION 1u
/* Bumped with any gadget change that alters a circuit's matrices: a file
 * recorded by another circuit version is refused. */
#define PCE_CIRCUIT_VERSION 1u
#define PCE_INPUT_TAG 0x80000000u
#define PCE_CHUNK ((uint64_t)16 << 20)

/* Coefficient classes (dictionary entries), for reports. */
enum { PCE_PLUS_ONE = 0, PCE_MINUS_ONE, PCE_PLUS_POW2, PCE_MINUS_POW2, PCE_GENERAL };

typedef struct {
    uint32_t row_begin, row_end; /* ~1 M non-zeros of work each */
} pce_task;

typedef struct r1cs_pce {
    char circuit_id[64];   /* "porep-32g", may be "" */
    char params_stem[256]; /* the parameter files' stem, may be "" */
    uint32_t circuit_version;
    uint64_t rows; /* input rows included */
    uint64_t circuit_rows, num_inputs, num_aux;
    uint64_t nnz[3];
    uint64_t density[3]; /* popcounts of a_aux, b_input, b_aux */
    uint32_t dict_len, coef_width, n_segments;
    uint64_t build_ms; /* recording time, 0 if unknown */

    const uint32_t *row_ptr[3], *col[3];
    const void *coef[3];
    const fr *dict;
    const uint8_t *dict_class; /* PCE_* per entry */
    const uint8_t *dict_k;     /* k of +-2^k classes */
    const uint64_t *a_aux, *b_input, *b_aux;
    const r1cs_segment_mark *segments;

    /* evaluation split, made when the pce is made */
    pce_task *tasks;
    size_t n_tasks;

    /* ownership (private) */
    void *map;
    size_t map_bytes;
    void *owned[16];
    size_t file_bytes; /* bytes of the file (or that pce_write writes) */
} r1cs_pce;

/* What the caller expects of a file; 0 / "" fields are not checked. */
typedef struct {
    const char *circuit_id;
    uint64_t rows, num_inputs, num_aux;
} pce_expect;

/* Takes the matrices out of a finished R1CS_RECORD cs (which keeps only its
 * counts, as after r1cs_take_matrices) into an in-memory pce.  circuit_id and
 * params_stem may be NULL.  0, or -1 with a message. */
int pce_from_recording(r1cs_cs *cs, const char *circuit_id, const char *params_stem,
                       uint64_t build_ms, r1cs_pce *out, char *err, size_t cap);

/* Writes p to path atomically (path.tmpPID, fsync, rename).  0, or -1. */
int pce_write(const r1cs_pce *p, const char *path, unsigned threads, char *err, size_t cap);

/* Maps path read-only and validates it fully (header, expect when not NULL,
 * sections, chunk checksums on threads threads, structure).  On any failure
 * nothing is kept and err names the problem.  0, or -1. */
int pce_open(const char *path, const pce_expect *expect, unsigned threads, r1cs_pce *out, char *err,
             size_t cap);

/* pce_open, or with full = 0 for a file this process has validated before
 * (same inode, size and mtime: the caller checks): header, counts, section
 * table, dictionary, densities and segments only, no chunk checksums and no
 * pass over the matrices. */
int pce_open_mode(const char *path, const pce_expect *expect, unsigned threads, int full,
                  r1cs_pce *out, char *err, size_t cap);

void pce_free(r1cs_pce *p);

/* Expands a pce to classic CSR (columns in z numbering, 32-byte values),
 * the form r1cs_take_matrices gives.  0, or -1 when out of memory. */
int pce_to_matrices(const r1cs_pce *p, r1cs_matrices *out);

/* Bytes of each section as written (index: PCE_SEC_* - 1), for reports. */
enum {
    PCE_SEC_DICT = 1,
    PCE_SEC_ROWPTR_A,
    PCE_SEC_ROWPTR_B,
    PCE_SEC_ROWPTR_C,
    PCE_SEC_COL_A,
    PCE_SEC_COL_B,
    PCE_SEC_COL_C,
    PCE_SEC_COEF_A,
    PCE_SEC_COEF_B,
    PCE_SEC_COEF_C,
    PCE_SEC_DENSITY,
    PCE_SEC_SEGMENTS,
    PCE_SEC_DIGESTS,
    PCE_SECTIONS = PCE_SEC_DIGESTS
};
const char *pce_section_name(unsigned kind);
uint64_t pce_section_bytes(const r1cs_pce *p, unsigned kind);

/* a, b, c[j] = <A_j, z>, <B_j, z>, <C_j, z> for every row, z = (input, aux)
 * with p->num_inputs and p->num_aux entries, on threads threads.  The bytes
 * are the same for any thread count and equal R1CS_PROVE's (Fr is fully
 * reduced, so summation order does not matter).  0, or -1 when out of
 * memory (for the boolean bitmaps). */
int pce_eval(const r1cs_pce *p, const fr *input, const fr *aux, fr *a, fr *b, fr *c,
             unsigned threads);

/* A partition ready for any prover: allocates a, b, c, evaluates them and
 * copies the densities.  Takes ownership of input and aux (malloc'd, with
 * p->num_inputs and p->num_aux entries): they move into out on success and
 * are freed on failure.  0, or -1 with a message. */
int pce_partition(const r1cs_pce *p, fr *input, fr *aux, unsigned threads, r1cs_partition *out,
                  char *err, size_t cap);

/* As pce_partition, in the deferred form (partition.h) for a backend that
 * evaluates a/b/c itself: no a, b, c; aux packed (witness_pack.h) and
 * freed; out->abc_pce = p, which must outlive out.  0, or -1. */
int pce_partition_deferred(const r1cs_pce *p, fr *input, fr *aux, unsigned threads,
                           r1cs_partition *out, char *err, size_t cap);

/* A full view of a deferred partition p for a backend that reads the arrays:
 * *full shares p's input and densities and gets its own a, b, c and aux.
 * For a partition that is not deferred, *full is a plain copy.  Release with
 * pce_partition_expand_free(full, p).  0, or -1 with a message. */
int pce_partition_expand(r1cs_partition *full, const r1cs_partition *p, unsigned threads, char *err,
                         size_t cap);
void pce_partition_expand_free(r1cs_partition *full, const r1cs_partition *p);

/* Peak heap bytes pce_partition needs: the partition plus the bitmaps. */
size_t pce_partition_bytes(const r1cs_pce *p);

/* Internal, shared by the pce files: makes p->tasks from the row pointers. */
int pce_make_tasks(r1cs_pce *p);
/* Fills dict_class/dict_k arrays (dict_len entries each) from dict. */
void pce_classify(const fr *dict, uint32_t n, uint8_t *cls, uint8_t *k);

#endif
