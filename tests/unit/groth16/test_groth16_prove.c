/* End to end on the CPU: record a circuit, generate (test-only) parameters,
 * write and re-read them in bellperson's byte layout, synthesize a witness,
 * prove, verify.  Circuits: x^3 + x + 5 = y (y public) and a random circuit
 * of ~1000 constraints with public inputs, bits and unused B terms.
 * Tampered proofs, wrong inputs and a wrong vk must fail; for fixed r, s the
 * proof bytes must not depend on the thread count, nor on whether the
 * partition is deferred (a/b/c left to the backend, aux packed: issue #30). */
#include "check.h"
#include "cli/toy_circuits.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verify.h"
#include "r1cs/cs.h"
#include "r1cs/pce.h"

/* ---- the flow ------------------------------------------------------------------ */
static void run_flow(r1cs_synth_fn fn, void *ctx, const char *name) {
    r1cs_cs *rec = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_matrices mx;
    CHECK(r1cs_synthesize(rec, fn, ctx) == R1CS_OK && r1cs_take_matrices(rec, &mx) == R1CS_OK);
    r1cs_cs_free(rec);

    groth16_toxic tox;
    groth16_error err;
    CHECK(groth16_toxic_random(&tox, &err) == GROTH16_OK);
    groth16_setup_result setup;
    groth16_status st = groth16_setup(&setup, &mx, &tox, 2, &err);
    CHECK(st == GROTH16_OK);
    if (st != GROTH16_OK)
        fprintf(stderr, "%s: setup: %s\n", name, err.msg);

    /* through the file format and back */
    groth16_params_data pd = groth16_setup_data(&setup);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(groth16_params_write(f, &pd, &err) == GROTH16_OK);
    fclose(f);
    CHECK(len == groth16_params_size(&pd));
    groth16_params gp;
    CHECK(groth16_params_parse(&gp, (const uint8_t *)buf, len, &err) == GROTH16_OK);
    groth16_params_layout *L = &gp.layout;
    size_t nh = L->sec[GROTH16_SEC_H].count, nl = L->sec[GROTH16_SEC_L].count;
    size_t na = L->sec[GROTH16_SEC_A].count, nb = L->sec[GROTH16_SEC_B_G1].count;
    g1_affine *h = malloc((nh + 1) * sizeof *h), *l = malloc((nl + 1) * sizeof *l);
    g1_affine *a = malloc((na + 1) * sizeof *a), *b1 = malloc((nb + 1) * sizeof *b1);
    g2_affine *b2 = malloc((nb + 1) * sizeof *b2);
    CHECK(groth16_params_read_g1(&gp, GROTH16_SEC_H, 0, nh, h, GROTH16_CHECK_FULL, 2, &err) ==
          GROTH16_OK);
    CHECK(groth16_params_read_g1(&gp, GROTH16_SEC_L, 0, nl, l, GROTH16_CHECK_FULL, 2, &err) ==
          GROTH16_OK);
    CHECK(groth16_params_read_g1(&gp, GROTH16_SEC_A, 0, na, a, GROTH16_CHECK_FULL, 2, &err) ==
          GROTH16_OK);
    CHECK(groth16_params_read_g1(&gp, GROTH16_SEC_B_G1, 0, nb, b1, GROTH16_CHECK_FULL, 2, &err) ==
          GROTH16_OK);
    CHECK(groth16_params_read_g2(&gp, GROTH16_SEC_B_G2, 0, nb, b2, GROTH16_CHECK_FULL, 2, &err) ==
          GROTH16_OK);
    groth16_params_data srs = {&gp.vk, h, nh, l, nl, a, na, b1, b2, nb, NULL, 0};

    /* witness */
    r1cs_cs *pcs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    r1cs_partition part;
    CHECK(r1cs_synthesize(pcs, fn, ctx) == R1CS_OK && r1cs_take_partition(pcs, &part) == R1CS_OK);
    r1cs_cs_free(pcs);

    groth16_pvk pvk;
    CHECK(groth16_pvk_prepare(&pvk, &gp.vk, &err) == GROTH16_OK);
    groth16_proof proof, again;
    fr r, s;
    fr_set_u64(&r, 123456789);
    fr_set_u64(&s, 987654321);
    CHECK(groth16_prove_cpu(&proof, &part, 1, &srs, &r, &s, 1, NULL, &err) == GROTH16_OK);
    const fr *pub = part.input + 1;
    size_t npub = part.num_inputs - 1;
    st = groth16_verify(&pvk, &proof, pub, npub, &err);
    CHECK(st == GROTH16_OK);
    if (st != GROTH16_OK)
        fprintf(stderr, "%s: verify: %s\n", name, err.msg);
    /* same (r, s), other thread counts: the same bytes */
    uint8_t b0[GROTH16_PROOF_BYTES], bx[GROTH16_PROOF_BYTES];
    groth16_proof_write(b0, &proof);
    for (unsigned t = 2; t <= 3; t++) {
        CHECK(groth16_prove_cpu(&again, &part, 1, &srs, &r, &s, t, NULL, &err) == GROTH16_OK);
        groth16_proof_write(bx, &again);
        CHECK_MEM(b0, bx, sizeof b0);
    }
    /* deferred: the same bytes, the arrays expanded for the CPU backend */
    {
        r1cs_cs *rc = r1cs_cs_new(R1CS_RECORD, 0, NULL);
        r1cs_pce pce;
        char msg[256];
        CHECK(r1cs_synthesize(rc, fn, ctx) == R1CS_OK &&
              pce_from_recording(rc, name, NULL, 0, &pce, msg, sizeof msg) == 0);
        r1cs_cs_free(rc);
        fr *in = malloc(part.num_inputs * sizeof(fr)), *aux = malloc(part.num_aux * sizeof(fr) + 1);
        memcpy(in, part.input, part.num_inputs * sizeof(fr));
        memcpy(aux, part.aux, part.num_aux * sizeof(fr));
        r1cs_partition d;
        CHECK(pce_partition_deferred(&pce, in, aux, 2, &d, msg, sizeof msg) == 0);
        CHECK(r1cs_partition_deferred(&d) && !d.a && !d.aux && d.aux_pack);
        CHECK(r1cs_partition_bytes(&d) < r1cs_partition_bytes(&part));
        groth16_prove_timing tm;
        CHECK(groth16_prove_cpu(&again, &d, 1, &srs, &r, &s, 2, &tm, &err) == GROTH16_OK);
        groth16_proof_write(bx, &again);
        CHECK_MEM(b0, bx, sizeof b0);
        CHECK(tm.abc_ms >= 0);
        r1cs_partition_free(&d);
        pce_free(&pce);
    }
    /* file-backed (params.h): the points read from the file a chunk at a
     * time, chunks splitting the density words; the same bytes */
    for (size_t chunk = 64; chunk <= 192; chunk += 128) {
        groth16_params_data fb = {&gp.vk, NULL, nh, NULL, nl, NULL, na, NULL, NULL, nb, &gp, chunk};
        CHECK(!groth16_params_data_on_host(&fb) && groth16_params_data_chunk(&fb) == chunk);
        CHECK(groth16_prove_cpu(&again, &part, 1, &fb, &r, &s, 2, NULL, &err) == GROTH16_OK);
        groth16_proof_write(bx, &again);
        CHECK_MEM(b0, bx, sizeof b0);
    }
    /* a bad point in a file-backed set: an error naming it, no proof */
    {
        uint8_t *copy = malloc(len);
        memcpy(copy, buf, len);
        size_t at = L->sec[GROTH16_SEC_L].offset + 96 * (nl - 1); /* l's last point */
        memset(copy + at, 0, 96);
        copy[at] = 0x40; /* uncompressed infinity */
        groth16_params bp;
        CHECK(groth16_params_parse(&bp, copy, len, &err) == GROTH16_OK);
        groth16_params_data fb = {&bp.vk, NULL, nh, NULL, nl, NULL, na, NULL, NULL, nb, &bp, 64};
        CHECK(groth16_prove_cpu(&again, &part, 1, &fb, &r, &s, 2, NULL, &err) != GROTH16_OK);
        CHECK(strstr(err.msg, "l[") != NULL);
        groth16_params_close(&bp);
        free(copy);
    }
    /* random r, s: still valid, different bytes */
    CHECK(groth16_prove_cpu(&again, &part, 1, &srs, NULL, NULL, 2, NULL, &err) == GROTH16_OK);
    CHECK(groth16_verify(&pvk, &again, pub, npub, &err) == GROTH16_OK);
    groth16_proof_write(bx, &again);
    CHECK(memcmp(b0, bx, sizeof b0) != 0);
    /* tampering */
    groth16_proof bad = proof;
    g1_affine_neg(&bad.a, &bad.a);
    CHECK(groth16_verify(&pvk, &bad, pub, npub, &err) == GROTH16_ERR_INVALID_PROOF);
    bad = proof;
    bad.c = proof.a;
    CHECK(groth16_verify(&pvk, &bad, pub, npub, &err) == GROTH16_ERR_INVALID_PROOF);
    if (npub > 0) {
        fr *wrong = malloc(npub * sizeof *wrong);
        memcpy(wrong, pub, npub * sizeof *wrong);
        fr one;
        fr_set_one(&one);
        fr_add(&wrong[npub - 1], &wrong[npub - 1], &one);
        CHECK(groth16_verify(&pvk, &proof, wrong, npub, &err) == GROTH16_ERR_INVALID_PROOF);
        free(wrong);
    }
    /* a vk from other toxic waste */
    groth16_toxic tox2;
    groth16_setup_result setup2;
    CHECK(groth16_toxic_random(&tox2, &err) == GROTH16_OK);
    CHECK(groth16_setup(&setup2, &mx, &tox2, 2, &err) == GROTH16_OK);
    groth16_pvk pvk2;
    CHECK(groth16_pvk_prepare(&pvk2, &setup2.vk, &err) == GROTH16_OK);
    CHECK(groth16_verify(&pvk2, &proof, pub, npub, &err) == GROTH16_ERR_INVALID_PROOF);
    groth16_pvk_free(&pvk2);
    groth16_setup_free(&setup2);
    printf("%s: %zu rows, %zu inputs, %zu aux, a %zu, b %zu, h %zu points\n", name,
           part.num_constraints, part.num_inputs, part.num_aux, na, nb, nh);

    groth16_pvk_free(&pvk);
    r1cs_partition_free(&part);
    free(h);
    free(l);
    free(a);
    free(b1);
    free(b2);
    groth16_params_close(&gp);
    free(buf);
    groth16_setup_free(&setup);
    r1cs_matrices_free(&mx);
}

int main(void) {
    check_seed("test_groth16_prove");
    char spec[64], why[256];
    toy_circuit c;
    snprintf(spec, sizeof spec, "cubic:%llu", (unsigned long long)(3 + check_rand64() % 1000));
    CHECK(toy_circuit_parse(&c, spec, why, sizeof why) == 0);
    run_flow(c.fn, &c, spec);
    snprintf(spec, sizeof spec, "random:1000:%llu", (unsigned long long)check_rand64());
    CHECK(toy_circuit_parse(&c, spec, why, sizeof why) == 0);
    run_flow(c.fn, &c, spec);
    return check_finish();
}
