/* The streaming setup from a pce (groth16/setup_pce.h) writes the very bytes
 * the classic setup (groth16_setup from CSR, then groth16_params_write)
 * writes for the same toxic waste: random toy circuits, several
 * thread counts and chunk sizes (a chunk of 7 points cuts every section).
 * An unconstrained aux variable is refused by name. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "setup_compare.h"
#include "cli/toy_circuits.h"
#include "groth16/setup_pce.h"
#include "r1cs/pce.h"

static void toy(const char *spec) {
    toy_circuit c;
    char why[128], err[256];
    CHECK(toy_circuit_parse(&c, spec, why, sizeof why) == 0);
    r1cs_cs *rc = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_pce p;
    CHECK(r1cs_synthesize(rc, c.fn, &c) == R1CS_OK);
    CHECK(pce_from_recording(rc, spec, NULL, 0, &p, err, sizeof err) == 0);
    static const setup_run runs[] = {{1, 0}, {3, 7}, {2, 1}};
    compare(&p, spec, runs, 3);
    pce_free(&p);
    r1cs_cs_free(rc);
}

/* x * x = y with one extra aux variable that no constraint names. */
static int loose_fn(r1cs_cs *cs, void *arg) {
    (void)arg;
    r1cs_var x = r1cs_alloc(cs, NULL), u = r1cs_alloc(cs, NULL);
    (void)u;
    r1cs_var y = r1cs_alloc_input(cs, NULL);
    r1cs_lc a, c;
    r1cs_lc_init(&a);
    r1cs_lc_init(&c);
    r1cs_lc_set_var(&a, x);
    r1cs_lc_set_var(&c, y);
    r1cs_enforce(cs, "x squared", &a, &a, &c);
    r1cs_lc_free(&a);
    r1cs_lc_free(&c);
    return 0;
}

static void unconstrained(void) {
    char err[256];
    r1cs_cs *rc = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_pce p;
    CHECK(r1cs_synthesize(rc, loose_fn, NULL) == R1CS_OK);
    CHECK(pce_from_recording(rc, "loose", NULL, 0, &p, err, sizeof err) == 0);
    groth16_toxic t;
    CHECK(groth16_toxic_from_seed(&t, "01", err, sizeof err) == 0);
    CHECK(groth16_toxic_from_seed(&t, "xyz", err, sizeof err) != 0);
    char *b = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&b, &n);
    groth16_vk vk;
    groth16_error ge = {0};
    CHECK(groth16_setup_pce_write(f, &vk, &p, &t, NULL, 1, NULL, &ge) == GROTH16_ERR_ARG);
    CHECK(strstr(ge.msg, "aux variable 1 is unconstrained") != NULL);
    fclose(f);
    free(b);
    pce_free(&p);
    r1cs_cs_free(rc);
}

int main(void) {
    check_seed("test_setup_pce");
    toy("cubic:7");
    toy("random:100:3");
    char spec[64];
    snprintf(spec, sizeof spec, "random:3000:%llu", (unsigned long long)check_rand64());
    toy(spec);
    unconstrained();
    return check_finish();
}
