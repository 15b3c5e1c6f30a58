/* UInt32: see uint32.h. */
#include "gadget/uint32.h"

#include <stdlib.h>

/* The word's value from its bits, when every bit has one. */
static void set_value_from_bits(gu32 *r) {
    uint32_t v = 0;
    r->has_value = 1;
    for (int i = 0; i < 32; i++) {
        int b = gbool_value(r->bits[i]);
        if (b < 0) {
            r->has_value = 0;
            r->value = 0;
            return;
        }
        v |= (uint32_t)b << i;
    }
    r->value = v;
}

gu32 gu32_constant(uint32_t v) {
    gu32 r;
    for (int i = 0; i < 32; i++)
        r.bits[i] = gbool_const((v >> i) & 1);
    r.has_value = 1;
    r.value = v;
    return r;
}

gu32 gu32_alloc(r1cs_cs *cs, const uint32_t *value) {
    gu32 r;
    for (int i = 0; i < 32; i++) {
        r1cs_push(cs, "allocated bit %d", i);
        r.bits[i] = gbool_alloc(cs, value ? (int)((*value >> i) & 1) : -1);
        r1cs_pop(cs);
    }
    r.has_value = value != NULL;
    r.value = value ? *value : 0;
    return r;
}

gu32 gu32_from_bits_be(const gbool bits[32]) {
    gu32 r;
    for (int i = 0; i < 32; i++)
        r.bits[i] = bits[31 - i];
    set_value_from_bits(&r);
    return r;
}

void gu32_to_bits_be(gbool out[32], const gu32 *a) {
    for (int i = 0; i < 32; i++)
        out[i] = a->bits[31 - i];
}

gu32 gu32_rotr(const gu32 *a, unsigned by) {
    by %= 32;
    gu32 r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = a->bits[(i + by) % 32];
    r.has_value = a->has_value;
    r.value = by ? (a->value >> by) | (a->value << (32 - by)) : a->value;
    return r;
}

gu32 gu32_shr(const gu32 *a, unsigned by) {
    gu32 r;
    for (unsigned i = 0; i < 32; i++)
        r.bits[i] = i + by < 32 ? a->bits[i + by] : gbool_const(0);
    r.has_value = a->has_value;
    r.value = by < 32 ? a->value >> by : 0;
    return r;
}

gu32 gu32_xor(r1cs_cs *cs, const gu32 *a, const gu32 *b) {
    gu32 r;
    for (int i = 0; i < 32; i++) {
        r1cs_push(cs, "xor of bit %d", i);
        r.bits[i] = gbool_xor(cs, a->bits[i], b->bits[i]);
        r1cs_pop(cs);
    }
    r.has_value = a->has_value && b->has_value;
    r.value = a->value ^ b->value;
    return r;
}

typedef gbool (*triop_fn)(r1cs_cs *, gbool, gbool, gbool);

static gu32 triop(r1cs_cs *cs, const gu32 *a, const gu32 *b, const gu32 *c, triop_fn fn,
                  uint32_t value) {
    gu32 r;
    for (int i = 0; i < 32; i++) {
        r1cs_push(cs, "bit %d", i);
        r.bits[i] = fn(cs, a->bits[i], b->bits[i], c->bits[i]);
        r1cs_pop(cs);
    }
    r.has_value = a->has_value && b->has_value && c->has_value;
    r.value = r.has_value ? value : 0;
    return r;
}

gu32 gu32_sha256_ch(r1cs_cs *cs, const gu32 *a, const gu32 *b, const gu32 *c) {
    uint32_t v = (a->value & b->value) ^ (~a->value & c->value);
    return triop(cs, a, b, c, gbool_sha256_ch, v);
}

gu32 gu32_sha256_maj(r1cs_cs *cs, const gu32 *a, const gu32 *b, const gu32 *c) {
    uint32_t v = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    return triop(cs, a, b, c, gbool_sha256_maj, v);
}

gu32 gu32_addmany(gmultieq *m, const gu32 *ops, unsigned n) {
    if (n < 2 || n > 10)
        abort(); /* upstream asserts: a caller bug, not a circuit property */
    r1cs_cs *cs = m->cs;
    uint64_t max_value = (uint64_t)n * UINT32_MAX;
    int has_value = 1;
    uint64_t sum = 0;
    int all_constants = 1;
    r1cs_lc lhs = R1CS_LC_INIT, rhs = R1CS_LC_INIT;
    fr coeff;
    const int lcs = r1cs_wants_lcs(cs); /* witness mode: values and allocations only */

    /* operand bits with coefficients 2^i, operand after operand */
    for (unsigned k = 0; k < n; k++) {
        if (ops[k].has_value)
            sum += ops[k].value;
        else
            has_value = 0;
        if (!lcs) {
            for (int i = 0; i < 32; i++)
                all_constants &= gbool_is_const(ops[k].bits[i]);
            continue;
        }
        fr_set_one(&coeff);
        for (int i = 0; i < 32; i++) {
            gbool_lc_add(&lhs, ops[k].bits[i], &coeff);
            all_constants &= gbool_is_const(ops[k].bits[i]);
            fr_dbl(&coeff, &coeff);
        }
    }
    if (all_constants && has_value) {
        r1cs_lc_free(&lhs);
        return gu32_constant((uint32_t)sum);
    }

    /* result bits for the full carry width, LSB first */
    gbool bits[64];
    unsigned nbits = 0;
    fr_set_one(&coeff);
    while (max_value != 0) {
        r1cs_push(cs, "result bit %u", nbits);
        gbit b = gbit_alloc(cs, has_value ? (int)((sum >> nbits) & 1) : -1);
        r1cs_pop(cs);
        if (lcs) {
            r1cs_lc_add_term(&rhs, b.var, &coeff);
            fr_dbl(&coeff, &coeff);
        }
        bits[nbits++] = gbool_is(b);
        max_value >>= 1;
    }
    if (lcs)
        gmultieq_enforce_equal(m, nbits, &lhs, &rhs);
    r1cs_lc_free(&lhs);
    r1cs_lc_free(&rhs);

    gu32 r;
    for (int i = 0; i < 32; i++)
        r.bits[i] = bits[i];
    r.has_value = has_value;
    r.value = (uint32_t)sum;
    return r;
}
