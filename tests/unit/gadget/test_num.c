/* AllocatedNum and multipacking: constraint counts, witness values, checking
 * mode satisfied, and corrupted witnesses reported as unsatisfied. */
#include "check.h"
#include "field_rand.h"
#include "gadget/multipack.h"
#include "gadget/num.h"
#include "r1cs/csr.h"

static r1cs_cs *new_cs(int values) {
    return r1cs_cs_new(R1CS_COUNT, values ? R1CS_VALUES : 0, NULL);
}

static int finish_satisfied(r1cs_cs *cs) {
    r1cs_counts k;
    if (r1cs_finish(cs) != R1CS_OK || r1cs_get_counts(cs, &k) != R1CS_OK)
        return -1;
    return k.checked && k.satisfied;
}

static void test_to_bits(void) {
    for (int rep = 0; rep < 8; rep++) {
        fr x = rand_fr();
        if (rep == 0)
            fr_set_zero(&x);
        if (rep == 1)
            fr_set_one(&x), fr_neg(&x, &x); /* r - 1: the largest value */
        r1cs_cs *cs = new_cs(1);
        gnum n = gnum_alloc(cs, &x);
        size_t rows0 = r1cs_num_constraints(cs);
        gbool bits[GNUM_BITS];
        gnum_to_bits_le(cs, &n, bits);
        CHECK(r1cs_num_constraints(cs) - rows0 == 256);
        uint64_t raw[4];
        fr_to_raw(raw, &x);
        int ok = 1;
        for (unsigned i = 0; i < GNUM_BITS; i++) {
            int want = (int)((raw[i / 64] >> (i % 64)) & 1);
            fr v;
            ok &= gbool_value(bits[i]) == want && r1cs_get_value(&v, cs, bits[i].var) &&
                  (want ? fr_is_one(&v) : fr_is_zero(&v));
        }
        CHECK(ok);
        CHECK(finish_satisfied(cs) == 1);
        r1cs_cs_free(cs);
    }
    /* counting mode without values: the same shape */
    r1cs_cs *cs = new_cs(0);
    gnum n = gnum_alloc(cs, NULL);
    gbool bits[GNUM_BITS];
    gnum_to_bits_le(cs, &n, bits);
    CHECK(r1cs_num_constraints(cs) == 256 && r1cs_num_aux(cs) == 256);
    CHECK(gbool_value(bits[0]) == -1);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_cs_free(cs);
    /* bits of a different value than the one assigned: unpacking fails */
    cs = new_cs(1);
    fr x = rand_fr(), one;
    fr_set_one(&one);
    n = gnum_alloc(cs, &x);
    fr_add(&n.val, &n.val, &one);
    gnum_to_bits_le(cs, &n, bits);
    CHECK(finish_satisfied(cs) == 0);
    r1cs_cs_free(cs);
}

/* Strict form: 255 bits + 132 ANDs (44 runs of ones in r - 1, counted by a
 * Python one-liner over its bits: sum(len - 1) + 43) + 1 = 388 constraints. */
static void test_to_bits_strict(void) {
    for (int rep = 0; rep < 8; rep++) {
        fr x = rand_fr();
        if (rep == 0)
            fr_set_zero(&x);
        if (rep == 1)
            fr_set_one(&x), fr_neg(&x, &x);
        r1cs_cs *cs = new_cs(1);
        gnum n = gnum_alloc(cs, &x);
        gbool bits[GNUM_BITS];
        gnum_to_bits_le_strict(cs, &n, bits);
        CHECK(r1cs_num_constraints(cs) == 388);
        uint64_t raw[4];
        fr_to_raw(raw, &x);
        int ok = 1;
        for (unsigned i = 0; i < GNUM_BITS; i++) {
            int want = (int)((raw[i / 64] >> (i % 64)) & 1);
            fr v;
            ok &= gbool_value(bits[i]) == want && r1cs_get_value(&v, cs, bits[i].var) &&
                  (want ? fr_is_one(&v) : fr_is_zero(&v));
        }
        CHECK(ok);
        CHECK(finish_satisfied(cs) == 1);
        r1cs_cs_free(cs);
    }
    r1cs_cs *cs = new_cs(0);
    gnum n = gnum_alloc(cs, NULL);
    gbool bits[GNUM_BITS];
    gnum_to_bits_le_strict(cs, &n, bits);
    CHECK(r1cs_num_constraints(cs) == 388 && r1cs_num_aux(cs) == 1 + 255 + 132);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_cs_free(cs);
    cs = new_cs(1);
    fr x = rand_fr(), one;
    fr_set_one(&one);
    n = gnum_alloc(cs, &x);
    fr_add(&n.val, &n.val, &one);
    gnum_to_bits_le_strict(cs, &n, bits);
    CHECK(finish_satisfied(cs) == 0);
    r1cs_cs_free(cs);
}

/* Rows of a recorded circuit (inputs = ONE only) that aux does not satisfy. */
static size_t failing_rows(const r1cs_matrices *m, const fr *aux) {
    size_t rows = m->num_constraints, bad = 0;
    fr one, *a = malloc(3 * rows * sizeof(fr));
    if (!a)
        return SIZE_MAX;
    fr *b = a + rows, *c = b + rows;
    fr_set_one(&one);
    r1cs_csr_mul(a, &m->a, 0, rows, &one, 1, aux);
    r1cs_csr_mul(b, &m->b, 0, rows, &one, 1, aux);
    r1cs_csr_mul(c, &m->c, 0, rows, &one, 1, aux);
    for (size_t j = 0; j < rows; j++) {
        fr ab;
        fr_mul(&ab, &a[j], &b[j]);
        bad += !fr_equal(&ab, &c[j]);
    }
    free(a);
    return bad;
}

static int raw_bit(const uint64_t w[4], int pos) { return (int)((w[pos / 64] >> (pos % 64)) & 1); }

/* The witness both forms would take for the 256-bit integer w = x or x + r:
 * aux[0] = x, then the gadget's variables in allocation order (the strict
 * form's run ANDs simulated independently here).  Returns the aux count. */
static size_t bits_witness(fr *aux, const fr *x, const uint64_t w[4], int strict) {
    size_t k = 0;
    aux[k++] = *x;
    if (!strict) {
        for (int i = 0; i < GNUM_BITS; i++)
            fr_set_u64(&aux[k++], (uint64_t)raw_bit(w, i));
        return k;
    }
    fr rm1;
    uint64_t b[4];
    fr_set_one(&rm1);
    fr_neg(&rm1, &rm1);
    fr_to_raw(b, &rm1);
    int run[GNUM_BITS + 1], nrun = 0, last = 0, have_last = 0, found = 0;
    for (int pos = 255; pos >= 0; pos--) {
        int bb = raw_bit(b, pos), ab = raw_bit(w, pos);
        found |= bb;
        if (!found)
            continue;
        if (bb) {
            run[nrun++] = ab;
        } else {
            if (nrun) {
                if (have_last)
                    run[nrun++] = last;
                int cur = run[0];
                for (int i = 1; i < nrun; i++) {
                    cur &= run[i];
                    fr_set_u64(&aux[k++], (uint64_t)cur);
                }
                last = cur, have_last = 1, nrun = 0;
            }
        }
        fr_set_u64(&aux[k++], (uint64_t)ab);
    }
    return k;
}

/* x and x + r (< 2^255 for small x) both satisfy the non-strict unpacking;
 * the strict form rejects x + r's bits. */
static void test_noncanonical_bits(void) {
    fr x, rm1;
    fr_set_u64(&x, 5);
    fr_set_one(&rm1);
    fr_neg(&rm1, &rm1);
    uint64_t w[4], r[4];
    fr_to_raw(r, &rm1);
    r[0] += 1; /* r - 1 ends in zero bits: no carry */
    unsigned __int128 carry = 5;
    for (int i = 0; i < 4; i++) {
        carry += r[i];
        w[i] = (uint64_t)carry;
        carry >>= 64;
    }
    const uint64_t canon[4] = {5, 0, 0, 0};
    for (int strict = 0; strict < 2; strict++) {
        r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
        gnum n = gnum_alloc(cs, NULL);
        gbool bits[GNUM_BITS];
        if (strict)
            gnum_to_bits_le_strict(cs, &n, bits);
        else
            gnum_to_bits_le(cs, &n, bits);
        CHECK(r1cs_finish(cs) == R1CS_OK);
        r1cs_matrices m;
        CHECK(r1cs_take_matrices(cs, &m) == R1CS_OK);
        static fr aux[512];
        CHECK(bits_witness(aux, &x, canon, strict) == m.num_aux);
        CHECK(failing_rows(&m, aux) == 0);
        CHECK(bits_witness(aux, &x, w, strict) == m.num_aux);
        size_t bad = failing_rows(&m, aux);
        CHECK(strict ? (bad > 0 && bad != SIZE_MAX) : bad == 0);
        r1cs_matrices_free(&m);
        r1cs_cs_free(cs);
    }
}

static void test_arith(void) {
    fr a = rand_fr(), b = rand_fr(), s, p, q;
    fr_add(&s, &a, &b);
    fr_mul(&p, &a, &b);
    fr_sqr(&q, &a);
    r1cs_cs *cs = new_cs(1);
    gnum na = gnum_alloc(cs, &a), nb = gnum_alloc(cs, &b);
    gnum ns = gnum_add(cs, &na, &nb), np = gnum_mul(cs, &na, &nb), nq = gnum_square(cs, &na);
    r1cs_var in = gnum_inputize(cs, &np);
    CHECK(r1cs_num_constraints(cs) == 4 && r1cs_num_aux(cs) == 5 && r1cs_num_inputs(cs) == 2);
    CHECK(fr_equal(&ns.val, &s) && fr_equal(&np.val, &p) && fr_equal(&nq.val, &q));
    fr v;
    CHECK(r1cs_get_value(&v, cs, in) && fr_equal(&v, &p));
    CHECK(r1cs_get_value(&v, cs, ns.var) && fr_equal(&v, &s));
    CHECK(finish_satisfied(cs) == 1);
    r1cs_cs_free(cs);
    /* an inputized value that disagrees with the variable */
    cs = new_cs(1);
    na = gnum_alloc(cs, &a);
    na.val = b;
    gnum_inputize(cs, &na);
    CHECK(finish_satisfied(cs) == 0);
    r1cs_cs_free(cs);
}

static void test_multipack(void) {
    static const size_t sizes[] = {1, 253, 254, 255, 256, 508, 600};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t nbits = sizes[s];
        uint8_t plain[600];
        gbool bits[600];
        r1cs_cs *cs = new_cs(1);
        for (size_t i = 0; i < nbits; i++) {
            plain[i] = (uint8_t)(check_rand64() & 1);
            switch (i % 3) { /* constants, allocated and negated bits alike */
            case 0:
                bits[i] = gbool_const(plain[i]);
                break;
            case 1:
                bits[i] = gbool_alloc(cs, plain[i]);
                break;
            default:
                bits[i] = gbool_not(gbool_alloc(cs, !plain[i]));
            }
        }
        size_t rows0 = r1cs_num_constraints(cs);
        multipack_pack_into_inputs(cs, bits, nbits);
        size_t k = multipack_count(nbits);
        CHECK(r1cs_num_constraints(cs) - rows0 == k);
        CHECK(r1cs_num_inputs(cs) == 1 + k);
        fr want[3];
        multipack_compute(want, plain, nbits);
        int ok = 1;
        for (size_t i = 0; i < k; i++) {
            fr v;
            ok &=
                r1cs_get_value(&v, cs, r1cs_input_var((uint32_t)(1 + i))) && fr_equal(&v, &want[i]);
        }
        CHECK(ok);
        CHECK(finish_satisfied(cs) == 1);
        r1cs_cs_free(cs);
    }
    /* 2^254 - 1 in the first chunk, then a lone 1 */
    uint8_t ones[255];
    memset(ones, 1, sizeof ones);
    fr out[2], one, two254m1;
    multipack_compute(out, ones, 255);
    const uint64_t raw[4] = {~0ull, ~0ull, ~0ull, (1ull << 62) - 1};
    fr_from_raw(&two254m1, raw);
    fr_set_one(&one);
    CHECK(fr_equal(&out[0], &two254m1) && fr_equal(&out[1], &one));
    /* counting mode */
    r1cs_cs *cs = new_cs(0);
    gbool b[300];
    for (int i = 0; i < 300; i++)
        b[i] = gbool_alloc(cs, -1);
    multipack_pack_into_inputs(cs, b, 300);
    CHECK(r1cs_num_constraints(cs) == 302 && r1cs_num_inputs(cs) == 3);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_cs_free(cs);
}

int main(void) {
    check_seed("test_num");
    test_to_bits();
    test_to_bits_strict();
    test_noncanonical_bits();
    test_arith();
    test_multipack();
    return check_finish();
}
