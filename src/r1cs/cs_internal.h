/* The constraint-system handle's insides, shared by cs.c (modes' common
 * part: variables, namespaces, dispatch, results) and the per-mode files
 * prove.c, count.c, record.c.  Not a public header.
 *
 * Storage is a handful of flat growable arrays, never per-term objects:
 *   values (PROVE, checking COUNT): input[], aux[]         32 B per variable
 *   PROVE:  a[], b[], c[]                                  96 B per row
 *           a_aux, b_input, b_aux bitmaps                  3 bits per variable
 *   RECORD: per matrix row_ptr[] (4 B per row), col[] (4 B) + coef[] (2 B, 4 B
 *           past 65,536 distinct coefficients) per term; coef indexes a
 *           dictionary of distinct coefficients
 * Arrays grow by doubling (realloc; glibc moves large blocks with mremap, not
 * copies) unless a capacity hint reserved them up front. */
#ifndef CUZK_R1CS_CS_INTERNAL_H
#define CUZK_R1CS_CS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "field/constants.h"
#include "r1cs/cs.h"

typedef struct {
    fr *p;
    size_t len, cap;
} r1cs_frvec;

typedef struct {
    uint32_t *p;
    size_t len, cap;
} r1cs_u32vec;

typedef struct {
    uint64_t *w;
    size_t words; /* allocated (and zeroed) words */
} r1cs_bits;

struct r1cs_cs {
    r1cs_mode mode;
    int values; /* assignments are kept */
    int names;  /* namespace names are formatted (checking mode) */
    int err;
    int finished;
    char msg[160];

    size_t num_inputs, num_aux;
    size_t rows;                /* constraints enforced so far, input rows included */
    size_t circuit_constraints; /* rows before the input rows (set by finish) */
    uint64_t nnz[3];            /* non-zero terms of A, B, C */

    r1cs_frvec input, aux;
    /* R1CS_PROVE */
    r1cs_frvec a, b, c;
    r1cs_bits a_aux, b_input, b_aux; /* also kept by R1CS_COUNT */
    size_t density[3];               /* a_aux, b_input, b_aux popcounts (finish) */
    /* R1CS_RECORD: row_ptr has rows + 1 entries; col holds var ids until take;
     * coef holds dictionary indexes: dict[0] = +1, dict[1] = -1 by
     * construction, the rest in order of first use, found through an open-
     * addressing table of dict_slots (a power of two) entries, index + 1 or 0. */
    r1cs_u32vec row_ptr[3], col[3];
    r1cs_u32vec coef[3]; /* p holds u16 or u32 entries (coef_width bytes each), cap counts them */
    uint32_t coef_width; /* 2 until the dictionary passes 65,536 entries, then 4 */
    r1cs_frvec dict;
    uint32_t *dict_slot;
    size_t dict_slots;

    /* checking: the first unsatisfied row */
    int unsat;
    size_t unsat_row;
    char *unsat_path;

    /* namespaces: path = names joined by '/', ns_len[d] = path length before push d */
    size_t depth;
    char *path;
    size_t path_len, path_cap;
    size_t *ns_len;
    size_t ns_cap;

    /* segment marks (RECORD, COUNT) */
    r1cs_segment_mark *seg;
    size_t seg_len, seg_cap;

    /* R1CS_WITNESS view: input.p/aux.p are the caller's arrays, .len the
     * cursor, .cap the slice end; never grown nor freed */
    int view;

    size_t bytes, peak;
    fr minus_one; /* coefficients +-1 skip the multiplication */
};

static inline int r1cs_fr_zero(const fr *a) { return (a->l[0] | a->l[1] | a->l[2] | a->l[3]) == 0; }
static inline int r1cs_fr_one(const fr *a) {
    return a->l[0] == FR_ONE.l[0] && a->l[1] == FR_ONE.l[1] && a->l[2] == FR_ONE.l[2] &&
           a->l[3] == FR_ONE.l[3];
}

/* acc += coeff * x, without a multiplication when coeff is 1 or -1 (the
 * common gadget coefficients; bellperson skips only 1, the sum is the same). */
static inline void r1cs_mul_acc(fr *acc, const fr *coeff, const fr *x, const fr *minus_one) {
    if (r1cs_fr_one(coeff)) {
        fr_add(acc, acc, x);
    } else if (coeff->l[0] == minus_one->l[0] && coeff->l[1] == minus_one->l[1] &&
               coeff->l[2] == minus_one->l[2] && coeff->l[3] == minus_one->l[3]) {
        fr_sub(acc, acc, x);
    } else {
        fr tmp;
        fr_mul(&tmp, x, coeff);
        fr_add(acc, acc, &tmp);
    }
}

/* Records err (the first one wins) with a printf-style message. */
void r1cs_set_error(r1cs_cs *cs, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* How r1cs_reserve sizes an array: doubling, exactly, or exactly and for good
 * (from a capacity hint: such arrays also ask for huge pages, see cs.c). */
enum { R1CS_GROW = 0, R1CS_EXACT = 1, R1CS_PRESIZE = 3 };

/* Makes *cap >= need for an array of elem-byte items at *p, sized as how
 * says.  0 (and R1CS_ERR_NOMEM set) on failure. */
int r1cs_reserve(r1cs_cs *cs, void **p, size_t *cap, size_t need, size_t elem, int how);
/* Shrinks an array to exactly n items (n may be 0: frees it). */
void r1cs_trim(r1cs_cs *cs, void **p, size_t *cap, size_t n, size_t elem);
/* Makes room for nbits bits, new words zeroed. */
int r1cs_bits_reserve(r1cs_cs *cs, r1cs_bits *b, size_t nbits, int how);

static inline int r1cs_frvec_push(r1cs_cs *cs, r1cs_frvec *v, const fr *x) {
    if (v->len == v->cap &&
        !r1cs_reserve(cs, (void **)&v->p, &v->cap, v->len + 1, sizeof(fr), R1CS_GROW))
        return 0;
    v->p[v->len++] = *x;
    return 1;
}

/* Per-mode hooks (one file each).  Row functions return -1 when an LC names
 * a variable that does not exist (cs.c reports R1CS_ERR_BAD_VARIABLE), 1 for
 * the first unsatisfied row (checking only; cs.c names it), else 0 (with
 * cs->err set if memory ran out). */
int r1cs_prove_row(r1cs_cs *cs, const r1cs_lc *a, const r1cs_lc *b, const r1cs_lc *c);
int r1cs_prove_reserve(r1cs_cs *cs, const r1cs_hint *h);
int r1cs_prove_alloc(r1cs_cs *cs, int aux); /* PROVE and COUNT: density bits */
int r1cs_count_row(r1cs_cs *cs, const r1cs_lc *a, const r1cs_lc *b, const r1cs_lc *c);
int r1cs_record_row(r1cs_cs *cs, const r1cs_lc *a, const r1cs_lc *b, const r1cs_lc *c);
int r1cs_record_reserve(r1cs_cs *cs, const r1cs_hint *h);
void r1cs_record_free(r1cs_cs *cs);

#endif
