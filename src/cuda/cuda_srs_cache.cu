// Parameter sets resident on the device, LRU (see cuda_srs_cache.cuh).
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_srs_cache.cuh"

extern "C" {
#include "util/switches.h"
}

namespace {

unsigned max_sets() {
    long n = switch_get(SW_GPU_SRS_SETS); // CUZK_GPU_SRS_SETS, 1..16
    return n < 1 ? 1 : n > (long)CZ_SRS_MAX_SETS ? CZ_SRS_MAX_SETS : (unsigned)n;
}

void entry_free(cz_srs_entry &e) {
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

cz_srs_entry *find(cz_srs_cache *cache, const groth16_params_data *srs) {
    const void *ptrs[5];
    size_t counts[5];
    describe(srs, ptrs, counts);
    for (cz_srs_entry &e : cache->sets) {
        if (e.key != srs)
            continue;
        if (!memcmp(e.ptrs, ptrs, sizeof ptrs) && !memcmp(e.counts, counts, sizeof counts))
            return &e;
        entry_free(e); // the same struct now holds another set: the old copy is stale
    }
    return nullptr;
}

// A free slot among the first `limit`, or the least recently used one emptied.
cz_srs_entry *slot(cz_srs_cache *cache, unsigned limit) {
    cz_srs_entry *lru = nullptr;
    for (unsigned i = 0; i < limit; i++) {
        cz_srs_entry &e = cache->sets[i];
        if (!e.key)
            return &e;
        if (!lru || e.last_use < lru->last_use)
            lru = &e;
    }
    if (lru)
        entry_free(*lru);
    return lru;
}

cuda_status upload(cuda_ctx *c, cz_srs_entry *e, const groth16_params_data *srs, int need_g2,
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

cuda_status cz_srs_get(cz_srs_cache *cache, cuda_ctx *c, const groth16_params_data *srs,
                       int need_g2, const cz_srs **out, cuda_error *err) {
    unsigned limit = max_sets();
    for (unsigned i = limit; i < CZ_SRS_MAX_SETS; i++) // the limit may have shrunk
        if (cache->sets[i].key)
            entry_free(cache->sets[i]);
    cz_srs_entry *e = find(cache, srs);
    if (!e) {
        e = slot(cache, limit);
        e->key = srs;
        describe(srs, e->ptrs, e->counts);
    }
    e->last_use = ++cache->clock;
    cuda_status s = upload(c, e, srs, need_g2, err);
    if (s == CUDA_ERR_NO_MEMORY && cz_srs_evict_others(cache, srs) > 0)
        s = upload(c, e, srs, need_g2, err);
    if (s) { // partial uploads are not kept
        entry_free(*e);
        return s;
    }
    *out = &e->b;
    return CUDA_OK;
}

void cz_srs_forget(cz_srs_cache *cache, const groth16_params_data *srs) {
    for (cz_srs_entry &e : cache->sets)
        if (e.key == srs)
            entry_free(e);
}

unsigned cz_srs_evict_others(cz_srs_cache *cache, const groth16_params_data *keep) {
    unsigned n = 0;
    for (cz_srs_entry &e : cache->sets)
        if (e.key && e.key != keep) {
            entry_free(e);
            n++;
        }
    return n;
}

unsigned cz_srs_count(const cz_srs_cache *cache) {
    unsigned n = 0;
    for (const cz_srs_entry &e : cache->sets)
        n += e.key != nullptr;
    return n;
}
