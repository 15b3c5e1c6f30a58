/* R1CS_WITNESS and witness views:
 *  - the mode keeps values, wants no LCs, drops enforce (no rows, even with a
 *    broken LC or an unsatisfied row), allocates ONE, reports a missing value;
 *  - a view writes into [begin, end) of the caller's arrays with the classic
 *    variable ids, allocates ONE only when its inputs start at 0, refuses
 *    one allocation past an end (R1CS_ERR_OVERFLOW, naming it), reads values
 *    below its cursors only, never frees the caller's arrays;
 *  - r1cs_witness_run of a toy segmented circuit (a prefix, then units of
 *    different sizes that read prefix values and their own) equals the
 *    classic R1CS_PROVE input/aux for T = 1, 2, 3, 7; a segment table of
 *    the wrong offsets, an empty one, or a unit that fails is refused. */
#include "check.h"
#include "field/constants.h"
#include "field_rand.h"
#include "r1cs/cs.h"
#include "r1cs/witness.h"

static void test_mode(void) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_WITNESS, 0, NULL);
    CHECK(cs && r1cs_has_values(cs) && !r1cs_wants_lcs(cs) && r1cs_num_inputs(cs) == 1);
    fr a = rand_fr(), b = rand_fr();
    r1cs_var x = r1cs_alloc(cs, &a), y = r1cs_alloc_input(cs, &b);
    r1cs_lc l = R1CS_LC_INIT;
    r1cs_lc_add_var(&l, x);
    r1cs_enforce(cs, "x * x = x, false", &l, &l, &l);
    l.broken = 1; /* dropped at once: no check at all */
    r1cs_enforce(cs, "broken", &l, &l, &l);
    l.broken = 0;
    r1cs_lc_free(&l);
    r1cs_push(cs, "ns");
    r1cs_pop(cs);
    CHECK(r1cs_num_constraints(cs) == 0);
    fr v;
    CHECK(r1cs_get_value(&v, cs, x) && fr_equal(&v, &a));
    CHECK(r1cs_get_value(&v, cs, y) && fr_equal(&v, &b));
    CHECK(r1cs_finish(cs) == R1CS_OK && r1cs_num_constraints(cs) == 0);
    fr *in, *aux;
    size_t ni, na;
    CHECK(r1cs_take_witness(cs, &in, &ni, &aux, &na) == R1CS_OK);
    CHECK(ni == 2 && na == 1 && fr_equal(&in[0], &FR_ONE) && fr_equal(&in[1], &b) &&
          fr_equal(&aux[0], &a));
    free(in);
    free(aux);
    r1cs_cs_free(cs);

    cs = r1cs_cs_new(R1CS_WITNESS, 0, NULL);
    r1cs_alloc(cs, NULL);
    CHECK(r1cs_error(cs) == R1CS_ERR_MISSING_VALUE);
    r1cs_cs_free(cs);
    /* take_witness only from a finished witness-mode cs */
    cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    r1cs_finish(cs);
    CHECK(r1cs_take_witness(cs, &in, &ni, &aux, &na) != R1CS_OK);
    r1cs_cs_free(cs);
}

static void test_view(void) {
    fr in[4], aux[10], val[10];
    memset(in, 0x11, sizeof in);
    memset(aux, 0x22, sizeof aux);
    for (int i = 0; i < 10; i++)
        val[i] = rand_fr();
    CHECK(r1cs_witness_view(in, 3, 2, aux, 0, 1) == NULL); /* a bad range */
    r1cs_cs *p = r1cs_witness_view(in, 0, 2, aux, 0, 3);
    CHECK(p && r1cs_num_inputs(p) == 1 && fr_equal(&in[0], &FR_ONE));
    for (int i = 0; i < 3; i++)
        r1cs_alloc(p, &val[i]);
    r1cs_alloc_input(p, &val[9]);
    CHECK(r1cs_finish(p) == R1CS_OK);
    CHECK(r1cs_num_aux(p) == 3 && r1cs_num_inputs(p) == 2);
    r1cs_cs_free(p);

    r1cs_cs *v = r1cs_witness_view(in, 2, 4, aux, 5, 7);
    CHECK(v && r1cs_num_inputs(v) == 2 && r1cs_num_aux(v) == 5);
    r1cs_var a = r1cs_alloc(v, &val[5]);
    CHECK(r1cs_var_is_aux(a) && r1cs_var_index(a) == 5);
    r1cs_var ia = r1cs_alloc_input(v, &val[8]);
    CHECK(!r1cs_var_is_aux(ia) && r1cs_var_index(ia) == 2);
    fr x;
    CHECK(r1cs_get_value(&x, v, r1cs_aux_var(1)) && fr_equal(&x, &val[1])); /* the prefix */
    CHECK(r1cs_get_value(&x, v, a) && fr_equal(&x, &val[5]));               /* its own */
    CHECK(!r1cs_get_value(&x, v, r1cs_aux_var(6)));                         /* not yet */
    r1cs_alloc(v, &val[6]);
    CHECK(r1cs_error(v) == R1CS_OK && r1cs_num_aux(v) == 7);
    r1cs_alloc(v, &val[7]); /* one past the end */
    CHECK(r1cs_error(v) == R1CS_ERR_OVERFLOW);
    CHECK(strstr(r1cs_error_message(v), "past the end") != NULL);
    CHECK(fr_equal(&aux[5], &val[5]) && fr_equal(&aux[6], &val[6]));
    fr guard;
    memset(&guard, 0x22, sizeof guard);
    CHECK(fr_equal(&aux[7], &guard) && fr_equal(&aux[4], &guard)); /* untouched */
    r1cs_cs_free(v);                                               /* the arrays stay ours */
    CHECK(fr_equal(&aux[5], &val[5]));
}

/* ---- a toy segmented circuit ------------------------------------------------
 * prefix: k = 3 + seed % 5 aux values and one input; unit u: u % 7 + 1 aux,
 * each (prefix[u % k] * own previous + u), an input every third unit. */
typedef struct {
    size_t units;
    fr base[8];
    fr pre[8]; /* the prefix values, as the prefix allocated them */
    size_t k;
    int fail_unit; /* -1: none */
} toy;

static void toy_prefix_body(r1cs_cs *cs, toy *t) {
    for (size_t i = 0; i < t->k; i++) {
        r1cs_alloc(cs, &t->base[i]);
        t->pre[i] = t->base[i];
    }
    r1cs_alloc_input(cs, &t->base[0]);
}

static int toy_unit_body(r1cs_cs *cs, const toy *t, size_t u) {
    r1cs_segment(cs, 7, (uint32_t)u);
    fr cur;
    fr_set_u64(&cur, u + 1);
    for (size_t j = 0; j < u % 7 + 1; j++) {
        fr_mul(&cur, &cur, &t->pre[u % t->k]);
        r1cs_var x = r1cs_alloc(cs, &cur);
        fr back;
        if (r1cs_has_values(cs) && (!r1cs_get_value(&back, cs, x) || !fr_equal(&back, &cur)))
            return -1;
    }
    if (u % 3 == 0)
        r1cs_alloc_input(cs, &cur);
    return (int)u == t->fail_unit ? -1 : 0;
}

static int toy_classic(r1cs_cs *cs, void *ctx) {
    toy *t = ctx;
    toy_prefix_body(cs, t);
    for (size_t u = 0; u < t->units; u++)
        if (toy_unit_body(cs, t, u))
            return -1;
    return 0;
}

static int toy_prefix(r1cs_cs *v, void *ctx, char *err, size_t cap) {
    (void)err;
    (void)cap;
    toy_prefix_body(v, ctx);
    return 0;
}

static int toy_unit(r1cs_cs *v, size_t seg, void *ctx, char *err, size_t cap) {
    if (toy_unit_body(v, ctx, seg)) {
        snprintf(err, cap, "toy unit %zu refused", seg);
        return -1;
    }
    return 0;
}

static void test_run(void) {
    toy t = {.units = 40, .k = 3 + check_rand64() % 5, .fail_unit = -1};
    for (int i = 0; i < 8; i++)
        t.base[i] = rand_fr();
    /* the offsets from a counting run (no values) */
    r1cs_cs *cnt = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    r1cs_synthesize(cnt, toy_classic, &t);
    const r1cs_segment_mark *m;
    size_t nseg = r1cs_get_segments(cnt, &m);
    CHECK(nseg == t.units);
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    CHECK(r1cs_synthesize(cs, toy_classic, &t) == R1CS_OK);
    r1cs_partition p;
    CHECK(r1cs_take_partition(cs, &p) == R1CS_OK);
    CHECK(p.num_aux == r1cs_num_aux(cnt) && p.num_inputs == r1cs_num_inputs(cnt));
    fr *in = malloc(p.num_inputs * sizeof(fr)), *aux = malloc(p.num_aux * sizeof(fr));
    char err[256];
    static const unsigned threads[] = {1, 2, 3, 7};
    for (int i = 0; i < 4; i++) {
        memset(aux, 0, p.num_aux * sizeof(fr));
        memset(in, 0, p.num_inputs * sizeof(fr));
        CHECK(r1cs_witness_run(m, nseg, p.num_inputs, p.num_aux, threads[i], in, aux, toy_prefix,
                               toy_unit, &t, err, sizeof err) == 0 ||
              !fprintf(stderr, "%s\n", err));
        CHECK_MEM(in, p.input, p.num_inputs * sizeof(fr));
        CHECK_MEM(aux, p.aux, p.num_aux * sizeof(fr));
    }
    /* wrong offsets: a middle mark shifted, the totals off, no table */
    r1cs_segment_mark *bad = malloc(nseg * sizeof *bad);
    memcpy(bad, m, nseg * sizeof *bad);
    bad[10].aux -= 1;
    CHECK(r1cs_witness_run(bad, nseg, p.num_inputs, p.num_aux, 2, in, aux, toy_prefix, toy_unit, &t,
                           err, sizeof err) == -1);
    CHECK(strstr(err, "segment 9") != NULL || strstr(err, "segment 10") != NULL);
    memcpy(bad, m, nseg * sizeof *bad);
    bad[0].aux += 1; /* the prefix ends short */
    CHECK(r1cs_witness_run(bad, nseg, p.num_inputs, p.num_aux, 2, in, aux, toy_prefix, toy_unit, &t,
                           err, sizeof err) == -1);
    CHECK(strstr(err, "prefix") != NULL);
    bad[0].aux -= 2; /* the prefix overflows its view */
    CHECK(r1cs_witness_run(bad, nseg, p.num_inputs, p.num_aux, 2, in, aux, toy_prefix, toy_unit, &t,
                           err, sizeof err) == -1);
    CHECK(strstr(err, "past the end") != NULL);
    CHECK(r1cs_witness_run(m, nseg, p.num_inputs, p.num_aux + 1, 3, in, aux, toy_prefix, toy_unit,
                           &t, err, sizeof err) == -1);
    CHECK(strstr(err, "segment 39") != NULL && strstr(err, "ended at") != NULL);
    CHECK(r1cs_witness_run(m, 0, p.num_inputs, p.num_aux, 3, in, aux, toy_prefix, toy_unit, &t, err,
                           sizeof err) == -1);
    memcpy(bad, m, nseg * sizeof *bad);
    bad[5].aux = bad[6].aux + 1; /* not monotone */
    CHECK(r1cs_witness_run(bad, nseg, p.num_inputs, p.num_aux, 3, in, aux, toy_prefix, toy_unit, &t,
                           err, sizeof err) == -1);
    t.fail_unit = 17;
    CHECK(r1cs_witness_run(m, nseg, p.num_inputs, p.num_aux, 3, in, aux, toy_prefix, toy_unit, &t,
                           err, sizeof err) == -1);
    CHECK(strstr(err, "toy unit 17 refused") != NULL);
    free(bad);
    free(in);
    free(aux);
    r1cs_partition_free(&p);
    r1cs_cs_free(cs);
    r1cs_cs_free(cnt);
}

int main(void) {
    check_seed("test_witness");
    test_mode();
    test_view();
    test_run();
    return check_finish();
}
