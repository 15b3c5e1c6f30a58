/* C1 decoder on bad input: every case must be rejected with the right status
 * and the exact message (JSON path of the FIRST problem), and never crash.
 * Mutations are made with jansson on a valid 2 KiB output, so each case
 * changes exactly one thing. */
#include "c1_test_util.h"

static const char *V = "vanilla_proofs.StackedDrg2KiBV1";
static uint8_t *g_text;
static size_t g_len;
static json_t *g_json;

static int expect_fail(const char *name, const void *text, size_t len, c1_status want_st,
                       const char *want_msg) {
    c1_output *d = (c1_output *)1;
    c1_error err;
    c1_status st = c1_decode(&d, text, len, &err);
    int ok = st == want_st && d == NULL && err.status == st && err.offset <= len &&
             (!want_msg || strcmp(err.msg, want_msg) == 0);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  %s: got %s \"%s\"\n     want %s \"%s\"\n", name, c1_status_str(st),
                err.msg, c1_status_str(want_st), want_msg ? want_msg : "(any)");
    if (st == C1_OK && d)
        c1_output_free(d);
    return ok;
}

/* Applies one change to a copy of the valid JSON and checks the outcome. */
static void mutate(const char *path, json_t *value, int remove, c1_status st, const char *msg) {
    json_t *j = json_deep_copy(g_json);
    int r = remove ? c1t_del(j, path) : c1t_set(j, path, value);
    CHECK(r == 0);
    if (r != 0)
        fprintf(stderr, "  test setup: no %s\n", path);
    char *s = c1t_dump(j, 0);
    expect_fail(path, s, strlen(s), st, msg);
    free(s);
    json_decref(j);
}

static void mutations(void) {
    char path[256], msg[512];
    /* lengths and counts: the example message of the brief */
    snprintf(path, sizeof path, "%s[0][1].comm_r_last_proof.data.Single.path.path[1].hashes[6]", V);
    snprintf(msg, sizeof msg,
             "%s[0][1].comm_r_last_proof.data.Single.path.path[1].hashes: expected 7 elements, got "
             "6",
             V);
    mutate(path, NULL, 1, C1_ERR_SHAPE, msg);
    snprintf(path, sizeof path, "%s[0][1].comm_r_last_proof.data.Single.path.path[1].hashes", V);
    json_t *h = json_deep_copy(c1t_at(g_json, path));
    json_array_append(h, json_array_get(h, 0));
    snprintf(msg, sizeof msg, "%s: expected 7 elements, got 8", path);
    mutate(path, h, 0, C1_ERR_SHAPE, msg);
    snprintf(path, sizeof path, "%s[0][0].comm_d_proofs.data.Single.path.path[5]", V);
    snprintf(msg, sizeof msg,
             "%s[0][0].comm_d_proofs.data.Single.path.path: expected 6 path elements, got 5", V);
    mutate(path, NULL, 1, C1_ERR_SHAPE, msg);
    snprintf(path, sizeof path, "%s[0][1]", V);
    snprintf(msg, sizeof msg, "%s[0]: expected 2 challenges per partition, got 1", V);
    mutate(path, NULL, 1, C1_ERR_SHAPE, msg);
    snprintf(path, sizeof path, "%s[0][0].labeling_proofs[0].parents[36]", V);
    snprintf(msg, sizeof msg, "%s[0][0].labeling_proofs[0].parents: expected 37 elements, got 36",
             V);
    mutate(path, NULL, 1, C1_ERR_SHAPE, msg);
    snprintf(path, sizeof path, "%s[0][0].replica_column_proofs.drg_parents[2]", V);
    snprintf(msg, sizeof msg,
             "%s[0][0].replica_column_proofs.drg_parents: expected 6 column proofs, got 5", V);
    mutate(path, NULL, 1, C1_ERR_SHAPE, msg);
    snprintf(path, sizeof path, "%s[0][1].replica_column_proofs.exp_parents[7].column.rows[1]", V);
    snprintf(
        msg, sizeof msg,
        "%s[0][1].replica_column_proofs.exp_parents[7].column.rows: expected 2 elements, got 1", V);
    mutate(path, NULL, 1, C1_ERR_SHAPE, msg);
    snprintf(path, sizeof path, "%s[0][0].labeling_proofs", V);
    json_t *labs = json_deep_copy(c1t_at(g_json, path));
    json_array_append(labs, json_array_get(labs, 0));
    snprintf(msg, sizeof msg, "%s: expected 2 labeling proofs (one per layer), got 3", path);
    mutate(path, labs, 0, C1_ERR_SHAPE, msg);
    mutate("comm_d[31]", NULL, 1, C1_ERR_SHAPE, "comm_d: expected 32 elements, got 31");

    /* numbers */
    mutate("comm_r[5]", json_integer(256), 0, C1_ERR_RANGE, "comm_r[5]: 256 is larger than 255");
    mutate("seed[0]", json_integer(-1), 0, C1_ERR_RANGE,
           "seed[0]: negative number -1 where an unsigned integer is expected");
    mutate("ticket[31]", json_real(1.5), 0, C1_ERR_TYPE,
           "ticket[31]: expected an unsigned integer, got 1.5 (a fraction or exponent)");
    mutate("replica_id[2]", json_string("7"), 0, C1_ERR_TYPE,
           "replica_id[2]: expected an unsigned integer, got a string");
    snprintf(path, sizeof path, "%s[0][0].comm_r_last_proof.data.Single.path.path[0].index", V);
    snprintf(msg, sizeof msg, "%s: 8 is out of range for a path index (0..7)", path);
    mutate(path, json_integer(8), 0, C1_ERR_RANGE, msg);
    snprintf(path, sizeof path, "%s[0][0].comm_d_proofs.data.Single.path.path[3].index", V);
    snprintf(msg, sizeof msg, "%s: 2 is out of range for a path index (0..1)", path);
    mutate(path, json_integer(2), 0, C1_ERR_RANGE, msg);
    snprintf(path, sizeof path, "%s[0][1].labeling_proofs[1].layer_index", V);
    snprintf(msg, sizeof msg, "%s: 0 is out of range for a layer index (1..2)", path);
    mutate(path, json_integer(0), 0, C1_ERR_RANGE, msg);
    snprintf(path, sizeof path, "%s[0][1].encoding_proof.node", V);
    snprintf(msg, sizeof msg, "%s: 64 is out of range for a node index (0..63)", path);
    mutate(path, json_integer(64), 0, C1_ERR_RANGE, msg);
    snprintf(path, sizeof path, "%s[0][0].replica_column_proofs.c_x.column.index", V);
    snprintf(msg, sizeof msg, "%s: 4294967296 is out of range for a node index (0..63)", path);
    mutate(path, json_integer(4294967296), 0, C1_ERR_RANGE, msg);

    /* types */
    mutate("comm_d", json_string("AAAA"), 0, C1_ERR_TYPE,
           "comm_d: expected an array of 32 bytes, got a string");
    mutate("vanilla_proofs", json_array(), 0, C1_ERR_TYPE,
           "vanilla_proofs: expected an object, got an array");
    mutate("registered_proof", json_integer(5), 0, C1_ERR_TYPE,
           "registered_proof: expected a string, got a number");
    snprintf(path, sizeof path, "%s[0][0].replica_column_proofs.c_x.column._h", V);
    snprintf(msg, sizeof msg, "%s: expected null, got a boolean", path);
    mutate(path, json_true(), 0, C1_ERR_TYPE, msg);
    snprintf(path, sizeof path, "%s[0][0].encoding_proof", V);
    snprintf(msg, sizeof msg, "%s: expected an object, got null", path);
    mutate(path, json_null(), 0, C1_ERR_TYPE, msg);

    /* proofs, variants, fields */
    mutate("registered_proof", json_string("StackedDrg4KiBV1"), 0, C1_ERR_PROOF,
           "registered_proof: unknown registered proof \"StackedDrg4KiBV1\"");
    mutate("registered_proof", json_string("StackedDrg8MiBV1_1"), 0, C1_ERR_PROOF,
           "vanilla_proofs: variant StackedDrg2KiBV1 does not match registered_proof "
           "StackedDrg8MiBV1_1 (StackedDrg8MiBV1)");
    mutate("registered_proof", json_string("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"), 0,
           C1_ERR_SHAPE,
           "vanilla_proofs.StackedDrg2KiBV1: expected 13 partitions "
           "(StackedDrg2KiBV1_2_Feat_NonInteractivePoRep), got 1");
    json_t *vp = json_pack("{s:O}", "StackedDrg2KiBV2",
                           json_object_get(c1t_at(g_json, "vanilla_proofs"), "StackedDrg2KiBV1"));
    mutate("vanilla_proofs", vp, 0, C1_ERR_PROOF,
           "vanilla_proofs: unknown VanillaSealProof variant \"StackedDrg2KiBV2\"");
    snprintf(path, sizeof path, "%s[0][0].comm_r_last_proof.data", V);
    json_t *sub = json_pack("{s:O}", "Sub", json_object_get(c1t_at(g_json, path), "Single"));
    snprintf(msg, sizeof msg, "%s: expected variant Single for this tree (arities 8-0-0), got Sub",
             path);
    mutate(path, sub, 0, C1_ERR_SHAPE, msg);
    json_t *two = json_pack("{s:O,s:O}", "Single", json_object_get(c1t_at(g_json, path), "Single"),
                            "Top", json_object_get(c1t_at(g_json, path), "Single"));
    snprintf(msg, sizeof msg, "%s: more than one variant (Single and Top)", path);
    mutate(path, two, 0, C1_ERR_SHAPE, msg);
    snprintf(path, sizeof path, "%s[0][0].encoding_proof", V);
    snprintf(msg, sizeof msg, "%s[0][0]: missing field \"encoding_proof\"", V);
    mutate(path, NULL, 1, C1_ERR_SHAPE, msg);
    mutate("ticket", NULL, 1, C1_ERR_SHAPE, "(top level): missing field \"ticket\"");
    snprintf(path, sizeof path, "%s[0][1].comm_d_proofs.data.Single.leaf", V);
    snprintf(msg, sizeof msg, "%s[0][1].comm_d_proofs.data.Single: missing field \"leaf\"", V);
    mutate(path, NULL, 1, C1_ERR_SHAPE, msg);
}

/* Text-level cases jansson cannot express. */
static void text_cases(void) {
    char *s = malloc(g_len + 4096);
    /* a duplicate key */
    memcpy(s, g_text, g_len - 1);
    strcpy(s + g_len - 1, ",\"seed\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
                          "0,0,0]}");
    expect_fail("duplicate", s, strlen(s), C1_ERR_SHAPE, "(top level): duplicate field \"seed\"");
    /* huge numbers */
    expect_fail("huge", "{\"comm_d\":[99999999999999999999999,1]}", 38, C1_ERR_RANGE,
                "comm_d[0]: number 99999999999999999999999 does not fit in 64 bits");
    expect_fail("exp", "{\"comm_d\":[1e2]}", 16, C1_ERR_TYPE,
                "comm_d[0]: expected an unsigned integer, got 1e2 (a fraction or exponent)");
    expect_fail("leading zero", "{\"comm_d\":[01]}", 15, C1_ERR_SYNTAX,
                "comm_d[0]: number with a leading zero");
    /* escaped keys are keys: a known one decodes, a wrong variant names its place */
    const char *rp = "{\"registered_proof\"", *rp_esc = "{\"registered_\\u0070roof\"";
    size_t o = 0;
    memcpy(s, rp_esc, strlen(rp_esc));
    o = strlen(rp_esc);
    memcpy(s + o, g_text + strlen(rp), g_len - strlen(rp));
    o += g_len - strlen(rp);
    c1_output *d = NULL;
    CHECK(c1_decode(&d, s, o, NULL) == C1_OK);
    c1_output_free(d);
    const char *single = strstr((const char *)g_text, "\"Single\"");
    size_t at = (size_t)(single - (const char *)g_text);
    memcpy(s, g_text, at);
    const char *sub = "\"\\u0053ub\""; /* 10 bytes for the 8 of "Single" */
    memcpy(s + at, sub, strlen(sub));
    memcpy(s + at + strlen(sub), single + 8, g_len - at - 8);
    c1_error err;
    char want[256];
    snprintf(want, sizeof want,
             "%s[0][0].comm_d_proofs.data: expected variant Single for this tree (arities 2-0-0), "
             "got Sub",
             V);
    CHECK(expect_fail("escaped variant", s, g_len + 2, C1_ERR_SHAPE, want));
    c1_decode(&d, s, g_len + 2, &err);
    CHECK(err.offset == at);
    /* trailing bytes, top-level types, empty input, garbage */
    memcpy(s, g_text, g_len);
    memcpy(s + g_len, " x", 2);
    expect_fail("trailing", s, g_len + 2, C1_ERR_SYNTAX,
                "(top level): trailing characters after the JSON value");
    expect_fail("array", "[]", 2, C1_ERR_TYPE, "(top level): expected an object, got an array");
    expect_fail("empty", "", 0, C1_ERR_SYNTAX,
                "(top level): unexpected end of input (expected an object)");
    expect_fail("garbage", "\x01\xff{", 3, C1_ERR_SYNTAX,
                "(top level): expected an object, got byte 0x01");
    expect_fail("bad utf8", "{\"x\xc3\x28\":1}", 8, C1_ERR_SYNTAX,
                "(top level): invalid UTF-8 inside a string");
    expect_fail("bad literal", "{\"x\":nul}", 9, C1_ERR_SYNTAX, "x: expected a value, got 'n'");
    /* deep nesting inside an unknown key: refused at the limit, no recursion */
    size_t depth = 100000, n = 0;
    char *deep = malloc(2 * depth + 16);
    n += (size_t)sprintf(deep, "{\"x\":");
    for (size_t i = 0; i < depth; i++)
        deep[n++] = '[';
    for (size_t i = 0; i < depth; i++)
        deep[n++] = ']';
    deep[n++] = '}';
    expect_fail("deep", deep, n, C1_ERR_SYNTAX, "x: nesting deeper than 128 levels");
    free(deep);
    /* empty object: all fields missing */
    expect_fail("{}", "{}", 2, C1_ERR_SHAPE, "(top level): missing field \"registered_proof\"");
    free(s);
}

/* Truncation at many offsets: always a syntax error inside the text. */
static void truncations(void) {
    size_t tried = 0;
    for (size_t cut = 0; cut < g_len; cut += cut < 400 || cut > g_len - 400 ? 1 : 97) {
        c1_output *d = NULL;
        c1_error err;
        c1_status st = c1_decode(&d, g_text, cut, &err);
        CHECK(st == C1_ERR_SYNTAX && d == NULL && err.offset <= cut);
        if (st != C1_ERR_SYNTAX)
            fprintf(stderr, "  cut %zu: %s %s\n", cut, c1_status_str(st), err.msg);
        tried++;
    }
    printf("truncations: %zu offsets rejected\n", tried);
}

/* Random byte changes: any outcome but a crash; successes must re-encode. */
static void flips(void) {
    uint8_t *t = malloc(g_len);
    int ok = 0, bad = 0;
    for (int i = 0; i < 3000; i++) {
        memcpy(t, g_text, g_len);
        int k = 1 + (int)(check_rand64() % 4);
        for (int m = 0; m < k; m++)
            t[check_rand64() % g_len] = (uint8_t)check_rand64();
        c1_output *d = NULL;
        c1_error err;
        if (c1_decode(&d, t, g_len, &err) == C1_OK) {
            uint8_t *e;
            size_t el;
            c1_output *d2 = NULL;
            CHECK(c1_encode(&e, &el, d, NULL) == C1_OK);
            CHECK(c1_decode(&d2, e, el, NULL) == C1_OK && c1_output_equal(d, d2));
            c1_output_free(d2);
            free(e);
            c1_output_free(d);
            ok++;
        } else {
            CHECK(d == NULL && err.msg[0] != 0);
            bad++;
        }
    }
    printf("byte flips: %d decoded, %d rejected\n", ok, bad);
    free(t);
}

static void wrapper_cases(void) {
    /* base64 of the text padded with spaces to each length mod 3 */
    for (int pad = 0; pad < 3; pad++) {
        size_t n = g_len + (size_t)pad;
        uint8_t *inner = malloc(n);
        memcpy(inner, g_text, g_len);
        memset(inner + g_len, ' ', (size_t)pad);
        size_t b = c1_base64_encoded_len(n);
        char *w = malloc(b + 128);
        int h = sprintf(w, "{\"SectorNum\":7,\"Phase1Out\":\"");
        c1_base64_encode(w + h, inner, n);
        size_t wl = (size_t)h + b;
        wl += (size_t)sprintf(w + wl, "\",\"SectorSize\":2048}");
        c1_output *d = NULL;
        CHECK(c1_decode(&d, w, wl, NULL) == C1_OK && d && d->sector_num == 7);
        c1_output_free(d);
        char *bad = malloc(wl + 8);
        /* a character outside the alphabet */
        memcpy(bad, w, wl);
        bad[h + 10] = '*';
        expect_fail("b64 alphabet", bad, wl, C1_ERR_BASE64,
                    "Phase1Out: character outside the base64 alphabet at character 10");
        /* '=' in the middle */
        memcpy(bad, w, wl);
        bad[h + 8] = '=';
        expect_fail("b64 middle =", bad, wl, C1_ERR_BASE64,
                    "Phase1Out: misplaced '=' padding at character 8");
        if (n % 3 != 0) {
            /* padding removed: length no longer a multiple of 4 */
            size_t eq = n % 3 == 1 ? 2 : 1;
            memcpy(bad, w, (size_t)h + b - eq);
            size_t bl = (size_t)h + b - eq;
            bl += (size_t)sprintf(bad + bl, "\",\"SectorSize\":2048}");
            char want[160];
            snprintf(want, sizeof want,
                     "Phase1Out: length is not a multiple of 4 (missing padding?) at character %zu",
                     b - eq);
            expect_fail("b64 unpadded", bad, bl, C1_ERR_BASE64, want);
            /* non-zero unused bits before the padding */
            memcpy(bad, w, wl);
            char *last = &bad[(size_t)h + b - eq - 1];
            *last = *last == 'B' ? 'C' : *last == 'A' ? 'B' : 'B';
            expect_fail("b64 bits", bad, wl, C1_ERR_BASE64, NULL);
        }
        free(bad);
        free(w);
        free(inner);
    }
    /* an inner error, sector size mismatch, mixed and missing fields */
    const char *tail = "\",\"SectorSize\":2048}";
    char w[256];
    char b64[64] = {0};
    c1_base64_encode(b64, (const uint8_t *)"{\"comm_d\":[1,2]}", 16);
    snprintf(w, sizeof w, "{\"SectorNum\":1,\"Phase1Out\":\"%s%s", b64, tail);
    expect_fail("inner", w, strlen(w), C1_ERR_SHAPE,
                "Phase1Out:comm_d: expected 32 elements, got 2");
    uint8_t *wrapped;
    size_t wl;
    c1_output *c = c1t_make(8, 3, NULL, NULL);
    CHECK(c1_encode_wrapper(&wrapped, &wl, c, 9, NULL) == C1_OK);
    char *p = strstr((char *)wrapped + wl - 40, "34359738368");
    CHECK(p != NULL);
    if (p) {
        memcpy(p, "34359738367", 11);
        expect_fail("size", wrapped, wl, C1_ERR_PROOF,
                    "SectorSize: 34359738367 does not match registered_proof StackedDrg32GiBV1_1 "
                    "(34359738368 bytes)");
    }
    free(wrapped);
    c1_output_free(c);
    expect_fail("mixed", "{\"SectorNum\":1,\"comm_d\":[]}", 27, C1_ERR_SHAPE, NULL);
    expect_fail("missing", "{\"SectorNum\":1,\"SectorSize\":2}", 30, C1_ERR_SHAPE,
                "(top level): missing field \"Phase1Out\"");
    expect_fail("b64 type", "{\"Phase1Out\":[1]}", 17, C1_ERR_TYPE,
                "Phase1Out: expected a string, got an array");
}

int main(void) {
    check_seed("test_c1_errors");
    c1_output *c = c1t_make(5, check_rand64(), &g_text, &g_len);
    g_json = c1t_load(g_text, g_len);
    CHECK(g_json != NULL);
    mutations();
    text_cases();
    truncations();
    flips();
    wrapper_cases();
    json_decref(g_json);
    free(g_text);
    c1_output_free(c);
    return check_finish();
}
