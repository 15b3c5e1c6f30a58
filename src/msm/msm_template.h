/* Pippenger MSM, written once for G1 and G2.
 *
 * Included by msm_g1.c / msm_g2.c with PT (g1/g2) defined.
 *
 * Bucket accumulation uses batched affine additions: a batch collects up to
 * BATCH (bucket, point) pairs with distinct buckets and adds them with one
 * field inversion (PT_affine_batch_add_vartime, curve layer): about 6
 * multiplications per addition against 11 for a mixed Jacobian one.  A point
 * whose bucket is already in the batch waits in a queue; when conflicts leave batches too small to
 * pay for their inversion, the rest go into Jacobian buckets instead, as do the points of a range
 * too short to fill one batch.  The bucket reduction and window combination are Jacobian. */
#ifndef PT
#error "define PT before including msm_template.h"
#endif

#include <stdlib.h>
#include <string.h>

#include "msm/msm_internal.h"
#include "util/parallel.h"
#include "util/timing.h"

#define MT_CAT_(a, b) a##b
#define MT_CAT(a, b) MT_CAT_(a, b)
#define P_(op) MT_CAT(PT, _##op)
#define S_(name) MT_CAT(PT, MT_CAT(_msm_, name))
#define AFF P_(affine)
#define JAC P_(jac)

enum { BATCH = 2048, MIN_USEFUL_BATCH = 64 };

/* One window's buckets over one range of points. */
typedef struct {
    AFF *buckets; /* affine buckets, infinity = (0, 0) */
    JAC *jbuckets;
    uint8_t *busy; /* bucket is in the current batch */
    size_t n_buckets;
    /* the batch */
    uint32_t *b_idx;
    AFF *b_pt, *b_acc;
    size_t nb;
    P_(batch_scratch) s;
    /* points waiting for their bucket to leave the batch */
    uint32_t *q_idx;
    AFF *q_pt;
    size_t nq, q_cap;
    int batch_affine;
} S_(acc);

static int S_(acc_init)(S_(acc) * a, size_t n_buckets, int batch_affine) {
    memset(a, 0, sizeof *a);
    a->n_buckets = n_buckets;
    a->batch_affine = batch_affine;
    if (!batch_affine) {
        a->jbuckets = calloc(n_buckets, sizeof *a->jbuckets);
        return a->jbuckets != NULL;
    }
    a->buckets = calloc(n_buckets, sizeof *a->buckets);
    a->busy = calloc(n_buckets, 1);
    a->b_idx = malloc(BATCH * sizeof *a->b_idx);
    a->b_pt = malloc(BATCH * sizeof *a->b_pt);
    a->b_acc = malloc(BATCH * sizeof *a->b_acc);
    int s_ok = P_(batch_scratch_init)(&a->s, BATCH) == 0;
    a->q_cap = BATCH;
    a->q_idx = malloc(a->q_cap * sizeof *a->q_idx);
    a->q_pt = malloc(a->q_cap * sizeof *a->q_pt);
    return a->buckets && a->busy && a->b_idx && a->b_pt && a->b_acc && s_ok && a->q_idx && a->q_pt;
}

static void S_(acc_free)(S_(acc) * a) {
    free(a->buckets);
    free(a->jbuckets);
    free(a->busy);
    free(a->b_idx);
    free(a->b_pt);
    free(a->b_acc);
    P_(batch_scratch_free)(&a->s);
    free(a->q_idx);
    free(a->q_pt);
}

/* Jacobian bucket b += p (allocating the Jacobian buckets on first use). */
static int S_(acc_add_jacobian)(S_(acc) * a, uint32_t b, const AFF *p) {
    if (!a->jbuckets) {
        a->jbuckets = calloc(a->n_buckets, sizeof *a->jbuckets);
        if (!a->jbuckets)
            return 0;
    }
    P_(jac_add_affine_vartime)(&a->jbuckets[b], &a->jbuckets[b], p);
    return 1;
}

static void S_(acc_flush)(S_(acc) * a) {
    size_t n = a->nb;
    for (size_t k = 0; k < n; k++)
        a->b_acc[k] = a->buckets[a->b_idx[k]];
    P_(affine_batch_add_vartime)(a->b_acc, a->b_acc, a->b_pt, n, &a->s);
    for (size_t k = 0; k < n; k++) {
        a->buckets[a->b_idx[k]] = a->b_acc[k];
        a->busy[a->b_idx[k]] = 0;
    }
    a->nb = 0;
}

/* Places p in bucket b now (empty bucket) or in the batch; 0 if b is busy. */
static int S_(acc_try_place)(S_(acc) * a, uint32_t b, const AFF *p) {
    if (a->busy[b])
        return 0;
    if (P_(affine_is_infinity)(&a->buckets[b])) {
        a->buckets[b] = *p;
        return 1;
    }
    a->busy[b] = 1;
    a->b_idx[a->nb] = b;
    a->b_pt[a->nb++] = *p;
    return 1;
}

/* Moves queued points whose buckets are free into the batch (while it has room). */
static void S_(acc_requeue)(S_(acc) * a) {
    size_t keep = 0;
    for (size_t i = 0; i < a->nq; i++) {
        if (a->nb < BATCH && S_(acc_try_place)(a, a->q_idx[i], &a->q_pt[i]))
            continue;
        a->q_idx[keep] = a->q_idx[i];
        a->q_pt[keep++] = a->q_pt[i];
    }
    a->nq = keep;
}

static int S_(acc_insert)(S_(acc) * a, uint32_t b, const AFF *p) {
    if (!a->batch_affine)
        return S_(acc_add_jacobian)(a, b, p);
    if (!S_(acc_try_place)(a, b, p)) {
        if (a->nq == a->q_cap) { /* a long queue means few distinct buckets: go Jacobian */
            return S_(acc_add_jacobian)(a, b, p);
        }
        a->q_idx[a->nq] = b;
        a->q_pt[a->nq++] = *p;
    }
    if (a->nb == BATCH) {
        S_(acc_flush)(a);
        S_(acc_requeue)(a);
    }
    return 1;
}

static int S_(acc_finish)(S_(acc) * a) {
    if (!a->batch_affine)
        return 1;
    for (;;) {
        if (a->nb)
            S_(acc_flush)(a);
        if (a->nq == 0)
            return 1;
        S_(acc_requeue)(a);
        if (a->nb < MIN_USEFUL_BATCH) {
            /* conflicts leave batches too small to pay for an inversion */
            S_(acc_flush)(a);
            for (size_t i = 0; i < a->nq; i++)
                if (!S_(acc_add_jacobian)(a, a->q_idx[i], &a->q_pt[i]))
                    return 0;
            a->nq = 0;
            return 1;
        }
    }
}

/* sum_b (b + 1) * bucket_b by running sums, top bucket first. */
static void S_(acc_reduce)(JAC *out, const S_(acc) * a) {
    JAC running, total;
    P_(jac_set_infinity)(&running);
    P_(jac_set_infinity)(&total);
    for (size_t b = a->n_buckets; b-- > 0;) {
        if (a->buckets)
            P_(jac_add_affine_vartime)(&running, &running, &a->buckets[b]);
        if (a->jbuckets)
            P_(jac_add_vartime)(&running, &running, &a->jbuckets[b]);
        P_(jac_add_vartime)(&total, &total, &running);
    }
    *out = total;
}

/* ---- the whole MSM ------------------------------------------------------- */

typedef struct {
    const AFF *bases;
    const msm_split *split;
    const int16_t *digits;
    unsigned c, windows, chunks;
    JAC *window_sums; /* windows * chunks */
    double *bucket_ms, *reduce_ms;
    int failed;
} S_(job);

static void S_(window_task)(void *ctx, size_t task, unsigned worker) {
    S_(job) *j = ctx;
    (void)worker;
    unsigned w = (unsigned)(task / j->chunks), chunk = (unsigned)(task % j->chunks);
    size_t n = j->split->n_other;
    size_t begin = n * chunk / j->chunks, end = n * (chunk + 1) / j->chunks;
    double t0 = timing_now_ms();
    S_(acc) a;
    /* A range too short to fill one useful batch would only pay for the
     * batch buffers (~1.6 MB for G2, per window): Jacobian buckets instead. */
    int affine = end - begin >= MIN_USEFUL_BATCH;
    int ok = S_(acc_init)(&a, (size_t)1 << (j->c - 1), affine);
    const int16_t *d = j->digits + (size_t)w * n;
    for (size_t i = begin; ok && i < end; i++) {
        int v = d[i];
        if (v == 0)
            continue;
        AFF p = j->bases[j->split->other_base[i]];
        if (v < 0) {
            P_(affine_neg)(&p, &p);
            v = -v;
        }
        if (!P_(affine_is_infinity)(&p))
            ok = S_(acc_insert)(&a, (uint32_t)(v - 1), &p);
    }
    ok = ok && S_(acc_finish)(&a);
    double t1 = timing_now_ms();
    if (ok)
        S_(acc_reduce)(&j->window_sums[task], &a);
    else
        __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
    S_(acc_free)(&a);
    j->bucket_ms[task] = t1 - t0;
    j->reduce_ms[task] = timing_now_ms() - t1;
}

/* ---- ones: a tree of batched affine additions ------------------------------ */

typedef struct {
    const AFF *bases;
    const uint32_t *idx;
    size_t n, chunks;
    JAC *sums;
    int failed;
} S_(ones_job);

static void S_(ones_task)(void *ctx, size_t chunk, unsigned worker) {
    S_(ones_job) *j = ctx;
    (void)worker;
    size_t begin = j->n * chunk / j->chunks, end = j->n * (chunk + 1) / j->chunks;
    size_t m = end - begin;
    AFF *tmp = malloc((m ? m : 1) * sizeof *tmp);
    P_(batch_scratch) s;
    int s_ok = P_(batch_scratch_init)(&s, BATCH) == 0;
    P_(jac_set_infinity)(&j->sums[chunk]);
    if (!tmp || !s_ok) {
        __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
    } else {
        for (size_t i = 0; i < m; i++)
            tmp[i] = j->bases[j->idx[begin + i]];
        /* halve: tmp[k] = tmp[k] + tmp[k + half], an odd one out moves down */
        while (m > 1) {
            size_t half = m / 2;
            for (size_t k = 0; k < half; k += BATCH) {
                size_t len = half - k < BATCH ? half - k : BATCH;
                P_(affine_batch_add_vartime)(tmp + k, tmp + k, tmp + half + k, len, &s);
            }
            if (m & 1)
                tmp[half] = tmp[m - 1];
            m = half + (m & 1);
        }
        if (m == 1)
            P_(jac_from_affine)(&j->sums[chunk], &tmp[0]);
    }
    free(tmp);
    if (s_ok)
        P_(batch_scratch_free)(&s);
}

static msm_status S_(run)(JAC *out, const AFF *bases, const uint8_t *scalars,
                          const uint64_t *density, size_t n_scalars, const msm_config *cfg_in,
                          msm_stats *stats, size_t *bad_index) {
    double t_start = timing_now_ms();
    msm_config cfg = cfg_in ? *cfg_in : msm_config_default(1);
    unsigned threads = cfg.threads ? cfg.threads : 1;
    msm_stats st;
    memset(&st, 0, sizeof st);
    P_(jac_set_infinity)(out);

    msm_split split;
    msm_status rc = msm_split_scalars(&split, scalars, density, n_scalars, threads, bad_index);
    if (rc != MSM_OK)
        return rc;
    st.n_zero = split.n_zero;
    st.n_one = split.n_one;
    st.n_other = split.n_other;

    unsigned c = cfg.window_bits ? cfg.window_bits : msm_auto_window(split.n_other, 0);
    if (c < 1)
        c = 1;
    if (c > 16)
        c = 16; /* digits are int16 */
    unsigned windows = msm_window_count(c);
    st.window_bits = c;
    st.windows = windows;
    int16_t *digits = NULL;
    if (split.n_other) {
        digits = msm_signed_digits(&split, scalars, c, windows, threads);
        if (!digits) {
            msm_split_free(&split);
            return MSM_ERR_NO_MEMORY;
        }
    }
    double t_classified = timing_now_ms();
    st.classify_ms = t_classified - t_start;

    /* ones */
    JAC ones_sum;
    P_(jac_set_infinity)(&ones_sum);
    if (split.n_one) {
        size_t chunks = threads;
        if (chunks > split.n_one / 1024 + 1)
            chunks = split.n_one / 1024 + 1;
        S_(ones_job) oj = {bases, split.one_base, split.n_one, chunks, NULL, 0};
        oj.sums = malloc(chunks * sizeof *oj.sums);
        if (!oj.sums) {
            rc = MSM_ERR_NO_MEMORY;
            goto done;
        }
        par_run(threads, chunks, S_(ones_task), &oj);
        for (size_t i = 0; i < chunks; i++)
            P_(jac_add_vartime)(&ones_sum, &ones_sum, &oj.sums[i]);
        free(oj.sums);
        if (oj.failed) {
            rc = MSM_ERR_NO_MEMORY;
            goto done;
        }
    }
    st.ones_ms = timing_now_ms() - t_classified;

    /* the rest: Pippenger */
    JAC acc;
    P_(jac_set_infinity)(&acc);
    if (split.n_other) {
        unsigned chunks = msm_chunks_per_window(windows, threads, split.n_other);
        size_t tasks = (size_t)windows * chunks;
        S_(job) j = {bases, &split, digits, c, windows, chunks, NULL, NULL, NULL, 0};
        j.window_sums = malloc(tasks * sizeof *j.window_sums);
        j.bucket_ms = calloc(tasks, sizeof(double));
        j.reduce_ms = calloc(tasks, sizeof(double));
        if (!j.window_sums || !j.bucket_ms || !j.reduce_ms) {
            free(j.window_sums);
            free(j.bucket_ms);
            free(j.reduce_ms);
            rc = MSM_ERR_NO_MEMORY;
            goto done;
        }
        par_run(threads, tasks, S_(window_task), &j);
        double t_combine = timing_now_ms();
        for (unsigned w = windows; w-- > 0;) {
            for (unsigned i = 0; i < c; i++)
                P_(jac_dbl)(&acc, &acc);
            for (unsigned k = 0; k < chunks; k++)
                P_(jac_add_vartime)(&acc, &acc, &j.window_sums[(size_t)w * chunks + k]);
        }
        for (size_t t = 0; t < tasks; t++) {
            st.buckets_ms += j.bucket_ms[t];
            st.reduce_ms += j.reduce_ms[t];
        }
        st.reduce_ms += timing_now_ms() - t_combine;
        free(j.window_sums);
        free(j.bucket_ms);
        free(j.reduce_ms);
        if (j.failed) {
            rc = MSM_ERR_NO_MEMORY;
            goto done;
        }
    }
    P_(jac_add_vartime)(out, &acc, &ones_sum);
done:
    free(digits);
    msm_split_free(&split);
    st.total_ms = timing_now_ms() - t_start;
    if (stats)
        *stats = st;
    if (rc != MSM_OK)
        P_(jac_set_infinity)(out);
    return rc;
}

msm_status MT_CAT(msm_, PT)(JAC *out, const AFF *bases, const uint8_t *scalars, size_t n,
                            const msm_config *cfg, msm_stats *stats, size_t *bad_index) {
    return S_(run)(out, bases, scalars, NULL, n, cfg, stats, bad_index);
}

msm_status MT_CAT(msm_, MT_CAT(PT, _masked))(JAC *out, const AFF *bases, const uint8_t *scalars,
                                             const uint64_t *density, size_t n_scalars,
                                             const msm_config *cfg, msm_stats *stats,
                                             size_t *bad_index) {
    return S_(run)(out, bases, scalars, density, n_scalars, cfg, stats, bad_index);
}

#undef P_
#undef S_
#undef AFF
#undef JAC
#undef MT_CAT
#undef MT_CAT_
