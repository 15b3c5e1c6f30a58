/* The compact witness (witness_pack.h): two passes over word ranges, the
 * classes and counts first, then the dense values gathered at their ranks. */
#include "r1cs/witness_pack.h"

#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "util/parallel.h"

#define WORDS_PER_TASK ((size_t)1 << 14)

typedef struct {
    r1cs_witness_pack *w;
    const fr *aux_in;
    fr *aux_out;
    uint32_t *task_dense; /* per task: dense values in it */
} pack_job;

static inline int is_zero(const fr *x) { return (x->l[0] | x->l[1] | x->l[2] | x->l[3]) == 0; }
static inline int is_one(const fr *x) {
    return x->l[0] == FR_ONE.l[0] && x->l[1] == FR_ONE.l[1] && x->l[2] == FR_ONE.l[2] &&
           x->l[3] == FR_ONE.l[3];
}

static void word_range(const r1cs_witness_pack *w, size_t task, size_t *w0, size_t *w1) {
    *w0 = task * WORDS_PER_TASK;
    *w1 = *w0 + WORDS_PER_TASK < w->words ? *w0 + WORDS_PER_TASK : w->words;
}

/* Pass 1: the two bitmaps of a range and its number of dense values. */
static void classify_task(void *vctx, size_t task, unsigned worker) {
    (void)worker;
    pack_job *j = vctx;
    r1cs_witness_pack *w = j->w;
    size_t w0, w1;
    word_range(w, task, &w0, &w1);
    uint32_t dense = 0;
    for (size_t k = w0; k < w1; k++) {
        uint64_t b = 0, o = 0;
        size_t lo = k * 64, hi = lo + 64 < w->num_aux ? lo + 64 : w->num_aux;
        for (size_t i = lo; i < hi; i++) {
            const fr *x = &j->aux_in[i];
            uint64_t one = is_one(x), bit = (uint64_t)(is_zero(x) | one);
            b |= bit << (i - lo);
            o |= one << (i - lo);
        }
        w->isbool[k] = b;
        w->isone[k] = o;
        /* bits past num_aux count as bits, so they are never dense */
        if (hi - lo < 64)
            w->isbool[k] |= ~(uint64_t)0 << (hi - lo);
        dense += (uint32_t)__builtin_popcountll(~w->isbool[k]);
    }
    j->task_dense[task] = dense;
}

/* Pass 2: ranks per word and the dense values of a range. */
static void gather_task(void *vctx, size_t task, unsigned worker) {
    (void)worker;
    pack_job *j = vctx;
    r1cs_witness_pack *w = j->w;
    size_t w0, w1;
    word_range(w, task, &w0, &w1);
    uint32_t r = j->task_dense[task]; /* the range's first rank, after the scan */
    for (size_t k = w0; k < w1; k++) {
        w->rank[k] = r;
        for (uint64_t d = ~w->isbool[k]; d; d &= d - 1)
            w->dense[r++] = j->aux_in[k * 64 + (size_t)__builtin_ctzll(d)];
    }
}

static void unpack_task(void *vctx, size_t task, unsigned worker) {
    (void)worker;
    pack_job *j = vctx;
    const r1cs_witness_pack *w = j->w;
    size_t w0, w1;
    word_range(w, task, &w0, &w1);
    for (size_t k = w0; k < w1; k++) {
        size_t lo = k * 64, hi = lo + 64 < w->num_aux ? lo + 64 : w->num_aux;
        uint32_t r = w->rank[k];
        for (size_t i = lo; i < hi; i++) {
            uint64_t bit = (uint64_t)1 << (i - lo);
            if (!(w->isbool[k] & bit))
                j->aux_out[i] = w->dense[r++];
            else if (w->isone[k] & bit)
                j->aux_out[i] = FR_ONE;
            else
                fr_set_zero(&j->aux_out[i]);
        }
    }
}

int witness_pack(r1cs_witness_pack *out, const fr *aux, size_t n, unsigned threads) {
    memset(out, 0, sizeof *out);
    if (n >= ((size_t)1 << 32))
        return -1;
    out->num_aux = n;
    out->words = (n + 63) / 64;
    size_t tasks = (out->words + WORDS_PER_TASK - 1) / WORDS_PER_TASK;
    out->isbool = malloc((2 * out->words + 1) * sizeof(uint64_t));
    out->rank = malloc((out->words + 1) * sizeof(uint32_t));
    pack_job j = {.w = out, .aux_in = aux, .task_dense = malloc((tasks + 1) * sizeof(uint32_t))};
    if (!out->isbool || !out->rank || !j.task_dense) {
        free(j.task_dense);
        witness_pack_free(out);
        return -1;
    }
    out->isone = out->isbool + out->words;
    par_run(threads, tasks, classify_task, &j);
    uint32_t total = 0;
    for (size_t t = 0; t < tasks; t++) {
        uint32_t c = j.task_dense[t];
        j.task_dense[t] = total;
        total += c;
    }
    out->n_dense = total;
    out->rank[out->words] = total;
    out->dense = malloc((total ? total : 1) * sizeof(fr));
    if (!out->dense) {
        free(j.task_dense);
        witness_pack_free(out);
        return -1;
    }
    par_run(threads, tasks, gather_task, &j);
    free(j.task_dense);
    return 0;
}

void witness_unpack(const r1cs_witness_pack *w, fr *aux, unsigned threads) {
    pack_job j = {.w = (r1cs_witness_pack *)w, .aux_out = aux};
    par_run(threads, (w->words + WORDS_PER_TASK - 1) / WORDS_PER_TASK, unpack_task, &j);
}

size_t witness_pack_bytes(const r1cs_witness_pack *w) {
    return 2 * w->words * sizeof(uint64_t) + (w->words + 1) * sizeof(uint32_t) +
           w->n_dense * sizeof(fr);
}

void witness_pack_free(r1cs_witness_pack *w) {
    free(w->isbool);
    free(w->rank);
    free(w->dense);
    memset(w, 0, sizeof *w);
}
