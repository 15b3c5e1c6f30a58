/* The SnapDeals circuit's shape against every published count
 * (storage-proofs-update tests/circuit.rs; facts 3.7), counted without
 * values; input rows excluded as upstream counts them; the Poseidon variant's
 * 1 KiB and 8 KiB too.  With the argument "poseidon-32g" (label slow) the
 * Poseidon variant's 32 GiB circuit: 22,305,906 (the registered 32 GiB one,
 * 81,049,499, is test_circuit_counts big's). */
#include <string.h>

#include "check.h"
#include "filecoin/snap/snap_circuit.h"

typedef struct {
    const snap_shape *s;
} ctx_t;

static int synth(r1cs_cs *cs, void *v) {
    return snap_circuit_synthesize(cs, ((ctx_t *)v)->s, NULL);
}

/* Counts a blank circuit; checks the total, the 4 inputs, one segment per
 * challenge after the prefix, and the model. */
static void count(const snap_shape *s, uint64_t want, const char *name) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    ctx_t x = {s};
    CHECK(cs && r1cs_synthesize(cs, synth, &x) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    printf("  %-6s %llu constraints (want %llu), %zu aux, %zu inputs\n", name,
           (unsigned long long)k.constraints, (unsigned long long)want, k.aux, k.inputs);
    CHECK(k.constraints == want);
    CHECK(snap_circuit_constraints(s) == want);
    CHECK(k.inputs == 1 + SNAP_PUBLIC_INPUTS);
    const r1cs_segment_mark *m;
    size_t n = r1cs_get_segments(cs, &m);
    CHECK(n == s->p.challenges);
    for (size_t i = 0; i < n; i++) {
        CHECK(m[i].kind == SNAP_SEGMENT_CHALLENGE && m[i].index == i && m[i].input == 5);
        if (i > 0) /* every challenge unit has the same size */
            CHECK(m[i].row - m[i - 1].row == (k.constraints - m[0].row) / n);
    }
    r1cs_cs_free(cs);
}

int main(int argc, char **argv) {
    snap_shape s;
    if (argc > 1 && strcmp(argv[1], "poseidon-32g") == 0) {
        CHECK(snap_shape_poseidon_for_nodes(&s, 1ull << 30) == 0);
        count(&s, 22305906ull, "P 32GiB");
        return check_finish();
    }
    static const struct {
        unsigned bits;
        uint64_t want;
        const char *name;
    } sizes[] = {{5, 1248389, "1KiB"}, {6, 1705039, "2KiB"},  {7, 2165109, "4KiB"},
                 {8, 2620359, "8KiB"}, {9, 6300021, "16KiB"}, {10, 6760091, "32KiB"}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        CHECK(snap_shape_for_nodes(&s, 1ull << sizes[i].bits) == 0);
        count(&s, sizes[i].want, sizes[i].name);
    }
    /* the Poseidon variant (tests/circuit_poseidon.rs): 1 KiB 8-4-0, 8 KiB 8-4-0 */
    CHECK(snap_shape_poseidon_for_nodes(&s, 1u << 5) == 0 && s.p.challenges == 10);
    count(&s, 32164, "P 1KiB");
    CHECK(snap_shape_poseidon_for_nodes(&s, 1u << 8) == 0);
    count(&s, 47974, "P 8KiB");
    CHECK(snap_shape_poseidon_for_nodes(&s, 1ull << 31) == 0 &&
          snap_circuit_constraints(&s) == 23597970); /* model-derived 64 GiB */
    /* the registered 2 KiB shape is the test 2 KiB shape */
    CHECK(snap_shape_for_id(&s, 0) == 0 && s.p.id == 0);
    count(&s, 1705039, "2k id");
    /* model-derived totals of the sizes upstream publishes no count for */
    CHECK(snap_shape_for_id(&s, 1) == 0 && snap_circuit_constraints(&s) == 10007503);
    CHECK(snap_shape_for_id(&s, 2) == 0 && snap_circuit_constraints(&s) == 57450479);
    CHECK(snap_shape_for_id(&s, 4) == 0 && snap_circuit_constraints(&s) == 85006101);
    CHECK(snap_shape_for_id(&s, 5) == -1 && snap_shape_for_nodes(&s, 1u << 11) == -1);
    return check_finish();
}
