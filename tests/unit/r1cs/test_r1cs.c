/* Constraint-system modes on one synthesis API:
 *   - the toy circuit x^3 + x + 5 = y (y public) in every mode: exact rows,
 *     evaluations, densities and counts; checking names the failing
 *     constraint's namespace path; recorded CSR x assignment = evaluations;
 *   - a random circuit (~1000 constraints: products of random LCs with zero,
 *     one and repeated terms, bit decompositions with packing, inputs
 *     allocated between constraints) where proving-mode evaluations and
 *     densities equal what the recorded matrices give, and counts agree;
 *   - the capacity hint (exact, too small, too large) changes nothing;
 *   - errors: missing value, unknown variable, namespaces, use after finish. */
#include "check.h"
#include "field/constants.h"
#include "field/fr.h"
#include "r1cs/cs.h"

static fr fr_u(uint64_t v) {
    fr r;
    fr_set_u64(&r, v);
    return r;
}

/* ---- the toy circuit ------------------------------------------------------ */

typedef struct {
    uint64_t x, x_sq, x_cu, y; /* the witness, possibly wrong on purpose */
} toy_ctx;

static int toy(r1cs_cs *cs, void *vctx) {
    const toy_ctx *w = vctx;
    int v = r1cs_has_values(cs);
    fr x = fr_u(w->x), x_sq = fr_u(w->x_sq), x_cu = fr_u(w->x_cu), y = fr_u(w->y), five = fr_u(5);
    r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, c = R1CS_LC_INIT;

    r1cs_push(cs, "toy");
    r1cs_var vy = r1cs_alloc_input(cs, v ? &y : NULL);
    r1cs_var vx = r1cs_alloc(cs, v ? &x : NULL);
    r1cs_push(cs, "powers %d", 2);
    r1cs_var vsq = r1cs_alloc(cs, v ? &x_sq : NULL);
    r1cs_lc_set_var(&a, vx);
    r1cs_lc_set_var(&b, vx);
    r1cs_lc_set_var(&c, vsq);
    r1cs_enforce(cs, "x_sq", &a, &b, &c);
    r1cs_var vcu = r1cs_alloc(cs, v ? &x_cu : NULL);
    r1cs_lc_set_var(&a, vsq);
    r1cs_lc_set_var(&c, vcu);
    r1cs_enforcef(cs, &a, &b, &c, "x_cu (%s)", "x_sq * x");
    r1cs_pop(cs);
    /* (x_cu + x + 5) * ONE = y */
    r1cs_lc_set_var(&a, vcu);
    r1cs_lc_add_var(&a, vx);
    r1cs_lc_add_term(&a, R1CS_ONE, &five);
    r1cs_lc_set_var(&b, R1CS_ONE);
    r1cs_lc_set_var(&c, vy);
    r1cs_enforce(cs, "y", &a, &b, &c);
    r1cs_pop(cs);
    return 0;
}

static const toy_ctx TOY_GOOD = {3, 9, 27, 35};

static r1cs_cs *run(r1cs_mode mode, unsigned flags, const r1cs_hint *h, r1cs_synth_fn fn,
                    void *ctx) {
    r1cs_cs *cs = r1cs_cs_new(mode, flags, h);
    CHECK(cs != NULL);
    if (!cs)
        exit(2);
    int err = r1cs_synthesize(cs, fn, ctx);
    CHECK(err == R1CS_OK);
    if (err)
        fprintf(stderr, "synthesis: %s\n", r1cs_error_message(cs));
    return cs;
}

/* Rows of m x (input, aux) equal the evaluations ev[]. */
static int csr_matches(const r1cs_csr *m, const fr *ev, const r1cs_partition *p) {
    if (m->rows != p->num_constraints)
        return 0;
    fr *out = malloc((m->rows ? m->rows : 1) * sizeof(fr));
    r1cs_csr_mul(out, m, 0, m->rows, p->input, p->num_inputs, p->aux);
    int ok = memcmp(out, ev, m->rows * sizeof(fr)) == 0;
    free(out);
    return ok;
}

/* The density a matrix implies: bit i for every stored column in [lo, hi). */
static int density_matches(const r1cs_csr *m, size_t lo, size_t hi, const uint64_t *bits) {
    size_t n = hi - lo, words = r1cs_bitmap_words(n);
    uint64_t *want = calloc(words ? words : 1, sizeof(uint64_t));
    for (size_t k = 0; k < r1cs_csr_nnz(m); k++)
        if (m->col[k] >= lo && m->col[k] < hi)
            want[(m->col[k] - lo) / 64] |= (uint64_t)1 << ((m->col[k] - lo) % 64);
    int ok = words == 0 || memcmp(want, bits, words * sizeof(uint64_t)) == 0;
    free(want);
    return ok;
}

static void test_toy(void) {
    toy_ctx good = TOY_GOOD;

    /* proving */
    r1cs_cs *cs = run(R1CS_PROVE, 0, NULL, toy, &good);
    r1cs_partition p;
    CHECK(r1cs_take_partition(cs, &p) == R1CS_OK);
    CHECK(p.num_constraints == 5 && p.num_inputs == 2 && p.num_aux == 3);
    const uint64_t want_a[5] = {3, 9, 35, 1, 35}, want_b[5] = {3, 3, 1, 0, 0},
                   want_c[5] = {9, 27, 35, 0, 0};
    for (int j = 0; j < 5; j++) {
        fr wa = fr_u(want_a[j]), wb = fr_u(want_b[j]), wc = fr_u(want_c[j]), ab;
        CHECK(fr_equal(&p.a[j], &wa) && fr_equal(&p.b[j], &wb) && fr_equal(&p.c[j], &wc));
        fr_mul(&ab, &p.a[j], &p.b[j]);
        CHECK(fr_equal(&ab, &p.c[j]));
    }
    fr one = fr_u(1), y = fr_u(35);
    CHECK(fr_equal(&p.input[0], &one) && fr_equal(&p.input[1], &y));
    CHECK(p.a_aux_density[0] == 0x7);   /* x, x_sq, x_cu all in A */
    CHECK(p.b_input_density[0] == 0x1); /* only ONE in B */
    CHECK(p.b_aux_density[0] == 0x1);   /* only x in B */
    CHECK(r1cs_partition_bytes(&p) == (3 * 5 + 2 + 3) * 32 + 3 * 8);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && !k.checked && k.nnz_a == 7);
    r1cs_cs_free(cs);

    /* counting: exact numbers, nothing checked without values */
    cs = run(R1CS_COUNT, 0, NULL, toy, &good);
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    CHECK(k.constraints == 3 && k.constraints_total == 5 && k.inputs == 2 && k.aux == 3);
    CHECK(k.nnz_a == 7 && k.nnz_b == 3 && k.nnz_c == 3);
    CHECK(!k.checked && !k.satisfied && k.unsatisfied_path == NULL);
    CHECK(!r1cs_has_values(cs) && strcmp(r1cs_path(cs), "") == 0);
    r1cs_cs_free(cs);

    /* checking: a good witness passes, wrong ones name their constraint */
    cs = run(R1CS_COUNT, R1CS_VALUES, NULL, toy, &good);
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked && k.satisfied);
    r1cs_cs_free(cs);
    const struct {
        toy_ctx w;
        size_t row;
        const char *path;
    } bad[] = {{{3, 10, 30, 38}, 0, "toy/powers 2/x_sq"},
               {{3, 9, 28, 36}, 1, "toy/powers 2/x_cu (x_sq * x)"},
               {{3, 9, 27, 36}, 2, "toy/y"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        toy_ctx w = bad[i].w;
        cs = run(R1CS_COUNT, R1CS_VALUES, NULL, toy, &w);
        CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked && !k.satisfied);
        CHECK(k.first_unsatisfied == bad[i].row);
        CHECK(k.unsatisfied_path && strcmp(k.unsatisfied_path, bad[i].path) == 0);
        if (k.unsatisfied_path && strcmp(k.unsatisfied_path, bad[i].path) != 0)
            fprintf(stderr, "got \"%s\", want \"%s\"\n", k.unsatisfied_path, bad[i].path);
        CHECK(k.constraints == 3 && k.nnz_a == 7); /* counting goes on after a failure */
        r1cs_cs_free(cs);
    }

    /* recording: the expected CSR, and CSR x assignment = proving evaluations */
    cs = run(R1CS_RECORD, 0, NULL, toy, &good);
    CHECK(!r1cs_has_values(cs));
    r1cs_matrices m;
    CHECK(r1cs_take_matrices(cs, &m) == R1CS_OK);
    CHECK(m.num_constraints == 5 && m.num_inputs == 2 && m.num_aux == 3);
    /* columns: 0 ONE, 1 y, 2 x, 3 x_sq, 4 x_cu; row 2's A is ONE*5, x, x_cu */
    const uint32_t a_ptr[6] = {0, 1, 2, 5, 6, 7}, a_col[7] = {2, 3, 0, 2, 4, 0, 1};
    CHECK(memcmp(m.a.row_ptr, a_ptr, sizeof a_ptr) == 0);
    CHECK(memcmp(m.a.col, a_col, sizeof a_col) == 0);
    fr five = fr_u(5);
    CHECK(fr_equal(&m.a.val[2], &five));
    const uint32_t b_ptr[6] = {0, 1, 2, 3, 3, 3}, b_col[3] = {2, 2, 0};
    CHECK(memcmp(m.b.row_ptr, b_ptr, sizeof b_ptr) == 0 &&
          memcmp(m.b.col, b_col, sizeof b_col) == 0);
    CHECK(r1cs_csr_nnz(&m.c) == 3 && m.c.col[2] == 1);
    CHECK(csr_matches(&m.a, p.a, &p) && csr_matches(&m.b, p.b, &p) && csr_matches(&m.c, p.c, &p));
    CHECK(r1cs_matrices_bytes(&m) == 3 * 6 * 4 + 13 * 36);
    r1cs_matrices_free(&m);
    r1cs_cs_free(cs);
    r1cs_partition_free(&p);
}

/* ---- a random circuit --------------------------------------------------------- */

typedef struct {
    uint64_t seed;
    int target;     /* constraints to emit, roughly */
    size_t corrupt; /* 1 + index of an aux value to hand over wrong, or 0 */
    fr *in, *aux;   /* the circuit's own copy of the values, to evaluate LCs */
    size_t nin, naux;
} rnd_ctx;

static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static fr rng_fr(uint64_t *s) {
    uint8_t b[32];
    for (int i = 0; i < 4; i++) {
        uint64_t w = rng_next(s);
        memcpy(b + 8 * i, &w, 8);
    }
    fr r;
    fr_from_bytes_le_reduce(&r, b);
    return r;
}

static r1cs_var rnd_alloc(r1cs_cs *cs, rnd_ctx *c, const fr *val, int input) {
    /* values always computed, passed only when the mode wants them */
    const fr *v = r1cs_has_values(cs) ? val : NULL;
    if (input) {
        c->in[c->nin++] = *val;
        return r1cs_alloc_input(cs, v);
    }
    fr wrong;
    if (v && c->corrupt == c->naux + 1) {
        fr_add(&wrong, val, &FR_ONE);
        v = &wrong;
    }
    c->aux[c->naux++] = *val;
    return r1cs_alloc(cs, v);
}

/* A random LC over existing variables: zero, one and random coefficients,
 * repeated variables, sometimes empty. */
static void rnd_lc(r1cs_lc *lc, rnd_ctx *c, uint64_t *s) {
    r1cs_lc_clear(lc);
    int n = (int)(rng_next(s) % 7);
    for (int i = 0; i < n; i++) {
        uint64_t r = rng_next(s);
        r1cs_var v = (r % 4 == 0 || c->naux == 0) ? r1cs_input_var((uint32_t)(r / 4 % c->nin))
                                                  : r1cs_aux_var((uint32_t)(r / 4 % c->naux));
        fr k = (r >> 60) < 3 ? fr_u((r >> 60) & 1) : rng_fr(s);
        if ((r >> 59) & 1)
            r1cs_lc_sub_term(lc, v, &k);
        else
            r1cs_lc_add_term(lc, v, &k);
    }
}

static int rnd_circuit(r1cs_cs *cs, void *vctx) {
    rnd_ctx *c = vctx;
    uint64_t s = c->seed;
    c->nin = 1;
    c->in[0] = FR_ONE;
    c->naux = 0;
    r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, cc = R1CS_LC_INIT, pack = R1CS_LC_INIT;
    fr va, vb, prod;
    for (int made = 0; made < c->target;) {
        uint64_t kind = rng_next(&s) % 10;
        r1cs_push(cs, "step %d", made);
        if (kind == 0) { /* a public input, constrained to equal a new aux */
            fr val = rng_fr(&s);
            r1cs_var in = rnd_alloc(cs, c, &val, 1), w = rnd_alloc(cs, c, &val, 0);
            r1cs_lc_set_var(&a, in);
            r1cs_lc_set_var(&b, R1CS_ONE);
            r1cs_lc_set_var(&cc, w);
            r1cs_enforce(cs, "input copy", &a, &b, &cc);
            made++;
        } else if (kind == 1) { /* 8..70 bits, booleanity, then a packing row */
            uint64_t x = rng_next(&s);
            int nbits = 8 + (int)(rng_next(&s) % 63);
            r1cs_lc_clear(&pack);
            fr pow = FR_ONE;
            for (int i = 0; i < nbits; i++) {
                fr bit = fr_u(i < 64 ? (x >> i) & 1 : 0);
                r1cs_var bv = rnd_alloc(cs, c, &bit, 0);
                r1cs_lc_set_var(&a, R1CS_ONE); /* (1 - b) * b = 0 */
                r1cs_lc_sub_var(&a, bv);
                r1cs_lc_set_var(&b, bv);
                r1cs_lc_clear(&cc);
                r1cs_enforcef(cs, &a, &b, &cc, "bit %d", i);
                r1cs_lc_add_term(&pack, bv, &pow);
                fr_add(&pow, &pow, &pow);
            }
            fr packed;
            r1cs_lc_eval(&packed, &pack, c->in, c->aux);
            r1cs_var pv = rnd_alloc(cs, c, &packed, 0);
            r1cs_lc_set_var(&b, R1CS_ONE);
            r1cs_lc_set_var(&cc, pv);
            r1cs_enforce(cs, "pack", &pack, &b, &cc);
            made += nbits + 1;
        } else { /* w = <a> * <b> for random LCs; c = w + (random LC - itself) */
            rnd_lc(&a, c, &s);
            rnd_lc(&b, c, &s);
            r1cs_lc_eval(&va, &a, c->in, c->aux);
            r1cs_lc_eval(&vb, &b, c->in, c->aux);
            fr_mul(&prod, &va, &vb);
            r1cs_var w = rnd_alloc(cs, c, &prod, 0);
            rnd_lc(&cc, c, &s);
            r1cs_lc_sub(&cc, &cc); /* all-zero terms: kept, but skipped everywhere */
            r1cs_lc_add_var(&cc, w);
            r1cs_enforce(cs, "product", &a, &b, &cc);
            made++;
        }
        r1cs_pop(cs);
    }
    r1cs_lc_free(&a);
    r1cs_lc_free(&b);
    r1cs_lc_free(&cc);
    r1cs_lc_free(&pack);
    return 0;
}

static int same_partition(const r1cs_partition *x, const r1cs_partition *y) {
    if (x->num_constraints != y->num_constraints || x->num_inputs != y->num_inputs ||
        x->num_aux != y->num_aux)
        return 0;
    size_t rows = x->num_constraints * sizeof(fr), aw = r1cs_bitmap_words(x->num_aux) * 8;
    return !memcmp(x->a, y->a, rows) && !memcmp(x->b, y->b, rows) && !memcmp(x->c, y->c, rows) &&
           !memcmp(x->input, y->input, x->num_inputs * sizeof(fr)) &&
           !memcmp(x->aux, y->aux, x->num_aux * sizeof(fr)) &&
           !memcmp(x->a_aux_density, y->a_aux_density, aw) &&
           !memcmp(x->b_aux_density, y->b_aux_density, aw) &&
           !memcmp(x->b_input_density, y->b_input_density, r1cs_bitmap_words(x->num_inputs) * 8);
}

static int fr_cmp(const void *x, const void *y) { return memcmp(x, y, sizeof(fr)); }

/* Bytes a recording of m holds when nothing grew: row pointers and 6 bytes a
 * term (column, u16 dictionary index), plus the coefficient dictionary (+1, -1
 * and the other distinct values; its vector doubles from 256 entries, its
 * hash table from 1024 slots, kept at most half full). */
static size_t compact_bytes(const r1cs_matrices *m) {
    const r1cs_csr *x[3] = {&m->a, &m->b, &m->c};
    size_t n = 0, bytes = 0;
    for (int i = 0; i < 3; i++)
        n += r1cs_csr_nnz(x[i]);
    fr *v = malloc((n + 2) * sizeof(fr));
    size_t at = 0;
    for (int i = 0; i < 3; i++) {
        bytes += (x[i]->rows + 1) * 4 + r1cs_csr_nnz(x[i]) * 6;
        memcpy(v + at, x[i]->val, r1cs_csr_nnz(x[i]) * sizeof(fr));
        at += r1cs_csr_nnz(x[i]);
    }
    v[n] = FR_ONE;
    fr_neg(&v[n + 1], &FR_ONE);
    qsort(v, n + 2, sizeof(fr), fr_cmp);
    size_t d = 0;
    for (size_t k = 0; k < n + 2; k++)
        d += k == 0 || memcmp(&v[k], &v[k - 1], sizeof(fr)) != 0;
    free(v);
    size_t cap = 256, slots = 1024;
    while (cap < d)
        cap *= 2;
    while (2 * d > slots)
        slots *= 2;
    return bytes + cap * sizeof(fr) + slots * 4;
}

static int same_csr(const r1cs_csr *x, const r1cs_csr *y) {
    size_t n = r1cs_csr_nnz(x);
    return x->rows == y->rows && n == r1cs_csr_nnz(y) &&
           !memcmp(x->row_ptr, y->row_ptr, (x->rows + 1) * 4) && !memcmp(x->col, y->col, n * 4) &&
           !memcmp(x->val, y->val, n * sizeof(fr));
}

static void test_random_circuit(void) {
    rnd_ctx ctx = {.seed = check_rand64(), .target = 1000};
    ctx.in = malloc(4096 * sizeof(fr));
    ctx.aux = malloc(16384 * sizeof(fr));

    r1cs_cs *cs = run(R1CS_PROVE, 0, NULL, rnd_circuit, &ctx);
    r1cs_partition p;
    CHECK(r1cs_take_partition(cs, &p) == R1CS_OK);
    r1cs_counts kp;
    r1cs_get_counts(cs, &kp);
    r1cs_cs_free(cs);
    CHECK(p.num_inputs == ctx.nin && p.num_aux == ctx.naux && p.num_inputs > 1);
    CHECK(!memcmp(p.aux, ctx.aux, ctx.naux * sizeof(fr)));
    int sat = 1;
    for (size_t j = 0; j < p.num_constraints; j++) {
        fr ab;
        fr_mul(&ab, &p.a[j], &p.b[j]);
        sat &= fr_equal(&ab, &p.c[j]);
    }
    CHECK(sat);

    cs = run(R1CS_RECORD, 0, NULL, rnd_circuit, &ctx);
    r1cs_matrices m;
    CHECK(r1cs_take_matrices(cs, &m) == R1CS_OK);
    r1cs_cs_free(cs);
    CHECK(m.num_constraints == p.num_constraints && m.num_inputs == p.num_inputs &&
          m.num_aux == p.num_aux);
    CHECK(csr_matches(&m.a, p.a, &p) && csr_matches(&m.b, p.b, &p) && csr_matches(&m.c, p.c, &p));
    size_t nin = p.num_inputs, cols = nin + p.num_aux;
    CHECK(density_matches(&m.a, nin, cols, p.a_aux_density));
    CHECK(density_matches(&m.b, 0, nin, p.b_input_density));
    CHECK(density_matches(&m.b, nin, cols, p.b_aux_density));

    cs = run(R1CS_COUNT, R1CS_VALUES, NULL, rnd_circuit, &ctx);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked && k.satisfied);
    r1cs_cs_free(cs);
    CHECK(k.constraints_total == p.num_constraints &&
          k.constraints + k.inputs == p.num_constraints);
    CHECK(k.inputs == p.num_inputs && k.aux == p.num_aux);
    CHECK(k.nnz_a == r1cs_csr_nnz(&m.a) && k.nnz_b == r1cs_csr_nnz(&m.b) &&
          k.nnz_c == r1cs_csr_nnz(&m.c));
    CHECK(kp.nnz_a == k.nnz_a && kp.nnz_b == k.nnz_b && kp.nnz_c == k.nnz_c);
    printf("random circuit: %zu rows, %zu inputs, %zu aux, nnz %llu/%llu/%llu\n",
           k.constraints_total, k.inputs, k.aux, (unsigned long long)k.nnz_a,
           (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c);

    /* a wrong aux value somewhere is found */
    ctx.corrupt = 1 + check_rand64() % k.aux;
    cs = run(R1CS_COUNT, R1CS_VALUES, NULL, rnd_circuit, &ctx);
    r1cs_counts kc;
    CHECK(r1cs_get_counts(cs, &kc) == R1CS_OK && kc.checked && !kc.satisfied);
    CHECK(kc.unsatisfied_path && strncmp(kc.unsatisfied_path, "step ", 5) == 0);
    printf("aux %zu corrupted: row %zu \"%s\" fails\n", ctx.corrupt - 1, kc.first_unsatisfied,
           kc.unsatisfied_path ? kc.unsatisfied_path : "");
    r1cs_cs_free(cs);
    ctx.corrupt = 0;

    /* the capacity hint: exact, too small, too large - identical results */
    const r1cs_hint hints[3] = {
        {k.constraints, k.inputs, k.aux, k.nnz_a, k.nnz_b, k.nnz_c},
        {k.constraints / 3, 1, k.aux / 5, k.nnz_a / 2, 1, 0},
        {k.constraints * 2, k.inputs + 100, k.aux * 3, k.nnz_a * 2, k.nnz_b * 2, k.nnz_c * 2}};
    for (int h = 0; h < 3; h++) {
        cs = run(R1CS_PROVE, 0, &hints[h], rnd_circuit, &ctx);
        r1cs_partition q;
        CHECK(r1cs_take_partition(cs, &q) == R1CS_OK);
        CHECK(same_partition(&p, &q));
        CHECK(r1cs_bytes(cs) == 0); /* everything moved out, trimmed */
        if (h == 0)
            CHECK(r1cs_peak_bytes(cs) == r1cs_partition_bytes(&q)); /* no growth at all */
        r1cs_cs_free(cs);
        r1cs_partition_free(&q);

        cs = run(R1CS_RECORD, 0, &hints[h], rnd_circuit, &ctx);
        r1cs_matrices n;
        CHECK(r1cs_take_matrices(cs, &n) == R1CS_OK);
        CHECK(same_csr(&m.a, &n.a) && same_csr(&m.b, &n.b) && same_csr(&m.c, &n.c));
        if (h == 0) /* no growth at all: the compact form and the dictionary */
            CHECK(r1cs_peak_bytes(cs) == compact_bytes(&n));
        r1cs_cs_free(cs);
        r1cs_matrices_free(&n);

        cs = run(R1CS_COUNT, R1CS_VALUES, &hints[h], rnd_circuit, &ctx);
        r1cs_counts kh;
        r1cs_get_counts(cs, &kh);
        CHECK(kh.satisfied && kh.constraints == k.constraints && kh.nnz_b == k.nnz_b);
        r1cs_cs_free(cs);
    }

    r1cs_matrices_free(&m);
    r1cs_partition_free(&p);
    free(ctx.in);
    free(ctx.aux);
}

/* ---- errors ------------------------------------------------------------------- */

static int missing_value(r1cs_cs *cs, void *ctx) {
    (void)ctx;
    r1cs_alloc(cs, NULL);
    return 0;
}

static int unknown_var(r1cs_cs *cs, void *ctx) {
    (void)ctx;
    r1cs_lc a = R1CS_LC_INIT, z = R1CS_LC_INIT;
    fr one = FR_ONE;
    r1cs_alloc(cs, &one);
    r1cs_lc_set_var(&a, r1cs_aux_var(1)); /* only aux 0 exists */
    r1cs_enforce(cs, "bad", &a, &z, &z);
    return 0;
}

/* a zero coefficient does not excuse an unknown variable, in any mode */
static int unknown_var_zero(r1cs_cs *cs, void *ctx) {
    (void)ctx;
    r1cs_lc a = R1CS_LC_INIT, z = R1CS_LC_INIT;
    fr zero;
    fr_set_zero(&zero);
    r1cs_lc_add_term(&a, r1cs_input_var(5), &zero);
    r1cs_enforce(cs, "bad", &z, &a, &z);
    return 0;
}

static int open_namespace(r1cs_cs *cs, void *ctx) {
    (void)ctx;
    r1cs_push(cs, "left open");
    return 0;
}

static int extra_pop(r1cs_cs *cs, void *ctx) {
    (void)ctx;
    r1cs_pop(cs);
    return 0;
}

static int fails(r1cs_cs *cs, void *ctx) {
    (void)cs;
    (void)ctx;
    return -1;
}

static void test_errors(void) {
    const struct {
        r1cs_mode mode;
        r1cs_synth_fn fn;
        int err;
    } cases[] = {{R1CS_PROVE, missing_value, R1CS_ERR_MISSING_VALUE},
                 {R1CS_COUNT, missing_value, R1CS_OK},
                 {R1CS_PROVE, unknown_var, R1CS_ERR_BAD_VARIABLE},
                 {R1CS_COUNT, unknown_var, R1CS_ERR_BAD_VARIABLE},
                 {R1CS_RECORD, unknown_var, R1CS_ERR_BAD_VARIABLE},
                 {R1CS_PROVE, unknown_var_zero, R1CS_ERR_BAD_VARIABLE},
                 {R1CS_COUNT, unknown_var_zero, R1CS_ERR_BAD_VARIABLE},
                 {R1CS_RECORD, unknown_var_zero, R1CS_ERR_BAD_VARIABLE},
                 {R1CS_COUNT, open_namespace, R1CS_ERR_NAMESPACE},
                 {R1CS_RECORD, extra_pop, R1CS_ERR_NAMESPACE},
                 {R1CS_PROVE, fails, R1CS_ERR_CIRCUIT}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r1cs_cs *cs = r1cs_cs_new(cases[i].mode, 0, NULL);
        CHECK(r1cs_synthesize(cs, cases[i].fn, NULL) == cases[i].err);
        CHECK(r1cs_error(cs) == cases[i].err && (cases[i].err == 0) == !*r1cs_error_message(cs));
        r1cs_partition p;
        if (cases[i].err)
            CHECK(r1cs_take_partition(cs, &p) == cases[i].err && p.a == NULL);
        r1cs_cs_free(cs);
    }
    /* after finish: no more constraints; results only from the right mode */
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_ERR_STATE);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.constraints == 0 && k.constraints_total == 1);
    r1cs_matrices m;
    CHECK(r1cs_take_matrices(cs, &m) == R1CS_ERR_STATE);
    r1cs_lc z = R1CS_LC_INIT;
    r1cs_enforce(cs, NULL, &z, &z, &z);
    CHECK(r1cs_error(cs) == R1CS_ERR_STATE);
    r1cs_cs_free(cs);
}

int main(void) {
    check_seed("test_r1cs");
    test_toy();
    test_random_circuit();
    test_errors();
    return check_finish();
}
