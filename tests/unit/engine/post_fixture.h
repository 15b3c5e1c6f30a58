/* What the PoSt engine tests share: TEST-ONLY parameters of a PoSt circuit
 * under its Filecoin name, and (post_sectors.h) 2 KiB sectors sealed
 * natively and the public inputs derived independently of the engine.
 * Static functions: each test executable includes it once. */
#ifndef CUZK_TEST_POST_FIXTURE_H
#define CUZK_TEST_POST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/post/post_circuit.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "groth16/vk.h"
#include "post_sectors.h"

/* TEST-ONLY parameters of a PoSt circuit, written under its Filecoin name. */
static int write_params(const char *dir, const fc_post_proof *p, groth16_vk *vk_out) {
    post_shape s;
    post_shape_for_proof(&s, p);
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_matrices mx;
    if (!cs || post_circuit_synthesize(cs, &s, NULL) != 0 || r1cs_finish(cs) != R1CS_OK ||
        r1cs_take_matrices(cs, &mx) != R1CS_OK)
        return -1;
    r1cs_cs_free(cs);
    groth16_toxic t;
    groth16_setup_result res;
    groth16_error ge = {0};
    if (groth16_toxic_random(&t, &ge) != GROTH16_OK ||
        groth16_setup(&res, &mx, &t, 2, &ge) != GROTH16_OK) {
        fprintf(stderr, "setup: %s\n", ge.msg);
        return -1;
    }
    r1cs_matrices_free(&mx);
    char stem[200], path[400];
    fc_post_param_stem(stem, sizeof stem, p);
    groth16_params_data d = groth16_setup_data(&res);
    snprintf(path, sizeof path, "%s/%s.params", dir, stem);
    FILE *f = fopen(path, "wb");
    int ok = f && groth16_params_write(f, &d, &ge) == GROTH16_OK;
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/%s.vk", dir, stem);
    f = fopen(path, "wb");
    ok = ok && f && groth16_vk_write_file(f, &res.vk, &ge) == GROTH16_OK;
    if (f)
        fclose(f);
    *vk_out = res.vk; /* the vk's arrays move to the caller */
    memset(&res.vk, 0, sizeof res.vk);
    groth16_setup_free(&res);
    return ok ? 0 : -1;
}

#endif
