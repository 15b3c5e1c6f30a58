/* Evaluation domains: the roots, the twiddle tables and the vanishing
 * polynomial on a coset.
 *
 * Tables.  powers = omega^e for e <= n/2 serves every column pass (the
 * stages whose stride exceeds one in-cache block); the inverse twiddles come
 * from it too (ntt_internal.h), so one table of 16n bytes, half the data's
 * size, covers both directions.  Generating twiddles on the fly instead
 * would cost one more multiply per element per pass.
 * layers / layers_inv hold the roots of the block stages contiguously
 * (omega_2h^j at [h + j]), 2 x 512 KiB at most, copied from powers since
 * omega_2h = omega^(n/2h) exactly. */
#include <stdlib.h>
#include <string.h>

#include "ntt/ntt_internal.h"
#include "util/parallel.h"

#define POWERS_CHUNK ((size_t)1 << 14)

const char *ntt_status_str(ntt_status s) {
    switch (s) {
    case NTT_OK:
        return "ok";
    case NTT_ERR_SIZE:
        return "domain size outside 2^1 .. 2^28";
    case NTT_ERR_NO_MEMORY:
        return "out of memory";
    case NTT_ERR_NOT_INVERTIBLE:
        return "coset shift not invertible (g = 0 or g^n = 1)";
    }
    return "unknown ntt status";
}

static fr *alloc_fr(size_t count) {
    size_t bytes = (count * sizeof(fr) + 63) & ~(size_t)63; /* aligned_alloc wants a multiple */
    return aligned_alloc(64, bytes);
}

typedef struct {
    fr *powers;
    size_t count;
    fr omega;
} powers_job;

static void powers_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    const powers_job *j = ctx;
    size_t first = task * POWERS_CHUNK, end = first + POWERS_CHUNK;
    if (end > j->count)
        end = j->count;
    ntt_pow_u64(&j->powers[first], &j->omega, first);
    for (size_t e = first + 1; e < end; e++)
        fr_mul(&j->powers[e], &j->powers[e - 1], &j->omega);
}

ntt_status ntt_domain_init(ntt_domain *d, unsigned log_n, unsigned threads) {
    if (log_n < 1 || log_n > NTT_MAX_LOG_N) {
        memset(d, 0, sizeof *d);
        return NTT_ERR_SIZE;
    }
    fr omega;
    fr_root_of_unity(&omega, log_n);
    return ntt_domain_init_root(d, log_n, &omega, threads);
}

ntt_status ntt_domain_init_root(ntt_domain *d, unsigned log_n, const fr *omega, unsigned threads) {
    memset(d, 0, sizeof *d);
    if (log_n < 1 || log_n > NTT_MAX_LOG_N)
        return NTT_ERR_SIZE;
    size_t n = (size_t)1 << log_n, half = n / 2;
    unsigned lb = log_n < NTT_MAX_LOG_BLOCK ? log_n : NTT_MAX_LOG_BLOCK;
    size_t layer_size = (size_t)1 << lb;
    d->log_n = log_n;
    d->n = n;
    d->omega = *omega;
    fr_inv(&d->omega_inv, &d->omega);
    fr_set_u64(&d->n_inv, n);
    fr_inv(&d->n_inv, &d->n_inv);

    d->powers = alloc_fr(half + 1);
    d->layers = alloc_fr(layer_size);
    d->layers_inv = alloc_fr(layer_size);
    if (!d->powers || !d->layers || !d->layers_inv) {
        ntt_domain_destroy(d);
        return NTT_ERR_NO_MEMORY;
    }
    powers_job j = {d->powers, half + 1, d->omega};
    par_run(threads, (half + 1 + POWERS_CHUNK - 1) / POWERS_CHUNK, powers_task, &j);

    fr_set_zero(&d->layers[0]); /* unused slots: keep them defined */
    fr_set_zero(&d->layers_inv[0]);
    for (size_t h = 1; h < layer_size; h *= 2) {
        size_t step = n / (2 * h); /* omega_2h = omega^step */
        for (size_t k = 0; k < h; k++) {
            d->layers[h + k] = d->powers[k * step];
            fr_neg(&d->layers_inv[h + k], &d->powers[half - k * step]); /* -omega^(n/2 - e) */
        }
    }

    /* Defaults measured with bench_ntt on a 2-core Zen 4 (1 MiB L2): block
     * passes of 2^14 (512 KiB; the recursive kernel keeps halves of 2^9 in
     * L1, so 2^12 blocks are no faster), column passes of up to 12 stages on
     * 256-512 KiB of columns (2^26 as 12 + 14 beats 6 + 6 + 14).
     * Below 2^10 one pass on the calling thread. */
    d->tune.log_block = 14;
    d->tune.log_col = 12;
    d->tune.cols = 0;
    d->tune.log_single = 10;
    return NTT_OK;
}

void ntt_domain_destroy(ntt_domain *d) {
    free(d->powers);
    free(d->layers);
    free(d->layers_inv);
    d->powers = d->layers = d->layers_inv = NULL;
}

void ntt_vanishing_on_coset(fr *z, const ntt_domain *d, const fr *g) {
    fr one;
    fr_set_one(&one);
    ntt_pow_u64(z, g, d->n);
    fr_sub(z, z, &one);
}

ntt_status ntt_vanishing_on_coset_inv(fr *zinv, const ntt_domain *d, const fr *g) {
    fr z;
    ntt_vanishing_on_coset(&z, d, g);
    if (fr_is_zero(&z))
        return NTT_ERR_NOT_INVERTIBLE;
    fr_inv(zinv, &z);
    return NTT_OK;
}

ntt_status ntt_divide_by_vanishing_on_coset(fr *a, const ntt_domain *d, const fr *g,
                                            unsigned threads) {
    fr zinv;
    ntt_status st = ntt_vanishing_on_coset_inv(&zinv, d, g);
    if (st == NTT_OK)
        ntt_scale(a, d->n, &zinv, threads);
    return st;
}
