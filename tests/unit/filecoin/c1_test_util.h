/* Helpers shared by the C1 codec tests: synthetic outputs, and jansson (an
 * independent JSON implementation) to reshape and mutate their JSON. */
#ifndef CUZK_TEST_C1_UTIL_H
#define CUZK_TEST_C1_UTIL_H

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/c1/c1.h"

/* A random output of registered proof id, encoded; *text owned by the caller. */
static inline c1_output *c1t_make(unsigned id, uint64_t seed, uint8_t **text, size_t *len) {
    const fc_seal_proof *p = fc_seal_proof_by_id(id);
    c1_output *c = c1_output_alloc(p, NULL);
    c1_output_fill_random(c, seed);
    if (text && c1_encode(text, len, c, NULL) != C1_OK)
        *text = NULL;
    return c;
}

static inline json_t *c1t_load(const uint8_t *text, size_t len) {
    json_error_t e;
    json_t *j = json_loadb((const char *)text, len, 0, &e);
    if (!j)
        fprintf(stderr, "jansson: %s at %d:%d\n", e.text, e.line, e.column);
    return j;
}

/* The node at a path like "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs"
 * (keys joined by '.', indices in brackets); NULL if absent. */
static inline json_t *c1t_at(json_t *root, const char *path) {
    json_t *cur = root;
    const char *p = path;
    while (cur && *p) {
        if (*p == '.') {
            p++;
            continue;
        }
        if (*p == '[') {
            size_t i = strtoul(p + 1, (char **)&p, 10);
            p++; /* ']' */
            cur = json_array_get(cur, i);
            continue;
        }
        size_t n = strcspn(p, ".[");
        char key[128];
        memcpy(key, p, n);
        key[n] = 0;
        cur = json_object_get(cur, key);
        p += n;
    }
    return cur;
}

/* Splits "a.b[3]" into parent path "a.b" and last step: a key or an index. */
static inline json_t *c1t_parent(json_t *root, const char *path, char *key, long *index) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    size_t n = strlen(buf);
    *index = -1;
    key[0] = 0;
    if (n && buf[n - 1] == ']') {
        char *lb = strrchr(buf, '[');
        *index = strtol(lb + 1, NULL, 10);
        *lb = 0;
    } else {
        char *dot = strrchr(buf, '.'), *rb = strrchr(buf, ']');
        char *start = dot && (!rb || dot > rb) ? dot + 1 : rb ? rb + 1 : buf;
        size_t l = strlen(start) < 127 ? strlen(start) : 127;
        memcpy(key, start, l);
        key[l] = 0;
        *(start > buf && start[-1] == '.' ? start - 1 : start) = 0;
    }
    return buf[0] ? c1t_at(root, buf) : root;
}

/* Replaces the value at path (steals v); 0 on success. */
static inline int c1t_set(json_t *root, const char *path, json_t *v) {
    char key[128];
    long i;
    json_t *parent = c1t_parent(root, path, key, &i);
    if (!parent)
        return -1;
    return i >= 0 ? json_array_set_new(parent, (size_t)i, v) : json_object_set_new(parent, key, v);
}

/* Removes the value at path. */
static inline int c1t_del(json_t *root, const char *path) {
    char key[128];
    long i;
    json_t *parent = c1t_parent(root, path, key, &i);
    if (!parent)
        return -1;
    return i >= 0 ? json_array_remove(parent, (size_t)i) : json_object_del(parent, key);
}

/* Compact text of j (jansson's own serializer); caller frees. */
static inline char *c1t_dump(const json_t *j, size_t flags) {
    return json_dumps(j, flags | JSON_COMPACT | JSON_ENCODE_ANY);
}

#endif
