/* `--rs-seed` (cli/backend_pick.h) and the engine's TEST ONLY hooks from the
 * environment (cli/engine_devices.h).  r and s for proof k are SHA-256(seed ||
 * tag || k as 8 LE bytes) reduced mod r.  The golden values were computed with
 * Python's hashlib and integer arithmetic, independently of this code. */
#include "check.h"
#include "cli/backend_pick.h"
#include "cli/engine_devices.h"
#include "util/hex.h"

static void expect(const fr *x, const char *hex) {
    uint8_t want[FR_BYTES], got[FR_BYTES];
    CHECK(hex_decode(want, sizeof want, hex) == FR_BYTES);
    fr_to_bytes_le(got, x);
    CHECK_MEM(got, want, FR_BYTES);
}

int main(void) {
    fr r, s, r2, s2;
    CHECK(cli_rs_from_seed(&r, &s, "0bad", 0) == 0);
    expect(&r, "f9056e5019bbbd41485d9b9355774d5f957511bb0e51555416a4e041c11d1c69");
    expect(&s, "a35b4ea26a32eeb61155f13e1a074b7cff9741f63ff6593d49884f09cc13ca3f");
    /* the same seed and index again: the same values; another index or seed: others */
    CHECK(cli_rs_from_seed(&r2, &s2, "0BAD", 0) == 0);
    CHECK(fr_equal(&r, &r2) && fr_equal(&s, &s2));
    CHECK(cli_rs_from_seed(&r2, &s2, "0bad", 1) == 0);
    CHECK(!fr_equal(&r, &r2) && !fr_equal(&s, &s2));
    CHECK(cli_rs_from_seed(&r2, &s2, "0bae", 0) == 0);
    CHECK(!fr_equal(&r, &r2));
    /* refused: empty, odd length, not hex, longer than 64 bytes */
    char longseed[132];
    memset(longseed, 'a', 130);
    longseed[130] = 0;
    const char *bad[] = {"", "abc", "zz", longseed};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(cli_rs_from_seed(&r2, &s2, bad[i], 0) == -1);
    /* the backend names */
    CHECK(cli_pick_backend(NULL) == &groth16_backend_cpu);
    CHECK(cli_pick_backend("cpu") == &groth16_backend_cpu);
    CHECK(cli_pick_backend("fpga") == NULL);
    cli_backends_close();

    /* the TEST ONLY hooks reach the engine's config from the environment
     * (the engine reads none itself) */
    cuzk_engine_config c;
    cuzk_engine_config_defaults(&c);
    CHECK(c.test_rs_seed[0] == 0 && c.test_fail_devices == 0 && !c.test_pce_flip);
    setenv("CUZK_TEST_ONLY_RS_SEED", "0bad", 1);
    setenv("CUZK_TEST_FAIL_DEVICE", "0,3,40,x", 1);
    cli_engine_test_hooks(&c);
    CHECK(strcmp(c.test_rs_seed, "0bad") == 0);
    CHECK(c.test_fail_devices == 9); /* 0 and 3; 40 is past the mask, "x" ends it */
    unsetenv("CUZK_TEST_ONLY_RS_SEED");
    unsetenv("CUZK_TEST_FAIL_DEVICE");
    /* without a GPU asked for, no device is opened: the engine's CPU backend */
    cli_engine_devices d;
    c.use_gpu = 0;
    cli_engine_devices_open(&d, &c);
    CHECK(d.n == 0 && c.n_prover_devices == 0);
    cli_engine_devices_close(&d);
    return check_finish();
}
