/* AllocatedNum gadgets: see num.h.  Variable and constraint order follows
 * bellpepper-core 0.2 num.rs function by function. */
#include "gadget/num.h"

#include "field/constants.h"

gnum gnum_alloc(r1cs_cs *cs, const fr *value) {
    gnum r;
    r.has_val = value != NULL;
    if (value)
        r.val = *value;
    else
        fr_set_zero(&r.val);
    r.var = r1cs_alloc(cs, gnum_alloc_value(cs, r.has_val, &r.val));
    return r;
}

r1cs_var gnum_inputize(r1cs_cs *cs, const gnum *x) {
    r1cs_var v = r1cs_alloc_input(cs, gnum_alloc_value(cs, x->has_val, &x->val));
    R1CS_LC_ONLY(cs) {
        r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, c = R1CS_LC_INIT;
        r1cs_lc_add_var(&a, v);
        r1cs_lc_add_var(&b, R1CS_ONE);
        r1cs_lc_add_var(&c, x->var);
        r1cs_enforce(cs, "enforce input is correct", &a, &b, &c);
    }
    return v;
}

void gnum_to_bits_le(r1cs_cs *cs, const gnum *x, gbool bits[GNUM_BITS]) {
    uint64_t raw[4] = {0};
    if (x->has_val)
        fr_to_raw(raw, &x->val);
    /* field_into_allocated_bits_le: the bits are allocated LSB first */
    for (unsigned i = 0; i < GNUM_BITS; i++) {
        int b = x->has_val ? (int)((raw[i / 64] >> (i % 64)) & 1) : -1;
        r1cs_push(cs, "bit %u", i);
        bits[i] = gbool_is(gbit_alloc(cs, b));
        r1cs_pop(cs);
    }
    R1CS_LC_ONLY(cs) {
        r1cs_lc lc = R1CS_LC_INIT, zero = R1CS_LC_INIT;
        fr coeff;
        fr_set_one(&coeff);
        for (unsigned i = 0; i < GNUM_BITS; i++) {
            r1cs_lc_add_term(&lc, bits[i].var, &coeff);
            fr_dbl(&coeff, &coeff);
        }
        r1cs_lc_sub_var(&lc, x->var);
        r1cs_enforce(cs, "unpacking constraint", &zero, &zero, &lc);
        r1cs_lc_free(&lc);
    }
}

void gnum_to_bits_le_packed(r1cs_cs *cs, const gnum *x, unsigned n, gbool *bits) {
    uint64_t raw[4] = {0};
    if (x->has_val)
        fr_to_raw(raw, &x->val);
    for (unsigned i = 0; i < n; i++) {
        int b = x->has_val ? (int)((raw[i / 64] >> (i % 64)) & 1) : -1;
        r1cs_push(cs, "bit %u", i);
        bits[i] = gbool_is(gbit_alloc(cs, b));
        r1cs_pop(cs);
    }
    r1cs_lc lc = R1CS_LC_INIT, one = R1CS_LC_INIT, c = R1CS_LC_INIT;
    fr coeff;
    fr_set_one(&coeff);
    for (unsigned i = 0; i < n; i++) {
        r1cs_lc_add_term(&lc, bits[i].var, &coeff);
        fr_dbl(&coeff, &coeff);
    }
    r1cs_lc_add_var(&one, R1CS_ONE);
    r1cs_lc_add_var(&c, x->var);
    r1cs_enforce(cs, "binary decomp", &lc, &one, &c);
    r1cs_lc_free(&lc);
}

/* AllocatedBit::alloc_conditionally: one bit a, (ONE - must_be_false - a) * (a) = 0. */
static gbit alloc_conditionally(r1cs_cs *cs, int value, gbit must_be_false) {
    r1cs_var v;
    if (r1cs_has_values(cs) && value >= 0) {
        static const fr zero = {{0, 0, 0, 0}};
        v = r1cs_alloc(cs, value ? &FR_ONE : &zero);
    } else {
        v = r1cs_alloc(cs, NULL);
    }
    R1CS_LC_ONLY(cs) {
        r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, c = R1CS_LC_INIT;
        r1cs_lc_add_var(&a, R1CS_ONE);
        r1cs_lc_sub_var(&a, must_be_false.var);
        r1cs_lc_sub_var(&a, v);
        r1cs_lc_add_var(&b, v);
        r1cs_enforce(cs, "boolean constraint", &a, &b, &c);
    }
    return (gbit){v, (int8_t)(value < 0 ? -1 : value != 0)};
}

/* kary_and: the running AND of v[0..n-1], one gbit_and per extra element. */
static gbit kary_and(r1cs_cs *cs, const gbit *v, size_t n) {
    gbit cur = v[0];
    for (size_t i = 1; i < n; i++) {
        r1cs_push(cs, "and %zu", i);
        cur = gbit_and(cs, cur, v[i]);
        r1cs_pop(cs);
    }
    return cur;
}

void gnum_to_bits_le_strict(r1cs_cs *cs, const gnum *x, gbool bits[GNUM_BITS]) {
    uint64_t a[4] = {0}, b[4];
    if (x->has_val)
        fr_to_raw(a, &x->val);
    fr rm1;
    fr_set_one(&rm1);
    fr_neg(&rm1, &rm1);
    fr_to_raw(b, &rm1);
    gbit result[GNUM_BITS], run[GNUM_BITS + 1], last_run = {R1CS_ONE, -1};
    size_t nres = 0, nrun = 0;
    int have_last = 0, found_one = 0;
    unsigned i = 0; /* upstream's counter: positions past the leading zeros */
    for (int pos = 255; pos >= 0; pos--) {
        int bb = (int)((b[pos / 64] >> (pos % 64)) & 1);
        int ab = x->has_val ? (int)((a[pos / 64] >> (pos % 64)) & 1) : -1;
        found_one |= bb;
        if (!found_one)
            continue; /* r - 1 < 2^255: the top bit is skipped, never allocated */
        if (bb) {
            r1cs_push(cs, "bit %u", i);
            gbit g = gbit_alloc(cs, ab);
            r1cs_pop(cs);
            run[nrun++] = g;
            result[nres++] = g;
        } else {
            if (nrun) {
                if (have_last)
                    run[nrun++] = last_run;
                r1cs_push(cs, "run ending at %u", i);
                last_run = kary_and(cs, run, nrun);
                r1cs_pop(cs);
                have_last = 1;
                nrun = 0;
            }
            r1cs_push(cs, "bit %u", i);
            result[nres++] = alloc_conditionally(cs, ab, last_run);
            r1cs_pop(cs);
        }
        i++;
    }
    /* result is big-endian; pack it from its end */
    R1CS_LC_ONLY(cs) {
        r1cs_lc lc = R1CS_LC_INIT, zero = R1CS_LC_INIT;
        fr coeff;
        fr_set_one(&coeff);
        for (size_t k = nres; k-- > 0;) {
            r1cs_lc_add_term(&lc, result[k].var, &coeff);
            fr_dbl(&coeff, &coeff);
        }
        r1cs_lc_sub_var(&lc, x->var);
        r1cs_enforce(cs, "unpacking constraint", &zero, &zero, &lc);
        r1cs_lc_free(&lc);
    }
    for (size_t k = 0; k < nres && k < GNUM_BITS; k++)
        bits[k] = gbool_is(result[nres - 1 - k]);
}

/* A result num whose value is f(a, b) when both are known. */
static gnum result(r1cs_cs *cs, int known, const fr *val) {
    return gnum_alloc(cs, known ? val : NULL);
}

gnum gnum_add(r1cs_cs *cs, const gnum *a, const gnum *b) {
    fr s;
    fr_add(&s, &a->val, &b->val);
    gnum r = result(cs, a->has_val && b->has_val, &s);
    R1CS_LC_ONLY(cs) {
        r1cs_lc la = R1CS_LC_INIT, lb = R1CS_LC_INIT, lc = R1CS_LC_INIT;
        r1cs_lc_add_var(&la, a->var);
        r1cs_lc_add_var(&la, b->var);
        r1cs_lc_add_var(&lb, R1CS_ONE);
        r1cs_lc_add_var(&lc, r.var);
        r1cs_enforce(cs, "addition constraint", &la, &lb, &lc);
    }
    return r;
}

gnum gnum_mul(r1cs_cs *cs, const gnum *a, const gnum *b) {
    fr p;
    fr_mul(&p, &a->val, &b->val);
    gnum r = result(cs, a->has_val && b->has_val, &p);
    R1CS_LC_ONLY(cs) {
        r1cs_lc la = R1CS_LC_INIT, lb = R1CS_LC_INIT, lc = R1CS_LC_INIT;
        r1cs_lc_add_var(&la, a->var);
        r1cs_lc_add_var(&lb, b->var);
        r1cs_lc_add_var(&lc, r.var);
        r1cs_enforce(cs, "multiplication constraint", &la, &lb, &lc);
    }
    return r;
}

gnum gnum_square(r1cs_cs *cs, const gnum *a) {
    fr p;
    fr_sqr(&p, &a->val);
    gnum r = result(cs, a->has_val, &p);
    R1CS_LC_ONLY(cs) {
        r1cs_lc la = R1CS_LC_INIT, lb = R1CS_LC_INIT, lc = R1CS_LC_INIT;
        r1cs_lc_add_var(&la, a->var);
        r1cs_lc_add_var(&lb, a->var);
        r1cs_lc_add_var(&lc, r.var);
        r1cs_enforce(cs, "squaring constraint", &la, &lb, &lc);
    }
    return r;
}
