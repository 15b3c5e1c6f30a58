/* Insertion and selection (storage-proofs-core insertion.rs): for sizes 2,
 * 4, 8, 16, 32 and every index, upstream's constraint counts (insert 2 / 8 /
 * 22 / size (size - 1), select size - 1), satisfied witnesses whose outputs
 * equal a native insertion of random values, and corrupted witnesses (a
 * wrong index bit or a wrong inserted value seen by the gadget) reported as
 * unsatisfied.  The recorded rows of the size-2 network carry upstream's
 * terms. */
#include "check.h"
#include "field_rand.h"
#include "gadget/insertion.h"

enum { CORRUPT_NONE, CORRUPT_BIT, CORRUPT_ELEMENT };

/* Allocates size - 1 elements, the element and nbits index bits (values when
 * vals != NULL), then inserts.  Returns the finished cs; rows = insert's rows. */
static r1cs_cs *run_insert(unsigned nbits, unsigned index, const fr *vals, int corrupt, gnum *out,
                           size_t *rows, int *rc) {
    const size_t size = (size_t)1 << nbits;
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, vals ? R1CS_VALUES : 0, NULL);
    if (!cs)
        return NULL;
    gnum el[32], x;
    gbool bits[INSERTION_MAX_BITS];
    for (size_t i = 0; i + 1 < size; i++)
        el[i] = gnum_alloc(cs, vals ? &vals[i] : NULL);
    x = gnum_alloc(cs, vals ? &vals[size - 1] : NULL);
    for (unsigned b = 0; b < nbits; b++)
        bits[b] = gbool_is(gbit_alloc(cs, vals ? (int)((index >> b) & 1) : -1));
    CHECK(r1cs_num_constraints(cs) == nbits);
    if (corrupt == CORRUPT_BIT)
        bits[nbits - 1].val ^= 1;
    if (corrupt == CORRUPT_ELEMENT) {
        fr one;
        fr_set_one(&one);
        fr_add(&x.val, &x.val, &one);
    }
    size_t r0 = r1cs_num_constraints(cs);
    *rc = insertion_insert(cs, out, &x, bits, nbits, el);
    *rows = r1cs_num_constraints(cs) - r0;
    CHECK(r1cs_finish(cs) == R1CS_OK);
    return cs;
}

static void test_insert(void) {
    static const size_t want[] = {0, 2, 8, 22, 240, 992};
    for (unsigned nbits = 1; nbits <= INSERTION_MAX_BITS; nbits++) {
        const size_t size = (size_t)1 << nbits;
        CHECK(insertion_constraints(nbits) == want[nbits]);
        gnum out[32];
        size_t rows;
        int rc;
        r1cs_cs *cs = run_insert(nbits, 0, NULL, CORRUPT_NONE, out, &rows, &rc);
        CHECK(cs && rc == 0 && rows == want[nbits]);
        r1cs_cs_free(cs);
        for (unsigned index = 0; index < size; index++) {
            fr vals[32];
            for (size_t i = 0; i < size; i++)
                vals[i] = rand_fr();
            cs = run_insert(nbits, index, vals, CORRUPT_NONE, out, &rows, &rc);
            CHECK(cs && rc == 0 && rows == want[nbits]);
            if (!cs)
                continue;
            r1cs_counts k;
            CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked && k.satisfied);
            /* native insertion: out[index] = x, the rest in order */
            for (size_t pos = 0, e = 0; pos < size; pos++) {
                const fr *w = pos == index ? &vals[size - 1] : &vals[e++];
                fr got;
                CHECK(out[pos].has_val && fr_equal(&out[pos].val, w));
                CHECK(r1cs_get_value(&got, cs, out[pos].var) && fr_equal(&got, w));
            }
            r1cs_cs_free(cs);
            for (int c = CORRUPT_BIT; c <= CORRUPT_ELEMENT; c++) {
                cs = run_insert(nbits, index, vals, c, out, &rows, &rc);
                CHECK(cs && rc == 0);
                if (!cs)
                    continue;
                CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked && !k.satisfied);
                if (nbits == 3 && index == 5 && c == CORRUPT_BIT)
                    printf("  size 8, flipped index bit: unsatisfied at %s\n",
                           k.unsatisfied_path ? k.unsatisfied_path : "?");
                r1cs_cs_free(cs);
            }
        }
    }
    /* size 8 wants unnegated allocated bits; 0 and 6 bits are refused */
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    gnum el[7], x = gnum_alloc(cs, NULL), out[8];
    for (int i = 0; i < 7; i++)
        el[i] = gnum_alloc(cs, NULL);
    gbool bits[6] = {gbool_not(gbool_alloc(cs, -1)), gbool_alloc(cs, -1), gbool_alloc(cs, -1)};
    size_t before = r1cs_num_constraints(cs), aux = r1cs_num_aux(cs);
    CHECK(insertion_insert(cs, out, &x, bits, 3, el) == -1);
    CHECK(insertion_insert(cs, out, &x, bits, 0, el) == -1);
    CHECK(insertion_insert(cs, out, &x, bits, 6, el) == -1);
    CHECK(r1cs_num_constraints(cs) == before && r1cs_num_aux(cs) == aux);
    CHECK(insertion_constraints(0) == 0 && insertion_constraints(6) == 0);
    r1cs_cs_free(cs);
}

static void test_select(void) {
    for (unsigned nbits = 1; nbits <= INSERTION_MAX_BITS; nbits++) {
        const size_t size = (size_t)1 << nbits;
        for (unsigned index = 0; index < size; index++) {
            r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
            CHECK(cs != NULL);
            if (!cs)
                return;
            gnum from[32], got;
            gbool bits[INSERTION_MAX_BITS];
            for (size_t i = 0; i < size; i++) {
                fr v = rand_fr();
                from[i] = gnum_alloc(cs, &v);
            }
            for (unsigned b = 0; b < nbits; b++)
                bits[b] = gbool_is(gbit_alloc(cs, (int)((index >> b) & 1)));
            size_t r0 = r1cs_num_constraints(cs);
            CHECK(insertion_select(cs, &got, from, bits, nbits) == 0);
            CHECK(r1cs_num_constraints(cs) - r0 == size - 1);
            CHECK(got.has_val && fr_equal(&got.val, &from[index].val));
            r1cs_counts k;
            CHECK(r1cs_finish(cs) == R1CS_OK);
            CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.satisfied);
            r1cs_cs_free(cs);
        }
    }
}

static int row_has(const r1cs_csr *m, size_t row, uint32_t col, const fr *want) {
    for (uint32_t k = m->row_ptr[row]; k < m->row_ptr[row + 1]; k++)
        if (m->col[k] == col)
            return fr_equal(&m->val[k], want);
    return 0;
}
static uint32_t row_len(const r1cs_csr *m, size_t row) {
    return m->row_ptr[row + 1] - m->row_ptr[row];
}

static int synth2(r1cs_cs *cs, void *ctx) {
    (void)ctx;
    gnum e = gnum_alloc(cs, NULL), x = gnum_alloc(cs, NULL), out[2];
    gbool b = gbool_is(gbit_alloc(cs, -1));
    return insertion_insert(cs, out, &x, &b, 1, &e);
}

/* Size 2: pick(b, e, x) then pick(b, x, e); rows after the bit's row:
 * (x - e) * (b) = (x - c0) and (e - x) * (b) = (e - c1). */
static void test_rows(void) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    CHECK(cs && r1cs_synthesize(cs, synth2, NULL) == R1CS_OK);
    r1cs_matrices m;
    CHECK(r1cs_take_matrices(cs, &m) == R1CS_OK);
    fr one, mone;
    fr_set_one(&one);
    fr_neg(&mone, &one);
    /* columns: 0 = ONE, 1 = e, 2 = x, 3 = b, 4 = c0, 5 = c1 */
    CHECK(row_len(&m.a, 1) == 2 && row_has(&m.a, 1, 2, &one) && row_has(&m.a, 1, 1, &mone));
    CHECK(row_len(&m.b, 1) == 1 && row_has(&m.b, 1, 3, &one));
    CHECK(row_len(&m.c, 1) == 2 && row_has(&m.c, 1, 2, &one) && row_has(&m.c, 1, 4, &mone));
    CHECK(row_len(&m.a, 2) == 2 && row_has(&m.a, 2, 1, &one) && row_has(&m.a, 2, 2, &mone));
    CHECK(row_len(&m.c, 2) == 2 && row_has(&m.c, 2, 1, &one) && row_has(&m.c, 2, 5, &mone));
    r1cs_matrices_free(&m);
    r1cs_cs_free(cs);
}

int main(void) {
    check_seed("test_insertion");
    test_insert();
    test_select();
    test_rows();
    return check_finish();
}
