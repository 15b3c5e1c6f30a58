/* The PCE's SpMV: a, b, c from the recorded matrices and a witness.
 *
 * Tasks of ~1 M terms over row ranges (p->tasks), handed out by par_run; each
 * evaluates A, B and C for its rows (the three matrices of a row read the
 * same recent variables) into disjoint outputs.  Most aux variables are bits,
 * so a first pass marks which aux values are 0 or 1 (isbool) and which are 1
 * (isone): such terms skip the 32-byte load and the multiplication; a term
 * whose value is 1 adds its coefficient.  Coefficients +-1 (dictionary
 * indexes 0 and 1) never multiply. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "field/constants.h"
#include "r1cs/pce.h"
#include "r1cs/witness_pack.h"
#include "util/err.h"
#include "util/parallel.h"

#define BITS_PER_TASK ((size_t)1 << 16) /* words of the bitmap pass per task */

typedef struct {
    const r1cs_pce *p;
    const fr *input, *aux;
    uint64_t *isbool, *isone;
    size_t words;
    fr *out[3];
} eval_job;

static inline int is_zero(const fr *x) { return (x->l[0] | x->l[1] | x->l[2] | x->l[3]) == 0; }
static inline int is_one(const fr *x) {
    return x->l[0] == FR_ONE.l[0] && x->l[1] == FR_ONE.l[1] && x->l[2] == FR_ONE.l[2] &&
           x->l[3] == FR_ONE.l[3];
}

static void bitmap_task(void *vctx, size_t task, unsigned worker) {
    (void)worker;
    eval_job *j = vctx;
    size_t w0 = task * BITS_PER_TASK, w1 = w0 + BITS_PER_TASK;
    if (w1 > j->words)
        w1 = j->words;
    const size_t n = j->p->num_aux;
    for (size_t w = w0; w < w1; w++) {
        uint64_t b = 0, o = 0;
        size_t lo = w * 64, hi = lo + 64 < n ? lo + 64 : n;
        for (size_t i = lo; i < hi; i++) {
            const fr *x = &j->aux[i];
            uint64_t one = is_one(x), bit = (uint64_t)(is_zero(x) | one) << (i - lo);
            b |= bit;
            o |= one << (i - lo);
        }
        j->isbool[w] = b;
        j->isone[w] = o;
    }
}

/* <row, z> over terms [k0, k1) of one matrix. */
static inline void row_eval(fr *out, const eval_job *j, const uint32_t *col, const void *coef,
                            int w16, uint32_t k0, uint32_t k1) {
    const r1cs_pce *p = j->p;
    const uint16_t *c16 = coef;
    const uint32_t *c32 = coef;
    fr acc, t;
    fr_set_zero(&acc);
    for (uint32_t k = k0; k < k1; k++) {
        const uint32_t v = col[k], d = w16 ? c16[k] : c32[k];
        const fr *x;
        if (v & PCE_INPUT_TAG) {
            x = &j->input[v & R1CS_MAX_INDEX];
        } else {
            const uint64_t bit = (uint64_t)1 << (v & 63);
            if (j->isbool[v >> 6] & bit) {
                if (!(j->isone[v >> 6] & bit))
                    continue;
                x = &FR_ONE; /* the term is its coefficient */
                if (d > 1) {
                    fr_add(&acc, &acc, &p->dict[d]);
                    continue;
                }
            } else {
                x = &j->aux[v];
            }
        }
        if (d == 0) {
            fr_add(&acc, &acc, x);
        } else if (d == 1) {
            fr_sub(&acc, &acc, x);
        } else {
            fr_mul(&t, x, &p->dict[d]);
            fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

static void eval_task(void *vctx, size_t task, unsigned worker) {
    (void)worker;
    const eval_job *j = vctx;
    const r1cs_pce *p = j->p;
    const pce_task *t = &p->tasks[task];
    const int w16 = p->coef_width == 2;
    for (int m = 0; m < 3; m++) {
        const uint32_t *rp = p->row_ptr[m], *col = p->col[m];
        const void *coef = p->coef[m];
        fr *out = j->out[m];
        for (uint32_t r = t->row_begin; r < t->row_end; r++)
            row_eval(&out[r], j, col, coef, w16, rp[r], rp[r + 1]);
    }
}

int pce_eval(const r1cs_pce *p, const fr *input, const fr *aux, fr *a, fr *b, fr *c,
             unsigned threads) {
    eval_job j = {.p = p, .input = input, .aux = aux, .out = {a, b, c}};
    j.words = r1cs_bitmap_words(p->num_aux);
    j.isbool = malloc((2 * j.words + 1) * sizeof(uint64_t));
    if (!j.isbool)
        return -1;
    j.isone = j.isbool + j.words;
    par_run(threads, (j.words + BITS_PER_TASK - 1) / BITS_PER_TASK, bitmap_task, &j);
    par_run(threads, p->n_tasks, eval_task, &j);
    free(j.isbool);
    return 0;
}

/* Large outputs ask for transparent huge pages, as r1cs's reserved arrays. */
static void *alloc_huge(size_t bytes) {
    const size_t huge = (size_t)2 << 20;
    if (bytes < 4 * huge)
        return malloc(bytes ? bytes : 1);
    void *q = NULL;
    if (posix_memalign(&q, huge, bytes) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(q, bytes / huge * huge, MADV_HUGEPAGE);
#endif
    return q;
}

size_t pce_partition_bytes(const r1cs_pce *p) {
    size_t words = 2 * r1cs_bitmap_words(p->num_aux) + r1cs_bitmap_words(p->num_inputs);
    return (3 * p->rows + p->num_inputs + p->num_aux) * sizeof(fr) + words * sizeof(uint64_t) +
           2 * r1cs_bitmap_words(p->num_aux) * sizeof(uint64_t); /* + the eval bitmaps */
}

int pce_partition(const r1cs_pce *p, fr *input, fr *aux, unsigned threads, r1cs_partition *out,
                  char *err, size_t cap) {
    memset(out, 0, sizeof *out);
    out->num_constraints = p->rows;
    out->num_inputs = p->num_inputs;
    out->num_aux = p->num_aux;
    out->input = input;
    out->aux = aux;
    const size_t wa = r1cs_bitmap_words(p->num_aux), wi = r1cs_bitmap_words(p->num_inputs);
    out->a = alloc_huge(p->rows * sizeof(fr));
    out->b = alloc_huge(p->rows * sizeof(fr));
    out->c = alloc_huge(p->rows * sizeof(fr));
    out->a_aux_density = malloc(wa * 8 + 8);
    out->b_input_density = malloc(wi * 8 + 8);
    out->b_aux_density = malloc(wa * 8 + 8);
    if (!out->a || !out->b || !out->c || !out->a_aux_density || !out->b_input_density ||
        !out->b_aux_density || pce_eval(p, input, aux, out->a, out->b, out->c, threads) != 0) {
        r1cs_partition_free(out);
        return err_set(err, cap, "out of memory for a %zu-row partition", (size_t)p->rows);
    }
    memcpy(out->a_aux_density, p->a_aux, wa * 8);
    memcpy(out->b_input_density, p->b_input, wi * 8);
    memcpy(out->b_aux_density, p->b_aux, wa * 8);
    return 0;
}

/* The densities of p copied into out (owned by out). */
static int copy_densities(const r1cs_pce *p, r1cs_partition *out) {
    const size_t wa = r1cs_bitmap_words(p->num_aux), wi = r1cs_bitmap_words(p->num_inputs);
    out->a_aux_density = malloc(wa * 8 + 8);
    out->b_input_density = malloc(wi * 8 + 8);
    out->b_aux_density = malloc(wa * 8 + 8);
    if (!out->a_aux_density || !out->b_input_density || !out->b_aux_density)
        return -1;
    memcpy(out->a_aux_density, p->a_aux, wa * 8);
    memcpy(out->b_input_density, p->b_input, wi * 8);
    memcpy(out->b_aux_density, p->b_aux, wa * 8);
    return 0;
}

int pce_partition_deferred(const r1cs_pce *p, fr *input, fr *aux, unsigned threads,
                           r1cs_partition *out, char *err, size_t cap) {
    memset(out, 0, sizeof *out);
    out->num_constraints = p->rows;
    out->num_inputs = p->num_inputs;
    out->num_aux = p->num_aux;
    out->input = input;
    out->abc_pce = p;
    out->aux_pack = calloc(1, sizeof *out->aux_pack);
    int bad = !out->aux_pack || witness_pack(out->aux_pack, aux, p->num_aux, threads) != 0;
    free(aux);
    if (bad || copy_densities(p, out) != 0) {
        r1cs_partition_free(out);
        return err_set(err, cap, "out of memory for a %zu-row partition", (size_t)p->rows);
    }
    return 0;
}

int pce_partition_expand(r1cs_partition *full, const r1cs_partition *p, unsigned threads, char *err,
                         size_t cap) {
    *full = *p;
    if (!p->abc_pce)
        return 0;
    const r1cs_pce *q = p->abc_pce;
    full->abc_pce = NULL;
    full->aux_pack = NULL;
    full->a = alloc_huge(p->num_constraints * sizeof(fr));
    full->b = alloc_huge(p->num_constraints * sizeof(fr));
    full->c = alloc_huge(p->num_constraints * sizeof(fr));
    if (!p->aux && p->aux_pack) {
        full->aux = alloc_huge((p->num_aux ? p->num_aux : 1) * sizeof(fr));
        if (full->aux)
            witness_unpack(p->aux_pack, full->aux, threads);
    }
    if (!full->a || !full->b || !full->c || !full->aux ||
        pce_eval(q, full->input, full->aux, full->a, full->b, full->c, threads) != 0) {
        pce_partition_expand_free(full, p);
        return err_set(err, cap, "out of memory expanding a %zu-row partition", p->num_constraints);
    }
    return 0;
}

void pce_partition_expand_free(r1cs_partition *full, const r1cs_partition *p) {
    if (full->a != p->a)
        free(full->a);
    if (full->b != p->b)
        free(full->b);
    if (full->c != p->c)
        free(full->c);
    if (full->aux != p->aux)
        free(full->aux);
    memset(full, 0, sizeof *full);
}
