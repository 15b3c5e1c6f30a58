/* The built-in test circuits (see toy_circuits.h). */
#include "cli/toy_circuits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cubic(r1cs_cs *cs, void *vctx) {
    toy_circuit *c = vctx;
    int v = r1cs_has_values(cs);
    fr x = c->u.cubic.x, x2, x3, y, five;
    fr_sqr(&x2, &x);
    fr_mul(&x3, &x2, &x);
    fr_set_u64(&five, 5);
    fr_add(&y, &x3, &x);
    fr_add(&y, &y, &five);
    r1cs_var vx = r1cs_alloc(cs, v ? &x : NULL);
    r1cs_var vx2 = r1cs_alloc(cs, v ? &x2 : NULL);
    r1cs_var vx3 = r1cs_alloc(cs, v ? &x3 : NULL);
    r1cs_var vy = r1cs_alloc_input(cs, v ? &y : NULL);
    r1cs_lc a, b, o;
    r1cs_lc_init(&a);
    r1cs_lc_init(&b);
    r1cs_lc_init(&o);
    r1cs_lc_set_var(&a, vx);
    r1cs_lc_set_var(&b, vx);
    r1cs_lc_set_var(&o, vx2);
    r1cs_enforce(cs, "x*x", &a, &b, &o);
    r1cs_lc_set_var(&a, vx2);
    r1cs_lc_set_var(&o, vx3);
    r1cs_enforce(cs, "x2*x", &a, &b, &o);
    r1cs_lc_set_var(&a, vx3);
    r1cs_lc_add_var(&a, vx);
    r1cs_lc_add_term(&a, R1CS_ONE, &five);
    r1cs_lc_set_var(&b, R1CS_ONE);
    r1cs_lc_set_var(&o, vy);
    r1cs_enforce(cs, "x3+x+5=y", &a, &b, &o);
    r1cs_lc_free(&a);
    r1cs_lc_free(&b);
    r1cs_lc_free(&o);
    return 0;
}

static uint64_t mix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    return z ^ (z >> 27);
}

/* Each constraint defines one new variable from two earlier ones, so every
 * variable is constrained; 8 seeds start the pool and are pinned at the end. */
static int random_circuit(r1cs_cs *cs, void *vctx) {
    toy_circuit *c = vctx;
    uint64_t s = c->u.random.seed;
    size_t n = c->u.random.n, nv = 0, cap = n + 8;
    int have = r1cs_has_values(cs);
    r1cs_var *vars = malloc(cap * sizeof *vars);
    fr *vals = malloc(cap * sizeof *vals);
    if (!vars || !vals) {
        free(vars);
        free(vals);
        return -1;
    }
    for (int i = 0; i < 8; i++) {
        fr_set_u64(&vals[nv], mix(&s));
        vars[nv] = r1cs_alloc(cs, have ? &vals[nv] : NULL);
        nv++;
    }
    r1cs_lc a, b, o;
    r1cs_lc_init(&a);
    r1cs_lc_init(&b);
    r1cs_lc_init(&o);
    for (size_t k = 0; k + 8 < n; k++) {
        uint64_t kind = mix(&s) % 4;
        size_t i = (size_t)(mix(&s) % nv), j = (size_t)(mix(&s) % nv);
        fr coeff;
        fr_set_u64(&coeff, 1 + mix(&s) % 1000);
        if (kind == 0 || kind == 3) { /* w = (v_i + coeff v_j) v_j, sometimes public */
            fr t;
            fr_mul(&t, &vals[j], &coeff);
            fr_add(&t, &t, &vals[i]);
            fr_mul(&vals[nv], &t, &vals[j]);
            int pub = kind == 3 && mix(&s) % 8 == 0;
            vars[nv] = pub ? r1cs_alloc_input(cs, have ? &vals[nv] : NULL)
                           : r1cs_alloc(cs, have ? &vals[nv] : NULL);
            r1cs_lc_set_var(&a, vars[i]);
            r1cs_lc_add_term(&a, vars[j], &coeff);
            r1cs_lc_set_var(&b, vars[j]);
            r1cs_lc_set_var(&o, vars[nv]);
        } else if (kind == 1) { /* a bit: w (1 - w) = 0 */
            fr_set_u64(&vals[nv], mix(&s) & 1);
            vars[nv] = r1cs_alloc(cs, have ? &vals[nv] : NULL);
            r1cs_lc_set_var(&a, vars[nv]);
            r1cs_lc_set_var(&b, R1CS_ONE);
            r1cs_lc_sub_var(&b, vars[nv]);
            r1cs_lc_clear(&o);
        } else { /* (v_i + v_j) 1 = w */
            fr_add(&vals[nv], &vals[i], &vals[j]);
            vars[nv] = r1cs_alloc(cs, have ? &vals[nv] : NULL);
            r1cs_lc_set_var(&a, vars[i]);
            r1cs_lc_add_var(&a, vars[j]);
            r1cs_lc_set_var(&b, R1CS_ONE);
            r1cs_lc_set_var(&o, vars[nv]);
        }
        nv++;
        r1cs_enforce(cs, NULL, &a, &b, &o);
    }
    for (int i = 0; i < 8; i++) { /* pin the seeds: v * 1 = v */
        r1cs_lc_set_var(&a, vars[i]);
        r1cs_lc_set_var(&b, R1CS_ONE);
        r1cs_lc_set_var(&o, vars[i]);
        r1cs_enforce(cs, NULL, &a, &b, &o);
    }
    r1cs_lc_free(&a);
    r1cs_lc_free(&b);
    r1cs_lc_free(&o);
    free(vars);
    free(vals);
    return 0;
}

int toy_circuit_parse(toy_circuit *c, const char *spec, char *why, size_t whylen) {
    memset(c, 0, sizeof *c);
    if (strncmp(spec, "cubic", 5) == 0 && (spec[5] == 0 || spec[5] == ':')) {
        unsigned long long x = spec[5] ? strtoull(spec + 6, NULL, 10) : 3;
        c->fn = cubic;
        fr_set_u64(&c->u.cubic.x, x);
        return 0;
    }
    unsigned long long n, seed = 1;
    if (sscanf(spec, "random:%llu:%llu", &n, &seed) >= 1 && n >= 9 && n <= (1ull << 28)) {
        c->fn = random_circuit;
        c->u.random.n = (size_t)n;
        c->u.random.seed = seed;
        return 0;
    }
    snprintf(why, whylen,
             "unknown circuit \"%s\" (built-in: cubic[:X], random:N[:SEED] with 9 <= N <= 2^28)",
             spec);
    return -1;
}
