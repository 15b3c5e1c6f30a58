/* Pipeline: buffers A and B each hold one window of W chunks.  Workers fill
 * window i+1 into one buffer (par_run over its chunks) while a helper thread
 * hashes/writes window i from the other; then they swap.  The SHA-256 must see
 * the bytes in order, so hashing is the single sequential stage. */
#include "filecoin/sdr/parent_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/hash/sha256_native.h"
#include "util/err.h"
#include "util/hex.h"
#include "util/parallel.h"

enum { CHUNK_NODES = 1 << 14 }; /* 896 KiB of cache per task */
enum { WINDOW_MAX = 64 };       /* chunks per window: at most 56 MiB per buffer */

size_t fc_stacked_graph_identifier(char *out, size_t cap, uint64_t nodes) {
    int n = snprintf(out, cap,
                     "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
                     "drgraph::BucketGraph{size: %llu; degree: 6; hasher: poseidon_hasher} }",
                     (unsigned long long)nodes);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

size_t fc_parent_cache_key(char *out, size_t cap, const fc_graph *g) {
    char ident[256];
    size_t ilen = fc_stacked_graph_identifier(ident, sizeof ident, g->nodes);
    sha256_native_ctx *c = sha256_native_new();
    if (!ilen || !c) {
        sha256_native_free(c);
        return 0;
    }
    uint8_t buf[8], d[32];
    static const char hasher[] = "poseidon_hasher";
    sha256_native_update(c, hasher, sizeof hasher - 1);
    sha256_native_update(c, ident, ilen);
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 8; i++)
            buf[i] = (uint8_t)(g->feistel_keys[k] >> (8 * i));
        sha256_native_update(c, buf, 8);
    }
    uint32_t n = (uint32_t)g->nodes;
    for (int i = 0; i < 4; i++)
        buf[i] = (uint8_t)(n >> (8 * i));
    sha256_native_update(c, buf, 4);
    sha256_native_final(c, d);
    sha256_native_free(c);
    char hex[65];
    hex_encode(hex, d, 32);
    int len = snprintf(out, cap, "v28-sdr-parent-%s", hex);
    return len > 0 && (size_t)len < cap ? (size_t)len : 0;
}

typedef struct {
    const fc_graph *g;
    uint8_t *buf;        /* window buffer being filled */
    uint64_t first_node; /* node of the window's first entry */
} gen_ctx;

static void gen_chunk(void *vctx, size_t task, unsigned worker) {
    (void)worker;
    gen_ctx *c = vctx;
    uint64_t start = c->first_node + (uint64_t)task * CHUNK_NODES;
    uint64_t end = start + CHUNK_NODES;
    if (end > c->g->nodes)
        end = c->g->nodes;
    uint8_t *p = c->buf + (size_t)task * CHUNK_NODES * FC_PARENT_CACHE_ENTRY_BYTES;
    uint32_t par[FC_GRAPH_DEGREE];
    for (uint64_t v = start; v < end; v++) {
        fc_graph_parents(c->g, (uint32_t)v, par);
        for (int i = 0; i < FC_GRAPH_DEGREE; i++, p += 4) {
            p[0] = (uint8_t)par[i];
            p[1] = (uint8_t)(par[i] >> 8);
            p[2] = (uint8_t)(par[i] >> 16);
            p[3] = (uint8_t)(par[i] >> 24);
        }
    }
}

typedef struct {
    sha256_native_ctx *sha;
    FILE *out;
    const uint8_t *buf;
    size_t len;
    int write_failed;
} sink_ctx;

static void *sink_run(void *vctx) {
    sink_ctx *s = vctx;
    sha256_native_update(s->sha, s->buf, s->len);
    if (s->out && !s->write_failed && fwrite(s->buf, 1, s->len, s->out) != s->len)
        s->write_failed = 1;
    return NULL;
}

int fc_parent_cache_generate(uint8_t digest[32], const fc_graph *g, unsigned threads, FILE *out,
                             char *err, size_t errcap) {
    if (threads < 1)
        threads = 1;
    uint64_t total_chunks = (g->nodes + CHUNK_NODES - 1) / CHUNK_NODES;
    uint64_t window = (uint64_t)threads * 2;
    if (window > WINDOW_MAX)
        window = WINDOW_MAX;
    if (window > total_chunks)
        window = total_chunks;
    size_t wbytes = (size_t)window * CHUNK_NODES * FC_PARENT_CACHE_ENTRY_BYTES;
    uint8_t *bufs[2] = {malloc(wbytes), malloc(wbytes)};
    sink_ctx sink = {sha256_native_new(), out, NULL, 0, 0};
    if (!bufs[0] || !bufs[1] || !sink.sha) {
        free(bufs[0]);
        free(bufs[1]);
        sha256_native_free(sink.sha);
        return err_set(err, errcap, "parent cache: out of memory");
    }

    pthread_t sink_thread;
    int sink_running = 0, rc = 0;
    unsigned cur = 0;
    for (uint64_t w0 = 0; w0 < total_chunks; w0 += window) {
        uint64_t nchunks = total_chunks - w0 < window ? total_chunks - w0 : window;
        gen_ctx gc = {g, bufs[cur], w0 * CHUNK_NODES};
        par_run(threads, (size_t)nchunks, gen_chunk, &gc);
        if (sink_running) {
            pthread_join(sink_thread, NULL);
            sink_running = 0;
        }
        uint64_t end_node = (w0 + nchunks) * CHUNK_NODES;
        if (end_node > g->nodes)
            end_node = g->nodes;
        sink.buf = bufs[cur];
        sink.len = (size_t)(end_node - w0 * CHUNK_NODES) * FC_PARENT_CACHE_ENTRY_BYTES;
        if (pthread_create(&sink_thread, NULL, sink_run, &sink) == 0)
            sink_running = 1;
        else
            sink_run(&sink); /* no thread: hash inline, slower but the same bytes */
        cur ^= 1;
    }
    if (sink_running)
        pthread_join(sink_thread, NULL);
    sha256_native_final(sink.sha, digest);
    sha256_native_free(sink.sha);
    free(bufs[0]);
    free(bufs[1]);
    if (sink.write_failed || (out && fflush(out) != 0))
        rc = err_set(err, errcap, "parent cache: write failed");
    return rc;
}
