/* Insertion: see insertion.h.  The networks below are upstream's tables,
 * written as the sequence of picks it makes (names as upstream's witness
 * macro gives them: p<pos>_<known bits>, x = a bit not yet decided). */
#include "gadget/insertion.h"

gnum insertion_pick(r1cs_cs *cs, gbool cond, const gnum *a, const gnum *b) {
    int cv = gbool_value(cond);
    const gnum *src = cv == 1 ? a : b;
    int known = cv >= 0 && src->has_val;
    r1cs_push(cs, "pick result");
    gnum c = gnum_alloc(cs, known ? &src->val : NULL);
    r1cs_pop(cs);
    R1CS_LC_ONLY(cs) {
        fr one;
        fr_set_one(&one);
        r1cs_lc la = R1CS_LC_INIT, lb = R1CS_LC_INIT, lc = R1CS_LC_INIT;
        r1cs_lc_add_var(&la, b->var);
        r1cs_lc_sub_var(&la, a->var);
        gbool_lc_add(&lb, cond, &one);
        r1cs_lc_add_var(&lc, b->var);
        r1cs_lc_sub_var(&lc, c.var);
        r1cs_enforce(cs, "pick", &la, &lb, &lc);
    }
    return c;
}

/* One named pick, as upstream's witness! macro (its own namespace). */
static gnum pick_named(r1cs_cs *cs, const char *name, gbool cond, const gnum *a, const gnum *b) {
    r1cs_push(cs, "%s", name);
    gnum r = insertion_pick(cs, cond, a, b);
    r1cs_pop(cs);
    return r;
}

int insertion_select(r1cs_cs *cs, gnum *out, const gnum *from, const gbool *bits, unsigned nbits) {
    if (nbits == 0 || nbits > INSERTION_SELECT_MAX_BITS)
        return -1;
    gnum state[1u << INSERTION_SELECT_MAX_BITS];
    size_t half = ((size_t)1 << nbits) / 2;
    for (size_t j = 0; j < 2 * half; j++)
        state[j] = from[j];
    /* the most significant bit decides first */
    for (unsigned i = 0; i < nbits; i++) {
        gbool bit = bits[nbits - 1 - i];
        for (size_t j = 0; j < half; j++) {
            r1cs_push(cs, "pick %u, %zu", i, j);
            gnum r = insertion_pick(cs, bit, &state[half + j], &state[j]);
            r1cs_pop(cs);
            state[j] = r;
        }
        half /= 2;
    }
    *out = state[0];
    return 0;
}

static void insert_2(r1cs_cs *cs, gnum *out, const gnum *x, gbool b0, const gnum *e) {
    out[0] = pick_named(cs, "binary insert 0", b0, &e[0], x);
    out[1] = pick_named(cs, "binary insert 1", b0, x, &e[0]);
}

/* x into [b, c, d]: position n = b0 + 2 b1. */
static void insert_4(r1cs_cs *cs, gnum *out, const gnum *x, const gbool *bits, const gnum *e) {
    const gbool b0 = bits[0], b1 = bits[1];
    const gnum *a = x, *b = &e[0], *c = &e[1], *d = &e[2];
    gnum t;
    t = pick_named(cs, "p0_x0", b0, b, a);
    out[0] = pick_named(cs, "p0", b1, b, &t);
    t = pick_named(cs, "p1_x0", b0, a, b);
    out[1] = pick_named(cs, "p1", b1, c, &t);
    t = pick_named(cs, "p2_x1", b0, d, a);
    out[2] = pick_named(cs, "p2", b1, &t, c);
    t = pick_named(cs, "p3_x1", b0, a, d);
    out[3] = pick_named(cs, "p3", b1, &t, d);
}

/* x into [b .. h]: position n = b0 + 2 b1 + 4 b2. */
static int insert_8(r1cs_cs *cs, gnum *out, const gnum *x, const gbool *bits, const gnum *e) {
    if (bits[0].kind != GBOOL_IS || bits[1].kind != GBOOL_IS)
        return -1; /* upstream: "bits must be allocated and unnegated" */
    const gbool b0 = bits[0], b1 = bits[1], b2 = bits[2];
    r1cs_push(cs, "b0 nor b1");
    const gbool nor = gbool_is(gbit_nor(cs, gbool_bit(b0), gbool_bit(b1)));
    r1cs_pop(cs);
    r1cs_push(cs, "b0 and b1");
    const gbool and = gbool_is(gbit_and(cs, gbool_bit(b0), gbool_bit(b1)));
    r1cs_pop(cs);
    const gnum *a = x, *b = &e[0], *c = &e[1], *d = &e[2], *ee = &e[3], *f = &e[4], *g = &e[5],
               *h = &e[6];
    gnum t, u;
    t = pick_named(cs, "p0_xx0", nor, a, b);
    out[0] = pick_named(cs, "p0", b2, b, &t);

    t = pick_named(cs, "p1_x00", b0, a, b);
    u = pick_named(cs, "p1_xx0", b1, c, &t);
    out[1] = pick_named(cs, "p1", b2, c, &u);

    t = pick_named(cs, "p2_x10", b0, d, a);
    u = pick_named(cs, "p2_xx0", b1, &t, c);
    out[2] = pick_named(cs, "p2", b2, d, &u);

    t = pick_named(cs, "p3_xx0", and, a, d);
    out[3] = pick_named(cs, "p3", b2, ee, &t);

    t = pick_named(cs, "p4_xx1", nor, a, f);
    out[4] = pick_named(cs, "p4", b2, &t, ee);

    t = pick_named(cs, "p5_x01", b0, a, f);
    u = pick_named(cs, "p5_xx1", b1, g, &t);
    out[5] = pick_named(cs, "p5", b2, &u, f);

    t = pick_named(cs, "p6_x11", b0, h, a);
    u = pick_named(cs, "p6_xx1", b1, &t, g);
    out[6] = pick_named(cs, "p6", b2, &u, g);

    t = pick_named(cs, "p7_xx1", and, a, h);
    out[7] = pick_named(cs, "p7", b2, &t, h);
    return 0;
}

int insertion_insert(r1cs_cs *cs, gnum *out, const gnum *element, const gbool *bits, unsigned nbits,
                     const gnum *elements) {
    if (nbits == 0 || nbits > INSERTION_MAX_BITS)
        return -1;
    const size_t size = (size_t)1 << nbits;
    if (size == 2) {
        insert_2(cs, out, element, bits[0], elements);
        return 0;
    }
    if (size == 4) {
        insert_4(cs, out, element, bits, elements);
        return 0;
    }
    if (size == 8)
        return insert_8(cs, out, element, bits, elements);
    /* general form: for output position pos, the candidate under index k is
     * elements[pos - 1] (k < pos), element (k = pos) or elements[pos] (k > pos) */
    gnum choices[1u << INSERTION_MAX_BITS];
    for (size_t pos = 0; pos < size; pos++) {
        for (size_t k = 0; k < size; k++)
            choices[k] = k < pos ? elements[pos - 1] : k == pos ? *element : elements[pos];
        r1cs_push(cs, "choice at %zu", pos);
        insertion_select(cs, &out[pos], choices, bits, nbits);
        r1cs_pop(cs);
    }
    return 0;
}

size_t insertion_constraints(unsigned nbits) {
    if (nbits == 0 || nbits > INSERTION_MAX_BITS)
        return 0;
    const size_t size = (size_t)1 << nbits;
    return size == 4 ? 8 : size == 8 ? 22 : size * (size - 1);
}
