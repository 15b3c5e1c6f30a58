/* Fixed-base tables, written once for G1 and G2 (see fixed_base.h).
 * Included by fixed_base.c with PT (g1/g2) defined. */
#ifndef PT
#error "define PT before including fixed_base_template.h"
#endif

#define FB_CAT_(a, b) a##b
#define FB_CAT(a, b) FB_CAT_(a, b)
#define P_(op) FB_CAT(PT, _##op)
#define TAB FB_CAT(PT, _fixed_table)
#define AFF P_(affine)
#define JAC P_(jac)

int P_(fixed_table_init)(TAB *tab, const AFF *base, unsigned window) {
    if (window < 1 || window > 16)
        return -1;
    size_t per = ((size_t)1 << window) - 1;
    tab->window = window;
    tab->windows = (255 + window - 1) / window;
    tab->t = malloc(tab->windows * per * sizeof *tab->t);
    JAC *tmp = malloc(per * sizeof *tmp);
    if (!tab->t || !tmp) {
        free(tab->t);
        free(tmp);
        tab->t = NULL;
        return -1;
    }
    JAC w; /* 2^(window j) * base */
    P_(jac_from_affine)(&w, base);
    for (unsigned j = 0; j < tab->windows; j++) {
        tmp[0] = w;
        for (size_t d = 1; d < per; d++)
            P_(jac_add_vartime)(&tmp[d], &tmp[d - 1], &w);
        P_(jac_batch_to_affine)(&tab->t[j * per], tmp, per);
        P_(jac_add_vartime)(&w, &tmp[per - 1], &w); /* (2^window) * w */
    }
    free(tmp);
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
    size_t n, chunk;
    int failed;
} FB_CAT(PT, _fixed_job);

#define FB_CHUNK 4096

static void FB_CAT(PT, _fixed_task)(void *ctx, size_t task, unsigned worker) {
    FB_CAT(PT, _fixed_job) *j = ctx;
    (void)worker;
    size_t begin = task * FB_CHUNK, end = begin + FB_CHUNK;
    if (end > j->n)
        end = j->n;
    JAC *acc = malloc((end - begin) * sizeof *acc);
    if (!acc) {
        __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    unsigned w = j->tab->window;
    size_t per = ((size_t)1 << w) - 1;
    for (size_t i = begin; i < end; i++) {
        uint64_t raw[4];
        fr_to_raw(raw, &j->k[i]);
        JAC *a = &acc[i - begin];
        P_(jac_set_infinity)(a);
        for (unsigned win = 0; win < j->tab->windows; win++) {
            unsigned bit = win * w, limb = bit / 64, off = bit % 64;
            uint64_t v = raw[limb] >> off;
            if (off + w > 64 && limb + 1 < 4)
                v |= raw[limb + 1] << (64 - off);
            v &= per;
            if (v)
                P_(jac_add_affine_vartime)(a, a, &j->tab->t[win * per + v - 1]);
        }
    }
    P_(jac_batch_to_affine)(j->out + begin, acc, end - begin);
    free(acc);
}

int FB_CAT(PT, _fixed_mul_many)(AFF *out, const TAB *tab, const fr *k, size_t n, unsigned threads) {
    FB_CAT(PT, _fixed_job) j = {out, tab, k, n, FB_CHUNK, 0};
    par_run(threads, (n + FB_CHUNK - 1) / FB_CHUNK, FB_CAT(PT, _fixed_task), &j);
    return j.failed ? -1 : 0;
}

#undef P_
#undef TAB
#undef AFF
#undef JAC
#undef FB_CAT
#undef FB_CAT_
