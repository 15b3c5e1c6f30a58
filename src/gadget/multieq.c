/* MultiEq: see multieq.h. */
#include "gadget/multieq.h"

#include "util/verify.h"

void gmultieq_init(gmultieq *m, r1cs_cs *cs) {
    m->cs = cs;
    m->ops = 0;
    m->bits_used = 0;
    r1cs_lc_init(&m->lhs);
    r1cs_lc_init(&m->rhs);
}

static void accumulate(gmultieq *m) {
    if (!r1cs_wants_lcs(m->cs)) /* MultiEq allocates nothing: rows only */
        return;
    r1cs_lc one = R1CS_LC_INIT;
    r1cs_lc_add_var(&one, R1CS_ONE);
    r1cs_enforcef(m->cs, &m->lhs, &one, &m->rhs, "multieq %zu", m->ops);
    r1cs_lc_clear(&m->lhs);
    r1cs_lc_clear(&m->rhs);
    m->bits_used = 0;
    m->ops++;
}

void gmultieq_enforce_equal(gmultieq *m, unsigned num_bits, const r1cs_lc *lhs,
                            const r1cs_lc *rhs) {
    if (!r1cs_wants_lcs(m->cs))
        return;
    if (GMULTIEQ_CAPACITY <= m->bits_used + num_bits)
        accumulate(m);
    /* upstream asserts the equality fits (after the flush); addmany's widths
     * are at most 36 bits */
    VERIFY_CHECK(m->bits_used + num_bits < GMULTIEQ_CAPACITY);
    uint64_t raw[4] = {0, 0, 0, 0};
    raw[m->bits_used / 64] = 1ull << (m->bits_used % 64);
    fr coeff;
    fr_from_raw(&coeff, raw); /* 2^bits_used < r: canonical */
    r1cs_lc_add_scaled(&m->lhs, &coeff, lhs);
    r1cs_lc_add_scaled(&m->rhs, &coeff, rhs);
    m->bits_used += num_bits;
}

void gmultieq_finish(gmultieq *m) {
    if (m->bits_used > 0)
        accumulate(m);
    r1cs_lc_free(&m->lhs);
    r1cs_lc_free(&m->rhs);
}
