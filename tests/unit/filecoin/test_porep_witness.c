/* Witness-only synthesis (R1CS_WITNESS) of the PoRep and PoSt circuits, serial
 * and parallel over segments, against classic R1CS_PROVE synthesis:
 *  - porep-2k (and, with the argument porep-8m, the 8 MiB partition and an
 *    L = 11, 8-8-2 shape: ctest label slow), winning-2k and window-2k, random witnesses (a PoRep's
 * c_x rows set to the labels of its parents' rows, as a real witness has them): input and aux of
 * the serial witness mode and of porep_witness_generate / post_witness_generate with T = 1, 2, 3, 7
 * are byte-identical to R1CS_PROVE's;
 *  - the segment marks come from a counting run of the blank circuit;
 *  - a segment table one variable short (a unit allocating past its end) or
 *    one long (a unit ending early), of another shape, or a c_x row that is
 *    not the label are refused with a message. */
#include "check.h"
#include "field_rand.h"
#include "filecoin/porep/porep_circuit.h"
#include "filecoin/porep/porep_witness_par.h"
#include "filecoin/post/post_circuit.h"
#include "filecoin/post/post_witness_par.h"

/* Segment marks and counts of the blank circuit (porep or post). */
typedef struct {
    r1cs_segment_mark *segs;
    size_t nseg, inputs, aux;
} blank;

static void get_blank(blank *b, const porep_shape *ps, const post_shape *qs) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    CHECK(cs != NULL);
    CHECK((ps ? porep_circuit_synthesize(cs, ps, NULL) : post_circuit_synthesize(cs, qs, NULL)) ==
          0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    const r1cs_segment_mark *m;
    b->nseg = r1cs_get_segments(cs, &m);
    b->segs = malloc(b->nseg * sizeof *m);
    memcpy(b->segs, m, b->nseg * sizeof *m);
    b->inputs = r1cs_num_inputs(cs);
    b->aux = r1cs_num_aux(cs);
    r1cs_cs_free(cs);
}

static void rand_index(uint32_t *out, size_t n, const por_shape *t) {
    const unsigned lv = por_shape_levels(t);
    for (size_t i = 0; i < n; i++)
        out[i] = (uint32_t)(check_rand64() % por_shape_arity(t, (unsigned)(i % lv)));
}

static fr *rand_frs(size_t n) {
    fr *f = malloc((n ? n : 1) * sizeof(fr));
    for (size_t i = 0; i < n; i++)
        f[i] = rand_fr();
    return f;
}

/* The classic partition's input and aux. */
static void classic(const porep_shape *ps, const post_shape *qs, const void *w, r1cs_partition *p) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    CHECK((ps ? porep_circuit_synthesize(cs, ps, w) : post_circuit_synthesize(cs, qs, w)) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    CHECK(r1cs_take_partition(cs, p) == R1CS_OK);
    r1cs_cs_free(cs);
}

/* Serial witness mode == classic. */
static void check_serial(const porep_shape *ps, const post_shape *qs, const void *w,
                         const r1cs_partition *p) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_WITNESS, 0, NULL);
    CHECK(!r1cs_wants_lcs(cs) && r1cs_has_values(cs));
    CHECK((ps ? porep_circuit_synthesize(cs, ps, w) : post_circuit_synthesize(cs, qs, w)) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    CHECK(r1cs_num_constraints(cs) == 0);
    fr *in, *aux;
    size_t ni, na;
    CHECK(r1cs_take_witness(cs, &in, &ni, &aux, &na) == R1CS_OK);
    CHECK(ni == p->num_inputs && na == p->num_aux);
    if (ni == p->num_inputs && na == p->num_aux) {
        CHECK_MEM(in, p->input, ni * sizeof(fr));
        CHECK_MEM(aux, p->aux, na * sizeof(fr));
    }
    free(in);
    free(aux);
    r1cs_cs_free(cs);
}

typedef int (*gen_fn)(const void *shape, const void *w, const r1cs_segment_mark *segs, size_t nseg,
                      size_t ni, size_t na, unsigned threads, fr *in, fr *aux, char *err,
                      size_t cap);
static int gen_porep(const void *s, const void *w, const r1cs_segment_mark *segs, size_t nseg,
                     size_t ni, size_t na, unsigned t, fr *in, fr *aux, char *err, size_t cap) {
    return porep_witness_generate(s, w, segs, nseg, ni, na, t, in, aux, err, cap);
}
static int gen_post(const void *s, const void *w, const r1cs_segment_mark *segs, size_t nseg,
                    size_t ni, size_t na, unsigned t, fr *in, fr *aux, char *err, size_t cap) {
    return post_witness_generate(s, w, segs, nseg, ni, na, t, in, aux, err, cap);
}

/* Parallel witness == classic for several thread counts; bad tables refused. */
static void check_parallel(gen_fn gen, const void *shape, const void *w, const blank *b,
                           const r1cs_partition *p, int bad_cases) {
    CHECK(b->inputs == p->num_inputs && b->aux == p->num_aux);
    fr *in = malloc(b->inputs * sizeof(fr)), *aux = malloc(b->aux * sizeof(fr));
    char err[256];
    static const unsigned threads[] = {1, 2, 3, 7};
    for (size_t t = 0; t < 4; t++) {
        memset(in, 0xa5, b->inputs * sizeof(fr));
        memset(aux, 0x5a, b->aux * sizeof(fr));
        err[0] = 0;
        int r = gen(shape, w, b->segs, b->nseg, b->inputs, b->aux, threads[t], in, aux, err,
                    sizeof err);
        if (r)
            fprintf(stderr, "T = %u: %s\n", threads[t], err);
        CHECK(r == 0);
        CHECK_MEM(in, p->input, b->inputs * sizeof(fr));
        CHECK_MEM(aux, p->aux, b->aux * sizeof(fr));
    }
    if (!bad_cases) {
        free(in);
        free(aux);
        return;
    }
    /* the last unit one variable too many for its slice, then one too few */
    err[0] = 0;
    CHECK(gen(shape, w, b->segs, b->nseg, b->inputs, b->aux - 1, 2, in, aux, err, sizeof err) ==
          -1);
    CHECK(strstr(err, "past the end") != NULL);
    CHECK(gen(shape, w, b->segs, b->nseg, b->inputs, b->aux + 1, 2, in, aux, err, sizeof err) ==
          -1);
    CHECK(strstr(err, "ended at") != NULL);
    /* a middle segment shifted: the unit before or the one after fails */
    r1cs_segment_mark *bad = malloc(b->nseg * sizeof *bad);
    memcpy(bad, b->segs, b->nseg * sizeof *bad);
    bad[b->nseg - 1].aux++;
    err[0] = 0;
    CHECK(gen(shape, w, bad, b->nseg, b->inputs, b->aux, 1, in, aux, err, sizeof err) == -1);
    CHECK(strstr(err, "ended at") != NULL || strstr(err, "past the end") != NULL);
    /* a short table */
    CHECK(gen(shape, w, b->segs, b->nseg - 1, b->inputs, b->aux, 2, in, aux, err, sizeof err) ==
          -1);
    free(bad);
    free(in);
    free(aux);
}

static void test_porep(const porep_shape *s) {
    porep_witness_sizes z;
    por_shape rc, d;
    porep_witness_sizes_get(s, &z);
    porep_shape_tree_rc(s, &rc);
    porep_shape_tree_d(s, &d);
    uint64_t *ch = malloc(z.challenge * sizeof *ch);
    for (size_t i = 0; i < z.challenge; i++)
        ch[i] = 1 + check_rand64() % (s->nodes - 1);
    uint32_t *di = malloc(z.d_index * 4), *ci = malloc(z.c_index * 4), *ri = malloc(z.r_index * 4);
    rand_index(di, z.d_index, &d);
    rand_index(ci, z.c_index, &rc);
    rand_index(ri, z.r_index, &rc);
    fr *leaf = rand_frs(z.data_leaf), *dsib = rand_frs(z.d_sib), *rows = rand_frs(z.rows),
       *csib = rand_frs(z.c_sib), *rsib = rand_frs(z.r_sib);
    porep_witness w = {rand_fr(), rand_fr(), rand_fr(), rand_fr(), rand_fr(), ch, leaf,
                       di,        dsib,      rows,      ci,        csib,      ri, rsib};
    porep_witness_fix_labels(s, rows, &w.replica_id, ch);

    blank b;
    get_blank(&b, s, NULL);
    CHECK(b.nseg == (size_t)s->challenges * (17 + s->layers));
    r1cs_partition p;
    classic(s, NULL, &w, &p);
    check_serial(s, NULL, &w, &p);
    check_parallel(gen_porep, s, &w, &b, &p, s->layers == 2 && s->nodes == 64);

    /* a c_x row that is not the label: the tail trusted it, the join refuses */
    fr *in = malloc(b.inputs * sizeof(fr)), *aux = malloc(b.aux * sizeof(fr));
    char err[256] = "";
    fr keep = rows[s->layers - 1];
    rows[s->layers - 1] = rand_fr();
    CHECK(porep_witness_generate(s, &w, b.segs, b.nseg, b.inputs, b.aux, 3, in, aux, err,
                                 sizeof err) == -1);
    char want[64];
    snprintf(want, sizeof want, "challenge 0 layer %u: the label differs", s->layers);
    CHECK(strstr(err, want) != NULL);
    rows[s->layers - 1] = keep;
    /* segments of another kind order */
    b.segs[1].kind = 99;
    CHECK(porep_witness_generate(s, &w, b.segs, b.nseg, b.inputs, b.aux, 3, in, aux, err,
                                 sizeof err) == -1);
    CHECK(strstr(err, "segment 1") != NULL);
    free(in);
    free(aux);
    r1cs_partition_free(&p);
    free(b.segs);
    void *f[] = {ch, di, ci, ri, leaf, dsib, rows, csib, rsib};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        free(f[i]);
}

static void test_post(const post_shape *s) {
    por_shape t;
    post_shape_tree(s, &t);
    const size_t S = s->sectors, C = s->challenges, lv = por_shape_levels(&t),
                 sb = por_shape_siblings(&t);
    fr *f = rand_frs(3 * S + S * C * (1 + sb));
    uint32_t *idx = malloc(S * C * lv * 4);
    rand_index(idx, S * C * lv, &t);
    size_t real = S > 1 ? S - 1 : 1; /* the last sector padded when there are several */
    post_witness w = {real, f, f + S, f + 2 * S, f + 3 * S, idx, f + 3 * S + S * C, NULL};
    blank b;
    get_blank(&b, NULL, s);
    CHECK(b.nseg == S);
    r1cs_partition p;
    classic(NULL, s, &w, &p);
    check_serial(NULL, s, &w, &p);
    check_parallel(gen_post, s, &w, &b, &p, 1);
    r1cs_partition_free(&p);
    free(b.segs);
    free(f);
    free(idx);
}

int main(int argc, char **argv) {
    check_seed("test_porep_witness");
    if (argc > 1 && strcmp(argv[1], "porep-8m") == 0) {
        porep_shape s8 = {1 << 18, 2, 2, 8, 0, 0};
        test_porep(&s8);
        /* L = 11 and trees 8-8-2 on 128 nodes (the 64 GiB structure) */
        porep_shape s11 = {128, 11, 1, 8, 8, 2};
        test_porep(&s11);
        return check_finish();
    }
    porep_shape s2 = {64, 2, 2, 8, 0, 0};
    test_porep(&s2);
    post_shape q;
    post_shape_for_proof(&q, fc_post_proof_by_id(0)); /* winning-2k */
    test_post(&q);
    post_shape_for_proof(&q, fc_post_proof_by_id(5)); /* window-2k */
    test_post(&q);
    return check_finish();
}
