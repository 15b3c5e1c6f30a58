/* The part of the constraint system every mode shares: the handle, variable
 * allocation, namespaces, enforce's dispatch to the mode's row function, the
 * closing input rows, counts and errors.  The modes' own storage lives in
 * prove.c, count.c and record.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "r1cs/cs_internal.h"

/* Arrays reserved from a capacity hint ask for transparent huge pages: with
 * 4 KiB pages, first-touch faults take a large share of proving-mode time
 * (THP in "madvise" mode, the Debian default; docs/PERFORMANCE.md).  Arrays
 * that grow do not: mremap of huge-page memory at unaligned addresses costs
 * as much as a copy, and glibc grows large blocks with mremap. */
#define HUGE_PAGE ((uintptr_t)2 << 20)
static void advise_huge(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    if (bytes < 4 * HUGE_PAGE)
        return;
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
    if (hi > lo)
        madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

void r1cs_set_error(r1cs_cs *cs, int err, const char *fmt, ...) {
    if (cs->err)
        return;
    cs->err = err;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cs->msg, sizeof cs->msg, fmt, ap);
    va_end(ap);
}

int r1cs_reserve(r1cs_cs *cs, void **p, size_t *cap, size_t need, size_t elem, int how) {
    if (need <= *cap)
        return 1;
    size_t n = need;
    if (how == R1CS_GROW) {
        size_t grown = *cap ? *cap * 2 : 256;
        if (grown > n)
            n = grown;
    }
    if (n > SIZE_MAX / elem) {
        r1cs_set_error(cs, R1CS_ERR_NOMEM, "array of %zu x %zu bytes overflows", n, elem);
        return 0;
    }
    void *q = realloc(*p, n * elem);
    if (!q) {
        r1cs_set_error(cs, R1CS_ERR_NOMEM, "out of memory growing an array to %zu bytes", n * elem);
        return 0;
    }
    cs->bytes += (n - *cap) * elem;
    if (cs->bytes > cs->peak)
        cs->peak = cs->bytes;
    if (how == R1CS_PRESIZE)
        advise_huge(q, n * elem);
    *p = q;
    *cap = n;
    return 1;
}

void r1cs_trim(r1cs_cs *cs, void **p, size_t *cap, size_t n, size_t elem) {
    if (n >= *cap)
        return;
    if (n == 0) {
        free(*p);
        *p = NULL;
    } else {
        void *q = realloc(*p, n * elem);
        if (q) /* a failed shrink keeps the larger block: still correct */
            *p = q;
        else
            return;
    }
    cs->bytes -= (*cap - n) * elem;
    *cap = n;
}

int r1cs_bits_reserve(r1cs_cs *cs, r1cs_bits *b, size_t nbits, int how) {
    size_t old = b->words;
    if (!r1cs_reserve(cs, (void **)&b->w, &b->words, r1cs_bitmap_words(nbits), sizeof(uint64_t),
                      how))
        return 0;
    if (b->words > old)
        memset(b->w + old, 0, (b->words - old) * sizeof(uint64_t));
    return 1;
}

r1cs_cs *r1cs_cs_new(r1cs_mode mode, unsigned flags, const r1cs_hint *hint) {
    if (mode != R1CS_PROVE && mode != R1CS_COUNT && mode != R1CS_RECORD && mode != R1CS_WITNESS)
        return NULL;
    r1cs_cs *cs = calloc(1, sizeof *cs);
    if (!cs)
        return NULL;
    cs->mode = mode;
    fr_neg(&cs->minus_one, &FR_ONE);
    cs->values =
        mode == R1CS_PROVE || mode == R1CS_WITNESS || (mode == R1CS_COUNT && (flags & R1CS_VALUES));
    cs->names = mode == R1CS_COUNT && cs->values;
    r1cs_hint none = {0};
    const r1cs_hint *h = hint ? hint : &none;
    if (cs->values) {
        r1cs_reserve(cs, (void **)&cs->input.p, &cs->input.cap, h->inputs, sizeof(fr),
                     R1CS_PRESIZE);
        r1cs_reserve(cs, (void **)&cs->aux.p, &cs->aux.cap, h->aux, sizeof(fr), R1CS_PRESIZE);
    }
    if (mode == R1CS_PROVE)
        r1cs_prove_reserve(cs, h);
    if (mode == R1CS_RECORD)
        r1cs_record_reserve(cs, h);
    r1cs_alloc_input(cs, &FR_ONE);
    if (cs->err) {
        r1cs_cs_free(cs);
        return NULL;
    }
    return cs;
}

r1cs_cs *r1cs_witness_view(fr *input, size_t in_begin, size_t in_end, fr *aux, size_t aux_begin,
                           size_t aux_end) {
    if (!input || !aux || in_begin > in_end || aux_begin > aux_end || in_end > R1CS_MAX_INDEX ||
        aux_end > R1CS_MAX_INDEX)
        return NULL;
    r1cs_cs *cs = calloc(1, sizeof *cs);
    if (!cs)
        return NULL;
    cs->mode = R1CS_WITNESS;
    cs->values = 1;
    cs->view = 1;
    fr_neg(&cs->minus_one, &FR_ONE);
    cs->input = (r1cs_frvec){input, in_begin, in_end};
    cs->aux = (r1cs_frvec){aux, aux_begin, aux_end};
    cs->num_inputs = in_begin;
    cs->num_aux = aux_begin;
    if (in_begin == 0)
        r1cs_alloc_input(cs, &FR_ONE);
    if (cs->err) {
        r1cs_cs_free(cs);
        return NULL;
    }
    return cs;
}

int r1cs_take_witness(r1cs_cs *cs, fr **input, size_t *num_inputs, fr **aux, size_t *num_aux) {
    if (cs->mode != R1CS_WITNESS || cs->view || !cs->finished || cs->err)
        return cs->err ? cs->err : R1CS_ERR_STATE;
    r1cs_trim(cs, (void **)&cs->input.p, &cs->input.cap, cs->input.len, sizeof(fr));
    r1cs_trim(cs, (void **)&cs->aux.p, &cs->aux.cap, cs->aux.len, sizeof(fr));
    *input = cs->input.p;
    *num_inputs = cs->input.len;
    *aux = cs->aux.p;
    *num_aux = cs->aux.len;
    cs->bytes -= (cs->input.cap + cs->aux.cap) * sizeof(fr);
    cs->input = (r1cs_frvec){0};
    cs->aux = (r1cs_frvec){0};
    return R1CS_OK;
}

void r1cs_cs_free(r1cs_cs *cs) {
    if (!cs)
        return;
    if (!cs->view) {
        free(cs->input.p);
        free(cs->aux.p);
    }
    free(cs->a.p);
    free(cs->b.p);
    free(cs->c.p);
    free(cs->a_aux.w);
    free(cs->b_input.w);
    free(cs->b_aux.w);
    r1cs_record_free(cs);
    free(cs->unsat_path);
    free(cs->path);
    free(cs->ns_len);
    free(cs->seg);
    free(cs);
}

void r1cs_segment(r1cs_cs *cs, uint32_t kind, uint32_t index) {
    if (cs->err || (cs->mode != R1CS_RECORD && cs->mode != R1CS_COUNT))
        return;
    if (!r1cs_reserve(cs, (void **)&cs->seg, &cs->seg_cap, cs->seg_len + 1,
                      sizeof(r1cs_segment_mark), R1CS_GROW))
        return;
    cs->seg[cs->seg_len++] = (r1cs_segment_mark){.row = cs->rows,
                                                 .aux = cs->num_aux,
                                                 .input = (uint32_t)cs->num_inputs,
                                                 .kind = kind,
                                                 .index = index};
}

size_t r1cs_get_segments(const r1cs_cs *cs, const r1cs_segment_mark **out) {
    *out = cs->seg;
    return cs->seg_len;
}

r1cs_mode r1cs_get_mode(const r1cs_cs *cs) { return cs->mode; }
int r1cs_has_values(const r1cs_cs *cs) { return cs->values; }
int r1cs_error(const r1cs_cs *cs) { return cs->err; }
int r1cs_wants_lcs(const r1cs_cs *cs) { return cs->mode != R1CS_WITNESS; }
const char *r1cs_error_message(const r1cs_cs *cs) { return cs->msg; }
size_t r1cs_num_constraints(const r1cs_cs *cs) { return cs->rows; }
size_t r1cs_num_inputs(const r1cs_cs *cs) { return cs->num_inputs; }
size_t r1cs_num_aux(const r1cs_cs *cs) { return cs->num_aux; }
size_t r1cs_bytes(const r1cs_cs *cs) { return cs->bytes; }
size_t r1cs_peak_bytes(const r1cs_cs *cs) { return cs->peak; }

static r1cs_var alloc_var(r1cs_cs *cs, const fr *value, int aux) {
    size_t *n = aux ? &cs->num_aux : &cs->num_inputs;
    r1cs_var v = aux ? r1cs_aux_var((uint32_t)(*n & R1CS_MAX_INDEX))
                     : r1cs_input_var((uint32_t)(*n & R1CS_MAX_INDEX));
    if (cs->err)
        return v;
    if (cs->finished) {
        r1cs_set_error(cs, R1CS_ERR_STATE, "alloc after finish");
        return v;
    }
    if (*n >= R1CS_MAX_INDEX) {
        r1cs_set_error(cs, R1CS_ERR_TOO_LARGE, "more than %u %s variables", R1CS_MAX_INDEX,
                       aux ? "aux" : "input");
        return v;
    }
    if (cs->values) {
        if (!value) {
            r1cs_set_error(cs, R1CS_ERR_MISSING_VALUE,
                           "%s variable %zu allocated without a value (path \"%s\")",
                           aux ? "aux" : "input", *n, r1cs_path(cs));
            return v;
        }
        r1cs_frvec *vec = aux ? &cs->aux : &cs->input;
        if (cs->view && vec->len == vec->cap) {
            r1cs_set_error(cs, R1CS_ERR_OVERFLOW,
                           "%s variable %zu is past the end of this witness view (%zu)",
                           aux ? "aux" : "input", *n, vec->cap);
            return v;
        }
        if (!r1cs_frvec_push(cs, vec, value))
            return v;
    }
    if (cs->mode != R1CS_RECORD && cs->mode != R1CS_WITNESS && !r1cs_prove_alloc(cs, aux))
        return v;
    (*n)++;
    return v;
}

r1cs_var r1cs_alloc(r1cs_cs *cs, const fr *value) { return alloc_var(cs, value, 1); }
r1cs_var r1cs_alloc_input(r1cs_cs *cs, const fr *value) { return alloc_var(cs, value, 0); }

int r1cs_get_value(fr *out, const r1cs_cs *cs, r1cs_var v) {
    uint32_t i = r1cs_var_index(v);
    if (!cs->values)
        return 0;
    if (r1cs_var_is_aux(v) ? i >= cs->num_aux : i >= cs->num_inputs)
        return 0;
    *out = r1cs_var_is_aux(v) ? cs->aux.p[i] : cs->input.p[i];
    return 1;
}

/* One row through the mode.  Returns 1 when it is the first unsatisfied row,
 * which the caller then names. */
static int enforce_row(r1cs_cs *cs, const r1cs_lc *a, const r1cs_lc *b, const r1cs_lc *c) {
    if (cs->err || cs->mode == R1CS_WITNESS)
        return 0;
    if (cs->finished) {
        r1cs_set_error(cs, R1CS_ERR_STATE, "enforce after finish");
        return 0;
    }
    if (a->broken || b->broken || c->broken) {
        r1cs_set_error(cs, R1CS_ERR_NOMEM, "out of memory building a linear combination");
        return 0;
    }
    int r;
    switch (cs->mode) {
    case R1CS_PROVE:
        r = r1cs_prove_row(cs, a, b, c);
        break;
    case R1CS_COUNT:
        r = r1cs_count_row(cs, a, b, c);
        break;
    default:
        r = r1cs_record_row(cs, a, b, c);
        break;
    }
    if (r < 0) {
        r1cs_set_error(cs, R1CS_ERR_BAD_VARIABLE,
                       "constraint %zu uses a variable that is not allocated (path \"%s\")",
                       cs->rows, r1cs_path(cs));
        return 0;
    }
    cs->rows++;
    return r;
}

/* Keeps "path/name" of the first unsatisfied row. */
static void name_unsatisfied(r1cs_cs *cs, const char *name) {
    const char *path = r1cs_path(cs);
    if (!name)
        name = "";
    size_t n = strlen(path) + 1 + strlen(name) + 1;
    cs->unsat_path = malloc(n);
    if (!cs->unsat_path) {
        r1cs_set_error(cs, R1CS_ERR_NOMEM, "out of memory naming a constraint");
        return;
    }
    snprintf(cs->unsat_path, n, "%s%s%s", path, (*path && *name) ? "/" : "", name);
}

void r1cs_enforce(r1cs_cs *cs, const char *name, const r1cs_lc *a, const r1cs_lc *b,
                  const r1cs_lc *c) {
    if (enforce_row(cs, a, b, c))
        name_unsatisfied(cs, name);
}

void r1cs_enforcef(r1cs_cs *cs, const r1cs_lc *a, const r1cs_lc *b, const r1cs_lc *c,
                   const char *fmt, ...) {
    if (enforce_row(cs, a, b, c)) {
        char name[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(name, sizeof name, fmt, ap);
        va_end(ap);
        name_unsatisfied(cs, name);
    }
}

void r1cs_push(r1cs_cs *cs, const char *fmt, ...) {
    if (cs->names && !cs->err) {
        if (!r1cs_reserve(cs, (void **)&cs->ns_len, &cs->ns_cap, cs->depth + 1, sizeof(size_t),
                          R1CS_GROW))
            return;
        cs->ns_len[cs->depth] = cs->path_len;
        size_t sep = cs->depth > 0;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(NULL, 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            n = 0;
        size_t need = cs->path_len + sep + (size_t)n + 1;
        if (!r1cs_reserve(cs, (void **)&cs->path, &cs->path_cap, need, 1, R1CS_GROW))
            return;
        if (sep)
            cs->path[cs->path_len++] = '/';
        va_start(ap, fmt);
        vsnprintf(cs->path + cs->path_len, (size_t)n + 1, fmt, ap);
        va_end(ap);
        cs->path_len += (size_t)n;
    }
    cs->depth++;
}

void r1cs_pop(r1cs_cs *cs) {
    if (cs->depth == 0) {
        r1cs_set_error(cs, R1CS_ERR_NAMESPACE, "namespace pop without a push");
        return;
    }
    cs->depth--;
    if (cs->names && cs->path && cs->depth < cs->ns_cap) {
        cs->path_len = cs->ns_len[cs->depth];
        cs->path[cs->path_len] = '\0';
    }
}

const char *r1cs_path(const r1cs_cs *cs) {
    return (cs->names && cs->path && cs->path_len) ? cs->path : "";
}

int r1cs_finish(r1cs_cs *cs) {
    if (cs->finished) {
        r1cs_set_error(cs, R1CS_ERR_STATE, "finish called twice");
        return cs->err;
    }
    if (cs->depth != 0)
        r1cs_set_error(cs, R1CS_ERR_NAMESPACE, "%zu namespaces left open", cs->depth);
    cs->circuit_constraints = cs->rows;
    if (cs->mode == R1CS_WITNESS) { /* no rows: the input rows are matrix rows only */
        cs->finished = 1;
        return cs->err;
    }
    /* bellperson's "x * 0 = 0" rows: A = input_i, B = C = 0, ONE included */
    r1cs_lc a = R1CS_LC_INIT, zero = R1CS_LC_INIT;
    for (size_t i = 0; i < cs->num_inputs && !cs->err; i++) {
        r1cs_lc_set_var(&a, r1cs_input_var((uint32_t)i));
        enforce_row(cs, &a, &zero, &zero);
    }
    r1cs_lc_free(&a);
    if (cs->a_aux.w) {
        cs->density[0] = r1cs_bitmap_popcount(cs->a_aux.w, cs->num_aux);
        cs->density[2] = r1cs_bitmap_popcount(cs->b_aux.w, cs->num_aux);
    }
    if (cs->b_input.w)
        cs->density[1] = r1cs_bitmap_popcount(cs->b_input.w, cs->num_inputs);
    cs->finished = 1;
    return cs->err;
}

int r1cs_synthesize(r1cs_cs *cs, r1cs_synth_fn fn, void *ctx) {
    int r = fn(cs, ctx);
    if (r != 0)
        r1cs_set_error(cs, R1CS_ERR_CIRCUIT, "the circuit's synthesize returned %d", r);
    return r1cs_finish(cs);
}

int r1cs_get_counts(const r1cs_cs *cs, r1cs_counts *out) {
    memset(out, 0, sizeof *out);
    if (!cs->finished)
        return R1CS_ERR_STATE;
    out->constraints = cs->circuit_constraints;
    out->constraints_total = cs->rows;
    out->inputs = cs->num_inputs;
    out->aux = cs->num_aux;
    out->nnz_a = cs->nnz[0];
    out->nnz_b = cs->nnz[1];
    out->nnz_c = cs->nnz[2];
    out->checked = cs->mode == R1CS_COUNT && cs->values && !cs->err;
    out->satisfied = out->checked && !cs->unsat;
    out->first_unsatisfied = cs->unsat ? cs->unsat_row : 0;
    out->unsatisfied_path = cs->unsat ? (cs->unsat_path ? cs->unsat_path : "") : NULL;
    out->a_aux_density = cs->density[0];
    out->b_input_density = cs->density[1];
    out->b_aux_density = cs->density[2];
    return cs->err;
}
