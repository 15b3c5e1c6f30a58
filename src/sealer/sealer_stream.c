/* The streaming sealer: see sealer_stream.h.  Phases run one after the
 * other (tree D, parent cache, labels, tree C, encoding + tree R, Commit 1),
 * each using every thread it is given; the ledger's peak is the labelling. */
#include "sealer/sealer_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "field/fr.h"
#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/parent_cache.h"
#include "filecoin/prover_id.h"
#include "filecoin/porep/replica_id.h"
#include "sealer/seal_io.h"
#include "sealer/seal_labels.h"
#include "sealer/tree_stream.h"
#include "util/err.h"
#include "util/file_write.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Parent-cache generation holds two windows of up to 2 × threads chunks of 2^14 nodes. */
static uint64_t parent_gen_bytes(uint64_t nodes, unsigned threads) {
    uint64_t chunks = (nodes + (1u << 14) - 1) >> 14, w = 2 * (uint64_t)(threads ? threads : 1);
    if (w > 64)
        w = 64;
    if (w > chunks)
        w = chunks;
    return 2 * w * (1u << 14) * FC_PARENT_CACHE_ENTRY_BYTES;
}

uint64_t fc_seal_stream_min_budget(const fc_seal_proof *p, unsigned threads) {
    uint64_t a = fc_labels_stream_bytes(p->shape->nodes);
    uint64_t b = parent_gen_bytes(p->shape->nodes, threads);
    return a > b ? a : b;
}

typedef struct {
    const fc_sealed *s;
    fc_seal_mem mem;
    unsigned threads;
    const char *dir;
    int fd_unsealed, fd_sealed, fd_parents, fd_d, fd_c, fd_r;
    int fd_layer[FC_STREAM_MAX_LAYERS];
    tree_stream td, tc, tr;
    _Atomic uint64_t bad_node; /* the smallest non-Fr32 data node seen */
} stream_ctx;

static int open_in(stream_ctx *c, const char *name, int flags) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    return open(path, flags | O_CLOEXEC, 0644);
}

/* Tree D's leaves: the padded data, checked to be Fr32. */
static int leaf_d(void *ctx, uint64_t first, size_t n, uint8_t *out, uint8_t *scratch, char *err,
                  size_t cap) {
    (void)scratch;
    stream_ctx *c = ctx;
    if (fc_pread_full(c->fd_unsealed, out, n * 32, first * 32) != 0)
        return err_set(err, cap, "cannot read %s/unsealed at node %llu", c->dir,
                       (unsigned long long)first);
    for (size_t i = 0; i < n; i++)
        if (out[32 * i + 31] & 0xc0) {
            uint64_t v = first + i, b = atomic_load(&c->bad_node);
            while (v < b && !atomic_compare_exchange_weak(&c->bad_node, &b, v))
                ;
            return err_set(err, cap,
                           "data node %llu is not Fr32-padded (byte 31 has its top bits set)",
                           (unsigned long long)v);
        }
    return 0;
}

/* Tree C's leaves: Poseidon_L over each node's column, read from the layer files. */
static int leaf_c(void *ctx, uint64_t first, size_t n, uint8_t *out, uint8_t *scratch, char *err,
                  size_t cap) {
    stream_ctx *c = ctx;
    unsigned L = c->s->layers;
    for (unsigned l = 0; l < L; l++)
        if (fc_pread_full(c->fd_layer[l], scratch + (size_t)l * n * 32, n * 32, first * 32) != 0)
            return err_set(err, cap, "cannot read layer %u at node %llu", l + 1,
                           (unsigned long long)first);
    uint8_t col[FC_STREAM_MAX_LAYERS * 32];
    for (size_t i = 0; i < n; i++) {
        for (unsigned l = 0; l < L; l++)
            memcpy(col + 32 * l, scratch + ((size_t)l * n + i) * 32, 32);
        int rc = merkle_hash_node(out + 32 * i, TREE_HASH_POSEIDON, col, L);
        if (rc != MERKLE_OK)
            return err_set(err, cap, "column %llu: %s", (unsigned long long)(first + i),
                           merkle_strerror(rc));
    }
    return 0;
}

/* Tree R's leaves: replica(v) = label_L(v) + data(v) in Fr, also written to `sealed`. */
static int leaf_r(void *ctx, uint64_t first, size_t n, uint8_t *out, uint8_t *scratch, char *err,
                  size_t cap) {
    stream_ctx *c = ctx;
    if (fc_pread_full(c->fd_layer[c->s->layers - 1], scratch, n * 32, first * 32) != 0 ||
        fc_pread_full(c->fd_unsealed, out, n * 32, first * 32) != 0)
        return err_set(err, cap, "cannot read the last layer or the data at node %llu",
                       (unsigned long long)first);
    for (size_t i = 0; i < n; i++) {
        fr k, d, r;
        fr_from_bytes_le(&k, scratch + 32 * i);
        fr_from_bytes_le(&d, out + 32 * i);
        fr_add(&r, &k, &d);
        fr_to_bytes_le(out + 32 * i, &r);
    }
    if (fc_pwrite_full(c->fd_sealed, out, n * 32, first * 32) != 0)
        return err_set(err, cap, "cannot write %s/sealed", c->dir);
    return 0;
}

static int build(stream_ctx *c, tree_stream *t, const fc_seal_params *p, const fc_stream_opts *o,
                 tree_hasher h, unsigned first_row, int fd, tree_leaf_fn leaf, size_t scratch,
                 const char *name, char *err, size_t cap) {
    const fc_sector_shape *sh = p->proof->shape;
    unsigned base = h == TREE_HASH_SHA256 ? 2 : sh->arity_base;
    unsigned sub = h == TREE_HASH_SHA256 ? 0 : sh->arity_sub;
    unsigned top = h == TREE_HASH_SHA256 || !sub ? 0 : sh->arity_top;
    int rc = tree_stream_layout(t, h, base, sub, top, sh->nodes, first_row);
    if (rc != MERKLE_OK)
        return err_set(err, cap, "tree %s: %s", name, merkle_strerror(rc));
    if (ftruncate(fd, (off_t)t->file_bytes) != 0)
        return err_set(err, cap, "tree %s: cannot size its file: %s", name, strerror(errno));
    tree_stream_params tp = {fd, c->threads, o->max_chunk, leaf, c, scratch, &c->mem};
    char msg[400];
    if (tree_stream_build(t, &tp, msg, sizeof msg) != 0)
        return err_set(err, cap, "tree %s: %s", name, msg);
    return 0;
}

/* The parent cache: reused when a complete one is there, else generated
 * into a temporary name and renamed (so a present file is a whole one). */
static int parent_cache(stream_ctx *c, const fc_graph *g, const fc_stream_opts *o, char *err,
                        size_t cap) {
    char path[4096], key[128];
    if (o->parent_cache) {
        snprintf(path, sizeof path, "%s", o->parent_cache);
    } else {
        if (!fc_parent_cache_key(key, sizeof key, g))
            return err_set(err, cap, "cannot name the parent cache");
        snprintf(path, sizeof path, "%s/%s.cache", c->dir, key);
    }
    uint64_t want = g->nodes * FC_PARENT_CACHE_ENTRY_BYTES;
    struct stat st;
    if (stat(path, &st) != 0 || (uint64_t)st.st_size != want) {
        file_atomic f;
        if (file_atomic_open(&f, path, err, cap) != 0)
            return -1;
        uint64_t bytes = parent_gen_bytes(g->nodes, c->threads);
        if (fc_seal_mem_reserve(&c->mem, bytes) != 0) {
            file_atomic_abort(&f);
            return err_set(err, cap, "memory budget: generating the parent cache takes %llu bytes",
                           (unsigned long long)bytes);
        }
        uint8_t digest[32];
        char msg[256];
        int rc =
            fc_parent_cache_generate(digest, g, c->threads ? c->threads : 1, f.f, msg, sizeof msg);
        fc_seal_mem_release(&c->mem, bytes);
        if (rc != 0) {
            file_atomic_abort(&f);
            return err_set(err, cap, "cannot write the parent cache %s: %s", path, msg);
        }
        if (file_atomic_commit(&f, msg, sizeof msg) != 0)
            return err_set(err, cap, "parent cache: %s", msg);
    }
    c->fd_parents = open(path, O_RDONLY | O_CLOEXEC);
    if (c->fd_parents < 0)
        return err_set(err, cap, "cannot open %s: %s", path, strerror(errno));
    return 0;
}

static int file_label(void *ctx, unsigned layer, uint64_t node, uint8_t out[32], char *err,
                      size_t cap) {
    stream_ctx *c = ctx;
    if (layer < 1 || layer > c->s->layers || node >= c->s->nodes)
        return err_set(err, cap, "label (%u, %llu) out of range", layer, (unsigned long long)node);
    if (fc_pread_full(c->fd_layer[layer - 1], out, 32, node * 32) != 0)
        return err_set(err, cap, "cannot read layer %u", layer);
    return 0;
}

static int file_proof(void *ctx, char tree, uint64_t i, merkle_proof *p, char *err, size_t cap) {
    stream_ctx *c = ctx;
    int rc = tree == 'D'   ? tree_stream_proof(p, &c->td, c->fd_d, c->fd_unsealed, i)
             : tree == 'C' ? tree_stream_proof(p, &c->tc, c->fd_c, -1, i)
                           : tree_stream_proof(p, &c->tr, c->fd_r, c->fd_sealed, i);
    if (rc != MERKLE_OK)
        return err_set(err, cap, "tree %c proof of %llu: %s", tree, (unsigned long long)i,
                       rc < 0 ? "cannot read the tree file" : merkle_strerror(rc));
    return 0;
}

static void progress(const fc_seal_params *p, const char *stage, uint64_t done, uint64_t total) {
    if (p->progress)
        p->progress(p->progress_ctx, stage, done, total);
}

static int seal(stream_ctx *c, fc_stream_result *res, c1_output **c1, const fc_seal_params *p,
                const fc_stream_opts *o, char *err, size_t cap) {
    fc_sealed *s = &res->s;
    char name[32];
    c->fd_unsealed = open_in(c, "unsealed", O_RDONLY);
    struct stat st;
    if (c->fd_unsealed < 0 || fstat(c->fd_unsealed, &st) != 0)
        return err_set(err, cap, "cannot open %s/unsealed: %s", o->dir, strerror(errno));
    if ((uint64_t)st.st_size != s->nodes * 32)
        return err_set(err, cap, "%s/unsealed holds %llu bytes, a %s sector %llu", o->dir,
                       (unsigned long long)st.st_size, p->proof->shape->size_name,
                       (unsigned long long)(s->nodes * 32));
    const int wr = O_RDWR | O_CREAT | O_TRUNC;
    c->fd_sealed = open_in(c, "sealed", wr);
    c->fd_d = open_in(c, "tree-d", wr);
    c->fd_c = open_in(c, "tree-c", wr);
    c->fd_r = open_in(c, "tree-r-last", wr);
    int bad = c->fd_sealed < 0 || c->fd_d < 0 || c->fd_c < 0 || c->fd_r < 0;
    for (unsigned l = 0; l < s->layers && !bad; l++) {
        snprintf(name, sizeof name, "layer-%u", l + 1);
        bad = (c->fd_layer[l] = open_in(c, name, wr)) < 0;
    }
    if (bad)
        return err_set(err, cap, "cannot create the sector files in %s: %s", o->dir,
                       strerror(errno));

    /* PreCommit 1: tree D, replica_id, the parent cache, labels */
    double t0 = now_s();
    progress(p, "tree D", 0, 0);
    if (build(c, &c->td, p, o, TREE_HASH_SHA256, 1, c->fd_d, leaf_d, 0, "D", err, cap) != 0) {
        uint64_t b = atomic_load(&c->bad_node);
        if (b != UINT64_MAX)
            err_set(err, cap, "data node %llu is not Fr32-padded (byte 31 has its top bits set)",
                    (unsigned long long)b);
        return -1;
    }
    memcpy(s->comm_d, c->td.root, 32);
    uint8_t prover[32], porep_id[32];
    fc_prover_id(prover, p->miner_id);
    fc_porep_id(porep_id, p->proof);
    fc_replica_id(s->replica_id, prover, p->sector_number, p->ticket, s->comm_d, porep_id);
    double t1 = now_s();
    res->t_tree_d = t1 - t0;
    progress(p, "parent cache", 0, 0);
    fc_graph g;
    if (fc_graph_init_proof(&g, p->proof) != 0)
        return err_set(err, cap, "cannot build the graph of %s", p->proof->name);
    int rc = parent_cache(c, &g, o, err, cap);
    fc_graph_free(&g);
    if (rc != 0)
        return -1;
    double t2 = now_s();
    res->t_parents = t2 - t1;
    fc_labels_stream_params lp = {s->nodes,      s->layers,       s->replica_id,
                                  c->fd_parents, c->fd_layer,     &c->mem,
                                  p->progress,   p->progress_ctx, res->t_layer};
    if (fc_labels_stream(&lp, err, cap) != 0)
        return -1;

    /* PreCommit 2: tree C over the columns, the replica and tree R */
    double t3 = now_s();
    progress(p, "tree C", 0, 0);
    if (build(c, &c->tc, p, o, TREE_HASH_POSEIDON, 0, c->fd_c, leaf_c, 32 * (size_t)s->layers, "C",
              err, cap) != 0)
        return -1;
    memcpy(s->comm_c, c->tc.root, 32);
    double t4 = now_s();
    res->t_tree_c = t4 - t3;
    progress(p, "encoding and tree R", 0, 0);
    if (ftruncate(c->fd_sealed, (off_t)(s->nodes * 32)) != 0)
        return err_set(err, cap, "cannot size %s/sealed: %s", o->dir, strerror(errno));
    if (build(c, &c->tr, p, o, TREE_HASH_POSEIDON, 1, c->fd_r, leaf_r, 32, "R", err, cap) != 0)
        return -1;
    memcpy(s->comm_r_last, c->tr.root, 32);
    uint8_t pair[64];
    memcpy(pair, s->comm_c, 32);
    memcpy(pair + 32, s->comm_r_last, 32);
    if (merkle_hash_node(s->comm_r, TREE_HASH_POSEIDON, pair, 2) != MERKLE_OK)
        return err_set(err, cap, "comm_r: hash failed");
    double t5 = now_s();
    res->t_tree_r = t5 - t4;

    /* Commit 1 from the files */
    progress(p, "commit phase 1", 0, 0);
    fc_seal_reader r = {c, file_label, file_proof};
    rc = fc_seal_commit1_read(c1, s, &r, err, cap);
    res->t_c1 = now_s() - t5;
    return rc;
}

int fc_seal_stream(fc_stream_result *res, c1_output **c1, const fc_seal_params *p,
                   const fc_stream_opts *o, char *err, size_t cap) {
    memset(res, 0, sizeof *res);
    *c1 = NULL;
    const fc_sector_shape *sh = p->proof->shape;
    fc_sealed *s = &res->s;
    s->proof = p->proof;
    s->nodes = sh->nodes;
    s->layers = sh->layers;
    s->miner_id = p->miner_id;
    s->sector_number = p->sector_number;
    memcpy(s->ticket, p->ticket, 32);
    memcpy(s->seed, p->seed, 32);
    if (s->layers < 1 || s->layers > FC_STREAM_MAX_LAYERS)
        return err_set(err, cap, "%u layers: more than 11", s->layers);
    uint64_t min = fc_seal_stream_min_budget(p->proof, p->threads);
    res->mem_budget = o->mem_budget ? o->mem_budget : min + (64u << 20);
    if (res->mem_budget < min)
        return err_set(err, cap,
                       "memory budget %llu bytes is below the %llu a %s seal needs (two layers of "
                       "%llu bytes, the labelling ring, the parent-cache generation windows)",
                       (unsigned long long)res->mem_budget, (unsigned long long)min, sh->size_name,
                       (unsigned long long)(s->nodes * 32));
    stream_ctx c = {.s = s, .threads = p->threads ? p->threads : 1, .dir = o->dir};
    fc_seal_mem_init(&c.mem, res->mem_budget);
    atomic_store(&c.bad_node, UINT64_MAX);
    c.fd_unsealed = c.fd_sealed = c.fd_parents = c.fd_d = c.fd_c = c.fd_r = -1;
    for (unsigned l = 0; l < FC_STREAM_MAX_LAYERS; l++)
        c.fd_layer[l] = -1;
    int rc = seal(&c, res, c1, p, o, err, cap);
    res->mem_peak = atomic_load(&c.mem.peak);
    int fds[] = {c.fd_unsealed, c.fd_sealed, c.fd_parents, c.fd_d, c.fd_c, c.fd_r};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    for (unsigned l = 0; l < FC_STREAM_MAX_LAYERS; l++)
        if (c.fd_layer[l] >= 0)
            close(c.fd_layer[l]);
    if (rc != 0) {
        c1_output_free(*c1);
        *c1 = NULL;
    }
    return rc;
}
