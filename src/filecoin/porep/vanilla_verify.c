/* Native vanilla PoRep verification of a decoded C1: see vanilla_verify.h. */
#include "filecoin/porep/vanilla_verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/fr.h"
#include "gadget/poseidon.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/label.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/prover_id.h"
#include "filecoin/porep/replica_id.h"
#include "filecoin/hash/sha256_native.h"
#include "util/err.h"

/* The verifier's state for one C1. */
typedef struct {
    const c1_output *c;
    fc_graph graph;
    uint8_t comm_c[32], comm_r_last[32];
    char *msg;
    size_t cap;
    char where[96]; /* "partition k challenge i" */
} vv_ctx;

static int fail(vv_ctx *v, const char *fmt, ...) {
    if (v->msg && v->cap) {
        int n = v->where[0] ? snprintf(v->msg, v->cap, "%s: ", v->where) : 0;
        if (n < 0 || (size_t)n >= v->cap)
            n = 0;
        va_list ap;
        va_start(ap, fmt);
        err_vset(v->msg + n, v->cap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* The Merkle path of m against its own root: MERKLE_OK or a MERKLE_ERR_*. */
static int path_check(const c1_merkle *m, tree_hasher h) {
    const c1_tree *t = m->tree;
    merkle_proof p;
    memset(&p, 0, sizeof p);
    p.shape.hasher = h;
    p.shape.base = t->base_arity;
    p.shape.base_levels = t->base_len;
    p.shape.sub = t->sub_arity;
    p.shape.top = t->top_arity;
    memcpy(p.leaf, c1_merkle_leaf(m), 32);
    memcpy(p.root, c1_merkle_root(m), 32);
    for (unsigned e = 0; e < t->len && e < POR_MAX_LEVELS; e++)
        p.index[e] = m->index[e];
    p.siblings = (uint8_t *)m->nodes[2]; /* only read by merkle_proof_verify */
    return merkle_proof_verify(&p);
}

/* A Merkle proof of tree `tree_name` proving leaf `index` under `root`
 * (root_name in messages); part names the proof. */
static int merkle_check(vv_ctx *v, const char *part, const c1_merkle *m, tree_hasher h,
                        uint64_t index, const uint8_t root[32], const char *root_name) {
    uint64_t got = c1_merkle_path_index(m);
    if (got != index)
        return fail(v, "%s: inclusion proof path proves leaf %llu, expected %llu", part,
                    (unsigned long long)got, (unsigned long long)index);
    if (memcmp(c1_merkle_root(m), root, 32) != 0)
        return fail(v, "%s: inclusion proof root is not %s", part, root_name);
    int rc = path_check(m, h);
    if (rc == MERKLE_ERR_ROOT)
        return fail(v, "%s: inclusion proof does not reach %s", part, root_name);
    if (rc != MERKLE_OK)
        return fail(v, "%s: inclusion proof is malformed (%s)", part, merkle_strerror(rc));
    return 0;
}

static int column_check(vv_ctx *v, const char *part, const c1_column *col, uint32_t expect) {
    if (col->index != expect)
        return fail(v, "%s column: index %u, but the graph says %u", part, col->index, expect);
    uint8_t h[32];
    int rc = merkle_hash_node(h, TREE_HASH_POSEIDON, col->rows[0], v->c->layers);
    if (rc != MERKLE_OK)
        return fail(v, "%s column: rows cannot be hashed (%s)", part, merkle_strerror(rc));
    if (memcmp(h, c1_merkle_leaf(&col->proof), 32) != 0)
        return fail(v, "%s column: inclusion proof leaf is not the Poseidon hash of the rows",
                    part);
    char name[64];
    snprintf(name, sizeof name, "%s column", part);
    return merkle_check(v, name, &col->proof, TREE_HASH_POSEIDON, col->index, v->comm_c, "comm_c");
}

/* label(layer, node) over 37 parents, as LabelingProof::create_label. */
static void label_of(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                     c1_node *parents) {
    uint8_t head[64];
    memset(head, 0, sizeof head);
    memcpy(head, replica_id, 32);
    for (int i = 0; i < 4; i++)
        head[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        head[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    uint8_t msg[64 + 32 * C1_LABEL_PARENTS];
    memcpy(msg, head, 64);
    memcpy(msg + 64, parents, 32 * C1_LABEL_PARENTS);
    sha256_trunc_native(out, msg, sizeof msg);
}

/* The labeling proof of layer l (1-based): fields, parents = the rows the
 * circuit takes from the columns, label = the challenge column's row l. */
static int labeling_check(vv_ctx *v, const char *part, const c1_labeling *lp,
                          const c1_challenge *ch, uint32_t l, uint64_t challenge) {
    if (lp->layer_index != l)
        return fail(v, "%s: layer_index %u, expected %u", part, lp->layer_index, l);
    if (lp->node != challenge)
        return fail(v, "%s: node %llu, expected the challenge %llu", part,
                    (unsigned long long)lp->node, (unsigned long long)challenge);
    uint32_t par[FC_GRAPH_DEGREE], refs[FC_LABEL_PARENTS];
    uint8_t from_prev[FC_LABEL_PARENTS];
    for (unsigned k = 0; k < FC_GRAPH_DEGREE; k++)
        par[k] = k; /* slot numbers: refs[] then names the column */
    fc_label_parent_refs(refs, from_prev, par, l);
    for (unsigned i = 0; i < FC_LABEL_PARENTS; i++) {
        unsigned s = refs[i];
        const c1_column *col = s < C1_DRG_PARENTS ? &ch->drg[s] : &ch->exp[s - C1_DRG_PARENTS];
        const uint8_t *want = col->rows[from_prev[i] ? l - 2 : l - 1];
        if (memcmp(lp->parents[i], want, 32) != 0)
            return fail(v, "%s: parents[%u] is not %s_parents[%u] row %u", part, i,
                        s < C1_DRG_PARENTS ? "drg" : "exp",
                        s < C1_DRG_PARENTS ? s : s - C1_DRG_PARENTS, from_prev[i] ? l - 1 : l);
    }
    uint8_t lab[32];
    label_of(lab, v->c->replica_id, l, lp->node, lp->parents);
    if (memcmp(lab, ch->c_x.rows[l - 1], 32) != 0)
        return fail(v, "%s: the label of its parents is not c_x row %u", part, l);
    return 0;
}

static int encoding_check(vv_ctx *v, const c1_challenge *ch, uint64_t challenge) {
    unsigned L = v->c->layers;
    const c1_labeling *e = &ch->encoding, *last = &ch->labeling[L - 1];
    if (e->layer_index != L || e->node != challenge)
        return fail(v, "encoding_proof: layer_index %u node %llu, expected %u and %llu",
                    e->layer_index, (unsigned long long)e->node, L, (unsigned long long)challenge);
    if (memcmp(e->parents, last->parents, 32 * C1_LABEL_PARENTS) != 0)
        return fail(v, "encoding_proof: parents differ from labeling_proofs[%u]", L - 1);
    uint8_t key[32];
    label_of(key, v->c->replica_id, L, e->node, e->parents);
    fr k, d, r;
    if (!fr_from_bytes_le(&d, c1_merkle_leaf(&ch->comm_d)))
        return fail(v, "encoding_proof: the comm_d leaf (data) is not a field element");
    fr_from_bytes_le(&k, key); /* trimmed: always canonical */
    fr_add(&r, &k, &d);
    uint8_t enc[32];
    fr_to_bytes_le(enc, &r);
    if (memcmp(enc, c1_merkle_leaf(&ch->comm_r_last), 32) != 0)
        return fail(v, "encoding_proof: tree R leaf is not label_%u + data", L);
    return 0;
}

static int challenge_check(vv_ctx *v, const c1_challenge *ch, uint64_t challenge) {
    const c1_output *c = v->c;
    if (merkle_check(v, "comm_d_proofs", &ch->comm_d, TREE_HASH_SHA256, challenge, c->comm_d,
                     "comm_d") != 0)
        return -1;
    if (merkle_check(v, "comm_r_last_proof", &ch->comm_r_last, TREE_HASH_POSEIDON, challenge,
                     v->comm_r_last, "comm_r_last") != 0)
        return -1;
    uint32_t par[FC_GRAPH_DEGREE];
    fc_graph_parents(&v->graph, (uint32_t)challenge, par);
    if (column_check(v, "c_x", &ch->c_x, (uint32_t)challenge) != 0)
        return -1;
    char part[64];
    for (unsigned k = 0; k < C1_DRG_PARENTS; k++) {
        snprintf(part, sizeof part, "drg_parents[%u]", k);
        if (column_check(v, part, &ch->drg[k], par[k]) != 0)
            return -1;
    }
    for (unsigned k = 0; k < C1_EXP_PARENTS; k++) {
        snprintf(part, sizeof part, "exp_parents[%u]", k);
        if (column_check(v, part, &ch->exp[k], par[C1_DRG_PARENTS + k]) != 0)
            return -1;
    }
    for (unsigned l = 1; l <= c->layers; l++) {
        snprintf(part, sizeof part, "labeling_proofs[%u]", l - 1);
        if (labeling_check(v, part, &ch->labeling[l - 1], ch, l, challenge) != 0)
            return -1;
    }
    return encoding_check(v, ch, challenge);
}

static int global_check(vv_ctx *v, const fc_vanilla_opts *opts) {
    const c1_output *c = v->c;
    if (opts && opts->have_miner) {
        uint8_t prover[32], porep_id[32], rid[32];
        fc_prover_id(prover, opts->miner_id);
        fc_porep_id(porep_id, c->proof);
        fc_replica_id(rid, prover, opts->sector_number, c->ticket, c->comm_d, porep_id);
        if (memcmp(rid, c->replica_id, 32) != 0)
            return fail(v, "replica_id is not the one of miner %llu sector %llu, ticket and comm_d",
                        (unsigned long long)opts->miner_id,
                        (unsigned long long)opts->sector_number);
    }
    const c1_challenge *first = c1_at(c, 0, 0);
    memcpy(v->comm_c, c1_merkle_root(&first->c_x.proof), 32);
    memcpy(v->comm_r_last, c1_merkle_root(&first->comm_r_last), 32);
    uint8_t pair[64], h[32];
    memcpy(pair, v->comm_c, 32);
    memcpy(pair + 32, v->comm_r_last, 32);
    int rc = merkle_hash_node(h, TREE_HASH_POSEIDON, pair, 2);
    if (rc != MERKLE_OK)
        return fail(v, "comm_c or comm_r_last (proof roots of partition 0 challenge 0) is not a "
                       "field element");
    if (memcmp(h, c->comm_r, 32) != 0)
        return fail(v, "comm_r is not Poseidon2(comm_c, comm_r_last) (comm_c, comm_r_last = the "
                       "proof roots of partition 0 challenge 0)");
    return 0;
}

int fc_vanilla_verify(const c1_output *c, const fc_vanilla_opts *opts, fc_vanilla_info *info,
                      char *msg, size_t cap) {
    vv_ctx v;
    memset(&v, 0, sizeof v);
    v.c = c;
    v.msg = msg;
    v.cap = cap;
    if (msg && cap)
        msg[0] = 0;
    if (info)
        memset(info, 0, sizeof *info);
    if (c->layers < 2 || !poseidon_arity_supported(c->layers))
        return fail(&v, "%u layers: no Poseidon column hash of that arity", c->layers);
    if (fc_graph_init_proof(&v.graph, c->proof) != 0)
        return fail(&v, "cannot build the graph of %s", c->proof->name);
    int rc = global_check(&v, opts);
    if (info) {
        memcpy(info->comm_c, v.comm_c, 32);
        memcpy(info->comm_r_last, v.comm_r_last, 32);
    }
    uint64_t *chal = malloc(sizeof *chal * (c->challenges ? c->challenges : 1));
    if (rc == 0 && !chal)
        rc = fail(&v, "out of memory");
    for (unsigned k = 0; rc == 0 && k < c->partitions; k++) {
        char err[256];
        if (fc_porep_challenges(chal, c->proof, k, c->replica_id, c->comm_r, c->seed, err,
                                sizeof err) != 0) {
            rc = fail(&v, "partition %u: challenges: %s", k, err);
            break;
        }
        for (unsigned i = 0; rc == 0 && i < c->challenges; i++) {
            const c1_challenge *ch = c1_at(c, k, i);
            snprintf(v.where, sizeof v.where, "partition %u challenge %u", k, i);
            if (ch->c_x.index != chal[i]) /* the other fields name it too: checked below */
                rc = fail(&v, "proves node %u, but replica_id, seed and comm_r give challenge %llu",
                          ch->c_x.index, (unsigned long long)chal[i]);
            else
                rc = challenge_check(&v, ch, chal[i]);
            if (rc == 0 && info)
                info->challenges_checked++;
        }
    }
    free(chal);
    fc_graph_free(&v.graph);
    return rc;
}
