/* neptune's OptimizedStatic constants (see poseidon_neptune.h), following
 * neptune v11 src/preprocessing.rs compress_round_constants (with every partial
 * round preprocessed) and src/mds.rs factor_to_sparse_matrices.  Matrix inverses
 * are unique, so Gauss-Jordan gives neptune's cofactor-method values. */
#include "gadget/poseidon_neptune.h"
#include "gadget/poseidon_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* out_j = sum_i v_i * a[i][j]: neptune's apply_matrix (row vector x matrix). */
static void row_apply(fr *out, const fr *a, const fr *v, unsigned n) {
    for (unsigned j = 0; j < n; j++) {
        fr acc, prod;
        fr_set_zero(&acc);
        for (unsigned i = 0; i < n; i++) {
            fr_mul(&prod, &a[i * n + j], &v[i]);
            fr_add(&acc, &acc, &prod);
        }
        out[j] = acc;
    }
}

/* Round keys moved behind the S-boxes by pushing them back through M^-1;
 * partial rounds keep only the key of the S-boxed element 0. */
static void compress(fr *res, const poseidon_params *p, const fr *minv, fr *acc, fr *tmp, fr *pk) {
    const unsigned t = p->t, h = p->rf / 2, rp = p->rp;
#define RK(r) (p->rc + (size_t)(r)*t)
    size_t o = 0;
    memcpy(res, RK(0), t * sizeof(fr)); /* added before the first S-boxes */
    o += t;
    for (unsigned i = 0; i + 1 < h; i++, o += t)
        row_apply(res + o, minv, RK(i + 1), t);
    /* backwards from the first second-half full round through the partial ones */
    memcpy(acc, RK(h + rp), t * sizeof(fr));
    for (unsigned i = 0; i < rp; i++) {
        row_apply(tmp, minv, acc, t);
        pk[i] = tmp[0];
        fr_set_zero(&tmp[0]);
        for (unsigned j = 0; j < t; j++)
            fr_add(&acc[j], &RK(h + rp - i - 1)[j], &tmp[j]);
    }
    row_apply(res + o, minv, acc, t);
    o += t;
    for (unsigned i = 0; i < rp; i++)
        res[o++] = pk[rp - 1 - i];
    for (unsigned i = 1; i < h; i++, o += t)
        row_apply(res + o, minv, RK(i + h + rp), t);
#undef RK
}

/* Starting from the last partial round: curr = M' * M'' with M'' sparse; the
 * round before then uses M * M' and is factored the same way; what is left
 * after the first partial round is the pre-sparse matrix. */
static int factor(poseidon_neptune *nn, fr *w_hat, fr *v_rest, fr *pre, fr *scratch) {
    const poseidon_params *p = nn->p;
    const unsigned t = p->t, n = t - 1, rp = p->rp;
    fr *curr = pre, *next = scratch, *mhat = next + t * t, *mhat_inv = mhat + n * n;
    fr *w = mhat_inv + n * n, *wh = w + n;
    memcpy(curr, p->mds, (size_t)t * t * sizeof(fr));
    for (unsigned k = 0; k < rp; k++) {
        for (unsigned i = 0; i < n; i++) {
            for (unsigned j = 0; j < n; j++)
                mhat[i * n + j] = curr[(i + 1) * t + j + 1];
            w[i] = curr[(i + 1) * t];
        }
        if (!poseidon_mat_inv(mhat_inv, mhat, n))
            return 0;
        row_apply(wh, mhat_inv, w, n);
        const unsigned idx = rp - 1 - k; /* neptune reverses the list */
        w_hat[(size_t)idx * t] = curr[0];
        memcpy(&w_hat[(size_t)idx * t + 1], wh, n * sizeof(fr));
        memcpy(&v_rest[(size_t)idx * n], &curr[1], n * sizeof(fr));
        /* next = M * M', M' = diag(1, curr[1..][1..]) */
        for (unsigned i = 0; i < t; i++) {
            next[i * t] = p->mds[i * t];
            for (unsigned j = 1; j < t; j++) {
                fr acc, prod;
                fr_set_zero(&acc);
                for (unsigned q = 1; q < t; q++) {
                    fr_mul(&prod, &p->mds[i * t + q], &curr[q * t + j]);
                    fr_add(&acc, &acc, &prod);
                }
                next[i * t + j] = acc;
            }
        }
        memcpy(curr, next, (size_t)t * t * sizeof(fr));
    }
    return 1;
}

static poseidon_neptune *build(const poseidon_params *p) {
    const unsigned t = p->t, n = t - 1, rp = p->rp;
    const size_t tt = (size_t)t * t, ncomp = (size_t)p->rf * t + rp;
    poseidon_neptune *nn = malloc(sizeof *nn);
    fr *mem = malloc((ncomp + tt + (size_t)rp * t + (size_t)rp * n) * sizeof(fr));
    fr *scratch = malloc((3 * tt + 2 * (size_t)n * n + 2 * n + 3 * t + rp) * sizeof(fr));
    if (!nn || !mem || !scratch)
        goto fail;
    nn->p = p;
    fr *comp = mem, *pre = comp + ncomp, *w_hat = pre + tt, *v_rest = w_hat + (size_t)rp * t;
    fr *minv = scratch, *tmpm = minv + tt, *rest = tmpm + tt;
    memcpy(tmpm, p->mds, tt * sizeof(fr));
    if (!poseidon_mat_inv(minv, tmpm, t))
        goto fail;
    fr *acc = rest, *tmp = acc + t, *pk = tmp + t;
    compress(comp, p, minv, acc, tmp, pk);
    if (!factor(nn, w_hat, v_rest, pre, rest))
        goto fail;
    nn->compressed_rc = comp;
    nn->pre_sparse = pre;
    nn->w_hat = w_hat;
    nn->v_rest = v_rest;
    free(scratch);
    return nn;
fail:
    free(scratch);
    free(mem);
    free(nn);
    return NULL;
}

static const unsigned arities[] = {2, 4, 8, 11, 16, 24, 36};
#define NSLOTS (sizeof arities / sizeof arities[0])
static poseidon_neptune *cache[NSLOTS];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

const poseidon_neptune *poseidon_neptune_get(unsigned arity) {
    unsigned s = 0;
    while (s < NSLOTS && arities[s] != arity)
        s++;
    if (s == NSLOTS)
        return NULL;
    poseidon_neptune *nn = __atomic_load_n(&cache[s], __ATOMIC_ACQUIRE);
    if (nn)
        return nn;
    const poseidon_params *p = poseidon_params_get(arity);
    pthread_mutex_lock(&cache_lock);
    nn = cache[s];
    if (!nn && p) {
        nn = build(p);
        __atomic_store_n(&cache[s], nn, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&cache_lock);
    return nn;
}

static inline void sbox_post(fr *x, const fr *post) {
    fr x2, x4;
    fr_sqr(&x2, x);
    fr_sqr(&x4, &x2);
    fr_mul(x, &x4, x);
    if (post)
        fr_add(x, x, post);
}

/* neptune round_product_mds: pre-sparse at round h-1, sparse in the partial
 * rounds, M elsewhere; all as row vector x matrix. */
static void product(const poseidon_neptune *nn, unsigned round, fr *e) {
    const poseidon_params *p = nn->p;
    const unsigned t = p->t, h = p->rf / 2;
    fr out[POSEIDON_MAX_WIDTH];
    if (round >= h && round < h + p->rp) {
        const fr *w = nn->w_hat + (size_t)(round - h) * t;
        const fr *v = nn->v_rest + (size_t)(round - h) * (t - 1);
        fr acc, prod;
        fr_set_zero(&acc);
        for (unsigned i = 0; i < t; i++) {
            fr_mul(&prod, &w[i], &e[i]);
            fr_add(&acc, &acc, &prod);
        }
        for (unsigned j = 1; j < t; j++) {
            fr_mul(&prod, &v[j - 1], &e[0]);
            fr_add(&out[j], &e[j], &prod);
        }
        out[0] = acc;
    } else {
        row_apply(out, round == h - 1 ? nn->pre_sparse : p->mds, e, t);
    }
    memcpy(e, out, t * sizeof(fr));
}

void poseidon_neptune_permute(const poseidon_neptune *nn, fr *e) {
    const poseidon_params *p = nn->p;
    const unsigned t = p->t, h = p->rf / 2;
    const fr *k = nn->compressed_rc;
    unsigned round = 0;
    for (unsigned i = 0; i < t; i++)
        fr_add(&e[i], &e[i], &k[i]);
    k += t;
    for (unsigned r = 0; r < h; r++, k += t) {
        for (unsigned i = 0; i < t; i++)
            sbox_post(&e[i], &k[i]);
        product(nn, round++, e);
    }
    for (unsigned r = 0; r < p->rp; r++, k++) {
        sbox_post(&e[0], k);
        product(nn, round++, e);
    }
    for (unsigned r = 0; r < h; r++) {
        const int last = r + 1 == h; /* no key after the last S-box layer */
        for (unsigned i = 0; i < t; i++)
            sbox_post(&e[i], last ? NULL : &k[i]);
        if (!last)
            k += t;
        product(nn, round++, e);
    }
}
