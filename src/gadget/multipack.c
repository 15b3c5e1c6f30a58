/* Multipacking: see multipack.h. */
#include "gadget/multipack.h"

void multipack_pack_into_inputs(r1cs_cs *cs, const gbool *bits, size_t nbits) {
    const int lcs = r1cs_wants_lcs(cs);
    r1cs_lc num = R1CS_LC_INIT, one = R1CS_LC_INIT, in = R1CS_LC_INIT;
    r1cs_lc_add_var(&one, R1CS_ONE);
    for (size_t start = 0, i = 0; start < nbits; start += MULTIPACK_CHUNK, i++) {
        size_t end = start + MULTIPACK_CHUNK < nbits ? start + MULTIPACK_CHUNK : nbits;
        /* Num::add_bool_with_coeff per bit, coefficients 1, 2, 4, ... */
        fr coeff, val;
        fr_set_one(&coeff);
        fr_set_zero(&val);
        int known = 1;
        r1cs_lc_clear(&num);
        for (size_t j = start; j < end; j++) {
            if (lcs)
                gbool_lc_add(&num, bits[j], &coeff);
            int v = gbool_value(bits[j]);
            if (v < 0)
                known = 0;
            else if (v)
                fr_add(&val, &val, &coeff);
            fr_dbl(&coeff, &coeff);
        }
        r1cs_var x = r1cs_alloc_input(cs, (r1cs_has_values(cs) && known) ? &val : NULL);
        if (lcs) {
            r1cs_lc_set_var(&in, x);
            r1cs_enforcef(cs, &num, &one, &in, "packing constraint %zu", i);
        }
    }
    r1cs_lc_free(&num);
}

gnum multipack_pack_bits(r1cs_cs *cs, const gbool *bits, size_t nbits) {
    if (nbits > MULTIPACK_CHUNK)
        nbits = MULTIPACK_CHUNK; /* upstream: bits.iter().take(CAPACITY) */
    r1cs_lc num = R1CS_LC_INIT, one = R1CS_LC_INIT, x = R1CS_LC_INIT;
    fr coeff, val;
    fr_set_one(&coeff);
    fr_set_zero(&val);
    int known = 1;
    const int lcs = r1cs_wants_lcs(cs);
    for (size_t j = 0; j < nbits; j++) {
        if (lcs)
            gbool_lc_add(&num, bits[j], &coeff);
        int v = gbool_value(bits[j]);
        if (v < 0)
            known = 0;
        else if (v)
            fr_add(&val, &val, &coeff);
        fr_dbl(&coeff, &coeff);
    }
    r1cs_push(cs, "input");
    gnum r = gnum_alloc(cs, known ? &val : NULL);
    r1cs_pop(cs);
    R1CS_LC_ONLY(cs) {
        r1cs_lc_add_var(&one, R1CS_ONE);
        r1cs_lc_set_var(&x, r.var);
        r1cs_enforce(cs, "packing constraint", &num, &one, &x);
        r1cs_lc_free(&num);
    }
    return r;
}

void multipack_compute(fr *out, const uint8_t *bits, size_t nbits) {
    for (size_t start = 0, i = 0; start < nbits; start += MULTIPACK_CHUNK, i++) {
        size_t end = start + MULTIPACK_CHUNK < nbits ? start + MULTIPACK_CHUNK : nbits;
        uint64_t raw[4] = {0};
        for (size_t j = start; j < end; j++)
            if (bits[j])
                raw[(j - start) / 64] |= 1ull << ((j - start) % 64);
        fr_from_raw(&out[i], raw); /* < 2^254 < r: already canonical */
    }
}
