/* Group-independent MSM steps: configuration, splitting scalars into zero /
 * one / other, signed digits, and the window-size model. */
#include <stdlib.h>
#include <string.h>

#include "field/constants.h"
#include "msm/msm_internal.h"
#include "util/parallel.h"

msm_config msm_config_default(unsigned threads) {
    msm_config c = {threads ? threads : 1, 0};
    return c;
}

const char *msm_status_str(msm_status s) {
    switch (s) {
    case MSM_OK:
        return "ok";
    case MSM_ERR_SCALAR_NOT_CANONICAL:
        return "scalar is not a canonical Fr element (>= r)";
    case MSM_ERR_NO_MEMORY:
        return "out of memory";
    }
    return "unknown msm status";
}

static const uint64_t R_LIMBS[4] = {FR_MOD0, FR_MOD1, FR_MOD2, FR_MOD3};

static void load_scalar(uint64_t k[4], const uint8_t *p) { memcpy(k, p, 32); /* LE host */ }

/* 0 = zero, 1 = one, 2 = other, -1 = not canonical. */
static int classify(const uint8_t *p) {
    uint64_t k[4];
    load_scalar(k, p);
    if ((k[1] | k[2] | k[3]) == 0 && k[0] <= 1)
        return (int)k[0];
    for (int i = 3; i >= 0; i--) {
        if (k[i] != R_LIMBS[i])
            return k[i] < R_LIMBS[i] ? 2 : -1;
    }
    return -1; /* k == r */
}

/* Scalars are cut into chunks of whole 64-bit density words, so each chunk's
 * first base index is a popcount prefix. */
#define SPLIT_CHUNK 65536

typedef struct {
    const uint8_t *scalars;
    const uint64_t *density;
    size_t n_scalars;
    size_t *counts; /* per chunk: zero, one, other, bases, first bad (or SIZE_MAX) */
    msm_split *out;
    size_t *offsets; /* per chunk: one offset, other offset, base offset */
} split_job;

static int is_selected(const uint64_t *density, size_t i) {
    return density == NULL || ((density[i / 64] >> (i % 64)) & 1);
}

static void split_count(void *ctx, size_t chunk, unsigned worker) {
    split_job *j = ctx;
    (void)worker;
    size_t begin = chunk * SPLIT_CHUNK, end = begin + SPLIT_CHUNK;
    if (end > j->n_scalars)
        end = j->n_scalars;
    size_t *c = &j->counts[chunk * 5];
    c[0] = c[1] = c[2] = c[3] = 0;
    c[4] = SIZE_MAX;
    for (size_t i = begin; i < end; i++) {
        if (!is_selected(j->density, i))
            continue;
        c[3]++;
        int k = classify(j->scalars + 32 * i);
        if (k < 0) {
            if (c[4] == SIZE_MAX)
                c[4] = i;
            continue;
        }
        c[k]++;
    }
}

static void split_fill(void *ctx, size_t chunk, unsigned worker) {
    split_job *j = ctx;
    (void)worker;
    size_t begin = chunk * SPLIT_CHUNK, end = begin + SPLIT_CHUNK;
    if (end > j->n_scalars)
        end = j->n_scalars;
    size_t one = j->offsets[chunk * 3], other = j->offsets[chunk * 3 + 1];
    size_t base = j->offsets[chunk * 3 + 2];
    for (size_t i = begin; i < end; i++) {
        if (!is_selected(j->density, i))
            continue;
        int k = classify(j->scalars + 32 * i);
        if (k == 1) {
            j->out->one_base[one++] = (uint32_t)base;
        } else if (k == 2) {
            j->out->other_scalar[other] = (uint32_t)i;
            j->out->other_base[other++] = (uint32_t)base;
        }
        base++;
    }
}

msm_status msm_split_scalars(msm_split *s, const uint8_t *scalars, const uint64_t *density,
                             size_t n_scalars, unsigned threads, size_t *bad_index) {
    memset(s, 0, sizeof *s);
    size_t chunks = (n_scalars + SPLIT_CHUNK - 1) / SPLIT_CHUNK;
    split_job j = {scalars, density, n_scalars, NULL, s, NULL};
    j.counts = malloc((chunks ? chunks : 1) * 5 * sizeof(size_t));
    j.offsets = malloc((chunks ? chunks : 1) * 3 * sizeof(size_t));
    if (!j.counts || !j.offsets) {
        free(j.counts);
        free(j.offsets);
        return MSM_ERR_NO_MEMORY;
    }
    par_run(threads, chunks, split_count, &j);
    size_t one = 0, other = 0, base = 0, zero = 0, bad = SIZE_MAX;
    for (size_t c = 0; c < chunks; c++) {
        size_t *k = &j.counts[c * 5];
        j.offsets[c * 3] = one;
        j.offsets[c * 3 + 1] = other;
        j.offsets[c * 3 + 2] = base;
        zero += k[0];
        one += k[1];
        other += k[2];
        base += k[3];
        if (k[4] != SIZE_MAX && bad == SIZE_MAX)
            bad = k[4];
    }
    msm_status st = MSM_OK;
    if (bad != SIZE_MAX) {
        if (bad_index)
            *bad_index = bad;
        st = MSM_ERR_SCALAR_NOT_CANONICAL;
        goto out;
    }
    s->n_zero = zero;
    s->n_one = one;
    s->n_other = other;
    s->one_base = malloc((one ? one : 1) * sizeof(uint32_t));
    s->other_scalar = malloc((other ? other : 1) * sizeof(uint32_t));
    s->other_base = malloc((other ? other : 1) * sizeof(uint32_t));
    if (!s->one_base || !s->other_scalar || !s->other_base) {
        msm_split_free(s);
        st = MSM_ERR_NO_MEMORY;
        goto out;
    }
    par_run(threads, chunks, split_fill, &j);
out:
    free(j.counts);
    free(j.offsets);
    return st;
}

void msm_split_free(msm_split *s) {
    free(s->one_base);
    free(s->other_scalar);
    free(s->other_base);
    s->one_base = NULL;
    s->other_scalar = s->other_base = NULL;
}

unsigned msm_window_count(unsigned c) { return (256 + c - 1) / c; }

typedef struct {
    const msm_split *s;
    const uint8_t *scalars;
    unsigned c, windows;
    int16_t *digits;
} digit_job;

#define DIGIT_CHUNK 16384

/* Window w of k as a plain integer: bits [c w, c w + c). */
static uint32_t window_bits_of(const uint64_t k[4], unsigned c, unsigned w) {
    unsigned bit = c * w;
    if (bit >= 256)
        return 0;
    unsigned limb = bit / 64, off = bit % 64;
    uint64_t v = k[limb] >> off;
    if (off + c > 64 && limb + 1 < 4)
        v |= k[limb + 1] << (64 - off);
    return (uint32_t)(v & ((1u << c) - 1));
}

static void digits_chunk(void *ctx, size_t chunk, unsigned worker) {
    digit_job *j = ctx;
    (void)worker;
    size_t n = j->s->n_other, begin = chunk * DIGIT_CHUNK, end = begin + DIGIT_CHUNK;
    if (end > n)
        end = n;
    int32_t half = 1 << (j->c - 1), full = 1 << j->c;
    for (size_t i = begin; i < end; i++) {
        uint64_t k[4];
        load_scalar(k, j->scalars + 32 * (size_t)j->s->other_scalar[i]);
        int32_t carry = 0;
        for (unsigned w = 0; w < j->windows; w++) {
            int32_t d = (int32_t)window_bits_of(k, j->c, w) + carry;
            carry = 0;
            /* Signed digit in [-2^(c-1), 2^(c-1)); the top window keeps its
             * positive value: k < 2^255 leaves it at most 2^(c-1). */
            if (d >= half && w + 1 < j->windows) {
                d -= full;
                carry = 1;
            }
            j->digits[(size_t)w * n + i] = (int16_t)d;
        }
    }
}

int16_t *msm_signed_digits(const msm_split *s, const uint8_t *scalars, unsigned c, unsigned windows,
                           unsigned threads) {
    int16_t *digits = malloc(((size_t)windows * s->n_other + 1) * sizeof(int16_t));
    if (!digits)
        return NULL;
    digit_job j = {s, scalars, c, windows, digits};
    par_run(threads, (s->n_other + DIGIT_CHUNK - 1) / DIGIT_CHUNK, digits_chunk, &j);
    return digits;
}

/* Cost model: per window, every point costs one bucket addition and every
 * bucket two additions in the reduction; bucket additions are batched affine
 * while the reduction's are Jacobian, about 3.5 times dearer (the G1 figures
 * in docs/PERFORMANCE.md, MSM), so a bucket weighs about 3.5 points.  G2 costs scale alike.  Digits
 * are int16, so c <= 16. */
unsigned msm_auto_window(size_t n, int g2) {
    (void)g2;
    unsigned best = 2;
    double best_cost = 0;
    for (unsigned c = 2; c <= 16; c++) {
        double buckets = (double)(1u << (c - 1));
        double cost = msm_window_count(c) * ((double)n + 3.5 * buckets);
        if (c == 2 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

unsigned msm_chunks_per_window(unsigned windows, unsigned threads, size_t n_other) {
    /* enough tasks for 2 per thread, but no chunk under 4096 points */
    unsigned want = (2 * threads + windows - 1) / windows;
    size_t max_by_size = n_other / 4096;
    if (want > max_by_size)
        want = (unsigned)max_by_size;
    return want ? want : 1;
}
