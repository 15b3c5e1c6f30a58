/* filecoin/circuit_counts: every circuit a registered proof leads the engine
 * to (the providers' circuit ids and shapes) has a row, and each row equals
 * the blank circuit counted now.  No argument: the circuits under BIG rows;
 * "big": the production-size ones (label slow). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "filecoin/circuit_counts.h"
#include "filecoin/porep/porep_circuit.h"
#include "filecoin/post/post_circuit.h"
#include "filecoin/proof_types.h"
#include "filecoin/snap/snap_circuit.h"
#include "r1cs/cs.h"

enum { BIG = 20000000 };

typedef struct {
    int kind; /* 0 porep, 1 post, 2 snap */
    porep_shape ps;
    post_shape qs;
    snap_shape ss;
} blank;

static int synth(r1cs_cs *cs, void *arg) {
    const blank *b = arg;
    if (b->kind == 0)
        return porep_circuit_synthesize(cs, &b->ps, NULL);
    return b->kind == 1 ? post_circuit_synthesize(cs, &b->qs, NULL)
                        : snap_circuit_synthesize(cs, &b->ss, NULL);
}

static char done[64][32];
static size_t n_done, n_counted;

static void check_one(const char *id, const blank *b, int big) {
    const fc_circuit_counts *row = fc_circuit_counts_find(id);
    if (!row) {
        fprintf(stderr, "no row for %s\n", id);
        CHECK(row != NULL);
        return;
    }
    for (size_t i = 0; i < n_done; i++)
        if (strcmp(done[i], id) == 0)
            return;
    snprintf(done[n_done++], sizeof done[0], "%s", id);
    if ((row->rows >= BIG) != big)
        return;
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    CHECK(cs != NULL);
    CHECK(r1cs_synthesize(cs, synth, (void *)b) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    r1cs_cs_free(cs);
    printf("  %-13s rows %llu inputs %zu aux %zu nnz %llu/%llu/%llu\n", id,
           (unsigned long long)k.constraints_total, k.inputs, k.aux, (unsigned long long)k.nnz_a,
           (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c);
    int same = k.constraints_total == row->rows && k.inputs == row->inputs && k.aux == row->aux &&
               k.nnz_a == row->nnz[0] && k.nnz_b == row->nnz[1] && k.nnz_c == row->nnz[2];
    if (!same)
        fprintf(stderr, "%s: the table differs (tools/gen_circuit_counts.sh)\n", id);
    CHECK(same);
    n_counted++;
}

int main(int argc, char **argv) {
    const int big = argc > 1 && strcmp(argv[1], "big") == 0;
    if (argc > 1 && !big) {
        fprintf(stderr, "usage: test_circuit_counts [big]\n");
        return 2;
    }
    char id[32];
    for (unsigned i = 0; fc_seal_proof_by_id(i); i++) {
        const fc_seal_proof *p = fc_seal_proof_by_id(i);
        blank b = {.kind = 0};
        porep_shape_for_sector(&b.ps, p->shape, p->challenges_per_partition);
        snprintf(id, sizeof id, "porep-%s", p->shape->short_name);
        check_one(id, &b, big);
    }
    for (unsigned i = 0; fc_post_proof_by_id(i); i++) {
        const fc_post_proof *p = fc_post_proof_by_id(i);
        blank b = {.kind = 1};
        post_shape_for_proof(&b.qs, p);
        snprintf(id, sizeof id, "%s-%s", p->kind == FC_POST_WINNING ? "winning" : "wpost",
                 p->shape->short_name);
        check_one(id, &b, big);
    }
    for (unsigned i = 0; fc_update_proof_by_id(i); i++) {
        const fc_update_proof *p = fc_update_proof_by_id(i);
        blank b = {.kind = 2};
        CHECK(snap_shape_for_id(&b.ss, i) == 0);
        snprintf(id, sizeof id, "snap-%s", p->shape->short_name);
        check_one(id, &b, big);
    }
    /* every row is some registered proof's circuit */
    size_t rows = 0;
    while (fc_circuit_counts_at(rows))
        rows++;
    CHECK(rows == n_done);
    /* the 32 GiB PoRep row is curio's measured production R1CS (facts 3.7) */
    const fc_circuit_counts *r = fc_circuit_counts_find("porep-32g");
    CHECK(r && r->rows == 130278869 && r->inputs == 328 && r->aux == 130169893 &&
          r->nnz[0] == 309405051 && r->nnz[1] == 130327340 && r->nnz[2] == 282656500);
    CHECK(fc_circuit_counts_find("porep-1k") == NULL && fc_circuit_counts_find(NULL) == NULL);
    printf("%zu rows, %zu counted (%s)\n", rows, n_counted, big ? "big" : "small");
    CHECK(n_counted > 0);
    return check_finish();
}
