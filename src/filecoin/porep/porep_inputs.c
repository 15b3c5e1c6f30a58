/* A C1 output's partition as the PoRep circuit's witness and public inputs:
 * see porep_inputs.h. */
#include "filecoin/porep/porep_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep/challenges.h"
#include "util/err.h"

/* The C1 tree t has the path shape of the circuit's tree p. */
static int tree_fits(const c1_tree *t, const por_shape *p) {
    const unsigned levels = por_shape_levels(p);
    if (t->len != levels || t->hashes != por_shape_siblings(p))
        return 0;
    for (unsigned e = 0; e < levels; e++)
        if (t->arity[e] != por_shape_arity(p, e))
            return 0;
    return 1;
}

int porep_c1_shape(porep_shape *out, const c1_output *c, char *err, size_t cap) {
    const fc_seal_proof *p = c->proof;
    porep_shape_for_sector(out, p->shape, p->challenges_per_partition);
    if (porep_shape_check(out) != 0)
        return err_set(err, cap, "%s: no PoRep circuit shape for this proof", p->name);
    if (c->challenges != out->challenges || c->layers != out->layers || c->nodes != out->nodes)
        return err_set(err, cap,
                       "C1 output has %u challenges per partition, %u layers, %llu nodes; %s "
                       "wants %u, %u, %llu",
                       c->challenges, c->layers, (unsigned long long)c->nodes, p->name,
                       out->challenges, out->layers, (unsigned long long)out->nodes);
    por_shape rc, d;
    porep_shape_tree_rc(out, &rc);
    porep_shape_tree_d(out, &d);
    if (!tree_fits(&c->tree_r, &rc) || !tree_fits(&c->tree_d, &d))
        return err_set(err, cap, "C1 output's tree shapes do not match the %s circuit", p->name);
    return 0;
}

/* ---- public inputs ------------------------------------------------------------ */

void porep_public_free(porep_public *p) {
    free(p->mem);
    memset(p, 0, sizeof *p);
}

static int to_fr(fr *out, const uint8_t b[32], char *err, size_t cap, const char *what) {
    if (!fr_from_bytes_le(out, b))
        return err_set(err, cap, "%s is not a canonical field element", what);
    return 0;
}

int porep_c1_public(porep_public *out, const c1_output *c, unsigned k, const fc_graph *g, char *err,
                    size_t cap) {
    memset(out, 0, sizeof *out);
    if (porep_c1_shape(&out->shape, c, err, cap))
        return -1;
    if (k >= c->partitions)
        return err_set(err, cap, "partition %u: the C1 output has %u", k, c->partitions);
    if (g->nodes != c->nodes)
        return err_set(err, cap, "graph of %llu nodes for a sector of %llu",
                       (unsigned long long)g->nodes, (unsigned long long)c->nodes);
    const size_t C = out->shape.challenges;
    out->n_inputs = porep_num_public_inputs(&out->shape);
    char *m = malloc(out->n_inputs * sizeof(fr) + C * sizeof(uint64_t) +
                     C * FC_GRAPH_DEGREE * sizeof(uint32_t));
    if (!m)
        return err_set(err, cap, "out of memory");
    out->mem = m;
    out->inputs = (fr *)m;
    out->challenge = (uint64_t *)(out->inputs + out->n_inputs);
    out->drg = (uint32_t *)(out->challenge + C);
    out->exp = out->drg + C * POREP_DRG_PARENTS;
    fr replica_id, comm_d, comm_r;
    if (to_fr(&replica_id, c->replica_id, err, cap, "replica_id") ||
        to_fr(&comm_d, c->comm_d, err, cap, "comm_d") ||
        to_fr(&comm_r, c->comm_r, err, cap, "comm_r"))
        goto bad;
    if (fc_porep_challenges(out->challenge, c->proof, k, c->replica_id, c->comm_r, c->seed, err,
                            cap))
        goto bad;
    for (size_t i = 0; i < C; i++) {
        uint32_t par[FC_GRAPH_DEGREE];
        fc_graph_parents(g, (uint32_t)out->challenge[i], par);
        memcpy(out->drg + i * POREP_DRG_PARENTS, par, POREP_DRG_PARENTS * sizeof(uint32_t));
        memcpy(out->exp + i * POREP_EXP_PARENTS, par + POREP_DRG_PARENTS,
               POREP_EXP_PARENTS * sizeof(uint32_t));
    }
    if (porep_public_inputs(out->inputs, &out->shape, &replica_id, &comm_d, &comm_r, out->challenge,
                            out->drg, out->exp, err, cap) == 0)
        return 0;
bad:
    porep_public_free(out);
    return -1;
}

/* ---- witness -------------------------------------------------------------------- */

void porep_c1_witness_free(porep_c1_witness *w) {
    free(w->mem);
    memset(w, 0, sizeof *w);
}

/* A Merkle path's positions and siblings into the flat witness arrays. */
static int put_path(uint32_t *index, fr *sib, const c1_merkle *m, char *err, size_t cap, size_t ch,
                    const char *what) {
    size_t j = 0;
    for (unsigned e = 0; e < m->tree->len; e++) {
        index[e] = m->index[e];
        const c1_node *h = c1_path_hashes(m, e);
        for (unsigned i = 0; i < c1_path_hashes_len(m, e); i++, j++)
            if (!fr_from_bytes_le(&sib[j], h[i]))
                return err_set(err, cap,
                               "challenge %zu: %s: path element %u hash %u is not a canonical "
                               "field element",
                               ch, what, e, i);
    }
    return 0;
}

static const c1_column *column(const c1_challenge *x, unsigned k) {
    return k == 0 ? &x->c_x : k <= POREP_DRG_PARENTS ? &x->drg[k - 1] : &x->exp[k - 7];
}

static void column_name(char *out, size_t cap, unsigned k) {
    if (k == 0)
        snprintf(out, cap, "column c_x");
    else if (k <= POREP_DRG_PARENTS)
        snprintf(out, cap, "column drg_parents[%u]", k - 1);
    else
        snprintf(out, cap, "column exp_parents[%u]", k - 7);
}

int porep_c1_witness_get(porep_c1_witness *out, const c1_output *c, unsigned k, char *err,
                         size_t cap) {
    memset(out, 0, sizeof *out);
    if (porep_c1_shape(&out->shape, c, err, cap))
        return -1;
    if (k >= c->partitions)
        return err_set(err, cap, "partition %u: the C1 output has %u", k, c->partitions);
    const porep_shape *s = &out->shape;
    porep_witness_sizes z;
    porep_witness_sizes_get(s, &z);
    por_shape rc, d;
    porep_shape_tree_rc(s, &rc);
    porep_shape_tree_d(s, &d);
    const size_t C = s->challenges, L = s->layers, lr = por_shape_levels(&rc),
                 sr = por_shape_siblings(&rc), ld = por_shape_levels(&d);
    const size_t nfr = z.data_leaf + z.d_sib + z.rows + z.c_sib + z.r_sib;
    const size_t nu32 = z.d_index + z.c_index + z.r_index;
    char *m = malloc(nfr * sizeof(fr) + z.challenge * sizeof(uint64_t) + nu32 * sizeof(uint32_t));
    if (!m)
        return err_set(err, cap, "out of memory");
    out->mem = m;
    fr *data_leaf = (fr *)m, *d_sib = data_leaf + z.data_leaf, *rows = d_sib + z.d_sib,
       *c_sib = rows + z.rows, *r_sib = c_sib + z.c_sib;
    uint64_t *chal = (uint64_t *)(r_sib + z.r_sib);
    uint32_t *d_index = (uint32_t *)(chal + z.challenge), *c_index = d_index + z.d_index,
             *r_index = c_index + z.c_index;
    porep_witness *w = &out->w;
    memset(w, 0, sizeof *w);
    char name[64];
    if (to_fr(&w->replica_id, c->replica_id, err, cap, "replica_id") ||
        to_fr(&w->comm_d, c->comm_d, err, cap, "comm_d") ||
        to_fr(&w->comm_r, c->comm_r, err, cap, "comm_r"))
        goto bad;
    const c1_challenge *x0 = c1_at(c, k, 0);
    const uint8_t *comm_c = c1_merkle_root(&x0->c_x.proof),
                  *comm_r_last = c1_merkle_root(&x0->comm_r_last);
    if (to_fr(&w->comm_c, comm_c, err, cap, "comm_c (the c_x column proof's root)") ||
        to_fr(&w->comm_r_last, comm_r_last, err, cap, "comm_r_last (the tree R proof's root)"))
        goto bad;
    for (size_t i = 0; i < C; i++) {
        const c1_challenge *x = c1_at(c, k, (unsigned)i);
        if (memcmp(c1_merkle_root(&x->comm_r_last), comm_r_last, 32) != 0) {
            err_set(err, cap, "challenge %zu: comm_r_last_proof root differs from challenge 0's",
                    i);
            goto bad;
        }
        if (memcmp(c1_merkle_root(&x->comm_d), c->comm_d, 32) != 0) {
            err_set(err, cap, "challenge %zu: comm_d_proofs root is not the C1 output's comm_d", i);
            goto bad;
        }
        chal[i] = x->labeling[0].node;
        if (to_fr(&data_leaf[i], c1_merkle_leaf(&x->comm_d), err, cap, "a comm_d_proofs leaf") ||
            put_path(d_index + i * ld, d_sib + i * ld, &x->comm_d, err, cap, i, "comm_d_proofs") ||
            put_path(r_index + i * lr, r_sib + i * sr, &x->comm_r_last, err, cap, i,
                     "comm_r_last_proof"))
            goto bad;
        for (unsigned col = 0; col < POREP_COLUMNS; col++) {
            const c1_column *cc = column(x, col);
            const size_t ck = i * POREP_COLUMNS + col;
            column_name(name, sizeof name, col);
            if (memcmp(c1_merkle_root(&cc->proof), comm_c, 32) != 0) {
                err_set(err, cap, "challenge %zu: %s: tree C root differs from c_x's (comm_c)", i,
                        name);
                goto bad;
            }
            for (size_t l = 0; l < L; l++)
                if (!fr_from_bytes_le(&rows[ck * L + l], cc->rows[l])) {
                    err_set(err, cap, "challenge %zu: %s: row %zu is not a canonical field element",
                            i, name, l);
                    goto bad;
                }
            if (put_path(c_index + ck * lr, c_sib + ck * sr, &cc->proof, err, cap, i, name))
                goto bad;
        }
    }
    w->challenge = chal;
    w->data_leaf = data_leaf;
    w->d_index = d_index;
    w->d_sib = d_sib;
    w->rows = rows;
    w->c_index = c_index;
    w->c_sib = c_sib;
    w->r_index = r_index;
    w->r_sib = r_sib;
    return 0;
bad:
    porep_c1_witness_free(out);
    return -1;
}

int porep_c1_check(const porep_c1_witness *w, const porep_public *pub, char *err, size_t cap) {
    const porep_shape *s = &w->shape;
    if (memcmp(s, &pub->shape, sizeof *s) != 0)
        return err_set(err, cap, "witness and public inputs of different shapes");
    const size_t C = s->challenges;
    for (size_t i = 0; i < C; i++)
        if (w->w.challenge[i] != pub->challenge[i])
            return err_set(err, cap,
                           "challenge %zu: the C1 proves node %llu, but the challenge derived "
                           "from replica_id, seed and comm_r is node %llu",
                           i, (unsigned long long)w->w.challenge[i],
                           (unsigned long long)pub->challenge[i]);
    uint64_t *opened = malloc(C * POREP_COLUMNS * sizeof(uint64_t));
    if (!opened)
        return err_set(err, cap, "out of memory");
    int rc = porep_witness_check(s, &w->w, opened, err, cap);
    for (size_t i = 0; rc == 0 && i < C; i++)
        for (unsigned col = 1; rc == 0 && col < POREP_COLUMNS; col++) {
            uint64_t want = col <= POREP_DRG_PARENTS
                                ? pub->drg[i * POREP_DRG_PARENTS + col - 1]
                                : pub->exp[i * POREP_EXP_PARENTS + col - 1 - POREP_DRG_PARENTS];
            uint64_t got = opened[i * POREP_COLUMNS + col];
            if (got != want) {
                char name[64];
                column_name(name, sizeof name, col);
                rc = err_set(err, cap,
                             "challenge %zu: %s opens node %llu, but the graph's parent is %llu", i,
                             name, (unsigned long long)got, (unsigned long long)want);
            }
        }
    free(opened);
    return rc;
}
