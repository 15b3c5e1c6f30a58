/* The test-data sealer (PreCommit 1/2, Commit 1): see sealer.h. */
#include "sealer/sealer.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/fr.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/label.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/prover_id.h"
#include "filecoin/porep/replica_id.h"
#include "util/err.h"
#include "util/parallel.h"

static void progress(const fc_seal_params *p, const char *stage, uint64_t done, uint64_t total) {
    if (p->progress)
        p->progress(p->progress_ctx, stage, done, total);
}

void fc_sealed_free(fc_sealed *s) {
    free(s->labels);
    s->labels = NULL;
    merkle_tree_free(&s->tree_d);
    merkle_tree_free(&s->tree_c);
    merkle_tree_free(&s->tree_r);
}

/* Labels of every layer, sequentially (create_label::single), with progress. */
static int label_layers(fc_sealed *s, const fc_seal_params *p, char *err, size_t cap) {
    fc_graph g;
    if (fc_graph_init_proof(&g, s->proof) != 0)
        return err_set(err, cap, "cannot build the graph of %s", s->proof->name);
    size_t layer_bytes = (size_t)s->nodes * 32;
    uint64_t total = (uint64_t)s->nodes * s->layers, step = total / 64 + 1;
    uint32_t par[FC_GRAPH_DEGREE];
    for (uint32_t l = 1; l <= s->layers; l++) {
        uint8_t *cur = s->labels + (size_t)(l - 1) * layer_bytes;
        const uint8_t *prev = l > 1 ? cur - layer_bytes : NULL;
        for (uint64_t v = 0; v < s->nodes; v++) {
            fc_graph_parents(&g, (uint32_t)v, par);
            fc_label(cur + v * 32, s->replica_id, l, (uint32_t)v, par, cur, prev);
            uint64_t done = (uint64_t)(l - 1) * s->nodes + v + 1;
            if (done % step == 0)
                progress(p, "labels", done, total);
        }
    }
    progress(p, "labels", total, total);
    fc_graph_free(&g);
    return 0;
}

static int build_tree(merkle_tree *t, tree_hasher h, const fc_sector_shape *sh,
                      const uint8_t *leaves, uint64_t n, const char *name, char *err, size_t cap) {
    unsigned base = h == TREE_HASH_SHA256 ? 2 : sh->arity_base;
    unsigned sub = h == TREE_HASH_SHA256 ? 0 : sh->arity_sub;
    unsigned top = h == TREE_HASH_SHA256 || !sub ? 0 : sh->arity_top;
    int rc = merkle_tree_build(t, h, base, sub, top, leaves, (size_t)n);
    if (rc != MERKLE_OK)
        return err_set(err, cap, "tree %s: %s", name, merkle_strerror(rc));
    return 0;
}

/* Column hashing and encoding, PASS_CHUNK nodes a task. */
enum { PASS_CHUNK = 4096 };
typedef struct {
    const fc_sealed *s;
    const uint8_t *data; /* encode_task: the padded data */
    uint8_t *out;        /* nodes x 32 */
    _Atomic int failed;
} pass_ctx;

static void column_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    pass_ctx *pc = ctx;
    const fc_sealed *s = pc->s;
    uint8_t col[11 * 32];
    uint64_t end = (uint64_t)(task + 1) * PASS_CHUNK;
    for (uint64_t v = (uint64_t)task * PASS_CHUNK; v < end && v < s->nodes; v++) {
        for (unsigned l = 1; l <= s->layers; l++)
            memcpy(col + 32 * (l - 1), fc_sealed_label(s, l, v), 32);
        if (merkle_hash_node(pc->out + v * 32, TREE_HASH_POSEIDON, col, s->layers) != MERKLE_OK)
            pc->failed = 1;
    }
}

/* replica(v) = label_L(v) + data(v) in Fr (both canonical: trimmed / padded). */
static void encode_task(void *ctx, size_t task, unsigned worker) {
    (void)worker;
    pass_ctx *pc = ctx;
    const fc_sealed *s = pc->s;
    uint64_t end = (uint64_t)(task + 1) * PASS_CHUNK;
    for (uint64_t v = (uint64_t)task * PASS_CHUNK; v < end && v < s->nodes; v++) {
        fr k, d, r;
        fr_from_bytes_le(&k, fc_sealed_label(s, s->layers, v));
        fr_from_bytes_le(&d, pc->data + v * 32);
        fr_add(&r, &k, &d);
        fr_to_bytes_le(pc->out + v * 32, &r);
    }
}

int fc_seal_precommit(fc_sealed *s, const fc_seal_params *p, const uint8_t *padded, char *err,
                      size_t cap) {
    memset(s, 0, sizeof *s);
    const fc_sector_shape *sh = p->proof->shape;
    s->proof = p->proof;
    s->nodes = sh->nodes;
    s->layers = sh->layers;
    s->miner_id = p->miner_id;
    s->sector_number = p->sector_number;
    memcpy(s->ticket, p->ticket, 32);
    memcpy(s->seed, p->seed, 32);
    for (uint64_t v = 0; v < s->nodes; v++)
        if (padded[v * 32 + 31] & 0xc0)
            return err_set(err, cap,
                           "data node %llu is not Fr32-padded (byte 31 has its top bits set)",
                           (unsigned long long)v);
    uint8_t *leaves = NULL;
    int rc = -1;
    /* PreCommit 1: tree D, replica_id, labels */
    progress(p, "tree D", 0, 0);
    if (build_tree(&s->tree_d, TREE_HASH_SHA256, sh, padded, s->nodes, "D", err, cap) != 0)
        goto out;
    memcpy(s->comm_d, merkle_tree_root(&s->tree_d), 32);
    uint8_t prover[32], porep_id[32];
    fc_prover_id(prover, p->miner_id);
    fc_porep_id(porep_id, p->proof);
    fc_replica_id(s->replica_id, prover, p->sector_number, p->ticket, s->comm_d, porep_id);
    size_t layer_bytes = (size_t)s->nodes * 32;
    s->labels = malloc(layer_bytes * s->layers);
    leaves = malloc(layer_bytes);
    if (!s->labels || !leaves) {
        err_set(err, cap, "out of memory for %u layers of %llu nodes", s->layers,
                (unsigned long long)s->nodes);
        goto out;
    }
    if (label_layers(s, p, err, cap) != 0)
        goto out;
    /* PreCommit 2: tree C over the columns, the replica and tree R */
    if (s->layers > 11) {
        err_set(err, cap, "%u layers: more than 11", s->layers);
        goto out;
    }
    progress(p, "column hashes", 0, s->nodes);
    pass_ctx pc = {s, NULL, leaves, 0};
    par_run(p->threads, (size_t)((s->nodes + PASS_CHUNK - 1) / PASS_CHUNK), column_task, &pc);
    if (pc.failed) {
        err_set(err, cap, "a column could not be hashed");
        goto out;
    }
    progress(p, "column hashes", s->nodes, s->nodes);
    progress(p, "tree C", 0, 0);
    if (build_tree(&s->tree_c, TREE_HASH_POSEIDON, sh, leaves, s->nodes, "C", err, cap) != 0)
        goto out;
    memcpy(s->comm_c, merkle_tree_root(&s->tree_c), 32);
    progress(p, "encoding", 0, 0);
    pc.data = padded;
    par_run(p->threads, (size_t)((s->nodes + PASS_CHUNK - 1) / PASS_CHUNK), encode_task, &pc);
    progress(p, "tree R", 0, 0);
    if (build_tree(&s->tree_r, TREE_HASH_POSEIDON, sh, leaves, s->nodes, "R", err, cap) != 0)
        goto out;
    memcpy(s->comm_r_last, merkle_tree_root(&s->tree_r), 32);
    uint8_t pair[64];
    memcpy(pair, s->comm_c, 32);
    memcpy(pair + 32, s->comm_r_last, 32);
    if (merkle_hash_node(s->comm_r, TREE_HASH_POSEIDON, pair, 2) != MERKLE_OK) {
        err_set(err, cap, "comm_r: hash failed");
        goto out;
    }
    rc = 0;
out:
    free(leaves);
    if (rc != 0)
        fc_sealed_free(s);
    return rc;
}

/* A native proof copied into a C1 proof of the same shape. */
static int copy_proof(c1_merkle *m, const fc_seal_reader *r, char tree, uint64_t i, char *err,
                      size_t cap) {
    merkle_proof p;
    if (r->proof(r->ctx, tree, i, &p, err, cap) != 0)
        return -1;
    unsigned levels = por_shape_levels(&p.shape);
    if (levels != m->tree->len || por_shape_siblings(&p.shape) != m->tree->hashes) {
        merkle_proof_free(&p);
        return err_set(err, cap, "tree %c: %u path elements, the C1 shape has %u", tree, levels,
                       m->tree->len);
    }
    memcpy(m->nodes[0], p.root, 32);
    memcpy(m->nodes[1], p.leaf, 32);
    memcpy(m->nodes[2], p.siblings, 32 * (size_t)m->tree->hashes);
    for (unsigned e = 0; e < levels; e++)
        m->index[e] = (uint8_t)p.index[e];
    merkle_proof_free(&p);
    return 0;
}

static int fill_column(c1_column *col, const fc_sealed *s, const fc_seal_reader *r, uint32_t node,
                       char *err, size_t cap) {
    col->index = node;
    for (unsigned l = 1; l <= s->layers; l++)
        if (r->label(r->ctx, l, node, col->rows[l - 1], err, cap) != 0)
            return -1;
    return copy_proof(&col->proof, r, 'C', node, err, cap);
}

/* One challenge's vanilla proof (prove_layers). */
static int prove_challenge(c1_challenge *ch, const fc_sealed *s, const fc_seal_reader *r,
                           const fc_graph *g, uint64_t node, char *err, size_t cap) {
    if (copy_proof(&ch->comm_d, r, 'D', node, err, cap) != 0 ||
        copy_proof(&ch->comm_r_last, r, 'R', node, err, cap) != 0 ||
        fill_column(&ch->c_x, s, r, (uint32_t)node, err, cap) != 0)
        return -1;
    uint32_t par[FC_GRAPH_DEGREE];
    fc_graph_parents(g, (uint32_t)node, par);
    for (unsigned k = 0; k < C1_DRG_PARENTS; k++)
        if (fill_column(&ch->drg[k], s, r, par[k], err, cap) != 0)
            return -1;
    for (unsigned k = 0; k < C1_EXP_PARENTS; k++)
        if (fill_column(&ch->exp[k], s, r, par[C1_DRG_PARENTS + k], err, cap) != 0)
            return -1;
    for (uint32_t l = 1; l <= s->layers; l++) {
        c1_labeling *lp = &ch->labeling[l - 1];
        uint32_t refs[FC_LABEL_PARENTS];
        uint8_t from_prev[FC_LABEL_PARENTS];
        fc_label_parent_refs(refs, from_prev, par, l);
        for (unsigned i = 0; i < FC_LABEL_PARENTS; i++)
            if (r->label(r->ctx, from_prev[i] ? l - 1 : l, refs[i], lp->parents[i], err, cap) != 0)
                return -1;
        lp->layer_index = l;
        lp->node = node;
    }
    const c1_labeling *last = &ch->labeling[s->layers - 1];
    memcpy(ch->encoding.parents, last->parents, 32 * C1_LABEL_PARENTS);
    ch->encoding.layer_index = last->layer_index;
    ch->encoding.node = last->node;
    return 0;
}

int fc_seal_commit1_read(c1_output **out, const fc_sealed *s, const fc_seal_reader *r, char *err,
                         size_t cap) {
    *out = NULL;
    c1_error ce;
    c1_output *c = c1_output_alloc(s->proof, &ce);
    if (!c)
        return err_set(err, cap, "%s", ce.msg);
    memcpy(c->comm_r, s->comm_r, 32);
    memcpy(c->comm_d, s->comm_d, 32);
    memcpy(c->replica_id, s->replica_id, 32);
    memcpy(c->seed, s->seed, 32);
    memcpy(c->ticket, s->ticket, 32);
    fc_graph g;
    if (fc_graph_init_proof(&g, s->proof) != 0) {
        c1_output_free(c);
        return err_set(err, cap, "cannot build the graph of %s", s->proof->name);
    }
    uint64_t *chal = malloc(sizeof *chal * c->challenges);
    int rc = chal ? 0 : err_set(err, cap, "out of memory");
    for (unsigned k = 0; rc == 0 && k < c->partitions; k++) {
        char msg[256];
        if (fc_porep_challenges(chal, s->proof, k, s->replica_id, s->comm_r, s->seed, msg,
                                sizeof msg) != 0) {
            rc = err_set(err, cap, "partition %u challenges: %s", k, msg);
            break;
        }
        for (unsigned i = 0; rc == 0 && i < c->challenges; i++)
            rc = prove_challenge(c1_at(c, k, i), s, r, &g, chal[i], err, cap);
    }
    free(chal);
    fc_graph_free(&g);
    if (rc != 0) {
        c1_output_free(c);
        return -1;
    }
    *out = c;
    return 0;
}

/* The reader over an in-memory fc_sealed. */
static int mem_label(void *ctx, unsigned layer, uint64_t node, uint8_t out[32], char *err,
                     size_t cap) {
    const fc_sealed *s = ctx;
    if (layer < 1 || layer > s->layers || node >= s->nodes)
        return err_set(err, cap, "label (%u, %llu) out of range", layer, (unsigned long long)node);
    memcpy(out, fc_sealed_label(s, layer, node), 32);
    return 0;
}

static int mem_proof(void *ctx, char tree, uint64_t i, merkle_proof *p, char *err, size_t cap) {
    const fc_sealed *s = ctx;
    const merkle_tree *t = tree == 'D' ? &s->tree_d : tree == 'C' ? &s->tree_c : &s->tree_r;
    int rc = merkle_proof_gen(p, t, i);
    if (rc != MERKLE_OK)
        return err_set(err, cap, "tree %c proof of %llu: %s", tree, (unsigned long long)i,
                       merkle_strerror(rc));
    return 0;
}

int fc_seal_commit1(c1_output **out, const fc_sealed *s, char *err, size_t cap) {
    fc_seal_reader r = {(void *)s, mem_label, mem_proof};
    return fc_seal_commit1_read(out, s, &r, err, cap);
}
