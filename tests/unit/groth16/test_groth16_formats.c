/* .vk, .params and proof bytes: writer -> reader round trips byte for byte,
 * and every kind of bad input turned away with a message naming the offset:
 * truncation at each section boundary and at random cuts, trailing bytes,
 * bad flag bits, a coordinate >= p, a point off the curve, a point outside the
 * subgroup, an identity point where the format forbids one, inconsistent
 * section counts, and random garbage. */
#include <unistd.h>

#include "field/constants.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "field_rand.h"
#include "trapdoor.h"
#include "util/hex.h"

/* p, big-endian: a coordinate equal to the modulus is the smallest non-canonical one. */
static const char P_HEX[] =
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb1"
    "53ffffb9feffffffffaaab";

static int has(const groth16_error *e, const char *s) { return strstr(e->msg, s) != NULL; }

/* n points k G, (k+1) G, ... : cheap distinct subgroup points. */
static g1_affine *g1_points(size_t n) {
    g1_affine *out = malloc((n ? n : 1) * sizeof *out), g;
    g1_jac *j = malloc((n ? n : 1) * sizeof *j), acc;
    g1_affine_generator(&g);
    fr k = td_rand_fr();
    g1_jac_from_affine(&acc, &g);
    g1_jac_mul_vartime(&acc, &acc, &k);
    for (size_t i = 0; i < n; i++) {
        j[i] = acc;
        g1_jac_add_affine_vartime(&acc, &acc, &g);
    }
    g1_jac_batch_to_affine(out, j, n);
    free(j);
    return out;
}

static g2_affine *g2_points(size_t n) {
    g2_affine *out = malloc((n ? n : 1) * sizeof *out), g;
    g2_jac *j = malloc((n ? n : 1) * sizeof *j), acc;
    g2_affine_generator(&g);
    fr k = td_rand_fr();
    g2_jac_from_affine(&acc, &g);
    g2_jac_mul_vartime(&acc, &acc, &k);
    for (size_t i = 0; i < n; i++) {
        j[i] = acc;
        g2_jac_add_affine_vartime(&acc, &acc, &g);
    }
    g2_jac_batch_to_affine(out, j, n);
    free(j);
    return out;
}

/* Points on the curves but outside the order-r subgroup. */
static g1_affine g1_outside(void) {
    for (;;) {
        fp x = rand_fp(), rhs, y;
        fp_sqr(&rhs, &x);
        fp_mul(&rhs, &rhs, &x);
        fp_add(&rhs, &rhs, &G1_B);
        g1_affine p;
        if (fp_sqrt(&y, &rhs) && (p = (g1_affine){x, y}, !g1_affine_in_subgroup(&p)))
            return p;
    }
}

static g2_affine g2_outside(void) {
    for (;;) {
        fp2 x = {rand_fp(), rand_fp()}, rhs, y;
        fp2_sqr(&rhs, &x);
        fp2_mul(&rhs, &rhs, &x);
        fp2_add(&rhs, &rhs, &G2_B);
        g2_affine p;
        if (fp2_sqrt(&y, &rhs) && (p = (g2_affine){x, y}, !g2_affine_in_subgroup(&p)))
            return p;
    }
}

/* The ways to spoil an uncompressed point at `at` (size bytes), and what a
 * FULL decode then says. */
enum { BAD_FLAGS, BAD_NONCANONICAL, BAD_OFF_CURVE, BAD_SUBGROUP, BAD_IDENTITY, BAD_KINDS };

static const char *spoil(uint8_t *at, size_t size, int kind) {
    switch (kind) {
    case BAD_FLAGS:
        at[0] |= 0x80; /* "compressed" on an uncompressed point */
        return "invalid flag bits for this encoding";
    case BAD_NONCANONICAL:
        hex_decode(at, 48, P_HEX); /* x (x.c1 for G2) = p */
        return "coordinate is not below the field modulus";
    case BAD_OFF_CURVE:
        at[size - 1] ^= 1;
        return "point is not on the curve";
    case BAD_SUBGROUP:
        if (size == G1_UNCOMPRESSED_BYTES) {
            g1_affine p = g1_outside();
            g1_to_uncompressed(at, &p);
        } else {
            g2_affine p = g2_outside();
            g2_to_uncompressed(at, &p);
        }
        return "point is not in the prime-order subgroup";
    default:
        memset(at, 0, size);
        at[0] = 0x40;
        return "point at infinity";
    }
}

/* ---- vk ------------------------------------------------------------------------- */

static void test_vk(void) {
    enum { NIC = 5 };
    trapdoor t;
    groth16_vk vk, back;
    groth16_error err;
    trapdoor_new(&t, &vk, NIC);
    size_t len = groth16_vk_size(NIC);
    CHECK(len == 868 + 96 * NIC);
    uint8_t *buf = malloc(len + 1), *again = malloc(len), *bad = malloc(len + 1);
    groth16_vk_write(buf, &vk);
    CHECK(buf[864] == 0 && buf[865] == 0 && buf[866] == 0 && buf[867] == NIC); /* u32 BE */
    CHECK(groth16_vk_read(&back, buf, len, NULL, &err) == GROTH16_OK);
    groth16_vk_write(again, &back);
    CHECK_MEM(buf, again, len);
    CHECK(g2_affine_equal(&back.delta_g2, &vk.delta_g2) && g1_affine_equal(&back.ic[4], &vk.ic[4]));
    groth16_vk_free(&back);

    /* the FILE writer gives the same bytes */
    char *mem = NULL;
    size_t mem_len = 0;
    FILE *f = open_memstream(&mem, &mem_len);
    CHECK(groth16_vk_write_file(f, &vk, &err) == GROTH16_OK);
    fclose(f);
    CHECK(mem_len == len && memcmp(mem, buf, len) == 0);
    free(mem);

    /* every truncation */
    int all_trunc = 1;
    for (size_t cut = 0; cut < len; cut++) {
        groth16_status s = groth16_vk_read(&back, buf, cut, NULL, &err);
        all_trunc &= s == GROTH16_ERR_TRUNCATED && back.ic == NULL &&
                     (cut < 868 ? has(&err, "need 868 bytes for the header")
                                : has(&err, "(u32 at offset 864) needs 1348 bytes"));
    }
    CHECK(all_trunc);
    CHECK(groth16_vk_read(&back, buf, 500, NULL, &err) == GROTH16_ERR_TRUNCATED);
    CHECK(strcmp(err.msg, "vk: truncated: need 868 bytes for the header, have 500") == 0);
    /* trailing bytes: an error, unless the caller asks where the key ends */
    buf[len] = 0;
    CHECK(groth16_vk_read(&back, buf, len + 1, NULL, &err) == GROTH16_ERR_TRAILING);
    CHECK(has(&err, "1 trailing bytes at offset 1348"));
    size_t used = 0;
    CHECK(groth16_vk_read(&back, buf, len + 1, &used, &err) == GROTH16_OK && used == len);
    groth16_vk_free(&back);

    /* each point spoiled each way */
    static const struct {
        const char *name;
        size_t off, size;
    } pts[] = {{"alpha_g1", 0, 96},    {"beta_g1", 96, 96},   {"beta_g2", 192, 192},
               {"gamma_g2", 384, 192}, {"delta_g1", 576, 96}, {"delta_g2", 672, 192},
               {"ic[0]", 868, 96},     {"ic[3]", 1156, 96},   {"ic[4]", 1252, 96}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        for (int kind = 0; kind < BAD_KINDS; kind++) {
            memcpy(bad, buf, len);
            const char *why = spoil(bad + pts[i].off, pts[i].size, kind);
            groth16_status s = groth16_vk_read(&back, bad, len, NULL, &err);
            int is_ic = pts[i].name[0] == 'i';
            if (kind == BAD_IDENTITY && !is_ic) { /* bellperson lets these be infinity */
                CHECK(s == GROTH16_OK);
                groth16_vk_free(&back);
                continue;
            }
            char want[200];
            snprintf(want, sizeof want, "vk: %s at offset %zu: %s", pts[i].name, pts[i].off, why);
            CHECK(s == (kind == BAD_IDENTITY ? GROTH16_ERR_INFINITY : GROTH16_ERR_POINT));
            CHECK(strcmp(err.msg, want) == 0);
            if (strcmp(err.msg, want) != 0)
                fprintf(stderr, "  got  %s\n  want %s\n", err.msg, want);
            CHECK(back.ic == NULL && back.n_ic == 0);
        }
    }
    /* the all-zero G1 encoding (no infinity flag) is not infinity */
    memcpy(bad, buf, len);
    memset(bad + 868, 0, 96);
    CHECK(groth16_vk_read(&back, bad, len, NULL, &err) == GROTH16_ERR_POINT);
    CHECK(has(&err, "ic[0] at offset 868: point is not on the curve"));

    /* a lying count: n_ic = 0xffffffff costs no allocation, just an error */
    memcpy(bad, buf, len);
    memset(bad + 864, 0xff, 4);
    CHECK(groth16_vk_read(&back, bad, len, NULL, &err) == GROTH16_ERR_TRUNCATED);
    CHECK(has(&err, "n_ic = 4294967295"));

    /* load from a file */
    char path[] = "/tmp/cuzk-vk-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, buf, len) == (ssize_t)len);
    close(fd);
    CHECK(groth16_vk_load(&back, path, &err) == GROTH16_OK && back.n_ic == NIC);
    groth16_vk_free(&back);
    unlink(path);
    CHECK(groth16_vk_load(&back, path, &err) == GROTH16_ERR_IO && has(&err, path));

    /* garbage of many lengths: an error, never a crash */
    int garbage_rejected = 1;
    for (int i = 0; i < 200; i++) {
        size_t n = check_rand64() % (len + 1);
        check_rand_bytes(bad, n);
        if (n >= 868) { /* keep the count honest so the points get decoded */
            memset(bad + 864, 0, 4);
            bad[867] = (uint8_t)((n - 868) / 96);
        }
        garbage_rejected &= groth16_vk_read(&back, bad, n, NULL, &err) != GROTH16_OK;
    }
    CHECK(garbage_rejected);
    free(buf);
    free(again);
    free(bad);
    groth16_vk_free(&vk);
}

/* ---- params ---------------------------------------------------------------------- */

typedef struct {
    groth16_vk vk;
    trapdoor t;
    g1_affine *h, *l, *a, *b1;
    g2_affine *b2;
    groth16_params_data d;
    uint8_t *bytes;
    size_t len;
} params_fixture;

static void fixture_new(params_fixture *x) {
    enum { NIC = 3, NH = 2100, NL = 5, NA = NIC + 4, NB = 3 }; /* h spans 3 decode blocks */
    trapdoor_new(&x->t, &x->vk, NIC);
    x->h = g1_points(NH);
    x->l = g1_points(NL);
    x->a = g1_points(NA);
    x->b1 = g1_points(NB);
    x->b2 = g2_points(NB);
    x->d = (groth16_params_data){&x->vk, x->h, NH, x->l, NL, x->a, NA, x->b1, x->b2, NB, NULL, 0};
    groth16_error err;
    FILE *f = open_memstream((char **)&x->bytes, &x->len);
    CHECK(groth16_params_write(f, &x->d, &err) == GROTH16_OK);
    fclose(f);
    CHECK(x->len == groth16_params_size(&x->d));
}

static void fixture_free(params_fixture *x) {
    free(x->h);
    free(x->l);
    free(x->a);
    free(x->b1);
    free(x->b2);
    free(x->bytes);
    groth16_vk_free(&x->vk);
}

static void test_params_roundtrip(params_fixture *x) {
    groth16_error err;
    char path[] = "/tmp/cuzk-params-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "wb");
    CHECK(groth16_params_write(f, &x->d, &err) == GROTH16_OK);
    fclose(f);
    groth16_params p;
    CHECK(groth16_params_open(&p, path, &err) == GROTH16_OK);
    unlink(path); /* the mapping keeps it */
    CHECK(p.len == x->len && memcmp(p.data, x->bytes, x->len) == 0);

    /* the layout, against the formula */
    const groth16_params_layout *lay = &p.layout;
    const size_t counts[5] = {x->d.n_h, x->d.n_l, x->d.n_a, x->d.n_b, x->d.n_b};
    uint64_t off = 868 + 96 * 3;
    CHECK(lay->n_ic == 3 && lay->vk_bytes == off);
    for (int s = 0; s < GROTH16_SECTIONS; s++) {
        CHECK(lay->sec[s].count == counts[s] && lay->sec[s].count_offset == off);
        CHECK(lay->sec[s].offset == off + 4);
        off += 4 + counts[s] * lay->sec[s].point_bytes;
    }
    CHECK(lay->total_bytes == off && off == x->len);
    CHECK(lay->a_inputs == 3 && lay->a_aux == 4);

    /* decode everything at each level and thread count; write it back */
    g1_affine *h = malloc(x->d.n_h * sizeof *h), l[5], a[7], b1[3];
    g2_affine b2[3];
    for (int check = GROTH16_CHECK_FULL; check <= GROTH16_CHECK_NONE; check++) {
        unsigned threads = (unsigned)check + 1;
        CHECK(groth16_params_read_g1(&p, GROTH16_SEC_H, 0, x->d.n_h, h, check, threads, &err) ==
              GROTH16_OK);
        CHECK(memcmp(h, x->h, x->d.n_h * sizeof *h) == 0);
        CHECK(groth16_params_read_g1(&p, GROTH16_SEC_L, 0, 5, l, check, threads, &err) == 0);
        CHECK(groth16_params_read_g1(&p, GROTH16_SEC_A, 0, 7, a, check, threads, &err) == 0);
        CHECK(groth16_params_read_g1(&p, GROTH16_SEC_B_G1, 0, 3, b1, check, threads, &err) == 0);
        CHECK(groth16_params_read_g2(&p, GROTH16_SEC_B_G2, 0, 3, b2, check, threads, &err) == 0);
        CHECK(memcmp(l, x->l, sizeof l) == 0 && memcmp(a, x->a, sizeof a) == 0);
        CHECK(memcmp(b1, x->b1, sizeof b1) == 0 && memcmp(b2, x->b2, sizeof b2) == 0);
    }
    groth16_params_data back = {&p.vk, h, x->d.n_h, l, 5, a, 7, b1, b2, 3, NULL, 0};
    char *mem = NULL;
    size_t mem_len = 0;
    f = open_memstream(&mem, &mem_len);
    CHECK(groth16_params_write(f, &back, &err) == GROTH16_OK);
    fclose(f);
    CHECK(mem_len == x->len && memcmp(mem, x->bytes, x->len) == 0);
    free(mem);

    /* sub-ranges: a's inputs and aux parts, a window across decode blocks */
    CHECK(groth16_params_read_g1(&p, GROTH16_SEC_A, lay->a_inputs, lay->a_aux, a, 0, 2, &err) ==
          GROTH16_OK);
    CHECK(memcmp(a, x->a + 3, 4 * sizeof *a) == 0);
    CHECK(groth16_params_read_g1(&p, GROTH16_SEC_H, 1000, 1100, h, 0, 4, &err) == GROTH16_OK);
    CHECK(memcmp(h, x->h + 1000, 1100 * sizeof *h) == 0);
    CHECK(groth16_params_read_g1(&p, GROTH16_SEC_H, 2100, 0, h, 0, 4, &err) == GROTH16_OK);
    /* ranges outside, and the wrong group */
    CHECK(groth16_params_read_g1(&p, GROTH16_SEC_H, 2000, 101, h, 0, 1, &err) == GROTH16_ERR_ARG);
    CHECK(has(&err, "outside h (2100 points)"));
    CHECK(groth16_params_read_g1(&p, GROTH16_SEC_L, SIZE_MAX, 2, l, 0, 1, &err) == GROTH16_ERR_ARG);
    CHECK(groth16_params_read_g1(&p, GROTH16_SEC_B_G2, 0, 1, l, 0, 1, &err) == GROTH16_ERR_ARG);
    CHECK(groth16_params_read_g2(&p, GROTH16_SEC_B_G1, 0, 1, b2, 0, 1, &err) == GROTH16_ERR_ARG);
    free(h);
    groth16_params_close(&p);
    CHECK(groth16_params_open(&p, path, &err) == GROTH16_ERR_IO && has(&err, "cannot open"));
    groth16_params_close(&p);

    /* the chunked pieces write the same file */
    f = open_memstream(&mem, &mem_len);
    CHECK(groth16_vk_write_file(f, &x->vk, &err) == GROTH16_OK);
    CHECK(groth16_params_write_count(f, x->d.n_h, &err) == GROTH16_OK);
    CHECK(groth16_params_write_g1s(f, x->h, 700, &err) == GROTH16_OK);
    CHECK(groth16_params_write_g1s(f, x->h + 700, x->d.n_h - 700, &err) == GROTH16_OK);
    const g1_affine *g1s[3] = {x->l, x->a, x->b1};
    const size_t n1[3] = {5, 7, 3};
    for (int i = 0; i < 3; i++) {
        CHECK(groth16_params_write_count(f, n1[i], &err) == GROTH16_OK);
        CHECK(groth16_params_write_g1s(f, g1s[i], n1[i], &err) == GROTH16_OK);
    }
    CHECK(groth16_params_write_count(f, 3, &err) == GROTH16_OK);
    CHECK(groth16_params_write_g2s(f, x->b2, 3, &err) == GROTH16_OK);
    fclose(f);
    CHECK(mem_len == x->len && memcmp(mem, x->bytes, x->len) == 0);
    free(mem);
}

static void test_params_truncated(params_fixture *x) {
    groth16_error err;
    groth16_params p;
    CHECK(groth16_params_parse(&p, x->bytes, x->len, &err) == GROTH16_OK);
    /* cut points: every section boundary, one byte either side, and random ones */
    size_t cuts[64], n = 0;
    const size_t vk_marks[] = {0, 96, 192, 384, 576, 672, 864, 868, 964, 1060};
    for (size_t i = 0; i < sizeof vk_marks / sizeof vk_marks[0]; i++)
        cuts[n++] = vk_marks[i];
    for (int s = 0; s < GROTH16_SECTIONS; s++) {
        const groth16_section_layout *sec = &p.layout.sec[s];
        cuts[n++] = sec->count_offset;
        cuts[n++] = sec->count_offset + 2;
        cuts[n++] = sec->offset;
        cuts[n++] = sec->offset + 1;
        cuts[n++] = sec->offset + sec->count * sec->point_bytes - 1;
    }
    for (int i = 0; i < 8; i++)
        cuts[n++] = check_rand64() % x->len;
    groth16_params_close(&p);
    for (size_t i = 0; i < n; i++) {
        groth16_status s = groth16_params_parse(&p, x->bytes, cuts[i], &err);
        int ok = s == GROTH16_ERR_TRUNCATED && (has(&err, "offset") || has(&err, "header"));
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  cut %zu: status %d: %s\n", cuts[i], s, err.msg);
        groth16_params_close(&p);
    }
    /* the exact messages for a cut inside b_g2's points and inside l's count */
    CHECK(groth16_params_parse(&p, x->bytes, x->len - 1, &err) == GROTH16_ERR_TRUNCATED);
    char want[200];
    size_t b2_off = x->len - 3 * 192;
    snprintf(want, sizeof want,
             "params: truncated: b_g2 has 3 points (576 bytes from offset %zu), file ends at %zu",
             b2_off, x->len - 1);
    CHECK(strcmp(err.msg, want) == 0);
    size_t l_count = 868 + 96 * 3 + 4 + 2100 * 96;
    CHECK(groth16_params_parse(&p, x->bytes, l_count + 3, &err) == GROTH16_ERR_TRUNCATED);
    snprintf(want, sizeof want,
             "params: truncated: need 4 bytes for the l count at offset %zu, file ends at %zu",
             l_count, l_count + 3);
    CHECK(strcmp(err.msg, want) == 0);
    CHECK(groth16_params_parse(&p, x->bytes, 500, &err) == GROTH16_ERR_TRUNCATED);
    CHECK(strcmp(err.msg, "params: vk: truncated: need 868 bytes for the header, have 500") == 0);

    /* one byte too many */
    uint8_t *big = malloc(x->len + 1);
    memcpy(big, x->bytes, x->len);
    big[x->len] = 7;
    CHECK(groth16_params_parse(&p, big, x->len + 1, &err) == GROTH16_ERR_TRAILING);
    CHECK(has(&err, "1 trailing bytes at offset"));
    free(big);
    /* an empty file */
    char path[] = "/tmp/cuzk-params-XXXXXX";
    close(mkstemp(path));
    CHECK(groth16_params_open(&p, path, &err) == GROTH16_ERR_TRUNCATED);
    unlink(path);
}

/* Builds a file by hand with chosen counts (points from the fixture). */
static uint8_t *custom_file(params_fixture *x, size_t n_a, size_t n_b1, size_t n_b2, size_t *len) {
    groth16_error err;
    char *mem = NULL;
    FILE *f = open_memstream(&mem, len);
    groth16_vk_write_file(f, &x->vk, &err);
    groth16_params_write_count(f, 2, &err);
    groth16_params_write_g1s(f, x->h, 2, &err);
    groth16_params_write_count(f, 2, &err);
    groth16_params_write_g1s(f, x->l, 2, &err);
    groth16_params_write_count(f, n_a, &err);
    groth16_params_write_g1s(f, x->a, n_a, &err);
    groth16_params_write_count(f, n_b1, &err);
    groth16_params_write_g1s(f, x->b1, n_b1, &err);
    groth16_params_write_count(f, n_b2, &err);
    groth16_params_write_g2s(f, x->b2, n_b2, &err);
    fclose(f);
    return (uint8_t *)mem;
}

static void test_params_layout_errors(params_fixture *x) {
    groth16_error err;
    groth16_params p;
    size_t len;
    uint8_t *f = custom_file(x, 4, 2, 3, &len);
    CHECK(groth16_params_parse(&p, f, len, &err) == GROTH16_ERR_LAYOUT);
    CHECK(has(&err, "b_g1 has 2 points") && has(&err, "b_g2 has 3"));
    free(f);
    f = custom_file(x, 2, 1, 1, &len); /* a shorter than the 3 inputs */
    CHECK(groth16_params_parse(&p, f, len, &err) == GROTH16_ERR_LAYOUT);
    CHECK(has(&err, "a has 2 points") && has(&err, "3 inputs"));
    free(f);
    f = custom_file(x, 3, 0, 0, &len); /* no aux in a, empty b: fine */
    CHECK(groth16_params_parse(&p, f, len, &err) == GROTH16_OK && p.layout.a_aux == 0);
    groth16_params_close(&p);
    free(f);
}

static void test_params_bad_points(params_fixture *x) {
    groth16_error err;
    groth16_params p;
    uint8_t *bad = malloc(x->len);
    g1_affine *g1 = malloc(2100 * sizeof *g1);
    g2_affine g2[3];
    CHECK(groth16_params_parse(&p, x->bytes, x->len, &err) == GROTH16_OK);
    const groth16_params_layout lay = p.layout;
    groth16_params_close(&p);
    for (int s = 0; s < GROTH16_SECTIONS; s++) {
        const groth16_section_layout *sec = &lay.sec[s];
        size_t idx = s == GROTH16_SEC_H ? 1500 : sec->count - 1;
        size_t off = sec->offset + idx * sec->point_bytes;
        for (int kind = 0; kind < BAD_KINDS; kind++) {
            memcpy(bad, x->bytes, x->len);
            const char *why = spoil(bad + off, sec->point_bytes, kind);
            /* structure is fine, so opening succeeds: points are decoded lazily */
            CHECK(groth16_params_parse(&p, bad, x->len, &err) == GROTH16_OK);
            for (int check = GROTH16_CHECK_FULL; check <= GROTH16_CHECK_NONE; check++) {
                /* what each level lets through */
                int caught = kind == BAD_FLAGS || kind == BAD_NONCANONICAL ||
                             kind == BAD_IDENTITY ||
                             (kind == BAD_OFF_CURVE && check != GROTH16_CHECK_NONE) ||
                             (kind == BAD_SUBGROUP && check == GROTH16_CHECK_FULL);
                groth16_status st =
                    s == GROTH16_SEC_B_G2
                        ? groth16_params_read_g2(&p, s, 0, sec->count, g2, check, 3, &err)
                        : groth16_params_read_g1(&p, s, 0, sec->count, g1, check, 3, &err);
                if (!caught) {
                    CHECK(st == GROTH16_OK);
                    continue;
                }
                char want[200];
                snprintf(want, sizeof want, "params: %s[%zu] at offset %zu: %s",
                         groth16_section_name(s), idx, off, why);
                CHECK(st == (kind == BAD_IDENTITY ? GROTH16_ERR_INFINITY : GROTH16_ERR_POINT));
                CHECK(strcmp(err.msg, want) == 0);
                if (strcmp(err.msg, want) != 0)
                    fprintf(stderr, "  got  %s\n  want %s\n", err.msg, want);
            }
            /* a range that stops short of the bad point is fine */
            if (idx > 0) {
                groth16_status st =
                    s == GROTH16_SEC_B_G2
                        ? groth16_params_read_g2(&p, s, 0, idx, g2, GROTH16_CHECK_FULL, 2, &err)
                        : groth16_params_read_g1(&p, s, 0, idx, g1, GROTH16_CHECK_FULL, 2, &err);
                CHECK(st == GROTH16_OK);
            }
            groth16_params_close(&p);
        }
    }
    /* two bad points in h: the lowest index is reported, whatever the threads */
    memcpy(bad, x->bytes, x->len);
    const groth16_section_layout *h = &lay.sec[GROTH16_SEC_H];
    spoil(bad + h->offset + 2050 * 96, 96, BAD_IDENTITY);
    spoil(bad + h->offset + 1030 * 96, 96, BAD_OFF_CURVE);
    CHECK(groth16_params_parse(&p, bad, x->len, &err) == GROTH16_OK);
    for (unsigned threads = 1; threads <= 4; threads++) {
        CHECK(groth16_params_read_g1(&p, GROTH16_SEC_H, 0, 2100, g1, 0, threads, &err) ==
              GROTH16_ERR_POINT);
        CHECK(has(&err, "h[1030] at offset"));
        CHECK(groth16_params_read_g1(&p, GROTH16_SEC_H, 1031, 1069, g1, 0, threads, &err) ==
              GROTH16_ERR_INFINITY);
        CHECK(has(&err, "h[2050] at offset"));
    }
    groth16_params_close(&p);
    /* the vk inside params is checked at open */
    memcpy(bad, x->bytes, x->len);
    spoil(bad + 868 + 96, 96, BAD_SUBGROUP);
    CHECK(groth16_params_parse(&p, bad, x->len, &err) == GROTH16_ERR_POINT);
    CHECK(strcmp(err.msg,
                 "params: vk: ic[1] at offset 964: point is not in the prime-order subgroup") == 0);
    free(g1);
    free(bad);
}

/* Random bytes and random single-byte mutations of a valid file: an error or
 * a clean result, never a crash (the sanitizer build watches). */
static void test_params_garbage(params_fixture *x) {
    groth16_error err;
    groth16_params p;
    uint8_t *buf = malloc(x->len);
    g1_affine *g1 = malloc(2100 * sizeof *g1);
    g2_affine g2[3];
    int rejected = 1;
    for (int i = 0; i < 100; i++) {
        size_t n = check_rand64() % 4096;
        check_rand_bytes(buf, n);
        rejected &= groth16_params_parse(&p, buf, n, &err) != GROTH16_OK;
        groth16_params_close(&p);
    }
    CHECK(rejected);
    for (int i = 0; i < 40; i++) {
        memcpy(buf, x->bytes, x->len);
        /* mostly the header and the counts, where structure lives */
        size_t at = i % 2 ? check_rand64() % x->len : check_rand64() % (x->len - 2100 * 96);
        if (at >= 868 + 96 * 3 + 4)
            at += i % 2 ? 0 : 2100 * 96;
        buf[at] ^= (uint8_t)(1 + check_rand64() % 255);
        size_t len = i % 3 ? x->len : at + 1; /* sometimes also cut right after it */
        if (groth16_params_parse(&p, buf, len, &err) == GROTH16_OK) {
            for (int s = 0; s < GROTH16_SECTIONS; s++) {
                size_t c = p.layout.sec[s].count;
                if (s == GROTH16_SEC_B_G2)
                    groth16_params_read_g2(&p, s, 0, c < 3 ? c : 3, g2, 0, 2, &err);
                else
                    groth16_params_read_g1(&p, s, 0, c < 2100 ? c : 2100, g1, 0, 2, &err);
            }
        }
        groth16_params_close(&p);
    }
    free(g1);
    free(buf);
}

/* ---- proofs ---------------------------------------------------------------------- */

static void test_proof(void) {
    enum { N = 3, NIC = 3 };
    trapdoor t;
    groth16_vk vk;
    groth16_error err;
    trapdoor_new(&t, &vk, NIC);
    groth16_proof p[N], q[N + 1];
    uint8_t buf[N * GROTH16_PROOF_BYTES + 1], bad[N * GROTH16_PROOF_BYTES];
    for (int j = 0; j < N; j++) {
        fr x[NIC - 1] = {td_rand_fr(), td_rand_fr()};
        trapdoor_prove(&t, &p[j], x);
        groth16_proof_write(buf + j * GROTH16_PROOF_BYTES, &p[j]);
        CHECK((buf[j * 192] & 0xc0) == 0x80 && (buf[j * 192 + 48] & 0xc0) == 0x80);
    }
    size_t n = 99;
    CHECK(groth16_proof_read_many(q, N, &n, buf, sizeof buf - 1, &err) == GROTH16_OK && n == N);
    for (int j = 0; j < N; j++) {
        CHECK(g1_affine_equal(&q[j].a, &p[j].a) && g2_affine_equal(&q[j].b, &p[j].b) &&
              g1_affine_equal(&q[j].c, &p[j].c));
        uint8_t again[GROTH16_PROOF_BYTES];
        groth16_proof_write(again, &q[j]);
        CHECK_MEM(again, buf + j * GROTH16_PROOF_BYTES, GROTH16_PROOF_BYTES);
    }
    CHECK(groth16_proof_read_many(q, N, &n, buf, 0, &err) == GROTH16_OK && n == 0);
    CHECK(groth16_proof_read_many(q, N, &n, buf, 191, &err) == GROTH16_ERR_TRUNCATED);
    CHECK(has(&err, "191 bytes is not a multiple of 192"));
    CHECK(groth16_proof_read_many(q, N + 1, &n, buf, sizeof buf, &err) == GROTH16_ERR_TRUNCATED);
    CHECK(groth16_proof_read_many(q, N - 1, &n, buf, N * 192, &err) == GROTH16_ERR_ARG);

    /* proof 1's A, B, C spoiled each way */
    static const struct {
        const char *name;
        size_t off, size;
    } parts[3] = {{"A", 0, 48}, {"B", 48, 96}, {"C", 144, 48}};
    for (int i = 0; i < 3; i++) {
        for (int kind = 0; kind < 5; kind++) {
            memcpy(bad, buf, sizeof bad);
            uint8_t *at = bad + 192 + parts[i].off;
            const char *why;
            if (kind == 0) {
                at[0] &= 0x7f; /* compressed flag cleared */
                why = "invalid flag bits for this encoding";
            } else if (kind == 1) {
                hex_decode(at, 48, P_HEX);
                at[0] |= 0x80;
                why = "coordinate is not below the field modulus";
            } else if (kind == 2) { /* the smallest x with x^3 + b not a square */
                if (i == 1) {
                    fp2 x, rhs, y;
                    fp2_set_zero(&x);
                    for (uint64_t v = 1;; v++) {
                        fp_set_u64(&x.c0, v);
                        fp2_sqr(&rhs, &x);
                        fp2_mul(&rhs, &rhs, &x);
                        fp2_add(&rhs, &rhs, &G2_B);
                        if (!fp2_sqrt(&y, &rhs))
                            break;
                    }
                    fp2_to_bytes_be(at, &x);
                } else {
                    fp x, rhs, y;
                    for (uint64_t v = 1;; v++) {
                        fp_set_u64(&x, v);
                        fp_sqr(&rhs, &x);
                        fp_mul(&rhs, &rhs, &x);
                        fp_add(&rhs, &rhs, &G1_B);
                        if (!fp_sqrt(&y, &rhs))
                            break;
                    }
                    fp_to_bytes_be(at, &x);
                }
                at[0] |= 0x80;
                why = "point is not on the curve";
            } else if (kind == 3) {
                if (i == 1) {
                    g2_affine o = g2_outside();
                    g2_to_compressed(at, &o);
                } else {
                    g1_affine o = g1_outside();
                    g1_to_compressed(at, &o);
                }
                why = "point is not in the prime-order subgroup";
            } else {
                memset(at, 0, parts[i].size);
                at[0] = 0xc0;
                why = "point at infinity";
            }
            groth16_status s = groth16_proof_read_many(q, N, &n, bad, sizeof bad, &err);
            char want[200];
            snprintf(want, sizeof want, "proof[1]: %s at offset %zu: %s", parts[i].name,
                     192 + parts[i].off, why);
            CHECK(s == (kind == 4 ? GROTH16_ERR_INFINITY : GROTH16_ERR_POINT) && n == 0);
            CHECK(strcmp(err.msg, want) == 0);
            if (strcmp(err.msg, want) != 0)
                fprintf(stderr, "  got  %s\n  want %s\n", err.msg, want);
            /* the single reader: same error, offsets within its 192 bytes */
            s = groth16_proof_read(&q[0], bad + 192, &err);
            snprintf(want, sizeof want, "proof: %s at offset %zu: %s", parts[i].name, parts[i].off,
                     why);
            CHECK(strcmp(err.msg, want) == 0);
        }
    }
    /* garbage: never a crash, (almost surely) never accepted */
    int rejected = 1;
    for (int i = 0; i < 100; i++) {
        check_rand_bytes(bad, 192);
        rejected &= groth16_proof_read(&q[0], bad, &err) != GROTH16_OK;
    }
    CHECK(rejected);
    groth16_vk_free(&vk);
}

int main(void) {
    check_seed("test_groth16_formats");
    test_vk();
    params_fixture x;
    fixture_new(&x);
    test_params_roundtrip(&x);
    test_params_truncated(&x);
    test_params_layout_errors(&x);
    test_params_bad_points(&x);
    test_params_garbage(&x);
    fixture_free(&x);
    test_proof();
    return check_finish();
}
