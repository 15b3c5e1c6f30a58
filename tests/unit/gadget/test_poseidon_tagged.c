/* Poseidon with a Custom domain tag (SnapDeals' generation tag 2^40):
 * the circuit's output equals the native tagged hash, it has the MerkleTree
 * circuit's 311 rows at arity 2, and the no-values replay (recorded once per
 * (arity, tag)) gives exactly the rows of direct synthesis, distinct from the
 * MerkleTree recording. */
#include <string.h>

#include "check.h"
#include "gadget/poseidon.h"
#include "gadget/poseidon_circuit.h"
#include "util/switches.h"

typedef struct {
    const fr *tag; /* NULL: MerkleTree */
    const fr *in;  /* NULL: no values */
    int corrupt;   /* the circuit sees preimage 0 + 1, the witness holds preimage 0 */
    gnum out;
} ctx_t;

static int synth(r1cs_cs *cs, void *vctx) {
    ctx_t *x = vctx;
    gnum pre[2];
    for (unsigned i = 0; i < 2; i++)
        pre[i] = gnum_alloc(cs, x->in ? &x->in[i] : NULL);
    if (x->corrupt) {
        fr one;
        fr_set_one(&one);
        fr_add(&pre[0].val, &pre[0].val, &one);
    }
    if (x->tag)
        return poseidon_circuit_hash_tagged(cs, pre, 2, x->tag, &x->out);
    return poseidon_circuit_hash(cs, pre, 2, &x->out);
}

static int csr_equal(const r1cs_csr *a, const r1cs_csr *b) {
    if (a->rows != b->rows || memcmp(a->row_ptr, b->row_ptr, (a->rows + 1) * sizeof(uint32_t)))
        return 0;
    size_t n = r1cs_csr_nnz(a);
    return memcmp(a->col, b->col, n * sizeof(uint32_t)) == 0 &&
           memcmp(a->val, b->val, n * sizeof(fr)) == 0;
}
static int mat_equal(const r1cs_matrices *a, const r1cs_matrices *b) {
    return a->num_aux == b->num_aux && csr_equal(&a->a, &b->a) && csr_equal(&a->b, &b->b) &&
           csr_equal(&a->c, &b->c);
}

static void record(r1cs_matrices *m, const fr *tag, long replay) {
    char err[128];
    CHECK(switch_set(SW_POSEIDON_REPLAY, replay, err, sizeof err) == 0);
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    ctx_t x;
    memset(&x, 0, sizeof x);
    x.tag = tag;
    CHECK(cs && r1cs_synthesize(cs, synth, &x) == R1CS_OK);
    CHECK(r1cs_take_matrices(cs, m) == R1CS_OK);
    r1cs_cs_free(cs);
}

int main(void) {
    fr tag, in[2], want;
    poseidon_custom_tag(&tag, POSEIDON_CTYPE_GEN_RANDOMNESS);
    fr_set_u64(&in[0], 0xdeadbeef);
    fr_set_u64(&in[1], 42);
    poseidon_hash_tagged(&want, in, 2, &tag);

    /* values: satisfied, output = native, 311 rows */
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    ctx_t x;
    memset(&x, 0, sizeof x);
    x.tag = &tag;
    x.in = in;
    CHECK(cs && r1cs_synthesize(cs, synth, &x) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked && k.satisfied);
    CHECK(k.constraints == 311 && poseidon_circuit_constraints(2) == 311);
    CHECK(x.out.has_val && fr_equal(&x.out.val, &want));
    r1cs_cs_free(cs);

    /* a wrong preimage value is caught */
    cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    x.corrupt = 1;
    CHECK(cs && r1cs_synthesize(cs, synth, &x) == R1CS_OK);
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked && !k.satisfied);
    r1cs_cs_free(cs);

    /* replay: MerkleTree first (fills its cache), then the tag both ways */
    r1cs_matrices merkle, direct, replayed, replayed2;
    record(&merkle, NULL, 1);
    record(&direct, &tag, 0);
    record(&replayed, &tag, 1);
    record(&replayed2, &tag, 1); /* from the cache */
    CHECK(mat_equal(&direct, &replayed));
    CHECK(mat_equal(&direct, &replayed2));
    CHECK(!mat_equal(&direct, &merkle));
    r1cs_matrices_free(&merkle);
    r1cs_matrices_free(&direct);
    r1cs_matrices_free(&replayed);
    r1cs_matrices_free(&replayed2);
    return check_finish();
}
