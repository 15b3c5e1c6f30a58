/* cuzk_gpu_setup_check: the GPU setup (cuda/cuda_setup.h) against the CPU's
 * on a machine with a GPU; exits 77 (skipped) without one.
 *   - each op alone: the per-variable sums, the Lagrange coefficients, and
 *     G1 / G2 fixed-base products of edge scalars (1, 2, r - 1, 2^k, random)
 *     equal the CPU's;
 *   - whole setups from one seed, CPU and GPU, give byte-identical .params
 *     and .vk: a random circuit (several chunk sizes) and porep-2k.
 * Arguments: none, or circuit names (porep-2k, porep-8m, ...) to compare
 * instead of porep-2k. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/circuit_names.h"
#include "cli/toy_circuits.h"
#include "cuda/cuda_gpu.h"
#include "cuda/cuda_setup.h"
#include "curve/fixed_base.h"
#include "ntt/ntt.h"
#include "util/timing.h"

static groth16_setup_ops gpu;

static void rand_fr(fr *x) {
    uint8_t b[32];
    check_rand_bytes(b, sizeof b);
    fr_from_bytes_le_reduce(x, b);
}

static void ops_alone(const r1cs_pce *p) {
    char err[256];
    size_t vars = p->num_inputs + p->num_aux, rows = p->rows;
    fr *lag = malloc(rows * sizeof *lag), *o[6];
    for (size_t i = 0; i < rows; i++)
        rand_fr(&lag[i]);
    for (int i = 0; i < 6; i++)
        o[i] = calloc(vars, sizeof(fr));
    CHECK(groth16_setup_columns_cpu(p, lag, o[0], o[1], o[2], 2) == 0);
    CHECK(gpu.columns(gpu.ctx, p, lag, o[3], o[4], o[5], err, sizeof err) == 0);
    for (int i = 0; i < 3; i++)
        CHECK_MEM(o[i], o[i + 3], vars * sizeof(fr));
    for (int i = 0; i < 6; i++)
        free(o[i]);
    free(lag);
    /* Lagrange: the GPU inverse NTT equals the CPU's at 2^10 */
    unsigned lg = 10;
    size_t m = (size_t)1 << lg;
    fr *a = malloc(m * sizeof *a), *b = malloc(m * sizeof *b);
    for (size_t i = 0; i < m; i++)
        rand_fr(&a[i]);
    memcpy(b, a, m * sizeof *a);
    ntt_domain d = {0};
    CHECK(ntt_domain_init(&d, lg, 1) == NTT_OK && ntt_inverse(a, &d, NTT_NN, 1) == NTT_OK);
    ntt_domain_destroy(&d);
    CHECK(gpu.lagrange(gpu.ctx, b, lg, err, sizeof err) == 0);
    CHECK_MEM(a, b, m * sizeof *a);
    free(a);
    free(b);
}

static void mul_edges(void) {
    enum { N = 300 };
    fr k[N];
    fr_set_one(&k[0]);
    fr_set_u64(&k[1], 2);
    fr_set_one(&k[2]);
    fr_neg(&k[2], &k[2]); /* r - 1 */
    for (int i = 3; i < 40; i++)
        fr_add(&k[i], &k[i - 1], &k[i - 1]);
    for (int i = 40; i < N; i++)
        rand_fr(&k[i]);
    g1_affine g1, c1[N], d1[N];
    g2_affine g2, c2[N], d2[N];
    g1_affine_generator(&g1);
    g2_affine_generator(&g2);
    g1_fixed_table t1 = {0};
    g2_fixed_table t2 = {0};
    CHECK(g1_fixed_table_init(&t1, &g1, 8, 2) == 0 && g2_fixed_table_init(&t2, &g2, 8, 2) == 0);
    CHECK(g1_fixed_mul_many(c1, &t1, k, N, 2) == 0 && g2_fixed_mul_many(c2, &t2, k, N, 2) == 0);
    char err[256];
    CHECK(gpu.g1_mul(gpu.ctx, d1, k, N, err, sizeof err) == 0);
    CHECK(gpu.g2_mul(gpu.ctx, d2, k, N, err, sizeof err) == 0);
    CHECK_MEM(c1, d1, sizeof c1);
    CHECK_MEM(c2, d2, sizeof c2);
    g1_fixed_table_free(&t1);
    g2_fixed_table_free(&t2);
}

/* CPU and GPU whole setups: the same bytes. */
static void whole(const r1cs_pce *p, const char *what, size_t chunk) {
    groth16_toxic t;
    char err[256];
    CHECK(groth16_toxic_from_seed(&t, "9a11", err, sizeof err) == 0);
    char *buf[4] = {0};
    size_t len[4] = {0};
    for (int side = 0; side < 2; side++) {
        groth16_setup_ops cpu = {0}, g = gpu;
        cpu.chunk = g.chunk = chunk;
        FILE *f = open_memstream(&buf[2 * side], &len[2 * side]);
        FILE *v = open_memstream(&buf[2 * side + 1], &len[2 * side + 1]);
        groth16_vk vk;
        groth16_error ge = {0};
        double t0 = timing_now_ms();
        groth16_status st = groth16_setup_pce_write(f, &vk, p, &t, side ? &g : &cpu, 8, NULL, &ge);
        CHECK(st == GROTH16_OK);
        if (st == GROTH16_OK) {
            CHECK(groth16_vk_write_file(v, &vk, &ge) == GROTH16_OK);
            groth16_vk_free(&vk);
        } else
            fprintf(stderr, "%s (%s): %s\n", what, side ? "gpu" : "cpu", ge.msg);
        fclose(f);
        fclose(v);
        printf("%s: %s setup %.1f s, %zu bytes\n", what, side ? "GPU" : "CPU",
               (timing_now_ms() - t0) / 1e3, len[2 * side]);
    }
    CHECK(len[0] == len[2] && len[1] == len[3] && len[0] > 0);
    if (len[0] == len[2])
        CHECK_MEM(buf[0], buf[2], len[0]);
    if (len[1] == len[3])
        CHECK_MEM(buf[1], buf[3], len[1]);
    for (int i = 0; i < 4; i++)
        free(buf[i]);
}

static int record_named(const char *name, r1cs_pce *p) {
    circuit_name c;
    char err[256];
    if (circuit_name_parse(&c, name) != 0)
        return -1;
    r1cs_cs *rc = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    int bad = circuit_name_synthesize(rc, &c, NULL) != 0 || r1cs_finish(rc) != R1CS_OK ||
              pce_from_recording(rc, name, c.stem, 0, p, err, sizeof err) != 0;
    r1cs_cs_free(rc);
    return bad ? -1 : 0;
}

int main(int argc, char **argv) {
    check_seed("cuzk_gpu_setup_check");
    cuda_ctx *c = NULL;
    cuda_error ce = {0};
    if (cuda_ctx_create(&c, 0, &ce) == CUDA_ERR_NO_DEVICE) {
        printf("cuzk_gpu_setup_check: skipped (%s)\n", ce.msg);
        return 77;
    }
    cuda_ctx_destroy(c);
    char err[256];
    if (cuda_setup_ops_init(&gpu, 0, 8, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    toy_circuit tc;
    char spec[64], why[128];
    snprintf(spec, sizeof spec, "random:3000:%llu", (unsigned long long)check_rand64());
    r1cs_cs *rc = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_pce p;
    CHECK(toy_circuit_parse(&tc, spec, why, sizeof why) == 0);
    CHECK(r1cs_synthesize(rc, tc.fn, &tc) == R1CS_OK);
    CHECK(pce_from_recording(rc, spec, NULL, 0, &p, err, sizeof err) == 0);
    r1cs_cs_free(rc);
    mul_edges();
    ops_alone(&p);
    whole(&p, spec, 0);
    whole(&p, spec, 7);
    pce_free(&p);
    const char *def[] = {"porep-2k"};
    int n = argc > 1 ? argc - 1 : 1;
    for (int i = 0; i < n; i++) {
        const char *name = argc > 1 ? argv[1 + i] : def[i];
        CHECK(record_named(name, &p) == 0);
        ops_alone(&p);
        whole(&p, name, 0);
        pce_free(&p);
    }
    cuda_setup_ops_free(&gpu);
    return check_finish();
}
