/* filecoin/circuit_counts: every circuit a registered proof leads the engine
 * to (the providers' circuit ids and shapes) has a row, and each row equals
 * the blank circuit counted now.  No argument: the circuits under BIG rows;
 * "big": the production-size ones (label long), "big ID...": those rows only
 * (CI's slow tier counts the 32 GiB WindowPoSt and SnapDeals circuits; the
 * 32 GiB PoRep row is counted by test_synth_valid 32g-circuit).  The rows
 * upstream publishes are checked against the published numbers always. */
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
static char **only; /* "big ID...": the rows to count */
static int n_only;

static int wanted(const char *id) {
    for (int i = 0; i < n_only; i++)
        if (strcmp(only[i], id) == 0)
            return 1;
    return n_only == 0;
}

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
    if ((row->rows >= BIG) != big || !wanted(id))
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
        fprintf(stderr, "usage: test_circuit_counts [big [ID...]]\n");
        return 2;
    }
    only = argv + 2;
    n_only = argc > 2 ? argc - 2 : 0;
    for (int i = 0; i < n_only; i++)
        if (!fc_circuit_counts_find(only[i]) || fc_circuit_counts_find(only[i])->rows < BIG) {
            fprintf(stderr, "test_circuit_counts: %s is not a production-size row\n", only[i]);
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
    /* the published constraint counts (upstream's tests; facts 3.7), plus one
     * input row per input as the table counts them */
    static const struct {
        const char *id;
        unsigned long long constraints;
    } published[] = {{"wpost-32g", 125279217}, {"wpost-64g", 129887900}, {"snap-32g", 81049499}};
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        r = fc_circuit_counts_find(published[i].id);
        CHECK(r && r->rows == published[i].constraints + r->inputs);
    }
    CHECK(fc_circuit_counts_find("porep-1k") == NULL && fc_circuit_counts_find(NULL) == NULL);
    printf("%zu rows, %zu counted (%s)\n", rows, n_counted, big ? "big" : "small");
    CHECK(n_counted > 0);
    return check_finish();
}
