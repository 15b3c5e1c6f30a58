/* SnapDeals test data for the unit tests: a random old replica (canonical
 * nodes), a random comm_c and random Fr32 data, updated with
 * fc_snap_update_build, and every partition's vanilla proof. */
#ifndef CUZK_TEST_SNAP_TEST_UTIL_H
#define CUZK_TEST_SNAP_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/snap/snap_vanilla_gen.h"

typedef struct {
    fc_update_proof p; /* a copy: test-only sizes have no table entry */
    fc_snap_update u;
    uint8_t *vanilla[16];
    size_t len[16];
} snap_fixture;

/* Random bytes whose top two bits are clear: canonical Fr and Fr32 data. */
static inline void snap_rand_nodes(uint8_t *out, size_t nodes) {
    check_rand_bytes(out, nodes * 32);
    for (size_t i = 0; i < nodes; i++)
        out[32 * i + 31] &= 0x3f;
}

static inline int snap_fixture_make(snap_fixture *f, const fc_update_proof *p, unsigned h) {
    memset(f, 0, sizeof *f);
    f->p = *p;
    size_t nb = (size_t)p->nodes * 32;
    uint8_t *old = malloc(nb), *data = malloc(nb), comm_c[32];
    char err[256] = "";
    int rc = -1;
    if (!old || !data)
        goto done;
    snap_rand_nodes(old, p->nodes);
    snap_rand_nodes(data, p->nodes);
    snap_rand_nodes(comm_c, 1);
    if (fc_snap_update_build(&f->u, &f->p, h, comm_c, old, data, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "update: %s\n", err);
        goto done;
    }
    for (unsigned k = 0; k < p->partitions; k++)
        if (fc_snap_vanilla_generate(&f->vanilla[k], &f->len[k], &f->u, k, err, sizeof err) != 0) {
            fprintf(stderr, "partition %u: %s\n", k, err);
            goto done;
        }
    rc = 0;
done:
    free(old);
    free(data);
    return rc;
}

static inline void snap_fixture_free(snap_fixture *f) {
    for (unsigned k = 0; k < 16; k++)
        free(f->vanilla[k]);
    fc_snap_update_free(&f->u);
    memset(f, 0, sizeof *f);
}

#endif
