/* The StackedDrg PoRep partition circuit.
 *
 *  - blank circuits in the counting mode: upstream's four stacked_circuit.rs
 *    shapes (22 inputs; 1,206,212 / 1,199,620 / 1,296,576 / 1,346,982) and
 *    the production 2 KiB and 8 MiB partitions (40 inputs; 2,687,921 /
 *    3,844,929; facts 3.7); the proving mode with a random witness gives the
 *    same rows, variables, non-zeros and densities, and so does counting
 *    with the Poseidon replay off (CUZK_POSEIDON_REPLAY=0);
 *  - a random PoRep instance built natively (random data, a random graph
 *    whose DRG parents precede the node, labels by the native create_label,
 *    trees D / C / R by merkle_tree, comm_r = Poseidon2(comm_c, comm_r_last))
 *    satisfies the circuit in the checking mode, and its public inputs are
 *    porep_public_inputs of the commitments, challenges and parents;
 *  - a flipped parent row, tree-D / tree-R / tree-C path element, data leaf,
 *    challenge or comm_r is reported unsatisfied in the part that checks it
 *    ("challenge_1/drg_parent_3_inclusion/...");
 *  - porep_witness_check (native) accepts the instance, returns the parents
 *    its column paths open and rejects every corruption with a message;
 *  - bad shapes and indices are refused.
 *
 * With an argument (porep-512m, sat-11) it runs one large case instead (ctest
 * label "slow"); the 32/64 GiB counts are test_circuit_counts big's. */
#include <time.h>

#include "check.h"
#include "field_rand.h"
#include "filecoin/porep/label_circuit.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/porep/porep_circuit.h"
#include "gadget/poseidon.h"

/* ---- blank counts ---------------------------------------------------------- */

typedef struct {
    const char *name;
    porep_shape s;
    size_t inputs, constraints;
} count_case;

static const count_case counts[] = {
    {"stacked base_2", {8, 2, 1, 2, 0, 0}, 22, 1206212},
    {"stacked base_8", {8, 2, 1, 8, 0, 0}, 22, 1199620},
    {"stacked sub_8_4", {32, 2, 1, 8, 4, 0}, 22, 1296576},
    {"stacked top_8_4_2", {64, 2, 1, 8, 4, 2}, 22, 1346982},
    {"porep-2k", {64, 2, 2, 8, 0, 0}, 40, 2687921},
    {"porep-8m", {1 << 18, 2, 2, 8, 0, 0}, 40, 3844929},
};

static const count_case slow_counts[] = {
    {"porep-512m", {1 << 24, 2, 2, 8, 0, 0}, 40, 4423433},
};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void check_count(const count_case *c, r1cs_counts *out) {
    double t0 = now();
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
    CHECK(porep_circuit_synthesize(cs, &c->s, NULL) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    double dt = now() - t0;
    CHECK(k.constraints == c->constraints);
    CHECK(k.inputs == c->inputs && k.inputs == 1 + porep_num_public_inputs(&c->s));
    CHECK(k.constraints_total == k.constraints + k.inputs);
    printf("  %-18s %11zu constraints (+%zu input rows), %zu inputs, %zu aux, nnz %llu/%llu/%llu,"
           " density a %zu b %zu/%zu; %.2f s, %.2f M constraints/s, %.1f MiB peak\n",
           c->name, k.constraints, k.inputs, k.inputs, k.aux, (unsigned long long)k.nnz_a,
           (unsigned long long)k.nnz_b, (unsigned long long)k.nnz_c, k.a_aux_density,
           k.b_input_density, k.b_aux_density, dt, 1e-6 * (double)k.constraints_total / dt,
           (double)r1cs_peak_bytes(cs) / 1048576.0);
    if (out)
        *out = k;
    r1cs_cs_free(cs);
}

/* ---- a native instance ------------------------------------------------------ */

typedef struct {
    porep_shape s;
    por_shape rc, d;
    fr replica_id, comm_d, comm_r, comm_c, comm_r_last;
    uint8_t *data;                 /* nodes x 32 */
    uint32_t *drg, *exp;           /* nodes x 6, nodes x 8 */
    uint8_t *labels;               /* L x nodes x 32, labels[(l-1)*nodes + v] */
    merkle_tree td, tc, tr;        /* trees D, C (column hashes), R (replica) */
    uint64_t *chal;                /* C */
    uint32_t *chal_drg, *chal_exp; /* C x 6, C x 8 */
    porep_witness_sizes z;
    uint64_t *w_challenge;
    fr *data_leaf, *d_sib, *rows, *c_sib, *r_sib;
    uint32_t *d_index, *c_index, *r_index;
    porep_witness w;
} instance;

static void node_fr(fr *out, const uint8_t *b) { CHECK(fr_from_bytes_le(out, b)); }

/* Fills path arrays from a native proof of leaf i. */
static void put_path(const merkle_tree *t, uint64_t i, uint32_t *index, fr *sib) {
    merkle_proof p;
    CHECK(merkle_proof_gen(&p, t, i) == MERKLE_OK);
    fr leaf, root;
    CHECK(merkle_proof_witness(&p, index, sib, &leaf, &root) == MERKLE_OK);
    merkle_proof_free(&p);
}

static void build(instance *in, const porep_shape *s) {
    memset(in, 0, sizeof *in);
    in->s = *s;
    CHECK(porep_shape_check(s) == 0);
    porep_shape_tree_rc(s, &in->rc);
    porep_shape_tree_d(s, &in->d);
    const size_t N = s->nodes, L = s->layers, C = s->challenges;
    in->replica_id = rand_fr();
    uint8_t id[32];
    fr_to_bytes_le(id, &in->replica_id);
    in->data = malloc(N * 32);
    in->drg = malloc(N * POREP_DRG_PARENTS * sizeof(uint32_t));
    in->exp = malloc(N * POREP_EXP_PARENTS * sizeof(uint32_t));
    in->labels = malloc(L * N * 32);
    for (size_t v = 0; v < N; v++) {
        fr x = rand_fr();
        fr_to_bytes_le(in->data + 32 * v, &x);
        for (int i = 0; i < POREP_DRG_PARENTS; i++) /* DRG parents precede the node */
            in->drg[v * POREP_DRG_PARENTS + i] = v ? (uint32_t)(check_rand64() % v) : 0;
        for (int i = 0; i < POREP_EXP_PARENTS; i++)
            in->exp[v * POREP_EXP_PARENTS + i] = (uint32_t)(check_rand64() % N);
    }
    /* labels, layer by layer, as the vanilla replication computes them */
    uint8_t parents[LABEL_PARENTS][32], base[14][32];
    for (size_t l = 1; l <= L; l++) {
        uint8_t *cur = in->labels + (l - 1) * N * 32, *prev = cur - N * 32;
        for (size_t v = 0; v < N; v++) {
            if (v == 0) {
                label_native(cur, id, (uint32_t)l, 0, NULL);
                continue;
            }
            size_t np = 0;
            for (int i = 0; i < POREP_DRG_PARENTS; i++)
                memcpy(base[np++], cur + 32 * in->drg[v * POREP_DRG_PARENTS + i], 32);
            if (l > 1)
                for (int i = 0; i < POREP_EXP_PARENTS; i++)
                    memcpy(base[np++], prev + 32 * in->exp[v * POREP_EXP_PARENTS + i], 32);
            for (size_t p = 0; p < LABEL_PARENTS; p++)
                memcpy(parents[p], base[p % np], 32);
            label_native(cur + 32 * v, id, (uint32_t)l, v, &parents[0][0]);
        }
    }
    /* column hashes and the replica */
    uint8_t *colh = malloc(N * 32), *rep = malloc(N * 32);
    fr col[POREP_MAX_LAYERS], h, key, d;
    for (size_t v = 0; v < N; v++) {
        for (size_t l = 0; l < L; l++)
            node_fr(&col[l], in->labels + (l * N + v) * 32);
        CHECK(poseidon_hash(&h, col, (unsigned)L) == 0);
        fr_to_bytes_le(colh + 32 * v, &h);
        node_fr(&key, in->labels + ((L - 1) * N + v) * 32);
        node_fr(&d, in->data + 32 * v);
        fr_add(&h, &key, &d);
        fr_to_bytes_le(rep + 32 * v, &h);
    }
    CHECK(merkle_tree_build(&in->td, TREE_HASH_SHA256, 2, 0, 0, in->data, N) == MERKLE_OK);
    CHECK(merkle_tree_build(&in->tc, TREE_HASH_POSEIDON, s->arity_base, s->arity_sub, s->arity_top,
                            colh, N) == MERKLE_OK);
    CHECK(merkle_tree_build(&in->tr, TREE_HASH_POSEIDON, s->arity_base, s->arity_sub, s->arity_top,
                            rep, N) == MERKLE_OK);
    free(colh);
    free(rep);
    node_fr(&in->comm_d, merkle_tree_root(&in->td));
    node_fr(&in->comm_c, merkle_tree_root(&in->tc));
    node_fr(&in->comm_r_last, merkle_tree_root(&in->tr));
    fr pre[2] = {in->comm_c, in->comm_r_last};
    CHECK(poseidon_hash(&in->comm_r, pre, 2) == 0);

    /* challenges 1 .. N-1 and the witness */
    porep_witness_sizes_get(s, &in->z);
    const size_t lr = por_shape_levels(&in->rc), sr = por_shape_siblings(&in->rc),
                 ld = por_shape_levels(&in->d);
    in->chal = malloc(C * sizeof(uint64_t));
    in->chal_drg = malloc(C * POREP_DRG_PARENTS * sizeof(uint32_t));
    in->chal_exp = malloc(C * POREP_EXP_PARENTS * sizeof(uint32_t));
    in->data_leaf = malloc(in->z.data_leaf * sizeof(fr));
    in->d_index = malloc(in->z.d_index * sizeof(uint32_t));
    in->d_sib = malloc(in->z.d_sib * sizeof(fr));
    in->rows = malloc(in->z.rows * sizeof(fr));
    in->c_index = malloc(in->z.c_index * sizeof(uint32_t));
    in->c_sib = malloc(in->z.c_sib * sizeof(fr));
    in->r_index = malloc(in->z.r_index * sizeof(uint32_t));
    in->r_sib = malloc(in->z.r_sib * sizeof(fr));
    for (size_t c = 0; c < C; c++) {
        uint64_t v = 1 + check_rand64() % (N - 1);
        in->chal[c] = v;
        node_fr(&in->data_leaf[c], in->data + 32 * v);
        put_path(&in->td, v, in->d_index + c * ld, in->d_sib + c * ld);
        put_path(&in->tr, v, in->r_index + c * lr, in->r_sib + c * sr);
        for (unsigned k = 0; k < POREP_COLUMNS; k++) {
            uint64_t node = k == 0                   ? v
                            : k <= POREP_DRG_PARENTS ? in->drg[v * POREP_DRG_PARENTS + k - 1]
                                                     : in->exp[v * POREP_EXP_PARENTS + k - 7];
            if (k >= 1 && k <= POREP_DRG_PARENTS)
                in->chal_drg[c * POREP_DRG_PARENTS + k - 1] = (uint32_t)node;
            if (k > POREP_DRG_PARENTS)
                in->chal_exp[c * POREP_EXP_PARENTS + k - 7] = (uint32_t)node;
            const size_t ck = c * POREP_COLUMNS + k;
            for (size_t l = 0; l < L; l++)
                node_fr(&in->rows[ck * L + l], in->labels + (l * N + node) * 32);
            put_path(&in->tc, node, in->c_index + ck * lr, in->c_sib + ck * sr);
        }
    }
    in->w = (porep_witness){in->replica_id, in->comm_d,    in->comm_r,  in->comm_c, in->comm_r_last,
                            in->chal,       in->data_leaf, in->d_index, in->d_sib,  in->rows,
                            in->c_index,    in->c_sib,     in->r_index, in->r_sib};
}

static void destroy(instance *in) {
    merkle_tree_free(&in->td);
    merkle_tree_free(&in->tc);
    merkle_tree_free(&in->tr);
    void *p[] = {in->data,     in->drg,      in->exp,       in->labels,  in->chal,
                 in->chal_drg, in->chal_exp, in->data_leaf, in->d_index, in->d_sib,
                 in->rows,     in->c_index,  in->c_sib,     in->r_index, in->r_sib};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
}

/* Runs the checking mode; returns 1 if satisfied, and copies the first
 * unsatisfied path into where. */
static int check_instance(const instance *in, const porep_witness *w, char *where, size_t cap,
                          r1cs_cs **keep) {
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    CHECK(porep_circuit_synthesize(cs, &in->s, w) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK && k.checked);
    if (where)
        snprintf(where, cap, "%s", k.unsatisfied_path ? k.unsatisfied_path : "");
    int ok = k.satisfied;
    if (keep)
        *keep = cs;
    else
        r1cs_cs_free(cs);
    return ok;
}

enum {
    BAD_DRG_ROW,
    BAD_EXP_ROW,
    BAD_D_SIB,
    BAD_R_SIB,
    BAD_CX_SIB,
    BAD_DATA_LEAF,
    BAD_CHALLENGE,
    BAD_COMM_R,
    BAD_CASES
};

/* Corrupts one value of a copy of the witness; returns the expected prefix
 * of the unsatisfied namespace. */
static const char *corrupt(instance *in, porep_witness *w, int what, size_t c, char *buf,
                           size_t cap, void **owned) {
    const size_t L = in->s.layers, lr = por_shape_levels(&in->rc), sr = por_shape_siblings(&in->rc);
    (void)lr;
    fr one;
    fr_set_one(&one);
    *owned = NULL;
    switch (what) {
    case BAD_DRG_ROW:
    case BAD_EXP_ROW: {
        fr *rows = malloc(in->z.rows * sizeof(fr));
        memcpy(rows, in->rows, in->z.rows * sizeof(fr));
        unsigned i = (unsigned)(check_rand64() % (what == BAD_DRG_ROW ? 6 : 8));
        unsigned k = what == BAD_DRG_ROW ? 1 + i : 7 + i;
        fr_add(&rows[(c * POREP_COLUMNS + k) * L + check_rand64() % L],
               &rows[(c * POREP_COLUMNS + k) * L], &one);
        w->rows = rows;
        *owned = rows;
        snprintf(buf, cap, "challenge_%zu/%s_parent_%u_", c, what == BAD_DRG_ROW ? "drg" : "exp",
                 i);
        return buf;
    }
    case BAD_D_SIB:
    case BAD_R_SIB:
    case BAD_CX_SIB: {
        size_t n = what == BAD_D_SIB ? in->z.d_sib : what == BAD_R_SIB ? in->z.r_sib : in->z.c_sib;
        const fr *src = what == BAD_D_SIB ? in->d_sib : what == BAD_R_SIB ? in->r_sib : in->c_sib;
        fr *s = malloc(n * sizeof(fr));
        memcpy(s, src, n * sizeof(fr));
        size_t per = what == BAD_D_SIB ? por_shape_levels(&in->d) : sr;
        size_t off = what == BAD_CX_SIB ? c * POREP_COLUMNS * sr : c * per;
        fr_add(&s[off + check_rand64() % per], &s[off], &one);
        *owned = s;
        if (what == BAD_D_SIB)
            w->d_sib = s;
        else if (what == BAD_R_SIB)
            w->r_sib = s;
        else
            w->c_sib = s;
        snprintf(buf, cap, "challenge_%zu/%s", c,
                 what == BAD_D_SIB   ? "comm_d_inclusion"
                 : what == BAD_R_SIB ? "comm_r_last_data_inclusion"
                                     : "c_x_inclusion");
        return buf;
    }
    case BAD_DATA_LEAF: {
        fr *d = malloc(in->z.data_leaf * sizeof(fr));
        memcpy(d, in->data_leaf, in->z.data_leaf * sizeof(fr));
        fr_add(&d[c], &d[c], &one);
        w->data_leaf = d;
        *owned = d;
        snprintf(buf, cap, "challenge_%zu/comm_d_inclusion", c);
        return buf;
    }
    case BAD_CHALLENGE: {
        /* the labels change: the encoded node is no longer in tree R */
        uint64_t *ch = malloc(in->z.challenge * sizeof(uint64_t));
        memcpy(ch, in->chal, in->z.challenge * sizeof(uint64_t));
        ch[c] ^= 1;
        w->challenge = ch;
        *owned = ch;
        snprintf(buf, cap, "challenge_%zu/comm_r_last_data_inclusion", c);
        return buf;
    }
    default:
        fr_add(&w->comm_r, &w->comm_r, &one);
        return "enforce comm_r = H(comm_c || comm_r_last)";
    }
}

static void test_instance(const porep_shape *s, int all_corruptions) {
    instance in;
    double t0 = now();
    build(&in, s);
    double t1 = now();
    r1cs_cs *cs;
    char where[512];
    /* the native check agrees and finds the parents */
    uint64_t *cols = malloc(s->challenges * POREP_COLUMNS * sizeof(uint64_t));
    CHECK(porep_witness_check(s, &in.w, cols, where, sizeof where) == 0);
    int parents_ok = 1;
    for (size_t c = 0; c < s->challenges; c++)
        for (unsigned k = 0; k < POREP_COLUMNS; k++)
            parents_ok &= cols[c * POREP_COLUMNS + k] ==
                          (k == 0                   ? in.chal[c]
                           : k <= POREP_DRG_PARENTS ? in.chal_drg[c * POREP_DRG_PARENTS + k - 1]
                                                    : in.chal_exp[c * POREP_EXP_PARENTS + k - 7]);
    CHECK(parents_ok);
    free(cols);
    CHECK(check_instance(&in, &in.w, where, sizeof where, &cs));
    double t2 = now();
    /* the public inputs synthesis made are the native ones */
    size_t n = porep_num_public_inputs(s);
    fr *want = malloc(n * sizeof(fr)), got;
    CHECK(porep_public_inputs(want, s, &in.replica_id, &in.comm_d, &in.comm_r, in.chal, in.chal_drg,
                              in.chal_exp, NULL, 0) == 0);
    CHECK(r1cs_num_inputs(cs) == n + 1);
    int all_equal = 1;
    for (size_t i = 0; i < n; i++)
        all_equal &=
            r1cs_get_value(&got, cs, r1cs_input_var((uint32_t)(i + 1))) && fr_equal(&got, &want[i]);
    CHECK(all_equal);
    r1cs_cs_free(cs);
    printf("  instance %llu nodes %u-%u-%u L=%u C=%u: built in %.2f s, satisfied (%.2f s), %zu "
           "public inputs as porep_public_inputs\n",
           (unsigned long long)s->nodes, s->arity_base, s->arity_sub, s->arity_top, s->layers,
           s->challenges, t1 - t0, t2 - t1, n);

    for (int what = 0; what < BAD_CASES; what++) {
        if (!all_corruptions && what != BAD_CHALLENGE)
            continue;
        size_t c = check_rand64() % s->challenges;
        porep_witness w = in.w;
        char buf[128];
        void *owned;
        const char *expect = corrupt(&in, &w, what, c, buf, sizeof buf, &owned);
        char native[256] = "";
        CHECK(porep_witness_check(s, &w, NULL, native, sizeof native) == -1);
        CHECK(strlen(native) > 10);
        int sat = check_instance(&in, &w, where, sizeof where, NULL);
        CHECK(!sat);
        CHECK(strncmp(where, expect, strlen(expect)) == 0);
        if (sat || strncmp(where, expect, strlen(expect)) != 0)
            fprintf(stderr, "  corruption %d: expected \"%s...\", got \"%s\"\n", what, expect,
                    where);
        else
            printf("  corruption %d: unsatisfied at %s; native: %s\n", what, where, native);
        free(owned);
    }
    free(want);
    destroy(&in);
}

/* The proving mode with a random (unsatisfying) witness has the blank
 * circuit's shape. */
static void test_prove_shape(const porep_shape *s, const r1cs_counts *blank) {
    instance in;
    build(&in, s);
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, 0, NULL);
    CHECK(porep_circuit_synthesize(cs, s, &in.w) == 0);
    CHECK(r1cs_finish(cs) == R1CS_OK);
    r1cs_counts k;
    CHECK(r1cs_get_counts(cs, &k) == R1CS_OK);
    CHECK(k.constraints == blank->constraints && k.inputs == blank->inputs && k.aux == blank->aux);
    CHECK(k.nnz_a == blank->nnz_a && k.nnz_b == blank->nnz_b && k.nnz_c == blank->nnz_c);
    CHECK(k.a_aux_density == blank->a_aux_density && k.b_input_density == blank->b_input_density &&
          k.b_aux_density == blank->b_aux_density);
    r1cs_partition p;
    CHECK(r1cs_take_partition(cs, &p) == R1CS_OK);
    CHECK(r1cs_bitmap_popcount(p.a_aux_density, p.num_aux) == blank->a_aux_density);
    CHECK(r1cs_bitmap_popcount(p.b_aux_density, p.num_aux) == blank->b_aux_density);
    CHECK(fr_equal(&p.input[1], &in.replica_id) && fr_equal(&p.input[3], &in.comm_r));
    r1cs_partition_free(&p);
    r1cs_cs_free(cs);
    destroy(&in);
}

static void test_bad(void) {
    porep_shape bad[] = {
        {63, 2, 1, 8, 0, 0}, {64, 3, 1, 8, 0, 0}, {64, 2, 0, 8, 0, 0}, {64, 2, 1, 8, 0, 2},
        {32, 2, 1, 8, 0, 0}, {64, 2, 1, 3, 0, 0}, {16, 2, 1, 8, 4, 2}, {0, 2, 1, 8, 0, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(porep_shape_check(&bad[i]) != 0);
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
        CHECK(porep_circuit_synthesize(cs, &bad[i], NULL) == -1);
        CHECK(r1cs_num_aux(cs) == 0 && r1cs_num_constraints(cs) == 0);
        r1cs_cs_free(cs);
    }
    /* an incomplete witness is refused */
    porep_shape s = {64, 2, 2, 8, 0, 0};
    porep_witness w;
    memset(&w, 0, sizeof w);
    r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
    CHECK(porep_circuit_synthesize(cs, &s, &w) == -1);
    r1cs_cs_free(cs);
    /* out-of-range indices */
    fr out[40], z;
    fr_set_zero(&z);
    uint64_t ch[2] = {5, 64};
    uint32_t drg[12] = {0}, exp[16] = {0};
    char err[128] = "";
    CHECK(porep_public_inputs(out, &s, &z, &z, &z, ch, drg, exp, err, sizeof err) == -1);
    CHECK(strstr(err, "challenge 1") != NULL);
    ch[1] = 7;
    exp[15] = 99;
    CHECK(porep_public_inputs(out, &s, &z, &z, &z, ch, drg, exp, err, sizeof err) == -1);
    CHECK(strstr(err, "exp parent 7") != NULL);
    exp[15] = 63;
    CHECK(porep_public_inputs(out, &s, &z, &z, &z, ch, drg, exp, err, sizeof err) == 0);
    fr e;
    fr_set_u64(&e, 63);
    CHECK(fr_equal(&out[3 + 18 + 14], &e));
    fr_set_u64(&e, 7);
    CHECK(fr_equal(&out[3 + 18], &e) && fr_equal(&out[3 + 18 + 15], &e) &&
          fr_equal(&out[3 + 18 + 17], &e));
}

int main(int argc, char **argv) {
    check_seed("test_porep_circuit");
    if (argc > 1) {
        for (size_t i = 0; i < sizeof slow_counts / sizeof slow_counts[0]; i++)
            if (strcmp(argv[1], slow_counts[i].name) == 0) {
                check_count(&slow_counts[i], NULL);
                return check_finish();
            }
        if (strcmp(argv[1], "sat-11") == 0) {
            /* the 32 GiB structure (L = 11, trees 8-8-0) on 64 nodes, and 8-8-2 */
            porep_shape s = {64, 11, 2, 8, 8, 0}, t = {128, 11, 1, 8, 8, 2};
            test_instance(&s, 1);
            test_instance(&t, 0);
            return check_finish();
        }
        fprintf(stderr, "unknown case %s\n", argv[1]);
        return 2;
    }
    r1cs_counts k2;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        check_count(&counts[i], i == 4 ? &k2 : NULL);
    test_prove_shape(&counts[4].s, &k2);
    /* the Poseidon replay (modes without values) off: the same counts */
    setenv("CUZK_POSEIDON_REPLAY", "0", 1);
    r1cs_counts k2_direct;
    check_count(&counts[4], &k2_direct);
    unsetenv("CUZK_POSEIDON_REPLAY");
    CHECK(k2_direct.aux == k2.aux && k2_direct.nnz_a == k2.nnz_a && k2_direct.nnz_b == k2.nnz_b &&
          k2_direct.nnz_c == k2.nnz_c && k2_direct.a_aux_density == k2.a_aux_density &&
          k2_direct.b_aux_density == k2.b_aux_density);
    /* corruptions on the smallest shape (the checking mode is the slow part) */
    porep_shape twok = {64, 2, 2, 8, 0, 0}, base8 = {8, 2, 1, 8, 0, 0}, base2 = {8, 2, 1, 2, 0, 0},
                top = {64, 2, 1, 8, 4, 2};
    test_instance(&twok, 0);
    test_instance(&base8, 1);
    test_instance(&base2, 0);
    test_instance(&top, 0);
    test_bad();
    return check_finish();
}
