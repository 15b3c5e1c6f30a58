/* GPU against CPU for deferred partitions (issue #30): a circuit's recorded
 * matrices on the device, the compact witness expanded there and a, b, c by
 * SpMV must equal the CPU's pce_eval bit for bit (and aux the witness), and a
 * proof from a deferred partition on the GPU must be byte-identical to the CPU
 * backend's from the classic partition with the same r, s, and verify.
 * Circuits: random toy circuits (bits, inputs, unused terms) and porep-2k /
 * winning-2k with synthetic witnesses.  Exits 77 (skipped) without a GPU.
 *   cuzk_gpu_check_abc [extra toy spec ...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/circuit_names.h"
#include "cli/toy_circuits.h"
#include "cuda/cuda_backend.h"
#include "cuda/cuda_device.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "r1cs/pce.h"
#include "r1cs/witness_pack.h"
#include "util/parallel.h"

static unsigned g_threads;
/* The CUDA backend on GPU 0, as the CLI and the engine hold it. */
static const groth16_backend *g_be;

static fr *dup_fr(const fr *x, size_t n) {
    fr *y = malloc((n ? n : 1) * sizeof(fr));
    memcpy(y, x, n * sizeof(fr));
    return y;
}

/* a, b, c and aux from the GPU against the classic partition's. */
static void check_abc(cuda_prover *pr, const char *what, const r1cs_pce *p,
                      const r1cs_partition *classic, r1cs_partition *def) {
    char err[256];
    CHECK(pce_partition_deferred(p, dup_fr(classic->input, classic->num_inputs),
                                 dup_fr(classic->aux, classic->num_aux), g_threads, def, err,
                                 sizeof err) == 0);
    size_t rb = classic->num_constraints * sizeof(fr);
    fr *a = malloc(rb + 1), *b = malloc(rb + 1), *c = malloc(rb + 1);
    fr *aux = malloc(classic->num_aux * sizeof(fr) + 1);
    cuda_abc_stats st;
    cuda_error ce = {CUDA_OK, ""};
    cuda_status s = cuda_prover_abc(pr, def, a, b, c, aux, &st, &ce);
    if (s)
        fprintf(stderr, "%s: cuda_prover_abc: %s\n", what, ce.msg);
    CHECK(s == CUDA_OK);
    int same = s == CUDA_OK && !memcmp(a, classic->a, rb) && !memcmp(b, classic->b, rb) &&
               !memcmp(c, classic->c, rb) &&
               !memcmp(aux, classic->aux, classic->num_aux * sizeof(fr));
    CHECK(same);
    printf("gpu abc %s: %zu rows, %zu of %zu aux dense, %.1f KiB sent: a, b, c, aux %s the "
           "CPU's (SpMV %.3f ms)\n",
           what, classic->num_constraints, def->aux_pack->n_dense, classic->num_aux,
           (double)st.bytes / 1024.0, same ? "identical to" : "DIFFERENT from", st.spmv_ms);
    free(a);
    free(b);
    free(c);
    free(aux);
}

/* The proofs: CPU classic vs GPU deferred, same r, s; the GPU one verifies. */
static void check_proofs(const char *what, const r1cs_matrices *mx, const r1cs_partition *classic,
                         const r1cs_partition *def) {
    groth16_toxic tox;
    groth16_setup_result s;
    groth16_error err = {0};
    CHECK(groth16_toxic_random(&tox, &err) == GROTH16_OK);
    CHECK(groth16_setup(&s, mx, &tox, g_threads, &err) == GROTH16_OK);
    groth16_params_data d = groth16_setup_data(&s);
    fr r, sv;
    fr_set_u64(&r, 0x1234567);
    fr_set_u64(&sv, 0x7654321);
    groth16_proof pc, pg;
    const groth16_backend *be = g_be;
    CHECK(be != NULL && be->abc_on_device);
    CHECK(groth16_backend_prove(&groth16_backend_cpu, &pc, classic, 1, &d, &r, &sv, g_threads, NULL,
                                &err) == GROTH16_OK);
    groth16_prove_timing t;
    groth16_status st =
        be ? groth16_backend_prove(be, &pg, def, 1, &d, &r, &sv, g_threads, &t, &err) : 1;
    if (st)
        fprintf(stderr, "%s: cuda prove (deferred): %s\n", what, err.msg);
    CHECK(st == GROTH16_OK);
    uint8_t bc[GROTH16_PROOF_BYTES], bg[GROTH16_PROOF_BYTES];
    groth16_proof_write(bc, &pc);
    groth16_proof_write(bg, &pg);
    int same = memcmp(bc, bg, sizeof bc) == 0;
    CHECK(same);
    groth16_pvk pvk;
    int ok =
        groth16_pvk_prepare(&pvk, &s.vk, &err) == GROTH16_OK &&
        groth16_verify(&pvk, &pg, classic->input + 1, classic->num_inputs - 1, &err) == GROTH16_OK;
    CHECK(ok);
    groth16_pvk_free(&pvk);
    /* the CPU backend takes the deferred partition too (expanded on the host) */
    CHECK(groth16_backend_prove(&groth16_backend_cpu, &pc, def, 1, &d, &r, &sv, g_threads, NULL,
                                &err) == GROTH16_OK);
    groth16_proof_write(bc, &pc);
    CHECK(memcmp(bc, bg, sizeof bc) == 0);
    printf("gpu prove %s deferred: proof %s the CPU backend's, %s; a/b/c %.2f ms on the device, "
           "witness %.1f KiB sent\n",
           what, same ? "byte-identical to" : "DIFFERENT from", ok ? "verifies" : "DOES NOT VERIFY",
           t.dev_abc_ms, t.witness_bytes / 1024.0);
    groth16_setup_free(&s);
}

/* synth(cs, arg) recorded, proved classically, and compared deferred. */
static void one(cuda_prover *pr, const char *what, r1cs_synth_fn synth, void *arg, int prove) {
    r1cs_cs *rc = r1cs_cs_new(R1CS_RECORD, 0, NULL), *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    r1cs_partition classic, def;
    r1cs_pce p;
    char err[256];
    CHECK(r1cs_synthesize(cs, synth, arg) == R1CS_OK && r1cs_take_partition(cs, &classic) == 0);
    CHECK(r1cs_synthesize(rc, synth, arg) == R1CS_OK);
    CHECK(pce_from_recording(rc, what, NULL, 0, &p, err, sizeof err) == 0);
    check_abc(pr, what, &p, &classic, &def);
    if (prove) {
        r1cs_matrices mx;
        CHECK(pce_to_matrices(&p, &mx) == 0);
        check_proofs(what, &mx, &classic, &def);
        r1cs_matrices_free(&mx);
    }
    cuda_prover_forget_pce(pr, &p);
    r1cs_partition_free(&def);
    r1cs_partition_free(&classic);
    pce_free(&p);
    r1cs_cs_free(cs);
    r1cs_cs_free(rc);
}

static int toy_synth(r1cs_cs *cs, void *arg) {
    toy_circuit *t = arg;
    return t->fn(cs, t);
}

typedef struct {
    circuit_name c;
    circuit_witness w;
} fc_arg;

static int fc_synth(r1cs_cs *cs, void *arg) {
    fc_arg *f = arg;
    return circuit_name_synthesize(cs, &f->c, circuit_witness_of(&f->w, &f->c));
}

int main(int argc, char **argv) {
    char msg[256] = "";
    int ndev = cuda_device_count(msg, sizeof msg);
    if (ndev <= 0) {
        printf("cuzk_gpu_check_abc: skipped: %s\n", ndev < 0 ? msg : "no CUDA device");
        return 77;
    }
    g_threads = par_cpu_count();
    check_seed("cuzk_gpu_check_abc");
    char why[256] = "";
    if (!(g_be = cuda_backend_open(0, why, sizeof why)))
        fprintf(stderr, "cuda_backend_open: %s\n", why);
    cuda_prover *pr;
    cuda_error ce;
    if (cuda_prover_create(&pr, 0, &ce)) {
        fprintf(stderr, "cuda_prover_create: %s\n", ce.msg);
        return 1;
    }
    const char *specs[] = {"cubic:7", "random:1000:3", "random:70000:5"};
    for (int i = 0; i < 3 + (argc - 1); i++) {
        const char *spec = i < 3 ? specs[i] : argv[i - 2];
        toy_circuit tc;
        char why[256];
        CHECK(toy_circuit_parse(&tc, spec, why, sizeof why) == 0);
        one(pr, spec, toy_synth, &tc, 1);
    }
    static const char *fcs[] = {"winning-2k", "porep-2k"};
    for (int i = 0; i < 2; i++) {
        fc_arg f;
        CHECK(circuit_name_parse(&f.c, fcs[i]) == 0 && circuit_name_witness(&f.w, &f.c, 7) == 0);
        one(pr, fcs[i], fc_synth, &f, 0); /* synthetic witness: not satisfying, a/b/c only */
        circuit_witness_free(&f.w);
    }
    cuda_prover_destroy(pr);
    groth16_backend_close(g_be);
    return check_finish();
}
