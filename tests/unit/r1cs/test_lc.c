/* Linear combinations against bellpepper-core 0.2's semantics: hand-made
 * cases (merging, order inputs-then-aux by index, zero terms kept, the
 * Indexer's own unit tests re-run here), then random operation sequences
 * against a naive dense model, small and spilling to the heap. */
#include "check.h"
#include "field_rand.h"
#include "field/constants.h"
#include "field/fr.h"
#include "r1cs/lc.h"

static fr fr_u(uint64_t v) {
    fr r;
    fr_set_u64(&r, v);
    return r;
}

/* lc's terms are exactly (vars[i], coeffs[i]) in this order. */
static int lc_is(const r1cs_lc *lc, size_t n, const r1cs_var *vars, const uint64_t *coeffs) {
    if (r1cs_lc_len(lc) != n)
        return 0;
    const r1cs_term *t = r1cs_lc_terms(lc);
    for (size_t i = 0; i < n; i++) {
        fr c = fr_u(coeffs[i]);
        if (t[i].var != vars[i].id || !fr_equal(&t[i].coeff, &c))
            return 0;
    }
    return 1;
}

static void test_hand_made(void) {
    r1cs_lc lc = R1CS_LC_INIT;
    fr two = fr_u(2), three = fr_u(3), zero;
    fr_set_zero(&zero);

    /* same variable twice merges into one term */
    r1cs_lc_add_var(&lc, r1cs_aux_var(4));
    r1cs_lc_add_term(&lc, r1cs_aux_var(4), &two);
    CHECK(lc_is(&lc, 1, (r1cs_var[]){r1cs_aux_var(4)}, (uint64_t[]){3}));

    /* order: inputs by index, then aux by index, whatever the insertion order */
    r1cs_lc_add_term(&lc, r1cs_input_var(3), &two);
    r1cs_lc_add_var(&lc, r1cs_aux_var(1));
    r1cs_lc_add_term(&lc, R1CS_ONE, &three);
    r1cs_lc_add_var(&lc, r1cs_input_var(1));
    CHECK(lc_is(&lc, 5,
                (r1cs_var[]){R1CS_ONE, r1cs_input_var(1), r1cs_input_var(3), r1cs_aux_var(1),
                             r1cs_aux_var(4)},
                (uint64_t[]){3, 1, 2, 1, 3}));

    /* cancelling to zero keeps the term; a zero coefficient inserts one */
    r1cs_lc_sub_term(&lc, r1cs_input_var(3), &two);
    r1cs_lc_add_term(&lc, r1cs_aux_var(2), &zero);
    CHECK(lc_is(&lc, 6,
                (r1cs_var[]){R1CS_ONE, r1cs_input_var(1), r1cs_input_var(3), r1cs_aux_var(1),
                             r1cs_aux_var(2), r1cs_aux_var(4)},
                (uint64_t[]){3, 1, 0, 1, 0, 3}));
    CHECK(lc.heap == NULL); /* small LCs never touch the heap */

    /* lc + (k, &other), lc - &other, scale (terms stay at k = 0) */
    r1cs_lc o = R1CS_LC_INIT;
    r1cs_lc_set_var(&o, r1cs_aux_var(2));
    r1cs_lc_add_var(&o, r1cs_aux_var(9));
    r1cs_lc_add_scaled(&lc, &two, &o);
    r1cs_lc_sub(&lc, &o);
    CHECK(lc_is(&lc, 7,
                (r1cs_var[]){R1CS_ONE, r1cs_input_var(1), r1cs_input_var(3), r1cs_aux_var(1),
                             r1cs_aux_var(2), r1cs_aux_var(4), r1cs_aux_var(9)},
                (uint64_t[]){3, 1, 0, 1, 1, 3, 1}));
    r1cs_lc_add(&lc, &lc); /* aliasing: doubles */
    CHECK(lc_is(&lc, 7,
                (r1cs_var[]){R1CS_ONE, r1cs_input_var(1), r1cs_input_var(3), r1cs_aux_var(1),
                             r1cs_aux_var(2), r1cs_aux_var(4), r1cs_aux_var(9)},
                (uint64_t[]){6, 2, 0, 2, 2, 6, 2}));
    r1cs_lc_scale(&lc, &zero);
    CHECK(r1cs_lc_len(&lc) == 7);
    fr c;
    CHECK(r1cs_lc_coeff(&c, &lc, r1cs_aux_var(9)) && fr_is_zero(&c));
    CHECK(!r1cs_lc_coeff(&c, &lc, r1cs_aux_var(8)));

    /* a constant is ONE with a coefficient */
    r1cs_lc_set_const(&lc, &three);
    CHECK(lc_is(&lc, 1, (r1cs_var[]){R1CS_ONE}, (uint64_t[]){3}));

    /* bellpepper's test_insert_or_update: keys 2, 3, 1, then 2 again */
    r1cs_lc_clear(&lc);
    r1cs_lc_add_var(&lc, r1cs_aux_var(2));
    r1cs_lc_add_var(&lc, r1cs_aux_var(3));
    r1cs_lc_add_var(&lc, r1cs_aux_var(1));
    r1cs_lc_add_var(&lc, r1cs_aux_var(2));
    CHECK(lc_is(&lc, 3, (r1cs_var[]){r1cs_aux_var(1), r1cs_aux_var(2), r1cs_aux_var(3)},
                (uint64_t[]){1, 2, 1}));
    /* bellpepper's test_add_simplify: var i added i + 1 times -> 5 terms */
    r1cs_lc_clear(&lc);
    for (uint32_t i = 0; i < 5; i++)
        for (uint32_t k = 0; k <= i; k++)
            r1cs_lc_add_var(&lc, r1cs_aux_var(i));
    CHECK(lc_is(&lc, 5,
                (r1cs_var[]){r1cs_aux_var(0), r1cs_aux_var(1), r1cs_aux_var(2), r1cs_aux_var(3),
                             r1cs_aux_var(4)},
                (uint64_t[]){1, 2, 3, 4, 5}));

    /* eval skips nothing it should not: 1*x0 + 2*x1 + 3*aux0 */
    r1cs_lc_clear(&lc);
    r1cs_lc_add_var(&lc, R1CS_ONE);
    r1cs_lc_add_term(&lc, r1cs_input_var(1), &two);
    r1cs_lc_add_term(&lc, r1cs_aux_var(0), &three);
    fr in[2] = {fr_u(1), fr_u(10)}, aux[1] = {fr_u(100)}, v, want = fr_u(321);
    r1cs_lc_eval(&v, &lc, in, aux);
    CHECK(fr_equal(&v, &want));

    r1cs_lc_free(&lc);
    r1cs_lc_free(&o);
}

/* Dense model over NKEYS keys: 10 inputs and 40 aux (ids map to slots). */
#define NIN 10
#define NKEYS 50
typedef struct {
    int present[NKEYS];
    fr coeff[NKEYS];
} model;

static r1cs_var slot_var(int s) { return s < NIN ? r1cs_input_var(s) : r1cs_aux_var(s - NIN); }

static void model_add(model *m, int s, const fr *c) {
    m->present[s] = 1;
    fr_add(&m->coeff[s], &m->coeff[s], c);
}

static int model_matches(const model *m, const r1cs_lc *lc) {
    const r1cs_term *t = r1cs_lc_terms(lc);
    size_t k = 0;
    for (int s = 0; s < NKEYS; s++) { /* slots are already in id order */
        if (!m->present[s])
            continue;
        if (k >= lc->len || t[k].var != slot_var(s).id || !fr_equal(&t[k].coeff, &m->coeff[s]))
            return 0;
        k++;
    }
    return k == lc->len;
}

static fr rand_coeff(void) {
    switch (check_rand64() % 4) {
    case 0:
        return fr_u(0);
    case 1:
        return fr_u(1);
    default:
        return rand_fr();
    }
}

/* Random op sequences on two LCs with their models; sizes up to NKEYS, so
 * both the inline and the heap representation are exercised. */
static void test_random_ops(void) {
    for (int round = 0; round < 300; round++) {
        r1cs_lc lc[2] = {R1CS_LC_INIT, R1CS_LC_INIT};
        model m[2];
        memset(m, 0, sizeof m);
        int span = round % 3 == 0 ? 6 : NKEYS; /* some rounds stay small */
        int ok = 1;
        for (int op = 0; op < 80; op++) {
            int x = (int)(check_rand64() % 2), y = 1 - x;
            int s = (int)(check_rand64() % (uint64_t)span);
            if (span < NKEYS && s >= 3)
                s += NIN; /* small rounds mix inputs and aux too */
            fr c = rand_coeff(), t;
            switch (check_rand64() % 8) {
            case 0:
            case 1:
            case 2:
                r1cs_lc_add_term(&lc[x], slot_var(s), &c);
                model_add(&m[x], s, &c);
                break;
            case 3:
                r1cs_lc_sub_term(&lc[x], slot_var(s), &c);
                fr_neg(&t, &c);
                model_add(&m[x], s, &t);
                break;
            case 4:
            case 5: {
                int sub = (int)(check_rand64() % 2), scaled = (int)(check_rand64() % 2);
                model before = m[y]; /* y may change only if x == y, which it is not */
                for (int k = 0; k < NKEYS; k++) {
                    if (!before.present[k])
                        continue;
                    fr v = before.coeff[k];
                    if (scaled)
                        fr_mul(&v, &v, &c);
                    if (sub)
                        fr_neg(&v, &v);
                    model_add(&m[x], k, &v);
                }
                if (scaled)
                    (sub ? r1cs_lc_sub_scaled : r1cs_lc_add_scaled)(&lc[x], &c, &lc[y]);
                else
                    (sub ? r1cs_lc_sub : r1cs_lc_add)(&lc[x], &lc[y]);
                break;
            }
            case 6:
                r1cs_lc_scale(&lc[x], &c);
                for (int k = 0; k < NKEYS; k++)
                    if (m[x].present[k])
                        fr_mul(&m[x].coeff[k], &m[x].coeff[k], &c);
                break;
            default:
                if (check_rand64() % 8 == 0) {
                    r1cs_lc_copy(&lc[x], &lc[y]);
                    m[x] = m[y];
                } else { /* lc += c * lc: other aliases lc */
                    r1cs_lc_add_scaled(&lc[x], &c, &lc[x]);
                    for (int k = 0; k < NKEYS; k++) {
                        fr_mul(&t, &m[x].coeff[k], &c);
                        fr_add(&m[x].coeff[k], &m[x].coeff[k], &t);
                    }
                }
                break;
            }
            ok &= model_matches(&m[0], &lc[0]) && model_matches(&m[1], &lc[1]);
        }
        CHECK(ok);
        CHECK(!lc[0].broken && !lc[1].broken);
        if (span < NKEYS)
            CHECK(lc[0].heap == NULL && lc[1].heap == NULL);
        r1cs_lc_free(&lc[0]);
        r1cs_lc_free(&lc[1]);
    }
}

/* Long LCs built in ascending, descending and random order agree; clear
 * keeps the heap buffer for the next use. */
static void test_long(void) {
    enum { N = 300 };
    r1cs_lc up = R1CS_LC_INIT, down = R1CS_LC_INIT, mixed = R1CS_LC_INIT;
    uint32_t perm[N];
    for (uint32_t i = 0; i < N; i++)
        perm[i] = i;
    for (uint32_t i = N - 1; i > 0; i--) {
        uint32_t j = (uint32_t)(check_rand64() % (i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (uint32_t i = 0; i < N; i++) {
        fr c = fr_u(i + 1), d = fr_u(N - i), e = fr_u(perm[i] + 1);
        r1cs_lc_add_term(&up, r1cs_aux_var(i), &c);
        r1cs_lc_add_term(&down, r1cs_aux_var(N - 1 - i), &d);
        r1cs_lc_add_term(&mixed, r1cs_aux_var(perm[i]), &e);
    }
    int same = up.len == N && down.len == N && mixed.len == N;
    for (uint32_t i = 0; same && i < N; i++) {
        const r1cs_term *a = &r1cs_lc_terms(&up)[i], *b = &r1cs_lc_terms(&down)[i],
                        *c = &r1cs_lc_terms(&mixed)[i];
        same = a->var == r1cs_aux_var(i).id && a->var == b->var && a->var == c->var &&
               fr_equal(&a->coeff, &b->coeff) && fr_equal(&a->coeff, &c->coeff);
    }
    CHECK(same);
    r1cs_term *heap = up.heap;
    r1cs_lc_clear(&up);
    CHECK(up.heap == heap && up.len == 0 && heap != NULL);
    r1cs_lc_free(&up);
    r1cs_lc_free(&down);
    r1cs_lc_free(&mixed);
}

int main(void) {
    check_seed("test_lc");
    test_hand_made();
    test_random_ops();
    test_long();
    return check_finish();
}
