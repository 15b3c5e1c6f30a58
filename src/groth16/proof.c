/* Proof codec (see proof.h). */
#include "groth16/proof.h"

#include <stdio.h>

#include "curve/encode.h"

enum { OFF_A = 0, OFF_B = 48, OFF_C = 144 };

void groth16_proof_write(uint8_t out[GROTH16_PROOF_BYTES], const groth16_proof *p) {
    g1_to_compressed(out + OFF_A, &p->a);
    g2_to_compressed(out + OFF_B, &p->b);
    g1_to_compressed(out + OFF_C, &p->c);
}

/* One proof at byte `base` of its buffer; `who` is "proof" or "proof[i]". */
static groth16_status read_one(groth16_proof *p, const uint8_t *in, size_t base, const char *who,
                               groth16_error *err) {
    struct {
        const char *name;
        size_t off;
        curve_err e;
        int inf;
    } part[3] = {{"A", OFF_A, 0, 0}, {"B", OFF_B, 0, 0}, {"C", OFF_C, 0, 0}};
    groth16_proof tmp;
    part[0].e = g1_from_compressed(&tmp.a, in + OFF_A);
    part[0].inf = part[0].e == CURVE_OK && g1_affine_is_infinity(&tmp.a);
    part[1].e = g2_from_compressed(&tmp.b, in + OFF_B);
    part[1].inf = part[1].e == CURVE_OK && g2_affine_is_infinity(&tmp.b);
    part[2].e = g1_from_compressed(&tmp.c, in + OFF_C);
    part[2].inf = part[2].e == CURVE_OK && g1_affine_is_infinity(&tmp.c);
    for (int i = 0; i < 3; i++) {
        if (part[i].e != CURVE_OK)
            return groth16_fail(err, GROTH16_ERR_POINT, "%s: %s at offset %zu: %s", who,
                                part[i].name, base + part[i].off, curve_err_str(part[i].e));
        if (part[i].inf)
            return groth16_fail(err, GROTH16_ERR_INFINITY,
                                "%s: %s at offset %zu: point at infinity", who, part[i].name,
                                base + part[i].off);
    }
    *p = tmp;
    return GROTH16_OK;
}

groth16_status groth16_proof_read(groth16_proof *p, const uint8_t in[GROTH16_PROOF_BYTES],
                                  groth16_error *err) {
    return read_one(p, in, 0, "proof", err);
}

groth16_status groth16_proof_read_many(groth16_proof *out, size_t cap, size_t *n, const uint8_t *in,
                                       size_t len, groth16_error *err) {
    *n = 0;
    if (len % GROTH16_PROOF_BYTES != 0)
        return groth16_fail(err, GROTH16_ERR_TRUNCATED,
                            "proofs: %zu bytes is not a multiple of %d (%zu whole proofs and %zu "
                            "bytes over)",
                            len, GROTH16_PROOF_BYTES, len / GROTH16_PROOF_BYTES,
                            len % GROTH16_PROOF_BYTES);
    size_t count = len / GROTH16_PROOF_BYTES;
    if (count > cap)
        return groth16_fail(err, GROTH16_ERR_ARG, "proofs: %zu proofs, room for %zu", count, cap);
    for (size_t i = 0; i < count; i++) {
        char who[32];
        snprintf(who, sizeof who, "proof[%zu]", i);
        groth16_status s =
            read_one(&out[i], in + i * GROTH16_PROOF_BYTES, i * GROTH16_PROOF_BYTES, who, err);
        if (s != GROTH16_OK)
            return s;
    }
    *n = count;
    return GROTH16_OK;
}
