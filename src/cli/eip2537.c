/* EIP-2537 vectors: decode with the precompile's rules, compute with cuzk,
 * compare.  Subgroup checks follow the EIP: required for mul, msm and
 * pairing inputs, not for add. */
#include "cli/eip2537.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/encode.h"
#include "curve/pairing.h"
#include "util/hex.h"

enum { EIP_FP = 64, EIP_G1 = 128, EIP_G2 = 256, EIP_SCALAR = 32 };

static int eip_fp(fp *r, const uint8_t *in) {
    for (int i = 0; i < 16; i++)
        if (in[i])
            return 0; /* the 16 padding bytes must be zero */
    return fp_from_bytes_be(r, in + 16);
}

static int all_zero(const uint8_t *b, size_t n) {
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= b[i];
    return acc == 0;
}

static int eip_g1(g1_affine *r, const uint8_t *in, int subgroup) {
    if (!eip_fp(&r->x, in) || !eip_fp(&r->y, in + EIP_FP))
        return 0;
    if (all_zero(in, EIP_G1))
        return 1; /* infinity: (0, 0), our affine convention too */
    return g1_affine_is_on_curve(r) && (!subgroup || g1_affine_in_subgroup(r));
}

static int eip_g2(g2_affine *r, const uint8_t *in, int subgroup) {
    if (!eip_fp(&r->x.c0, in) || !eip_fp(&r->x.c1, in + EIP_FP) ||
        !eip_fp(&r->y.c0, in + 2 * EIP_FP) || !eip_fp(&r->y.c1, in + 3 * EIP_FP))
        return 0;
    if (all_zero(in, EIP_G2))
        return 1;
    return g2_affine_is_on_curve(r) && (!subgroup || g2_affine_in_subgroup(r));
}

static void put_fp(uint8_t *out, const fp *a) {
    memset(out, 0, 16);
    fp_to_bytes_be(out + 16, a);
}

static void put_g1(uint8_t *out, const g1_jac *p) {
    g1_affine a;
    g1_jac_to_affine(&a, p);
    put_fp(out, &a.x);
    put_fp(out + EIP_FP, &a.y);
}

static void put_g2(uint8_t *out, const g2_jac *p) {
    g2_affine a;
    g2_jac_to_affine(&a, p);
    put_fp(out, &a.x.c0);
    put_fp(out + EIP_FP, &a.x.c1);
    put_fp(out + 2 * EIP_FP, &a.y.c0);
    put_fp(out + 3 * EIP_FP, &a.y.c1);
}

static void scalar_be(uint64_t k[4], const uint8_t *in) {
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++)
            w = (w << 8) | in[(3 - i) * 8 + j];
        k[i] = w;
    }
}

typedef enum { OP_ADD_G1, OP_ADD_G2, OP_MSM_G1, OP_MSM_G2, OP_PAIRING, OP_UNSUPPORTED } eip_op;

/* Returns the output length, or 0 when the precompile must reject the input. */
static size_t run(eip_op op, const uint8_t *in, size_t n, uint8_t *out) {
    switch (op) {
    case OP_ADD_G1: {
        g1_affine a, b;
        g1_jac s;
        if (n != 2 * EIP_G1 || !eip_g1(&a, in, 0) || !eip_g1(&b, in + EIP_G1, 0))
            return 0;
        g1_jac_from_affine(&s, &a);
        g1_jac_add_affine_vartime(&s, &s, &b);
        put_g1(out, &s);
        return EIP_G1;
    }
    case OP_ADD_G2: {
        g2_affine a, b;
        g2_jac s;
        if (n != 2 * EIP_G2 || !eip_g2(&a, in, 0) || !eip_g2(&b, in + EIP_G2, 0))
            return 0;
        g2_jac_from_affine(&s, &a);
        g2_jac_add_affine_vartime(&s, &s, &b);
        put_g2(out, &s);
        return EIP_G2;
    }
    case OP_MSM_G1: { /* mul is msm with one pair */
        size_t item = EIP_G1 + EIP_SCALAR;
        g1_jac acc, t;
        g1_jac_set_infinity(&acc);
        if (n == 0 || n % item)
            return 0;
        for (size_t i = 0; i < n / item; i++) {
            g1_affine a;
            uint64_t k[4];
            if (!eip_g1(&a, in + i * item, 1))
                return 0;
            scalar_be(k, in + i * item + EIP_G1);
            g1_jac_from_affine(&t, &a);
            g1_jac_mul_raw_vartime(&t, &t, k, 4);
            g1_jac_add_vartime(&acc, &acc, &t);
        }
        put_g1(out, &acc);
        return EIP_G1;
    }
    case OP_MSM_G2: {
        size_t item = EIP_G2 + EIP_SCALAR;
        g2_jac acc, t;
        g2_jac_set_infinity(&acc);
        if (n == 0 || n % item)
            return 0;
        for (size_t i = 0; i < n / item; i++) {
            g2_affine a;
            uint64_t k[4];
            if (!eip_g2(&a, in + i * item, 1))
                return 0;
            scalar_be(k, in + i * item + EIP_G2);
            g2_jac_from_affine(&t, &a);
            g2_jac_mul_raw_vartime(&t, &t, k, 4);
            g2_jac_add_vartime(&acc, &acc, &t);
        }
        put_g2(out, &acc);
        return EIP_G2;
    }
    case OP_PAIRING: {
        size_t item = EIP_G1 + EIP_G2, k = n / item;
        if (n == 0 || n % item)
            return 0;
        g1_affine *p = malloc(k * sizeof *p);
        g2_affine *q = malloc(k * sizeof *q);
        int ok = p && q;
        for (size_t i = 0; ok && i < k; i++)
            ok = eip_g1(&p[i], in + i * item, 1) && eip_g2(&q[i], in + i * item + EIP_G1, 1);
        if (ok) {
            memset(out, 0, 32);
            out[31] = (uint8_t)pairing_product_is_one(p, q, k);
        }
        free(p);
        free(q);
        return ok ? 32 : 0;
    }
    case OP_UNSUPPORTED:
        break;
    }
    return 0;
}

static eip_op op_from_path(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strncmp(base, "fail-", 5) == 0)
        base += 5;
    static const struct {
        const char *prefix;
        eip_op op;
    } MAP[] = {{"add_G1", OP_ADD_G1},        {"add_G2", OP_ADD_G2}, {"mul_G1", OP_MSM_G1},
               {"mul_G2", OP_MSM_G2},        {"msm_G1", OP_MSM_G1}, {"msm_G2", OP_MSM_G2},
               {"pairing_check", OP_PAIRING}};
    for (size_t i = 0; i < sizeof MAP / sizeof MAP[0]; i++)
        if (strncmp(base, MAP[i].prefix, strlen(MAP[i].prefix)) == 0)
            return MAP[i].op;
    return OP_UNSUPPORTED;
}

int eip2537_check_file(const char *path) {
    eip_op op = op_from_path(path);
    if (op == OP_UNSUPPORTED) {
        fprintf(stderr,
                "cuzk selftest: %s: unsupported EIP-2537 operation (supported: add, mul, msm, "
                "pairing_check; map-to-curve is not part of Groth16)\n",
                path);
        return 2;
    }
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!json_is_array(root)) {
        fprintf(stderr, "cuzk selftest: %s: not a JSON array (%s)\n", path, jerr.text);
        json_decref(root);
        return 2;
    }
    size_t passed = 0, failed = 0, idx;
    json_t *c;
    json_array_foreach(root, idx, c) {
        const char *name = json_string_value(json_object_get(c, "Name"));
        const char *input = json_string_value(json_object_get(c, "Input"));
        const char *expected = json_string_value(json_object_get(c, "Expected"));
        int must_fail = json_object_get(c, "ExpectedError") != NULL;
        size_t in_cap = input ? strlen(input) / 2 + 1 : 1;
        uint8_t *in = malloc(in_cap), out[EIP_G2], want[EIP_G2];
        long n = input && in ? hex_decode(in, in_cap, input) : -1;
        const char *why = NULL;
        if (n < 0 || (!must_fail && !expected)) {
            why = "malformed case";
        } else {
            size_t got = run(op, in, (size_t)n, out);
            if (must_fail) {
                if (got)
                    why = "accepted an input the precompile rejects";
            } else {
                long wn = hex_decode(want, sizeof want, expected);
                if (!got)
                    why = "rejected a valid input";
                else if (wn != (long)got || memcmp(out, want, got) != 0)
                    why = "wrong result";
            }
        }
        if (why) {
            failed++;
            printf("%s[%zu] %s: FAIL: %s\n", path, idx, name ? name : "?", why);
        } else {
            passed++;
        }
        free(in);
    }
    json_decref(root);
    printf("%zu passed, %zu failed\n", passed, failed);
    return failed || passed == 0 ? 1 : 0;
}
