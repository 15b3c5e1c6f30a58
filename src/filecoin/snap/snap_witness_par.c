/* The SnapDeals partition's parallel witness: see snap_witness_par.h. */
#include "filecoin/snap/snap_witness_par.h"

#include <stdlib.h>

#include "r1cs/witness.h"
#include "util/err.h"

typedef struct {
    const snap_shape *s;
    const snap_witness *w;
    snap_prefix x; /* filled by the prefix, read by every unit */
    int have_prefix;
} par_ctx;

static int prefix(r1cs_cs *v, void *ctx, char *err, size_t cap) {
    par_ctx *p = ctx;
    if (snap_prefix_synth(v, p->s, p->w, &p->x))
        return err_set(err, cap, "bad partition or h, or out of memory");
    p->have_prefix = 1;
    return 0;
}

static int unit(r1cs_cs *v, size_t seg, void *ctx, char *err, size_t cap) {
    const par_ctx *p = ctx;
    gnum *path = malloc(snap_path_scratch(p->s) * sizeof *path + 1);
    if (!path)
        return err_set(err, cap, "out of memory");
    int r = snap_challenge_synth(v, p->s, p->w, &p->x, (unsigned)seg, path);
    free(path);
    return r ? err_set(err, cap, "challenge %zu failed", seg) : 0;
}

int snap_witness_generate(const snap_shape *s, const snap_witness *w, const r1cs_segment_mark *segs,
                          size_t nseg, size_t num_inputs, size_t num_aux, unsigned threads,
                          fr *input, fr *aux, char *err, size_t cap) {
    if (!s || !w)
        return err_set(err, cap, "a SnapDeals shape and witness are needed");
    const unsigned C = s->p.challenges;
    if (nseg != C)
        return err_set(err, cap, "%zu segments, the shape has %u challenges", nseg, C);
    for (size_t i = 0; i < nseg; i++)
        if (segs[i].index != i || segs[i].kind != SNAP_SEGMENT_CHALLENGE)
            return err_set(err, cap, "segment %zu is kind %u index %u, not challenge %zu", i,
                           segs[i].kind, segs[i].index, i);
    par_ctx p = {.s = s, .w = w};
    int r = r1cs_witness_run(segs, nseg, num_inputs, num_aux, threads, input, aux, prefix, unit, &p,
                             err, cap);
    if (p.have_prefix)
        snap_prefix_free(&p.x);
    return r;
}

int snap_partition_job_witness(void *job, const r1cs_pce *p, unsigned threads, fr *input, fr *aux,
                               char *err, size_t cap) {
    const snap_partition_job *j = job;
    return snap_witness_generate(&j->shape, &j->w, p->segments, p->n_segments, p->num_inputs,
                                 p->num_aux, threads, input, aux, err, cap);
}
