/* The workloads of `cuzk bench ab` (see bench_ab.h).
 *
 * porep-2k: the PoRep C2 of one 2 KiB sector as `cuzk prove porep` does it,
 * (porep_partition.h's preparation: public inputs derived natively, the
 * witness read and checked; then per partition groth16_prove_one_checked:
 * proving-mode synthesis, the Groth16 prover (the chosen backend, CPU by
 * default; its own per-phase breakdown: H polynomial, scalars, each MSM,
 * assembly) and verification).
 * The C1 (sealed here or read from a file) and the parameters are loaded
 * once, before the runs.  porep-512m: the same for a 512 MiB sector's C1
 * (--c1 required: sealing 512 MiB is minutes of work).
 *
 * random:N[:SEED]: the built-in random circuit of N constraints with
 * TEST-ONLY parameters made here: synthesis, prove, verify.  Cheap, for
 * quick comparisons and tests; it is not a Filecoin circuit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench/bench_ab.h"
#include "cli/bench/bench_porep_input.h"
#include "cli/porep_params.h"
#include "cli/toy_circuits.h"
#include "filecoin/porep/porep_partition.h"
#include "groth16/prove_checked.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "util/timing.h"

/* The prover's phases, in the order the prover runs them. */
static void prove_phases(ab_phases *out, const groth16_prove_timing *t) {
    ab_phase(out, "H: iNTT", t->h_steps.intt_ms);
    ab_phase(out, "H: coset NTT", t->h_steps.coset_ntt_ms);
    ab_phase(out, "H: pointwise", t->h_steps.pointwise_ms);
    ab_phase(out, "H: coset iNTT", t->h_steps.coset_intt_ms);
    ab_phase(out, "H polynomial", t->h_ms);
    if (t->dev_h_ms > 0) /* a GPU backend: the transforms' device time (CUDA events) */
        ab_phase(out, "H: device", t->dev_h_ms);
    ab_phase(out, "scalars", t->scalars_ms);
    ab_phase(out, "MSM L", t->msm_l_ms);
    ab_phase(out, "MSM A", t->msm_a_ms);
    ab_phase(out, "MSM B1", t->msm_b1_ms);
    ab_phase(out, "MSM B2", t->msm_b2_ms);
    ab_phase(out, "MSM H", t->msm_h_ms);
    ab_phase(out, "assemble", t->assemble_ms);
    ab_phase(out, "prove", t->total_ms);
}

/* ---- porep-2k ------------------------------------------------------------------ */

typedef struct {
    bench_porep_input in;
    int have_params, have_pvk;
    porep_shape shape;
    porep_params_loaded lp;
    groth16_pvk pvk;
    unsigned threads;
    const groth16_backend *be;
} porep_state;

static void porep_free(void *p) {
    porep_state *st = p;
    if (!st)
        return;
    if (st->have_pvk)
        groth16_pvk_free(&st->pvk);
    if (st->have_params)
        porep_params_free(&st->lp);
    bench_porep_input_free(&st->in);
    free(st);
}

/* One run: the request prepared (porep_partition.h) and every partition
 * proved by the shared checked routine, as the engine and `cuzk prove porep`
 * do it. */
static int porep_run(void *p, ab_phases *out, char *err, size_t cap) {
    porep_state *st = p;
    double synth = 0, verify = 0, t0 = timing_now_ms();
    groth16_prove_timing pt;
    memset(&pt, 0, sizeof pt);
    porep_c2 c2;
    char why[512];
    if (porep_c2_prepare(&c2, st->in.c1, why, sizeof why)) {
        snprintf(err, cap, "not a valid vanilla proof: %s", why);
        return -1;
    }
    const groth16_prove_opts o = {st->be, st->threads, NULL, NULL, 1, NULL};
    int rc = 0;
    for (unsigned k = 0; k < c2.n_partitions && rc == 0; k++) {
        porep_partition *in = &c2.parts[k];
        groth16_proof proof;
        groth16_one_stats ps;
        const groth16_synth_source src = {
            porep_partition_synthesize, in, NULL, NULL, NULL, 1, 0, 0};
        if (groth16_prove_one_checked(&proof, &src, in->pub.inputs, in->pub.n_inputs, &st->lp.d,
                                      &st->pvk, &o, &ps, why, sizeof why)) {
            snprintf(err, cap, "partition %u: %s", k, why);
            rc = -1;
            break;
        }
        synth += ps.synth_ms;
        verify += ps.verify_ms;
        groth16_prove_timing_add(&pt, &ps.pt);
    }
    if (rc == 0) {
        memset(out, 0, sizeof *out);
        ab_phase(out, "public inputs", c2.public_ms);
        ab_phase(out, "witness + check", c2.witness_ms);
        ab_phase(out, "synthesis", synth);
        prove_phases(out, &pt);
        ab_phase(out, "verify", verify);
        ab_phase(out, "total", timing_now_ms() - t0);
    }
    porep_c2_free(&c2);
    return rc;
}

/* The PoRep workloads: 2 KiB is sealed here when no --c1 is given (seconds);
   larger sectors need one (sealing them takes minutes). */
typedef struct {
    const char *name, *size_text;
    uint64_t sector_size;
    int seal_here;
} porep_kind;

static const porep_kind POREP_KINDS[] = {
    {"porep-2k", "2 KiB", 2048, 1},
    {"porep-512m", "512 MiB", (uint64_t)512 << 20, 0},
};

static const porep_kind *porep_kind_find(const char *spec) {
    for (size_t i = 0; i < sizeof POREP_KINDS / sizeof POREP_KINDS[0]; i++)
        if (strcmp(spec, POREP_KINDS[i].name) == 0)
            return &POREP_KINDS[i];
    return NULL;
}

static int porep_open(ab_workload *w, const porep_kind *k, const ab_options *o, char *err,
                      size_t cap) {
    porep_state *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    st->threads = o->threads;
    st->be = o->backend;
    char params[4096], vk[4096], meta[4096], why[512];
    porep_params_expect e;
    if (!k->seal_here && !o->c1) {
        snprintf(err, cap, "%s: give the sector's C1 output with --c1", k->name);
        goto fail;
    }
    if (bench_porep_input_get(&st->in, o->c1, 1, err, cap))
        goto fail;
    if (st->in.c1->proof->shape->sector_size != k->sector_size) {
        snprintf(err, cap, "%s: %s is a %s C1, not %s", k->name, st->in.origin,
                 st->in.c1->proof->name, k->size_text);
        goto fail;
    }
    if (bench_porep_params(params, vk, meta, sizeof params, o->params_dir, st->in.c1, err, cap))
        goto fail;
    if (porep_c1_shape(&st->shape, st->in.c1, why, sizeof why)) {
        snprintf(err, cap, "%s", why);
        goto fail;
    }
    if (porep_params_expect_get(&e, &st->shape)) {
        snprintf(err, cap, "cannot count the %s circuit", st->in.c1->proof->name);
        goto fail;
    }
    if (porep_params_load(&st->lp, params, meta, &e, o->threads, 1, why, sizeof why)) {
        snprintf(err, cap, "%s", why);
        goto fail;
    }
    st->have_params = 1;
    groth16_error ge = {0};
    if (groth16_pvk_prepare(&st->pvk, &st->lp.gp.vk, &ge) != GROTH16_OK) {
        snprintf(err, cap, "%s: %s", vk, ge.msg);
        goto fail;
    }
    st->have_pvk = 1;
    snprintf(
        w->desc, sizeof w->desc,
        "%s: PoRep C2 of one %s sector (%s; %s), %u partition(s): public inputs, witness check, "
        "synthesis, Groth16 prove (%s backend), verify; %u thread(s); parameters %.300s%s",
        k->name, k->size_text, st->in.c1->proof->name, st->in.origin, st->in.c1->partitions,
        o->backend->name, o->threads, params, st->lp.test_only ? " (TEST-ONLY)" : "");
    w->state = st;
    w->run = porep_run;
    w->free = porep_free;
    return 0;
fail:
    porep_free(st);
    return -1;
}

/* ---- random:N[:SEED] --------------------------------------------------------------- */

typedef struct {
    toy_circuit c;
    groth16_setup_result s;
    groth16_pvk pvk;
    unsigned threads;
    const groth16_backend *be;
} random_state;

static void random_free(void *p) {
    random_state *st = p;
    if (!st)
        return;
    groth16_pvk_free(&st->pvk);
    groth16_setup_free(&st->s);
    free(st);
}

static int random_run(void *p, ab_phases *out, char *err, size_t cap) {
    random_state *st = p;
    double t0 = timing_now_ms();
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    r1cs_partition part;
    memset(&part, 0, sizeof part);
    if (!cs || r1cs_synthesize(cs, st->c.fn, &st->c) != R1CS_OK ||
        r1cs_take_partition(cs, &part) != R1CS_OK) {
        snprintf(err, cap, "synthesis: %s", cs ? r1cs_error_message(cs) : "out of memory");
        r1cs_cs_free(cs);
        return -1;
    }
    r1cs_cs_free(cs);
    double t1 = timing_now_ms();
    groth16_params_data d = groth16_setup_data(&st->s);
    groth16_proof proof;
    groth16_prove_timing t;
    groth16_error ge = {0};
    int rc = -1;
    if (groth16_backend_prove(st->be, &proof, &part, 1, &d, NULL, NULL, st->threads, &t, &ge) !=
        GROTH16_OK) {
        snprintf(err, cap, "prove: %s", ge.msg);
        goto out;
    }
    double t2 = timing_now_ms();
    if (groth16_verify(&st->pvk, &proof, part.input + 1, part.num_inputs - 1, &ge) != GROTH16_OK) {
        snprintf(err, cap, "the proof failed verification: %s", ge.msg);
        goto out;
    }
    memset(out, 0, sizeof *out);
    ab_phase(out, "synthesis", t1 - t0);
    prove_phases(out, &t);
    ab_phase(out, "verify", timing_now_ms() - t2);
    ab_phase(out, "total", timing_now_ms() - t0);
    rc = 0;
out:
    r1cs_partition_free(&part);
    return rc;
}

static int random_open(ab_workload *w, const char *spec, const ab_options *o, char *err,
                       size_t cap) {
    random_state *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    st->threads = o->threads;
    st->be = o->backend;
    char why[256];
    if (toy_circuit_parse(&st->c, spec, why, sizeof why)) {
        snprintf(err, cap, "%s", why);
        free(st);
        return -1;
    }
    r1cs_matrices mx;
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    if (!cs || r1cs_synthesize(cs, st->c.fn, &st->c) != R1CS_OK ||
        r1cs_take_matrices(cs, &mx) != R1CS_OK) {
        snprintf(err, cap, "%s: recording: %s", spec, cs ? r1cs_error_message(cs) : "no memory");
        r1cs_cs_free(cs);
        free(st);
        return -1;
    }
    r1cs_cs_free(cs);
    groth16_toxic tox;
    groth16_error ge = {0};
    int rc = groth16_toxic_random(&tox, &ge) || groth16_setup(&st->s, &mx, &tox, o->threads, &ge);
    size_t rows = mx.num_constraints, aux = mx.num_aux;
    r1cs_matrices_free(&mx);
    if (rc) {
        snprintf(err, cap, "%s: test setup: %s", spec, ge.msg);
        free(st);
        return -1;
    }
    if (groth16_pvk_prepare(&st->pvk, &st->s.vk, &ge) != GROTH16_OK) {
        snprintf(err, cap, "%s: %s", spec, ge.msg);
        groth16_setup_free(&st->s);
        free(st);
        return -1;
    }
    snprintf(w->desc, sizeof w->desc,
             "%s: built-in random circuit (%zu rows, %zu aux; NOT a Filecoin circuit), TEST-ONLY "
             "parameters made here: synthesis, Groth16 prove (%s backend), verify; %u thread(s)",
             spec, rows, aux, o->backend->name, o->threads);
    w->state = st;
    w->run = random_run;
    w->free = random_free;
    return 0;
}

int ab_workload_open(ab_workload *w, const char *spec, const ab_options *o, char *err, size_t cap) {
    memset(w, 0, sizeof *w);
    const porep_kind *k = porep_kind_find(spec);
    if (k)
        return porep_open(w, k, o, err, cap);
    if (strncmp(spec, "random:", 7) == 0)
        return random_open(w, spec, o, err, cap);
    snprintf(err, cap, "unknown workload \"%s\" (%s)", spec, AB_WORKLOADS);
    return -1;
}

int ab_workload_known(const char *spec) {
    return porep_kind_find(spec) != NULL || strncmp(spec, "random:", 7) == 0;
}

void ab_workload_close(ab_workload *w) {
    if (w->free)
        w->free(w->state);
    memset(w, 0, sizeof *w);
}
