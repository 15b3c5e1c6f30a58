/* SnapDeals vanilla proofs: generator -> encode -> decode -> identical bytes,
 * the sizes of docs/SNAPDEALS.md 2, and every structural fault refused with
 * its code and a message naming the field.  `test_snap_vanilla 8m` adds the
 * 8 MiB round trip (4 partitions of 43,864 bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/snap/snap_vanilla.h"
#include "snap_test_util.h"

static void put_u64(uint8_t *b, uint64_t v) {
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

/* Decoding buf must fail with code and a message containing needle. */
static int rejects(const uint8_t *buf, size_t len, const fc_update_proof *p, int code,
                   const char *needle) {
    fc_snap_vanilla v;
    char err[400] = "";
    int rc = fc_snap_vanilla_decode(&v, buf, len, p, err, sizeof err);
    fc_snap_vanilla_free(&v);
    if (rc != code || (needle && !strstr(err, needle))) {
        fprintf(stderr, "  got %s \"%s\", wanted %s with \"%s\"\n", snap_status_name(rc), err,
                snap_status_name(code), needle ? needle : "");
        return 0;
    }
    return 1;
}

/* Round trip of every partition of f; checks the decoded values against the trees. */
static void round_trip(const snap_fixture *f) {
    const fc_update_proof *p = &f->p;
    const unsigned row = p->bits - p->partition_bits - p->apex_bits;
    for (unsigned k = 0; k < p->partitions; k++) {
        CHECK(f->len[k] == fc_snap_vanilla_size(p));
        fc_snap_vanilla v;
        char err[400] = "";
        int rc = fc_snap_vanilla_decode(&v, f->vanilla[k], f->len[k], p, err, sizeof err);
        CHECK(rc == SNAP_OK);
        if (rc != SNAP_OK) {
            fprintf(stderr, "  partition %u: %s\n", k, err);
            continue;
        }
        CHECK(v.n_apex == p->apex_leaves && v.n_challenges == p->challenges);
        CHECK_MEM(v.comm_c, f->u.comm_c, 32);
        CHECK_MEM(v.apex_leaves[0],
                  merkle_tree_node(&f->u.tree_d_new, row, (size_t)k * p->apex_leaves),
                  32 * (size_t)p->apex_leaves);
        const fc_snap_challenge_proof *c0 = &v.challenges[0];
        CHECK_MEM(c0->r_old.root, f->u.root_r_old, 32);
        CHECK_MEM(c0->d_new.root, f->u.comm_d_new, 32);
        CHECK_MEM(c0->r_new.root, f->u.root_r_new, 32);
        CHECK(c0->d_new.kind == FC_PROOF_SINGLE && c0->d_new.n_base == p->bits);
        CHECK(c0->r_old.kind == (p->arity_top   ? FC_PROOF_TOP
                                 : p->arity_sub ? FC_PROOF_SUB
                                                : FC_PROOF_SINGLE));
        uint64_t c = fc_inclusion_leaf_index(&c0->r_old);
        CHECK(c >> p->rand_bits == k); /* challenges stay in partition k */
        CHECK(fc_inclusion_leaf_index(&c0->d_new) == c && fc_inclusion_leaf_index(&c0->r_new) == c);
        CHECK_MEM(c0->r_old.leaf, merkle_tree_node(&f->u.tree_r_old, 0, c), 32);
        CHECK_MEM(c0->d_new.leaf, merkle_tree_node(&f->u.tree_d_new, 0, c), 32);
        CHECK_MEM(c0->r_new.leaf, merkle_tree_node(&f->u.tree_r_new, 0, c), 32);
        size_t n = fc_snap_vanilla_encode(NULL, &v);
        uint8_t *again = malloc(n);
        CHECK(n == f->len[k] && again);
        if (again && n == f->len[k]) {
            CHECK(fc_snap_vanilla_encode(again, &v) == n);
            CHECK_MEM(again, f->vanilla[k], n);
        }
        free(again);
        fc_snap_vanilla_free(&v);
        /* structure alone decodes too */
        CHECK(fc_snap_vanilla_decode(&v, f->vanilla[k], f->len[k], NULL, err, sizeof err) ==
              SNAP_OK);
        fc_snap_vanilla_free(&v);
    }
}

static void faults_2k(const snap_fixture *f) {
    const fc_update_proof *p = &f->p;
    const uint8_t *good = f->vanilla[0];
    const size_t len = f->len[0];
    uint8_t *b = malloc(len + 1);
    if (!b)
        return;
    /* every truncation */
    int all_truncated = 1;
    for (size_t cut = 0; cut < len; cut++) {
        fc_snap_vanilla v;
        char err[400];
        int rc = fc_snap_vanilla_decode(&v, good, cut, p, err, sizeof err);
        fc_snap_vanilla_free(&v);
        if (rc != SNAP_E_TRUNCATED || (!strstr(err, "truncated") && !strstr(err, "exceeds"))) {
            if (all_truncated)
                fprintf(stderr, "  cut %zu: %s %s\n", cut, snap_status_name(rc), err);
            all_truncated = 0;
        }
    }
    CHECK(all_truncated);
    CHECK(rejects(NULL, 0, p, SNAP_E_TRUNCATED, "comm_c: truncated"));
    memcpy(b, good, len);
    b[len] = 0;
    CHECK(rejects(b, len + 1, p, SNAP_E_TRAILING, "1 trailing bytes after the PartitionProof"));

    /* offsets at 2 KiB: A = 8, C = 10, tree R 2 elements of 7, tree D 6 of 1 */
    const size_t apex_len = 32, ch_len = 40 + 8 * 32, ch0 = ch_len + 8;
    const size_t r_path = ch0 + 4 + 64, r_elem1 = r_path + 8 + 240, d0 = ch0 + 556,
                 d_path = d0 + 4 + 64, r_new0 = d0 + 364;
    CHECK(r_new0 + 556 == ch0 + 1476);
#define MUTATE(stmt, code, needle)               \
    do {                                         \
        memcpy(b, good, len);                    \
        stmt;                                    \
        CHECK(rejects(b, len, p, code, needle)); \
    } while (0)
    MUTATE(put_u64(b + apex_len, 7), SNAP_E_LENGTH,
           "apex_leafs: StackedDrg2KiBV1 has 8 apex leaves per partition, got 7");
    MUTATE(put_u64(b + apex_len, 1ull << 60), SNAP_E_TRUNCATED,
           "apex_leafs: length 1152921504606846976 exceeds");
    MUTATE(put_u64(b + ch_len, 9), SNAP_E_LENGTH,
           "challenge_proofs: StackedDrg2KiBV1 has 10 challenges per partition, got 9");
    MUTATE(put_u64(b + ch_len, 1000), SNAP_E_TRUNCATED, "challenge_proofs: length 1000 exceeds");
    MUTATE(b[ch0] = 1, SNAP_E_VARIANT,
           "challenge_proofs[0].proof_r_old.variant: tree R of StackedDrg2KiBV1 needs variant 0, "
           "got 1");
    MUTATE(b[d0] = 3, SNAP_E_VARIANT,
           "challenge_proofs[0].proof_d_new.variant: 3 is not Single (0), Sub (1) or Top (2)");
    MUTATE(put_u64(b + r_path, 1), SNAP_E_SHAPE,
           "challenge_proofs[0].proof_r_old.path: expected 2 path elements, got 1");
    MUTATE(put_u64(b + r_path + 8, 6), SNAP_E_SHAPE,
           "challenge_proofs[0].proof_r_old.path[0].hashes: expected 7 elements, got 6");
    MUTATE(put_u64(b + r_elem1 + 8 + 224, 8), SNAP_E_INDEX,
           "challenge_proofs[0].proof_r_old.path[1].index: 8 is not below arity 8");
    MUTATE(put_u64(b + d_path + 8 + 2 * 48, 2), SNAP_E_SHAPE,
           "challenge_proofs[0].proof_d_new.path[2].hashes: expected 1 elements, got 2");
    MUTATE(put_u64(b + d_path + 8 + 3 * 48 + 40, 2), SNAP_E_INDEX,
           "challenge_proofs[0].proof_d_new.path[3].index: 2 is not below arity 2");
    MUTATE(memset(b, 0xff, 32), SNAP_E_NOT_FR, "comm_c: not a canonical field element");
    MUTATE(b[40 + 3 * 32 + 31] = 0xff, SNAP_E_NOT_FR, "apex_leafs[3]: not a canonical");
    MUTATE(b[d_path + 8 + 8 + 31] = 0xff, SNAP_E_NOT_FR,
           "challenge_proofs[0].proof_d_new.path[0].hashes[0]: not a canonical");
    MUTATE(b[r_new0 + 4 + 32 + 31] = 0xff, SNAP_E_NOT_FR,
           "challenge_proofs[0].proof_r_new.leaf: not a canonical");
    /* the last challenge, to show the index in the name */
    const size_t last = ch0 + 9 * 1476;
    MUTATE(put_u64(b + last + 556 + 364 + 4 + 64 + 8, 6), SNAP_E_SHAPE,
           "challenge_proofs[9].proof_r_new.path[0].hashes: expected 7 elements, got 6");
#undef MUTATE
    /* random damage: one to four bytes anywhere; never a crash, and a refusal is
     * one of the decoder's codes (a changed hash or leaf still decodes) */
    int codes_ok = 1;
    for (int r = 0; r < 3000; r++) {
        memcpy(b, good, len);
        int n = 1 + (int)(check_rand64() % 4);
        for (int i = 0; i < n; i++)
            b[check_rand64() % len] ^= (uint8_t)(1 + check_rand64() % 255);
        fc_snap_vanilla v;
        char err[400];
        int rc = fc_snap_vanilla_decode(&v, b, len, p, err, sizeof err);
        if (rc == SNAP_OK)
            CHECK(v.n_challenges == 10 && v.n_apex == 8);
        fc_snap_vanilla_free(&v);
        if (rc != SNAP_OK && (rc > SNAP_E_TRUNCATED || rc < SNAP_E_NOT_FR || !err[0]))
            codes_ok = 0;
    }
    CHECK(codes_ok);
    /* another registered proof's shape */
    CHECK(rejects(good, len, fc_update_proof_by_id(1), SNAP_E_LENGTH,
                  "StackedDrg8MiBV1 has 128 apex leaves"));
    free(b);
}

int main(int argc, char **argv) {
    check_seed("test_snap_vanilla");
    const size_t want[5] = {15064, 43864, 453064, 561768, 575528};
    for (unsigned id = 0; id < 5; id++)
        CHECK(fc_snap_vanilla_size(fc_update_proof_by_id(id)) == want[id]);
    CHECK(strcmp(snap_status_name(SNAP_E_APEX), "SNAP_E_APEX") == 0);

    snap_fixture f;
    CHECK(snap_fixture_make(&f, fc_update_proof_by_id(0), 0) == 0);
    CHECK(f.len[0] == 15064);
    round_trip(&f);
    faults_2k(&f);
    snap_fixture_free(&f);

    /* the test-only sizes with Sub (16 KiB, 8-8-0) and Top (32 KiB, 8-8-2) trees, 2 partitions */
    for (uint64_t nodes = 1u << 9; nodes <= 1u << 10; nodes <<= 1) {
        fc_update_proof tp;
        CHECK(fc_update_proof_for_nodes(&tp, nodes) == 0);
        CHECK(snap_fixture_make(&f, &tp, 0) == 0);
        round_trip(&f);
        snap_fixture_free(&f);
    }
    if (argc > 1 && strcmp(argv[1], "8m") == 0) {
        CHECK(snap_fixture_make(&f, fc_update_proof_by_id(1), 0) == 0);
        for (unsigned k = 0; k < 4; k++)
            CHECK(f.len[k] == 43864);
        round_trip(&f);
        snap_fixture_free(&f);
    }
    return check_finish();
}
