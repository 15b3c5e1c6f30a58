/* Shared by test_setup_pce*.c: the classic setup's bytes against the
 * streaming pce setup's for one toxic waste, over a list of thread counts
 * and chunk sizes. */
#ifndef CUZK_TEST_SETUP_COMPARE_H
#define CUZK_TEST_SETUP_COMPARE_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "groth16/setup_pce.h"
#include "r1cs/pce.h"

typedef struct {
    unsigned threads;
    size_t chunk;
} setup_run;

/* The classic path's .params and .vk bytes. */
static int classic_bytes(const r1cs_pce *p, const groth16_toxic *t, char **pb, size_t *pn,
                         char **vb, size_t *vn) {
    r1cs_matrices mx;
    if (pce_to_matrices(p, &mx))
        return -1;
    groth16_setup_result s;
    groth16_error ge = {0};
    int rc = -1;
    if (groth16_setup(&s, &mx, t, 2, &ge) == GROTH16_OK) {
        groth16_params_data d = groth16_setup_data(&s);
        FILE *f = open_memstream(pb, pn), *g = open_memstream(vb, vn);
        rc = groth16_params_write(f, &d, &ge) || groth16_vk_write_file(g, &s.vk, &ge) ? -1 : 0;
        fclose(f);
        fclose(g);
        groth16_setup_free(&s);
    } else
        fprintf(stderr, "classic setup: %s\n", ge.msg);
    r1cs_matrices_free(&mx);
    return rc;
}

static void compare(const r1cs_pce *p, const char *what, const setup_run *runs, size_t n_runs) {
    groth16_toxic t;
    char err[256];
    CHECK(groth16_toxic_from_seed(&t, "5e7d", err, sizeof err) == 0);
    char *pb = NULL, *vb = NULL;
    size_t pn = 0, vn = 0;
    CHECK(classic_bytes(p, &t, &pb, &pn, &vb, &vn) == 0);
    for (size_t r = 0; r < n_runs; r++) {
        groth16_setup_ops ops = {0};
        ops.chunk = runs[r].chunk;
        char *qb = NULL, *wb = NULL;
        size_t qn = 0, wn = 0;
        FILE *f = open_memstream(&qb, &qn), *g = open_memstream(&wb, &wn);
        groth16_vk vk;
        groth16_setup_info info;
        groth16_error ge = {0};
        groth16_status st =
            groth16_setup_pce_write(f, &vk, p, &t, &ops, runs[r].threads, &info, &ge);
        CHECK(st == GROTH16_OK);
        if (st != GROTH16_OK)
            fprintf(stderr, "%s: %s\n", what, ge.msg);
        CHECK(st != GROTH16_OK || groth16_vk_write_file(g, &vk, &ge) == GROTH16_OK);
        fclose(f);
        fclose(g);
        CHECK(qn == pn && wn == vn);
        CHECK(st != GROTH16_OK || info.params_bytes == pn);
        if (qn == pn)
            CHECK_MEM(qb, pb, pn);
        if (wn == vn)
            CHECK_MEM(wb, vb, vn);
        if (st == GROTH16_OK)
            groth16_vk_free(&vk);
        free(qb);
        free(wb);
    }
    free(pb);
    free(vb);
}

#endif
