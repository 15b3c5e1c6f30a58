/* The SDR graph and its parent cache against rust-fil-proofs' published
 * manifest (vectors/filecoin/parent_cache.json): every key (all sizes, V1 and
 * V1_1) and every 2 KiB and 8 MiB digest; plus the graph's structure, the
 * Feistel permutation, and the written file against the streamed digest.
 * The 512 MiB digests are in test_parent_cache_512m (label slow). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/sdr/feistel.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/parent_cache.h"
#include "filecoin/hash/sha256_native.h"
#include "util/hex.h"

static json_t *load_manifest(void) {
    const char *shared = getenv("CUZK_SHARED");
    char path[1024];
    snprintf(path, sizeof path, "%s/vectors/filecoin/parent_cache.json",
             shared ? shared : "../shared");
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fprintf(stderr, "cannot read %s: %s\n", path, e.text);
    return j;
}

static void manifest(json_t *m) {
    /* Keys of all 10 manifest entries = V1 and V1_1 of each size. */
    CHECK(json_object_size(m) == 10);
    for (unsigned id = 0; id < 10; id++) {
        const fc_seal_proof *p = fc_seal_proof_by_id(id);
        fc_graph g;
        CHECK(fc_graph_init_proof(&g, p) == 0);
        char key[128];
        CHECK(fc_parent_cache_key(key, sizeof key, &g) == 79);
        json_t *e = json_object_get(m, key);
        CHECK(e != NULL);
        if (!e) {
            fprintf(stderr, "%s: key %s not in the manifest\n", p->name, key);
        } else {
            CHECK(json_integer_value(json_object_get(e, "sector_size")) ==
                  (json_int_t)p->shape->sector_size);
            if (p->shape->sector_size <= (8u << 20)) {
                uint8_t d[32];
                char hex[65], err[128];
                CHECK(fc_parent_cache_generate(d, &g, 2, NULL, err, sizeof err) == 0);
                hex_encode(hex, d, 32);
                const char *want = json_string_value(json_object_get(e, "digest"));
                CHECK(want && strcmp(hex, want) == 0);
                printf("%s: %s digest %s\n", p->name, key, hex);
            }
        }
        fc_graph_free(&g);
    }
}

/* Values derived by filecoin-facts §3.12's independent implementation (not
 * published upstream: rust-fil-proofs builds these on demand). */
static void derived_unpublished(void) {
    static const struct {
        unsigned id;
        const char *key, *digest;
    } v[] = {
        {10, "v28-sdr-parent-1aa0c04f9b6b2ba6ece696274b0f0b53438c9acd1ae1b3943d837bacb65ad66b",
         "0c9ac05c2f3221deff12ab7b098acc90d974c3db61925b8429537e06c6062621"},
        {15, "v28-sdr-parent-896a357165f80a0aedd30a419e412a4ef3e8d95718896655dd42fd415eab41a2",
         "3f5bf8010fc1cefce85a00045fad10a7abe09ab9e97d5ad9d1a08ff834ac5590"},
        {11, "v28-sdr-parent-727a5e3eada45a0975f90b2651ed09ce5db554c99f03d7f029049ae3a36462a5",
         "e1638d25de578d6aced310f722ed05acd71d35f7f5dd2f1f21c14ed827f27a20"},
        {16, "v28-sdr-parent-6de1e885248c809ed294f690d79d06ede06fd51c541b324bc1dc10628fccb991",
         "091d3efd426387d9a4fb672cf0cb9360506eef66ae13ea03e7ec653ab315e6cb"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        fc_graph g;
        CHECK(fc_graph_init_proof(&g, fc_seal_proof_by_id(v[i].id)) == 0);
        char key[128], hex[65], err[128];
        uint8_t d[32];
        fc_parent_cache_key(key, sizeof key, &g);
        CHECK(strcmp(key, v[i].key) == 0);
        CHECK(fc_parent_cache_generate(d, &g, 1, NULL, err, sizeof err) == 0);
        hex_encode(hex, d, 32);
        CHECK(strcmp(hex, v[i].digest) == 0);
        fc_graph_free(&g);
    }
}

static void structure(void) {
    uint8_t porep[32];
    check_rand_bytes(porep, 32);
    fc_graph v1, v11;
    CHECK(fc_graph_init(&v1, porep, 4096, 0) == 0);
    CHECK(fc_graph_init(&v11, porep, 4096, 1) == 0);
    uint32_t a[FC_GRAPH_DEGREE], b[FC_GRAPH_DEGREE];
    for (uint32_t v = 0; v < 4096; v++) {
        fc_graph_parents(&v1, v, a);
        fc_graph_parents(&v11, v, b);
        if (v < 2) {
            for (int i = 0; i < 6; i++)
                CHECK(a[i] == 0 && b[i] == 0);
        } else {
            /* Same RNG draws; only the predecessor's slot moves. */
            CHECK(a[5] == v - 1 && b[0] == v - 1);
            for (int i = 0; i < 5; i++)
                CHECK(a[i] == b[i + 1] && a[i] < v);
        }
        for (int i = 6; i < 14; i++) /* no truncation below 2^32 */
            CHECK(a[i] == b[i] && a[i] < 4096);
    }
    fc_graph_free(&v1);
    fc_graph_free(&v11);
    CHECK(fc_graph_init(&v1, porep, 1, 1) == -1);
    CHECK(fc_graph_init(&v1, porep, 1ull << 32, 1) == -1);
    CHECK(fc_graph_init(&v1, porep, 64, 3) == -1);
}

static void feistel(void) {
    uint64_t keys[4] = {check_rand64(), check_rand64(), check_rand64(), check_rand64()};
    /* A bijection of [0, n) for powers of 4 and other n (cycle walking). */
    static const uint64_t ns[] = {1, 4, 5, 512, 1000, 4096, 8 * 1000};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        uint64_t n = ns[t];
        fc_feistel f;
        CHECK(fc_feistel_init(&f, n, keys) == 0);
        uint8_t *seen = calloc(n, 1);
        for (uint64_t x = 0; x < n; x++) {
            uint64_t y = fc_feistel_permute(&f, x);
            CHECK(y < n && !seen[y]);
            if (y < n)
                seen[y] = 1;
            CHECK(fc_feistel_invert(&f, y) == x);
        }
        for (uint64_t r = 0; r <= f.mask && r < 256; r++)
            for (int k = 0; k < 3; k++)
                CHECK(f.table[k][r] == fc_feistel_round(r, keys[k], f.mask));
        free(seen);
        fc_feistel_free(&f);
    }
    /* Half widths of the production domains: 5, 11, 14, 17, 17. */
    static const unsigned h[5] = {5, 11, 14, 17, 17};
    for (unsigned i = 0; i < 5; i++) {
        fc_feistel f;
        CHECK(fc_feistel_init(&f, 8 * fc_shape_at(i)->nodes, keys) == 0);
        CHECK(f.half_bits == h[i]);
        fc_feistel_free(&f);
    }
}

static void written_file(void) {
    fc_graph g;
    CHECK(fc_graph_init_proof(&g, fc_seal_proof_by_id(5)) == 0);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    uint8_t d1[32], d2[32], d3[32];
    char err[128];
    CHECK(fc_parent_cache_generate(d1, &g, 3, f, err, sizeof err) == 0);
    CHECK(fc_parent_cache_generate(d3, &g, 1, NULL, err, sizeof err) == 0);
    CHECK_MEM(d1, d3, 32); /* thread count does not matter */
    long size = ftell(f);
    CHECK(size == 56 * 64);
    rewind(f);
    uint8_t buf[56 * 64];
    CHECK(fread(buf, 1, sizeof buf, f) == sizeof buf);
    fclose(f);
    sha256_native(d2, buf, sizeof buf);
    CHECK_MEM(d1, d2, 32);
    for (uint32_t v = 0; v < 64; v++) {
        uint32_t par[FC_GRAPH_DEGREE];
        fc_graph_parents(&g, v, par);
        for (int i = 0; i < FC_GRAPH_DEGREE; i++) {
            const uint8_t *p = buf + 56 * v + 4 * i;
            CHECK(par[i] == ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                             (uint32_t)p[3] << 24));
        }
    }
    fc_graph_free(&g);
}

int main(void) {
    check_seed("test_graph");
    json_t *m = load_manifest();
    CHECK(m != NULL);
    if (m)
        manifest(m);
    json_decref(m);
    derived_unpublished();
    structure();
    feistel();
    written_file();
    return check_finish();
}
