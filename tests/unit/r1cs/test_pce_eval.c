/* The PCE's SpMV against the reference r1cs_csr_mul, on random compact
 * matrices built directly: coefficients +-1, +-2^k and general; aux values
 * 0, 1 and general; input columns; empty rows; one row of more than 65,536
 * terms; u16 and u32 coefficient indexes; T = 1, 2, 3, 7 give the same bytes. */
#include "check.h"
#include "field/constants.h"
#include "field/fr.h"
#include "r1cs/pce.h"

static fr rand_fr(void) {
    uint8_t b[32];
    check_rand_bytes(b, 32);
    fr r;
    fr_from_bytes_le_reduce(&r, b);
    return r;
}

static fr pow2(unsigned k, int neg) {
    uint64_t raw[4] = {0};
    raw[k / 64] = (uint64_t)1 << (k % 64);
    fr r;
    fr_from_raw(&r, raw);
    if (neg)
        fr_neg(&r, &r);
    return r;
}

typedef struct {
    r1cs_pce p;
    uint32_t *rp[3], *col[3], *coef[3];
    fr *dict;
    uint8_t *cls;
} rand_pce;

/* rows rows, one of them long when long_row; width 2 or 4. */
static void make(rand_pce *r, size_t rows, size_t nin, size_t naux, int long_row, uint32_t width) {
    memset(r, 0, sizeof *r);
    r1cs_pce *p = &r->p;
    p->rows = rows;
    p->circuit_rows = rows;
    p->num_inputs = nin;
    p->num_aux = naux;
    p->dict_len = 64;
    p->coef_width = width;
    r->dict = malloc(p->dict_len * sizeof(fr));
    r->dict[0] = FR_ONE;
    fr_neg(&r->dict[1], &FR_ONE);
    for (uint32_t i = 2; i < p->dict_len; i++)
        r->dict[i] = i < 34 ? pow2(1 + (unsigned)(check_rand64() % 250), i & 1) : rand_fr();
    r->cls = malloc(2 * p->dict_len);
    pce_classify(r->dict, p->dict_len, r->cls, r->cls + p->dict_len);
    p->dict = r->dict;
    p->dict_class = r->cls;
    p->dict_k = r->cls + p->dict_len;
    const size_t long_at = rows / 2;
    for (int m = 0; m < 3; m++) {
        size_t cap = rows * 8 + (long_row ? 70000 : 0);
        r->rp[m] = malloc((rows + 1) * 4);
        r->col[m] = malloc(cap * 4 + 4);
        r->coef[m] = malloc(cap * 4 + 4);
        uint16_t *c16 = (uint16_t *)r->coef[m];
        size_t n = 0;
        r->rp[m][0] = 0;
        for (size_t j = 0; j < rows; j++) {
            size_t len = check_rand64() % 4 == 0 ? 0 : check_rand64() % 8;
            if (long_row && j == long_at && m == 0)
                len = 70000;
            for (size_t k = 0; k < len; k++) {
                uint64_t x = check_rand64();
                uint32_t v = x % 10 == 0 ? (uint32_t)((x >> 8) % nin) | PCE_INPUT_TAG
                                         : (uint32_t)((x >> 8) % naux);
                uint64_t y = check_rand64() % 10;
                uint32_t d = y < 4 ? 0 : y < 7 ? 1 : (uint32_t)(2 + check_rand64() % 62);
                r->col[m][n] = v;
                if (width == 2)
                    c16[n] = (uint16_t)d;
                else
                    r->coef[m][n] = d;
                n++;
            }
            r->rp[m][j + 1] = (uint32_t)n;
        }
        p->nnz[m] = n;
        p->row_ptr[m] = r->rp[m];
        p->col[m] = r->col[m];
        p->coef[m] = r->coef[m];
    }
    CHECK(pce_make_tasks(p) == 0);
}

static void rand_free(rand_pce *r) {
    for (int m = 0; m < 3; m++) {
        free(r->rp[m]);
        free(r->col[m]);
        free(r->coef[m]);
    }
    free(r->dict);
    free(r->cls);
    free(r->p.tasks);
}

static void run(size_t rows, size_t nin, size_t naux, int long_row, uint32_t width,
                int bool_share) {
    rand_pce r;
    make(&r, rows, nin, naux, long_row, width);
    const r1cs_pce *p = &r.p;
    fr *input = malloc(nin * sizeof(fr)), *aux = malloc(naux * sizeof(fr));
    input[0] = FR_ONE;
    for (size_t i = 1; i < nin; i++)
        input[i] = check_rand64() % 3 == 0 ? FR_ONE : rand_fr();
    for (size_t i = 0; i < naux; i++) {
        uint64_t x = check_rand64() % 100;
        if ((int)x < bool_share)
            x % 2 ? (void)(aux[i] = FR_ONE) : fr_set_zero(&aux[i]);
        else
            aux[i] = rand_fr();
    }
    r1cs_matrices mx;
    CHECK(pce_to_matrices(p, &mx) == 0);
    fr *ref[3], *got[3];
    const r1cs_csr *cm[3] = {&mx.a, &mx.b, &mx.c};
    for (int m = 0; m < 3; m++) {
        ref[m] = malloc(rows * sizeof(fr) + 1);
        got[m] = malloc(rows * sizeof(fr) + 1);
        r1cs_csr_mul(ref[m], cm[m], 0, rows, input, nin, aux);
    }
    static const unsigned ts[] = {1, 2, 3, 7};
    for (int t = 0; t < 4; t++) {
        for (int m = 0; m < 3; m++)
            memset(got[m], 0xa5, rows * sizeof(fr));
        CHECK(pce_eval(p, input, aux, got[0], got[1], got[2], ts[t]) == 0);
        for (int m = 0; m < 3; m++)
            CHECK_MEM(got[m], ref[m], rows * sizeof(fr));
    }
    for (int m = 0; m < 3; m++) {
        free(ref[m]);
        free(got[m]);
    }
    r1cs_matrices_free(&mx);
    free(input);
    free(aux);
    rand_free(&r);
}

int main(void) {
    check_seed("test_pce_eval");
    run(1, 1, 1, 0, 2, 50);             /* the smallest */
    run(5000, 7, 3000, 0, 2, 0);        /* no boolean values */
    run(5000, 7, 3000, 0, 2, 100);      /* only boolean values */
    run(20000, 40, 20000, 1, 2, 70);    /* a row of 70,000 terms */
    run(20000, 40, 20000, 0, 4, 70);    /* u32 indexes */
    run(300000, 300, 200000, 1, 2, 80); /* several tasks of ~1 M terms */
    return check_finish();
}
