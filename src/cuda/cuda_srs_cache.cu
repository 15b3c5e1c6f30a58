// Parameter sets resident on the device, LRU (see cuda_srs_cache.cuh).
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_srs_cache.cuh"

extern "C" {
#include "util/switches.h"
}

namespace {

constexpr unsigned kMaxSets = 16;

// A set is known by its address and its five base arrays (address + count):
// the engine's SRS manager frees a set only when no proof uses it, and a new
// set at the same addresses with the same counts would be a reload of the same
// file, but the arrays are compared too so that a reused address is not enough.
struct entry {
    const groth16_params_data *key;
    const void *ptrs[5];
    size_t counts[5];
    cz_srs b;
    unsigned long long last_use;
};

entry g_sets[kMaxSets];
unsigned long long g_clock;

unsigned max_sets() {
    long n = switch_get(SW_GPU_SRS_SETS); // CUZK_GPU_SRS_SETS, 1..16
    return n < 1 ? 1 : n > (long)kMaxSets ? kMaxSets : (unsigned)n;
}

void entry_free(entry &e) {
    cuda_bases_free(e.b.h);
    cuda_bases_free(e.b.l);
    cuda_bases_free(e.b.a);
    cuda_bases_free(e.b.b1);
    cuda_bases_free(e.b.b2);
    memset(&e, 0, sizeof e);
}

void describe(const groth16_params_data *srs, const void *ptrs[5], size_t counts[5]) {
    const void *p[5] = {srs->h, srs->l, srs->a, srs->b_g1, srs->b_g2};
    size_t n[5] = {srs->n_h, srs->n_l, srs->n_a, srs->n_b, srs->n_b};
    memcpy(ptrs, p, sizeof p);
    memcpy(counts, n, sizeof n);
}

entry *find(const groth16_params_data *srs) {
    const void *ptrs[5];
    size_t counts[5];
    describe(srs, ptrs, counts);
    for (entry &e : g_sets) {
        if (e.key != srs)
            continue;
        if (!memcmp(e.ptrs, ptrs, sizeof ptrs) && !memcmp(e.counts, counts, sizeof counts))
            return &e;
        entry_free(e); // the same struct now holds another set: the old copy is stale
    }
    return nullptr;
}

// A free slot among the first `limit`, or the least recently used one emptied.
entry *slot(unsigned limit) {
    entry *lru = nullptr;
    for (unsigned i = 0; i < limit; i++) {
        if (!g_sets[i].key)
            return &g_sets[i];
        if (!lru || g_sets[i].last_use < lru->last_use)
            lru = &g_sets[i];
    }
    if (lru)
        entry_free(*lru);
    return lru;
}

cuda_status upload(cuda_ctx *c, entry *e, const groth16_params_data *srs, int need_g2,
                   cuda_error *err) {
    cuda_status s = CUDA_OK;
    if (!e->b.h && (s = cuda_bases_upload_g1(c, &e->b.h, srs->h, srs->n_h, err)))
        return s;
    if (!e->b.l && (s = cuda_bases_upload_g1(c, &e->b.l, srs->l, srs->n_l, err)))
        return s;
    if (!e->b.a && (s = cuda_bases_upload_g1(c, &e->b.a, srs->a, srs->n_a, err)))
        return s;
    if (!e->b.b1 && (s = cuda_bases_upload_g1(c, &e->b.b1, srs->b_g1, srs->n_b, err)))
        return s;
    if (need_g2 && !e->b.b2 && (s = cuda_bases_upload_g2(c, &e->b.b2, srs->b_g2, srs->n_b, err)))
        return s;
    return CUDA_OK;
}

} // namespace

cuda_status cz_srs_get(cuda_ctx *c, const groth16_params_data *srs, int need_g2, const cz_srs **out,
                       cuda_error *err) {
    unsigned limit = max_sets();
    for (unsigned i = limit; i < kMaxSets; i++) // the limit may have shrunk
        if (g_sets[i].key)
            entry_free(g_sets[i]);
    entry *e = find(srs);
    if (!e) {
        e = slot(limit);
        e->key = srs;
        describe(srs, e->ptrs, e->counts);
    }
    e->last_use = ++g_clock;
    cuda_status s = upload(c, e, srs, need_g2, err);
    if (s == CUDA_ERR_NO_MEMORY && cz_srs_evict_others(srs) > 0)
        s = upload(c, e, srs, need_g2, err);
    if (s) { // partial uploads are not kept
        entry_free(*e);
        return s;
    }
    *out = &e->b;
    return CUDA_OK;
}

void cz_srs_forget(const groth16_params_data *srs) {
    for (entry &e : g_sets)
        if (e.key == srs)
            entry_free(e);
}

unsigned cz_srs_evict_others(const groth16_params_data *keep) {
    unsigned n = 0;
    for (entry &e : g_sets)
        if (e.key && e.key != keep) {
            entry_free(e);
            n++;
        }
    return n;
}

unsigned cz_srs_count(void) {
    unsigned n = 0;
    for (const entry &e : g_sets)
        n += e.key != nullptr;
    return n;
}
