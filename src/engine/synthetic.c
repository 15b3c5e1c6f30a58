/* The synthetic test/benchmark circuit provider (see synthetic.h). */
#include "engine/synthetic.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/provider_util.h"
#include "groth16/setup.h"
#include "r1cs/cs.h"

typedef struct synthetic_circuit {
    char id[ENGINE_CIRCUIT_ID_LEN];
    size_t k;
    uint64_t partition_bytes;
    uint64_t rows, num_inputs, num_aux;
    struct synthetic_circuit *next;
} synthetic_circuit;

struct engine_synthetic {
    synthetic_circuit *circuits;
};

typedef struct {
    size_t k;
    uint64_t seed, partition, work;
} synth_ctx;

typedef struct {
    const synthetic_circuit *c;
    unsigned partitions;
    uint64_t seed, work;
    synth_ctx blank; /* the plan's blank circuit */
} synthetic_request;

static uint64_t mix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int chain_circuit(r1cs_cs *cs, void *vctx) {
    const synth_ctx *c = vctx;
    int v = r1cs_has_values(cs);
    fr x, tag, w;
    fr_set_u64(&x, mix64(c->seed * 1000003u + c->partition));
    for (uint64_t i = 0; v && i < c->work; i++) /* witness-only work: the structure is fixed */
        fr_sqr(&x, &x);
    fr_set_u64(&tag, (c->seed << 16) + c->partition);
    fr_add(&w, &x, &tag);
    r1cs_var vtag = r1cs_alloc_input(cs, v ? &tag : NULL);
    r1cs_var vx = r1cs_alloc(cs, v ? &x : NULL);
    r1cs_var vw = r1cs_alloc(cs, v ? &w : NULL);
    r1cs_lc a, b, o;
    r1cs_lc_init(&a);
    r1cs_lc_init(&b);
    r1cs_lc_init(&o);
    r1cs_lc_set_var(&a, vx); /* (x_0 + tag) * 1 = w */
    r1cs_lc_add_var(&a, vtag);
    r1cs_lc_set_var(&b, R1CS_ONE);
    r1cs_lc_set_var(&o, vw);
    r1cs_enforce(cs, "tag", &a, &b, &o);
    size_t steps = c->k - 2;
    for (size_t i = 0; i < steps; i++) { /* x' = x^2 + c_i */
        fr ci, nx;
        fr_set_u64(&ci, i + 1);
        fr_sqr(&nx, &x);
        fr_add(&nx, &nx, &ci);
        r1cs_var vn =
            i + 1 == steps ? r1cs_alloc_input(cs, v ? &nx : NULL) : r1cs_alloc(cs, v ? &nx : NULL);
        r1cs_lc_set_var(&a, vx);
        r1cs_lc_set_var(&b, vx);
        r1cs_lc_set_var(&o, vn);
        r1cs_lc_sub_term(&o, R1CS_ONE, &ci);
        r1cs_enforce(cs, "square", &a, &b, &o);
        vx = vn;
        x = nx;
    }
    /* 1 * w = w puts w in B's density as well as A's */
    r1cs_lc_set_var(&a, R1CS_ONE);
    r1cs_lc_set_var(&b, vw);
    r1cs_lc_set_var(&o, vw);
    r1cs_enforce(cs, "1*w", &a, &b, &o);
    r1cs_lc_free(&a);
    r1cs_lc_free(&b);
    r1cs_lc_free(&o);
    return 0;
}

engine_synthetic *engine_synthetic_new(void) { return calloc(1, sizeof(engine_synthetic)); }

void engine_synthetic_free(engine_synthetic *s) {
    if (!s)
        return;
    for (synthetic_circuit *c = s->circuits, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(s);
}

static const synthetic_circuit *find(const engine_synthetic *s, const char *id) {
    for (const synthetic_circuit *c = s->circuits; c; c = c->next)
        if (strcmp(c->id, id) == 0)
            return c;
    return NULL;
}

static int synthesize(r1cs_partition *out, const synthetic_circuit *c, uint64_t seed,
                      uint64_t partition, uint64_t work, char err[CUZK_ERROR_LEN]) {
    synth_ctx ctx = {c->k, seed, partition, work};
    r1cs_hint hint = {c->k, 3, c->k, 0, 0, 0};
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, &hint);
    if (!cs) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return -1;
    }
    int rc = r1cs_synthesize(cs, chain_circuit, &ctx);
    if (rc == R1CS_OK)
        rc = r1cs_take_partition(cs, out);
    if (rc != R1CS_OK)
        snprintf(err, CUZK_ERROR_LEN, "synthetic %s: %s", c->id, r1cs_error_message(cs));
    r1cs_cs_free(cs);
    return rc == R1CS_OK ? 0 : -1;
}

cuzk_status engine_synthetic_add(engine_synthetic *s, const char *circuit_id, size_t k,
                                 char err[CUZK_ERROR_LEN]) {
    if (!circuit_id || !*circuit_id || strlen(circuit_id) >= ENGINE_CIRCUIT_ID_LEN ||
        strchr(circuit_id, ' ') || strchr(circuit_id, '/') || k < 4 || k > (1u << 24)) {
        snprintf(err, CUZK_ERROR_LEN, "synthetic: bad circuit \"%.64s\" with %zu constraints",
                 circuit_id ? circuit_id : "", k);
        return CUZK_E_INVALID;
    }
    synthetic_circuit *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return CUZK_E_INTERNAL;
    }
    snprintf(c->id, sizeof c->id, "%s", circuit_id);
    c->k = k;
    r1cs_partition p;
    if (synthesize(&p, c, 0, 0, 0, err) != 0) { /* sizes do not depend on the witness */
        free(c);
        return CUZK_E_INTERNAL;
    }
    c->partition_bytes = r1cs_partition_bytes(&p);
    c->rows = p.num_constraints;
    c->num_inputs = p.num_inputs;
    c->num_aux = p.num_aux;
    r1cs_partition_free(&p);
    c->next = s->circuits;
    s->circuits = c;
    return CUZK_OK;
}

void engine_synthetic_stem(char out[128], const char *circuit_id) {
    snprintf(out, 128, "v28-cuzk-synthetic-%.64s", circuit_id);
}

uint64_t engine_synthetic_partition_bytes(const engine_synthetic *s, const char *circuit_id) {
    const synthetic_circuit *c = find(s, circuit_id);
    return c ? c->partition_bytes : 0;
}

cuzk_status engine_synthetic_write_params(engine_synthetic *s, const char *circuit_id,
                                          const char *dir, unsigned threads,
                                          char err[CUZK_ERROR_LEN]) {
    const synthetic_circuit *c = find(s, circuit_id);
    if (!c) {
        snprintf(err, CUZK_ERROR_LEN, "synthetic: unknown circuit \"%.64s\"", circuit_id);
        return CUZK_E_NOT_FOUND;
    }
    synth_ctx ctx = {c->k, 0, 0, 0};
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_matrices mx;
    if (!cs || r1cs_synthesize(cs, chain_circuit, &ctx) != R1CS_OK ||
        r1cs_take_matrices(cs, &mx) != R1CS_OK) {
        snprintf(err, CUZK_ERROR_LEN, "synthetic %s: recording failed", c->id);
        r1cs_cs_free(cs);
        return CUZK_E_INTERNAL;
    }
    r1cs_cs_free(cs);
    groth16_toxic t;
    groth16_setup_result res;
    groth16_error ge = {0};
    cuzk_status st = CUZK_E_INTERNAL;
    if (groth16_toxic_random(&t, &ge) == GROTH16_OK &&
        groth16_setup(&res, &mx, &t, threads, &ge) == GROTH16_OK) {
        memset(&t, 0, sizeof t);
        char stem[128], path[4096 + 160];
        engine_synthetic_stem(stem, c->id);
        groth16_params_data d = groth16_setup_data(&res);
        snprintf(path, sizeof path, "%.4000s/%s.params", dir, stem);
        FILE *pf = fopen(path, "wb");
        int ok = pf && groth16_params_write(pf, &d, &ge) == GROTH16_OK;
        if (pf && fclose(pf) != 0)
            ok = 0;
        snprintf(path, sizeof path, "%.4000s/%s.vk", dir, stem);
        FILE *vf = ok ? fopen(path, "wb") : NULL;
        ok = ok && vf && groth16_vk_write_file(vf, &res.vk, &ge) == GROTH16_OK;
        if (vf && fclose(vf) != 0)
            ok = 0;
        snprintf(path, sizeof path, "%.4000s/%s.params.meta", dir, stem);
        json_t *m = json_pack("{s:b, s:s, s:s}", "test_only", 1, "warning",
                              "TEST-ONLY parameters from random toxic waste: whoever ran this "
                              "setup can forge proofs",
                              "circuit", c->id);
        ok = ok && m && json_dump_file(m, path, JSON_INDENT(2)) == 0;
        json_decref(m);
        if (ok)
            st = CUZK_OK;
        else
            snprintf(err, CUZK_ERROR_LEN, "synthetic %s: cannot write parameters in %.200s: %.200s",
                     c->id, dir, ge.msg[0] ? ge.msg : "I/O error");
        groth16_setup_free(&res);
    } else {
        snprintf(err, CUZK_ERROR_LEN, "synthetic %s: setup: %s", c->id, ge.msg);
    }
    r1cs_matrices_free(&mx);
    return st;
}

cuzk_status engine_synthetic_register(engine_synthetic *s, cuzk_engine *e) {
    for (const synthetic_circuit *c = s->circuits; c; c = c->next) {
        char stem[128];
        engine_synthetic_stem(stem, c->id);
        cuzk_status st = cuzk_engine_register_circuit(e, c->id, stem);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

size_t engine_synthetic_request(char *buf, size_t len, const char *circuit_id, unsigned partitions,
                                uint64_t seed) {
    int n = snprintf(buf, len, "synthetic circuit=%s partitions=%u seed=%llu", circuit_id,
                     partitions, (unsigned long long)seed);
    return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static cuzk_status plan(void *vs, const cuzk_request *req, engine_plan *out,
                        char err[CUZK_ERROR_LEN]) {
    const engine_synthetic *s = vs;
    char text[256], id[ENGINE_CIRCUIT_ID_LEN + 1];
    unsigned parts;
    unsigned long long seed;
    if (!req->vanilla_proof || req->vanilla_proof_len == 0 ||
        req->vanilla_proof_len >= sizeof text) {
        snprintf(err, CUZK_ERROR_LEN, "synthetic: vanilla_proof must be a short request text");
        return CUZK_E_INVALID;
    }
    memcpy(text, req->vanilla_proof, req->vanilla_proof_len);
    text[req->vanilla_proof_len] = 0;
    unsigned long long work = 0;
    int pos = -1, pos2 = -1;
    int bad = strlen(text) != req->vanilla_proof_len ||
              sscanf(text, "synthetic circuit=%64s partitions=%u seed=%llu%n", id, &parts, &seed,
                     &pos) != 3 ||
              pos < 0;
    if (!bad && text[pos]) /* the only optional field */
        bad = sscanf(text + pos, " work=%llu%n", &work, &pos2) != 1 || pos2 < 0 ||
              text[pos + pos2] != 0;
    if (bad) {
        snprintf(err, CUZK_ERROR_LEN,
                 "synthetic: request \"%.100s\" is not \"synthetic circuit=ID partitions=N "
                 "seed=S [work=W]\"",
                 text);
        return CUZK_E_INVALID;
    }
    const synthetic_circuit *c = find(s, id);
    if (!c) {
        snprintf(err, CUZK_ERROR_LEN, "synthetic: unknown circuit \"%s\"", id);
        return CUZK_E_INVALID;
    }
    if (parts < 1 || parts > 1024 || seed >= (1ULL << 40) || work > (1ULL << 32)) {
        snprintf(err, CUZK_ERROR_LEN,
                 "synthetic: partitions %u (1..1024), seed %llu (< 2^40) or work %llu (<= 2^32)",
                 parts, seed, work);
        return CUZK_E_INVALID;
    }
    synthetic_request *r = malloc(sizeof *r);
    if (!r) {
        snprintf(err, CUZK_ERROR_LEN, "out of memory");
        return CUZK_E_INTERNAL;
    }
    r->c = c;
    r->partitions = parts;
    r->seed = seed;
    r->work = work;
    snprintf(out->circuit_id, sizeof out->circuit_id, "%s", c->id);
    out->n_partitions = parts;
    out->partition_bytes = c->partition_bytes;
    out->rows = c->rows;
    out->num_inputs = c->num_inputs;
    out->num_aux = c->num_aux;
    out->state = r;
    r->blank = (synth_ctx){c->k, 0, 0, 0};
    out->blank = chain_circuit;
    out->blank_arg = &r->blank;
    return CUZK_OK;
}

/* 1 (err filled, *out zeroed) when the request has no such partition. */
static int no_partition(const synthetic_request *r, size_t partition, r1cs_partition *out,
                        char err[CUZK_ERROR_LEN]) {
    memset(out, 0, sizeof *out);
    if (partition < r->partitions)
        return 0;
    snprintf(err, CUZK_ERROR_LEN, "synthetic: partition %zu of %u", partition, r->partitions);
    return 1;
}

static cuzk_status synth(void *vs, void *state, size_t partition, r1cs_partition *out,
                         char err[CUZK_ERROR_LEN]) {
    (void)vs;
    const synthetic_request *r = state;
    if (no_partition(r, partition, out, err))
        return CUZK_E_INVALID;
    return synthesize(out, r->c, r->seed, partition, r->work, err) == 0 ? CUZK_OK : CUZK_E_INTERNAL;
}

/* The public inputs, derived as chain_circuit computes them: tag, x_last. */
static void chain_inputs(fr in[2], const synth_ctx *c) {
    fr x;
    fr_set_u64(&x, mix64(c->seed * 1000003u + c->partition));
    for (uint64_t i = 0; i < c->work; i++)
        fr_sqr(&x, &x);
    fr_set_u64(&in[0], (c->seed << 16) + c->partition);
    for (size_t i = 0; i + 2 < c->k; i++) {
        fr ci;
        fr_set_u64(&ci, i + 1);
        fr_sqr(&x, &x);
        fr_add(&x, &x, &ci);
    }
    in[1] = x;
}

/* The witness alone, on one view of the whole vectors (groth16_witness_fn). */
static int chain_witness(void *arg, const r1cs_pce *p, unsigned threads, fr *input, fr *aux,
                         char *err, size_t cap) {
    (void)threads;
    r1cs_cs *v = r1cs_witness_view(input, 0, p->num_inputs, aux, 0, p->num_aux);
    if (!v)
        return snprintf(err, cap, "out of memory"), -1;
    chain_circuit(v, arg);
    r1cs_finish(v);
    int bad = r1cs_error(v) || r1cs_num_inputs(v) != p->num_inputs || r1cs_num_aux(v) != p->num_aux;
    if (bad)
        snprintf(err, cap, "synthetic witness: %s",
                 r1cs_error(v) ? r1cs_error_message(v) : "its shape is not the recording's");
    r1cs_cs_free(v);
    return bad ? -1 : 0;
}

static cuzk_status synth_pce(void *vs, void *state, size_t partition, const engine_pce_use *use,
                             r1cs_partition *out, char err[CUZK_ERROR_LEN]) {
    (void)vs;
    const synthetic_request *r = state;
    if (no_partition(r, partition, out, err))
        return CUZK_E_INVALID;
    synth_ctx ctx = {r->c->k, r->seed, partition, r->work};
    fr in[2];
    chain_inputs(in, &ctx);
    const groth16_synth_source src = provider_source(chain_circuit, &ctx, chain_witness, &ctx, use);
    return provider_synthesize(out, &src, in, 2, "synthetic partition", err);
}

static void release(void *vs, void *state) {
    (void)vs;
    free(state);
}

engine_circuit_provider engine_synthetic_provider(engine_synthetic *s) {
    engine_circuit_provider p = {"synthetic", s, plan, synth, release, NULL};
    return p;
}

engine_circuit_provider engine_synthetic_provider_pce(engine_synthetic *s) {
    engine_circuit_provider p = engine_synthetic_provider(s);
    p.synthesize_pce = synth_pce;
    return p;
}
