/* The PoSt partition's parallel witness: see post_witness_par.h. */
#include "filecoin/post/post_witness_par.h"

#include "r1cs/witness.h"
#include "util/err.h"

typedef struct {
    const post_shape *s;
    const post_witness *w;
} par_ctx;

/* The prefix is ONE alone: the view allocated it. */
static int prefix(r1cs_cs *v, void *ctx, char *err, size_t cap) {
    (void)v;
    (void)ctx;
    (void)err;
    (void)cap;
    return 0;
}

static int unit(r1cs_cs *v, size_t seg, void *ctx, char *err, size_t cap) {
    const par_ctx *p = ctx;
    if (post_sector_synth(v, p->s, p->w, seg))
        return err_set(err, cap, "sector %zu failed", seg);
    return 0;
}

int post_witness_generate(const post_shape *s, const post_witness *w, const r1cs_segment_mark *segs,
                          size_t nseg, size_t num_inputs, size_t num_aux, unsigned threads,
                          fr *input, fr *aux, char *err, size_t cap) {
    if (!w || post_witness_valid(s, w))
        return err_set(err, cap, "invalid PoSt shape or witness");
    if (nseg != s->sectors)
        return err_set(err, cap, "%zu segments, the shape has %u sectors", nseg, s->sectors);
    for (size_t i = 0; i < nseg; i++)
        if (segs[i].index != i || segs[i].kind != POST_SEG_SECTOR)
            return err_set(err, cap, "segment %zu is kind %u index %u, not sector %zu", i,
                           segs[i].kind, segs[i].index, i);
    par_ctx p = {s, w};
    return r1cs_witness_run(segs, nseg, num_inputs, num_aux, threads, input, aux, prefix, unit, &p,
                            err, cap);
}
