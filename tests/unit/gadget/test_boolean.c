/* Boolean gadgets: truth tables over every constant / allocated / negated
 * operand combination (values, satisfaction, and upstream's constraint and
 * variable counts), the exact terms of the xor/and forms, and that a wrong
 * witness is caught by the checking mode. */
#include "check.h"
#include "gadget/boolean.h"

/* Operand kinds: constant 0/1, allocated bit 0/1, negated bit (value 0/1). */
enum { C0, C1, I0, I1, N0, N1, NKINDS };
static const char *kind_name[NKINDS] = {"C0", "C1", "I0", "I1", "N0", "N1"};
static int kind_value(int k) { return k == C1 || k == I1 || k == N1; }
static int kind_const(int k) { return k == C0 || k == C1; }

static gbool make(r1cs_cs *cs, int k) {
    switch (k) {
    case C0:
    case C1:
        return gbool_const(k == C1);
    case I0:
    case I1:
        return gbool_alloc(cs, k == I1);
    default: /* the underlying bit holds the negation */
        return gbool_not(gbool_alloc(cs, k != N1));
    }
}

/* Upstream's cost of Boolean::and(x, y): free when either is constant. */
static int and_cost(int x, int y) { return (kind_const(x) || kind_const(y)) ? 0 : 1; }

static int ch_cost(int a, int b, int c) {
    if (kind_const(a) && kind_const(b) && kind_const(c))
        return 0;
    if (a == C0)
        return 0;
    if (b == C0)
        return and_cost(a, c);
    if (c == C0 || c == C1)
        return and_cost(a, b);
    if (b == C1)
        return and_cost(a, c);
    return 1; /* also for a == C1: upstream allocates anyway */
}

static int maj_cost(int a, int b, int c) {
    if (kind_const(a) && kind_const(b) && kind_const(c))
        return 0;
    if (a == C0 || a == C1)
        return and_cost(b, c);
    if (b == C0 || b == C1)
        return and_cost(a, c);
    if (c == C0 || c == C1)
        return and_cost(a, b);
    return 2;
}

typedef struct {
    size_t cons, aux;
} mark;

static mark mark_now(const r1cs_cs *cs) {
    return (mark){r1cs_num_constraints(cs), r1cs_num_aux(cs)};
}

/* The result's value as the cs holds it agrees with the gadget's cache. */
static void check_result(r1cs_cs *cs, gbool r, int expect) {
    CHECK(gbool_value(r) == expect);
    if (!gbool_is_const(r)) {
        fr v, want;
        r1cs_get_value(&v, cs, r.var);
        fr_set_u64(&want, (uint64_t)(r.kind == GBOOL_IS ? expect : !expect));
        CHECK(fr_equal(&v, &want));
    }
}

static int finish_satisfied(r1cs_cs *cs) {
    r1cs_counts k;
    CHECK(r1cs_finish(cs) == R1CS_OK);
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    CHECK(k.checked);
    return k.satisfied;
}

static void test_binary(void) {
    for (int x = 0; x < NKINDS; x++)
        for (int y = 0; y < NKINDS; y++)
            for (int op = 0; op < 3; op++) {
                r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
                gbool a = make(cs, x), b = make(cs, y);
                mark m0 = mark_now(cs);
                int va = kind_value(x), vb = kind_value(y);
                int cost = (kind_const(x) || kind_const(y)) ? 0 : 1;
                gbool r;
                int want;
                if (op == 0) {
                    r = gbool_xor(cs, a, b);
                    want = va ^ vb;
                } else if (op == 1) {
                    r = gbool_and(cs, a, b);
                    want = va & vb;
                } else {
                    int eq = gbool_enforce_equal(cs, a, b);
                    int both = kind_const(x) && kind_const(y);
                    CHECK(eq == ((both && va != vb) ? -1 : 0));
                    mark m1 = mark_now(cs);
                    CHECK(m1.cons - m0.cons == (size_t)(both ? 0 : 1));
                    CHECK(m1.aux == m0.aux);
                    CHECK(finish_satisfied(cs) == (both || va == vb));
                    r1cs_cs_free(cs);
                    continue;
                }
                mark m1 = mark_now(cs);
                check_result(cs, r, want);
                if (m1.cons - m0.cons != (size_t)cost || m1.aux - m0.aux != (size_t)cost)
                    fprintf(stderr, "op %d %s %s: %zu constraints\n", op, kind_name[x],
                            kind_name[y], m1.cons - m0.cons);
                CHECK(m1.cons - m0.cons == (size_t)cost);
                CHECK(m1.aux - m0.aux == (size_t)cost);
                CHECK(finish_satisfied(cs));
                r1cs_cs_free(cs);
            }
}

static void test_ternary(void) {
    for (int x = 0; x < NKINDS; x++)
        for (int y = 0; y < NKINDS; y++)
            for (int z = 0; z < NKINDS; z++)
                for (int op = 0; op < 2; op++) {
                    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
                    gbool a = make(cs, x), b = make(cs, y), c = make(cs, z);
                    int va = kind_value(x), vb = kind_value(y), vc = kind_value(z);
                    mark m0 = mark_now(cs);
                    gbool r;
                    int want, cost;
                    if (op == 0) {
                        r = gbool_sha256_ch(cs, a, b, c);
                        want = (va & vb) ^ ((!va) & vc);
                        cost = ch_cost(x, y, z);
                    } else {
                        r = gbool_sha256_maj(cs, a, b, c);
                        want = (va & vb) ^ (va & vc) ^ (vb & vc);
                        cost = maj_cost(x, y, z);
                    }
                    mark m1 = mark_now(cs);
                    check_result(cs, r, want);
                    if (m1.cons - m0.cons != (size_t)cost)
                        fprintf(stderr, "%s %s %s %s: %zu constraints, want %d\n",
                                op ? "maj" : "ch", kind_name[x], kind_name[y], kind_name[z],
                                m1.cons - m0.cons, cost);
                    CHECK(m1.cons - m0.cons == (size_t)cost);
                    CHECK(m1.aux - m0.aux == (size_t)cost);
                    CHECK(finish_satisfied(cs));
                    r1cs_cs_free(cs);
                }
}

/* AllocatedBit ops on all four value pairs; alloc costs one of each. */
static void test_allocated_bit(void) {
    for (int va = 0; va < 2; va++)
        for (int vb = 0; vb < 2; vb++) {
            r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
            gbit a = gbit_alloc(cs, va), b = gbit_alloc(cs, vb);
            CHECK(r1cs_num_constraints(cs) == 2 && r1cs_num_aux(cs) == 2);
            gbit r[4] = {gbit_xor(cs, a, b), gbit_and(cs, a, b), gbit_and_not(cs, a, b),
                         gbit_nor(cs, a, b)};
            int want[4] = {va ^ vb, va & vb, va && !vb, !va && !vb};
            CHECK(r1cs_num_constraints(cs) == 6 && r1cs_num_aux(cs) == 6);
            for (int i = 0; i < 4; i++)
                check_result(cs, gbool_is(r[i]), want[i]);
            CHECK(finish_satisfied(cs));
            r1cs_cs_free(cs);
        }
}

/* A bit whose cached value disagrees with its variable: every derived
 * witness is then wrong, and the checking mode must say so. */
static void test_wrong_witness(void) {
    for (int op = 0; op < 4; op++) {
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
        gbool a = gbool_alloc(cs, 1), b = gbool_alloc(cs, 0), c = gbool_alloc(cs, 1);
        a.val = 0; /* the lie */
        if (op == 0)
            gbool_xor(cs, a, b);
        else if (op == 1)
            gbool_and(cs, a, c);
        else if (op == 2)
            gbool_sha256_ch(cs, a, b, c);
        else
            gbool_sha256_maj(cs, a, b, c);
        CHECK(!finish_satisfied(cs));
        r1cs_counts k;
        r1cs_get_counts(cs, &k);
        CHECK(k.unsatisfied_path != NULL);
        r1cs_cs_free(cs);
    }
}

/* The coefficient of column col in row j of m (0 if absent). */
static int64_t coeff_at(const r1cs_csr *m, size_t j, size_t col) {
    for (uint32_t t = m->row_ptr[j]; t < m->row_ptr[j + 1]; t++)
        if (m->col[t] == col) {
            fr one, v = m->val[t];
            fr_set_one(&one);
            for (int64_t s = 1; s <= 3; s++) { /* small +-s only */
                fr p, n;
                fr_set_u64(&p, (uint64_t)s);
                fr_neg(&n, &p);
                if (fr_equal(&v, &p))
                    return s;
                if (fr_equal(&v, &n))
                    return -s;
            }
            return 99;
        }
    return 0;
}

static size_t row_len(const r1cs_csr *m, size_t j) { return m->row_ptr[j + 1] - m->row_ptr[j]; }

/* The recorded terms of xor with mixed negation: upstream computes
 * not(xor(is, not.not())), so the IS operand is doubled in A whichever
 * argument it was; and maj allocates maj before bc. */
static void test_terms(void) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    gbool x = gbool_alloc(cs, -1), y = gbool_alloc(cs, -1); /* aux 0, 1; rows 0, 1 */
    gbool r = gbool_xor(cs, gbool_not(x), y);               /* aux 2, row 2 */
    CHECK(r.kind == GBOOL_NOT);
    gbool m = gbool_sha256_maj(cs, x, y, gbool_not(x)); /* maj aux 3, bc aux 4; rows 3, 4 */
    CHECK(m.kind == GBOOL_IS && r1cs_var_index(m.var) == 3);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_matrices mx;
    CHECK(r1cs_take_matrices(cs, &mx) == R1CS_OK);
    size_t ni = mx.num_inputs, X = ni + 0, Y = ni + 1, R = ni + 2, MAJ = ni + 3, BC = ni + 4;
    /* boolean constraint: (ONE - x) * (x) = 0 */
    CHECK(coeff_at(&mx.a, 0, 0) == 1 && coeff_at(&mx.a, 0, X) == -1 && row_len(&mx.a, 0) == 2);
    CHECK(coeff_at(&mx.b, 0, X) == 1 && row_len(&mx.c, 0) == 0);
    /* xor(y, x): (2y) * (x) = (x + y - r) */
    CHECK(coeff_at(&mx.a, 2, Y) == 2 && row_len(&mx.a, 2) == 1);
    CHECK(coeff_at(&mx.b, 2, X) == 1 && row_len(&mx.b, 2) == 1);
    CHECK(coeff_at(&mx.c, 2, X) == 1 && coeff_at(&mx.c, 2, Y) == 1 && coeff_at(&mx.c, 2, R) == -1);
    /* bc = y and not x: (y) * (ONE - x) = bc */
    CHECK(coeff_at(&mx.a, 3, Y) == 1 && coeff_at(&mx.b, 3, 0) == 1 && coeff_at(&mx.b, 3, X) == -1 &&
          coeff_at(&mx.c, 3, BC) == 1);
    /* (2bc - y - (ONE - x)) * (x) = (bc - maj) */
    CHECK(coeff_at(&mx.a, 4, BC) == 2 && coeff_at(&mx.a, 4, Y) == -1 &&
          coeff_at(&mx.a, 4, 0) == -1 && coeff_at(&mx.a, 4, X) == 1);
    CHECK(coeff_at(&mx.b, 4, X) == 1 && coeff_at(&mx.c, 4, BC) == 1 &&
          coeff_at(&mx.c, 4, MAJ) == -1);
    r1cs_matrices_free(&mx);
    r1cs_cs_free(cs);
}

int main(void) {
    check_seed("test_boolean");
    test_allocated_bit();
    test_binary();
    test_ternary();
    test_wrong_witness();
    test_terms();
    return check_finish();
}
