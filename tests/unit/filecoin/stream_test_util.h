/* Shared by the streaming-sealer tests: seal one sector both ways (the
 * in-memory reference, sealer.h, and the streaming sealer, sealer_stream.h,
 * in a temporary directory) and check that everything they produce is the
 * same bytes: commitments, the encoded C1 JSON, and every file the streaming
 * sealer writes against the reference's labels and tree rows. */
#ifndef CUZK_TEST_STREAM_UTIL_H
#define CUZK_TEST_STREAM_UTIL_H

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "filecoin/c1/c1.h"
#include "sealer/sealer.h"
#include "sealer/sealer_data.h"
#include "sealer/sealer_stream.h"

/* A fresh temporary directory (ut_rmdir removes it). */
static inline char *ut_mkdtemp(char buf[64]) {
    snprintf(buf, 64, "/tmp/cuzk_stream_XXXXXX");
    return mkdtemp(buf);
}

static inline void ut_rmdir(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* The whole of dir/name, malloc'd; *n its size.  NULL when missing. */
static inline uint8_t *ut_slurp(const char *dir, const char *name, size_t *n) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
    *n = b && len >= 0 && fread(b, 1, (size_t)len, f) == (size_t)len ? (size_t)len : 0;
    fclose(f);
    return b;
}

static inline int ut_write(const char *dir, const char *name, const uint8_t *b, size_t n) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(b, 1, n, f) == n;
    if (f)
        ok &= fclose(f) == 0;
    return ok ? 0 : -1;
}

/* dir/name equals the rows from..levels of t, concatenated. */
static inline int ut_file_is_rows(const char *dir, const char *name, const merkle_tree *t,
                                  unsigned from) {
    size_t n, off = 0;
    uint8_t *b = ut_slurp(dir, name, &n);
    int same = b != NULL;
    for (unsigned l = from; same && l <= t->levels; l++) {
        same = off + t->width[l] * 32 <= n && memcmp(b + off, t->row[l], t->width[l] * 32) == 0;
        off += t->width[l] * 32;
    }
    free(b);
    return same && off == n;
}

static inline uint8_t *ut_encode(const c1_output *c, size_t *len) {
    uint8_t *text = NULL;
    c1_error ce;
    if (c1_encode(&text, len, c, &ce) != C1_OK)
        return NULL;
    return text;
}

/* Seals padded data (nodes × 32 bytes) both ways with p and o (o->dir is
 * set here) and CHECKs that all results agree.  res gets the streaming
 * result.  Returns 0 when both seals ran. */
static inline int ut_seal_both(fc_stream_result *res, const fc_seal_params *p, fc_stream_opts o,
                               const uint8_t *padded) {
    size_t bytes = (size_t)p->proof->shape->nodes * 32;
    char err[512], dirbuf[64];
    fc_sealed s;
    c1_output *cm = NULL, *cs = NULL;
    int rc = fc_seal_precommit(&s, p, padded, err, sizeof err);
    CHECK(rc == 0);
    if (rc == 0)
        CHECK(fc_seal_commit1(&cm, &s, err, sizeof err) == 0);
    const char *dir = ut_mkdtemp(dirbuf);
    CHECK(dir != NULL);
    if (rc != 0 || !cm || !dir) {
        fprintf(stderr, "reference seal: %s\n", err);
        fc_sealed_free(&s);
        c1_output_free(cm);
        return -1;
    }
    o.dir = dir;
    CHECK(ut_write(dir, "unsealed", padded, bytes) == 0);
    rc = fc_seal_stream(res, &cs, p, &o, err, sizeof err);
    CHECK(rc == 0);
    if (rc != 0)
        fprintf(stderr, "streaming seal (%s): %s\n", p->proof->name, err);
    if (rc == 0) {
        const fc_sealed *t = &res->s;
        CHECK_MEM(t->comm_d, s.comm_d, 32);
        CHECK_MEM(t->replica_id, s.replica_id, 32);
        CHECK_MEM(t->comm_c, s.comm_c, 32);
        CHECK_MEM(t->comm_r_last, s.comm_r_last, 32);
        CHECK_MEM(t->comm_r, s.comm_r, 32);
        size_t la, lb;
        uint8_t *ja = ut_encode(cm, &la), *jb = ut_encode(cs, &lb);
        CHECK(ja && jb && la == lb && memcmp(ja, jb, la) == 0);
        free(ja);
        free(jb);
        for (unsigned l = 1; l <= s.layers; l++) {
            char name[32];
            size_t n;
            snprintf(name, sizeof name, "layer-%u", l);
            uint8_t *b = ut_slurp(dir, name, &n);
            CHECK(b && n == bytes && memcmp(b, fc_sealed_label(&s, l, 0), bytes) == 0);
            free(b);
        }
        size_t n;
        uint8_t *b = ut_slurp(dir, "sealed", &n);
        CHECK(b && n == bytes && memcmp(b, s.tree_r.row[0], bytes) == 0);
        free(b);
        CHECK(ut_file_is_rows(dir, "tree-r-last", &s.tree_r, 1));
        CHECK(ut_file_is_rows(dir, "tree-d", &s.tree_d, 1));
        CHECK(ut_file_is_rows(dir, "tree-c", &s.tree_c, 0));
        CHECK(res->mem_peak <= res->mem_budget);
    }
    c1_output_free(cm);
    c1_output_free(cs);
    fc_sealed_free(&s);
    ut_rmdir(dir);
    return rc;
}

#endif
