/* An 8 MiB V1_1 sector (2^18 nodes, 2 layers): seal random data, C1 JSON
 * round trip, native vanilla verification (column hashing and encoding run on
 * 3 threads); and a damaged label fails.
 * Seconds in a Release build; labelled `slow` in sanitizer builds. */
#include "sealer_test_util.h"

int main(void) {
    check_seed("test_sealer_8m");
    st_threads = 3; /* 64 tasks over 3 threads: the parallel passes must agree */
    size_t n = (size_t)fc_fr32_unpadded_size(8u << 20);
    uint8_t *raw = malloc(n);
    CHECK(raw != NULL);
    if (!raw)
        return check_finish();
    check_rand_bytes(raw, n);
    fc_sealed s;
    c1_output *c = st_seal(&s, 6, raw, n);
    free(raw);
    if (c) {
        CHECK(c->proof->shape->nodes == 1u << 18);
        char msg[512];
        int rc = st_verify(c, 1, msg, sizeof msg);
        CHECK(rc == 0);
        if (rc)
            fprintf(stderr, "8 MiB: %s\n", msg);
        c1_at(c, 0, 1)->labeling[1].parents[20][5] ^= 0x10;
        CHECK(st_verify(c, 1, msg, sizeof msg) != 0);
        CHECK(strstr(msg, "partition 0 challenge 1: labeling_proofs[1]: parents[20]") != NULL);
        c1_output_free(c);
    }
    fc_sealed_free(&s);
    return check_finish();
}
