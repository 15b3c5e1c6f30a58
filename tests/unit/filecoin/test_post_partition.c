/* post_partition: vanilla proofs of 2 KiB sectors sealed here (random data,
 * tickets and randomness from the printed seed) prepare into a satisfied
 * circuit whose public inputs equal (a) post_partition_public from the
 * replicas alone and (b) an independent derivation here (challenge index
 * slot*C + j for V1, j for V1_1, slot for Winning; padding repeats the last
 * sector).  Both WindowPoSt partitions of 3 sectors, V1 and V1_1, and
 * WinningPoSt.  Refused with the problem named: other randomness, a V1
 * vanilla proof made for another slot, a damaged path, a comm_r of another
 * sector, too many sectors, Winning partition 1, a non-Fr randomness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/post/post_partition.h"
#include "post_sectors.h"

/* Vanilla proofs of secs[0..n) for partition k of p (slot k*sector_count + i). */
typedef struct {
    uint8_t *b[2];
    size_t len[2];
    size_t n;
} vanillas;

static void vanillas_free(vanillas *v) {
    for (size_t i = 0; i < v->n; i++)
        free(v->b[i]);
    memset(v, 0, sizeof *v);
}

static void make_vanillas(vanillas *v, const fc_post_proof *p, sector *const *secs, size_t n,
                          uint64_t k, const uint8_t rnd[32], int slot_shift) {
    char err[256];
    memset(v, 0, sizeof *v);
    for (size_t i = 0; i < n; i++, v->n++)
        CHECK(fc_post_vanilla_generate(&v->b[i], &v->len[i], p, &secs[i]->ps, rnd,
                                       k * p->sector_count + i + slot_shift, err, sizeof err) == 0);
}

static int prepare(post_partition *pp, const fc_post_proof *p, const vanillas *v,
                   const uint8_t rnd[32], uint64_t k, char *err, size_t cap) {
    return post_partition_prepare(pp, p, (const uint8_t *const *)v->b, v->len, v->n, rnd, k, err,
                                  cap);
}

static void check_ok(const fc_post_proof *p, sector *const *secs, size_t n, uint64_t k,
                     const uint8_t rnd[32]) {
    vanillas v;
    make_vanillas(&v, p, secs, n, k, rnd, 0);
    post_partition pp;
    char err[512] = "";
    int rc = prepare(&pp, p, &v, rnd, k, err, sizeof err);
    CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "%s partition %llu: %s\n", p->name, (unsigned long long)k, err);
        vanillas_free(&v);
        return;
    }
    fc_post_replica rep[2];
    for (size_t i = 0; i < n; i++) {
        rep[i].sector_id = secs[i]->ps.sector_id;
        memcpy(rep[i].comm_r, secs[i]->ps.comm_r, 32);
    }
    fr *pub = NULL, want[66 * 2];
    size_t n_pub = 0;
    CHECK(post_partition_public(&pub, &n_pub, p, rep, p->kind == FC_POST_WINNING ? 1 : n, rnd, k,
                                err, sizeof err) == 0);
    size_t n_want = expected_inputs(want, p, secs, n, k, rnd);
    CHECK(n_pub == pp.n_inputs && n_want == pp.n_inputs);
    for (size_t i = 0; pub && i < n_pub && i < n_want; i++) {
        CHECK(fr_equal(&pub[i], &pp.inputs[i]));
        CHECK(fr_equal(&want[i], &pp.inputs[i]));
    }
    /* the circuit with this witness is satisfied and inputizes exactly these */
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    r1cs_counts c;
    CHECK(cs && post_circuit_synthesize(cs, &pp.shape, &pp.witness) == 0 && r1cs_finish(cs) == 0 &&
          r1cs_get_counts(cs, &c) == 0);
    CHECK(c.checked && c.satisfied && c.inputs == pp.n_inputs + 1);
    if (!c.satisfied)
        fprintf(stderr, "%s: unsatisfied at %s\n", p->name,
                c.unsatisfied_path ? c.unsatisfied_path : "?");
    printf("%s partition %llu: %zu sector(s), %zu inputs, %zu constraints, satisfied\n", p->name,
           (unsigned long long)k, n, pp.n_inputs, c.constraints);
    r1cs_cs_free(cs);
    free(pub);
    post_partition_free(&pp);
    vanillas_free(&v);
}

/* prepare must fail with want in the message. */
static void check_refused(const char *what, const fc_post_proof *p, const vanillas *v,
                          const uint8_t rnd[32], uint64_t k, const char *want) {
    post_partition pp;
    char err[512] = "";
    int rc = prepare(&pp, p, v, rnd, k, err, sizeof err);
    CHECK(rc != 0);
    CHECK(strstr(err, want) != NULL);
    printf("refused %s: %s\n", what, err);
    if (rc == 0)
        post_partition_free(&pp);
}

int main(void) {
    check_seed("test_post_partition");
    sector secs[3];
    memset(secs, 0, sizeof secs);
    for (unsigned i = 0; i < 3; i++)
        if (seal(&secs[i], 10 + i) != 0)
            return 1;
    uint8_t rnd[32], other[32];
    check_rand_bytes(rnd, 32);
    check_rand_bytes(other, 32);
    rnd[31] &= 0x3f;
    other[31] &= 0x3f;
    sector *p01[2] = {&secs[0], &secs[1]}, *p2[1] = {&secs[2]};
    const fc_post_proof *v1 = fc_post_proof_by_id(5), *v11 = fc_post_proof_by_id(10),
                        *win = fc_post_proof_by_id(0);
    for (unsigned w = 0; w < 2; w++) {
        const fc_post_proof *p = w ? v11 : v1;
        check_ok(p, p01, 2, 0, rnd);
        check_ok(p, p2, 1, 1, rnd); /* the last partition, padded */
    }
    check_ok(win, p01, 1, 0, rnd);

    vanillas v;
    make_vanillas(&v, v11, p01, 2, 0, other, 0);
    /* (which challenge is named first: a challenge lands on the same leaf by chance) */
    check_refused("Window, other randomness", v11, &v, rnd, 0,
                  "vanilla_proofs[0]: sector 10 challenge ");
    check_refused("Window, other randomness", v11, &v, rnd, 0, "the randomness challenges leaf");
    vanillas_free(&v);
    make_vanillas(&v, v1, p2, 1, 1, rnd, -2); /* made for slot 0, used in slot 2 */
    check_refused("V1, another slot", v1, &v, rnd, 1, "the randomness challenges leaf");
    /* V1_1 challenges do not depend on the slot: the same proof is fine there */
    vanillas_free(&v);
    make_vanillas(&v, win, p01, 1, 0, other, 0);
    check_refused("Winning, other randomness", win, &v, rnd, 0, "the randomness challenges leaf");
    check_refused("Winning, partition 1", win, &v, other, 1, "WinningPoSt has only partition 0");
    vanillas_free(&v);

    make_vanillas(&v, v11, p01, 2, 0, rnd, 0);
    /* a byte of the first sibling of the first path: after the sector id, comm_r,
     * the sector count, the proof count, the variant (Single), root, leaf, the
     * path length and the first element's hash count */
    const size_t sib0 = 8 + 32 + 8 + 8 + 4 + 32 + 32 + 8 + 8 + 5;
    v.b[1][sib0] ^= 1;
    check_refused("a damaged path", v11, &v, rnd, 0,
                  "vanilla_proofs[1]: sector 11 challenge 0: the inclusion path does not reach "
                  "comm_r_last");
    v.b[1][sib0] ^= 1;
    memcpy(v.b[0] + 8, secs[2].ps.comm_r, 32);
    check_refused("a comm_r of another sector", v11, &v, rnd, 0,
                  "vanilla_proofs[0]: comm_r is not Poseidon(comm_c, comm_r_last)");
    memcpy(v.b[0] + 8, secs[0].ps.comm_r, 32);
    uint8_t bad[32];
    memset(bad, 0xff, sizeof bad);
    check_refused("a non-Fr randomness", v11, &v, bad, 0, "not a canonical field element");
    const uint8_t *three[3] = {v.b[0], v.b[1], v.b[0]};
    size_t three_len[3] = {v.len[0], v.len[1], v.len[0]};
    post_partition pp;
    char err[256] = "";
    CHECK(post_partition_prepare(&pp, v11, three, three_len, 3, rnd, 0, err, sizeof err) != 0);
    CHECK(strstr(err, "3 sector proofs, a StackedDrgWindow2KiBV1_1 partition takes 1 to 2"));
    fr *pub = (fr *)1;
    size_t n_pub = 1;
    CHECK(post_partition_public(&pub, &n_pub, v11, NULL, 0, rnd, 0, err, sizeof err) != 0);
    CHECK(pub == NULL && n_pub == 0 && strstr(err, "0 sectors"));
    vanillas_free(&v);
    for (unsigned i = 0; i < 3; i++)
        fc_sealed_free(&secs[i].s);
    return check_finish();
}
