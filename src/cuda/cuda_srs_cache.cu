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

void describe(const groth16_params_data *srs, const void *ptrs[6], size_t counts[5]) {
    const void *p[6] = {srs->h, srs->l, srs->a, srs->b_g1, srs->b_g2, srs->file};
    size_t n[5] = {srs->n_h, srs->n_l, srs->n_a, srs->n_b, srs->n_b};
    memcpy(ptrs, p, sizeof p);
    memcpy(counts, n, sizeof n);
}

cz_srs_entry *find(cz_srs_cache *cache, const groth16_params_data *srs) {
    const void *ptrs[6];
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

// A section of a file-backed set (params.h): decoded on the host a chunk at a
// time and copied up, so that the host never holds the set.  A bad point is
// the file's fault, not the device's (CUDA_ERR_ARG).
cuda_status upload_file(cuda_ctx *c, cuda_bases **out, const groth16_params_data *srs,
                        groth16_section sec, size_t n, unsigned threads, cuda_error *err) {
    int g2 = sec == GROTH16_SEC_B_G2;
    size_t chunk = groth16_params_data_chunk(srs),
           size = g2 ? sizeof(g2_affine) : sizeof(g1_affine);
    chunk = chunk < n ? chunk : n ? n : 1;
    void *buf = malloc(chunk * size);
    if (!buf)
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory for a chunk of %s",
                       groth16_section_name(sec));
    cuda_status s = cz_bases_alloc(c, out, n, g2, err);
    for (size_t at = 0; !s && at < n; at += chunk) {
        size_t k = n - at < chunk ? n - at : chunk;
        groth16_error ge = {GROTH16_OK, ""};
        const void *pts =
            g2 ? (const void *)groth16_params_data_g2(srs, at, k, (g2_affine *)buf, threads, &ge)
               : (const void *)groth16_params_data_g1(srs, sec, at, k, (g1_affine *)buf, threads,
                                                      &ge);
        s = pts ? cz_bases_write(*out, at, pts, k, err) : cz_fail(err, CUDA_ERR_ARG, "%s", ge.msg);
    }
    free(buf);
    if (s) {
        cuda_bases_free(*out);
        *out = nullptr;
    }
    return s;
}

cuda_status section(cuda_ctx *c, cuda_bases **out, const groth16_params_data *srs,
                    groth16_section sec, const void *host, size_t n, unsigned threads,
                    cuda_error *err) {
    if (*out)
        return CUDA_OK;
    if (!host)
        return upload_file(c, out, srs, sec, n, threads, err);
    return sec == GROTH16_SEC_B_G2 ? cuda_bases_upload_g2(c, out, (const g2_affine *)host, n, err)
                                   : cuda_bases_upload_g1(c, out, (const g1_affine *)host, n, err);
}

cuda_status upload(cuda_ctx *c, cz_srs_entry *e, const groth16_params_data *srs, unsigned threads,
                   cuda_error *err) {
    cuda_status s;
    if ((s = section(c, &e->b.h, srs, GROTH16_SEC_H, srs->h, srs->n_h, threads, err)) ||
        (s = section(c, &e->b.l, srs, GROTH16_SEC_L, srs->l, srs->n_l, threads, err)) ||
        (s = section(c, &e->b.a, srs, GROTH16_SEC_A, srs->a, srs->n_a, threads, err)) ||
        (s = section(c, &e->b.b1, srs, GROTH16_SEC_B_G1, srs->b_g1, srs->n_b, threads, err)))
        return s;
    return section(c, &e->b.b2, srs, GROTH16_SEC_B_G2, srs->b_g2, srs->n_b, threads, err);
}

} // namespace

cuda_status cz_srs_get(cz_srs_cache *cache, cuda_ctx *c, const groth16_params_data *srs,
                       unsigned threads, const cz_srs **out, cuda_error *err) {
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
    cuda_status s = upload(c, e, srs, threads, err);
    if (s == CUDA_ERR_NO_MEMORY && cz_srs_evict_others(cache, srs) > 0)
        s = upload(c, e, srs, threads, err);
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
