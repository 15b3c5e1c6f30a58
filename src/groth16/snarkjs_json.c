/* snarkjs JSON for Groth16 on BLS12-381 (snarkjs_json.h). */
#include "groth16/snarkjs_json.h"

#include <jansson.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- decimal <-> integers ------------------------------------------------------- */

/* Decimal of the big-endian integer in[len]. */
static void be_to_dec(char *out, const uint8_t *in, size_t len) {
    uint64_t limbs[6] = {0};
    size_t nl = (len + 7) / 8;
    for (size_t i = 0; i < len; i++)
        limbs[(len - 1 - i) / 8] |= (uint64_t)in[i] << (8 * ((len - 1 - i) % 8));
    char rev[SNARKJS_DEC_MAX];
    size_t nd = 0;
    for (;;) {
        int zero = 1;
        for (size_t i = 0; i < nl; i++)
            zero &= limbs[i] == 0;
        if (zero)
            break;
        /* divide by 10^19, emit 19 digits (or fewer for the last chunk) */
        unsigned __int128 rem = 0;
        for (size_t i = nl; i-- > 0;) {
            unsigned __int128 cur = rem << 64 | limbs[i];
            limbs[i] = (uint64_t)(cur / 10000000000000000000ULL);
            rem = cur % 10000000000000000000ULL;
        }
        uint64_t r = (uint64_t)rem;
        int more = 0;
        for (size_t i = 0; i < nl; i++)
            more |= limbs[i] != 0;
        for (int d = 0; d < 19 && (more || r); d++) {
            rev[nd++] = (char)('0' + r % 10);
            r /= 10;
        }
    }
    if (nd == 0)
        rev[nd++] = '0';
    for (size_t i = 0; i < nd; i++)
        out[i] = rev[nd - 1 - i];
    out[nd] = 0;
}

void snarkjs_fp_to_dec(char out[SNARKJS_DEC_MAX], const fp *a) {
    uint8_t be[FP_BYTES];
    fp_to_bytes_be(be, a);
    be_to_dec(out, be, FP_BYTES);
}

void snarkjs_fr_to_dec(char out[SNARKJS_DEC_MAX], const fr *a) {
    uint8_t le[FR_BYTES], be[FR_BYTES];
    fr_to_bytes_le(le, a);
    for (int i = 0; i < FR_BYTES; i++)
        be[i] = le[FR_BYTES - 1 - i];
    be_to_dec(out, be, FR_BYTES);
}

/* A decimal string (digits only, no sign, at most 120 digits) to big-endian bytes out[len];
 * 0 if it is not one or does not fit. */
static int dec_to_be(uint8_t *out, size_t len, const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n > 120)
        return 0;
    memset(out, 0, len);
    for (size_t k = 0; k < n; k++) {
        if (s[k] < '0' || s[k] > '9')
            return 0;
        unsigned carry = (unsigned)(s[k] - '0');
        for (size_t i = len; i-- > 0;) {
            unsigned v = out[i] * 10u + carry;
            out[i] = (uint8_t)v;
            carry = v >> 8;
        }
        if (carry)
            return 0;
    }
    return 1;
}

/* ---- writing -------------------------------------------------------------------------- */

static json_t *dec_fp(const fp *a) {
    char d[SNARKJS_DEC_MAX];
    snarkjs_fp_to_dec(d, a);
    return json_string(d);
}

static json_t *g1_json(const g1_affine *p) {
    if (g1_affine_is_infinity(p))
        return json_pack("[sss]", "0", "1", "0");
    return json_pack("[ooo]", dec_fp(&p->x), dec_fp(&p->y), json_string("1"));
}

static json_t *g2_json(const g2_affine *p) {
    if (g2_affine_is_infinity(p))
        return json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0");
    return json_pack("[[oo][oo][ss]]", dec_fp(&p->x.c0), dec_fp(&p->x.c1), dec_fp(&p->y.c0),
                     dec_fp(&p->y.c1), "1", "0");
}

static groth16_status dump(json_t *j, const char *path, const char *what, groth16_error *err) {
    if (!j)
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "%s: out of memory", what);
    int rc = json_dump_file(j, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(j);
    if (rc != 0)
        return groth16_fail(err, GROTH16_ERR_IO, "%s: cannot write %s", what, path);
    return GROTH16_OK;
}

groth16_status snarkjs_write_proof(const char *path, const groth16_proof *p, groth16_error *err) {
    json_t *j =
        json_pack("{s:o, s:o, s:o, s:s, s:s}", "pi_a", g1_json(&p->a), "pi_b", g2_json(&p->b),
                  "pi_c", g1_json(&p->c), "protocol", "groth16", "curve", "bls12381");
    return dump(j, path, "proof.json", err);
}

groth16_status snarkjs_write_public(const char *path, const wtns *w, unsigned n_public,
                                    groth16_error *err) {
    if ((size_t)n_public + 1 > w->n)
        return groth16_fail(err, GROTH16_ERR_ARG, "public.json: the witness has only %u values",
                            w->n);
    json_t *j = json_array();
    for (unsigned i = 1; j && i <= n_public; i++) {
        uint8_t be[FR_BYTES];
        char d[SNARKJS_DEC_MAX];
        for (int k = 0; k < FR_BYTES; k++)
            be[k] = w->bytes[(size_t)i * FR_BYTES + FR_BYTES - 1 - k];
        be_to_dec(d, be, FR_BYTES);
        json_array_append_new(j, json_string(d));
    }
    return dump(j, path, "public.json", err);
}

groth16_status snarkjs_write_vk(const char *path, const zkey *z, groth16_error *err) {
    json_t *ic = json_array();
    for (size_t i = 0; ic && i <= z->n_public; i++)
        json_array_append_new(ic, g1_json(&z->ic[i]));
    json_t *j = json_pack("{s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:o}", "protocol", "groth16",
                          "curve", "bls12381", "nPublic", (json_int_t)z->n_public, "vk_alpha_1",
                          g1_json(&z->alpha_g1), "vk_beta_2", g2_json(&z->beta_g2), "vk_gamma_2",
                          g2_json(&z->gamma_g2), "vk_delta_2", g2_json(&z->delta_g2), "IC", ic);
    return dump(j, path, "verification_key.json", err);
}

/* ---- reading -------------------------------------------------------------------------- */

static groth16_status load_json(json_t **j, const char *path, const char *what,
                                groth16_error *err) {
    json_error_t je;
    *j = json_load_file(path, 0, &je);
    if (!*j)
        return groth16_fail(err, GROTH16_ERR_IO, "%s %s: line %d: %s", what, path, je.line,
                            je.text);
    return GROTH16_OK;
}

static int parse_fp(fp *out, const json_t *s) {
    uint8_t be[FP_BYTES];
    return json_is_string(s) && dec_to_be(be, FP_BYTES, json_string_value(s)) &&
           fp_from_bytes_be(out, be);
}

static int is_str(const json_t *s, const char *v) {
    return json_is_string(s) && strcmp(json_string_value(s), v) == 0;
}

static groth16_status parse_g1(g1_affine *p, const json_t *a, const char *what, const char *name,
                               groth16_error *err) {
    if (!json_is_array(a) || json_array_size(a) != 3)
        return groth16_fail(err, GROTH16_ERR_LAYOUT, "%s: %s is not an array of 3 strings", what,
                            name);
    if (is_str(json_array_get(a, 2), "0")) {
        g1_affine_set_infinity(p);
        return GROTH16_OK;
    }
    if (!is_str(json_array_get(a, 2), "1") || !parse_fp(&p->x, json_array_get(a, 0)) ||
        !parse_fp(&p->y, json_array_get(a, 1)))
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "%s: %s: coordinates are not decimal strings < p with z = \"1\"", what,
                            name);
    if (g1_affine_is_infinity(p) || !g1_affine_is_on_curve(p))
        return groth16_fail(err, GROTH16_ERR_POINT, "%s: %s: point is not on the curve", what,
                            name);
    if (!g1_affine_in_subgroup(p))
        return groth16_fail(err, GROTH16_ERR_POINT,
                            "%s: %s: point is not in the prime-order subgroup", what, name);
    return GROTH16_OK;
}

static int parse_fp2(fp2 *out, const json_t *a) {
    return json_is_array(a) && json_array_size(a) == 2 &&
           parse_fp(&out->c0, json_array_get(a, 0)) && parse_fp(&out->c1, json_array_get(a, 1));
}

static groth16_status parse_g2(g2_affine *p, const json_t *a, const char *what, const char *name,
                               groth16_error *err) {
    if (!json_is_array(a) || json_array_size(a) != 3)
        return groth16_fail(err, GROTH16_ERR_LAYOUT, "%s: %s is not an array of 3 pairs", what,
                            name);
    const json_t *z = json_array_get(a, 2);
    if (json_is_array(z) && json_array_size(z) == 2 && is_str(json_array_get(z, 0), "0") &&
        is_str(json_array_get(z, 1), "0")) {
        g2_affine_set_infinity(p);
        return GROTH16_OK;
    }
    if (!json_is_array(z) || json_array_size(z) != 2 || !is_str(json_array_get(z, 0), "1") ||
        !is_str(json_array_get(z, 1), "0") || !parse_fp2(&p->x, json_array_get(a, 0)) ||
        !parse_fp2(&p->y, json_array_get(a, 1)))
        return groth16_fail(err, GROTH16_ERR_LAYOUT,
                            "%s: %s: coordinates are not decimal strings < p with z = [\"1\", "
                            "\"0\"]",
                            what, name);
    if (g2_affine_is_infinity(p) || !g2_affine_is_on_curve(p))
        return groth16_fail(err, GROTH16_ERR_POINT, "%s: %s: point is not on the curve", what,
                            name);
    if (!g2_affine_in_subgroup(p))
        return groth16_fail(err, GROTH16_ERR_POINT,
                            "%s: %s: point is not in the prime-order subgroup", what, name);
    return GROTH16_OK;
}

static groth16_status check_header(const json_t *j, const char *what, groth16_error *err) {
    const json_t *proto = json_object_get(j, "protocol"), *curve = json_object_get(j, "curve");
    if (proto && !is_str(proto, "groth16"))
        return groth16_fail(err, GROTH16_ERR_LAYOUT, "%s: protocol is not \"groth16\"", what);
    if (curve && !is_str(curve, "bls12381"))
        return groth16_fail(err, GROTH16_ERR_LAYOUT, "%s: curve is not \"bls12381\"", what);
    return GROTH16_OK;
}

groth16_status snarkjs_read_proof(groth16_proof *p, const char *path, groth16_error *err) {
    json_t *j;
    groth16_status st = load_json(&j, path, "proof", err);
    if (st != GROTH16_OK)
        return st;
    if (!json_is_object(j))
        st = groth16_fail(err, GROTH16_ERR_LAYOUT, "proof %s: not a JSON object", path);
    else if ((st = check_header(j, "proof", err)) == GROTH16_OK &&
             (st = parse_g1(&p->a, json_object_get(j, "pi_a"), "proof", "pi_a", err)) ==
                 GROTH16_OK &&
             (st = parse_g2(&p->b, json_object_get(j, "pi_b"), "proof", "pi_b", err)) == GROTH16_OK)
        st = parse_g1(&p->c, json_object_get(j, "pi_c"), "proof", "pi_c", err);
    json_decref(j);
    return st;
}

groth16_status snarkjs_read_public(fr **inputs, size_t *n, const char *path, groth16_error *err) {
    *inputs = NULL;
    *n = 0;
    json_t *j;
    groth16_status st = load_json(&j, path, "public", err);
    if (st != GROTH16_OK)
        return st;
    if (!json_is_array(j)) {
        json_decref(j);
        return groth16_fail(err, GROTH16_ERR_LAYOUT, "public %s: not a JSON array", path);
    }
    size_t m = json_array_size(j);
    fr *v = malloc((m ? m : 1) * sizeof(fr));
    if (!v) {
        json_decref(j);
        return groth16_fail(err, GROTH16_ERR_NO_MEMORY, "public: out of memory");
    }
    for (size_t i = 0; i < m; i++) {
        const json_t *s = json_array_get(j, i);
        uint8_t be[FR_BYTES], le[FR_BYTES];
        if (!json_is_string(s) || !dec_to_be(be, FR_BYTES, json_string_value(s))) {
            st = groth16_fail(err, GROTH16_ERR_LAYOUT, "public %s: [%zu] is not a decimal string",
                              path, i);
            break;
        }
        for (int k = 0; k < FR_BYTES; k++)
            le[k] = be[FR_BYTES - 1 - k];
        if (!fr_from_bytes_le(&v[i], le)) {
            st = groth16_fail(err, GROTH16_ERR_LAYOUT, "public %s: [%zu] is >= r", path, i);
            break;
        }
    }
    json_decref(j);
    if (st != GROTH16_OK) {
        free(v);
        return st;
    }
    *inputs = v;
    *n = m;
    return GROTH16_OK;
}

groth16_status snarkjs_read_vk(groth16_vk *vk, const char *path, groth16_error *err) {
    memset(vk, 0, sizeof *vk);
    json_t *j;
    groth16_status st = load_json(&j, path, "vk", err);
    if (st != GROTH16_OK)
        return st;
    const json_t *ic = json_object_get(j, "IC"), *np = json_object_get(j, "nPublic");
    if (!json_is_object(j) || !json_is_array(ic) || json_array_size(ic) < 1) {
        st = groth16_fail(err, GROTH16_ERR_LAYOUT, "vk %s: not an object with an IC array", path);
        goto done;
    }
    if (np && (!json_is_integer(np) || (size_t)json_integer_value(np) + 1 != json_array_size(ic))) {
        st = groth16_fail(err, GROTH16_ERR_LAYOUT, "vk %s: nPublic + 1 != the IC length", path);
        goto done;
    }
    if ((st = check_header(j, "vk", err)) != GROTH16_OK ||
        (st = parse_g1(&vk->alpha_g1, json_object_get(j, "vk_alpha_1"), "vk", "vk_alpha_1", err)) !=
            GROTH16_OK ||
        (st = parse_g2(&vk->beta_g2, json_object_get(j, "vk_beta_2"), "vk", "vk_beta_2", err)) !=
            GROTH16_OK ||
        (st = parse_g2(&vk->gamma_g2, json_object_get(j, "vk_gamma_2"), "vk", "vk_gamma_2", err)) !=
            GROTH16_OK ||
        (st = parse_g2(&vk->delta_g2, json_object_get(j, "vk_delta_2"), "vk", "vk_delta_2", err)) !=
            GROTH16_OK)
        goto done;
    g1_affine_set_infinity(&vk->beta_g1);
    g1_affine_set_infinity(&vk->delta_g1);
    vk->n_ic = json_array_size(ic);
    vk->ic = malloc(vk->n_ic * sizeof(g1_affine));
    if (!vk->ic) {
        st = groth16_fail(err, GROTH16_ERR_NO_MEMORY, "vk: out of memory");
        goto done;
    }
    for (size_t i = 0; i < vk->n_ic; i++) {
        char name[32];
        snprintf(name, sizeof name, "IC[%zu]", i);
        if ((st = parse_g1(&vk->ic[i], json_array_get(ic, i), "vk", name, err)) != GROTH16_OK)
            goto done;
    }
done:
    json_decref(j);
    if (st != GROTH16_OK)
        groth16_vk_free(vk);
    return st;
}
