/* Element-wise helpers: a_i *= c * g^i (distribute powers, coset shifts, the
 * division by n), split into chunks over threads.
 *
 * Each chunk starts from c * g^first (one exponentiation) and then
 * steps by g: two multiplies per element.  A table of g^i would save one but
 * cost 32 bytes per element for every shift a caller uses. */
#include "ntt/ntt_internal.h"
#include "util/parallel.h"

/* 2^12 elements per task: thousands of multiplies, far above the cost of
 * handing out a task. */
#define POWERS_CHUNK ((size_t)1 << 12)

void ntt_pow_u64(fr *r, const fr *a, uint64_t e) { fr_pow_vartime(r, a, &e, 1); }

void ntt_powers_range(fr *x, size_t count, size_t first, const fr *c, const fr *h) {
    if (!h) {
        if (c)
            for (size_t k = 0; k < count; k++)
                fr_mul(&x[k], &x[k], c);
        return;
    }
    fr f;
    ntt_pow_u64(&f, h, first);
    if (c)
        fr_mul(&f, &f, c);
    for (size_t k = 0; k < count; k++) {
        fr_mul(&x[k], &x[k], &f);
        fr_mul(&f, &f, h);
    }
}

typedef struct {
    fr *a;
    size_t n;
    const fr *c, *g;
} powers_job;

static void powers_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    const powers_job *j = ctx;
    size_t first = task * POWERS_CHUNK;
    size_t count = j->n - first < POWERS_CHUNK ? j->n - first : POWERS_CHUNK;
    ntt_powers_range(j->a + first, count, first, j->c, j->g);
}

void ntt_mul_powers(fr *a, size_t n, const fr *c, const fr *g, unsigned threads) {
    powers_job j = {a, n, c, g};
    par_run(threads, (n + POWERS_CHUNK - 1) / POWERS_CHUNK, powers_task, &j);
}

void ntt_distribute_powers(fr *a, size_t n, const fr *g, unsigned threads) {
    ntt_mul_powers(a, n, NULL, g, threads);
}

void ntt_scale(fr *a, size_t n, const fr *c, unsigned threads) {
    ntt_mul_powers(a, n, c, NULL, threads);
}
