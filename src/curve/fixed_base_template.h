/* Fixed-base tables, written once for G1 and G2 (see fixed_base.h).
 * Included by fixed_base.c with PT (g1/g2) defined. */
#ifndef PT
#error "define PT before including fixed_base_template.h"
#endif

#define FB_CAT_(a, b) a##b
#define FB_CAT(a, b) FB_CAT_(a, b)
#define P_(op) FB_CAT(PT, _##op)
#define S_(name) FB_CAT(PT, FB_CAT(_fixed_, name))
#define TAB FB_CAT(PT, _fixed_table)
#define AFF P_(affine)
#define JAC P_(jac)
#define SCR P_(batch_scratch)

typedef struct {
    TAB *tab;
    const AFF *w; /* w[j] = 2^(window j) * base */
    int failed;
} S_(table_job);

/* Row j: row[i] = (i + 1) w[j].  Doubling the filled prefix: with row[0, len)
 * known, row[len + i] = row[i] + row[len - 1], one batched addition per
 * piece (the i = len - 1 term is a doubling, which the batch handles). */
static void S_(table_task)(void *ctx, size_t j, unsigned worker) {
    S_(table_job) *tj = ctx;
    (void)worker;
    size_t per = ((size_t)1 << tj->tab->window) - 1;
    size_t cap = per / 2 + 1 < FB_BATCH ? per / 2 + 1 : FB_BATCH;
    AFF *row = &tj->tab->t[j * per], *top = malloc(cap * sizeof *top);
    SCR s;
    if (!top || P_(batch_scratch_init)(&s, cap)) {
        free(top);
        __atomic_store_n(&tj->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    row[0] = tj->w[j];
    for (size_t len = 1; len < per;) {
        size_t cnt = per - len < len ? per - len : len;
        for (size_t i = 0; i < cnt; i += cap) {
            size_t m = cnt - i < cap ? cnt - i : cap;
            for (size_t q = 0; q < m; q++)
                top[q] = row[len - 1];
            P_(affine_batch_add_vartime)(row + len + i, row + i, top, m, &s);
        }
        len += cnt;
    }
    P_(batch_scratch_free)(&s);
    free(top);
}

int P_(fixed_table_init)(TAB *tab, const AFF *base, unsigned window, unsigned threads) {
    tab->t = NULL;
    if (window < 1 || window > 16)
        return -1;
    size_t per = ((size_t)1 << window) - 1;
    tab->window = window;
    tab->windows = (255 + window - 1) / window;
    tab->t = malloc(tab->windows * per * sizeof *tab->t);
    JAC *wj = malloc(tab->windows * sizeof *wj);
    AFF *w = malloc(tab->windows * sizeof *w);
    if (!tab->t || !wj || !w) {
        free(wj);
        free(w);
        P_(fixed_table_free)(tab);
        return -1;
    }
    P_(jac_from_affine)(&wj[0], base);
    for (unsigned j = 1; j < tab->windows; j++) {
        wj[j] = wj[j - 1];
        for (unsigned b = 0; b < window; b++)
            P_(jac_dbl)(&wj[j], &wj[j]);
    }
    P_(jac_batch_to_affine)(w, wj, tab->windows);
    S_(table_job) tj = {tab, w, 0};
    par_run(threads, tab->windows, S_(table_task), &tj);
    free(wj);
    free(w);
    if (tj.failed) {
        P_(fixed_table_free)(tab);
        return -1;
    }
    return 0;
}

void P_(fixed_table_free)(TAB *tab) {
    free(tab->t);
    tab->t = NULL;
}

typedef struct {
    AFF *out;
    const TAB *tab;
    const fr *k;
    size_t n;
    int failed;
} S_(job);

/* One chunk: out[begin, end) is the affine accumulator, one batched addition
 * of every point's table entry per window (infinity for a zero digit). */
static void S_(task)(void *ctx, size_t task, unsigned worker) {
    S_(job) *j = ctx;
    (void)worker;
    size_t begin = task * FB_BATCH, end = begin + FB_BATCH;
    if (end > j->n)
        end = j->n;
    size_t m = end - begin;
    AFF *acc = j->out + begin, *pt = malloc(m * sizeof *pt);
    uint64_t(*raw)[4] = malloc(m * sizeof *raw);
    SCR s;
    if (!pt || !raw || P_(batch_scratch_init)(&s, m)) {
        free(pt);
        free(raw);
        __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    for (size_t i = 0; i < m; i++)
        fr_to_raw(raw[i], &j->k[begin + i]);
    unsigned w = j->tab->window;
    size_t per = ((size_t)1 << w) - 1;
    for (unsigned win = 0; win < j->tab->windows; win++) {
        unsigned bit = win * w, limb = bit / 64, off = bit % 64;
        const AFF *row = &j->tab->t[win * per];
        AFF *dst = win ? pt : acc; /* the first window only sets acc */
        for (size_t i = 0; i < m; i++) {
            uint64_t v = raw[i][limb] >> off;
            if (off + w > 64 && limb + 1 < 4)
                v |= raw[i][limb + 1] << (64 - off);
            v &= per;
            if (v)
                dst[i] = row[v - 1];
            else
                P_(affine_set_infinity)(&dst[i]);
        }
        if (win)
            P_(affine_batch_add_vartime)(acc, acc, pt, m, &s);
    }
    P_(batch_scratch_free)(&s);
    free(pt);
    free(raw);
}

int P_(fixed_mul_many)(AFF *out, const TAB *tab, const fr *k, size_t n, unsigned threads) {
    S_(job) j = {out, tab, k, n, 0};
    par_run(threads, (n + FB_BATCH - 1) / FB_BATCH, S_(task), &j);
    return j.failed ? -1 : 0;
}

#undef P_
#undef S_
#undef TAB
#undef AFF
#undef JAC
#undef SCR
#undef FB_CAT
#undef FB_CAT_
