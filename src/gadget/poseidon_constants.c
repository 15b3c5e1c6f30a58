/* Poseidon parameters, derived exactly as neptune v11 does (filecoin-facts.md
 * 4.2-4.5): round numbers from neptune's table, round constants from the Grain
 * LFSR of the Poseidon paper's reference script, and the Cauchy MDS matrix.
 * Generated at run time rather than tabled: the derivation is short and the
 * tests check it against neptune's published t = 9 constants. */
#include "gadget/poseidon_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

/* One slot per supported arity; storage sizes are fixed by the round numbers. */
static const unsigned slot_arity[] = {2, 4, 8, 11, 16, 24, 36};
#define NSLOTS (sizeof slot_arity / sizeof slot_arity[0])
/* sum of (8 + R_P) * t and of t * t over the slots */
#define RC_POOL (3 * 63 + 5 * 64 + 9 * 65 + 12 * 65 + 17 * 67 + 25 * 67 + 37 * 68)
#define MDS_POOL (9 + 25 + 81 + 144 + 289 + 625 + 1369)

static fr rc_pool[RC_POOL];
static fr mds_pool[MDS_POOL];
static poseidon_params params[NSLOTS];

/* neptune round_numbers.rs test table (Standard strength, @ ef8a821f L98-128;
 * t = 16 is there though the facts leave it out): R_F = 8 always. */
int poseidon_round_numbers(unsigned t, unsigned *rf, unsigned *rp) {
    unsigned p;
    if (t == 2 || t == 3)
        p = 55;
    else if (t >= 4 && t <= 7)
        p = 56;
    else if (t >= 8 && t <= 15)
        p = 57;
    else if (t == 16 || t == 17 || t == 25)
        p = 59;
    else if (t == 37)
        p = 60;
    else if (t == 65)
        p = 61;
    else
        return 0;
    *rf = 8;
    *rp = p;
    return 1;
}

static int slot_of(unsigned arity) {
    for (unsigned i = 0; i < NSLOTS; i++)
        if (slot_arity[i] == arity)
            return (int)i;
    return -1;
}

int poseidon_arity_supported(unsigned arity) { return slot_of(arity) >= 0; }

/* ---- Grain LFSR (80-bit state, taps 62 51 38 23 13 0) ---------------------- */

typedef struct {
    uint8_t b[80]; /* ring buffer: logical bit i is b[(pos + i) % 80] */
    unsigned pos;
} grain;

static unsigned grain_step(grain *g) {
    const uint8_t *b = g->b;
    unsigned p = g->pos;
#define G(i) b[(p + (i)) % 80]
    uint8_t nb = G(62) ^ G(51) ^ G(38) ^ G(23) ^ G(13) ^ G(0);
#undef G
    g->b[p] = nb; /* the oldest bit leaves, the new one becomes logical bit 79 */
    g->pos = (p + 1) % 80;
    return nb;
}

/* Self-shrinking: draw pairs (a, b), emit b only when a = 1. */
static unsigned grain_bit(grain *g) {
    for (;;) {
        unsigned a = grain_step(g);
        unsigned b = grain_step(g);
        if (a)
            return b;
    }
}

static void grain_push(grain *g, unsigned *n, unsigned nbits, unsigned v) {
    for (unsigned i = nbits; i-- > 0;) /* MSB first */
        g->b[(*n)++] = (uint8_t)((v >> i) & 1);
}

/* The init fields of the reference script: field = 1 (prime), sbox = 1 (neptune
 * passes 1 although its S-box is x^5), field size 255, t, R_F, R_P, 30 ones. */
static void grain_init(grain *g, unsigned t, unsigned rf, unsigned rp) {
    unsigned n = 0;
    grain_push(g, &n, 2, 1);
    grain_push(g, &n, 4, 1);
    grain_push(g, &n, 12, 255);
    grain_push(g, &n, 12, t);
    grain_push(g, &n, 10, rf);
    grain_push(g, &n, 10, rp);
    while (n < 80)
        g->b[n++] = 1;
    g->pos = 0;
    for (int i = 0; i < 160; i++)
        grain_step(g);
}

/* r, little-endian limbs, for rejection sampling */
static const uint64_t fr_modulus[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                       0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

static int below_modulus(const uint64_t v[4]) {
    for (int i = 3; i >= 0; i--)
        if (v[i] != fr_modulus[i])
            return v[i] < fr_modulus[i];
    return 0;
}

static void gen_round_constants(fr *out, unsigned t, unsigned rf, unsigned rp) {
    grain g;
    grain_init(&g, t, rf, rp);
    unsigned need = (rf + rp) * t, have = 0;
    while (have < need) {
        uint64_t v[4] = {0, 0, 0, 0};
        for (int i = 254; i >= 0; i--) /* 255 bits, MSB first */
            v[i / 64] |= (uint64_t)grain_bit(&g) << (i % 64);
        if (below_modulus(v))
            fr_from_raw(&out[have++], v);
    }
}

/* ---- Cauchy MDS: M[i][j] = 1 / (x_i + y_j), x_i = i, y_j = t + j ------------ */

static void gen_mds(fr *m, unsigned t) {
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            fr s;
            fr_set_u64(&s, i + t + j);
            fr_inv(&m[i * t + j], &s);
        }
}

/* ---- lazy, once per arity ----------------------------------------------------- */

static void build(unsigned slot) {
    size_t rc_off = 0, mds_off = 0;
    unsigned rf = 0, rp = 0;
    for (unsigned i = 0; i <= slot; i++) {
        unsigned t = slot_arity[i] + 1;
        poseidon_round_numbers(t, &rf, &rp);
        if (i < slot) {
            rc_off += (size_t)(rf + rp) * t;
            mds_off += (size_t)t * t;
        }
    }
    poseidon_params *p = &params[slot];
    p->arity = slot_arity[slot];
    p->t = p->arity + 1;
    p->rf = rf;
    p->rp = rp;
    gen_round_constants(&rc_pool[rc_off], p->t, rf, rp);
    gen_mds(&mds_pool[mds_off], p->t);
    p->rc = &rc_pool[rc_off];
    p->mds = &mds_pool[mds_off];
    uint64_t tag[4] = {0, 0, 0, 0}; /* 2^arity - 1, arity <= 36 fits one limb */
    tag[0] = (UINT64_C(1) << p->arity) - 1;
    fr_from_raw(&p->tag, tag);
    p->opt = poseidon_opt_build(p); /* NULL on OOM: the reference form still works */
}

#define INIT_FN(i) \
    static void init_##i(void) { build(i); }
INIT_FN(0)
INIT_FN(1)
INIT_FN(2)
INIT_FN(3)
INIT_FN(4)
INIT_FN(5)
INIT_FN(6)
static void (*const init_fns[NSLOTS])(void) = {init_0, init_1, init_2, init_3,
                                               init_4, init_5, init_6};
static pthread_once_t once[NSLOTS] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                      PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                      PTHREAD_ONCE_INIT};

const poseidon_params *poseidon_params_get(unsigned arity) {
    int s = slot_of(arity);
    if (s < 0)
        return NULL;
    pthread_once(&once[s], init_fns[s]);
    return &params[s];
}
