/* Streaming SDR labelling: see seal_labels.h.  The producer (a helper
 * thread) fills ring slot k % SLOTS with chunk k's parents and gathered
 * expander labels; the consumer (the calling thread) hashes chunk k.  They
 * meet through `produced` / `consumed` under one mutex; a chunk is a few
 * hundred KiB, so the handshake is rare next to the hashing. */
#include "sealer/seal_labels.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "filecoin/sdr/graph.h"
#include "filecoin/sdr/label.h"
#include "sealer/seal_io.h"
#include "filecoin/hash/sha256_native.h"

enum { CHUNK = 2048, SLOTS = 4 };

/* Nodes a ring slot holds: CHUNK, or the whole layer of a smaller sector. */
static uint64_t chunk_nodes(uint64_t nodes) { return nodes < CHUNK ? nodes : CHUNK; }
static size_t slot_bytes(uint64_t nodes) {
    return (size_t)chunk_nodes(nodes) * (FC_GRAPH_DEGREE * 4 + FC_EXP_DEGREE * 32);
}

typedef struct {
    const fc_labels_stream_params *p;
    uint32_t layer;
    const uint8_t *prev; /* layer - 1 (layer > 1) */
    uint8_t *ring;       /* SLOTS slots: ch × 14 parents, then ch × 8 expander labels */
    uint64_t ch, chunks, produced, consumed;
    sha256_native_ctx *sha; /* the hashing thread's, reused for every label */
    int failed, stop;
    pthread_mutex_t lock;
    pthread_cond_t cond;
} ring_ctx;

uint64_t fc_labels_stream_bytes(uint64_t nodes) {
    return 2 * nodes * 32 + (uint64_t)SLOTS * slot_bytes(nodes);
}

static uint32_t *slot_parents(ring_ctx *r, uint64_t k) {
    return (uint32_t *)(void *)(r->ring + (k % SLOTS) * slot_bytes(r->p->nodes));
}
static uint8_t *slot_exp(ring_ctx *r, uint64_t k) {
    return r->ring + (k % SLOTS) * slot_bytes(r->p->nodes) + r->ch * FC_GRAPH_DEGREE * 4;
}

/* Chunk k's parents (from the cache, u32 LE) and expander labels.  0 or -1. */
static int produce(ring_ctx *r, uint64_t k) {
    const fc_labels_stream_params *p = r->p;
    uint64_t first = k * r->ch, n = p->nodes - first < r->ch ? p->nodes - first : r->ch;
    uint32_t *par = slot_parents(r, k);
    uint8_t *raw = (uint8_t *)par;
    if (fc_pread_full(p->parents_fd, raw, (size_t)n * FC_GRAPH_DEGREE * 4,
                      first * FC_GRAPH_DEGREE * 4) != 0)
        return -1;
    for (size_t i = 0; i < n * FC_GRAPH_DEGREE; i++) {
        const uint8_t *b = raw + 4 * i; /* in place: entry i only reads its own 4 bytes */
        par[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        if (par[i] >= p->nodes)
            return -1;
    }
    if (r->layer > 1) {
        uint8_t *e = slot_exp(r, k);
        for (uint64_t i = 0; i < n; i++)
            for (unsigned j = 0; j < FC_EXP_DEGREE; j++, e += 32)
                memcpy(e, r->prev + (size_t)par[i * FC_GRAPH_DEGREE + FC_DRG_DEGREE + j] * 32, 32);
    }
    return 0;
}

static void *producer(void *vctx) {
    ring_ctx *r = vctx;
    for (uint64_t k = 0; k < r->chunks; k++) {
        pthread_mutex_lock(&r->lock);
        while (k - r->consumed >= SLOTS && !r->stop)
            pthread_cond_wait(&r->cond, &r->lock);
        int stop = r->stop;
        pthread_mutex_unlock(&r->lock);
        if (stop)
            break;
        int bad = produce(r, k);
        pthread_mutex_lock(&r->lock);
        if (bad)
            r->failed = 1;
        else
            r->produced = k + 1;
        pthread_cond_broadcast(&r->cond);
        pthread_mutex_unlock(&r->lock);
        if (bad)
            break;
    }
    return NULL;
}

/* Hashes chunk k of layer r->layer into cur. */
static void consume(ring_ctx *r, uint64_t k, uint8_t *cur, uint8_t *msg, sha256_native_ctx *sha) {
    const fc_labels_stream_params *p = r->p;
    uint64_t first = k * r->ch, n = p->nodes - first < r->ch ? p->nodes - first : r->ch;
    const uint32_t *par = slot_parents(r, k);
    const uint8_t *exp = slot_exp(r, k);
    uint8_t *m = msg + 64;
    for (uint64_t i = 0; i < n; i++, par += FC_GRAPH_DEGREE, exp += FC_EXP_DEGREE * 32) {
        uint64_t v = first + i;
        for (int b = 0; b < 8; b++)
            msg[36 + b] = (uint8_t)(v >> (56 - 8 * b));
        uint8_t *out = cur + v * 32;
        size_t len = 64;
        if (v > 0) {
            for (unsigned j = 0; j < FC_DRG_DEGREE; j++)
                memcpy(m + 32 * j, cur + (size_t)par[j] * 32, 32);
            if (r->layer == 1) {
                for (unsigned j = FC_DRG_DEGREE; j < FC_LABEL_PARENTS; j++)
                    memcpy(m + 32 * j, m + 32 * (j % FC_DRG_DEGREE), 32);
            } else {
                const size_t base = 32 * FC_GRAPH_DEGREE; /* the 14 parents once */
                memcpy(m + 32 * FC_DRG_DEGREE, exp, 32 * FC_EXP_DEGREE);
                memcpy(m + base, m, base);
                memcpy(m + 2 * base, m, 32 * (FC_LABEL_PARENTS - 2 * FC_GRAPH_DEGREE));
            }
            len += 32 * FC_LABEL_PARENTS;
        }
        sha256_native_init(sha);
        sha256_native_update(sha, msg, len);
        sha256_native_final(sha, out);
        out[31] &= 0x3f;
    }
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One layer: the producer thread (or inline when none can start) and the hashing loop. */
static int label_layer(ring_ctx *r, uint8_t *cur, uint64_t *done, uint64_t total) {
    const fc_labels_stream_params *p = r->p;
    uint8_t msg[64 + 32 * FC_LABEL_PARENTS];
    memcpy(msg, p->replica_id, 32);
    memset(msg + 32, 0, 32);
    for (int i = 0; i < 4; i++)
        msg[32 + i] = (uint8_t)(r->layer >> (24 - 8 * i));
    r->produced = r->consumed = 0;
    r->failed = r->stop = 0;
    pthread_t th;
    int threaded = pthread_create(&th, NULL, producer, r) == 0;
    uint64_t step = total / 64 + 1;
    int bad = 0;
    for (uint64_t k = 0; k < r->chunks && !bad; k++) {
        if (threaded) {
            pthread_mutex_lock(&r->lock);
            while (r->produced <= k && !r->failed)
                pthread_cond_wait(&r->cond, &r->lock);
            bad = r->failed;
            pthread_mutex_unlock(&r->lock);
        } else {
            bad = produce(r, k);
        }
        if (bad)
            break;
        consume(r, k, cur, msg, r->sha);
        uint64_t n = p->nodes - k * r->ch < r->ch ? p->nodes - k * r->ch : r->ch;
        if (p->progress && (*done + n) / step != *done / step)
            p->progress(p->progress_ctx, "labels", *done + n, total);
        *done += n;
        if (threaded) {
            pthread_mutex_lock(&r->lock);
            r->consumed = k + 1;
            pthread_cond_broadcast(&r->cond);
            pthread_mutex_unlock(&r->lock);
        }
    }
    if (threaded) {
        pthread_mutex_lock(&r->lock);
        r->stop = 1;
        pthread_cond_broadcast(&r->cond);
        pthread_mutex_unlock(&r->lock);
        pthread_join(th, NULL);
    }
    return bad ? -1 : 0;
}

int fc_labels_stream(const fc_labels_stream_params *p, char *err, size_t cap) {
    size_t layer_bytes = (size_t)p->nodes * 32, ring_bytes = SLOTS * slot_bytes(p->nodes);
    uint8_t *cur = fc_seal_mem_alloc(p->mem, layer_bytes);
    uint8_t *prev = fc_seal_mem_alloc(p->mem, layer_bytes);
    uint8_t *ring = fc_seal_mem_alloc(p->mem, ring_bytes);
    int rc = -1;
    if (!cur || !prev || !ring) {
        snprintf(err, cap,
                 "memory budget: labelling holds two layers and its ring (%llu bytes); the "
                 "budget is %llu with %llu in use",
                 (unsigned long long)fc_labels_stream_bytes(p->nodes),
                 (unsigned long long)p->mem->budget,
                 (unsigned long long)(p->mem->budget - fc_seal_mem_left(p->mem)));
        goto out;
    }
    uint64_t ch = chunk_nodes(p->nodes);
    ring_ctx r = {.p = p, .ring = ring, .ch = ch, .chunks = (p->nodes + ch - 1) / ch};
    r.sha = sha256_native_new();
    if (!r.sha) {
        snprintf(err, cap, "out of memory");
        rc = -1;
        goto out;
    }
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.cond, NULL);
    uint64_t done = 0, total = p->nodes * p->layers;
    rc = 0;
    for (uint32_t l = 1; l <= p->layers && rc == 0; l++) {
        double t0 = now_s();
        r.layer = l;
        r.prev = prev;
        if (label_layer(&r, cur, &done, total) != 0) {
            snprintf(err, cap, "layer %u: cannot read the parent cache (short or bad file)", l);
            rc = -1;
        } else if (fc_pwrite_full(p->layer_fds[l - 1], cur, layer_bytes, 0) != 0) {
            snprintf(err, cap, "layer %u: cannot write the layer file", l);
            rc = -1;
        }
        uint8_t *t = prev;
        prev = cur;
        cur = t;
        if (p->layer_seconds)
            p->layer_seconds[l - 1] = now_s() - t0;
    }
    pthread_mutex_destroy(&r.lock);
    pthread_cond_destroy(&r.cond);
    sha256_native_free(r.sha);
out:
    fc_seal_mem_free(p->mem, cur, layer_bytes);
    fc_seal_mem_free(p->mem, prev, layer_bytes);
    fc_seal_mem_free(p->mem, ring, ring_bytes);
    return rc;
}
