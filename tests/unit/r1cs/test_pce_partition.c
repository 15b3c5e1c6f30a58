/* PCE synthesis equals classic synthesis bit for bit: for porep-2k,
 * winning-2k and random toy circuits, a classic R1CS_PROVE partition's a, b,
 * c and densities equal pce_partition's from the recorded matrices (through
 * a .pce file for the Filecoin shapes) with the classic partition's input
 * and aux, for several thread counts. */
#include <unistd.h>

#include "check.h"
#include "cli/circuit_names.h"
#include "cli/toy_circuits.h"
#include "r1cs/pce.h"
#include "r1cs/witness_pack.h"

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

static fr *fr_dup(const fr *x, size_t n) {
    fr *y = malloc(n * sizeof(fr) + 1);
    memcpy(y, x, n * sizeof(fr));
    return y;
}

/* classic vs pce for each thread count */
static void compare(const r1cs_pce *p, const r1cs_partition *classic, const unsigned *ts, int nts) {
    CHECK(pce_partition_bytes(p) >= r1cs_partition_bytes(classic));
    for (int i = 0; i < nts; i++) {
        r1cs_partition q;
        char err[256];
        CHECK(pce_partition(p, fr_dup(classic->input, classic->num_inputs),
                            fr_dup(classic->aux, classic->num_aux), ts[i], &q, err,
                            sizeof err) == 0);
        same_partition(classic, &q);
        r1cs_partition_free(&q);
        /* deferred (issue #30): the pack round-trips, and expanding gives the same arrays */
        r1cs_partition d, full;
        CHECK(pce_partition_deferred(p, fr_dup(classic->input, classic->num_inputs),
                                     fr_dup(classic->aux, classic->num_aux), ts[i], &d, err,
                                     sizeof err) == 0);
        CHECK(d.abc_pce == p && !d.a && !d.b && !d.c && !d.aux && d.aux_pack);
        CHECK(pce_partition_expand(&full, &d, ts[i], err, sizeof err) == 0);
        same_partition(classic, &full);
        pce_partition_expand_free(&full, &d);
        r1cs_partition_free(&d);
    }
}

static void toy(const char *spec) {
    toy_circuit c;
    char why[128], err[256];
    CHECK(toy_circuit_parse(&c, spec, why, sizeof why) == 0);
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL), *rc = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_partition classic;
    r1cs_pce p;
    CHECK(r1cs_synthesize(cs, c.fn, &c) == R1CS_OK && r1cs_take_partition(cs, &classic) == 0);
    CHECK(r1cs_synthesize(rc, c.fn, &c) == R1CS_OK);
    CHECK(pce_from_recording(rc, spec, NULL, 0, &p, err, sizeof err) == 0);
    static const unsigned ts[] = {1, 2, 3, 7};
    compare(&p, &classic, ts, 4);
    pce_free(&p);
    r1cs_partition_free(&classic);
    r1cs_cs_free(cs);
    r1cs_cs_free(rc);
}

static void filecoin(const char *name, const char *dir) {
    circuit_name c;
    circuit_witness w;
    char err[256], path[256];
    CHECK(circuit_name_parse(&c, name) == 0);
    CHECK(circuit_name_witness(&w, &c, check_rand64()) == 0);
    const void *wp = circuit_witness_of(&w, &c);
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL), *rc = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_partition classic;
    CHECK(circuit_name_synthesize(cs, &c, wp) == 0 && r1cs_finish(cs) == R1CS_OK &&
          r1cs_take_partition(cs, &classic) == 0);
    CHECK(circuit_name_synthesize(rc, &c, NULL) == 0 && r1cs_finish(rc) == R1CS_OK);
    r1cs_pce mem, f;
    CHECK(pce_from_recording(rc, name, c.stem, 0, &mem, err, sizeof err) == 0);
    snprintf(path, sizeof path, "%s/%s.pce", dir, name);
    CHECK(pce_write(&mem, path, 2, err, sizeof err) == 0);
    pce_free(&mem);
    pce_expect ex = {.circuit_id = name,
                     .rows = classic.num_constraints,
                     .num_inputs = classic.num_inputs,
                     .num_aux = classic.num_aux};
    CHECK(pce_open(path, &ex, 2, &f, err, sizeof err) == 0);
    static const unsigned ts[] = {1, 3};
    compare(&f, &classic, ts, 2);
    pce_free(&f);
    unlink(path);
    r1cs_partition_free(&classic);
    r1cs_cs_free(cs);
    r1cs_cs_free(rc);
    circuit_witness_free(&w);
}

int main(void) {
    check_seed("test_pce_partition");
    toy("cubic:7");
    toy("random:100:3");
    toy("random:20000:11");
    char spec[64];
    snprintf(spec, sizeof spec, "random:5000:%llu", (unsigned long long)check_rand64());
    toy(spec);
    char dir[64] = "/tmp/test_pce_part_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    filecoin("winning-2k", dir);
    filecoin("porep-2k", dir);
    rmdir(dir);
    return check_finish();
}
