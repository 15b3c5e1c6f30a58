/* C1 encoding in serde_json's compact form: struct fields in Rust declaration
 * order, enums externally tagged, [u8; 32] as arrays of integers, Column's
 * PhantomData as "_h":null, no whitespace (serde_json::to_vec).  And Curio's
 * wrapper in Go encoding/json form (fields in Go declaration order). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/c1/c1.h"

typedef struct {
    uint8_t *buf;
    size_t len, cap;
    int oom;
} wbuf;

/* Room for n more bytes; on failure sets oom and returns 0 (later writes are dropped). */
static int reserve(wbuf *w, size_t n) {
    if (w->oom)
        return 0;
    if (w->cap - w->len >= n)
        return 1;
    size_t cap = w->cap * 2 > w->len + n ? w->cap * 2 : w->len + n;
    uint8_t *b = realloc(w->buf, cap);
    if (!b) {
        w->oom = 1;
        return 0;
    }
    w->buf = b;
    w->cap = cap;
    return 1;
}

static void put(wbuf *w, const char *s, size_t n) {
    if (reserve(w, n)) {
        memcpy(w->buf + w->len, s, n);
        w->len += n;
    }
}
#define LIT(w, s) put((w), (s), sizeof(s) - 1)

static void put_u64(wbuf *w, uint64_t v) {
    char t[24];
    int n = snprintf(t, sizeof t, "%" PRIu64, v);
    put(w, t, (size_t)n);
}

/* [b0,b1,...,b31] */
static void put_domain(wbuf *w, const uint8_t d[32]) {
    if (!reserve(w, 32 * 4 + 1))
        return;
    uint8_t *o = w->buf + w->len;
    *o++ = '[';
    for (int i = 0; i < 32; i++) {
        unsigned v = d[i];
        if (v >= 100) {
            *o++ = (uint8_t)('0' + v / 100);
            v %= 100;
            *o++ = (uint8_t)('0' + v / 10);
            *o++ = (uint8_t)('0' + v % 10);
        } else if (v >= 10) {
            *o++ = (uint8_t)('0' + v / 10);
            *o++ = (uint8_t)('0' + v % 10);
        } else {
            *o++ = (uint8_t)('0' + v);
        }
        *o++ = i == 31 ? ']' : ',';
    }
    w->len = (size_t)(o - w->buf);
}

static void put_domains(wbuf *w, const c1_node *d, size_t n) {
    LIT(w, "[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            LIT(w, ",");
        put_domain(w, d[i]);
    }
    LIT(w, "]");
}

/* {"path":[{"hashes":[...],"index":i},...]} for elements e0..e0+count-1 */
static void put_path(wbuf *w, const c1_merkle *m, unsigned e0, unsigned count) {
    LIT(w, "{\"path\":[");
    for (unsigned e = e0; e < e0 + count; e++) {
        if (e > e0)
            LIT(w, ",");
        LIT(w, "{\"hashes\":");
        put_domains(w, c1_path_hashes(m, e), c1_path_hashes_len(m, e));
        LIT(w, ",\"index\":");
        put_u64(w, m->index[e]);
        LIT(w, "}");
    }
    LIT(w, "]}");
}

static void put_merkle(wbuf *w, const c1_merkle *m) {
    const c1_tree *t = m->tree;
    if (t->kind == C1_TREE_SINGLE) {
        LIT(w, "{\"data\":{\"Single\":{\"root\":");
        put_domain(w, m->nodes[0]);
        LIT(w, ",\"leaf\":");
        put_domain(w, m->nodes[1]);
        LIT(w, ",\"path\":");
        put_path(w, m, 0, t->base_len);
        LIT(w, "}}}");
        return;
    }
    if (t->kind == C1_TREE_SUB)
        LIT(w, "{\"data\":{\"Sub\":{\"base_proof\":");
    else
        LIT(w, "{\"data\":{\"Top\":{\"base_proof\":");
    put_path(w, m, 0, t->base_len);
    LIT(w, ",\"sub_proof\":");
    put_path(w, m, t->base_len, 1);
    if (t->kind == C1_TREE_TOP) {
        LIT(w, ",\"top_proof\":");
        put_path(w, m, t->base_len + 1, 1);
    }
    LIT(w, ",\"root\":");
    put_domain(w, m->nodes[0]);
    LIT(w, ",\"leaf\":");
    put_domain(w, m->nodes[1]);
    LIT(w, "}}}");
}

static void put_column(wbuf *w, const c1_output *c, const c1_column *col) {
    LIT(w, "{\"column\":{\"index\":");
    put_u64(w, col->index);
    LIT(w, ",\"rows\":");
    put_domains(w, col->rows, c->layers);
    LIT(w, ",\"_h\":null},\"inclusion_proof\":");
    put_merkle(w, &col->proof);
    LIT(w, "}");
}

static void put_columns(wbuf *w, const c1_output *c, const c1_column *cols, unsigned n) {
    LIT(w, "[");
    for (unsigned i = 0; i < n; i++) {
        if (i)
            LIT(w, ",");
        put_column(w, c, &cols[i]);
    }
    LIT(w, "]");
}

static void put_labeling(wbuf *w, const c1_labeling *l) {
    LIT(w, "{\"parents\":");
    put_domains(w, l->parents, C1_LABEL_PARENTS);
    LIT(w, ",\"layer_index\":");
    put_u64(w, l->layer_index);
    LIT(w, ",\"node\":");
    put_u64(w, l->node);
    LIT(w, "}");
}

static void put_challenge(wbuf *w, const c1_output *c, const c1_challenge *ch) {
    LIT(w, "{\"comm_d_proofs\":");
    put_merkle(w, &ch->comm_d);
    LIT(w, ",\"comm_r_last_proof\":");
    put_merkle(w, &ch->comm_r_last);
    LIT(w, ",\"replica_column_proofs\":{\"c_x\":");
    put_column(w, c, &ch->c_x);
    LIT(w, ",\"drg_parents\":");
    put_columns(w, c, ch->drg, C1_DRG_PARENTS);
    LIT(w, ",\"exp_parents\":");
    put_columns(w, c, ch->exp, C1_EXP_PARENTS);
    LIT(w, "},\"labeling_proofs\":[");
    for (unsigned l = 0; l < c->layers; l++) {
        if (l)
            LIT(w, ",");
        put_labeling(w, &ch->labeling[l]);
    }
    LIT(w, "],\"encoding_proof\":");
    put_labeling(w, &ch->encoding);
    LIT(w, "}");
}

static c1_status finish(wbuf *w, uint8_t **out, size_t *len, c1_error *err) {
    if (w->oom) {
        free(w->buf);
        *out = NULL;
        *len = 0;
        if (err) {
            err->status = C1_ERR_NO_MEMORY;
            err->offset = 0;
            snprintf(err->msg, sizeof err->msg, "out of memory encoding a C1 output");
        }
        return C1_ERR_NO_MEMORY;
    }
    *out = w->buf;
    *len = w->len;
    return C1_OK;
}

c1_status c1_encode(uint8_t **out, size_t *len, const c1_output *c, c1_error *err) {
    /* about 4 bytes per node byte plus the structure: one allocation usually */
    wbuf w = {0};
    reserve(&w, c->arena_nodes * 131 + (size_t)c->partitions * c->challenges * 4096 + 1024);
    LIT(&w, "{\"registered_proof\":\"");
    put(&w, c->proof->name, strlen(c->proof->name));
    LIT(&w, "\",\"vanilla_proofs\":{\"");
    put(&w, c->proof->vanilla_name, strlen(c->proof->vanilla_name));
    LIT(&w, "\":[");
    for (unsigned p = 0; p < c->partitions; p++) {
        if (p)
            LIT(&w, ",");
        LIT(&w, "[");
        for (unsigned i = 0; i < c->challenges; i++) {
            if (i)
                LIT(&w, ",");
            put_challenge(&w, c, c1_at(c, p, i));
        }
        LIT(&w, "]");
    }
    LIT(&w, "]},\"comm_r\":");
    put_domain(&w, c->comm_r);
    LIT(&w, ",\"comm_d\":");
    put_domain(&w, c->comm_d);
    LIT(&w, ",\"replica_id\":");
    put_domain(&w, c->replica_id);
    LIT(&w, ",\"seed\":");
    put_domain(&w, c->seed);
    LIT(&w, ",\"ticket\":");
    put_domain(&w, c->ticket);
    LIT(&w, "}");
    return finish(&w, out, len, err);
}

c1_status c1_encode_wrapper(uint8_t **out, size_t *len, const c1_output *c, uint64_t sector_num,
                            c1_error *err) {
    uint8_t *inner;
    size_t n;
    c1_status st = c1_encode(&inner, &n, c, err);
    if (st != C1_OK)
        return st;
    wbuf w = {0};
    size_t b64 = c1_base64_encoded_len(n);
    reserve(&w, b64 + 96);
    LIT(&w, "{\"SectorNum\":");
    put_u64(&w, sector_num);
    LIT(&w, ",\"Phase1Out\":\"");
    if (reserve(&w, b64)) {
        c1_base64_encode((char *)w.buf + w.len, inner, n);
        w.len += b64;
    }
    free(inner);
    LIT(&w, "\",\"SectorSize\":");
    put_u64(&w, c->proof->shape->sector_size);
    LIT(&w, "}");
    return finish(&w, out, len, err);
}
