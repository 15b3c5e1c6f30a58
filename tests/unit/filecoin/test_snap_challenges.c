/* SnapDeals native pieces: the update-proof table and its parameter names
 * (rust-fil-proofs parameters.json), the generation tag 2^40 (neptune
 * CType::Arbitrary(1)), challenges against upstream's hard-coded vectors
 * (challenges.rs test_challenges_against_hardcoded) and their partition
 * ranges, and the packed public input. */
#include <string.h>

#include "check.h"
#include "filecoin/proof_types.h"
#include "filecoin/snap/snap_challenges.h"
#include "gadget/poseidon.h"

/* rand_xorshift 0.3 XorShiftRng and blstrs' Scalar::random (4 x next_u64,
 * top bit masked, rejection), to rebuild upstream's comm_r_new. */
typedef struct {
    uint32_t x, y, z, w;
} xorshift;
static uint32_t xs_u32(xorshift *r) {
    uint32_t t = r->x ^ (r->x << 11);
    r->x = r->y;
    r->y = r->z;
    r->z = r->w;
    r->w = r->w ^ (r->w >> 19) ^ (t ^ (t >> 8));
    return r->w;
}
static uint64_t xs_u64(xorshift *r) {
    uint64_t lo = xs_u32(r);
    return ((uint64_t)xs_u32(r) << 32) | lo;
}
static void random_fr(fr *out, xorshift *r) {
    static const uint64_t mod[4] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull,
                                    0x3339d80809a1d805ull, 0x73eda753299d7d48ull};
    for (;;) {
        uint64_t raw[4];
        for (int i = 0; i < 4; i++)
            raw[i] = xs_u64(r);
        raw[3] &= 0x7fffffffffffffffull;
        int lt = 0;
        for (int i = 3; i >= 0; i--) {
            if (raw[i] != mod[i]) {
                lt = raw[i] < mod[i];
                break;
            }
        }
        if (lt) {
            fr_from_raw(out, raw);
            return;
        }
    }
}
static xorshift test_rng(void) {
    static const uint8_t seed[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                     0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};
    uint32_t s[4];
    for (int i = 0; i < 4; i++)
        s[i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 |
               (uint32_t)seed[4 * i + 2] << 16 | (uint32_t)seed[4 * i + 3] << 24;
    return (xorshift){s[0], s[1], s[2], s[3]};
}

static void expect_stem(unsigned id, const char *tail) {
    char buf[256], want[256];
    snprintf(want, sizeof want, "v28-empty-sector-update-merkletree-poseidon_hasher-%s", tail);
    size_t n = fc_update_param_stem(buf, sizeof buf, fc_update_proof_by_id(id));
    CHECK(n == strlen(want) && strcmp(buf, want) == 0);
    if (strcmp(buf, want) != 0)
        fprintf(stderr, "  got  %s\n  want %s\n", buf, want);
}

static void check_table(void) {
    expect_stem(0, "8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194");
    expect_stem(1, "8-0-0-92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63");
    expect_stem(2, "8-0-0-61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c");
    expect_stem(3, "8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18");
    expect_stem(4, "8-8-2-102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7");
    char small[16];
    CHECK(fc_update_param_stem(small, sizeof small, fc_update_proof_by_id(0)) == 0);
    CHECK(fc_update_proof_by_id(5) == NULL);

    /* docs/SNAPDEALS.md 1.3: P, C, A, h, h_select, digests, input 0 */
    static const struct {
        unsigned p, c, a, h, hsel, d, sub, top;
    } want[5] = {{1, 10, 8, 1, 1, 1, 0, 0},
                 {4, 10, 128, 10, 8, 1, 0, 0},
                 {16, 86, 128, 10, 8, 8, 0, 0},
                 {16, 86, 128, 10, 8, 10, 8, 0},
                 {16, 86, 128, 10, 8, 10, 8, 2}};
    for (unsigned i = 0; i < 5; i++) {
        const fc_update_proof *p = fc_update_proof_by_id(i);
        CHECK(p->id == (int)i && p->shape == fc_shape_at(i) && p->nodes == fc_shape_at(i)->nodes);
        CHECK(p->partitions == want[i].p && p->challenges == want[i].c);
        CHECK(p->apex_leaves == want[i].a && (1u << p->apex_bits) == p->apex_leaves);
        CHECK(p->h_default == want[i].h && fc_update_h_select(p, p->h_default) == want[i].hsel);
        CHECK(p->digests == want[i].d);
        CHECK(p->arity_base == 8 && p->arity_sub == want[i].sub && p->arity_top == want[i].top);
    }
    CHECK(strcmp(fc_update_proof_by_id(3)->name, "StackedDrg32GiBV1") == 0);
    CHECK(fc_update_h_select(fc_update_proof_by_id(3), 12) == 32);
    CHECK(fc_update_h_select(fc_update_proof_by_id(3), 6) == 0);
    fc_update_proof t;
    CHECK(fc_update_proof_for_nodes(&t, 1u << 9) == 0 && t.id == -1 && t.partitions == 2 &&
          t.arity_sub == 8 && t.arity_top == 0 && t.apex_leaves == 128);
    CHECK(fc_update_proof_for_nodes(&t, 1u << 11) == -1);
    CHECK(fc_update_proof_for_nodes(&t, 3) == -1);
}

static void check_tag(void) {
    fr tag, two40;
    uint64_t raw[4] = {1ull << 40, 0, 0, 0};
    poseidon_custom_tag(&tag, 1);
    fr_from_raw(&two40, raw);
    CHECK(fr_equal(&tag, &two40));
    /* the tagged hash is the reference permutation with state[0] = tag */
    const poseidon_params *pp = poseidon_params_get(2);
    fr in[2], state[3], out;
    fr_set_u64(&in[0], 12345);
    fr_set_u64(&in[1], 678);
    state[0] = tag;
    state[1] = in[0];
    state[2] = in[1];
    poseidon_permute(pp, state);
    CHECK(poseidon_hash_tagged(&out, in, 2, &tag) == 0);
    CHECK(fr_equal(&out, &state[1]));
    fr merkle;
    poseidon_hash(&merkle, in, 2);
    CHECK(!fr_equal(&out, &merkle));
    fr phi;
    snap_phi(&phi, &in[0], &in[1]);
    CHECK(fr_equal(&phi, &out));
}

/* upstream's vectors: (nodes, k) -> first 5 challenges */
static const struct {
    unsigned bits, k;
    uint64_t c[5];
} g_vectors[] = {
    {5, 0, {21, 7, 3, 31, 0}},
    {6, 0, {53, 51, 56, 3, 0}},
    {7, 0, {117, 25, 62, 0, 72}},
    {8, 0, {245, 140, 15, 128, 28}},
    {9, 0, {245, 140, 15, 128, 28}},
    {9, 1, {286, 308, 493, 510, 508}},
    {10, 0, {245, 454, 3, 400, 193}},
    {10, 1, {542, 666, 955, 927, 911}},
    {18, 0, {36085, 32783, 44060, 10950, 3731}},
    {18, 1, {78878, 130797, 112892, 93994, 78379}},
    {19, 0, {101621, 16391, 109319, 25944, 41193}},
    {19, 1, {209950, 163702, 175679, 224741, 197410}},
    {24, 0, {1019125, 116736, 706220, 59698, 799498}},
    {24, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
    {24, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
    {24, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
    {30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
    {30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
    {30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
    {30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
    {31, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
    {31, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
    {31, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
    {31, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
};

static void check_challenges(void) {
    xorshift rng = test_rng();
    fr comm_r_new;
    random_fr(&comm_r_new, &rng);
    uint64_t c[86];
    for (size_t v = 0; v < sizeof g_vectors / sizeof g_vectors[0]; v++) {
        fc_update_proof p;
        CHECK(fc_update_proof_for_nodes(&p, 1ull << g_vectors[v].bits) == 0);
        CHECK(snap_challenges(c, &p, &comm_r_new, g_vectors[v].k) == 0);
        int ok = memcmp(c, g_vectors[v].c, sizeof g_vectors[v].c) == 0;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  bits %u k %u: got %llu %llu %llu\n", g_vectors[v].bits,
                    g_vectors[v].k, (unsigned long long)c[0], (unsigned long long)c[1],
                    (unsigned long long)c[2]);
    }
    /* bucketing: every challenge of partition k is in its range (all 11 sizes) */
    static const unsigned all_bits[] = {5, 6, 7, 8, 9, 10, 18, 19, 24, 30, 31};
    for (size_t s = 0; s < sizeof all_bits / sizeof all_bits[0]; s++) {
        fc_update_proof p;
        fc_update_proof_for_nodes(&p, 1ull << all_bits[s]);
        random_fr(&comm_r_new, &rng);
        uint64_t per = p.nodes / p.partitions;
        for (unsigned k = 0; k < p.partitions; k++) {
            CHECK(snap_challenges(c, &p, &comm_r_new, k) == 0);
            for (unsigned t = 0; t < p.challenges; t++)
                CHECK(c[t] >= k * per && c[t] < (k + 1) * per && c[t] >> p.rand_bits == k);
        }
        CHECK(snap_challenges(c, &p, &comm_r_new, p.partitions) == -1);
    }
}

static void check_inputs(void) {
    fr a, b, c, in[4], want;
    fr_set_u64(&a, 1);
    fr_set_u64(&b, 2);
    fr_set_u64(&c, 3);
    const fc_update_proof *p2k = fc_update_proof_by_id(0), *p32g = fc_update_proof_by_id(3);
    CHECK(snap_public_inputs(in, p2k, 0, 1, &a, &b, &c) == 0);
    fr_set_u64(&want, 1);
    CHECK(fr_equal(&in[0], &want) && fr_equal(&in[1], &a) && fr_equal(&in[2], &b) &&
          fr_equal(&in[3], &c));
    CHECK(snap_public_inputs(in, p32g, 5, 10, &a, &b, &c) == 0);
    fr_set_u64(&want, 5 + (8 << 4));
    CHECK(fr_equal(&in[0], &want));
    CHECK(snap_public_inputs(in, p32g, 16, 10, &a, &b, &c) == -1);
    CHECK(snap_public_inputs(in, p32g, 0, 13, &a, &b, &c) == -1);
    CHECK(snap_public_inputs(in, p2k, 0, 10, &a, &b, &c) == -1);
    /* rho differs by high bits and is the tagged hash of (phi, hi) */
    fr r0, r1, phi;
    snap_phi(&phi, &b, &a);
    snap_rho(&r0, &phi, 0);
    snap_rho(&r1, &phi, 1);
    CHECK(!fr_equal(&r0, &r1));
    CHECK(snap_high(0x3ff00000ull, 30, 10) == 0x3ff);
}

int main(void) {
    check_table();
    check_tag();
    check_challenges();
    check_inputs();
    return check_finish();
}
