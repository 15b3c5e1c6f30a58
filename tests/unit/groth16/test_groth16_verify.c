/* The verifier on proofs made from a known trapdoor (trapdoor.h): valid proofs
 * pass singly and in batches; a changed A, B or C, a wrong public input, a
 * wrong vk and a wrong input count are turned away.
 *
 * `test_groth16_verify --write-oracle DIR` writes vk.vk, valid.proof,
 * tampered.proof, public.txt and wrong_public.txt for the Node verifier
 * (tests/groth16_oracle.sh). */
#include <errno.h>
#include <sys/stat.h>

#include "groth16/verify.h"
#include "trapdoor.h"
#include "util/hex.h"

static void rand_inputs(fr *x, size_t n) {
    for (size_t i = 0; i < n; i++)
        x[i] = td_rand_fr();
    if (n > 1)
        fr_set_zero(&x[1]); /* a zero input: skipped by the MSM */
    if (n > 2) {
        fr_set_one(&x[2]);
        fr_neg(&x[2], &x[2]); /* r - 1 */
    }
}

/* p + G in G1 / G2: a valid point that breaks the equation. */
static void bump_g1(g1_affine *p) {
    g1_affine g;
    g1_jac j;
    g1_affine_generator(&g);
    g1_jac_from_affine(&j, p);
    g1_jac_add_affine_vartime(&j, &j, &g);
    g1_jac_to_affine(p, &j);
}

static void bump_g2(g2_affine *p) {
    g2_affine g;
    g2_jac j;
    g2_affine_generator(&g);
    g2_jac_from_affine(&j, p);
    g2_jac_add_affine_vartime(&j, &j, &g);
    g2_jac_to_affine(p, &j);
}

static void test_single(size_t n_ic) {
    trapdoor t;
    groth16_vk vk;
    groth16_pvk pvk;
    groth16_error err;
    trapdoor_new(&t, &vk, n_ic);
    CHECK(groth16_pvk_prepare(&pvk, &vk, &err) == GROTH16_OK);
    size_t n = n_ic - 1;
    fr x[64];
    rand_inputs(x, n);
    groth16_proof p, q;
    trapdoor_prove(&t, &p, x);
    CHECK(groth16_verify(&pvk, &p, x, n, &err) == GROTH16_OK);

    /* through the 192-byte codec */
    uint8_t bytes[GROTH16_PROOF_BYTES];
    groth16_proof_write(bytes, &p);
    CHECK(groth16_proof_read(&q, bytes, &err) == GROTH16_OK);
    CHECK(groth16_verify(&pvk, &q, x, n, &err) == GROTH16_OK);

    q = p;
    bump_g1(&q.a);
    CHECK(groth16_verify(&pvk, &q, x, n, &err) == GROTH16_ERR_INVALID_PROOF);
    q = p;
    bump_g2(&q.b);
    CHECK(groth16_verify(&pvk, &q, x, n, &err) == GROTH16_ERR_INVALID_PROOF);
    q = p;
    bump_g1(&q.c);
    CHECK(groth16_verify(&pvk, &q, x, n, &err) == GROTH16_ERR_INVALID_PROOF);
    CHECK(strstr(err.msg, "verify:") != NULL);
    q = p; /* A and C swapped: both valid points, wrong places */
    q.a = p.c;
    q.c = p.a;
    CHECK(groth16_verify(&pvk, &q, x, n, &err) == GROTH16_ERR_INVALID_PROOF);

    for (size_t i = 0; i < n; i++) { /* each public input matters */
        fr saved = x[i], one;
        fr_set_one(&one);
        fr_add(&x[i], &x[i], &one);
        CHECK(groth16_verify(&pvk, &p, x, n, &err) == GROTH16_ERR_INVALID_PROOF);
        x[i] = saved;
    }
    /* wrong input counts */
    CHECK(groth16_verify(&pvk, &p, x, n + 1, &err) == GROTH16_ERR_MALFORMED_VK);
    CHECK(strstr(err.msg, "MalformedVerifyingKey") != NULL);
    if (n > 0)
        CHECK(groth16_verify(&pvk, &p, x, n - 1, &err) == GROTH16_ERR_MALFORMED_VK);

    /* a wrong vk: delta changed, then gamma, then alpha, then one ic point */
    groth16_pvk bad;
    groth16_vk vk2;
    for (int w = 0; w < 4; w++) {
        CHECK(groth16_vk_copy(&vk2, &vk, &err) == GROTH16_OK);
        if (w == 0)
            bump_g2(&vk2.delta_g2);
        else if (w == 1)
            bump_g2(&vk2.gamma_g2);
        else if (w == 2)
            bump_g1(&vk2.alpha_g1);
        else
            bump_g1(&vk2.ic[n_ic - 1]);
        CHECK(groth16_pvk_prepare(&bad, &vk2, &err) == GROTH16_OK);
        CHECK(groth16_verify(&bad, &p, x, n, &err) == GROTH16_ERR_INVALID_PROOF);
        groth16_pvk_free(&bad);
        groth16_vk_free(&vk2);
    }
    groth16_pvk_free(&pvk);
    groth16_vk_free(&vk);
}

static void test_batch(void) {
    enum { N = 5, NIC = 4, NIN = NIC - 1 };
    trapdoor t;
    groth16_vk vk;
    groth16_pvk pvk;
    groth16_error err;
    trapdoor_new(&t, &vk, NIC);
    CHECK(groth16_pvk_prepare(&pvk, &vk, &err) == GROTH16_OK);
    fr x[N * NIN], z[N];
    groth16_proof p[N], saved;
    for (int j = 0; j < N; j++) {
        rand_inputs(&x[j * NIN], NIN);
        trapdoor_prove(&t, &p[j], &x[j * NIN]);
        z[j] = td_rand_fr();
    }
    CHECK(groth16_verify_batch(&pvk, p, N, x, NIN, &err) == GROTH16_OK);
    CHECK(groth16_verify_batch_with_coeffs(&pvk, p, N, x, NIN, z, &err) == GROTH16_OK);
    for (size_t n = 1; n < N; n++) /* prefixes, 1 included (the single path) */
        CHECK(groth16_verify_batch(&pvk, p, n, x, NIN, &err) == GROTH16_OK);
    CHECK(groth16_verify_batch_with_coeffs(&pvk, p, 1, x, NIN, z, &err) == GROTH16_OK);

    for (int j = 0; j < N; j++) { /* one bad proof spoils the batch */
        for (int part = 0; part < 3; part++) {
            saved = p[j];
            if (part == 0)
                bump_g1(&p[j].a);
            else if (part == 1)
                bump_g2(&p[j].b);
            else
                bump_g1(&p[j].c);
            CHECK(groth16_verify_batch(&pvk, p, N, x, NIN, &err) == GROTH16_ERR_INVALID_PROOF);
            p[j] = saved;
        }
        fr one, keep = x[j * NIN];
        fr_set_one(&one);
        fr_add(&x[j * NIN], &x[j * NIN], &one);
        CHECK(groth16_verify_batch(&pvk, p, N, x, NIN, &err) == GROTH16_ERR_INVALID_PROOF);
        x[j * NIN] = keep;
    }
    /* two proofs' public inputs exchanged */
    fr tmp[NIN];
    memcpy(tmp, &x[0], sizeof tmp);
    memcpy(&x[0], &x[NIN], sizeof tmp);
    memcpy(&x[NIN], tmp, sizeof tmp);
    CHECK(groth16_verify_batch(&pvk, p, N, x, NIN, &err) == GROTH16_ERR_INVALID_PROOF);
    memcpy(&x[NIN], &x[0], sizeof tmp);
    memcpy(&x[0], tmp, sizeof tmp);
    CHECK(groth16_verify_batch(&pvk, p, N, x, NIN, &err) == GROTH16_OK);

    CHECK(groth16_verify_batch(&pvk, p, 0, x, NIN, &err) == GROTH16_ERR_ARG);
    CHECK(groth16_verify_batch(&pvk, p, N, x, NIN + 1, &err) == GROTH16_ERR_MALFORMED_VK);
    CHECK(groth16_verify_batch(&pvk, p, N, x, NIN - 1, &err) == GROTH16_ERR_MALFORMED_VK);
    groth16_pvk_free(&pvk);
    groth16_vk_free(&vk);
}

static int write_file(const char *dir, const char *name, const void *data, size_t n) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        return 0;
    }
    return 1;
}

static int write_public(const char *dir, const char *name, const fr *x, size_t n) {
    char text[64 * 66 + 64] = "# public inputs: 32-byte little-endian Fr, one per line\n";
    for (size_t i = 0; i < n; i++) {
        uint8_t b[FR_BYTES];
        char hex[2 * FR_BYTES + 1];
        fr_to_bytes_le(b, &x[i]);
        hex_encode(hex, b, FR_BYTES);
        strcat(text, hex);
        strcat(text, "\n");
    }
    return write_file(dir, name, text, strlen(text));
}

/* Files for the Node verifier; returns the exit status. */
static int write_oracle(const char *dir) {
    enum { NIC = 6, NIN = NIC - 1 };
    trapdoor t;
    groth16_vk vk;
    groth16_pvk pvk;
    groth16_error err;
    trapdoor_new(&t, &vk, NIC);
    fr x[NIN];
    rand_inputs(x, NIN);
    groth16_proof p;
    trapdoor_prove(&t, &p, x);
    CHECK(groth16_pvk_prepare(&pvk, &vk, &err) == GROTH16_OK);
    CHECK(groth16_verify(&pvk, &p, x, NIN, &err) == GROTH16_OK);

    size_t vk_len = groth16_vk_size(vk.n_ic);
    uint8_t *vk_bytes = malloc(vk_len), proof[GROTH16_PROOF_BYTES];
    groth16_vk_write(vk_bytes, &vk);
    int ok = mkdir(dir, 0755) == 0 || errno == EEXIST;
    ok = ok && write_file(dir, "vk.vk", vk_bytes, vk_len);
    groth16_proof_write(proof, &p);
    ok = ok && write_file(dir, "valid.proof", proof, sizeof proof);
    ok = ok && write_public(dir, "public.txt", x, NIN);
    bump_g1(&p.c);
    CHECK(groth16_verify(&pvk, &p, x, NIN, &err) == GROTH16_ERR_INVALID_PROOF);
    groth16_proof_write(proof, &p);
    ok = ok && write_file(dir, "tampered.proof", proof, sizeof proof);
    fr_set_u64(&x[0], 12345);
    ok = ok && write_public(dir, "wrong_public.txt", x, NIN);
    CHECK(ok);
    free(vk_bytes);
    groth16_pvk_free(&pvk);
    groth16_vk_free(&vk);
    return check_finish();
}

int main(int argc, char **argv) {
    check_seed("test_groth16_verify");
    if (argc == 3 && strcmp(argv[1], "--write-oracle") == 0)
        return write_oracle(argv[2]);
    const size_t sizes[] = {1, 2, 5, 17};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        test_single(sizes[i]);
    test_batch();
    return check_finish();
}
