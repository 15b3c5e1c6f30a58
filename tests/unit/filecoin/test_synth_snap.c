/* Invented SnapDeals updates (sealer/seal_synth_snap.h):
 *
 *  - 2 KiB, several seeds and set-node counts (none, one, a few, more than
 *    the sector's 64 nodes): the old replica and data the sparse trees hold,
 *    expanded to full size and updated densely (fc_snap_update_build), give
 *    the same commitments and byte-identical vanilla proofs;
 *  - the native verifier (snap_partition_prepare) accepts every partition,
 *    and refuses a proof with one byte changed;
 *  - the same seed gives the same bytes, another seed other commitments;
 *    a bad h and too many set nodes are refused with a message.
 *
 * With an argument it runs one size instead: 8m (4 partitions, dense and
 * sparse compared, and h 7 under snap_partition_prepare_h), 32g and 64g
 * (16 partitions made and verified; time and peak memory printed). */
#include <sys/resource.h>
#include <time.h>

#include "check.h"
#include "filecoin/snap/snap_partition.h"
#include "filecoin/snap/snap_vanilla_gen.h"
#include "sealer/seal_synth_snap.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Every partition's proof of s (vanilla[k] malloc'd). */
static int write_all(uint8_t **v, size_t *len, const fc_synth_snap *s) {
    fc_snap_trees t;
    fc_synth_snap_trees(&t, s);
    char err[256] = "";
    for (unsigned k = 0; k < s->proof->partitions; k++)
        if (fc_snap_vanilla_write(&v[k], &len[k], &t, k, err, sizeof err) != 0) {
            fprintf(stderr, "partition %u: %s\n", k, err);
            return -1;
        }
    return 0;
}

static void free_all(uint8_t **v, unsigned n) {
    for (unsigned k = 0; k < n; k++) {
        free(v[k]);
        v[k] = NULL;
    }
}

/* The native verifier over the n proofs: SNAP_OK or the code (message printed). */
static int verify(const fc_synth_snap *s, uint8_t **v, const size_t *len) {
    snap_partition pp;
    char err[512] = "";
    int rc = snap_partition_prepare_h(&pp, s->proof, s->h, (const uint8_t *const *)v, len,
                                      s->proof->partitions, s->comm_r_old, s->comm_r_new,
                                      s->comm_d_new, err, sizeof err);
    if (rc == SNAP_OK)
        snap_partition_free(&pp);
    else
        printf("  refused: %s: %s\n", snap_status_name(rc), err);
    return rc;
}

/* Verified, then refused with one byte of partition `bad`'s proof changed. */
static void verify_and_tamper(const fc_synth_snap *s, uint8_t **v, const size_t *len,
                              unsigned bad) {
    CHECK(verify(s, v, len) == SNAP_OK);
    size_t at = len[bad] / 2;
    v[bad][at] ^= 0x01;
    CHECK(verify(s, v, len) != SNAP_OK);
    v[bad][at] ^= 0x01;
}

/* The sparse rows expanded to nodes x 32 bytes. */
static uint8_t *expand(const sparse_tree *t, uint64_t nodes) {
    uint8_t *b = calloc(nodes, 32);
    for (size_t i = 0; b && i < t->count[0]; i++)
        memcpy(b + 32 * t->row[0][i].index, t->row[0][i].node, 32);
    return b;
}

/* The invented update against the dense one over the same contents. */
static void against_dense(const fc_update_proof *p, uint64_t seed, unsigned nodes, unsigned h) {
    fc_synth_snap_params sp = {p, seed, nodes, h};
    fc_synth_snap s;
    char err[256] = "";
    int rc = fc_synth_snap_make(&s, &sp, err, sizeof err);
    CHECK(rc == 0);
    if (rc != 0) {
        fprintf(stderr, "%s seed %llu nodes %u: %s\n", p->name, (unsigned long long)seed, nodes,
                err);
        return;
    }
    uint8_t *old = expand(&s.r_old, p->nodes), *data = expand(&s.d_new, p->nodes);
    uint8_t *replica = malloc((size_t)p->nodes * 32), *nr = expand(&s.r_new, p->nodes);
    fc_snap_update u;
    CHECK(old && data && replica && nr &&
          fc_snap_update_build(&u, p, h, s.comm_c, old, data, replica, err, sizeof err) == 0);
    CHECK_MEM(u.root_r_old, s.root_r_old, 32);
    CHECK_MEM(u.comm_r_old, s.comm_r_old, 32);
    CHECK_MEM(u.comm_d_new, s.comm_d_new, 32);
    CHECK_MEM(u.root_r_new, s.root_r_new, 32);
    CHECK_MEM(u.comm_r_new, s.comm_r_new, 32);
    CHECK(u.h == s.h);
    CHECK_MEM(replica, nr, (size_t)p->nodes * 32); /* zero wherever nothing was set */
    uint8_t *v[16] = {0}, *dv = NULL;
    size_t len[16] = {0}, dlen = 0;
    CHECK(write_all(v, len, &s) == 0);
    unsigned same = 0;
    for (unsigned k = 0; k < p->partitions; k++) {
        CHECK(fc_snap_vanilla_generate(&dv, &dlen, &u, k, err, sizeof err) == 0);
        same += v[k] && dv && dlen == len[k] && memcmp(dv, v[k], dlen) == 0;
        free(dv);
    }
    CHECK(same == p->partitions);
    verify_and_tamper(&s, v, len, p->partitions - 1);
    printf("%s seed %llu, %u nodes (%zu old, %zu data set): dense and sparse agree on %u "
           "partitions\n",
           p->name, (unsigned long long)seed, nodes, s.r_old.count[0], s.d_new.count[0], same);
    free_all(v, p->partitions);
    fc_snap_update_free(&u);
    fc_synth_snap_free(&s);
    free(old);
    free(data);
    free(replica);
    free(nr);
}

static void small(void) {
    const fc_update_proof *p = fc_update_proof_by_id(0);
    const unsigned counts[] = {0, 1, 3, 16, 200};
    for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++)
        against_dense(p, check_rand64(), counts[i], 0);

    /* the same seed, the same bytes; another seed, other commitments */
    fc_synth_snap a, b, c;
    char err[256] = "";
    fc_synth_snap_params sp = {p, 42, 8, 0};
    CHECK(fc_synth_snap_make(&a, &sp, err, sizeof err) == 0);
    CHECK(fc_synth_snap_make(&b, &sp, err, sizeof err) == 0);
    sp.seed = 43;
    CHECK(fc_synth_snap_make(&c, &sp, err, sizeof err) == 0);
    uint8_t *va[1] = {0}, *vb[1] = {0};
    size_t la[1], lb[1];
    CHECK(write_all(va, la, &a) == 0 && write_all(vb, lb, &b) == 0);
    CHECK(va[0] && vb[0] && la[0] == lb[0] && memcmp(va[0], vb[0], la[0]) == 0);
    CHECK(memcmp(a.comm_r_new, c.comm_r_new, 32) != 0 && memcmp(a.comm_c, c.comm_c, 32) != 0);
    free_all(va, 1);
    free_all(vb, 1);
    fc_synth_snap_free(&a);
    fc_synth_snap_free(&b);
    fc_synth_snap_free(&c);

    /* refused with a message */
    fc_synth_snap_params bad_h = {p, 1, 4, 3}, many = {p, 1, FC_SYNTH_SNAP_MAX_NODES + 1, 0};
    CHECK(fc_synth_snap_make(&a, &bad_h, err, sizeof err) != 0 && strstr(err, "not one of"));
    CHECK(fc_synth_snap_make(&a, &many, err, sizeof err) != 0 && strstr(err, "at most"));
    fc_synth_snap_free(&a);
}

/* One size made, every partition written and verified, one byte refused. */
static void big(const fc_update_proof *p, unsigned h) {
    struct rusage ru0, ru1;
    getrusage(RUSAGE_SELF, &ru0);
    double t0 = now_s();
    fc_synth_snap_params sp = {p, check_rand64(), 64, h};
    fc_synth_snap s;
    char err[256] = "";
    int rc = fc_synth_snap_make(&s, &sp, err, sizeof err);
    CHECK(rc == 0);
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", p->name, err);
        return;
    }
    uint8_t *v[16] = {0};
    size_t len[16] = {0};
    CHECK(write_all(v, len, &s) == 0);
    double t1 = now_s();
    for (unsigned k = 0; k < p->partitions; k++)
        CHECK(len[k] == fc_snap_vanilla_size(p));
    verify_and_tamper(&s, v, len, p->partitions / 2);
    double t2 = now_s();
    getrusage(RUSAGE_SELF, &ru1);
    printf("%s h %u: %u partitions of %zu bytes invented in %.2f s, verified (and one byte "
           "refused) in %.2f s; peak RSS %ld MiB\n",
           p->name, s.h, p->partitions, len[0], t1 - t0, t2 - t1, ru1.ru_maxrss / 1024);
    free_all(v, p->partitions);
    fc_synth_snap_free(&s);
}

int main(int argc, char **argv) {
    check_seed("test_synth_snap");
    const char *mode = argc > 1 ? argv[1] : "2k";
    if (strcmp(mode, "2k") == 0) {
        small();
    } else if (strcmp(mode, "8m") == 0) {
        const fc_update_proof *p = fc_update_proof_by_id(1);
        against_dense(p, check_rand64(), 16, 0);
        big(p, 7);
    } else if (strcmp(mode, "32g") == 0 || strcmp(mode, "64g") == 0) {
        big(fc_update_proof_by_id(mode[0] == '3' ? 3 : 4), 0);
    } else {
        fprintf(stderr, "usage: test_synth_snap [2k|8m|32g|64g]\n");
        return 2;
    }
    return check_finish();
}
