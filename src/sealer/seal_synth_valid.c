/* A satisfiable C1 without sealing: see seal_synth_valid.h. */
#include "sealer/seal_synth_valid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/fr.h"
#include "filecoin/hash/sha256_native.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/porep/replica_id.h"
#include "filecoin/post/post_vanilla_gen.h"
#include "filecoin/prover_id.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/label.h"
#include "util/err.h"

/* Deterministic random bytes: SHA-256 of a domain tag, the seed, a purpose
 * and two counters; trimmed so that they are a canonical Fr. */
enum { R_TICKET = 1, R_SEED, R_DATA_NODE, R_DATA_VALUE, R_LABEL };

static void rnd(uint8_t out[32], uint64_t seed, uint32_t what, uint64_t a, uint64_t b) {
    uint8_t msg[16 + 8 + 4 + 16];
    memcpy(msg, "cuzk synth-valid", 16);
    for (int i = 0; i < 8; i++) {
        msg[16 + i] = (uint8_t)(seed >> (8 * i));
        msg[28 + i] = (uint8_t)(a >> (8 * i));
        msg[36 + i] = (uint8_t)(b >> (8 * i));
    }
    for (int i = 0; i < 4; i++)
        msg[24 + i] = (uint8_t)(what >> (8 * i));
    sha256_native(out, msg, sizeof msg);
    sha256_trim_fr32(out);
}

static uint64_t rnd64(uint64_t seed, uint32_t what, uint64_t a) {
    uint8_t b[32];
    rnd(b, seed, what, a, 0);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static size_t sort_unique(uint64_t *v, size_t n) {
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_u64);
    size_t m = 1;
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[m - 1])
            v[m++] = v[i];
    return m;
}

/* Position of node in the column map, or -1. */
static long col_find(const fc_synth_sector *s, uint64_t node) {
    const uint64_t *e = bsearch(&node, s->col_node, s->n_cols, sizeof node, cmp_u64);
    return e ? (long)(e - s->col_node) : -1;
}

static uint8_t *col_label(const fc_synth_sector *s, size_t k, unsigned layer) {
    return s->col_labels + ((k * s->hdr.layers) + layer - 1) * 32;
}

int fc_synth_valid_label(const fc_synth_sector *s, unsigned layer, uint64_t node, uint8_t out[32]) {
    long k = col_find(s, node);
    if (k < 0 || layer < 1 || layer > s->hdr.layers)
        return -1;
    memcpy(out, col_label(s, (size_t)k, layer), 32);
    return 0;
}

/* label(l, v) = SHA-256(replica_id ‖ l BE ‖ v BE ‖ 0^20 ‖ 37 parent labels),
 * trimmed, with the parents read from the map (label.h). */
static int compute_label(fc_synth_sector *s, const fc_graph *g, unsigned l, uint64_t v) {
    uint32_t par[FC_GRAPH_DEGREE], refs[FC_LABEL_PARENTS];
    uint8_t from_prev[FC_LABEL_PARENTS];
    fc_graph_parents(g, (uint32_t)v, par);
    fc_label_parent_refs(refs, from_prev, par, l);
    uint8_t msg[64 + 32 * FC_LABEL_PARENTS];
    memset(msg, 0, 64);
    memcpy(msg, s->hdr.replica_id, 32);
    for (int i = 0; i < 4; i++)
        msg[32 + i] = (uint8_t)(l >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        msg[36 + i] = (uint8_t)(v >> (56 - 8 * i));
    for (unsigned i = 0; i < FC_LABEL_PARENTS; i++)
        if (fc_synth_valid_label(s, from_prev[i] ? l - 1 : l, refs[i], msg + 64 + 32 * i) != 0)
            return -1;
    long k = col_find(s, v);
    if (k < 0)
        return -1;
    sha256_trunc_native(col_label(s, (size_t)k, l), msg, sizeof msg);
    return 0;
}

static int tree_err(const char *name, int rc, char *err, size_t cap) {
    return err_set(err, cap, "tree %s: %s", name, merkle_strerror(rc));
}

static int tree_init(sparse_tree *t, tree_hasher h, const fc_sector_shape *sh, uint64_t nodes,
                     const char *name, char *err, size_t cap) {
    int sha = h == TREE_HASH_SHA256;
    unsigned sub = sha ? 0 : sh->arity_sub, top = sha || !sub ? 0 : sh->arity_top;
    int rc = sparse_tree_init(t, h, sha ? 2 : sh->arity_base, sub, top, nodes);
    return rc == MERKLE_OK ? 0 : tree_err(name, rc, err, cap);
}

/* Tree D and comm_d from the random data nodes; their indices into *data. */
static int make_data(fc_synth_sector *s, const fc_synth_valid_params *p, uint64_t *data, char *err,
                     size_t cap) {
    const fc_sector_shape *sh = p->proof->shape;
    if (tree_init(&s->d, TREE_HASH_SHA256, sh, s->hdr.nodes, "D", err, cap) != 0)
        return -1;
    for (unsigned i = 0; i < p->data_nodes; i++) {
        uint8_t v[32];
        data[i] = rnd64(p->seed, R_DATA_NODE, i) % s->hdr.nodes;
        rnd(v, p->seed, R_DATA_VALUE, data[i], 0);
        int rc = sparse_tree_set(&s->d, data[i], v);
        if (rc != MERKLE_OK)
            return tree_err("D", rc, err, cap);
    }
    int rc = sparse_tree_build(&s->d);
    if (rc != MERKLE_OK)
        return tree_err("D", rc, err, cap);
    memcpy(s->hdr.comm_d, sparse_tree_root(&s->d), 32);
    return 0;
}

/* Every partition's challenges, sorted and unique, into *out (malloc'd). */
static int all_challenges(uint64_t **out, size_t *n, const fc_sealed *h, char *err, size_t cap) {
    const fc_seal_proof *p = h->proof;
    size_t total = (size_t)p->partitions * p->challenges_per_partition;
    uint64_t *v = malloc(total * sizeof *v);
    if (!v)
        return err_set(err, cap, "out of memory");
    for (unsigned k = 0; k < p->partitions; k++) {
        char msg[256];
        if (fc_porep_challenges(v + (size_t)k * p->challenges_per_partition, p, k, h->replica_id,
                                NULL, h->seed, msg, sizeof msg) != 0) {
            free(v);
            return err_set(err, cap, "partition %u challenges: %s", k, msg);
        }
    }
    *n = sort_unique(v, total);
    *out = v;
    return 0;
}

/* The column map: challenged nodes, their parents and the data nodes; labels
 * of the challenged ones computed, the others random. */
static int make_columns(fc_synth_sector *s, const fc_synth_valid_params *p, const fc_graph *g,
                        const uint64_t *chal, size_t n_chal, const uint64_t *data, char *err,
                        size_t cap) {
    size_t n = n_chal * (1 + FC_GRAPH_DEGREE) + p->data_nodes;
    s->col_node = malloc((n ? n : 1) * sizeof *s->col_node);
    if (!s->col_node)
        return err_set(err, cap, "out of memory");
    size_t m = 0;
    for (size_t i = 0; i < n_chal; i++) {
        uint32_t par[FC_GRAPH_DEGREE];
        fc_graph_parents(g, (uint32_t)chal[i], par);
        s->col_node[m++] = chal[i];
        for (unsigned k = 0; k < FC_GRAPH_DEGREE; k++)
            s->col_node[m++] = par[k];
    }
    for (unsigned i = 0; i < p->data_nodes; i++)
        s->col_node[m++] = data[i];
    s->n_cols = sort_unique(s->col_node, m);
    unsigned L = s->hdr.layers;
    s->col_labels = malloc(s->n_cols * L * 32 + 1);
    s->col_data = malloc(s->n_cols * 32 + 1);
    if (!s->col_labels || !s->col_data)
        return err_set(err, cap, "out of memory");
    for (size_t k = 0; k < s->n_cols; k++) {
        for (unsigned l = 1; l <= L; l++)
            rnd(col_label(s, k, l), p->seed, R_LABEL, s->col_node[k], l);
        memcpy(s->col_data + 32 * k, sparse_tree_node(&s->d, 0, s->col_node[k]), 32);
    }
    /* Layer by layer, nodes in increasing order: a challenged DRG parent
     * (smaller) already has this layer, every expander parent the last. */
    for (unsigned l = 1; l <= L; l++)
        for (size_t i = 0; i < n_chal; i++)
            if (compute_label(s, g, l, chal[i]) != 0)
                return err_set(err, cap, "label %u of node %llu: a parent has no column", l,
                               (unsigned long long)chal[i]);
    return 0;
}

/* Trees C and R over the column map; comm_c, comm_r_last, comm_r. */
static int make_trees(fc_synth_sector *s, char *err, size_t cap) {
    const fc_sector_shape *sh = s->hdr.proof->shape;
    unsigned L = s->hdr.layers;
    if (tree_init(&s->c, TREE_HASH_POSEIDON, sh, s->hdr.nodes, "C", err, cap) != 0 ||
        tree_init(&s->r, TREE_HASH_POSEIDON, sh, s->hdr.nodes, "R", err, cap) != 0)
        return -1;
    for (size_t k = 0; k < s->n_cols; k++) {
        uint8_t h[32], enc[32];
        int rc = merkle_hash_node(h, TREE_HASH_POSEIDON, col_label(s, k, 1), L);
        if (rc == MERKLE_OK)
            rc = sparse_tree_set(&s->c, s->col_node[k], h);
        if (rc != MERKLE_OK)
            return tree_err("C", rc, err, cap);
        fr key, d, r;
        fr_from_bytes_le(&key, col_label(s, k, L)); /* trimmed: canonical */
        if (!fr_from_bytes_le(&d, s->col_data + 32 * k))
            return err_set(err, cap, "data node %llu is not a field element",
                           (unsigned long long)s->col_node[k]);
        fr_add(&r, &key, &d);
        fr_to_bytes_le(enc, &r);
        rc = sparse_tree_set(&s->r, s->col_node[k], enc);
        if (rc != MERKLE_OK)
            return tree_err("R", rc, err, cap);
    }
    int rc = sparse_tree_build(&s->c);
    if (rc != MERKLE_OK)
        return tree_err("C", rc, err, cap);
    rc = sparse_tree_build(&s->r);
    if (rc != MERKLE_OK)
        return tree_err("R", rc, err, cap);
    memcpy(s->hdr.comm_c, sparse_tree_root(&s->c), 32);
    memcpy(s->hdr.comm_r_last, sparse_tree_root(&s->r), 32);
    uint8_t pair[64];
    memcpy(pair, s->hdr.comm_c, 32);
    memcpy(pair + 32, s->hdr.comm_r_last, 32);
    if (merkle_hash_node(s->hdr.comm_r, TREE_HASH_POSEIDON, pair, 2) != MERKLE_OK)
        return err_set(err, cap, "comm_r: hash failed");
    return 0;
}

int fc_synth_valid_sector(fc_synth_sector *s, const fc_synth_valid_params *p, char *err,
                          size_t cap) {
    memset(s, 0, sizeof *s);
    const fc_seal_proof *pr = p->proof;
    if (!pr)
        return err_set(err, cap, "no registered proof");
    if (pr->variant != FC_POREP_V1 && pr->variant != FC_POREP_V1_1)
        return err_set(err, cap,
                       "%s: its challenges depend on comm_r, which the opened columns decide, so "
                       "no valid C1 can be made without sealing; use an interactive proof "
                       "(V1 or V1_1) of the same size",
                       pr->name);
    s->hdr.proof = pr;
    s->hdr.nodes = pr->shape->nodes;
    s->hdr.layers = pr->shape->layers;
    s->hdr.miner_id = p->miner_id;
    s->hdr.sector_number = p->sector_number;
    rnd(s->hdr.ticket, p->seed, R_TICKET, 0, 0);
    rnd(s->hdr.seed, p->seed, R_SEED, 0, 0);
    uint64_t *data = malloc((p->data_nodes ? p->data_nodes : 1) * sizeof *data), *chal = NULL;
    size_t n_chal = 0;
    fc_graph g;
    int have_graph = 0, rc = -1;
    if (!data) {
        err_set(err, cap, "out of memory");
        goto out;
    }
    if (make_data(s, p, data, err, cap) != 0)
        goto out;
    uint8_t prover[32], porep_id[32];
    fc_prover_id(prover, p->miner_id);
    fc_porep_id(porep_id, pr);
    fc_replica_id(s->hdr.replica_id, prover, p->sector_number, s->hdr.ticket, s->hdr.comm_d,
                  porep_id);
    if (all_challenges(&chal, &n_chal, &s->hdr, err, cap) != 0)
        goto out;
    if (fc_graph_init_proof(&g, pr) != 0) {
        err_set(err, cap, "cannot build the graph of %s", pr->name);
        goto out;
    }
    have_graph = 1;
    s->n_challenged = n_chal;
    if (make_columns(s, p, &g, chal, n_chal, data, err, cap) != 0 || make_trees(s, err, cap) != 0)
        goto out;
    rc = 0;
out:
    if (have_graph)
        fc_graph_free(&g);
    free(chal);
    free(data);
    if (rc != 0)
        fc_synth_sector_free(s);
    return rc;
}

static int rd_label(void *ctx, unsigned layer, uint64_t node, uint8_t out[32], char *err,
                    size_t cap) {
    if (fc_synth_valid_label(ctx, layer, node, out) != 0)
        return err_set(err, cap, "label (%u, %llu): not a node of the invented sector's columns",
                       layer, (unsigned long long)node);
    return 0;
}

static int rd_proof(void *ctx, char tree, uint64_t i, merkle_proof *p, char *err, size_t cap) {
    const fc_synth_sector *s = ctx;
    const sparse_tree *t = tree == 'D' ? &s->d : tree == 'C' ? &s->c : &s->r;
    int rc = sparse_tree_proof(p, t, i);
    if (rc != MERKLE_OK)
        return err_set(err, cap, "tree %c proof of %llu: %s", tree, (unsigned long long)i,
                       merkle_strerror(rc));
    return 0;
}

fc_seal_reader fc_synth_valid_reader(const fc_synth_sector *s) {
    fc_seal_reader r = {(void *)s, rd_label, rd_proof};
    return r;
}

int fc_synth_valid_commit1(c1_output **out, const fc_synth_sector *s, char *err, size_t cap) {
    fc_seal_reader r = fc_synth_valid_reader(s);
    return fc_seal_commit1_read(out, &s->hdr, &r, err, cap);
}

static int post_proof(void *ctx, uint64_t i, merkle_proof *out) {
    return sparse_tree_proof(out, &((const fc_synth_sector *)ctx)->r, i);
}

int fc_synth_valid_post(uint8_t **out, size_t *len, const fc_synth_sector *s,
                        const fc_post_proof *p, const uint8_t randomness[32], uint64_t slot,
                        char *err, size_t cap) {
    *out = NULL;
    *len = 0;
    if (!s->hdr.proof || p->shape != s->hdr.proof->shape)
        return err_set(err, cap, "%s: the invented sector is a %s sector", p->name,
                       s->hdr.proof ? s->hdr.proof->shape->size_name : "no");
    fc_post_sector ps;
    memset(&ps, 0, sizeof ps);
    memcpy(ps.comm_c, s->hdr.comm_c, 32);
    memcpy(ps.comm_r_last, s->hdr.comm_r_last, 32);
    memcpy(ps.comm_r, s->hdr.comm_r, 32);
    ps.sector_id = s->hdr.sector_number;
    ps.proof_fn = post_proof;
    ps.proof_ctx = (void *)s;
    return fc_post_vanilla_generate(out, len, p, &ps, randomness, slot, err, cap);
}

void fc_synth_sector_free(fc_synth_sector *s) {
    sparse_tree_free(&s->d);
    sparse_tree_free(&s->c);
    sparse_tree_free(&s->r);
    free(s->col_node);
    free(s->col_labels);
    free(s->col_data);
    memset(s, 0, sizeof *s);
}
