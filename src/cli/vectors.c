/* The JSON Lines vector runner behind `cuzk selftest --vectors FILE`.
 *
 * Every op decodes its inputs with the library's own strict decoders, so an
 * input that a decoder rejects (wrong length, >= modulus, bad flags, off the
 * curve, outside the subgroup, inverse of zero) makes the op "reject", which
 * is what an "err": true case expects. */
#include "cli/vectors.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/encode.h"
#include "curve/pairing.h"
#include "msm/msm.h"
#include "ntt/ntt.h"
#include "util/hex.h"

#define MAX_IN 4096
#define MAX_POINT_BYTES 192

typedef struct {
    const uint8_t *b;
    size_t n;
} blob;

/* An op writes its output and returns 1, or returns 0 to reject.  Most ops
 * write one value; the NTT ops write n values of 32 bytes, back to back.  The
 * output buffer holds MAX_POINT_BYTES + 32 * nin bytes. */
typedef int (*op_fn)(const blob *in, size_t nin, uint8_t *out, size_t *outlen);

static int get_fp(fp *r, const blob *b) { return b->n == FP_BYTES && fp_from_bytes_be(r, b->b); }
static int get_fr(fr *r, const blob *b) { return b->n == FR_BYTES && fr_from_bytes_le(r, b->b); }
static int get_fp2(fp2 *r, const blob *b) {
    return b->n == FP2_BYTES && fp2_from_bytes_be(r, b->b);
}
static int get_g1(g1_jac *r, const blob *b) {
    g1_affine a;
    if (b->n != G1_UNCOMPRESSED_BYTES || g1_from_uncompressed(&a, b->b) != CURVE_OK)
        return 0;
    g1_jac_from_affine(r, &a);
    return 1;
}
static int get_g2(g2_jac *r, const blob *b) {
    g2_affine a;
    if (b->n != G2_UNCOMPRESSED_BYTES || g2_from_uncompressed(&a, b->b) != CURVE_OK)
        return 0;
    g2_jac_from_affine(r, &a);
    return 1;
}
static int put_g1(uint8_t *out, size_t *len, const g1_jac *p) {
    g1_affine a;
    g1_jac_to_affine(&a, p);
    g1_to_uncompressed(out, &a);
    *len = G1_UNCOMPRESSED_BYTES;
    return 1;
}
static int put_g2(uint8_t *out, size_t *len, const g2_jac *p) {
    g2_affine a;
    g2_jac_to_affine(&a, p);
    g2_to_uncompressed(out, &a);
    *len = G2_UNCOMPRESSED_BYTES;
    return 1;
}

/* ---- field ops: FIELD_BINOP(name, type, get, op, put-size) ---------------- */
#define FIELD_OP2(NAME, T, GET, OP, PUT, SIZE)                               \
    static int NAME(const blob *in, size_t nin, uint8_t *out, size_t *len) { \
        T a, b;                                                              \
        if (nin != 2 || !GET(&a, &in[0]) || !GET(&b, &in[1]))                \
            return 0;                                                        \
        OP(&a, &a, &b);                                                      \
        PUT(out, &a);                                                        \
        *len = SIZE;                                                         \
        return 1;                                                            \
    }
#define FIELD_OP1(NAME, T, GET, OP, PUT, SIZE, REJECT_ZERO)                  \
    static int NAME(const blob *in, size_t nin, uint8_t *out, size_t *len) { \
        T a;                                                                 \
        if (nin != 1 || !GET(&a, &in[0]) || (REJECT_ZERO(&a)))               \
            return 0;                                                        \
        OP(&a, &a);                                                          \
        PUT(out, &a);                                                        \
        *len = SIZE;                                                         \
        return 1;                                                            \
    }
#define NEVER(x) ((void)(x), 0)

FIELD_OP2(op_fp_add, fp, get_fp, fp_add, fp_to_bytes_be, FP_BYTES)
FIELD_OP2(op_fp_sub, fp, get_fp, fp_sub, fp_to_bytes_be, FP_BYTES)
FIELD_OP2(op_fp_mul, fp, get_fp, fp_mul, fp_to_bytes_be, FP_BYTES)
FIELD_OP1(op_fp_sqr, fp, get_fp, fp_sqr, fp_to_bytes_be, FP_BYTES, NEVER)
FIELD_OP1(op_fp_inv, fp, get_fp, fp_inv, fp_to_bytes_be, FP_BYTES, fp_is_zero)
FIELD_OP2(op_fr_add, fr, get_fr, fr_add, fr_to_bytes_le, FR_BYTES)
FIELD_OP2(op_fr_sub, fr, get_fr, fr_sub, fr_to_bytes_le, FR_BYTES)
FIELD_OP2(op_fr_mul, fr, get_fr, fr_mul, fr_to_bytes_le, FR_BYTES)
FIELD_OP1(op_fr_inv, fr, get_fr, fr_inv, fr_to_bytes_le, FR_BYTES, fr_is_zero)
FIELD_OP2(op_fp2_mul, fp2, get_fp2, fp2_mul, fp2_to_bytes_be, FP2_BYTES)
FIELD_OP1(op_fp2_inv, fp2, get_fp2, fp2_inv, fp2_to_bytes_be, FP2_BYTES, fp2_is_zero)

/* ---- group ops, written once per group ------------------------------------- */
#define GROUP_OPS(G)                                                                  \
    static int op_##G##_add(const blob *in, size_t nin, uint8_t *out, size_t *len) {  \
        G##_jac a, b;                                                                 \
        if (nin != 2 || !get_##G(&a, &in[0]) || !get_##G(&b, &in[1]))                 \
            return 0;                                                                 \
        G##_jac_add_vartime(&a, &a, &b);                                              \
        return put_##G(out, len, &a);                                                 \
    }                                                                                 \
    static int op_##G##_dbl(const blob *in, size_t nin, uint8_t *out, size_t *len) {  \
        G##_jac a;                                                                    \
        if (nin != 1 || !get_##G(&a, &in[0]))                                         \
            return 0;                                                                 \
        G##_jac_dbl(&a, &a);                                                          \
        return put_##G(out, len, &a);                                                 \
    }                                                                                 \
    static int op_##G##_neg(const blob *in, size_t nin, uint8_t *out, size_t *len) {  \
        G##_jac a;                                                                    \
        if (nin != 1 || !get_##G(&a, &in[0]))                                         \
            return 0;                                                                 \
        G##_jac_neg(&a, &a);                                                          \
        return put_##G(out, len, &a);                                                 \
    }                                                                                 \
    static int op_##G##_mul(const blob *in, size_t nin, uint8_t *out, size_t *len) {  \
        G##_jac a;                                                                    \
        fr k;                                                                         \
        if (nin != 2 || !get_##G(&a, &in[0]) || in[1].n != FR_BYTES)                  \
            return 0;                                                                 \
        fr_from_bytes_le_reduce(&k, in[1].b); /* any 256-bit scalar, reduced mod r */ \
        G##_jac_mul_vartime(&a, &a, &k);                                              \
        return put_##G(out, len, &a);                                                 \
    }

GROUP_OPS(g1)
GROUP_OPS(g2)

/* ---- encodings ------------------------------------------------------------- */
#define CODEC_OPS(G, UP)                                                                    \
    static int op_##G##_compress(const blob *in, size_t nin, uint8_t *out, size_t *len) {   \
        G##_affine a;                                                                       \
        if (nin != 1 || in[0].n != UP##_UNCOMPRESSED_BYTES ||                               \
            G##_from_uncompressed(&a, in[0].b) != CURVE_OK)                                 \
            return 0;                                                                       \
        G##_to_compressed(out, &a);                                                         \
        *len = UP##_COMPRESSED_BYTES;                                                       \
        return 1;                                                                           \
    }                                                                                       \
    static int op_##G##_decompress(const blob *in, size_t nin, uint8_t *out, size_t *len) { \
        G##_affine a;                                                                       \
        if (nin != 1 || in[0].n != UP##_COMPRESSED_BYTES ||                                 \
            G##_from_compressed(&a, in[0].b) != CURVE_OK)                                   \
            return 0;                                                                       \
        G##_to_uncompressed(out, &a);                                                       \
        *len = UP##_UNCOMPRESSED_BYTES;                                                     \
        return 1;                                                                           \
    }                                                                                       \
    static int op_##G##_decode_uncompressed(const blob *in, size_t nin, uint8_t *out,       \
                                            size_t *len) {                                  \
        G##_affine a;                                                                       \
        if (nin != 1 || in[0].n != UP##_UNCOMPRESSED_BYTES ||                               \
            G##_from_uncompressed(&a, in[0].b) != CURVE_OK)                                 \
            return 0;                                                                       \
        G##_to_uncompressed(out, &a);                                                       \
        *len = UP##_UNCOMPRESSED_BYTES;                                                     \
        return 1;                                                                           \
    }

CODEC_OPS(g1, G1)
CODEC_OPS(g2, G2)

/* ---- MSM: n points then n scalars (reduced mod r) ---------------------------- */
#define MSM_OP(G, UP)                                                                     \
    static int op_##G##_msm(const blob *in, size_t nin, uint8_t *out, size_t *len) {      \
        if (nin % 2)                                                                      \
            return 0;                                                                     \
        size_t n = nin / 2;                                                               \
        G##_affine *pts = malloc((n ? n : 1) * sizeof *pts);                              \
        uint8_t *sc = malloc(32 * (n ? n : 1));                                           \
        int ok = pts && sc;                                                               \
        for (size_t i = 0; ok && i < n; i++) {                                            \
            ok = in[i].n == UP##_UNCOMPRESSED_BYTES && in[n + i].n == MSM_SCALAR_BYTES && \
                 G##_from_uncompressed(&pts[i], in[i].b) == CURVE_OK;                     \
            if (ok) { /* any 256-bit scalar, reduced mod r (docs/VECTORS.md) */           \
                fr k;                                                                     \
                fr_from_bytes_le_reduce(&k, in[n + i].b);                                 \
                fr_to_bytes_le(sc + 32 * i, &k);                                          \
            }                                                                             \
        }                                                                                 \
        G##_jac sum;                                                                      \
        msm_config cfg = msm_config_default(2);                                           \
        ok = ok && msm_##G(&sum, pts, sc, n, &cfg, NULL, NULL) == MSM_OK;                 \
        if (ok)                                                                           \
            put_##G(out, len, &sum);                                                      \
        free(pts);                                                                        \
        free(sc);                                                                         \
        return ok;                                                                        \
    }

MSM_OP(g1, G1)
MSM_OP(g2, G2)

/* ---- NTT over Fr: in place on the decoded values ---------------------------- */
typedef enum { NTT_OP_FORWARD, NTT_OP_INVERSE, NTT_OP_COSET } ntt_op_kind;

static int run_ntt(const blob *in, size_t nin, uint8_t *out, size_t *len, ntt_op_kind kind) {
    fr g;
    size_t skip = kind == NTT_OP_COSET;
    if (nin <= skip || (kind == NTT_OP_COSET && (!get_fr(&g, &in[0]) || fr_is_zero(&g))))
        return 0;
    size_t n = nin - skip;
    if (n & (n - 1))
        return 0; /* not a power of two */
    fr *a = malloc(n * sizeof *a);
    int ok = a != NULL;
    for (size_t i = 0; ok && i < n; i++)
        ok = get_fr(&a[i], &in[skip + i]);
    if (ok && n > 1) { /* a transform of size 1 is the identity */
        unsigned log_n = 0;
        while (((size_t)1 << log_n) < n)
            log_n++;
        ntt_domain d;
        ok = ntt_domain_init(&d, log_n, 2) == NTT_OK;
        if (ok && kind == NTT_OP_FORWARD)
            ok = ntt_forward(a, &d, NTT_NN, 2) == NTT_OK;
        else if (ok && kind == NTT_OP_INVERSE)
            ok = ntt_inverse(a, &d, NTT_NN, 2) == NTT_OK;
        else if (ok)
            ok = ntt_coset_forward(a, &d, &g, NTT_NN, 2) == NTT_OK;
        ntt_domain_destroy(&d);
    }
    for (size_t i = 0; ok && i < n; i++)
        fr_to_bytes_le(out + FR_BYTES * i, &a[i]);
    *len = n * FR_BYTES;
    free(a);
    return ok;
}

static int op_fr_ntt(const blob *in, size_t nin, uint8_t *out, size_t *len) {
    return run_ntt(in, nin, out, len, NTT_OP_FORWARD);
}
static int op_fr_intt(const blob *in, size_t nin, uint8_t *out, size_t *len) {
    return run_ntt(in, nin, out, len, NTT_OP_INVERSE);
}
static int op_fr_coset_ntt(const blob *in, size_t nin, uint8_t *out, size_t *len) {
    return run_ntt(in, nin, out, len, NTT_OP_COSET);
}

static int op_pairing_check(const blob *in, size_t nin, uint8_t *out, size_t *len) {
    if (nin % 2)
        return 0;
    size_t n = nin / 2;
    g1_affine *p = malloc((n ? n : 1) * sizeof *p);
    g2_affine *q = malloc((n ? n : 1) * sizeof *q);
    int ok = p && q;
    for (size_t i = 0; ok && i < n; i++)
        ok = in[2 * i].n == G1_UNCOMPRESSED_BYTES && in[2 * i + 1].n == G2_UNCOMPRESSED_BYTES &&
             g1_from_uncompressed(&p[i], in[2 * i].b) == CURVE_OK &&
             g2_from_uncompressed(&q[i], in[2 * i + 1].b) == CURVE_OK;
    if (ok) {
        out[0] = (uint8_t)pairing_product_is_one(p, q, n);
        *len = 1;
    }
    free(p);
    free(q);
    return ok;
}

static const struct {
    const char *name;
    op_fn fn;
} OPS[] = {
    {"fp_add", op_fp_add},
    {"fp_sub", op_fp_sub},
    {"fp_mul", op_fp_mul},
    {"fp_sqr", op_fp_sqr},
    {"fp_inv", op_fp_inv},
    {"fr_add", op_fr_add},
    {"fr_sub", op_fr_sub},
    {"fr_mul", op_fr_mul},
    {"fr_inv", op_fr_inv},
    {"fp2_mul", op_fp2_mul},
    {"fp2_inv", op_fp2_inv},
    {"g1_add", op_g1_add},
    {"g1_dbl", op_g1_dbl},
    {"g1_neg", op_g1_neg},
    {"g1_mul", op_g1_mul},
    {"g2_add", op_g2_add},
    {"g2_dbl", op_g2_dbl},
    {"g2_neg", op_g2_neg},
    {"g2_mul", op_g2_mul},
    {"g1_compress", op_g1_compress},
    {"g1_decompress", op_g1_decompress},
    {"g2_compress", op_g2_compress},
    {"g2_decompress", op_g2_decompress},
    {"g1_decode_uncompressed", op_g1_decode_uncompressed},
    {"g2_decode_uncompressed", op_g2_decode_uncompressed},
    {"pairing_check", op_pairing_check},
    {"g1_msm", op_g1_msm},
    {"g2_msm", op_g2_msm},
    {"fr_ntt", op_fr_ntt},
    {"fr_intt", op_fr_intt},
    {"fr_coset_ntt", op_fr_coset_ntt},
};
#define N_OPS (sizeof OPS / sizeof OPS[0])

const char *const *vectors_op_names(void) {
    static const char *names[N_OPS + 1];
    for (size_t i = 0; i < N_OPS; i++)
        names[i] = OPS[i].name;
    return names;
}

/* Decodes a JSON array of hex strings into blobs backed by one buffer. */
static int read_hex_array(json_t *arr, blob *out, size_t *n, uint8_t **storage, char *why,
                          size_t whylen, const char *key) {
    if (!json_is_array(arr)) {
        snprintf(why, whylen, "\"%s\" is not an array", key);
        return 0;
    }
    size_t count = json_array_size(arr), total = 0;
    if (count > MAX_IN) {
        snprintf(why, whylen, "\"%s\" has %zu entries (max %d)", key, count, MAX_IN);
        return 0;
    }
    for (size_t i = 0; i < count; i++) {
        const char *s = json_string_value(json_array_get(arr, i));
        if (!s) {
            snprintf(why, whylen, "\"%s\"[%zu] is not a string", key, i);
            return 0;
        }
        total += strlen(s) / 2 + 1;
    }
    *storage = malloc(total + 1);
    if (!*storage) {
        snprintf(why, whylen, "out of memory");
        return 0;
    }
    size_t off = 0;
    for (size_t i = 0; i < count; i++) {
        const char *s = json_string_value(json_array_get(arr, i));
        long got = hex_decode(*storage + off, total - off, s);
        if (got < 0) {
            snprintf(why, whylen, "\"%s\"[%zu] is not even-length hex", key, i);
            return 0;
        }
        out[i].b = *storage + off;
        out[i].n = (size_t)got;
        off += (size_t)got;
    }
    *n = count;
    return 1;
}

vector_result vectors_check_line(const char *line, char *why, size_t whylen) {
    json_error_t jerr;
    json_t *root = json_loads(line, 0, &jerr);
    vector_result res = VECTOR_MALFORMED;
    uint8_t *in_store = NULL, *out_store = NULL;
    blob *in = calloc(MAX_IN, sizeof *in), *want = calloc(MAX_IN, sizeof *want);
    uint8_t *got = NULL;
    size_t nin = 0, nwant = 0;
    if (!root || !json_is_object(root)) {
        snprintf(why, whylen, "not a JSON object: %s", root ? "wrong type" : jerr.text);
        goto done;
    }
    const char *name = json_string_value(json_object_get(root, "op"));
    json_t *err = json_object_get(root, "err"), *outs = json_object_get(root, "out");
    op_fn fn = NULL;
    for (size_t i = 0; name && i < N_OPS; i++)
        if (strcmp(OPS[i].name, name) == 0)
            fn = OPS[i].fn;
    if (!fn) {
        snprintf(why, whylen, "unknown op \"%s\"", name ? name : "(missing)");
        goto done;
    }
    int expect_err = json_is_true(err);
    if (expect_err == (outs != NULL) || (err && !json_is_boolean(err)) || (err && !expect_err)) {
        snprintf(why, whylen, "%s: need exactly one of \"out\" or \"err\": true", name);
        goto done;
    }
    if (!in || !want ||
        !read_hex_array(json_object_get(root, "in"), in, &nin, &in_store, why, whylen, "in"))
        goto done;
    size_t want_len = 0;
    if (!expect_err) {
        if (!read_hex_array(outs, want, &nwant, &out_store, why, whylen, "out"))
            goto done;
        if (nwant == 0) {
            snprintf(why, whylen, "%s: \"out\" is empty", name);
            goto done;
        }
        for (size_t i = 0; i < nwant; i++) {
            if (want[i].n != want[0].n) {
                snprintf(why, whylen, "%s: \"out\" values differ in length", name);
                goto done;
            }
            want_len += want[i].n;
        }
    }
    got = malloc(MAX_POINT_BYTES + 32 * nin);
    if (!got) {
        snprintf(why, whylen, "out of memory");
        goto done;
    }
    size_t got_len = 0;
    int accepted = fn(in, nin, got, &got_len);
    if (expect_err) {
        res = accepted ? VECTOR_FAIL : VECTOR_PASS;
        if (accepted)
            snprintf(why, whylen, "%s: input accepted, expected rejection", name);
    } else if (!accepted) {
        res = VECTOR_FAIL;
        snprintf(why, whylen, "%s: input rejected, expected a result", name);
    } else if (got_len != want_len || memcmp(got, want[0].b, got_len) != 0) {
        /* want's values sit back to back in out_store, so one compare does */
        char hex[2 * MAX_POINT_BYTES + 1];
        size_t show = got_len < MAX_POINT_BYTES ? got_len : MAX_POINT_BYTES;
        hex_encode(hex, got, show);
        res = VECTOR_FAIL;
        snprintf(why, whylen, "%s: got %zu bytes, expected %zu: %s%s", name, got_len, want_len, hex,
                 show < got_len ? "..." : "");
    } else {
        res = VECTOR_PASS;
    }
done:
    json_decref(root);
    free(got);
    free(want);
    free(in);
    free(in_store);
    free(out_store);
    return res;
}

int vectors_check_file(const char *path, int verbose) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cuzk selftest: cannot open %s\n", path);
        return 2;
    }
    char *line = NULL, why[600];
    size_t cap = 0, lineno = 0, passed = 0, failed = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (len == 0)
            continue;
        vector_result r = vectors_check_line(line, why, sizeof why);
        if (r == VECTOR_PASS) {
            passed++;
            if (verbose)
                printf("%s:%zu: pass\n", path, lineno);
        } else {
            failed++;
            printf("%s:%zu: %s: %s\n", path, lineno, r == VECTOR_FAIL ? "FAIL" : "MALFORMED", why);
        }
    }
    free(line);
    fclose(f);
    printf("%zu passed, %zu failed\n", passed, failed);
    return failed || passed == 0 ? 1 : 0;
}
