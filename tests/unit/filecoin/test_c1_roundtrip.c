/* C1 codec round trips: decode(encode(x)) == x and encode(decode(f)) == f for
 * 2 KiB, 8 MiB, NI 2 KiB, 32 GiB (Sub) and 64 GiB (Top) shapes; jansson
 * re-serializes our output byte for byte (so it is JSON in serde's compact
 * form); Go's key order, shuffled keys with whitespace and unknown members,
 * no "_h", null enum variants, vanilla_proofs before registered_proof and the
 * Curio wrapper all decode to the same model. */
#include <unistd.h>

#include "c1_test_util.h"

/* Rebuilds every object with its keys in random order, adds unknown members
 * of assorted types, and (optionally) drops "_h" and adds null variants. */
static json_t *reshape(json_t *v, int drop_h, int null_variants) {
    if (json_is_array(v)) {
        json_t *a = json_array();
        for (size_t i = 0; i < json_array_size(v); i++)
            json_array_append_new(a, reshape(json_array_get(v, i), drop_h, null_variants));
        return a;
    }
    if (!json_is_object(v))
        return json_incref(v);
    size_t n = json_object_size(v), k = 0;
    const char **keys = malloc((n + 1) * sizeof *keys);
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val) keys[k++] = key;
    for (size_t i = n; i > 1; i--) { /* Fisher-Yates */
        size_t j = check_rand64() % i;
        const char *t = keys[i - 1];
        keys[i - 1] = keys[j];
        keys[j] = t;
    }
    json_t *o = json_object();
    /* enums (ProofData, VanillaSealProof) take no unknown members */
    int is_enum = json_object_get(v, "Single") || json_object_get(v, "Sub") ||
                  json_object_get(v, "Top") || (n && strncmp(keys[0], "StackedDrg", 10) == 0);
    if (!is_enum && check_rand64() % 4 == 0)
        json_object_set_new(o, "zz_unknown",
                            json_pack("{s:[i,s,n,b,f],s:{}}", "a", -5, "x\"\\u", 1, 2.5, "b"));
    for (size_t i = 0; i < n; i++) {
        if (drop_h && strcmp(keys[i], "_h") == 0)
            continue;
        json_object_set_new(o, keys[i],
                            reshape(json_object_get(v, keys[i]), drop_h, null_variants));
    }
    if (null_variants &&
        (json_object_get(v, "Single") || json_object_get(v, "Sub") || json_object_get(v, "Top"))) {
        const char *all[3] = {"Single", "Sub", "Top"};
        for (int i = 0; i < 3; i++)
            if (!json_object_get(o, all[i]))
                json_object_set_new(o, all[i], json_null());
    }
    free(keys);
    return o;
}

static void expect_decodes_to(const char *what, const void *text, size_t len, const c1_output *c) {
    c1_output *d = NULL;
    c1_error err;
    c1_status st = c1_decode(&d, text, len, &err);
    CHECK(st == C1_OK);
    if (st != C1_OK) {
        fprintf(stderr, "  %s: %s\n", what, err.msg);
        return;
    }
    CHECK(c1_output_equal(c, d));
    c1_output_free(d);
}

static void roundtrip(unsigned id, int with_oracle) {
    const fc_seal_proof *p = fc_seal_proof_by_id(id);
    uint8_t *text;
    size_t len;
    c1_output *c = c1t_make(id, check_rand64(), &text, &len);
    CHECK(c && text);
    printf("%s: %u x %u challenges, %zu nodes/challenge, model %zu bytes, JSON %zu bytes\n",
           p->name, c->partitions, c->challenges, c1_nodes_per_challenge(p), c->bytes, len);

    /* decode(encode(x)) == x, then encode(decode(f)) == f byte for byte */
    c1_output *d = NULL;
    c1_error err;
    CHECK(c1_decode(&d, text, len, &err) == C1_OK);
    if (!d) {
        fprintf(stderr, "  %s: %s\n", p->name, err.msg);
        free(text);
        c1_output_free(c);
        return;
    }
    CHECK(c1_output_equal(c, d));
    CHECK(!d->wrapped);
    uint8_t *again;
    size_t len2;
    CHECK(d && c1_encode(&again, &len2, d, NULL) == C1_OK);
    CHECK(len2 == len && memcmp(again, text, len) == 0);
    free(again);

    /* a changed node or index breaks equality (the comparison is real) */
    d->arena[d->arena_nodes / 2][7] ^= 1;
    CHECK(!c1_output_equal(c, d));
    d->arena[d->arena_nodes / 2][7] ^= 1;
    c1_at(d, 0, c->challenges - 1)->comm_r_last.index[0] ^= 1;
    CHECK(!c1_output_equal(c, d));
    c1_output_free(d);

    /* the Curio wrapper */
    uint8_t *wrapped;
    size_t wlen;
    CHECK(c1_encode_wrapper(&wrapped, &wlen, c, 4242, NULL) == C1_OK);
    char head[64], tail[64];
    snprintf(head, sizeof head, "{\"SectorNum\":4242,\"Phase1Out\":\"");
    snprintf(tail, sizeof tail, "\",\"SectorSize\":%llu}",
             (unsigned long long)p->shape->sector_size);
    CHECK(memcmp(wrapped, head, strlen(head)) == 0);
    CHECK(memcmp(wrapped + wlen - strlen(tail), tail, strlen(tail)) == 0);
    CHECK(c1_decode(&d, wrapped, wlen, &err) == C1_OK);
    CHECK(d && c1_output_equal(c, d) && d->wrapped && d->sector_num == 4242);
    c1_output_free(d);
    /* in place (the decoder may overwrite a buffer it is given) */
    CHECK(c1_decode_mutable(&d, wrapped, wlen, &err) == C1_OK);
    CHECK(d && c1_output_equal(c, d));
    c1_output_free(d);
    free(wrapped);

    if (with_oracle) {
        json_t *j = c1t_load(text, len);
        CHECK(j != NULL);
        /* jansson re-serializes our bytes unchanged: valid JSON, compact, in our order */
        char *s = c1t_dump(j, 0);
        CHECK(s && strlen(s) == len && memcmp(s, text, len) == 0);
        free(s);
        /* Go's json.Marshal order: top-level keys sorted (Go declares them so) */
        s = c1t_dump(j, JSON_SORT_KEYS);
        CHECK(strncmp(s, "{\"comm_d\":", 10) == 0);
        expect_decodes_to("sorted keys", s, strlen(s), c);
        free(s);
        /* any order, indentation, unknown members, no "_h", null variants */
        for (int v = 0; v < 4; v++) {
            json_t *r = reshape(j, v & 1, v & 2);
            s = json_dumps(r, JSON_INDENT(v + 1));
            expect_decodes_to("reshaped", s, strlen(s), c);
            free(s);
            json_decref(r);
        }
        /* vanilla_proofs before registered_proof: decoded after the rest */
        json_t *o = json_object();
        json_object_set(o, "vanilla_proofs", json_object_get(j, "vanilla_proofs"));
        json_object_set(o, "ticket", json_object_get(j, "ticket"));
        json_object_set(o, "registered_proof", json_object_get(j, "registered_proof"));
        const char *k;
        json_t *val;
        json_object_foreach(j, k, val) if (!json_object_get(o, k)) json_object_set(o, k, val);
        s = c1t_dump(o, 0);
        expect_decodes_to("vanilla first", s, strlen(s), c);
        free(s);
        json_decref(o);
        json_decref(j);
    }
    free(text);
    c1_output_free(c);
}

static void shapes(void) {
    /* node counts per challenge, by hand from filecoin-facts.md §2.6:
     * 32 GiB: comm_d 2+30, tree R 2+9*7+7, 15 columns of 11 rows + 72, 12 x 37 */
    CHECK(c1_nodes_per_challenge(fc_seal_proof_by_id(8)) == 32 + 72 + 15 * 83 + 12 * 37);
    CHECK(c1_nodes_per_challenge(fc_seal_proof_by_id(9)) == 33 + 73 + 15 * 84 + 12 * 37);
    CHECK(c1_nodes_per_challenge(fc_seal_proof_by_id(5)) == 8 + 16 + 15 * 18 + 3 * 37);
    c1_tree t;
    c1_tree_r_shape(&t, fc_shape_at(3));
    CHECK(t.kind == C1_TREE_SUB && t.base_len == 9 && t.len == 10 && t.hashes == 70);
    c1_tree_r_shape(&t, fc_shape_at(4));
    CHECK(t.kind == C1_TREE_TOP && t.base_len == 9 && t.len == 11 && t.hashes == 71);
    CHECK(t.arity[9] == 8 && t.arity[10] == 2 && t.first[10] == 70);
    c1_tree_r_shape(&t, fc_shape_at(1));
    CHECK(t.kind == C1_TREE_SINGLE && t.base_len == 6 && t.hashes == 42);
    c1_tree_d_shape(&t, fc_shape_at(4));
    CHECK(t.len == 31 && t.hashes == 31 && t.arity[30] == 2);

    /* the synthetic filler's paths point at their nodes (every tree kind) */
    for (unsigned id = 5; id < 10; id++) {
        c1_output *r = c1t_make(id, id, NULL, NULL);
        for (unsigned p = 0; p < r->partitions; p++)
            for (unsigned i = 0; i < r->challenges; i++) {
                const c1_challenge *ch = c1_at(r, p, i);
                CHECK(c1_merkle_path_index(&ch->comm_d) == ch->c_x.index);
                CHECK(c1_merkle_path_index(&ch->comm_r_last) == ch->c_x.index);
                CHECK(c1_merkle_path_index(&ch->exp[7].proof) == ch->exp[7].index);
                CHECK(ch->labeling[r->layers - 1].node == ch->c_x.index);
            }
        c1_output_free(r);
    }
    /* the accessors: path index folds from the root end */
    c1_output *c = c1t_make(9, 1, NULL, NULL);
    c1_merkle *m = &c1_at(c, 9, 17)->comm_r_last;
    memset(m->index, 0, sizeof m->index);
    m->index[0] = 3;  /* base level 0: 3 */
    m->index[1] = 1;  /* base level 1: 8 */
    m->index[9] = 5;  /* sub: 5 * 8^9 */
    m->index[10] = 1; /* top: 1 * 8 * 8^9 */
    CHECK(c1_merkle_path_index(m) == 3 + 8 + 5ull * (1ull << 27) + (1ull << 30));
    CHECK(c1_path_hashes_len(m, 10) == 1 && c1_path_arity(m, 9) == 8);
    CHECK(c1_path_hashes(m, 10) == &m->nodes[2 + 70]);
    CHECK(c1_merkle_root(m) == m->nodes[0]);
    CHECK((uint8_t *)(c1_at(c, 9, 17)->encoding.parents + C1_LABEL_PARENTS) ==
          (uint8_t *)(c->arena + c->arena_nodes)); /* the arena is filled exactly */
    c1_output_free(c);
}

static void expect_file(const char *what, const void *text, size_t len, const c1_output *c) {
    char path[] = "/tmp/test_c1_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    CHECK(write(fd, text, len) == (ssize_t)len);
    close(fd);
    c1_output *d = NULL;
    c1_error err;
    CHECK(c1_decode_file(&d, path, &err) == C1_OK);
    if (!d)
        fprintf(stderr, "  %s: %s\n", what, err.msg);
    CHECK(d && c1_output_equal(c, d));
    c1_output_free(d);
    unlink(path);
}

/* Curio's wrapper around any text (not only our encoder's). */
static char *wrap(const uint8_t *text, size_t len, uint64_t sector_size, size_t *wl) {
    size_t b = c1_base64_encoded_len(len);
    char *w = malloc(b + 128);
    int h = sprintf(w, "{\"SectorNum\":5,\"Phase1Out\":\"");
    c1_base64_encode(w + h, text, len);
    *wl = (size_t)h + b;
    *wl += (size_t)sprintf(w + *wl, "\",\"SectorSize\":%llu}", (unsigned long long)sector_size);
    return w;
}

/* Large wrappers are decoded as a stream with a plain retry: texts the stream
 * cannot take (vanilla_proofs first, a member larger than the window) still
 * decode, and errors are those of the plain decoder. */
static void expect_wrapped(const char *what, const uint8_t *text, size_t len, const c1_output *c) {
    size_t wl;
    char *w = wrap(text, len, c->proof->shape->sector_size, &wl);
    expect_decodes_to(what, w, wl, c);
    expect_file(what, w, wl, c);
    free(w);
}

static void streamed_errors(const uint8_t *text, size_t len, uint64_t sector_size) {
    uint8_t *bad = malloc(len + 8);
    /* a byte > 255 in the middle ("[1," -> "[991,"): the same message as the
     * bare text's, prefixed */
    char *mid = strstr((char *)text + len / 2, "[1,");
    CHECK(mid != NULL);
    if (mid) {
        size_t at = (size_t)(mid - (char *)text) + 1;
        memcpy(bad, text, at);
        memcpy(bad + at, "99", 2);
        memcpy(bad + at + 2, text + at, len - at);
        c1_error e1, e2;
        c1_output *d = NULL;
        CHECK(c1_decode(&d, bad, len + 2, &e1) == C1_ERR_RANGE);
        size_t wl;
        char *w = wrap(bad, len + 2, sector_size, &wl);
        CHECK(c1_decode(&d, w, wl, &e2) == C1_ERR_RANGE);
        char want[C1_MSG_BYTES + 16];
        snprintf(want, sizeof want, "Phase1Out:%s", e1.msg);
        CHECK(strcmp(e2.msg, want) == 0 && e1.offset == e2.offset);
        if (strcmp(e2.msg, want) != 0)
            fprintf(stderr, "  streamed error: %s\n  plain: %s\n", e2.msg, want);
        /* bad base64 near the end is found although the JSON before it is fine */
        free(w);
        w = wrap(text, len, sector_size, &wl);
        w[wl - 40] = '*';
        CHECK(c1_decode(&d, w, wl, &e2) == C1_ERR_BASE64);
        CHECK(strstr(e2.msg, "Phase1Out: character outside the base64 alphabet") == e2.msg);
        free(w);
    }
    free(bad);
}

/* c1_decode_file maps the file and drops pages behind the parser: check the
 * result on a 32 GiB output (many dropped pages) in serde order, with
 * vanilla_proofs last-decoded (deferred), and wrapped. */
static void files(void) {
    uint8_t *text;
    size_t len;
    c1_output *c = c1t_make(8, check_rand64(), &text, &len);
    expect_file("bare", text, len, c);
    /* {"registered_proof":"X","vanilla_proofs":V,REST} ->
     * {"vanilla_proofs":V,"registered_proof":"X",REST} */
    const char *v = strstr((char *)text, ",\"vanilla_proofs\":");
    const char *rest = strstr((char *)text, "]]},\"comm_r\":");
    CHECK(v && rest);
    if (v && rest) {
        rest += 3;
        size_t head = (size_t)(v - (char *)text), vl = (size_t)(rest - v);
        uint8_t *t2 = malloc(len);
        size_t o = 0;
        t2[o++] = '{';
        memcpy(t2 + o, v + 1, vl - 1);
        o += vl - 1;
        t2[o++] = ',';
        memcpy(t2 + o, text + 1, head - 1);
        o += head - 1;
        memcpy(t2 + o, rest, len - (size_t)(rest - (char *)text));
        o += len - (size_t)(rest - (char *)text);
        CHECK(o == len && memcmp(t2, "{\"vanilla_proofs\":", 18) == 0);
        expect_file("vanilla first", t2, o, c);
        expect_wrapped("vanilla first, wrapped", t2, o, c);
        free(t2);
    }
    /* an unknown member larger than the stream's window, inside a challenge */
    size_t big = (size_t)6 << 20;
    uint8_t *t3 = malloc(len + big + 16);
    const char *ch0 = strstr((char *)text, "[[{") + 3;
    size_t at = (size_t)(ch0 - (char *)text), o = at;
    memcpy(t3, text, at);
    memcpy(t3 + o, "\"zz\":\"", 6);
    o += 6;
    memset(t3 + o, 'x', big);
    o += big;
    memcpy(t3 + o, "\",", 2);
    o += 2;
    memcpy(t3 + o, text + at, len - at);
    o += len - at;
    expect_decodes_to("big unknown member", t3, o, c);
    expect_wrapped("big unknown member, wrapped", t3, o, c);
    free(t3);
    streamed_errors(text, len, c->proof->shape->sector_size);
    uint8_t *w;
    size_t wl;
    CHECK(c1_encode_wrapper(&w, &wl, c, 77, NULL) == C1_OK);
    expect_file("wrapper", w, wl, c);
    free(w);
    free(text);
    c1_output_free(c);
}

int main(void) {
    check_seed("test_c1_roundtrip");
    shapes();
    roundtrip(5, 1);  /* StackedDrg2KiBV1_1 */
    roundtrip(0, 1);  /* StackedDrg2KiBV1 */
    roundtrip(15, 1); /* 2 KiB NI-PoRep: 13 partitions */
    roundtrip(1, 0);  /* 8 MiB */
    roundtrip(13, 0); /* 32 GiB synthetic: Sub */
    roundtrip(9, 0);  /* 64 GiB: Top */
    files();
    return check_finish();
}
