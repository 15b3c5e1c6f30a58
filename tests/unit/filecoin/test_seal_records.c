/* rust-fil-proofs' seal regression records (vectors/filecoin/
 * seal_regression_records-v16.json, -v18.json; filecoin-facts §6): one JSON
 * object per line with porep_config, comm_r, comm_d, prover_id, sector_id,
 * ticket, seed and the proof bytes.
 *
 * For every record: replica_id and the challenges of every partition are
 * derived for its variant (interactive for V1_0/V1_1/V1_2, synthetic, NI) and
 * must be canonical / in 1..nodes-1; every 192-byte partition proof must
 * decode as A, C in G1 and B in G2 (compressed, finite, on the curve, in the
 * subgroup).  NI records carry SnarkPack aggregates instead (size checked only).
 * The records hold no replica_id, labels or trees, so nothing else can be
 * recomputed exactly here; their proofs are the end-to-end check once the
 * verifier has these public inputs. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "curve/encode.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/proof_types.h"
#include "filecoin/porep/replica_id.h"

static int get_bytes32(uint8_t out[32], json_t *a) {
    if (!json_is_array(a) || json_array_size(a) != 32)
        return -1;
    for (size_t i = 0; i < 32; i++) {
        json_int_t v = json_integer_value(json_array_get(a, i));
        if (!json_is_integer(json_array_get(a, i)) || v < 0 || v > 255)
            return -1;
        out[i] = (uint8_t)v;
    }
    return 0;
}

static int counts[5][4]; /* [size][variant] */
static int proofs_checked, ni_records;

static void record(json_t *r, uint64_t sector_id, const char *where) {
    json_t *pc = json_object_get(r, "porep_config");
    uint64_t size = (uint64_t)json_integer_value(json_object_get(pc, "sector_size"));
    unsigned parts = (unsigned)json_integer_value(json_object_get(pc, "partitions"));
    const char *api = json_string_value(json_object_get(pc, "api_version"));
    json_t *feat = json_object_get(pc, "api_features");
    const fc_sector_shape *shape = fc_shape_by_size(size);
    uint8_t porep[32], commr[32], commd[32], prover[32], ticket[32], seed[32], rid[32];
    int ok = shape && api && json_is_array(feat) &&
             get_bytes32(porep, json_object_get(pc, "porep_id")) == 0 &&
             get_bytes32(commr, json_object_get(r, "comm_r")) == 0 &&
             get_bytes32(commd, json_object_get(r, "comm_d")) == 0 &&
             get_bytes32(prover, json_object_get(r, "prover_id")) == 0 &&
             get_bytes32(ticket, json_object_get(r, "ticket")) == 0 &&
             get_bytes32(seed, json_object_get(r, "seed")) == 0;
    CHECK(ok);
    if (!ok) {
        fprintf(stderr, "%s: malformed record\n", where);
        return;
    }
    fc_porep_variant var = FC_POREP_V1_1;
    if (strcmp(api, "V1_0_0") == 0)
        var = FC_POREP_V1;
    const char *f0 = json_string_value(json_array_get(feat, 0));
    if (f0 && strcmp(f0, "SyntheticPoRep") == 0)
        var = FC_POREP_SYNTHETIC;
    else if (f0 && strcmp(f0, "NonInteractivePoRep") == 0)
        var = FC_POREP_NI;
    CHECK(json_array_size(feat) <= 1);
    unsigned si = 0;
    while (fc_shape_at(si) != shape)
        si++;
    counts[si][var]++;

    fc_replica_id(rid, prover, sector_id, ticket, commd, porep);
    CHECK((rid[31] & 0xc0) == 0);

    int big = size >= (32ull << 30);
    unsigned want_parts = var == FC_POREP_NI ? (big ? 126 : 13) : (big ? 10 : 1);
    CHECK(parts == want_parts);
    unsigned c = big ? 18 : 2;
    uint64_t ch[18];
    for (unsigned k = 0; k < parts; k++) {
        switch (var) {
        case FC_POREP_V1:
        case FC_POREP_V1_1:
            fc_interactive_challenges(ch, c, k, shape->nodes, rid, seed);
            break;
        case FC_POREP_NI:
            fc_ni_challenges(ch, c, k, shape->nodes, rid, commr);
            break;
        case FC_POREP_SYNTHETIC:
            fc_synth_porep_challenges(ch, c, k, shape->nodes, fc_synth_count(shape->nodes), rid,
                                      commr, seed);
            break;
        }
        for (unsigned i = 0; i < c; i++)
            CHECK(ch[i] >= 1 && ch[i] < shape->nodes);
    }

    json_t *proof = json_object_get(r, "proof");
    size_t n = json_array_size(proof);
    if (var == FC_POREP_NI) {
        ni_records++;
        CHECK(n == (big ? 23092u : 14164u));
        return;
    }
    CHECK(n == 192u * parts);
    uint8_t *b = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)json_integer_value(json_array_get(proof, i));
    for (size_t off = 0; off + 192 <= n; off += 192) {
        g1_affine a, cc;
        g2_affine bb;
        /* compressed and finite (top bits 100 or 101) */
        CHECK((b[off] & 0xc0) == 0x80 && (b[off + 48] & 0xc0) == 0x80 &&
              (b[off + 144] & 0xc0) == 0x80);
        curve_err ea = g1_from_compressed(&a, b + off);
        curve_err eb = g2_from_compressed(&bb, b + off + 48);
        curve_err ec = g1_from_compressed(&cc, b + off + 144);
        CHECK(ea == CURVE_OK && eb == CURVE_OK && ec == CURVE_OK);
        if (ea || eb || ec)
            fprintf(stderr, "%s: proof at %zu: %s / %s / %s\n", where, off, curve_err_str(ea),
                    curve_err_str(eb), curve_err_str(ec));
        proofs_checked++;
    }
    free(b);
}

static int run_file(const char *name) {
    const char *shared = getenv("CUZK_SHARED");
    char path[1024];
    snprintf(path, sizeof path, "%s/vectors/filecoin/%s", shared ? shared : "../shared", name);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return 0;
    static char line[1 << 18];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n' || line[0] == 0)
            continue;
        CHECK(strchr(line, '\n') != NULL); /* no line longer than the buffer */
        /* sector_id is a u64 beyond jansson's signed integers: read it here
         * and blank it out (same width) before parsing the rest. */
        uint64_t sector_id = 0;
        char *sid = strstr(line, "\"sector_id\":");
        CHECK(sid != NULL);
        if (sid) {
            char *num = sid + strlen("\"sector_id\":"), *end;
            sector_id = strtoull(num, &end, 10);
            CHECK(end > num);
            memset(num, ' ', (size_t)(end - num));
            num[0] = '0';
        }
        json_error_t e;
        json_t *r = json_loads(line, 0, &e);
        char where[1100];
        snprintf(where, sizeof where, "%s line %d", name, lines + 1);
        CHECK(r != NULL);
        if (r)
            record(r, sector_id, where);
        json_decref(r);
        lines++;
    }
    fclose(f);
    return lines;
}

int main(void) {
    int n16 = run_file("seal_regression_records-v16.json");
    int n18 = run_file("seal_regression_records-v18.json");
    printf("records: v16 %d, v18 %d; partition proofs decoded %d; NI aggregates %d\n", n16, n18,
           proofs_checked, ni_records);
    CHECK(n16 == 448 && n18 == 113);
    CHECK(proofs_checked == 600);
    CHECK(ni_records == 24);
    /* The breakdown of filecoin-facts §6 (v16 + v18). */
    CHECK(counts[0][FC_POREP_V1] == 31 && counts[0][FC_POREP_V1_1] == 62 &&
          counts[0][FC_POREP_SYNTHETIC] == 31);
    CHECK(counts[3][FC_POREP_V1_1] == 4 && counts[3][FC_POREP_SYNTHETIC] == 1 &&
          counts[3][FC_POREP_NI] == 2 && counts[4][FC_POREP_V1_1] == 2);
    return check_finish();
}
