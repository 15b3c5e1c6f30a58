/* SnapDeals through PCE: the update circuit's witness, serial (R1CS_WITNESS)
 * and parallel over its challenge segments (snap_witness_generate, T = 1, 2,
 * 3, 7), and a/b/c from its recorded matrices, against classic R1CS_PROVE
 * synthesis, byte for byte, for snap-2k (and with the argument snap-8m, the
 * 4-partition 8 MiB shape, last partition: ctest label slow); the Poseidon
 * variant's witness too.  Bad segment tables are refused with a message;
 * groth16_synthesize_source with the pce uses it (no fall-back) and gives the
 * classic partition; pce_obtain records a snap shape into a folder once and
 * loads it after. */
#include <unistd.h>

#include "check.h"
#include "field_rand.h"
#include "cli/circuit_names.h"
#include "filecoin/snap/snap_witness_par.h"
#include "groth16/prove_checked.h"
#include "r1cs/pce_cache.h"

/* the snap shape of a parsed circuit name */
#define SS(c) ((snap_shape *)(c).fc.shape)

static int blank_snap(r1cs_cs *cs, void *shape) { return snap_circuit_synthesize(cs, shape, NULL); }

typedef struct {
    const snap_shape *s;
    const snap_witness *w;
} job;
static int synth_job(r1cs_cs *cs, void *arg) {
    const job *j = arg;
    return snap_circuit_synthesize(cs, j->s, j->w);
}
static int witness_job(void *arg, const r1cs_pce *p, unsigned threads, fr *input, fr *aux,
                       char *err, size_t cap) {
    const job *j = arg;
    return snap_witness_generate(j->s, j->w, p->segments, p->n_segments, p->num_inputs, p->num_aux,
                                 threads, input, aux, err, cap);
}

static void same_partition(const r1cs_partition *x, const r1cs_partition *y) {
    CHECK(x->num_constraints == y->num_constraints && x->num_inputs == y->num_inputs &&
          x->num_aux == y->num_aux);
    if (x->num_constraints != y->num_constraints || x->num_aux != y->num_aux ||
        x->num_inputs != y->num_inputs)
        return;
    const size_t rb = x->num_constraints * sizeof(fr), wa = r1cs_bitmap_words(x->num_aux) * 8;
    CHECK_MEM(x->a, y->a, rb);
    CHECK_MEM(x->b, y->b, rb);
    CHECK_MEM(x->c, y->c, rb);
    CHECK_MEM(x->input, y->input, x->num_inputs * sizeof(fr));
    CHECK_MEM(x->aux, y->aux, x->num_aux * sizeof(fr));
    CHECK_MEM(x->a_aux_density, y->a_aux_density, wa);
    CHECK_MEM(x->b_aux_density, y->b_aux_density, wa);
    CHECK_MEM(x->b_input_density, y->b_input_density, r1cs_bitmap_words(x->num_inputs) * 8);
}

static void serial(const snap_shape *s, const snap_witness *w, const r1cs_partition *p) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_WITNESS, 0, NULL);
    CHECK(snap_circuit_synthesize(cs, s, w) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
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

/* The parallel witness for several thread counts, then bad tables. */
static void parallel(const snap_shape *s, const snap_witness *w, const r1cs_pce *pc,
                     const r1cs_partition *p) {
    const size_t ni = pc->num_inputs, na = pc->num_aux, nseg = pc->n_segments;
    CHECK(nseg == s->p.challenges && ni == p->num_inputs && na == p->num_aux);
    fr *in = malloc(ni * sizeof(fr)), *aux = malloc(na * sizeof(fr));
    char err[256];
    static const unsigned ts[] = {1, 2, 3, 7};
    for (int t = 0; t < 4; t++) {
        memset(in, 0xa5, ni * sizeof(fr));
        memset(aux, 0x5a, na * sizeof(fr));
        err[0] = 0;
        int r = snap_witness_generate(s, w, pc->segments, nseg, ni, na, ts[t], in, aux, err,
                                      sizeof err);
        if (r)
            fprintf(stderr, "T = %u: %s\n", ts[t], err);
        CHECK(r == 0);
        CHECK_MEM(in, p->input, ni * sizeof(fr));
        CHECK_MEM(aux, p->aux, na * sizeof(fr));
    }
    /* one aux short, one aux long, a shifted middle mark, a short table, a
     * mark of another kind */
    CHECK(snap_witness_generate(s, w, pc->segments, nseg, ni, na - 1, 2, in, aux, err,
                                sizeof err) == -1);
    CHECK(strstr(err, "past the end") != NULL);
    CHECK(snap_witness_generate(s, w, pc->segments, nseg, ni, na + 1, 2, in, aux, err,
                                sizeof err) == -1);
    CHECK(strstr(err, "ended at") != NULL);
    r1cs_segment_mark *bad = malloc(nseg * sizeof *bad);
    memcpy(bad, pc->segments, nseg * sizeof *bad);
    bad[nseg / 2].aux++;
    CHECK(snap_witness_generate(s, w, bad, nseg, ni, na, 3, in, aux, err, sizeof err) == -1);
    CHECK(strstr(err, "ended at") != NULL || strstr(err, "past the end") != NULL);
    CHECK(snap_witness_generate(s, w, pc->segments, nseg - 1, ni, na, 2, in, aux, err,
                                sizeof err) == -1);
    CHECK(strstr(err, "segments, the shape has") != NULL);
    memcpy(bad, pc->segments, nseg * sizeof *bad);
    bad[1].kind = 7;
    CHECK(snap_witness_generate(s, w, bad, nseg, ni, na, 2, in, aux, err, sizeof err) == -1);
    CHECK(strstr(err, "segment 1 is kind 7") != NULL);
    free(bad);
    free(in);
    free(aux);
}

static void classic(const snap_shape *s, const snap_witness *w, r1cs_partition *p) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    CHECK(snap_circuit_synthesize(cs, s, w) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    CHECK(r1cs_take_partition(cs, p) == R1CS_OK);
    r1cs_cs_free(cs);
}

static void run_shape(const char *name, int last_partition) {
    circuit_name c;
    circuit_witness cw;
    char err[512];
    CHECK(circuit_name_parse(&c, name) == 0);
    CHECK(circuit_name_witness(&cw, &c, check_rand64()) == 0);
    snap_witness w = *(const snap_witness *)cw.w;
    if (last_partition)
        w.k = SS(c)->p.partitions - 1;
    w.h = SS(c)->p.hs[check_rand64() % FC_UPDATE_HS];
    r1cs_partition p;
    classic(SS(c), &w, &p);
    serial(SS(c), &w, &p);

    r1cs_pce pc;
    CHECK(pce_record(blank_snap, SS(c), name, c.stem, &pc, err, sizeof err) == 0);
    parallel(SS(c), &w, &pc, &p);

    /* the engine's and the CLI's routine: pce used, classic bytes */
    job j = {SS(c), &w};
    static const unsigned ts[] = {1, 3};
    for (int t = 0; t < 2; t++) {
        const groth16_synth_source src = {synth_job, &j, &pc, witness_job, &j, ts[t], 0, 0};
        r1cs_partition q;
        int fell = -1;
        char note[256] = "";
        CHECK(groth16_synthesize_source(&q, &src, p.input + 1, p.num_inputs - 1, &fell, note,
                                        sizeof note, err, sizeof err) == 0);
        if (fell)
            fprintf(stderr, "fell back: %s\n", note);
        CHECK(fell == 0);
        same_partition(&p, &q);
        r1cs_partition_free(&q);
    }
    /* a witness whose k the shape does not have: refused, classic refuses too */
    snap_witness bw = w;
    bw.k = SS(c)->p.partitions;
    fr *in = malloc(pc.num_inputs * sizeof(fr)), *aux = malloc(pc.num_aux * sizeof(fr));
    CHECK(snap_witness_generate(SS(c), &bw, pc.segments, pc.n_segments, pc.num_inputs, pc.num_aux,
                                2, in, aux, err, sizeof err) == -1);
    CHECK(strstr(err, "prefix") != NULL);
    free(in);
    free(aux);
    pce_free(&pc);
    r1cs_partition_free(&p);
    circuit_witness_free(&cw);
}

/* The Poseidon variant (no registered proof): its witness alone. */
static void poseidon_variant(void) {
    snap_shape s;
    CHECK(snap_shape_poseidon_for_nodes(&s, 64) == 0);
    snap_witness_sizes z;
    snap_witness_sizes_get(&s, &z);
    size_t nfr = 6 + z.apex_leaves + z.partition_path + 2 * z.leaves + 2 * z.path_r + z.path_d;
    fr *f = malloc(nfr * sizeof(fr));
    for (size_t i = 0; i < nfr; i++)
        f[i] = rand_fr();
    snap_witness w = {.k = 0,
                      .h = s.p.h_default,
                      .comm_r_old = f[0],
                      .comm_d_new = f[1],
                      .comm_r_new = f[2],
                      .comm_c = f[3],
                      .root_r_old = f[4],
                      .root_r_new = f[5],
                      .apex_leaves = f + 6,
                      .partition_path = f + 6};
    w.leaf_r_old = f + 6;
    w.leaf_d_new = w.leaf_r_old + z.leaves;
    w.path_r_old = w.leaf_d_new + z.leaves;
    w.path_r_new = w.path_r_old + z.path_r;
    w.path_d = w.path_r_new + z.path_r;
    r1cs_partition p;
    classic(&s, &w, &p);
    serial(&s, &w, &p);
    r1cs_pce pc;
    char err[256];
    CHECK(pce_record(blank_snap, &s, "snap-poseidon", NULL, &pc, err, sizeof err) == 0);
    parallel(&s, &w, &pc, &p);
    pce_free(&pc);
    r1cs_partition_free(&p);
    free(f);
}

/* pce_obtain for a snap shape: recorded and written once, loaded after. */
static void obtain(void) {
    char dir[64] = "/tmp/test_snap_pce_XXXXXX", err[512], path[256];
    CHECK(mkdtemp(dir) != NULL);
    circuit_name c;
    CHECK(circuit_name_parse(&c, "snap-2k") == 0);
    r1cs_pce a, b;
    pce_obtain_info ia, ib;
    CHECK(pce_obtain(dir, "snap-2k", c.stem, blank_snap, SS(c), NULL, 2, &a, &ia, err,
                     sizeof err) == 0);
    CHECK(ia.built && !ia.in_memory && !ia.loaded);
    CHECK(pce_obtain(dir, "snap-2k", c.stem, blank_snap, SS(c), NULL, 2, &b, &ib, err,
                     sizeof err) == 0);
    CHECK(ib.loaded && !ib.built);
    CHECK(a.rows == b.rows && a.num_aux == b.num_aux && a.n_segments == SS(c)->p.challenges &&
          b.n_segments == a.n_segments);
    CHECK(memcmp(a.segments, b.segments, a.n_segments * sizeof *a.segments) == 0);
    pce_free(&a);
    pce_free(&b);
    snprintf(path, sizeof path, "%s/%s.pce", dir, c.stem);
    CHECK(unlink(path) == 0);
    snprintf(path, sizeof path, "%s/%s.pce.lock", dir, c.stem);
    unlink(path);
    CHECK(rmdir(dir) == 0);
}

int main(int argc, char **argv) {
    check_seed("test_snap_witness");
    if (argc > 1 && strcmp(argv[1], "snap-8m") == 0) {
        run_shape("snap-8m", 1);
        return check_finish();
    }
    run_shape("snap-2k", 0);
    poseidon_variant();
    obtain();
    return check_finish();
}
