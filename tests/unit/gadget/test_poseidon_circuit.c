/* neptune's Poseidon circuit: constraint counts against neptune's test
 * (311/377/505/598, and 761/1009/1385 for the wider arities), satisfied
 * witnesses whose output equals the native hash, and a corrupted witness
 * reported as unsatisfied. */
#include "check.h"
#include "field_rand.h"
#include "gadget/poseidon.h"
#include "gadget/poseidon_circuit.h"
#include "gadget/poseidon_neptune.h"

static const unsigned arities[] = {2, 4, 8, 11, 16, 24, 36};
static const size_t want_counts[] = {311, 377, 505, 598, 761, 1009, 1385};
#define NARITIES (sizeof arities / sizeof arities[0])

/* Synthesizes one hash of in[] (NULL: no values) after allocating the
 * preimage; corrupt != 0 makes the circuit see a value that differs from the
 * one assigned to preimage 0.  Returns the finished cs. */
static r1cs_cs *run(unsigned arity, const fr *in, int corrupt, gnum *out, size_t *hash_rows,
                    size_t *hash_aux) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, in ? R1CS_VALUES : 0, NULL);
    if (!cs)
        return NULL;
    gnum pre[POSEIDON_MAX_ARITY];
    for (unsigned i = 0; i < arity; i++)
        pre[i] = gnum_alloc(cs, in ? &in[i] : NULL);
    if (corrupt) {
        fr one;
        fr_set_one(&one);
        fr_add(&pre[0].val, &pre[0].val, &one);
    }
    size_t rows0 = r1cs_num_constraints(cs), aux0 = r1cs_num_aux(cs);
    CHECK(poseidon_circuit_hash(cs, pre, arity, out) == 0);
    *hash_rows = r1cs_num_constraints(cs) - rows0;
    *hash_aux = r1cs_num_aux(cs) - aux0;
    CHECK(r1cs_finish(cs) == R1CS_OK);
    return cs;
}

static void test_counts(void) {
    for (size_t a = 0; a < NARITIES; a++) {
        gnum out;
        size_t rows, aux;
        r1cs_cs *cs = run(arities[a], NULL, 0, &out, &rows, &aux);
        CHECK(cs != NULL);
        if (!cs)
            continue;
        CHECK(rows == want_counts[a]);
        CHECK(poseidon_circuit_constraints(arities[a]) == want_counts[a]);
        CHECK(aux == rows); /* every constraint introduces exactly one variable */
        CHECK(!out.has_val);
        printf("  arity %2u: %zu constraints\n", arities[a], rows);
        r1cs_cs_free(cs);
    }
    gnum out;
    CHECK(poseidon_circuit_hash(NULL, NULL, 3, &out) == -1);
    CHECK(poseidon_circuit_constraints(3) == 0);
}

static void check_values(unsigned arity, const fr *in) {
    fr want;
    CHECK(poseidon_hash(&want, in, arity) == 0);
    gnum out;
    size_t rows, aux;
    r1cs_cs *cs = run(arity, in, 0, &out, &rows, &aux);
    CHECK(cs != NULL);
    if (!cs)
        return;
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    CHECK(k.checked && k.satisfied);
    CHECK(out.has_val && fr_equal(&out.val, &want));
    fr got;
    CHECK(r1cs_get_value(&got, cs, out.var) && fr_equal(&got, &want));
    CHECK(rows == poseidon_circuit_constraints(arity));
    r1cs_cs_free(cs);
}

static void test_satisfied(void) {
    for (size_t a = 0; a < NARITIES; a++) {
        fr in[POSEIDON_MAX_ARITY];
        for (int rep = 0; rep < 3; rep++) {
            for (unsigned i = 0; i < arities[a]; i++)
                in[i] = rand_fr();
            check_values(arities[a], in);
        }
        /* neptune's vector preimage 0, 1, ..., arity - 1 */
        for (unsigned i = 0; i < arities[a]; i++)
            fr_set_u64(&in[i], i);
        check_values(arities[a], in);
    }
}

static void test_corrupted(void) {
    for (size_t a = 0; a < NARITIES; a++) {
        fr in[POSEIDON_MAX_ARITY];
        for (unsigned i = 0; i < arities[a]; i++)
            in[i] = rand_fr();
        gnum out;
        size_t rows, aux;
        r1cs_cs *cs = run(arities[a], in, 1, &out, &rows, &aux);
        CHECK(cs != NULL);
        if (!cs)
            continue;
        r1cs_counts k;
        CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
        CHECK(k.checked && !k.satisfied);
        CHECK(k.unsatisfied_path != NULL);
        if (a == 0 && k.unsatisfied_path)
            printf("  corrupted witness: unsatisfied at %s\n", k.unsatisfied_path);
        r1cs_cs_free(cs);
    }
}

typedef struct {
    unsigned arity;
    const fr *in; /* NULL: no values */
} synth_ctx;

static int synth(r1cs_cs *cs, void *vctx) {
    const synth_ctx *x = vctx;
    gnum pre[POSEIDON_MAX_ARITY], out;
    for (unsigned i = 0; i < x->arity; i++)
        pre[i] = gnum_alloc(cs, x->in ? &x->in[i] : NULL);
    return poseidon_circuit_hash(cs, pre, x->arity, &out);
}

/* One term of a CSR row: 1 if (col, want) is there. */
static int row_has(const r1cs_csr *m, size_t row, uint32_t col, const fr *want) {
    for (uint32_t k = m->row_ptr[row]; k < m->row_ptr[row + 1]; k++)
        if (m->col[k] == col)
            return fr_equal(&m->val[k], want);
    return 0;
}
static uint32_t row_len(const r1cs_csr *m, size_t row) {
    return m->row_ptr[row + 1] - m->row_ptr[row];
}

/* Every mode gives the same shape; the recorded rows have upstream's terms. */
static void test_modes(void) {
    fr in[8];
    for (int i = 0; i < 8; i++)
        in[i] = rand_fr();
    for (unsigned arity = 2; arity <= 8; arity *= 2) {
        synth_ctx ctx = {arity, NULL};
        r1cs_counts k[3];
        r1cs_cs *count = r1cs_cs_new(R1CS_COUNT, 0, NULL);
        r1cs_cs *rec = r1cs_cs_new(R1CS_RECORD, 0, NULL);
        r1cs_cs *prove = r1cs_cs_new(R1CS_PROVE, R1CS_VALUES, NULL);
        CHECK(count && rec && prove);
        if (!count || !rec || !prove)
            return;
        CHECK(r1cs_synthesize(count, synth, &ctx) == R1CS_OK);
        CHECK(r1cs_synthesize(rec, synth, &ctx) == R1CS_OK);
        ctx.in = in;
        CHECK(r1cs_synthesize(prove, synth, &ctx) == R1CS_OK);
        CHECK(r1cs_get_counts(count, &k[0]) == R1CS_OK);
        CHECK(r1cs_get_counts(rec, &k[1]) == R1CS_OK);
        CHECK(r1cs_get_counts(prove, &k[2]) == R1CS_OK);
        for (int m = 1; m < 3; m++)
            CHECK(k[m].constraints == k[0].constraints && k[m].aux == k[0].aux &&
                  k[m].nnz_a == k[0].nnz_a && k[m].nnz_b == k[0].nnz_b && k[m].nnz_c == k[0].nnz_c);
        r1cs_matrices mat;
        CHECK(r1cs_take_matrices(rec, &mat) == R1CS_OK);
        const poseidon_neptune *n = poseidon_neptune_get(arity);
        const unsigned t = arity + 1;
        const fr *pre = n->compressed_rc, *post = n->compressed_rc + t;
        fr one, negpost;
        fr_set_one(&one);
        fr_neg(&negpost, &post[1]);
        /* columns: 0 = ONE, 1.. = aux (x_0 .. x_{arity-1}, then the hash's) */
        const uint32_t x0 = 1, l2 = 1 + arity, l4 = l2 + 1, l5 = l4 + 1;
        /* row 0: (x0 + pre1)^2 = l2 */
        CHECK(row_len(&mat.a, 0) == 2 && row_has(&mat.a, 0, 0, &pre[1]) &&
              row_has(&mat.a, 0, x0, &one));
        CHECK(row_len(&mat.b, 0) == 2 && row_has(&mat.b, 0, 0, &pre[1]));
        CHECK(row_len(&mat.c, 0) == 1 && row_has(&mat.c, 0, l2, &one));
        /* row 1: l2 * l2 = l4 */
        CHECK(row_len(&mat.a, 1) == 1 && row_has(&mat.a, 1, l2, &one));
        CHECK(row_len(&mat.c, 1) == 1 && row_has(&mat.c, 1, l4, &one));
        /* row 2: (x0 + pre1) * l4 = l5 - post1 */
        CHECK(row_len(&mat.a, 2) == 2 && row_has(&mat.a, 2, 0, &pre[1]));
        CHECK(row_len(&mat.b, 2) == 1 && row_has(&mat.b, 2, l4, &one));
        CHECK(row_len(&mat.c, 2) == 2 && row_has(&mat.c, 2, 0, &negpost) &&
              row_has(&mat.c, 2, l5, &one));
        /* the last hash row: (lc) * ONE = result, the last variable */
        size_t last = poseidon_circuit_constraints(arity) - 1;
        CHECK(row_len(&mat.b, last) == 1 && row_has(&mat.b, last, 0, &one));
        CHECK(row_len(&mat.c, last) == 1 &&
              row_has(&mat.c, last, (uint32_t)(mat.num_inputs + mat.num_aux - 1), &one));
        r1cs_matrices_free(&mat);
        r1cs_cs_free(count);
        r1cs_cs_free(rec);
        r1cs_cs_free(prove);
    }
}

int main(void) {
    check_seed("test_poseidon_circuit");
    test_counts();
    test_satisfied();
    test_corrupted();
    test_modes();
    return check_finish();
}
