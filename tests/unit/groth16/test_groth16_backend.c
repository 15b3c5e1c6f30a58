/* The prover's backend boundary (groth16/backend.h): the shape check, r, s
 * and the assembly are the prover's; a backend supplies H and the MSM sums.
 *  - pinned bytes: fixed toxic waste, circuit and r, s give the proof bytes
 *    recorded before the boundary moved (the assembly must not drift);
 *  - a backend that wraps the CPU sums gives the CPU's bytes, is called once
 *    per proof, and is not called at all when the shape check refuses. */
#include "check.h"
#include "cli/toy_circuits.h"
#include "groth16/backend.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "r1cs/cs.h"

static int synth(void *out, r1cs_mode mode, toy_circuit *tc) {
    r1cs_cs *cs = r1cs_cs_new(mode, 0, NULL);
    int rc = r1cs_synthesize(cs, tc->fn, tc);
    if (rc == R1CS_OK)
        rc = mode == R1CS_RECORD ? r1cs_take_matrices(cs, out) : r1cs_take_partition(cs, out);
    r1cs_cs_free(cs);
    return rc;
}

static void hex(char *out, const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
}

/* random:300:7 with tau..delta = 11..15, r = 123456789, s = 987654321 */
static const char *const pinned =
    "8f2f2c05f05e631e6c6387d9a2538c0563178f540aec4af6cd1bcb7acfe5132a"
    "dafec7178be3087336f6d891f7b56f99a87a68830fe77d87e251f0f3696c094d"
    "a4a01e6c6b6d06cced509f4f50283b7a5533fe2935f0f7afd4f1b7c2c8aee0c8"
    "0bc049665514be85688ecfa48b9d416d18531f1975956298fd3148fa8031c32e"
    "458cecc127bc4b5203f15b4d7ea6a468b41991779161093862e638a6462fa54b"
    "b586e52f3c760f1d8c770deb6307c201a3abd29ce9a7e1400fb25b7c46a41ab9";

/* A backend over the CPU's sums that counts its calls. */
static unsigned g_calls;
static groth16_status counting_sums(void *self, groth16_sums *out, const r1cs_partition *p,
                                    const groth16_params_data *srs, const groth16_shape *shape,
                                    unsigned threads, groth16_prove_timing *t, groth16_error *err) {
    (void)self;
    g_calls++;
    return groth16_sums_cpu.sums(NULL, out, p, srs, shape, threads, t, err);
}
static const groth16_sums_ops counting = {"counting", NTT_MAX_LOG_N, counting_sums, NULL, 0};

int main(void) {
    check_seed("test_groth16_backend");
    toy_circuit tc;
    char why[256];
    CHECK(toy_circuit_parse(&tc, "random:300:7", why, sizeof why) == 0);
    r1cs_matrices mx;
    r1cs_partition part;
    CHECK(synth(&mx, R1CS_RECORD, &tc) == R1CS_OK);
    CHECK(synth(&part, R1CS_PROVE, &tc) == R1CS_OK);
    groth16_toxic tox;
    fr_set_u64(&tox.tau, 11);
    fr_set_u64(&tox.alpha, 12);
    fr_set_u64(&tox.beta, 13);
    fr_set_u64(&tox.gamma, 14);
    fr_set_u64(&tox.delta, 15);
    groth16_setup_result s;
    groth16_error err = {0};
    CHECK(groth16_setup(&s, &mx, &tox, 2, &err) == GROTH16_OK);
    groth16_params_data d = groth16_setup_data(&s);
    fr r, sv;
    fr_set_u64(&r, 123456789);
    fr_set_u64(&sv, 987654321);
    groth16_proof p;
    CHECK(groth16_prove_cpu(&p, &part, 1, &d, &r, &sv, 2, NULL, &err) == GROTH16_OK);
    uint8_t b[GROTH16_PROOF_BYTES];
    char got[2 * GROTH16_PROOF_BYTES + 1];
    groth16_proof_write(b, &p);
    hex(got, b, sizeof b);
    int pinned_ok = strcmp(got, pinned) == 0;
    CHECK(pinned_ok);
    if (!pinned_ok)
        fprintf(stderr, "proof bytes %s\n         want %s\n", got, pinned);
    groth16_pvk pvk;
    CHECK(groth16_pvk_prepare(&pvk, &s.vk, &err) == GROTH16_OK);
    CHECK(groth16_verify(&pvk, &p, part.input + 1, part.num_inputs - 1, &err) == GROTH16_OK);
    groth16_pvk_free(&pvk);

    /* the same through another backend's sums, two proofs in one call */
    groth16_proof two[2];
    r1cs_partition parts[2] = {part, part};
    fr rr[2] = {r, r}, ss[2] = {sv, sv};
    CHECK(groth16_prove_with(&counting, NULL, two, parts, 2, &d, rr, ss, 1, NULL, &err) ==
          GROTH16_OK);
    CHECK(g_calls == 2);
    for (int i = 0; i < 2; i++) {
        groth16_proof_write(b, &two[i]);
        hex(got, b, sizeof b);
        CHECK(strcmp(got, pinned) == 0);
    }
    /* refused by the shape check: the backend is not called; the message
       names the section */
    const struct {
        size_t *count;
        const char *name;
    } sections[] = {
        {&d.n_l, "l (aux"}, {&d.n_a, "a (inputs"}, {&d.n_b, "b (inputs"}, {&d.n_h, "h (domain"}};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        (*sections[i].count)++;
        g_calls = 0;
        groth16_status st =
            groth16_prove_with(&counting, NULL, &p, &part, 1, &d, &r, &sv, 1, NULL, &err);
        CHECK(st == GROTH16_ERR_ARG && g_calls == 0 && strstr(err.msg, sections[i].name));
        (*sections[i].count)--;
    }
    /* too large a domain for the backend */
    groth16_sums_ops small = counting;
    groth16_shape shape;
    CHECK(groth16_shape_check(&shape, &part, &d, NTT_MAX_LOG_N, &err) == GROTH16_OK);
    CHECK(shape.m == d.n_h + 1 && shape.n_in == part.num_inputs && shape.n_aux == part.num_aux);
    small.max_log_m = shape.log_m - 1;
    g_calls = 0;
    CHECK(groth16_prove_with(&small, NULL, &p, &part, 1, &d, &r, &sv, 1, NULL, &err) ==
              GROTH16_ERR_ARG &&
          g_calls == 0 && strstr(err.msg, "largest domain"));
    printf("pinned proof, a second backend's sums and the shape check: ok (%zu rows, m = %zu)\n",
           part.num_constraints, shape.m);

    r1cs_partition_free(&part);
    groth16_setup_free(&s);
    r1cs_matrices_free(&mx);
    return check_finish();
}
