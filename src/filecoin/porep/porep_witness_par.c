/* The PoRep partition's parallel witness: see porep_witness_par.h. */
#include "filecoin/porep/porep_witness_par.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/porep/label_circuit.h"
#include "r1cs/witness.h"
#include "util/err.h"

typedef struct {
    const porep_shape *s;
    const porep_witness *w;
    const r1cs_segment_mark *segs;
    unsigned K;
    porep_ctx x;
    uint32_t *label_var; /* [segment]: aux index of a labeling unit's result */
} par_ctx;

static gnum num_at(uint64_t aux_index, const fr *v) {
    gnum n = {.var = r1cs_aux_var((uint32_t)aux_index), .has_val = 1, .val = *v};
    return n;
}

/* What the units before unit u of challenge c hand on, rebuilt from the
 * segment offsets (every handed-on variable sits at a fixed place in its
 * unit) and the witness.  The labels come from the c_x rows. */
static void rebuild(const par_ctx *p, size_t c, unsigned u, porep_chal *st) {
    const r1cs_segment_mark *m = p->segs + c * p->K;
    const unsigned L = p->s->layers;
    const porep_witness *w = p->w;
    if (u >= POREP_UNIT_LABEL0 && u < POREP_UNIT_LABEL0 + L) {
        for (unsigned i = 0; i < POREP_DRG_PARENTS + POREP_EXP_PARENTS; i++)
            for (unsigned l = 0; l < L; l++) /* the column unit's first L allocations */
                st->cols[i][l] =
                    num_at(m[1 + i].aux + l, &w->rows[(c * POREP_COLUMNS + 1 + i) * L + l]);
        const uint64_t ch = w->challenge[c];
        for (int j = 0; j < 64; j++) /* the challenge unit's first 64 allocations */
            st->ch.bits[j] = (gbool){GBOOL_IS, (int8_t)((ch >> j) & 1),
                                     r1cs_aux_var((uint32_t)(m[POREP_UNIT_CHALLENGE].aux + j))};
        st->ch.has_value = 1;
        st->ch.value = ch;
    } else if (u == POREP_UNIT_LABEL0 + L) {
        st->data_leaf = num_at(m[POREP_UNIT_TREE_D].aux, &w->data_leaf[c]);
        for (unsigned l = 0; l < L; l++) /* a labeling unit's last allocation */
            st->labels[l] =
                num_at(m[POREP_UNIT_LABEL0 + l + 1].aux - 1, &w->rows[(c * POREP_COLUMNS) * L + l]);
    }
}

static int prefix(r1cs_cs *v, void *ctx, char *err, size_t cap) {
    par_ctx *p = ctx;
    if (porep_prefix_synth(v, &p->x, p->s, p->w))
        return err_set(err, cap, "bad shape or incomplete witness");
    return 0;
}

static int unit(r1cs_cs *v, size_t seg, void *ctx, char *err, size_t cap) {
    par_ctx *p = ctx;
    const size_t c = seg / p->K;
    const unsigned u = (unsigned)(seg % p->K);
    porep_chal *st = malloc(sizeof *st);
    if (!st)
        return err_set(err, cap, "out of memory");
    rebuild(p, c, u, st);
    int r = porep_unit_synth(v, &p->x, p->w, c, u, st);
    if (r == 0 && u >= POREP_UNIT_LABEL0 && u < POREP_UNIT_LABEL0 + p->s->layers)
        p->label_var[seg] = r1cs_var_index(st->labels[u - POREP_UNIT_LABEL0].var);
    free(st);
    return r ? err_set(err, cap, "challenge %zu unit %u failed", c, u) : 0;
}

int porep_witness_generate(const porep_shape *s, const porep_witness *w,
                           const r1cs_segment_mark *segs, size_t nseg, size_t num_inputs,
                           size_t num_aux, unsigned threads, fr *input, fr *aux, char *err,
                           size_t cap) {
    if (porep_shape_check(s))
        return err_set(err, cap, "invalid PoRep circuit shape");
    if (!w)
        return err_set(err, cap, "a witness is needed");
    const unsigned K = porep_units_per_challenge(s), L = s->layers;
    if (nseg != (size_t)s->challenges * K)
        return err_set(err, cap, "%zu segments, the shape has %zu (%u challenges x %u units)", nseg,
                       (size_t)s->challenges * K, s->challenges, K);
    for (size_t i = 0; i < nseg; i++)
        if (segs[i].index != i || segs[i].kind != (uint32_t)porep_unit_kind_of(s, i % K))
            return err_set(err, cap,
                           "segment %zu is unit kind %u index %u, the shape's is kind %u index %zu",
                           i, segs[i].kind, segs[i].index, porep_unit_kind_of(s, i % K), i);
    par_ctx p = {.s = s, .w = w, .segs = segs, .K = K};
    p.label_var = calloc(nseg, sizeof *p.label_var);
    if (!p.label_var)
        return err_set(err, cap, "out of memory");
    int r = r1cs_witness_run(segs, nseg, num_inputs, num_aux, threads, input, aux, prefix, unit, &p,
                             err, cap);
    /* the tail units took the labels from the c_x rows: they must be the
     * labeling units' results, at the place the tail assumed */
    for (size_t c = 0; r == 0 && c < s->challenges; c++)
        for (unsigned l = 0; r == 0 && l < L; l++) {
            const size_t seg = c * K + POREP_UNIT_LABEL0 + l;
            const uint64_t want = segs[seg + 1].aux - 1;
            const fr *row = &w->rows[(c * POREP_COLUMNS) * L + l];
            if (p.label_var[seg] != want)
                r = err_set(err, cap, "challenge %zu layer %u: the label is aux %u, not %llu", c,
                            l + 1, p.label_var[seg], (unsigned long long)want);
            else if (memcmp(&aux[want], row, sizeof(fr)) != 0)
                r = err_set(err, cap,
                            "challenge %zu layer %u: the label differs from the c_x column's row",
                            c, l + 1);
        }
    free(p.label_var);
    return r;
}

void porep_witness_fix_labels(const porep_shape *s, fr *rows, const fr *replica_id,
                              const uint64_t *challenge) {
    const size_t L = s->layers;
    uint8_t id[32], base[POREP_DRG_PARENTS + POREP_EXP_PARENTS][32], parents[LABEL_PARENTS][32],
        label[32];
    fr_to_bytes_le(id, replica_id);
    for (size_t c = 0; c < s->challenges; c++)
        for (size_t l = 1; l <= L; l++) {
            size_t np = 0;
            for (unsigned i = 0; i < POREP_DRG_PARENTS; i++, np++)
                fr_to_bytes_le(base[np], &rows[(c * POREP_COLUMNS + 1 + i) * L + l - 1]);
            if (l > 1)
                for (unsigned i = 0; i < POREP_EXP_PARENTS; i++, np++)
                    fr_to_bytes_le(
                        base[np],
                        &rows[(c * POREP_COLUMNS + 1 + POREP_DRG_PARENTS + i) * L + l - 2]);
            for (size_t p = 0; p < LABEL_PARENTS; p++)
                memcpy(parents[p], base[p % np], 32);
            label_native(label, id, (uint32_t)l, challenge[c], &parents[0][0]);
            fr_from_bytes_le(&rows[c * POREP_COLUMNS * L + l - 1], label);
        }
}
