/* neptune's Poseidon circuit: see poseidon_circuit.h.  Mirrors neptune v11
 * src/circuit.rs (PoseidonCircuit::hash, full_round, partial_round,
 * product_mds*, quintic_s_box*, square_sum, mul_sum) step by step, so the
 * variables and constraints come out in the same order with the same terms. */
#include "gadget/poseidon_circuit.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gadget/poseidon_neptune.h"
#include "util/switches.h"

/* neptune's Elt: an allocated num, or a linear combination with its value
 * (bellpepper's Num).  Round outputs stay LCs until an S-box needs them. */
typedef struct {
    int allocated; /* 1: var; 0: lc */
    int has_val;
    r1cs_var var;
    r1cs_lc lc;
    fr val;
} elt;

typedef struct {
    r1cs_cs *cs;
    const poseidon_neptune *n;
    unsigned t;
    elt *e, *tmp;   /* the state, and the scratch of a dense product */
    const fr *key;  /* next compressed round constant */
    unsigned round; /* rounds done (product_mds's current_round) */
    int lcs;        /* r1cs_wants_lcs: else only values are kept (witness mode) */
} circ;

static void elt_set_alloc(elt *x, const gnum *v) {
    x->allocated = 1;
    x->var = v->var;
    x->has_val = v->has_val;
    x->val = v->val;
    r1cs_lc_clear(&x->lc);
}

/* Elt::num_from_fr: the LC (c, ONE). */
static void elt_set_const(elt *x, const fr *c, int lcs) {
    x->allocated = 0;
    x->has_val = 1;
    x->val = *c;
    if (lcs)
        r1cs_lc_set_const(&x->lc, c);
}

static void elt_set_zero(elt *x) {
    x->allocated = 0;
    x->has_val = 1;
    fr_set_zero(&x->val);
    r1cs_lc_clear(&x->lc);
}

/* acc += k * x (Num::add of Elt::scale: an allocated x enters as (k, var)). */
static void elt_add_scaled(elt *acc, const fr *k, const elt *x, int lcs) {
    if (!lcs)
        ; /* witness mode: the value alone */
    else if (x->allocated)
        r1cs_lc_add_term(&acc->lc, x->var, k);
    else
        r1cs_lc_add_scaled(&acc->lc, k, &x->lc);
    if (acc->has_val && x->has_val) {
        fr p;
        fr_mul(&p, k, &x->val);
        fr_add(&acc->val, &acc->val, &p);
    } else {
        acc->has_val = 0;
    }
}

/* Elt::ensure_allocated(enforce = true): an LC becomes v with (lc)(ONE) = (v). */
static gnum ensure_allocated(r1cs_cs *cs, const elt *x) {
    gnum r;
    if (x->allocated) {
        r.var = x->var;
        r.has_val = x->has_val;
        r.val = x->val;
        return r;
    }
    r1cs_push(cs, "allocate for Elt::Num");
    r = gnum_alloc(cs, x->has_val ? &x->val : NULL);
    r1cs_pop(cs);
    R1CS_LC_ONLY(cs) {
        r1cs_lc one = R1CS_LC_INIT, v = R1CS_LC_INIT;
        r1cs_lc_add_var(&one, R1CS_ONE);
        r1cs_lc_add_var(&v, r.var);
        r1cs_enforce(cs, "enforce num allocation preserves lc", &x->lc, &one, &v);
    }
    return r;
}

/* lc = v + c * ONE (upstream's `lc + v + (c, ONE)`). */
static void lc_var_plus_const(r1cs_lc *lc, r1cs_var v, const fr *c) {
    r1cs_lc_clear(lc);
    r1cs_lc_add_var(lc, v);
    r1cs_lc_add_term(lc, R1CS_ONE, c);
}

/* square_sum: r = (l + pre)^2, (l + pre) * (l + pre) = (r). */
static gnum square_sum(r1cs_cs *cs, const fr *pre, const gnum *l) {
    fr s;
    fr_add(&s, &l->val, pre);
    fr_sqr(&s, &s);
    r1cs_push(cs, "squared sum");
    gnum r = gnum_alloc(cs, l->has_val ? &s : NULL);
    r1cs_pop(cs);
    R1CS_LC_ONLY(cs) {
        r1cs_lc a = R1CS_LC_INIT, c = R1CS_LC_INIT;
        lc_var_plus_const(&a, l->var, pre);
        r1cs_lc_add_var(&c, r.var);
        r1cs_enforce(cs, "squared sum constraint", &a, &a, &c);
    }
    return r;
}

/* mul_sum(a, b, pre, post): r = a (b + pre) + post, enforced as
 * (b [+ pre]) * (a) = (r [- post]); absent keys add no term. */
static gnum mul_sum(r1cs_cs *cs, const gnum *a, const gnum *b, const fr *pre, const fr *post) {
    fr v = b->val;
    if (pre)
        fr_add(&v, &v, pre);
    fr_mul(&v, &v, &a->val);
    if (post)
        fr_add(&v, &v, post);
    int known = a->has_val && b->has_val;
    r1cs_push(cs, "mul_sum");
    gnum r = gnum_alloc(cs, known ? &v : NULL);
    r1cs_pop(cs);
    if (!r1cs_wants_lcs(cs))
        return r;
    r1cs_lc la = R1CS_LC_INIT, lb = R1CS_LC_INIT, lc = R1CS_LC_INIT;
    if (pre)
        lc_var_plus_const(&la, b->var, pre);
    else
        r1cs_lc_add_var(&la, b->var);
    r1cs_lc_add_var(&lb, a->var);
    r1cs_lc_add_var(&lc, r.var);
    if (post) {
        fr neg;
        fr_neg(&neg, post);
        r1cs_lc_add_term(&lc, R1CS_ONE, &neg);
    }
    r1cs_enforce(cs, "mul sum constraint", &la, &lb, &lc);
    return r;
}

/* AllocatedNum::square in its namespace. */
static gnum square(r1cs_cs *cs, const gnum *l, const char *name) {
    r1cs_push(cs, "%s", name);
    gnum r = gnum_square(cs, l);
    r1cs_pop(cs);
    return r;
}

/* quintic_s_box: x <- l^5 + post (post may be NULL). */
static void sbox(r1cs_cs *cs, elt *x, const fr *post) {
    r1cs_push(cs, "S-box input");
    gnum l = ensure_allocated(cs, x);
    r1cs_pop(cs);
    gnum l2 = square(cs, &l, "l^2");
    gnum l4 = square(cs, &l2, "l^4");
    gnum l5 = mul_sum(cs, &l4, &l, NULL, post);
    elt_set_alloc(x, &l5);
}

/* quintic_s_box_pre_add: x <- (l + pre)^5 + post. */
static void sbox_pre_add(r1cs_cs *cs, elt *x, const fr *pre, const fr *post) {
    r1cs_push(cs, "S-box input");
    gnum l = ensure_allocated(cs, x);
    r1cs_pop(cs);
    gnum l2 = square_sum(cs, pre, &l);
    gnum l4 = square(cs, &l2, "l^4");
    gnum l5 = mul_sum(cs, &l4, &l, pre, post);
    elt_set_alloc(x, &l5);
}

/* product_mds: pre-sparse at round h-1, sparse M'' in the partial rounds, M
 * otherwise; out_j = sum_i e_i M[i][j] (row vector times matrix). */
static void product(circ *c) {
    const poseidon_params *p = c->n->p;
    const unsigned t = c->t, h = p->rf / 2;
    if (c->round >= h && c->round < h + p->rp) {
        const fr *w = c->n->w_hat + (size_t)(c->round - h) * t;
        const fr *v = c->n->v_rest + (size_t)(c->round - h) * (t - 1);
        elt *e0 = &c->tmp[0];
        elt_set_zero(e0);
        for (unsigned i = 0; i < t; i++)
            elt_add_scaled(e0, &w[i], &c->e[i], c->lcs);
        /* rows past the first: identity plus the first row's v_rest */
        for (unsigned j = 1; j < t; j++)
            elt_add_scaled(&c->e[j], &v[j - 1], &c->e[0], c->lcs);
        elt swap = c->e[0];
        c->e[0] = *e0;
        *e0 = swap;
    } else {
        const fr *m = c->round == h - 1 ? c->n->pre_sparse : p->mds;
        for (unsigned j = 0; j < t; j++) {
            elt_set_zero(&c->tmp[j]);
            for (unsigned i = 0; i < t; i++)
                elt_add_scaled(&c->tmp[j], &m[(size_t)i * t + j], &c->e[i], c->lcs);
        }
        elt *swap = c->e;
        c->e = c->tmp;
        c->tmp = swap;
    }
    c->round++;
}

static void full_round(circ *c, int first, int last) {
    const unsigned t = c->t;
    const fr *pre = first ? c->key : NULL;
    if (first)
        c->key += t;
    const fr *post = (first || !last) ? c->key : NULL;
    if (post)
        c->key += t;
    for (unsigned i = 0; i < t; i++) {
        if (first && i == 0) {
            /* the tag is a constant: its first S-box is computed, not enforced */
            fr x = c->e[0].val, x2;
            fr_add(&x, &x, &pre[0]);
            fr_sqr(&x2, &x);
            fr_sqr(&x2, &x2);
            fr_mul(&x, &x, &x2);
            fr_add(&x, &x, &post[0]);
            elt_set_const(&c->e[0], &x, c->lcs);
            continue;
        }
        r1cs_push(c->cs, "quintic s-box %u", i);
        if (first)
            sbox_pre_add(c->cs, &c->e[i], &pre[i], &post[i]);
        else
            sbox(c->cs, &c->e[i], post ? &post[i] : NULL);
        r1cs_pop(c->cs);
    }
    product(c);
}

static void partial_round(circ *c) {
    r1cs_push(c->cs, "solitary quintic s-box");
    sbox(c->cs, &c->e[0], c->key);
    r1cs_pop(c->cs);
    c->key++;
    product(c);
}

size_t poseidon_circuit_constraints(unsigned arity) {
    const poseidon_params *p = poseidon_params_get(arity);
    if (!p)
        return 0;
    size_t sboxes = (size_t)p->t * p->rf + p->rp;
    return 3 * (sboxes - 1) + (sboxes - arity);
}

static int hash_direct(r1cs_cs *cs, const gnum *preimage, unsigned arity, const fr *tag,
                       gnum *out) {
    const poseidon_neptune *n = poseidon_neptune_get(arity);
    if (!n)
        return -1;
    const poseidon_params *p = n->p;
    const unsigned t = p->t, h = p->rf / 2;
    elt *mem = calloc(2 * (size_t)t, sizeof(elt));
    if (!mem)
        return -1;
    for (unsigned i = 0; i < 2 * t; i++)
        r1cs_lc_init(&mem[i].lc);
    circ c = {cs, n, t, mem, mem + t, n->compressed_rc, 0, r1cs_wants_lcs(cs)};
    elt_set_const(&c.e[0], tag ? tag : &p->tag, c.lcs);
    for (unsigned i = 1; i < t; i++)
        elt_set_alloc(&c.e[i], &preimage[i - 1]);

    r1cs_push(cs, "first round");
    full_round(&c, 1, 0);
    r1cs_pop(cs);
    for (unsigned i = 1; i < h; i++) {
        r1cs_push(cs, "initial full round %u", i);
        full_round(&c, 0, 0);
        r1cs_pop(cs);
    }
    for (unsigned i = 0; i < p->rp; i++) {
        r1cs_push(cs, "partial round %u", i);
        partial_round(&c);
        r1cs_pop(cs);
    }
    for (unsigned i = 0; i + 1 < h; i++) {
        r1cs_push(cs, "final full round %u", i);
        full_round(&c, 0, 0);
        r1cs_pop(cs);
    }
    r1cs_push(cs, "terminal full round");
    full_round(&c, 0, 1);
    r1cs_pop(cs);

    r1cs_push(cs, "hash result");
    *out = ensure_allocated(cs, &c.e[1]);
    r1cs_pop(cs);
    for (unsigned i = 0; i < 2 * t; i++)
        r1cs_lc_free(&mem[i].lc);
    free(mem);
    return 0;
}

/* ---- replay of a recorded hash (modes without values) --------------------
 *
 * The constraints of one hash do not depend on the values: only on the
 * arity, the constants and which variables enter.  Without values (the
 * blank circuits of counting and parameter generation) the gadget above
 * spends its time multiplying LC coefficients by the round matrices (most of
 * a WindowPoSt count).  So the hash is recorded once per arity (R1CS_RECORD
 * with the preimage as aux 0 .. arity-1) and replayed: the new variables are
 * allocated, then every row is re-emitted with the preimage and the new
 * variables substituted.  Rows, terms, coefficients and densities are the
 * same (zero coefficients, which the recording drops, count nowhere); only
 * the allocations come before the rows instead of between them, which no
 * mode without values can observe.  CUZK_POSEIDON_REPLAY=0 turns it off. */
typedef struct replay {
    r1cs_matrices m;
    fr tag;              /* the domain tag it was recorded with */
    struct replay *next; /* tagged recordings: a short list */
    size_t rows;         /* circuit rows (the recording's input row dropped) */
    size_t new_aux;      /* variables the hash allocates */
    uint32_t out;        /* the result's column in m */
} replay;

static replay *g_replay[POSEIDON_CIRCUIT_MAX_ARITY + 1];
/* Other tags (neptune Custom hash types): their constants enter the rows'
 * ONE coefficients, so each (arity, tag) has its own recording. */
static replay *g_replay_tagged[POSEIDON_CIRCUIT_MAX_ARITY + 1];
static pthread_mutex_t g_replay_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct {
    replay *r;
    unsigned arity;
    const fr *tag; /* NULL: MerkleTree */
} record_ctx;

static int record_one(r1cs_cs *cs, void *ctx) {
    replay *r = ((record_ctx *)ctx)->r;
    const unsigned arity = ((record_ctx *)ctx)->arity;
    gnum pre[POSEIDON_CIRCUIT_MAX_ARITY], out;
    for (unsigned i = 0; i < arity; i++)
        pre[i] = gnum_alloc(cs, NULL);
    if (hash_direct(cs, pre, arity, ((record_ctx *)ctx)->tag, &out))
        return -1;
    r->out = (uint32_t)(1 + r1cs_var_index(out.var)); /* column: ONE, then aux */
    return 0;
}

static const replay *replay_get(unsigned arity, const fr *tag) {
    pthread_mutex_lock(&g_replay_lock);
    replay *r = tag ? g_replay_tagged[arity] : g_replay[arity];
    while (tag && r && !fr_equal(&r->tag, tag))
        r = r->next;
    if (!r && (r = calloc(1, sizeof *r)) != NULL) {
        r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
        record_ctx ctx = {r, arity, tag};
        if (!cs || r1cs_synthesize(cs, record_one, &ctx) || r1cs_take_matrices(cs, &r->m)) {
            free(r);
            r = NULL;
        } else {
            r->rows = r->m.num_constraints - r->m.num_inputs;
            r->new_aux = r->m.num_aux - arity;
            if (tag) {
                r->tag = *tag;
                r->next = g_replay_tagged[arity];
                g_replay_tagged[arity] = r;
            } else {
                g_replay[arity] = r;
            }
        }
        r1cs_cs_free(cs);
    }
    pthread_mutex_unlock(&g_replay_lock);
    return r;
}

static r1cs_var replay_var(uint32_t col, const gnum *preimage, unsigned arity, size_t base) {
    if (col == 0)
        return R1CS_ONE;
    if (col - 1 < arity)
        return preimage[col - 1].var;
    return r1cs_aux_var((uint32_t)(base + col - 1 - arity));
}

static void replay_lc(r1cs_lc *lc, const r1cs_csr *m, size_t row, const gnum *preimage,
                      unsigned arity, size_t base) {
    r1cs_lc_clear(lc);
    for (uint32_t k = m->row_ptr[row]; k < m->row_ptr[row + 1]; k++)
        r1cs_lc_add_term(lc, replay_var(m->col[k], preimage, arity, base), &m->val[k]);
}

static int hash_replay(r1cs_cs *cs, const replay *r, const gnum *preimage, unsigned arity,
                       gnum *out) {
    const size_t base = r1cs_num_aux(cs);
    for (size_t i = 0; i < r->new_aux; i++)
        r1cs_alloc(cs, NULL);
    r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, c = R1CS_LC_INIT;
    for (size_t j = 0; j < r->rows; j++) {
        replay_lc(&a, &r->m.a, j, preimage, arity, base);
        replay_lc(&b, &r->m.b, j, preimage, arity, base);
        replay_lc(&c, &r->m.c, j, preimage, arity, base);
        r1cs_enforce(cs, NULL, &a, &b, &c);
    }
    r1cs_lc_free(&a);
    r1cs_lc_free(&b);
    r1cs_lc_free(&c);
    out->var = replay_var(r->out, preimage, arity, base);
    out->has_val = 0;
    fr_set_zero(&out->val);
    return 0;
}

static int replay_enabled(void) { return switch_get(SW_POSEIDON_REPLAY) != 0; }

static int hash_any(r1cs_cs *cs, const gnum *preimage, unsigned arity, const fr *tag, gnum *out) {
    if (!poseidon_neptune_get(arity))
        return -1;
    if (r1cs_has_values(cs) || arity > POSEIDON_CIRCUIT_MAX_ARITY || !replay_enabled())
        return hash_direct(cs, preimage, arity, tag, out);
    for (unsigned i = 0; i < arity; i++)
        if (preimage[i].has_val) /* keep the value the direct form would compute */
            return hash_direct(cs, preimage, arity, tag, out);
    const replay *r = replay_get(arity, tag);
    if (!r)
        return hash_direct(cs, preimage, arity, tag, out);
    return hash_replay(cs, r, preimage, arity, out);
}

int poseidon_circuit_hash(r1cs_cs *cs, const gnum *preimage, unsigned arity, gnum *out) {
    return hash_any(cs, preimage, arity, NULL, out);
}

int poseidon_circuit_hash_tagged(r1cs_cs *cs, const gnum *preimage, unsigned arity, const fr *tag,
                                 gnum *out) {
    return hash_any(cs, preimage, arity, tag, out);
}

int poseidon_circuit_hash2_is(r1cs_cs *cs, const char *ns, gnum a, gnum b, gnum x,
                              const char *name) {
    gnum pre[2] = {a, b}, h;
    r1cs_push(cs, "%s", ns);
    int r = poseidon_circuit_hash(cs, pre, 2, &h);
    r1cs_pop(cs);
    if (r)
        return -1;
    R1CS_LC_ONLY(cs) {
        r1cs_lc la = R1CS_LC_INIT, lb = R1CS_LC_INIT, lc = R1CS_LC_INIT;
        r1cs_lc_add_var(&la, x.var);
        r1cs_lc_add_var(&lb, R1CS_ONE);
        r1cs_lc_add_var(&lc, h.var);
        r1cs_enforce(cs, name, &la, &lb, &lc);
        r1cs_lc_free(&la);
        r1cs_lc_free(&lb);
        r1cs_lc_free(&lc);
    }
    return 0;
}
