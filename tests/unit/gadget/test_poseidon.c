/* Poseidon (neptune v11, Filecoin's Standard/MerkleTree instances): round
 * numbers, the Grain-LFSR round constants against neptune's published t = 9
 * file, the Cauchy MDS, known hashes from neptune, rust-fil-proofs, Curio and
 * shared/reference/verify/poseidon_ref.py, and the fast and neptune
 * (circuit-constant) forms against the reference form. */
#include "check.h"
#include "field_rand.h"
#include "gadget/poseidon.h"
#include "gadget/poseidon_neptune.h"
#include "util/hex.h"
#include "util/timing.h"

#include <pthread.h>

static const unsigned arities[] = {2, 4, 8, 11, 16, 24, 36};
#define NARITIES (sizeof arities / sizeof arities[0])

static fr fr_of_limbs(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    const uint64_t raw[4] = {a, b, c, d};
    fr r;
    fr_from_raw(&r, raw);
    return r;
}

static int fr_is_limbs(const fr *x, const uint64_t want[4]) {
    uint64_t raw[4];
    fr_to_raw(raw, x);
    return memcmp(raw, want, sizeof raw) == 0;
}

static void test_round_numbers(void) {
    static const unsigned t_rp[][2] = {{3, 55},  {5, 56},  {9, 57}, {12, 57},
                                       {17, 59}, {25, 59}, {37, 60}};
    unsigned rf16 = 0, rp16 = 0; /* widths no Filecoin arity uses */
    CHECK(poseidon_round_numbers(16, &rf16, &rp16) && rp16 == 59);
    CHECK(poseidon_round_numbers(2, &rf16, &rp16) && rp16 == 55);
    CHECK(poseidon_round_numbers(65, &rf16, &rp16) && rf16 == 8 && rp16 == 61);
    for (size_t i = 0; i < sizeof t_rp / sizeof t_rp[0]; i++) {
        unsigned rf = 0, rp = 0;
        CHECK(poseidon_round_numbers(t_rp[i][0], &rf, &rp));
        CHECK(rf == 8 && rp == t_rp[i][1]);
        const poseidon_params *p = poseidon_params_get(t_rp[i][0] - 1);
        CHECK(p && p->t == t_rp[i][0] && p->rf == 8 && p->rp == t_rp[i][1]);
    }
    unsigned rf, rp;
    CHECK(!poseidon_round_numbers(100, &rf, &rp));
    CHECK(!poseidon_arity_supported(3) && !poseidon_params_get(3));
    fr in[3] = {0}, out = {{7}}, keep = out;
    CHECK(poseidon_hash(&out, in, 3) == -1 && fr_equal(&out, &keep));
}

/* neptune parameters/round_constants-1-1-255-9-8-57-<r>.txt: a header, then one
 * Python list of 585 '0x...' big-endian hex strings. */
static void test_round_constants_t9(void) {
    const char *shared = getenv("CUZK_SHARED");
    if (!shared) {
        fprintf(stderr, "CUZK_SHARED is not set (ctest sets it to the shared/ dir)\n");
        CHECK(shared != NULL);
        return;
    }
    char path[1024];
    snprintf(path, sizeof path,
             "%s/vectors/poseidon/round_constants-1-1-255-9-8-57-"
             "73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001.txt",
             shared);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        CHECK(f != NULL);
        return;
    }
    static char buf[1 << 17];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *s = strstr(buf, "Round constants for GF(p):");
    CHECK(s != NULL);
    if (!s)
        return;

    const poseidon_params *p = poseidon_params_get(8);
    const unsigned want = (p->rf + p->rp) * p->t;
    CHECK(want == 585);
    unsigned count = 0, match = 0;
    while ((s = strstr(s, "0x")) != NULL) {
        s += 2;
        size_t len = strspn(s, "0123456789abcdefABCDEF");
        char hex[65];
        uint8_t be[32];
        if (len > 64 || len == 0)
            break;
        memset(hex, '0', 64 - len); /* left-pad to 32 bytes */
        memcpy(hex + 64 - len, s, len);
        hex[64] = 0;
        s += len;
        if (hex_decode(be, sizeof be, hex) != 32)
            break;
        uint64_t raw[4] = {0, 0, 0, 0};
        for (int i = 0; i < 32; i++)
            raw[(31 - i) / 8] |= (uint64_t)be[i] << (8 * ((31 - i) % 8));
        if (count < want && fr_is_limbs(&p->rc[count], raw))
            match++;
        count++;
    }
    CHECK(count == 585);
    CHECK(match == 585);
    if (match != 585)
        fprintf(stderr, "t=9 round constants: %u of %u parsed values match\n", match, count);
}

/* Cauchy: 1/M[i][j] = x_i + y_j = i + t + j, hence also symmetric. */
static void test_mds(void) {
    for (size_t a = 0; a < NARITIES; a++) {
        const poseidon_params *p = poseidon_params_get(arities[a]);
        unsigned t = p->t, bad = 0;
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++) {
                fr inv, want;
                fr_inv(&inv, &p->mds[i * t + j]);
                fr_set_u64(&want, i + t + j);
                bad += !fr_equal(&inv, &want);
                bad += !fr_equal(&p->mds[i * t + j], &p->mds[j * t + i]);
            }
        CHECK(bad == 0);
    }
}

/* neptune src/poseidon.rs: MerkleTree/Standard on preimage [0, 1, ..., arity-1]. */
static const uint64_t neptune_vectors[NARITIES][4] = {
    {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b},
    {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a},
    {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55},
    {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28},
    {0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a},
    {0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15},
    {0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f},
};

static void test_neptune_vectors(void) {
    for (size_t a = 0; a < NARITIES; a++) {
        fr in[POSEIDON_MAX_ARITY], out;
        for (unsigned i = 0; i < arities[a]; i++)
            fr_set_u64(&in[i], i);
        CHECK(poseidon_hash(&out, in, arities[a]) == 0);
        CHECK(fr_is_limbs(&out, neptune_vectors[a]));
        if (!fr_is_limbs(&out, neptune_vectors[a]))
            fprintf(stderr, "arity %u: neptune vector mismatch\n", arities[a]);
    }
}

/* rust-fil-proofs test_poseidon_hasher: binary tree over leaves [1, 0, 0, 1]. */
static void test_filecoin_tree(void) {
    static const uint64_t h10[4] = {0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26,
                                    0x042f94ffbe786bc3};
    static const uint64_t root[4] = {0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae,
                                     0x1effebb7b26ad9eb};
    fr l[2], n[2], r;
    fr_set_one(&l[0]);
    fr_set_zero(&l[1]);
    poseidon_hash(&n[0], l, 2);
    CHECK(fr_is_limbs(&n[0], h10));
    fr_set_zero(&l[0]);
    fr_set_one(&l[1]);
    poseidon_hash(&n[1], l, 2);
    poseidon_hash(&r, n, 2);
    CHECK(fr_is_limbs(&r, root));
}

/* Curio TestPoseidonHashMulti: arity 8, 32-byte little-endian reprs. */
static void test_curio(void) {
    static const char *in_hex[8] = {
        "f743111428ecda9b74a18826f1cc62d48ae1510de17e58645997559f86442f31",
        "197a6efa37086e3a37108f8460c52bc810e2781aff0091bfd7b74e3f6f752f02",
        "01c2c12f7930bbb59e3b36dae1c694b33ac6b3f199ec32a8665fadb8338f4f21",
        "bbe672a853f65cdb2563339ca61d6ad648473b4b4ce44bf3a48486424b865a2d",
        "937d57295f488cea8099f5525958f1af39c6241614b917835292e8e2314cf908",
        "3272570cd8ba38c1183629ca72d5e9149d76786ed22c1d591db3d2bccfa7d308",
        "2d3fc90e11aaf601bd1beae80fc3aba15a9e1f886d8140533ce36cda3dd9f936",
        "0a017e264d0728bfcd2edb3c6c60cc5a05a02af31a71cdd7bb2da27616f5f630"};
    static const char *out_hex = "0737ca506df7d4544f8512df35aaa07ed8a40691e96ae868c23320220fec6866";
    fr in[8], out;
    uint8_t b[32];
    for (int i = 0; i < 8; i++) {
        CHECK(hex_decode(b, 32, in_hex[i]) == 32);
        CHECK(fr_from_bytes_le(&in[i], b));
    }
    CHECK(poseidon_hash(&out, in, 8) == 0);
    char got[65];
    fr_to_bytes_le(b, &out);
    hex_encode(got, b, 32);
    CHECK(strcmp(got, out_hex) == 0);
}

/* Extra values from shared/reference/verify/poseidon_ref.py (run by hand). */
static void test_python_reference(void) {
    fr in[POSEIDON_MAX_ARITY], out, m1, t;
    fr_set_one(&t);
    fr_neg(&m1, &t); /* r - 1 */

    in[0] = m1; /* [r-1, r-2] */
    fr_sub(&in[1], &m1, &t);
    poseidon_hash(&out, in, 2);
    static const uint64_t a2[4] = {0x737a7b4509d5fed4, 0xaa3ca5406d397c28, 0xbf0eaf5292aaa163,
                                   0x140e471c4cdb25ba};
    CHECK(fr_is_limbs(&out, a2));

    for (int i = 0; i < 4; i++) /* all ones */
        fr_set_one(&in[i]);
    poseidon_hash(&out, in, 4);
    static const uint64_t a4[4] = {0x60f896ccc1d9339f, 0x567ceb91c4abcd00, 0x1f12839cbb9a86cb,
                                   0x408158c6941660};
    CHECK(fr_is_limbs(&out, a4));

    for (uint64_t i = 0; i < 8; i++) /* i*i + 7 */
        fr_set_u64(&in[i], i * i + 7);
    poseidon_hash(&out, in, 8);
    static const uint64_t a8[4] = {0x629112da9ab2c40c, 0xd88489852b618fa, 0x5fa8294af5b8a887,
                                   0x6a061b50c3a76aa0};
    CHECK(fr_is_limbs(&out, a8));

    for (uint64_t i = 0; i < 11; i++) { /* r - 1 - i */
        fr_set_u64(&t, i);
        fr_sub(&in[i], &m1, &t);
    }
    poseidon_hash(&out, in, 11);
    static const uint64_t a11[4] = {0x70f93604e43262fa, 0x928cdb26ce92bfca, 0xdc9ecb25a2793e20,
                                    0x4d42659de6fe746c};
    CHECK(fr_is_limbs(&out, a11));

    for (int i = 0; i < 16; i++)
        fr_set_one(&in[i]);
    poseidon_hash(&out, in, 16);
    static const uint64_t a16[4] = {0x2240186a22043227, 0xb1d42cb059e3e77f, 0x3d8f834bed86508a,
                                    0x2e7446c1edbdec97};
    CHECK(fr_is_limbs(&out, a16));

    for (uint64_t i = 0; i < 36; i++) /* 2^200 + i */
        in[i] = fr_of_limbs(i, 0, 0, UINT64_C(1) << 8);
    poseidon_hash(&out, in, 36);
    static const uint64_t a36[4] = {0x939ab27a8a0f2930, 0x6a06c3b0f938302f, 0x5e55ed0081b82545,
                                    0xb54c9dbcbe8d736};
    CHECK(fr_is_limbs(&out, a36));

    /* the bare permutation with tag 0 (HashType::Sponge) on [0, 1] */
    fr st[3];
    fr_set_zero(&st[0]);
    fr_set_zero(&st[1]);
    fr_set_one(&st[2]);
    poseidon_permute(poseidon_params_get(2), st);
    static const uint64_t tag0[4] = {0x4f1c26a78bdf31f3, 0x124483f0b4cf83a0, 0xc34968d8d1dca565,
                                     0x7167d7335884ed2c};
    CHECK(fr_is_limbs(&st[1], tag0));
}

/* poseidon_hash is [tag, in...] -> permute -> state[1], on random inputs. */
static void test_hash_is_permutation(void) {
    for (size_t a = 0; a < NARITIES; a++) {
        const poseidon_params *p = poseidon_params_get(arities[a]);
        fr in[POSEIDON_MAX_ARITY], st[POSEIDON_MAX_WIDTH], out, out2;
        for (unsigned i = 0; i < p->arity; i++)
            in[i] = st[i + 1] = rand_fr();
        st[0] = p->tag;
        poseidon_permute(p, st);
        poseidon_hash(&out, in, p->arity);
        CHECK(fr_equal(&out, &st[1]));
        fr_add(&in[p->arity - 1], &in[p->arity - 1], &p->tag); /* any change moves it */
        poseidon_hash(&out2, in, p->arity);
        CHECK(!fr_equal(&out, &out2));
    }
}

/* The fast form equals the reference form on random states, every arity. */
static void test_fast_equals_reference(void) {
    for (size_t a = 0; a < NARITIES; a++) {
        const poseidon_params *p = poseidon_params_get(arities[a]);
        CHECK(p->opt != NULL);
        unsigned bad = 0;
        for (int rep = 0; rep < 20; rep++) {
            fr x[POSEIDON_MAX_WIDTH], y[POSEIDON_MAX_WIDTH];
            for (unsigned i = 0; i < p->t; i++)
                x[i] = y[i] = rand_fr();
            poseidon_permute(p, x);
            poseidon_permute_fast(p, y);
            for (unsigned i = 0; i < p->t; i++)
                bad += !fr_equal(&x[i], &y[i]);
        }
        CHECK(bad == 0);
        if (bad)
            fprintf(stderr, "arity %u: fast form differs in %u elements\n", arities[a], bad);
    }
}

/* neptune's OptimizedStatic form (the circuit's constants) equals the
 * reference form: on random states and on the neptune vectors. */
static void test_neptune_form(void) {
    for (size_t a = 0; a < NARITIES; a++) {
        double t0 = timing_now_ms();
        const poseidon_neptune *nn = poseidon_neptune_get(arities[a]);
        double ms = timing_now_ms() - t0;
        CHECK(nn != NULL);
        if (!nn)
            continue;
        CHECK(poseidon_neptune_get(arities[a]) == nn);
        const poseidon_params *p = nn->p;
        unsigned bad = 0;
        for (int rep = 0; rep < 5; rep++) {
            fr x[POSEIDON_MAX_WIDTH], y[POSEIDON_MAX_WIDTH];
            for (unsigned i = 0; i < p->t; i++)
                x[i] = y[i] = rand_fr();
            poseidon_permute(p, x);
            poseidon_neptune_permute(nn, y);
            for (unsigned i = 0; i < p->t; i++)
                bad += !fr_equal(&x[i], &y[i]);
        }
        fr st[POSEIDON_MAX_WIDTH];
        st[0] = p->tag;
        for (unsigned i = 0; i < p->arity; i++)
            fr_set_u64(&st[i + 1], i);
        poseidon_neptune_permute(nn, st);
        bad += !fr_is_limbs(&st[1], neptune_vectors[a]);
        CHECK(bad == 0);
        printf("  neptune form arity %2u: constants %.1f ms, %s\n", arities[a], ms,
               bad ? "MISMATCH" : "matches the reference");
    }
    CHECK(poseidon_neptune_get(3) == NULL);
}

/* Lazy construction races: several threads build arity 24 at once. */
static void *race_worker(void *arg) {
    fr in[24];
    for (unsigned i = 0; i < 24; i++)
        fr_set_u64(&in[i], i);
    poseidon_hash((fr *)arg, in, 24);
    return NULL;
}

static void test_threads(void) {
    enum { N = 4 };
    pthread_t th[N];
    fr out[N];
    for (int i = 0; i < N; i++)
        CHECK(pthread_create(&th[i], NULL, race_worker, &out[i]) == 0);
    for (int i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < N; i++)
        CHECK(fr_is_limbs(&out[i], neptune_vectors[5]));
}

static void report_timings(void) {
    for (size_t a = 0; a < NARITIES; a++) {
        fr in[POSEIDON_MAX_ARITY], out;
        for (unsigned i = 0; i < arities[a]; i++)
            in[i] = rand_fr();
        const poseidon_params *p = poseidon_params_get(arities[a]);
        const int reps = 200;
        double t0 = timing_now_ms();
        for (int r = 0; r < reps; r++) {
            poseidon_hash(&out, in, arities[a]);
            in[0] = out;
        }
        double fast = (timing_now_ms() - t0) * 1e3 / reps;
        fr st[POSEIDON_MAX_WIDTH] = {p->tag};
        t0 = timing_now_ms();
        for (int r = 0; r < reps; r++)
            poseidon_permute(p, st);
        double ref = (timing_now_ms() - t0) * 1e3 / reps;
        printf("  poseidon arity %2u: %8.2f us/hash (reference form %8.2f us)\n", arities[a], fast,
               ref);
    }
}

int main(void) {
    check_seed("test_poseidon");
    double t0 = timing_now_ms();
    test_threads(); /* first, so the lazy build of arity 24 really races */
    printf("  arity 24 params + hash from 4 threads: %.1f ms\n", timing_now_ms() - t0);
    test_round_numbers();
    test_round_constants_t9();
    test_mds();
    test_neptune_vectors();
    test_filecoin_tree();
    test_curio();
    test_python_reference();
    test_hash_is_permutation();
    test_fast_equals_reference();
    test_neptune_form();
    report_timings();
    return check_finish();
}
