/* Boolean gadgets: see boolean.h.  Each function mirrors one upstream
 * function; comments name the arm of upstream's match being followed. */
#include "gadget/boolean.h"

#include "field/constants.h"

static fr fr_one_const(void) {
    fr one;
    fr_set_one(&one);
    return one;
}

/* Allocates an aux variable holding v (-1: unknown).  The value is passed
 * only when the mode keeps values; unknown then is the cs's sticky
 * missing-value error. */
static r1cs_var alloc_value(r1cs_cs *cs, int v) {
    if (!r1cs_has_values(cs) || v < 0)
        return r1cs_alloc(cs, NULL);
    /* the constants, not fr_set_u64: no Montgomery multiplication per bit */
    static const fr zero = {{0, 0, 0, 0}};
    return r1cs_alloc(cs, v ? &FR_ONE : &zero);
}

static int and_val(int a, int b) { return (a < 0 || b < 0) ? -1 : (a & b); }
static int not_val(int a) { return a < 0 ? -1 : !a; }

gbit gbit_alloc(r1cs_cs *cs, int value) {
    gbit r = {alloc_value(cs, value), (int8_t)(value < 0 ? -1 : value != 0)};
    R1CS_LC_ONLY(cs) {
        r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, c = R1CS_LC_INIT;
        r1cs_lc_add_var(&a, R1CS_ONE);
        r1cs_lc_sub_var(&a, r.var);
        r1cs_lc_add_var(&b, r.var);
        r1cs_enforce(cs, "boolean constraint", &a, &b, &c);
    }
    return r;
}

gbit gbit_xor(r1cs_cs *cs, gbit a, gbit b) {
    int v = (a.val < 0 || b.val < 0) ? -1 : (a.val ^ b.val);
    gbit r = {alloc_value(cs, v), (int8_t)v};
    R1CS_LC_ONLY(cs) {
        r1cs_lc la = R1CS_LC_INIT, lb = R1CS_LC_INIT, lc = R1CS_LC_INIT;
        /* `lc + a + a`: one term with coefficient 2 */
        r1cs_lc_add_var(&la, a.var);
        r1cs_lc_add_var(&la, a.var);
        r1cs_lc_add_var(&lb, b.var);
        r1cs_lc_add_var(&lc, a.var);
        r1cs_lc_add_var(&lc, b.var);
        r1cs_lc_sub_var(&lc, r.var);
        r1cs_enforce(cs, "xor constraint", &la, &lb, &lc);
    }
    return r;
}

/* lc = v, or ONE - v for a negated operand (upstream's `lc + ONE - v`). */
static void operand_lc(r1cs_lc *lc, r1cs_var v, int negated) {
    if (negated) {
        r1cs_lc_add_var(lc, R1CS_ONE);
        r1cs_lc_sub_var(lc, v);
    } else {
        r1cs_lc_add_var(lc, v);
    }
}

/* The three AND forms differ only in which operands enter negated. */
static gbit and_form(r1cs_cs *cs, gbit a, int neg_a, gbit b, int neg_b, const char *name) {
    int va = neg_a ? not_val(a.val) : a.val;
    int vb = neg_b ? not_val(b.val) : b.val;
    int v = and_val(va, vb);
    gbit r = {alloc_value(cs, v), (int8_t)v};
    R1CS_LC_ONLY(cs) {
        r1cs_lc la = R1CS_LC_INIT, lb = R1CS_LC_INIT, lc = R1CS_LC_INIT;
        operand_lc(&la, a.var, neg_a);
        operand_lc(&lb, b.var, neg_b);
        r1cs_lc_add_var(&lc, r.var);
        r1cs_enforce(cs, name, &la, &lb, &lc);
    }
    return r;
}

gbit gbit_and(r1cs_cs *cs, gbit a, gbit b) { return and_form(cs, a, 0, b, 0, "and constraint"); }
gbit gbit_and_not(r1cs_cs *cs, gbit a, gbit b) {
    return and_form(cs, a, 0, b, 1, "and not constraint");
}
gbit gbit_nor(r1cs_cs *cs, gbit a, gbit b) { return and_form(cs, a, 1, b, 1, "nor constraint"); }

gbool gbool_alloc(r1cs_cs *cs, int value) { return gbool_is(gbit_alloc(cs, value)); }

gbool gbool_not(gbool a) {
    switch (a.kind) {
    case GBOOL_CONST:
        return gbool_const(!a.val);
    case GBOOL_IS:
        a.kind = GBOOL_NOT;
        return a;
    default:
        a.kind = GBOOL_IS;
        return a;
    }
}

static int is_const(gbool a, int v) { return a.kind == GBOOL_CONST && a.val == v; }

gbool gbool_xor(r1cs_cs *cs, gbool a, gbool b) {
    if (is_const(a, 0))
        return b;
    if (is_const(b, 0))
        return a;
    if (is_const(a, 1))
        return gbool_not(b);
    if (is_const(b, 1))
        return gbool_not(a);
    /* (Is, Not) | (Not, Is): xor(is, not.not()).not() - the IS operand goes
     * first whatever the argument order, so it is the one doubled in A. */
    if (a.kind != b.kind) {
        gbool is = a.kind == GBOOL_IS ? a : b;
        gbool not = a.kind == GBOOL_IS ? b : a;
        return gbool_not(gbool_xor(cs, is, gbool_not(not )));
    }
    /* (Is, Is) | (Not, Not): a xor b = (not a) xor (not b) */
    return gbool_is(gbit_xor(cs, gbool_bit(a), gbool_bit(b)));
}

gbool gbool_and(r1cs_cs *cs, gbool a, gbool b) {
    if (is_const(a, 0) || is_const(b, 0))
        return gbool_const(0);
    if (is_const(a, 1))
        return b;
    if (is_const(b, 1))
        return a;
    if (a.kind == GBOOL_IS && b.kind == GBOOL_NOT)
        return gbool_is(gbit_and_not(cs, gbool_bit(a), gbool_bit(b)));
    if (a.kind == GBOOL_NOT && b.kind == GBOOL_IS)
        return gbool_is(gbit_and_not(cs, gbool_bit(b), gbool_bit(a)));
    if (a.kind == GBOOL_NOT)
        return gbool_is(gbit_nor(cs, gbool_bit(a), gbool_bit(b)));
    return gbool_is(gbit_and(cs, gbool_bit(a), gbool_bit(b)));
}

void gbool_lc_add(r1cs_lc *lc, gbool a, const fr *coeff) {
    switch (a.kind) {
    case GBOOL_CONST:
        if (a.val)
            r1cs_lc_add_term(lc, R1CS_ONE, coeff);
        break;
    case GBOOL_IS:
        r1cs_lc_add_term(lc, a.var, coeff);
        break;
    default:
        r1cs_lc_add_term(lc, R1CS_ONE, coeff);
        r1cs_lc_sub_term(lc, a.var, coeff);
        break;
    }
}

void gbool_lc_sub(r1cs_lc *lc, gbool a, const fr *coeff) {
    switch (a.kind) {
    case GBOOL_CONST:
        if (a.val)
            r1cs_lc_sub_term(lc, R1CS_ONE, coeff);
        break;
    case GBOOL_IS:
        r1cs_lc_sub_term(lc, a.var, coeff);
        break;
    default:
        /* minus ((coeff, ONE) - (coeff, v)) */
        r1cs_lc_sub_term(lc, R1CS_ONE, coeff);
        r1cs_lc_add_term(lc, a.var, coeff);
        break;
    }
}

static int ch_val(int a, int b, int c) {
    if (a < 0 || b < 0 || c < 0)
        return -1;
    return (a & b) ^ ((!a) & c);
}

gbool gbool_sha256_ch(r1cs_cs *cs, gbool a, gbool b, gbool c) {
    int v = ch_val(gbool_value(a), gbool_value(b), gbool_value(c));
    if (gbool_is_const(a) && gbool_is_const(b) && gbool_is_const(c))
        return gbool_const(v);
    if (is_const(a, 0))
        return c;
    if (is_const(b, 0)) /* (not a) and c */
        return gbool_and(cs, gbool_not(a), c);
    if (is_const(c, 0)) /* a and b */
        return gbool_and(cs, a, b);
    if (is_const(c, 1)) /* not (a and not b) */
        return gbool_not(gbool_and(cs, a, gbool_not(b)));
    if (is_const(b, 1)) /* not (not a and not c) */
        return gbool_not(gbool_and(cs, gbool_not(a), gbool_not(c)));
    /* a == true (or nothing constant) falls through: upstream allocates
     * even for a constant-true a, where ch = b would be free. */
    gbit ch = {alloc_value(cs, v), (int8_t)v};
    R1CS_LC_ONLY(cs) {
        fr one = fr_one_const();
        r1cs_lc la = R1CS_LC_INIT, lb = R1CS_LC_INIT, lc = R1CS_LC_INIT;
        gbool_lc_add(&la, b, &one);
        gbool_lc_sub(&la, c, &one);
        gbool_lc_add(&lb, a, &one);
        r1cs_lc_add_var(&lc, ch.var);
        gbool_lc_sub(&lc, c, &one);
        r1cs_enforce(cs, "ch computation", &la, &lb, &lc);
        r1cs_lc_free(&la);
        r1cs_lc_free(&lb);
        r1cs_lc_free(&lc);
    }
    return gbool_is(ch);
}

static int maj_val(int a, int b, int c) {
    if (a < 0 || b < 0 || c < 0)
        return -1;
    return (a & b) ^ (a & c) ^ (b & c);
}

gbool gbool_sha256_maj(r1cs_cs *cs, gbool a, gbool b, gbool c) {
    int v = maj_val(gbool_value(a), gbool_value(b), gbool_value(c));
    if (gbool_is_const(a) && gbool_is_const(b) && gbool_is_const(c))
        return gbool_const(v);
    if (is_const(a, 0))
        return gbool_and(cs, b, c);
    if (is_const(b, 0))
        return gbool_and(cs, a, c);
    if (is_const(c, 0))
        return gbool_and(cs, a, b);
    if (is_const(c, 1))
        return gbool_not(gbool_and(cs, gbool_not(a), gbool_not(b)));
    if (is_const(b, 1))
        return gbool_not(gbool_and(cs, gbool_not(a), gbool_not(c)));
    if (is_const(a, 1))
        return gbool_not(gbool_and(cs, gbool_not(b), gbool_not(c)));
    /* maj is allocated before bc: the variable order is maj, bc */
    gbit maj = {alloc_value(cs, v), (int8_t)v};
    r1cs_push(cs, "b and c");
    gbool bc = gbool_and(cs, b, c);
    r1cs_pop(cs);
    R1CS_LC_ONLY(cs) {
        fr one = fr_one_const();
        r1cs_lc la = R1CS_LC_INIT, lb = R1CS_LC_INIT, lc = R1CS_LC_INIT;
        gbool_lc_add(&la, bc, &one);
        gbool_lc_add(&la, bc, &one);
        gbool_lc_sub(&la, b, &one);
        gbool_lc_sub(&la, c, &one);
        gbool_lc_add(&lb, a, &one);
        gbool_lc_add(&lc, bc, &one);
        r1cs_lc_sub_var(&lc, maj.var);
        r1cs_enforce(cs, "maj computation", &la, &lb, &lc);
        r1cs_lc_free(&la);
        r1cs_lc_free(&lb);
        r1cs_lc_free(&lc);
    }
    return gbool_is(maj);
}

int gbool_enforce_equal(r1cs_cs *cs, gbool a, gbool b) {
    if (gbool_is_const(a) && gbool_is_const(b))
        return a.val == b.val ? 0 : -1;
    if (!r1cs_wants_lcs(cs))
        return 0;
    fr one = fr_one_const();
    r1cs_lc z0 = R1CS_LC_INIT, z1 = R1CS_LC_INIT, lc = R1CS_LC_INIT;
    const char *name;
    if (is_const(a, 1) || is_const(b, 1)) {
        gbool x = is_const(a, 1) ? b : a;
        r1cs_lc_add_var(&lc, R1CS_ONE);
        gbool_lc_sub(&lc, x, &one);
        name = "enforce equal to one";
    } else if (is_const(a, 0) || is_const(b, 0)) {
        gbool x = is_const(a, 0) ? b : a;
        gbool_lc_add(&lc, x, &one);
        name = "enforce equal to zero";
    } else {
        gbool_lc_add(&lc, a, &one);
        gbool_lc_sub(&lc, b, &one);
        name = "enforce equal";
    }
    r1cs_enforce(cs, name, &z0, &z1, &lc);
    r1cs_lc_free(&lc);
    return 0;
}
