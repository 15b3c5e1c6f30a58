/* `cuzk bench` inputs: the C1 file (Curio's wrapper or bare JSON; what it
 * says about its registered proof, sector size and number is read without
 * decoding the proofs), the vanilla file (a JSON array of base64, else one
 * raw proof), and the request spec built from them and the flags. */
#define _GNU_SOURCE /* memmem */
#include "cli/bench/bench_args.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/c1/c1.h"
#include "filecoin/proof_types.h"
#include "util/file_read.h"
#include "util/slog.h"

/* ---- inputs ------------------------------------------------------------------ */

/* Inputs of at most 1 GiB (a 64 GiB C1 in Curio's wrapper is ~100 MB). */
static int read_file(const char *flag, const char *path, uint8_t **out, size_t *len) {
    char why[256];
    *out = file_read_all(path, (size_t)1 << 30, len, why, sizeof why);
    if (*out == NULL) {
        fprintf(stderr, "cuzk bench: %s %s: %s\n", flag, path, why);
        return 2;
    }
    return 0;
}

/* The value after the JSON key "key" in buf (first occurrence), or NULL.
 * Sound for the keys looked up here: a wrapper's only long string value is
 * base64, which holds no quote. */
static const uint8_t *json_value(const uint8_t *buf, size_t len, const char *key) {
    char pat[64];
    int n = snprintf(pat, sizeof pat, "\"%s\"", key);
    const uint8_t *p = memmem(buf, len, pat, (size_t)n), *end = buf + len;
    if (p == NULL)
        return NULL;
    for (p += n; p < end && isspace(*p); p++)
        ;
    if (p == end || *p != ':')
        return NULL;
    for (p++; p < end && isspace(*p); p++)
        ;
    return p < end ? p : NULL;
}

static int json_u64(const uint8_t *buf, size_t len, const char *key, uint64_t *out) {
    const uint8_t *p = json_value(buf, len, key), *end = buf + len;
    if (p == NULL || !isdigit(*p))
        return -1;
    uint64_t v = 0;
    for (; p < end && isdigit(*p); p++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return 0;
}

/* A JSON string value: *s (not NUL-terminated) and *n. */
static int json_str(const uint8_t *buf, size_t len, const char *key, const uint8_t **s, size_t *n) {
    const uint8_t *p = json_value(buf, len, key), *end = buf + len;
    if (p == NULL || *p != '"')
        return -1;
    const uint8_t *q = memchr(p + 1, '"', (size_t)(end - p - 1));
    if (q == NULL)
        return -1;
    *s = p + 1;
    *n = (size_t)(q - p - 1);
    return 0;
}

typedef struct {
    int wrapper, have_size, have_num;
    uint64_t size, num;
    const fc_seal_proof *proof; /* NULL: not found */
    char proof_name[64];
} c1_info;

/* What a C1 file says about itself, without decoding its proofs: Curio's
 * wrapper fields, and the inner "registered_proof" name. */
static int c1_inspect(const char *path, const uint8_t *buf, size_t len, c1_info *ci) {
    memset(ci, 0, sizeof *ci);
    size_t i = 0;
    while (i < len && isspace(buf[i]))
        i++;
    if (i == len || buf[i] != '{') {
        fprintf(stderr, "cuzk bench: --c1 %s: not a JSON object (a C1 output or Curio's wrapper)\n",
                path);
        return 2;
    }
    const uint8_t *b64;
    size_t n64;
    uint8_t *inner = NULL;
    const uint8_t *scan = buf;
    size_t scan_len = len;
    if (json_str(buf, len, "Phase1Out", &b64, &n64) == 0) {
        ci->wrapper = 1;
        ci->have_size = json_u64(buf, len, "SectorSize", &ci->size) == 0;
        ci->have_num = json_u64(buf, len, "SectorNum", &ci->num) == 0;
        inner = malloc(c1_base64_max_decoded(n64) + 1);
        size_t n, at;
        const char *why;
        if (inner == NULL || c1_base64_decode(inner, &n, (const char *)b64, n64, &at, &why) != 0) {
            if (inner)
                fprintf(stderr,
                        "cuzk bench: --c1 %s: Phase1Out is not base64 (%s at character %zu)\n",
                        path, why, at);
            else
                fprintf(stderr, "cuzk bench: --c1 %s: out of memory\n", path);
            free(inner);
            return 2;
        }
        scan = inner;
        scan_len = n;
    }
    const uint8_t *name;
    size_t nn;
    if (json_str(scan, scan_len, "registered_proof", &name, &nn) == 0 &&
        nn < sizeof ci->proof_name) {
        memcpy(ci->proof_name, name, nn);
        ci->proof_name[nn] = 0;
        ci->proof = fc_seal_proof_by_name(ci->proof_name);
    }
    free(inner);
    return 0;
}

void bench_spec_data_free(bench_spec_data *d) {
    if (d->n_vp && d->vp[0] != d->file) /* else vp[0] is the file itself */
        for (size_t i = 0; i < d->n_vp; i++)
            free(d->vp[i]);
    free(d->file);
    free(d->vp);
    free(d->vp_len);
    memset(d, 0, sizeof *d);
}

/* --vanilla: a JSON array of base64 strings (Go's json.Marshal([][]byte)),
 * else the whole file as one raw proof (as the Rust cuzk-bench does). */
static int load_vanilla(const char *path, bench_spec_data *d) {
    int rc = read_file("--vanilla", path, &d->file, &d->file_len);
    if (rc)
        return rc;
    size_t i = 0;
    while (i < d->file_len && isspace(d->file[i]))
        i++;
    json_t *j = NULL;
    if (i < d->file_len && d->file[i] == '[') {
        json_error_t je;
        j = json_loadb((const char *)d->file, d->file_len, 0, &je);
    }
    size_t n = j && json_is_array(j) ? json_array_size(j) : 0;
    int strings = n > 0;
    for (size_t k = 0; k < n && strings; k++)
        strings = json_is_string(json_array_get(j, k));
    if (!strings) {
        if (j)
            slog(SLOG_INFO, "bench",
                 "not a JSON array of base64 strings; sent as one raw proof file=%s", path);
        json_decref(j);
        d->vp = calloc(1, sizeof *d->vp);
        d->vp_len = calloc(1, sizeof *d->vp_len);
        if (!d->vp || !d->vp_len) {
            fprintf(stderr, "cuzk bench: out of memory\n");
            return 2;
        }
        d->vp[0] = d->file;
        d->vp_len[0] = d->file_len;
        d->n_vp = 1;
        return 0;
    }
    d->vp = calloc(n, sizeof *d->vp);
    d->vp_len = calloc(n, sizeof *d->vp_len);
    if (!d->vp || !d->vp_len) {
        json_decref(j);
        fprintf(stderr, "cuzk bench: out of memory\n");
        return 2;
    }
    d->n_vp = n;
    for (size_t k = 0; k < n; k++) {
        const char *s = json_string_value(json_array_get(j, k));
        size_t sl = json_string_length(json_array_get(j, k)), at;
        const char *why;
        d->vp[k] = malloc(c1_base64_max_decoded(sl) + 1);
        if (d->vp[k] == NULL || c1_base64_decode(d->vp[k], &d->vp_len[k], s, sl, &at, &why) != 0) {
            fprintf(stderr, "cuzk bench: --vanilla %s: entry %zu: %s\n", path, k,
                    d->vp[k] ? "not base64" : "out of memory");
            if (d->vp[k])
                fprintf(stderr, "  (%s at character %zu)\n", why, at);
            json_decref(j);
            return 2;
        }
    }
    json_decref(j);
    return 0;
}

/* Fills spec s (and its data d) for proof kind `kind` from the flags. */
int bench_spec_build(const bench_args *a, int kind, bench_spec *s, bench_spec_data *d) {
    const char *name = bench_kind_names[kind];
    memset(s, 0, sizeof *s);
    s->name = name;
    s->weight = 1;
    client_proof_request *q = &s->req;
    q->kind = kind;
    q->priority = a->priority;
    q->miner_id = a->miner_id;
    q->sector_number = a->sector_num;
    q->partition_index = kind == 3 ? a->partition : 0;
    q->randomness = a->randomness; /* always sent, zeros by default, as cuzk-bench does */
    q->randomness_len = 32;
    if (a->have_cro)
        q->comm_r_old = a->cro, q->comm_r_old_len = 32;
    if (a->have_crn)
        q->comm_r_new = a->crn, q->comm_r_new_len = 32;
    if (a->have_cdn)
        q->comm_d_new = a->cdn, q->comm_d_new_len = 32;
    int have_rp = a->have_rp[kind] || a->have_rp[0];
    uint64_t rp = a->have_rp[kind] ? a->rp[kind] : a->rp[0];
    uint64_t size = 0;
    const char *size_from = "--sector-size";
    char rp_name[80] = "";

    if (kind == 1) {
        if (a->c1 == NULL)
            return bench_bad("%s: --c1 FILE is required (the C1 output)%s", name, "");
        if (a->vanilla[1] || (a->vanilla[0] && a->sub != SUB_STRESS))
            return bench_bad("%s takes --c1, not --vanilla%s", name, "");
        int rc = read_file("--c1", a->c1, &d->file, &d->file_len);
        c1_info ci;
        if (rc || (rc = c1_inspect(a->c1, d->file, d->file_len, &ci)))
            return rc;
        if (!have_rp) {
            if (ci.proof == NULL)
                return bench_bad("--c1 %s: cannot tell its registered proof (\"%s\"); pass "
                                 "--registered-proof N",
                                 a->c1,
                                 ci.proof_name[0] ? ci.proof_name : "registered_proof not found");
            rp = ci.proof->id;
        }
        const fc_seal_proof *p = fc_seal_proof_by_id(rp);
        char num[32];
        snprintf(num, sizeof num, "%llu", (unsigned long long)rp);
        if (p == NULL)
            return bench_bad("porep: --registered-proof %s is not a RegisteredSealProof (0..19)%s",
                             num, "");
        snprintf(rp_name, sizeof rp_name, "%s%s", p->name, have_rp ? "" : ", from the C1");
        if (!a->have_sector_size) {
            size = ci.have_size ? ci.size : p->shape->sector_size;
            size_from = ci.have_size ? "the C1 wrapper's SectorSize" : "the registered proof";
        }
        if (!a->have_sector_num && ci.have_num)
            q->sector_number = ci.num;
        q->vanilla_proof = d->file;
        q->vanilla_proof_len = d->file_len;
    } else {
        const char *path = a->vanilla[kind] ? a->vanilla[kind] : a->vanilla[0];
        if (path == NULL)
            return bench_bad("%s: --vanilla FILE is required (the vanilla proofs)%s", name, "");
        if (kind == 2) {
            if (rp >= FC_SECTOR_SIZES) {
                char num[32];
                snprintf(num, sizeof num, "%llu", (unsigned long long)rp);
                return bench_bad(
                    "snap: --registered-proof %s is not a RegisteredUpdateProof (0..4)%s", num, "");
            }
            snprintf(rp_name, sizeof rp_name, "RegisteredUpdateProof %s",
                     fc_shape_at((unsigned)rp)->size_name);
            size = fc_shape_at((unsigned)rp)->sector_size;
        } else {
            const fc_post_proof *p = fc_post_proof_by_id(rp);
            int winning = kind == 4;
            if (p == NULL || (p->kind == FC_POST_WINNING) != winning) {
                char num[32];
                snprintf(num, sizeof num, "%llu", (unsigned long long)rp);
                fprintf(stderr,
                        "cuzk bench: %s: registered proof %s is %s, not a %s proof; pass "
                        "--registered-proof N (%s)\n",
                        name, num, p ? p->name : "unknown", winning ? "WinningPoSt" : "WindowPoSt",
                        winning ? "0..4, e.g. 3 for 32 GiB" : "5..14, e.g. 13 for 32 GiB V1_1");
                return 2;
            }
            snprintf(rp_name, sizeof rp_name, "%s", p->name);
            size = p->shape->sector_size;
        }
        if (!a->have_sector_size)
            size_from = "the registered proof";
        int rc = load_vanilla(path, d);
        if (rc)
            return rc;
        q->vanilla_proofs = (const uint8_t *const *)d->vp;
        q->vanilla_proof_lens = d->vp_len;
        q->n_vanilla_proofs = d->n_vp;
    }
    q->registered_proof = rp;
    q->sector_size = a->have_sector_size ? a->sector_size : size;
    snprintf(d->desc, sizeof d->desc,
             "%s: registered_proof %llu (%s), sector_size %llu (%s), sector %llu, miner %llu", name,
             (unsigned long long)rp, rp_name, (unsigned long long)q->sector_size, size_from,
             (unsigned long long)q->sector_number, (unsigned long long)q->miner_id);
    return 0;
}
