/* Public-input derivations: prover id, replica_id, PoRep challenges
 * (interactive, NI, synthetic) and PoSt challenges.
 * - synthetic: rust-fil-proofs' hard-coded vectors (challenges.rs
 *   test_synth_challenges_against_hardcoded, filecoin-facts §3.12);
 * - interactive / NI / PoSt / replica_id: values computed for this test by an
 *   independent Python (hashlib) transcription of the specification;
 * - PoSt: the leaf indices of curio's golden vanilla WindowPoSt proof
 *   (vectors/filecoin/post.vproof, randomness 0, sector 1) equal our challenges. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/prover_id.h"
#include "filecoin/porep/replica_id.h"
#include "util/hex.h"

static void fr_small(uint8_t out[32], uint64_t v) {
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

static void test_prover_id(void) {
    uint8_t id[32], want[32] = {0xe8, 0x07};
    uint64_t m = 0;
    fc_prover_id(id, 1000);
    CHECK_MEM(id, want, 32);
    CHECK(fc_prover_id_miner(&m, id) == 0 && m == 1000);
    fc_prover_id(id, 0);
    CHECK(id[0] == 0 && fc_prover_id_miner(&m, id) == 0 && m == 0);
    fc_prover_id(id, UINT64_MAX); /* 10 bytes: nine 0xff then 0x01 */
    CHECK(id[8] == 0xff && id[9] == 0x01 && id[10] == 0);
    CHECK(fc_prover_id_miner(&m, id) == 0 && m == UINT64_MAX);
    for (int t = 0; t < 1000; t++) {
        uint64_t v = check_rand64() >> (check_rand64() % 64);
        fc_prover_id(id, v);
        CHECK(fc_prover_id_miner(&m, id) == 0 && m == v);
    }
    uint8_t bad[32] = {0x80, 0x00}; /* non-minimal zero */
    CHECK(fc_prover_id_miner(&m, bad) == -1);
    uint8_t bad2[32] = {0x05, 0, 1}; /* junk after the varint */
    CHECK(fc_prover_id_miner(&m, bad2) == -1);
    uint8_t bad3[32];
    memset(bad3, 0xff, 32); /* never terminates */
    CHECK(fc_prover_id_miner(&m, bad3) == -1);
}

static void test_replica_id(void) {
    /* Python: sha256(prover ‖ sector BE ‖ ticket ‖ comm_d ‖ porep_id), byte 31 &= 0x3f */
    uint8_t prover[32], ticket[32], commd[32], porep[32], out[32], want[32];
    fc_prover_id(prover, 1000);
    memset(ticket, 1, 32);
    memset(commd, 2, 32);
    memset(porep, 0, 32);
    porep[0] = 8;
    fc_replica_id(out, prover, 0x0102030405060708ull, ticket, commd, porep);
    hex_decode(want, 32, "bca549e9d07c921e4e6e0ce8b220982d83ccd5367c44c0b900e6eab731084a29");
    CHECK_MEM(out, want, 32);
    CHECK((out[31] & 0xc0) == 0);
}

static void test_porep_challenges(void) {
    uint8_t rid[32], seed[32], commr[32];
    for (int i = 0; i < 32; i++)
        rid[i] = (uint8_t)i;
    rid[31] &= 0x3f;
    memset(seed, 7, 32);
    memset(commr, 0xab, 32);
    commr[31] = 0x1f;
    uint64_t got[180];
    static const uint64_t inter[18] = {609367643,  583668493,  780533673, 612687250,  221484732,
                                       1033957480, 588227754,  954643023, 1058338227, 554728220,
                                       634872506,  624273775,  275326244, 549480772,  347315809,
                                       34476061,   1029011369, 294793886};
    fc_interactive_challenges(got, 18, 3, 1ull << 30, rid, seed);
    CHECK(memcmp(got, inter, sizeof inter) == 0);
    /* Partition k is the slice C*k.. of one partition with all challenges. */
    fc_interactive_challenges(got, 180, 0, 1ull << 30, rid, seed);
    CHECK(memcmp(got + 54, inter, sizeof inter) == 0);
    /* The registered-proof front end: 32 GiB V1_1 (id 8) partition 3. */
    char err[128];
    CHECK(fc_porep_challenges(got, fc_seal_proof_by_id(8), 3, rid, NULL, seed, err, sizeof err) ==
          0);
    CHECK(memcmp(got, inter, sizeof inter) == 0);
    CHECK(fc_porep_challenges(got, fc_seal_proof_by_id(8), 10, rid, NULL, seed, err, sizeof err) ==
          -1);
    CHECK(strstr(err, "out of range") != NULL);
    CHECK(fc_porep_challenges(got, fc_seal_proof_by_id(8), 0, rid, NULL, NULL, err, sizeof err) ==
          -1);

    static const uint64_t ni2k[2] = {53, 44};
    fc_ni_challenges(got, 2, 5, 64, rid, commr);
    CHECK(got[0] == ni2k[0] && got[1] == ni2k[1]);
    CHECK(fc_porep_challenges(got, fc_seal_proof_by_id(15), 5, rid, commr, NULL, err, sizeof err) ==
          0);
    CHECK(got[0] == ni2k[0] && got[1] == ni2k[1]);
    static const uint64_t ni64[18] = {1376959415, 2071379947, 1019378323, 1178372146, 2058232334,
                                      1740447806, 1063763310, 747054402,  185963866,  2127887895,
                                      476247332,  279157519,  1942115406, 1875382256, 1669224400,
                                      1984536258, 503874331,  346433727};
    CHECK(fc_porep_challenges(got, fc_seal_proof_by_id(19), 125, rid, commr, NULL, err,
                              sizeof err) == 0);
    CHECK(memcmp(got, ni64, sizeof ni64) == 0);

    /* Synthetic: rust-fil-proofs' hard-coded values (replica_id = Fr(55),
     * comm_r = Fr(101), 2^10 nodes, 21 synthetic challenges, seed [1; 32]). */
    static const uint64_t synth[21] = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                       801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    static const uint64_t porep[10] = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    uint8_t r55[32], c101[32], one[32], gkey[32];
    fr_small(r55, 55);
    fr_small(c101, 101);
    memset(one, 1, 32);
    fc_synth_gen_key(gkey, r55, c101);
    fc_synth_challenges(got, 0, 21, 1 << 10, gkey);
    CHECK(memcmp(got, synth, sizeof synth) == 0);
    for (int i = 20; i >= 0; i--) { /* seeking to each one alone */
        uint64_t one_c;
        fc_synth_challenges(&one_c, (uint64_t)i, 1, 1 << 10, gkey);
        CHECK(one_c == synth[i]);
    }
    fc_synth_porep_challenges(got, 10, 0, 1 << 10, 21, r55, c101, one);
    CHECK(memcmp(got, porep, sizeof porep) == 0);
    /* Partitions are slices of the selection stream (k = 1 of 5 = items 5..9). */
    fc_synth_porep_challenges(got, 5, 1, 1 << 10, 21, r55, c101, one);
    CHECK(memcmp(got, porep + 5, 5 * sizeof porep[0]) == 0);
    CHECK(fc_synth_count(64) == 64 && fc_synth_count(1ull << 30) == (1u << 18));

    /* All synthetic-proof challenges lie in 1..nodes-1. */
    for (unsigned id = 10; id < 15; id++) {
        const fc_seal_proof *p = fc_seal_proof_by_id(id);
        for (unsigned k = 0; k < p->partitions; k++) {
            CHECK(fc_porep_challenges(got, p, k, rid, commr, seed, err, sizeof err) == 0);
            for (unsigned i = 0; i < p->challenges_per_partition; i++)
                CHECK(got[i] >= 1 && got[i] < p->shape->nodes);
        }
    }
    /* Reduction edge: all-ones bytes, 2 nodes -> always 1. */
    uint8_t ff[32];
    memset(ff, 0xff, 32);
    CHECK(fc_challenge_reduce(ff, 32, 2) == 1);
    /* 2^256 - 1 is divisible by 2^32 - 1 */
    CHECK(fc_challenge_reduce(ff, 32, 1ull << 32) == 1);
    uint8_t five[2] = {5, 0};
    CHECK(fc_challenge_reduce(five, 2, 7) == 6);
    CHECK(fc_challenge_reduce(five, 2, 6) == 1);
}

static void test_post(void) {
    uint8_t r[32];
    memset(r, 0x11, 32);
    r[31] = 0x05;
    static const uint64_t v1_slot3[10] = {374748509, 346309480, 328871091, 1052941791, 130282536,
                                          208310609, 246812173, 612254095, 180676539,  8648695};
    static const uint64_t v11_slot3[10] = {834114444, 36313152,  520231212, 280477867, 482142199,
                                           764063202, 865724629, 467246304, 608842342, 1069419777};
    uint64_t got[66];
    fc_post_sector_leaf_challenges(got, fc_post_proof_by_id(8), r, 1234, 3); /* Window 32G V1 */
    CHECK(memcmp(got, v1_slot3, sizeof v1_slot3) == 0);
    fc_post_sector_leaf_challenges(got, fc_post_proof_by_id(13), r, 1234, 3); /* Window V1_1 */
    CHECK(memcmp(got, v11_slot3, sizeof v11_slot3) == 0);
    /* Grindability fix: V1_1 challenges do not depend on the slot. */
    fc_post_sector_leaf_challenges(got, fc_post_proof_by_id(13), r, 1234, 0);
    CHECK(memcmp(got, v11_slot3, sizeof v11_slot3) == 0);
    /* Winning: one challenge per slot, index = slot. */
    const fc_post_proof *win = fc_post_proof_by_id(3);
    CHECK(win->challenge_count == 1 && win->sector_count == 66);
    for (uint64_t s = 0; s < 66; s++) {
        fc_post_sector_leaf_challenges(got, win, r, 1234, s);
        CHECK(got[0] == fc_post_leaf_challenge(r, 1234, s, 1ull << 30));
    }
    uint8_t pid[32];
    fc_prover_id(pid, 1000);
    CHECK(fc_post_sector_challenge(r, 0, 1000, pid) == 602);
    CHECK(fc_post_sector_challenge(r, 1, 1000, pid) == 783);
    CHECK(fc_post_sector_challenge(r, 2, 1000, pid) == 961);
    CHECK(fc_post_randomness_ok(r));
    uint8_t big[32];
    memset(big, 0xff, 32);
    big[31] = 0x73; /* > r */
    CHECK(!fc_post_randomness_ok(big));
}

/* bincode reader over post.vproof (format: vectors/README.md). */
typedef struct {
    const uint8_t *p;
    size_t n, off;
    int bad;
} rd;
static uint64_t rd_u(rd *r, int bytes) {
    uint64_t v = 0;
    if (r->off + (size_t)bytes > r->n) {
        r->bad = 1;
        return 0;
    }
    for (int i = bytes - 1; i >= 0; i--)
        v = (v << 8) | r->p[r->off + (size_t)i];
    r->off += (size_t)bytes;
    return v;
}
static void rd_skip(rd *r, size_t n) {
    if (r->off + n > r->n)
        r->bad = 1;
    else
        r->off += n;
}
/* A path: returns the leaf-position contribution folded with `acc_scale`. */
static void rd_path(rd *r, uint64_t *idx, uint64_t *scale) {
    uint64_t elems = rd_u(r, 8);
    for (uint64_t e = 0; e < elems && !r->bad; e++) {
        uint64_t hashes = rd_u(r, 8);
        rd_skip(r, 32 * hashes);
        uint64_t i = rd_u(r, 8);
        *idx += i * *scale;
        *scale *= hashes + 1;
    }
}

static void test_post_golden(void) {
    const char *shared = getenv("CUZK_SHARED");
    char path[1024];
    snprintf(path, sizeof path, "%s/vectors/filecoin/post.vproof", shared ? shared : "../shared");
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    CHECK(n == 24960);
    rd r = {buf, n, 0, 0};
    uint64_t sector = rd_u(&r, 8);
    rd_skip(&r, 32);
    uint64_t nsec = rd_u(&r, 8);
    uint64_t nproofs = rd_u(&r, 8);
    CHECK(sector == 1 && nsec == 1 && nproofs == 10);
    uint8_t zero[32] = {0};
    uint64_t want[10];
    fc_post_sector_leaf_challenges(want, fc_post_proof_by_id(8), zero, 1, 0);
    for (uint64_t i = 0; i < nproofs && i < 10 && !r.bad; i++) {
        uint32_t variant = (uint32_t)rd_u(&r, 4);
        CHECK(variant == 1); /* Sub */
        uint64_t idx = 0, scale = 1;
        rd_path(&r, &idx, &scale); /* base */
        rd_path(&r, &idx, &scale); /* sub */
        rd_skip(&r, 64);           /* root, leaf */
        CHECK(scale == (1ull << 30));
        CHECK(idx == want[i]);
    }
    rd_skip(&r, 64); /* comm_c, comm_r_last */
    CHECK(!r.bad && r.off == n);
}

int main(void) {
    check_seed("test_challenges");
    test_prover_id();
    test_replica_id();
    test_porep_challenges();
    test_post();
    test_post_golden();
    return check_finish();
}
