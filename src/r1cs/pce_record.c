/* The in-memory PCE: taken from a finished recording, expanded back to CSR,
 * the coefficient classes and the evaluation split. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "r1cs/cs_internal.h"
#include "r1cs/pce.h"
#include "util/err.h"

void pce_classify(const fr *dict, uint32_t n, uint8_t *cls, uint8_t *k) {
    for (uint32_t i = 0; i < n; i++) {
        uint64_t raw[4], neg[4];
        fr m;
        fr_to_raw(raw, &dict[i]);
        fr_neg(&m, &dict[i]);
        fr_to_raw(neg, &m);
        cls[i] = PCE_GENERAL;
        k[i] = 0;
        for (int s = 0; s < 2; s++) {
            const uint64_t *r = s ? neg : raw;
            int limbs = 0, limb = 0;
            for (int j = 0; j < 4; j++)
                if (r[j]) {
                    limbs++;
                    limb = j;
                }
            if (limbs != 1 || (r[limb] & (r[limb] - 1)))
                continue;
            unsigned bit = 64u * (unsigned)limb + (unsigned)__builtin_ctzll(r[limb]);
            cls[i] = bit == 0 ? (s ? PCE_MINUS_ONE : PCE_PLUS_ONE)
                              : (s ? PCE_MINUS_POW2 : PCE_PLUS_POW2);
            k[i] = (uint8_t)bit;
            break;
        }
    }
}

/* Work of rows [0, r): terms of the three matrices plus a row's own cost. */
static uint64_t cost(const r1cs_pce *p, uint64_t r) {
    return (uint64_t)p->row_ptr[0][r] + p->row_ptr[1][r] + p->row_ptr[2][r] + 2 * r;
}

int pce_make_tasks(r1cs_pce *p) {
    const uint64_t per_task = (uint64_t)1 << 20, total = cost(p, p->rows);
    size_t n = (size_t)((total + per_task - 1) / per_task);
    if (n == 0)
        n = 1;
    free(p->tasks);
    p->tasks = malloc(n * sizeof *p->tasks);
    if (!p->tasks)
        return -1;
    size_t k = 0;
    uint64_t prev = 0;
    for (size_t t = 1; t <= n; t++) {
        uint64_t end = p->rows;
        if (t < n) { /* the first row whose prefix cost reaches the target */
            uint64_t target = total / n * t, lo = prev, hi = p->rows;
            while (lo < hi) {
                uint64_t mid = lo + (hi - lo) / 2;
                if (cost(p, mid) < target)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            end = lo;
        }
        if (end > prev || (t == n && k == 0))
            p->tasks[k++] = (pce_task){(uint32_t)prev, (uint32_t)end};
        prev = end;
    }
    p->n_tasks = k;
    return 0;
}

void pce_free(r1cs_pce *p) {
    if (p->map)
        munmap(p->map, p->map_bytes);
    for (size_t i = 0; i < sizeof p->owned / sizeof p->owned[0]; i++)
        free(p->owned[i]);
    free(p->tasks);
    memset(p, 0, sizeof *p);
}

static int own(r1cs_pce *p, void *q) {
    for (size_t i = 0; i < sizeof p->owned / sizeof p->owned[0]; i++)
        if (!p->owned[i]) {
            p->owned[i] = q;
            return 0;
        }
    abort(); /* a fixed count of arrays: a programming error */
}

static void mark_density(const r1cs_pce *p, int m, uint64_t *in_bits, uint64_t *aux_bits) {
    const uint32_t *col = p->col[m];
    for (uint64_t k = 0; k < p->nnz[m]; k++) {
        uint32_t v = col[k];
        if (v & PCE_INPUT_TAG) {
            if (in_bits)
                in_bits[(v & R1CS_MAX_INDEX) >> 6] |= (uint64_t)1 << (v & 63);
        } else {
            aux_bits[v >> 6] |= (uint64_t)1 << (v & 63);
        }
    }
}

int pce_from_recording(r1cs_cs *cs, const char *circuit_id, const char *params_stem,
                       uint64_t build_ms, r1cs_pce *out, char *err, size_t cap) {
    memset(out, 0, sizeof *out);
    if (cs->err)
        return err_set(err, cap, "the recording failed: %s", cs->msg);
    if (cs->mode != R1CS_RECORD || !cs->finished || !cs->row_ptr[0].p)
        return err_set(err, cap, "not a finished recording with matrices");
    if (cs->rows >= UINT32_MAX)
        return err_set(err, cap, "%zu rows: more than a PCE holds", cs->rows);
    r1cs_pce *p = out;
    snprintf(p->circuit_id, sizeof p->circuit_id, "%s", circuit_id ? circuit_id : "");
    snprintf(p->params_stem, sizeof p->params_stem, "%s", params_stem ? params_stem : "");
    p->circuit_version = PCE_CIRCUIT_VERSION;
    p->rows = cs->rows;
    p->circuit_rows = cs->circuit_constraints;
    p->num_inputs = cs->num_inputs;
    p->num_aux = cs->num_aux;
    p->dict_len = (uint32_t)cs->dict.len;
    p->coef_width = cs->coef_width; /* u16 unless the dictionary outgrew it */
    p->build_ms = build_ms;
    for (int m = 0; m < 3; m++) {
        r1cs_u32vec *rp = &cs->row_ptr[m], *col = &cs->col[m], *coef = &cs->coef[m];
        p->nnz[m] = col->len;
        for (size_t k = 0; k < col->len; k++) /* aux id -> index, input -> index | tag */
            col->p[k] ^= R1CS_AUX_BIT;
        r1cs_trim(cs, (void **)&rp->p, &rp->cap, rp->len, sizeof(uint32_t));
        r1cs_trim(cs, (void **)&col->p, &col->cap, col->len, sizeof(uint32_t));
        r1cs_trim(cs, (void **)&coef->p, &coef->cap, coef->len, p->coef_width);
        cs->bytes -= (rp->cap + col->cap) * sizeof(uint32_t) + coef->cap * p->coef_width;
        p->row_ptr[m] = rp->p;
        p->col[m] = col->p;
        p->coef[m] = coef->p;
        own(p, rp->p);
        own(p, col->p);
        own(p, coef->p);
        memset(rp, 0, sizeof *rp);
        memset(col, 0, sizeof *col);
        memset(coef, 0, sizeof *coef);
    }
    const size_t wa = r1cs_bitmap_words(p->num_aux), wi = r1cs_bitmap_words(p->num_inputs);
    fr *dict = malloc(p->dict_len * sizeof(fr));
    uint8_t *cls = malloc(2 * (size_t)p->dict_len);
    uint64_t *dens = calloc(2 * wa + wi + 1, sizeof(uint64_t));
    r1cs_segment_mark *seg = malloc((cs->seg_len + 1) * sizeof *seg);
    if (dict)
        own(p, dict);
    if (cls)
        own(p, cls);
    if (dens)
        own(p, dens);
    if (seg)
        own(p, seg);
    if (!dict || !cls || !dens || !seg) {
        pce_free(p);
        return err_set(err, cap, "out of memory making the PCE");
    }
    memcpy(dict, cs->dict.p, p->dict_len * sizeof(fr));
    pce_classify(dict, p->dict_len, cls, cls + p->dict_len);
    p->dict = dict;
    p->dict_class = cls;
    p->dict_k = cls + p->dict_len;
    p->a_aux = dens;
    p->b_input = dens + wa;
    p->b_aux = dens + wa + wi;
    mark_density(p, 0, NULL, dens);
    mark_density(p, 1, dens + wa, dens + wa + wi);
    p->density[0] = r1cs_bitmap_popcount(p->a_aux, p->num_aux);
    p->density[1] = r1cs_bitmap_popcount(p->b_input, p->num_inputs);
    p->density[2] = r1cs_bitmap_popcount(p->b_aux, p->num_aux);
    if (cs->seg_len)
        memcpy(seg, cs->seg, cs->seg_len * sizeof *seg);
    p->segments = seg;
    p->n_segments = (uint32_t)cs->seg_len;
    if (pce_make_tasks(p)) {
        pce_free(p);
        return err_set(err, cap, "out of memory making the PCE");
    }
    return 0;
}

int pce_to_matrices(const r1cs_pce *p, r1cs_matrices *out) {
    memset(out, 0, sizeof *out);
    out->num_constraints = p->rows;
    out->num_inputs = p->num_inputs;
    out->num_aux = p->num_aux;
    r1cs_csr *mx[3] = {&out->a, &out->b, &out->c};
    for (int m = 0; m < 3; m++) {
        r1cs_csr *c = mx[m];
        size_t nnz = p->nnz[m];
        c->rows = p->rows;
        c->row_ptr = malloc((p->rows + 1) * sizeof(uint32_t));
        c->col = malloc((nnz ? nnz : 1) * sizeof(uint32_t));
        c->val = malloc((nnz ? nnz : 1) * sizeof(fr));
        if (!c->row_ptr || !c->col || !c->val) {
            r1cs_matrices_free(out);
            return -1;
        }
        memcpy(c->row_ptr, p->row_ptr[m], (p->rows + 1) * sizeof(uint32_t));
        for (size_t k = 0; k < nnz; k++) {
            uint32_t v = p->col[m][k];
            c->col[k] = (v & PCE_INPUT_TAG) ? (v & R1CS_MAX_INDEX) : (uint32_t)p->num_inputs + v;
            uint32_t d = p->coef_width == 2 ? ((const uint16_t *)p->coef[m])[k]
                                            : ((const uint32_t *)p->coef[m])[k];
            c->val[k] = p->dict[d];
        }
    }
    return 0;
}
