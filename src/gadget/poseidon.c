/* The Poseidon permutation in neptune's reference ("Correct") form and the
 * MerkleTree hash built on it (filecoin-facts.md 4.6).  Per round: add the
 * round's t constants, S-box x^5 on every element (full rounds) or on state[0]
 * (partial rounds), then state <- M * state. */
#include "gadget/poseidon_internal.h"

static inline void sbox(fr *x) {
    fr x2, x4;
    fr_sqr(&x2, x);
    fr_sqr(&x4, &x2);
    fr_mul(x, &x4, x);
}

/* state <- M * state.  M is symmetric, so row- and column-vector products agree. */
static void mix(const fr *m, unsigned t, fr *state) {
    fr out[POSEIDON_MAX_WIDTH];
    for (unsigned i = 0; i < t; i++) {
        const fr *row = &m[i * t];
        fr acc, prod;
        fr_mul(&acc, &row[0], &state[0]);
        for (unsigned j = 1; j < t; j++) {
            fr_mul(&prod, &row[j], &state[j]);
            fr_add(&acc, &acc, &prod);
        }
        out[i] = acc;
    }
    for (unsigned i = 0; i < t; i++)
        state[i] = out[i];
}

static void full_round(const fr *m, unsigned t, fr *state, const fr *rc) {
    for (unsigned i = 0; i < t; i++) {
        fr_add(&state[i], &state[i], &rc[i]);
        sbox(&state[i]);
    }
    mix(m, t, state);
}

void poseidon_permute(const poseidon_params *p, fr *state) {
    const unsigned t = p->t, half = p->rf / 2, rounds = p->rf + p->rp;
    const fr *rc = p->rc;
    for (unsigned r = 0; r < rounds; r++, rc += t) {
        const int full = r < half || r >= half + p->rp;
        for (unsigned i = 0; i < t; i++)
            fr_add(&state[i], &state[i], &rc[i]);
        if (full) {
            for (unsigned i = 0; i < t; i++)
                sbox(&state[i]);
        } else {
            sbox(&state[0]);
        }
        mix(p->mds, t, state);
    }
}

/* Full rounds as in the reference; partial rounds add one constant and apply a
 * sparse matrix; one (t-1)^2 product (tail) restores the true state after them
 * (poseidon_opt.c has the derivation). */
void poseidon_permute_fast(const poseidon_params *p, fr *state) {
    const struct poseidon_opt *o = p->opt;
    if (!o) {
        poseidon_permute(p, state);
        return;
    }
    const unsigned t = p->t, n = t - 1, h = p->rf / 2;
    const fr *rc = o->full_rc;
    for (unsigned r = 0; r < h; r++, rc += t)
        full_round(p->mds, t, state, rc);

    const fr *v = o->sparse_v, *w = o->sparse_w;
    for (unsigned k = 0; k < p->rp; k++, v += n, w += n) {
        fr_add(&state[0], &state[0], &o->part_rc[k]);
        sbox(&state[0]);
        fr x0 = state[0], acc, prod;
        fr_mul(&acc, &p->mds[0], &x0);
        for (unsigned j = 0; j < n; j++) {
            fr_mul(&prod, &v[j], &state[j + 1]); /* the old state[j+1] */
            fr_add(&acc, &acc, &prod);
            fr_mul(&prod, &w[j], &x0);
            fr_add(&state[j + 1], &state[j + 1], &prod);
        }
        state[0] = acc;
    }

    fr rest[POSEIDON_MAX_WIDTH];
    for (unsigned i = 0; i < n; i++) {
        const fr *row = &o->tail[i * n];
        fr acc, prod;
        fr_mul(&acc, &row[0], &state[1]);
        for (unsigned j = 1; j < n; j++) {
            fr_mul(&prod, &row[j], &state[j + 1]);
            fr_add(&acc, &acc, &prod);
        }
        rest[i] = acc;
    }
    for (unsigned i = 0; i < n; i++)
        state[i + 1] = rest[i];

    for (unsigned r = h; r < p->rf; r++, rc += t)
        full_round(p->mds, t, state, rc);
}

int poseidon_hash(fr *out, const fr *in, unsigned arity) {
    const poseidon_params *p = poseidon_params_get(arity);
    return p ? poseidon_hash_tagged(out, in, arity, &p->tag) : -1;
}

void poseidon_custom_tag(fr *out, uint64_t id) {
    uint64_t raw[4] = {0, 0, 0, 0};
    raw[0] = id << 40; /* id <= 256 keeps it inside one limb */
    raw[1] = id >> 24;
    fr_from_raw(out, raw);
}

int poseidon_hash_tagged(fr *out, const fr *in, unsigned arity, const fr *tag) {
    const poseidon_params *p = poseidon_params_get(arity);
    if (!p)
        return -1;
    fr state[POSEIDON_MAX_WIDTH];
    state[0] = *tag;
    for (unsigned i = 0; i < arity; i++)
        state[i + 1] = in[i];
    poseidon_permute_fast(p, state);
    *out = state[1];
    return 0;
}
