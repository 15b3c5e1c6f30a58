/* The streaming pce setup equals the classic setup byte for byte at
 * porep-2k (the .params and the .vk, chunks of 1000 points).  Label slow: two
 * full porep-2k setups on the CPU. */
#include "check.h"
#include "cli/circuit_names.h"
#include "setup_compare.h"

static void filecoin(const char *name) {
    circuit_name c;
    char err[256];
    CHECK(circuit_name_parse(&c, name) == 0);
    r1cs_cs *rc = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    CHECK(circuit_name_synthesize(rc, &c, NULL) == 0 && r1cs_finish(rc) == R1CS_OK);
    r1cs_pce p;
    CHECK(pce_from_recording(rc, name, c.stem, 0, &p, err, sizeof err) == 0);
    static const setup_run runs[] = {{2, 1000}};
    compare(&p, name, runs, 1);
    pce_free(&p);
    r1cs_cs_free(rc);
}

int main(void) {
    check_seed("test_setup_pce_porep");
    filecoin("porep-2k");
    return check_finish();
}
