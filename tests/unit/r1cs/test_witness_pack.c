/* The compact witness (r1cs/witness_pack.h) round-trips: vectors of bits,
 * other values and their mixtures, lengths at and around word boundaries,
 * thread counts 1..5; the counts and bytes are what the format says; the
 * device's expansion rule (rank + popcount below the bit) gives every dense
 * value. */
#include "check.h"
#include "field/constants.h"
#include "r1cs/witness_pack.h"

static void random_fr(fr *x) {
    uint64_t l[4] = {check_rand64(), check_rand64(), check_rand64(), check_rand64() >> 3};
    memcpy(x->l, l, sizeof l);
}

/* kind: 0 all bits, 1 none, 2 mixed (ratio 1/8 dense), 3 alternating runs */
static void one(size_t n, int kind, unsigned threads) {
    fr *v = malloc((n + 1) * sizeof(fr)), *back = malloc((n + 1) * sizeof(fr));
    size_t dense = 0;
    for (size_t i = 0; i < n; i++) {
        int d = kind == 1 || (kind == 2 && check_rand64() % 8 == 0) || (kind == 3 && (i / 37) % 2);
        if (d) {
            random_fr(&v[i]);
            dense++;
        } else if (check_rand64() & 1) {
            v[i] = FR_ONE;
        } else {
            fr_set_zero(&v[i]);
        }
    }
    r1cs_witness_pack w;
    CHECK(witness_pack(&w, v, n, threads) == 0);
    CHECK(w.num_aux == n && w.words == (n + 63) / 64 && w.n_dense == dense);
    CHECK(w.rank[w.words] == dense);
    CHECK(witness_pack_bytes(&w) == 16 * w.words + 4 * (w.words + 1) + 32 * dense);
    /* the device's rule, on the host */
    for (size_t i = 0; i < n; i++) {
        size_t k = i / 64;
        uint64_t bit = (uint64_t)1 << (i % 64);
        if (!(w.isbool[k] & bit)) {
            size_t r = w.rank[k] + (size_t)__builtin_popcountll(~w.isbool[k] & (bit - 1));
            CHECK(r < dense && memcmp(&w.dense[r], &v[i], sizeof(fr)) == 0);
        }
    }
    memset(back, 0xa5, (n + 1) * sizeof(fr));
    witness_unpack(&w, back, threads);
    CHECK_MEM(back, v, n * sizeof(fr));
    witness_pack_free(&w);
    free(v);
    free(back);
}

int main(void) {
    check_seed("test_witness_pack");
    static const size_t ns[] = {0, 1, 63, 64, 65, 127, 128, 1000, 70001, (1u << 20) + 5};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (int kind = 0; kind < 4; kind++)
            one(ns[i], kind, 1 + (unsigned)((i + kind) % 5));
    /* many tasks: two passes over more than one task's words */
    one((size_t)3 << 20, 2, 4);
    return check_finish();
}
