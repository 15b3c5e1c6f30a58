/* The .pce file and the compact recorder:
 *   - recording -> pce -> file -> open round trip: the matrices expanded from
 *     the in-memory pce and from the opened file equal r1cs_take_matrices of
 *     the same circuit (random toy circuits plus a part with segment marks);
 *     segments, densities (vs R1CS_COUNT's counts) and dictionary kept;
 *   - corrupt files refused with the right message: one byte flipped in the
 *     header and in each section, truncated, wrong magic, version + 1, shape
 *     mismatch against expect, and (checksums valid) bad structure: a column
 *     out of range, a coefficient index past the dictionary, row pointers not
 *     monotone. */
#include <unistd.h>

#include "check.h"
#include "cli/toy_circuits.h"
#include "field/constants.h"
#include "r1cs/pce.h"

typedef struct {
    toy_circuit toy;
} seg_ctx;

/* The toy circuit, then two marked units that use the earlier variables. */
static int seg_circuit(r1cs_cs *cs, void *vctx) {
    seg_ctx *c = vctx;
    if (c->toy.fn(cs, &c->toy))
        return -1;
    r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, o = R1CS_LC_INIT;
    fr k;
    fr_set_u64(&k, 12345);
    for (uint32_t u = 0; u < 2; u++) {
        r1cs_segment(cs, 3, u);
        r1cs_var x = r1cs_alloc(cs, NULL);
        r1cs_var y = r1cs_alloc_input(cs, NULL);
        r1cs_lc_set_var(&a, x);
        r1cs_lc_add_term(&a, r1cs_aux_var(u), &k);
        r1cs_lc_set_var(&b, R1CS_ONE);
        r1cs_lc_set_var(&o, y);
        r1cs_enforce(cs, NULL, &a, &b, &o);
    }
    r1cs_lc_free(&a);
    r1cs_lc_free(&b);
    r1cs_lc_free(&o);
    return 0;
}

static r1cs_cs *record(seg_ctx *c) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    CHECK(cs && r1cs_synthesize(cs, seg_circuit, c) == R1CS_OK);
    return cs;
}

static void same_csr(const r1cs_csr *x, const r1cs_csr *y) {
    CHECK(x->rows == y->rows);
    if (x->rows != y->rows)
        return;
    CHECK_MEM(x->row_ptr, y->row_ptr, (x->rows + 1) * 4);
    size_t n = r1cs_csr_nnz(x);
    CHECK(n == r1cs_csr_nnz(y));
    if (n == r1cs_csr_nnz(y) && n) {
        CHECK_MEM(x->col, y->col, n * 4);
        CHECK_MEM(x->val, y->val, n * sizeof(fr));
    }
}

static void same_matrices(const r1cs_pce *p, const r1cs_matrices *ref) {
    r1cs_matrices m;
    CHECK(pce_to_matrices(p, &m) == 0);
    CHECK(m.num_constraints == ref->num_constraints && m.num_inputs == ref->num_inputs &&
          m.num_aux == ref->num_aux);
    same_csr(&m.a, &ref->a);
    same_csr(&m.b, &ref->b);
    same_csr(&m.c, &ref->c);
    r1cs_matrices_free(&m);
}

static char dir[64];

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*n);
    CHECK(fread(b, 1, *n, f) == *n);
    fclose(f);
    return b;
}

static void spit(const char *path, const unsigned char *b, size_t n) {
    FILE *f = fopen(path, "wb");
    CHECK(fwrite(b, 1, n, f) == n);
    fclose(f);
}

/* Opening bytes b must fail with a message containing want. */
static void refused(const unsigned char *b, size_t n, const pce_expect *ex, const char *want) {
    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s/bad.pce", dir);
    spit(path, b, n);
    r1cs_pce p;
    int rc = pce_open(path, ex, 2, &p, err, sizeof err);
    CHECK(rc == -1);
    CHECK(strstr(err, want) != NULL);
    if (rc != -1 || !strstr(err, want))
        fprintf(stderr, "  wanted \"%s\", got \"%s\"\n", want, err);
    if (rc == 0)
        pce_free(&p);
    unlink(path);
}

static void corruptions(const r1cs_pce *p, const char *path) {
    size_t n;
    unsigned char *orig = slurp(path, &n), *b = malloc(n);
    memcpy(b, orig, n);
    b[0] ^= 1;
    refused(b, n, NULL, "bad magic");
    memcpy(b, orig, n);
    b[8] += 1; /* version, little-endian u32 after the magic */
    refused(b, n, NULL, "version 2");
    memcpy(b, orig, n);
    b[200] ^= 0x10; /* inside the params stem */
    refused(b, n, NULL, "header checksum");
    memcpy(b, orig, n);
    b[4090] ^= 1; /* the header's zero padding is covered too */
    refused(b, n, NULL, "header checksum");
    refused(orig, n - 4096, NULL, "truncated");
    refused(orig, 100, NULL, "truncated");
    uint64_t off = 4096;
    for (unsigned k = 1; k <= PCE_SECTIONS; k++) {
        uint64_t bytes = pce_section_bytes(p, k);
        if (bytes) {
            char want[64];
            snprintf(want, sizeof want, "checksum of section %s", pce_section_name(k));
            memcpy(b, orig, n);
            b[off + bytes / 2] ^= 0x40;
            refused(b, n, NULL, want);
        }
        off = (off + bytes + 4095) / 4096 * 4096;
    }
    CHECK(off == n);
    pce_expect ex = {.rows = p->rows + 1};
    refused(orig, n, &ex, "shape mismatch");
    ex = (pce_expect){.circuit_id = "porep-8m"};
    refused(orig, n, &ex, "shape mismatch");
    ex = (pce_expect){
        .circuit_id = "toy", .rows = p->rows, .num_inputs = p->num_inputs, .num_aux = p->num_aux};
    char err[512];
    r1cs_pce q;
    CHECK(pce_open(path, &ex, 3, &q, err, sizeof err) == 0);
    pce_free(&q);
    free(orig);
    free(b);
}

/* A valid file (checksums and all) with a structural defect. */
static void bad_structure(r1cs_pce *p, const char *path) {
    char err[512] = "";
    r1cs_pce q;
    uint32_t *col = (uint32_t *)p->col[1], old = col[0];
    col[0] = (uint32_t)p->num_aux + 5;
    CHECK(pce_write(p, path, 2, err, sizeof err) == 0);
    CHECK(pce_open(path, NULL, 2, &q, err, sizeof err) == -1);
    CHECK(strstr(err, "COL_B: entry 0 is not an allocated variable") != NULL);
    col[0] = old;
    uint16_t *coef = (uint16_t *)p->coef[2];
    uint16_t oc = coef[1];
    coef[1] = (uint16_t)p->dict_len;
    CHECK(pce_write(p, path, 2, err, sizeof err) == 0);
    CHECK(pce_open(path, NULL, 2, &q, err, sizeof err) == -1);
    CHECK(strstr(err, "COEF_C: entry 1 is past the dictionary") != NULL);
    coef[1] = oc;
    uint32_t *rp = (uint32_t *)p->row_ptr[0], r5 = rp[5];
    rp[5] = rp[6] + 1;
    CHECK(pce_write(p, path, 2, err, sizeof err) == 0);
    CHECK(pce_open(path, NULL, 2, &q, err, sizeof err) == -1);
    CHECK(strstr(err, "ROWPTR_A: entry") != NULL && strstr(err, "not monotone") != NULL);
    rp[5] = r5;
}

static void one(const char *spec) {
    seg_ctx c;
    char why[128], err[512] = "", path[128];
    CHECK(toy_circuit_parse(&c.toy, spec, why, sizeof why) == 0);
    r1cs_cs *cs = record(&c), *cs2 = record(&c);
    r1cs_matrices ref;
    CHECK(r1cs_take_matrices(cs2, &ref) == R1CS_OK);
    r1cs_cs_free(cs2);
    r1cs_cs *cc = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    r1cs_counts k;
    CHECK(cc && r1cs_synthesize(cc, seg_circuit, &c) == R1CS_OK && r1cs_get_counts(cc, &k) == 0);
    const r1cs_segment_mark *seg;
    size_t nseg = r1cs_get_segments(cs, &seg);
    CHECK(nseg == 2);
    r1cs_segment_mark marks[2];
    memcpy(marks, seg, sizeof marks);
    r1cs_pce p;
    CHECK(pce_from_recording(cs, "toy", "stem-x", 17, &p, err, sizeof err) == 0);
    r1cs_cs_free(cs);
    same_matrices(&p, &ref);
    CHECK(p.dict_len >= 3 && p.coef_width == 2 && p.dict_class[0] == PCE_PLUS_ONE &&
          p.dict_class[1] == PCE_MINUS_ONE);
    CHECK(p.density[0] == k.a_aux_density && p.density[1] == k.b_input_density &&
          p.density[2] == k.b_aux_density);
    CHECK(p.n_segments == 2 && memcmp(p.segments, marks, sizeof marks) == 0);
    snprintf(path, sizeof path, "%s/toy.pce", dir);
    CHECK(pce_write(&p, path, 3, err, sizeof err) == 0);
    r1cs_pce f;
    CHECK(pce_open(path, NULL, 2, &f, err, sizeof err) == 0);
    if (err[0])
        fprintf(stderr, "  %s\n", err);
    same_matrices(&f, &ref);
    CHECK(strcmp(f.circuit_id, "toy") == 0 && strcmp(f.params_stem, "stem-x") == 0 &&
          f.build_ms == 17 && f.dict_len == p.dict_len);
    CHECK(f.n_segments == 2 && memcmp(f.segments, marks, sizeof marks) == 0);
    CHECK(memcmp(f.density, p.density, sizeof p.density) == 0);
    CHECK_MEM(f.a_aux, p.a_aux, r1cs_bitmap_words(p.num_aux) * 8);
    CHECK_MEM(f.b_input, p.b_input, r1cs_bitmap_words(p.num_inputs) * 8);
    CHECK_MEM(f.b_aux, p.b_aux, r1cs_bitmap_words(p.num_aux) * 8);
    CHECK_MEM(f.dict, p.dict, p.dict_len * sizeof(fr));
    CHECK(f.n_tasks == p.n_tasks);
    pce_free(&f);
    corruptions(&p, path);
    bad_structure(&p, path);
    unlink(path);
    pce_free(&p);
    r1cs_matrices_free(&ref);
    r1cs_cs_free(cc);
}

/* More distinct coefficients than u16 indexes hold: 70,000 rows, each with
 * its own coefficient. */
static int wide_circuit(r1cs_cs *cs, void *vctx) {
    (void)vctx;
    r1cs_var x = r1cs_alloc(cs, NULL);
    r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, o = R1CS_LC_INIT;
    r1cs_lc_set_var(&b, R1CS_ONE);
    for (uint64_t k = 0; k < 70000; k++) {
        fr c;
        fr_set_u64(&c, k + 3);
        r1cs_lc_clear(&a);
        r1cs_lc_add_term(&a, x, &c);
        r1cs_lc_add_var(&a, R1CS_ONE);
        r1cs_enforce(cs, NULL, &a, &b, &o);
    }
    r1cs_lc_free(&a);
    r1cs_lc_free(&b);
    r1cs_lc_free(&o);
    return 0;
}

static void wide(void) {
    char err[512] = "", path[128];
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL), *cs2 = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    r1cs_matrices ref;
    CHECK(r1cs_synthesize(cs, wide_circuit, NULL) == R1CS_OK);
    CHECK(r1cs_synthesize(cs2, wide_circuit, NULL) == R1CS_OK);
    CHECK(r1cs_take_matrices(cs2, &ref) == R1CS_OK);
    r1cs_pce p, f;
    CHECK(pce_from_recording(cs, "wide", NULL, 0, &p, err, sizeof err) == 0);
    CHECK(p.dict_len == 70002 && p.coef_width == 4);
    same_matrices(&p, &ref);
    snprintf(path, sizeof path, "%s/wide.pce", dir);
    CHECK(pce_write(&p, path, 2, err, sizeof err) == 0);
    CHECK(pce_open(path, NULL, 2, &f, err, sizeof err) == 0);
    CHECK(f.coef_width == 4 && f.dict_len == 70002);
    same_matrices(&f, &ref);
    pce_free(&f);
    unlink(path);
    pce_free(&p);
    r1cs_matrices_free(&ref);
    r1cs_cs_free(cs);
    r1cs_cs_free(cs2);
}

int main(void) {
    check_seed("test_pce_file");
    snprintf(dir, sizeof dir, "/tmp/test_pce_XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    one("random:200:1");
    one("random:5000:7");
    char spec[64];
    snprintf(spec, sizeof spec, "random:3000:%llu", (unsigned long long)check_rand64());
    one(spec);
    wide();
    /* missing file and an empty one: a clear error */
    char err[512], path[128];
    r1cs_pce p;
    snprintf(path, sizeof path, "%s/none.pce", dir);
    CHECK(pce_open(path, NULL, 1, &p, err, sizeof err) == -1 && strstr(err, "none.pce"));
    spit(path, (const unsigned char *)"", 0);
    CHECK(pce_open(path, NULL, 1, &p, err, sizeof err) == -1 && strstr(err, "not a PCE file"));
    unlink(path);
    rmdir(dir);
    return check_finish();
}
