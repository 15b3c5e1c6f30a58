/* Number-theoretic transforms over Fr on domains of size n = 2^log_n.
 *
 * The domain is bellperson's EvaluationDomain: omega = 7^((r-1)/n), so for a
 * given n every value here equals the one bellperson computes.
 *   forward:        A_k = sum_j a_j omega^(jk)
 *   inverse:        a_j = n^-1 sum_k A_k omega^(-jk)
 *   coset forward:  A_k = sum_j a_j (g omega^k)^j   (a_j *= g^j, then forward)
 *   coset inverse:  the inverse of that             (inverse, then a_j *= g^-j)
 * Transforms work in place on the caller's n elements.  Each says which order
 * its input and output are in (ntt_order): natural on both sides costs one
 * extra permutation pass, so a chain such as "inverse to bit-reversed, then
 * coset forward from bit-reversed" needs none.
 *
 * A domain is read-only once built: any number of transforms may share it.
 * Every call says how many threads it may use (par_run; 0 or 1 = inline).
 * Results do not depend on the thread count.  Not constant time in the size
 * or the order, constant time in the data (no secrets here anyway). */
#ifndef CUZK_NTT_NTT_H
#define CUZK_NTT_NTT_H

#include <stddef.h>

#include "field/fr.h"

#define NTT_MAX_LOG_N 28
/* The largest in-cache block (2^14 elements = 512 KiB) the layered tables cover. */
#define NTT_MAX_LOG_BLOCK 14

typedef enum {
    NTT_OK = 0,
    NTT_ERR_SIZE,          /* log_n outside [1, NTT_MAX_LOG_N] */
    NTT_ERR_NO_MEMORY,     /* a table or scratch allocation failed; data untouched */
    NTT_ERR_NOT_INVERTIBLE /* a coset shift g = 0, or Z(g) = g^n - 1 = 0 */
} ntt_status;

const char *ntt_status_str(ntt_status s);

typedef enum {
    NTT_NN, /* natural in, natural out */
    NTT_NR, /* natural in, bit-reversed out (no permutation pass) */
    NTT_RN  /* bit-reversed in, natural out (no permutation pass) */
} ntt_order;

/* How a transform is cut into passes (transform.c).  ntt_domain_init sets
 * the defaults; a benchmark or test may change them between calls, never
 * while a transform runs.  Any values give the same results. */
typedef struct {
    unsigned log_block;  /* most stages of the block pass (<= NTT_MAX_LOG_BLOCK) */
    unsigned log_col;    /* most stages of one column pass (a task: 2^log_col rows) */
    unsigned cols;       /* adjacent columns per column task, 1..64; 0: by the rows */
    unsigned log_single; /* up to this log_n, one pass on the calling thread */
} ntt_tuning;

typedef struct {
    unsigned log_n;
    size_t n;
    fr omega;     /* primitive n-th root of unity (7^((r-1)/n) by default) */
    fr omega_inv; /* omega^-1 */
    fr n_inv;     /* n^-1 */
    /* Tables, owned by the domain (ntt_domain_destroy frees them). */
    fr *powers;     /* omega^i for i in [0, n/2]: n/2 + 1 entries (16n bytes) */
    fr *layers;     /* layers[h + j] = omega_2h^j for h = 1, 2, 4.., j < h (block stages) */
    fr *layers_inv; /* layers_inv[h + j] = omega_2h^-j */
    ntt_tuning tune;
} ntt_domain;

/* Builds the domain for n = 2^log_n; threads compute the tables (16n bytes
 * plus 1 MiB at most).  On failure *d holds no memory (destroying it is
 * still allowed). */
ntt_status ntt_domain_init(ntt_domain *d, unsigned log_n, unsigned threads);
/* The same tables for a caller-given primitive n-th root of unity omega
 * (e.g. snarkjs/ffjavascript's 5^((r-1)/n)); ntt_domain_init is this with
 * 7^((r-1)/n).  The caller vouches that omega has order exactly n. */
ntt_status ntt_domain_init_root(ntt_domain *d, unsigned log_n, const fr *omega, unsigned threads);
void ntt_domain_destroy(ntt_domain *d);

/* The transforms: a has d->n elements.  NTT_ERR_NO_MEMORY (scratch: 512 KiB
 * per thread, 1 MiB more, and from 2^27 up n/256 elements more) leaves a
 * untouched. */
ntt_status ntt_forward(fr *a, const ntt_domain *d, ntt_order order, unsigned threads);
ntt_status ntt_inverse(fr *a, const ntt_domain *d, ntt_order order, unsigned threads);
/* g is the coset shift (bellperson: FR_GENERATOR = 7).  The coset inverse
 * needs g != 0 (else NTT_ERR_NOT_INVERTIBLE, a untouched). */
ntt_status ntt_coset_forward(fr *a, const ntt_domain *d, const fr *g, ntt_order order,
                             unsigned threads);
ntt_status ntt_coset_inverse(fr *a, const ntt_domain *d, const fr *g, ntt_order order,
                             unsigned threads);

/* In-place permutation a[i] <-> a[bitrev_log_n(i)], log_n <= NTT_MAX_LOG_N. */
void ntt_bit_reverse(fr *a, unsigned log_n, unsigned threads);

/* a_i *= c * g^i for i < n (c or g may be NULL for 1). */
void ntt_mul_powers(fr *a, size_t n, const fr *c, const fr *g, unsigned threads);
/* a_i *= g^i (bellperson's distribute_powers). */
void ntt_distribute_powers(fr *a, size_t n, const fr *g, unsigned threads);
/* a_i *= c (with c = d->n_inv: the division by n). */
void ntt_scale(fr *a, size_t n, const fr *c, unsigned threads);

/* Z(x) = x^n - 1 is the constant g^n - 1 on the coset g<omega>. */
void ntt_vanishing_on_coset(fr *z, const ntt_domain *d, const fr *g);
/* zinv = 1 / (g^n - 1); NTT_ERR_NOT_INVERTIBLE when g^n = 1 (g in the domain). */
ntt_status ntt_vanishing_on_coset_inv(fr *zinv, const ntt_domain *d, const fr *g);
/* a_i /= g^n - 1 for the domain's n elements (bellperson's divide_by_z_on_coset). */
ntt_status ntt_divide_by_vanishing_on_coset(fr *a, const ntt_domain *d, const fr *g,
                                            unsigned threads);

#endif
