/* The FallbackPoSt circuit.
 *
 *  - blank counts: upstream's fallback_circuit.rs shapes (3 sectors x 5
 *    challenges: 19 inputs, 16,869 / 22,674 / 27,384 for base_8 / sub_8_4 /
 *    top_8_4_2; 2 sectors: 13 / 11,246; 32 GiB base-8-only 5 x 10:
 *    266,665) and the registered WinningPoSt 32 GiB (66 x 1: 370,590, 133
 *    inputs; facts 3.7), and every other registered PoSt proof but WindowPoSt
 *    32/64 GiB against facts 3.7's model (313 + challenges x T per sector);
 *  - native instances (random trees R, comm_r = Poseidon2(comm_c,
 *    comm_r_last), leaf challenges by post_leaf_challenge) with fewer real
 *    sectors than the circuit holds satisfy it; the inputs equal
 *    post_public_inputs (last sector repeated); the proving mode has the
 *    blank count's rows, non-zeros and densities; a flipped leaf, sibling,
 *    comm_c or comm_r is reported in "outer namespace/sector_i/...";
 *  - Curio's golden 32 GiB vanilla proof (sector 1, randomness 0) fills a
 *    1-sector, 10-challenge circuit through post_witness_from_vanilla that is
 *    satisfied, whose leaf indices are post_leaf_challenge's and whose inputs
 *    are post_public_inputs; padded into 3 sectors it still is;
 *  - RECORD matrices with the Poseidon replay equal the gadget's, entry by
 *    entry (top_8_4_2 3 x 5, WinningPoSt 32 GiB);
 *  - wrong shapes, counts and indices are refused with a message.
 *
 * The 32/64 GiB WindowPoSt circuits are counted by test_circuit_counts big
 * against the published numbers. */
#include <time.h>

#include "check.h"
#include "field_rand.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_circuit.h"
#include "gadget/poseidon.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void count(const char *name, const post_shape *s, size_t constraints, size_t inputs) {
    double t0 = now();
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    CHECK(post_circuit_synthesize(cs, s, NULL) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    double dt = now() - t0;
    CHECK(k.constraints == constraints);
    CHECK(k.inputs == inputs && k.inputs == 1 + post_num_public_inputs(s));
    printf("  %-22s %10zu constraints, %zu inputs, %zu aux, nnz %llu/%llu/%llu, density a %zu "
           "b %zu/%zu; %.2f s, %.2f M constraints/s, %.1f MiB peak\n",
           name, k.constraints, k.inputs, k.aux, (unsigned long long)k.nnz_a,
           (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c, k.a_aux_density,
           k.b_input_density, k.b_aux_density, dt, 1e-6 * (double)k.constraints_total / dt,
           (double)r1cs_peak_bytes(cs) / 1048576.0);
    r1cs_cs_free(cs);
}

/* Runs the checking mode; 1 if satisfied; where gets the first failure. */
static int run_check(const post_shape *s, const post_witness *w, const fr *want, char *where,
                     size_t cap) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    CHECK(post_circuit_synthesize(cs, s, w) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked);
    snprintf(where, cap, "%s", k.unsatisfied_path ? k.unsatisfied_path : "");
    if (want) {
        size_t n = post_num_public_inputs(s);
        int same = k.inputs == n + 1;
        fr got;
        for (size_t i = 0; same && i < n; i++)
            same = r1cs_get_value(&got, cs, r1cs_input_var((uint32_t)(i + 1))) &&
                   fr_equal(&got, &want[i]);
        CHECK(same);
    }
    r1cs_cs_free(cs);
    return k.satisfied;
}

static void test_native(const post_shape *s, size_t real) {
    por_shape t;
    post_shape_tree(s, &t);
    const size_t C = s->challenges, lv = por_shape_levels(&t), sb = por_shape_siblings(&t);
    fr *comm_r = malloc(real * sizeof(fr)), *comm_c = malloc(real * sizeof(fr)),
       *comm_r_last = malloc(real * sizeof(fr)), *leaf = malloc(real * C * sizeof(fr)),
       *sib = malloc(real * C * sb * sizeof(fr));
    uint32_t *index = malloc(real * C * lv * sizeof(uint32_t));
    uint64_t *chal = malloc(real * C * sizeof(uint64_t));
    uint8_t randomness[32], *leaves = malloc(s->nodes * 32);
    check_rand_bytes(randomness, 32);
    randomness[31] &= 0x3f;
    for (size_t k = 0; k < real; k++) {
        for (size_t v = 0; v < s->nodes; v++) {
            fr x = rand_fr();
            fr_to_bytes_le(leaves + 32 * v, &x);
        }
        merkle_tree tr;
        CHECK(merkle_tree_build(&tr, TREE_HASH_POSEIDON, s->arity_base, s->arity_sub, s->arity_top,
                                leaves, s->nodes) == MERKLE_OK);
        comm_c[k] = rand_fr();
        CHECK(fr_from_bytes_le(&comm_r_last[k], merkle_tree_root(&tr)));
        fr pre[2] = {comm_c[k], comm_r_last[k]};
        CHECK(poseidon_hash(&comm_r[k], pre, 2) == 0);
        uint64_t sector_id = check_rand64() >> 20;
        for (size_t j = 0; j < C; j++) {
            const size_t kj = k * C + j;
            chal[kj] = fc_post_leaf_challenge(randomness, sector_id,
                                              fc_post_challenge_index(1, k, C, j), s->nodes);
            merkle_proof p;
            fr root;
            CHECK(merkle_proof_gen(&p, &tr, chal[kj]) == MERKLE_OK);
            CHECK(merkle_proof_witness(&p, index + kj * lv, sib + kj * sb, &leaf[kj], &root) ==
                  MERKLE_OK);
            merkle_proof_free(&p);
        }
        merkle_tree_free(&tr);
    }
    post_witness w = {real, comm_r, comm_c, comm_r_last, leaf, index, sib, NULL};
    size_t n = post_num_public_inputs(s);
    fr *want = malloc(n * sizeof(fr));
    CHECK(post_public_inputs(want, s, real, comm_r, chal, NULL, 0) == 0);
    /* padding: the last real sector's inputs repeat */
    CHECK(fr_equal(&want[n - (C + 1)], &comm_r[real - 1]));
    char where[512];
    CHECK(run_check(s, &w, want, where, sizeof where));
    /* the proving mode (direct Poseidon gadget) has the blank count's shape
     * (replayed Poseidon): rows, variables, non-zeros, densities */
    r1cs_counts kp, kb;
    r1cs_cs *pc = r1cs_cs_new(R1CS_PROVE, 0, NULL), *bc = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    CHECK(post_circuit_synthesize(pc, s, &w) == 0 && r1cs_finish(pc) == R1CS_OK);
    CHECK(post_circuit_synthesize(bc, s, NULL) == 0 && r1cs_finish(bc) == R1CS_OK);
    CHECK(r1cs_get_counts(pc, &kp) == R1CS_OK && r1cs_get_counts(bc, &kb) == R1CS_OK);
    CHECK(kp.constraints_total == kb.constraints_total && kp.inputs == kb.inputs &&
          kp.aux == kb.aux && kp.nnz_a == kb.nnz_a && kp.nnz_b == kb.nnz_b &&
          kp.nnz_c == kb.nnz_c && kp.a_aux_density == kb.a_aux_density &&
          kp.b_input_density == kb.b_input_density && kp.b_aux_density == kb.b_aux_density);
    r1cs_cs_free(pc);
    r1cs_cs_free(bc);
    printf("  native %u sectors (%zu real) x %u challenges, %llu leaves %u-%u-%u: satisfied\n",
           s->sectors, real, s->challenges, (unsigned long long)s->nodes, s->arity_base,
           s->arity_sub, s->arity_top);

    fr one;
    fr_set_one(&one);
    for (int what = 0; what < 4; what++) {
        size_t k = check_rand64() % real, j = check_rand64() % C;
        post_witness b = w;
        fr *copy = NULL;
        char expect[128];
        if (what == 0 || what == 1) {
            size_t cnt = what == 0 ? real * C : real * C * sb;
            copy = malloc(cnt * sizeof(fr));
            memcpy(copy, what == 0 ? leaf : sib, cnt * sizeof(fr));
            size_t at = what == 0 ? k * C + j : (k * C + j) * sb + check_rand64() % sb;
            fr_add(&copy[at], &copy[at], &one);
            if (what == 0)
                b.leaf = copy;
            else
                b.sib = copy;
            snprintf(expect, sizeof expect, "outer namespace/sector_%zu/challenge_inclusion_%zu/",
                     k, j);
        } else {
            copy = malloc(real * sizeof(fr));
            memcpy(copy, what == 2 ? comm_c : comm_r, real * sizeof(fr));
            fr_add(&copy[k], &copy[k], &one);
            if (what == 2)
                b.comm_c = copy;
            else
                b.comm_r = copy;
            snprintf(expect, sizeof expect,
                     "outer namespace/sector_%zu/enforce_comm_c_comm_r_last_hash_comm_r", k);
        }
        int sat = run_check(s, &b, NULL, where, sizeof where);
        CHECK(!sat && strncmp(where, expect, strlen(expect)) == 0);
        if (sat || strncmp(where, expect, strlen(expect)) != 0)
            fprintf(stderr, "  corruption %d: expected \"%s\", got \"%s\"\n", what, expect, where);
        free(copy);
    }
    free(want);
    free(comm_r);
    free(comm_c);
    free(comm_r_last);
    free(leaf);
    free(sib);
    free(index);
    free(chal);
    free(leaves);
}

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void test_golden(void) {
    const char *shared = getenv("CUZK_SHARED");
    char path[4096];
    snprintf(path, sizeof path, "%s/vectors/filecoin/post.vproof", shared ? shared : "../shared");
    size_t len;
    uint8_t *buf = read_file(path, &len);
    CHECK(buf != NULL);
    if (!buf) {
        fprintf(stderr, "cannot read %s\n", path);
        return;
    }
    const fc_post_proof *window32 = fc_post_proof_by_id(8);
    fc_post_vanilla v;
    char err[256] = "";
    CHECK(fc_post_vanilla_decode(&v, buf, len, window32, err, sizeof err) == 0);
    free(buf);

    post_shape s;
    post_shape_for_proof(&s, window32);
    CHECK(s.sectors == 2349 && s.challenges == 10 && s.nodes == (1ull << 30));
    s.sectors = 1;
    const fc_post_vanilla *vs[1] = {&v};
    post_witness w;
    uint64_t leaf_index[30];
    CHECK(post_witness_from_vanilla(&w, leaf_index, &s, vs, 1, err, sizeof err) == 0);
    if (err[0])
        fprintf(stderr, "adapter: %s\n", err);
    /* postpub.json: randomness 32 zero bytes, sector 1; sector index 0 gives
     * the same challenge index under every API version */
    const uint8_t zero[32] = {0};
    uint64_t chal[30];
    for (unsigned j = 0; j < 10; j++) {
        chal[j] = fc_post_leaf_challenge(zero, v.sector_id, fc_post_challenge_index(0, 0, 10, j),
                                         s.nodes);
        CHECK(chal[j] == leaf_index[j]);
        CHECK(fc_post_challenge_index(1, 0, 10, j) == fc_post_challenge_index(0, 0, 10, j));
    }
    fr want[33], comm_r;
    CHECK(fr_from_bytes_le(&comm_r, v.comm_r));
    CHECK(post_public_inputs(want, &s, 1, &comm_r, chal, err, sizeof err) == 0);
    char where[512];
    CHECK(run_check(&s, &w, want, where, sizeof where));
    printf("  golden 32 GiB WindowPoSt vanilla proof (sector %llu): 1 x 10 circuit satisfied, "
           "leaf challenges %llu, %llu, ... re-derived\n",
           (unsigned long long)v.sector_id, (unsigned long long)chal[0],
           (unsigned long long)chal[1]);
    s.sectors = 3; /* padded */
    CHECK(post_public_inputs(want, &s, 1, &comm_r, chal, err, sizeof err) == 0);
    CHECK(run_check(&s, &w, want, where, sizeof where));
    CHECK(fr_equal(&want[22], &comm_r) && fr_equal(&want[32], &want[10]));
    post_witness_free(&w);

    /* the wrong shape or count is refused by name */
    post_shape bad = s;
    bad.challenges = 9;
    CHECK(post_witness_from_vanilla(&w, NULL, &bad, vs, 1, err, sizeof err) == -1);
    CHECK(strstr(err, "10 challenge proofs") != NULL);
    bad = s;
    bad.arity_sub = 0;
    bad.nodes = 1ull << 27;
    CHECK(post_witness_from_vanilla(&w, NULL, &bad, vs, 1, err, sizeof err) == -1);
    CHECK(strstr(err, "path elements") != NULL);
    bad = s;
    bad.sectors = 1;
    const fc_post_vanilla *two[2] = {&v, &v};
    CHECK(post_witness_from_vanilla(&w, NULL, &bad, two, 2, err, sizeof err) == -1);
    CHECK(strstr(err, "2 sector proofs") != NULL);
    fc_post_vanilla_free(&v);
}

/* The replay of recorded Poseidon hashes (modes without values) gives the
 * gadget's matrices exactly: RECORD with and without it, compared entry by
 * entry. */
static int csr_equal(const r1cs_csr *x, const r1cs_csr *y) {
    if (x->rows != y->rows || memcmp(x->row_ptr, y->row_ptr, (x->rows + 1) * 4))
        return 0;
    size_t nnz = r1cs_csr_nnz(x);
    return memcmp(x->col, y->col, nnz * 4) == 0 && memcmp(x->val, y->val, nnz * sizeof(fr)) == 0;
}

static void record(r1cs_matrices *m, const post_shape *s, int replay) {
    if (replay)
        unsetenv("CUZK_POSEIDON_REPLAY");
    else
        setenv("CUZK_POSEIDON_REPLAY", "0", 1);
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    CHECK(post_circuit_synthesize(cs, s, NULL) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    CHECK(r1cs_take_matrices(cs, m) == R1CS_OK);
    r1cs_cs_free(cs);
    unsetenv("CUZK_POSEIDON_REPLAY");
}

static void test_replay(const post_shape *s) {
    r1cs_matrices x, y;
    record(&x, s, 1);
    record(&y, s, 0);
    CHECK(x.num_constraints == y.num_constraints && x.num_inputs == y.num_inputs &&
          x.num_aux == y.num_aux);
    CHECK(csr_equal(&x.a, &y.a) && csr_equal(&x.b, &y.b) && csr_equal(&x.c, &y.c));
    r1cs_matrices_free(&x);
    r1cs_matrices_free(&y);
}

/* facts 3.7's model: per sector 313 + challenges x T, T = sum over levels of
 * (log2 a + insert(a) + Poseidon(a)) + 2 (pack, root equality). */
static size_t model(const post_shape *s) {
    por_shape t;
    post_shape_tree(s, &t);
    size_t T = 2;
    for (unsigned l = 0; l < por_shape_levels(&t); l++) {
        unsigned a = por_shape_arity(&t, l);
        T += a == 2 ? 1 + 2 + 311 : a == 4 ? 2 + 8 + 377 : 3 + 22 + 505;
    }
    return (size_t)s->sectors * (313 + s->challenges * T);
}

/* Every registered PoSt proof small enough for the default run. */
static void test_registered(void) {
    for (unsigned id = 0; id < 15; id++) {
        const fc_post_proof *p = fc_post_proof_by_id(id);
        post_shape s;
        post_shape_for_proof(&s, p);
        if ((uint64_t)s.sectors * s.challenges > 1000)
            continue; /* WindowPoSt 32/64 GiB: test_circuit_counts big */
        count(p->name, &s, model(&s), 1 + (size_t)s.sectors * (1 + s.challenges));
    }
}

static void test_bad(void) {
    post_shape bad[] = {
        {64, 0, 5, 8, 0, 0}, {64, 3, 0, 8, 0, 0}, {63, 3, 5, 8, 0, 0},
        {64, 3, 5, 8, 0, 2}, {64, 3, 5, 3, 0, 0}, {0, 3, 5, 8, 0, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(post_shape_check(&bad[i]) != 0);
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
        CHECK(post_circuit_synthesize(cs, &bad[i], NULL) == -1);
        CHECK(r1cs_num_aux(cs) == 0);
        r1cs_cs_free(cs);
    }
    post_shape s = {64, 2, 1, 8, 0, 0};
    fr out[4], z;
    fr_set_zero(&z);
    fr cr[3] = {z, z, z};
    uint64_t ch[3] = {1, 64, 2};
    char err[128] = "";
    CHECK(post_public_inputs(out, &s, 3, cr, ch, err, sizeof err) == -1);
    CHECK(strstr(err, "3 sectors") != NULL);
    CHECK(post_public_inputs(out, &s, 2, cr, ch, err, sizeof err) == -1);
    CHECK(strstr(err, "sector 1 challenge 0") != NULL);
    post_witness w = {3, cr, cr, cr, cr, NULL, cr, NULL};
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    CHECK(post_circuit_synthesize(cs, &s, &w) == -1); /* 3 real > 2, index NULL */
    r1cs_cs_free(cs);
}

int main(void) {
    check_seed("test_post_circuit");
    const post_shape b8 = {64, 3, 5, 8, 0, 0}, s84 = {256, 3, 5, 8, 4, 0},
                     t842 = {512, 3, 5, 8, 4, 2}, two = {64, 2, 5, 8, 0, 0},
                     bench = {1ull << 30, 5, 10, 8, 0, 0};
    count("fallback base_8", &b8, 16869, 19);
    count("fallback sub_8_4", &s84, 22674, 19);
    count("fallback top_8_4_2", &t842, 27384, 19);
    count("fallback 2 sectors", &two, 11246, 13);
    count("32 GiB base-8 5 x 10", &bench, 266665, 56);
    post_shape win;
    const fc_post_proof *w32 = fc_post_proof_by_id(3);
    CHECK(w32 && w32->kind == FC_POST_WINNING && w32->shape->sector_size == (32ull << 30));
    post_shape_for_proof(&win, w32);
    CHECK(win.sectors == 66 && win.challenges == 1);
    count("winning-32g", &win, 370590, 133);

    test_registered();
    test_replay(&t842);
    test_replay(&win);
    test_native(&b8, 2);
    test_native(&t842, 3);
    post_shape one = {256, 4, 2, 8, 4, 0};
    test_native(&one, 1);
    test_golden();
    test_bad();
    return check_finish();
}
