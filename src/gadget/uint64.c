/* UInt64: see uint64.h. */
#include "gadget/uint64.h"

#include "gadget/multipack.h"

gu64 gu64_constant(uint64_t v) {
    gu64 r;
    for (int i = 0; i < 64; i++)
        r.bits[i] = gbool_const((int)((v >> i) & 1));
    r.has_value = 1;
    r.value = v;
    return r;
}

gu64 gu64_alloc(r1cs_cs *cs, const uint64_t *value) {
    gu64 r;
    for (int i = 0; i < 64; i++) {
        r1cs_push(cs, "allocated bit %d", i);
        r.bits[i] = gbool_is(gbit_alloc(cs, value ? (int)((*value >> i) & 1) : -1));
        r1cs_pop(cs);
    }
    r.has_value = value != NULL;
    r.value = value ? *value : 0;
    return r;
}

void gu64_to_bits_be(gbool out[64], const gu64 *a) {
    for (int i = 0; i < 64; i++)
        out[i] = a->bits[63 - i];
}

void gu64_pack_into_input(r1cs_cs *cs, const gu64 *a) {
    multipack_pack_into_inputs(cs, a->bits, 64);
}
