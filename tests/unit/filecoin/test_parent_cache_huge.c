/* The 32 GiB and 64 GiB parent-cache digests of rust-fil-proofs' manifest
 * (V1 and V1_1; 60 GB and 120 GB streamed through SHA-256, nothing stored).
 * Label `huge`: about 65 s (32 GiB) and 95 s (64 GiB) each on 16 cores, far
 * longer on a small machine; run it with `ctest -L huge`. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/sdr/parent_cache.h"
#include "util/hex.h"
#include "util/parallel.h"

int main(void) {
    const char *shared = getenv("CUZK_SHARED");
    char path[1024];
    snprintf(path, sizeof path, "%s/vectors/filecoin/parent_cache.json",
             shared ? shared : "../shared");
    json_error_t e;
    json_t *m = json_load_file(path, 0, &e);
    CHECK(m != NULL);
    if (!m)
        return check_finish();
    static const unsigned ids[4] = {3, 8, 4, 9};
    for (int i = 0; i < 4; i++) {
        const fc_seal_proof *p = fc_seal_proof_by_id(ids[i]);
        fc_graph g;
        CHECK(fc_graph_init_proof(&g, p) == 0);
        char key[128], hex[65], err[128];
        uint8_t d[32];
        fc_parent_cache_key(key, sizeof key, &g);
        const char *want = json_string_value(json_object_get(json_object_get(m, key), "digest"));
        CHECK(want != NULL);
        CHECK(fc_parent_cache_generate(d, &g, par_cpu_count(), NULL, err, sizeof err) == 0);
        hex_encode(hex, d, 32);
        printf("%s: %s %s\n", p->name, key, hex);
        CHECK(want && strcmp(hex, want) == 0);
        fc_graph_free(&g);
    }
    json_decref(m);
    return check_finish();
}
