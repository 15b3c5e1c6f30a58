/* Parallel witness generation over segments: see witness.h. */
#include "r1cs/witness.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/err.h"
#include "util/parallel.h"

typedef struct {
    const r1cs_segment_mark *segs;
    size_t nseg, num_inputs, num_aux;
    fr *input, *aux;
    r1cs_unit_fn unit;
    void *ctx;
    size_t *order;
    atomic_int failed;
    pthread_mutex_t lock;
    char *err;
    size_t cap;
} run_ctx;

static size_t end_input(const run_ctx *r, size_t i) {
    return i + 1 < r->nseg ? r->segs[i + 1].input : r->num_inputs;
}
static size_t end_aux(const run_ctx *r, size_t i) {
    return i + 1 < r->nseg ? r->segs[i + 1].aux : r->num_aux;
}

/* Keeps the first failure's message. */
static void fail(run_ctx *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(run_ctx *r, const char *fmt, ...) {
    pthread_mutex_lock(&r->lock);
    if (!atomic_load(&r->failed)) {
        va_list ap;
        va_start(ap, fmt);
        err_vset(r->err, r->cap, fmt, ap);
        va_end(ap);
        atomic_store(&r->failed, 1);
    }
    pthread_mutex_unlock(&r->lock);
}

static void run_unit(void *p, size_t task, unsigned worker) {
    (void)worker;
    run_ctx *r = p;
    if (atomic_load(&r->failed))
        return;
    const size_t i = r->order[task];
    const r1cs_segment_mark *m = &r->segs[i];
    const size_t ie = end_input(r, i), ae = end_aux(r, i);
    r1cs_cs *v = r1cs_witness_view(r->input, m->input, ie, r->aux, m->aux, ae);
    if (!v) {
        fail(r, "segment %zu: out of memory for its witness view", i);
        return;
    }
    char msg[256] = "";
    int rc = r->unit(v, i, r->ctx, msg, sizeof msg);
    if (rc == 0)
        r1cs_finish(v);
    if (rc != 0 || r1cs_error(v))
        fail(r, "segment %zu (kind %u, index %u): %s%s%s", i, m->kind, m->index, msg,
             *msg && r1cs_error(v) ? ": " : "", r1cs_error(v) ? r1cs_error_message(v) : "");
    else if (r1cs_num_inputs(v) != ie || r1cs_num_aux(v) != ae)
        fail(r,
             "segment %zu (kind %u, index %u) ended at input %zu, aux %zu; the recording says "
             "input %zu, aux %zu",
             i, m->kind, m->index, r1cs_num_inputs(v), r1cs_num_aux(v), ie, ae);
    r1cs_cs_free(v);
}

/* Longest first: insertion order within equal spans keeps it deterministic. */
static void order_longest_first(run_ctx *r) {
    size_t n = r->nseg;
    size_t *span = malloc(n * sizeof *span);
    for (size_t i = 0; i < n; i++)
        r->order[i] = i;
    if (!span)
        return;
    for (size_t i = 0; i < n; i++)
        span[i] = end_aux(r, i) - r->segs[i].aux;
    /* shell sort on (span desc, index asc) */
    for (size_t gap = n / 2; gap > 0; gap /= 2)
        for (size_t i = gap; i < n; i++) {
            size_t t = r->order[i], j = i;
            while (j >= gap && (span[r->order[j - gap]] < span[t] ||
                                (span[r->order[j - gap]] == span[t] && r->order[j - gap] > t))) {
                r->order[j] = r->order[j - gap];
                j -= gap;
            }
            r->order[j] = t;
        }
    free(span);
}

int r1cs_witness_run(const r1cs_segment_mark *segs, size_t nseg, size_t num_inputs, size_t num_aux,
                     unsigned threads, fr *input, fr *aux, r1cs_prefix_fn prefix, r1cs_unit_fn unit,
                     void *ctx, char *err, size_t cap) {
    if (nseg == 0 || !segs)
        return err_set(err, cap, "no segments: the circuit cannot be generated in parallel");
    if (segs[0].input < 1)
        return err_set(err, cap, "segment 0 starts before ONE");
    for (size_t i = 0; i < nseg; i++) {
        size_t ie = i + 1 < nseg ? segs[i + 1].input : num_inputs;
        size_t ae = i + 1 < nseg ? segs[i + 1].aux : num_aux;
        if (segs[i].input > ie || segs[i].aux > ae)
            return err_set(err, cap,
                           "segment %zu starts at input %u, aux %llu, past its end (%zu, %zu)", i,
                           segs[i].input, (unsigned long long)segs[i].aux, ie, ae);
    }

    r1cs_cs *v = r1cs_witness_view(input, 0, segs[0].input, aux, 0, segs[0].aux);
    if (!v)
        return err_set(err, cap, "out of memory for the prefix's witness view");
    char msg[256] = "";
    int rc = prefix(v, ctx, msg, sizeof msg);
    if (rc == 0)
        r1cs_finish(v);
    if (rc != 0 || r1cs_error(v)) {
        err_set(err, cap, "prefix: %s%s%s", msg, *msg && r1cs_error(v) ? ": " : "",
                r1cs_error(v) ? r1cs_error_message(v) : "");
        r1cs_cs_free(v);
        return -1;
    }
    if (r1cs_num_inputs(v) != segs[0].input || r1cs_num_aux(v) != segs[0].aux) {
        err_set(err, cap,
                "the prefix ended at input %zu, aux %zu; the recording says input %u, aux %llu",
                r1cs_num_inputs(v), r1cs_num_aux(v), segs[0].input,
                (unsigned long long)segs[0].aux);
        r1cs_cs_free(v);
        return -1;
    }
    r1cs_cs_free(v);

    run_ctx r = {.segs = segs,
                 .nseg = nseg,
                 .num_inputs = num_inputs,
                 .num_aux = num_aux,
                 .input = input,
                 .aux = aux,
                 .unit = unit,
                 .ctx = ctx,
                 .err = err,
                 .cap = cap};
    r.order = malloc(nseg * sizeof *r.order);
    if (!r.order)
        return err_set(err, cap, "out of memory ordering %zu segments", nseg);
    atomic_init(&r.failed, 0);
    pthread_mutex_init(&r.lock, NULL);
    order_longest_first(&r);
    par_run(threads, nseg, run_unit, &r);
    pthread_mutex_destroy(&r.lock);
    free(r.order);
    return atomic_load(&r.failed) ? -1 : 0;
}
