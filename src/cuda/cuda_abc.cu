// a, b, c on the GPU (cuda_abc.cuh): the device copy of a pce, the compact
// witness's expansion, and the SpMV.  The kernels mirror r1cs/pce_eval.c term
// for term (the same bit path and +-1 path), so the bytes are the CPU's.
#include <string.h>

#include "cuda/cuda_abc.cuh"

namespace {

__device__ __forceinline__ dfr ld_fr(const dfr *p) {
    const uint4 *q = (const uint4 *)p;
    uint4 a = q[0], b = q[1];
    dfr r;
    r.v[0] = a.x, r.v[1] = a.y, r.v[2] = a.z, r.v[3] = a.w;
    r.v[4] = b.x, r.v[5] = b.y, r.v[6] = b.z, r.v[7] = b.w;
    return r;
}
__device__ __forceinline__ void st_fr(dfr *p, const dfr &x) {
    uint4 *q = (uint4 *)p;
    q[0] = make_uint4(x.v[0], x.v[1], x.v[2], x.v[3]);
    q[1] = make_uint4(x.v[4], x.v[5], x.v[6], x.v[7]);
}

// aux[i] from the pack: a bit, or the dense value at its rank.
__global__ void k_expand(dfr *aux, const uint64_t *isbool, const uint64_t *isone,
                         const uint32_t *rank, const dfr *dense, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    size_t w = i >> 6;
    uint64_t bit = (uint64_t)1 << (i & 63), b = isbool[w];
    dfr x;
    if (b & bit) {
        if (isone[w] & bit)
            set_one(x);
        else
            f_zero(x);
    } else {
        uint64_t below = ~b & (bit - 1);
        x = ld_fr(dense + rank[w] + __popcll(below));
    }
    st_fr(aux + i, x);
}

// One row per thread, as pce_eval's row_eval.
template <class C>
__global__ void k_spmv(dfr *out, const uint32_t *row_ptr, const uint32_t *col, const C *coef,
                       const dfr *dict, const dfr *in, const dfr *aux, const uint64_t *isbool,
                       const uint64_t *isone, uint64_t rows) {
    uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    dfr acc, x, t;
    f_zero(acc);
    uint32_t k1 = row_ptr[r + 1];
    for (uint32_t k = row_ptr[r]; k < k1; k++) {
        const uint32_t v = col[k], d = coef[k];
        if (v & PCE_INPUT_TAG) {
            x = ld_fr(in + (v & ~PCE_INPUT_TAG));
        } else {
            const uint64_t bit = (uint64_t)1 << (v & 63);
            if (isbool[v >> 6] & bit) {
                if (!(isone[v >> 6] & bit))
                    continue;
                if (d > 1) { // the term is its coefficient
                    t = ld_fr(dict + d);
                    f_add(acc, acc, t);
                    continue;
                }
                set_one(x);
            } else {
                x = ld_fr(aux + v);
            }
        }
        if (d == 0) {
            f_add(acc, acc, x);
        } else if (d == 1) {
            f_sub(acc, acc, x);
        } else {
            t = ld_fr(dict + d);
            f_mul(t, t, x);
            f_add(acc, acc, t);
        }
    }
    st_fr(out + r, acc);
}

void entry_free(cz_pce_dev &e) {
    for (int m = 0; m < 3; m++) {
        cudaFree(e.row_ptr[m]);
        cudaFree(e.col[m]);
        cudaFree(e.coef[m]);
    }
    cudaFree(e.dict);
    memset(&e, 0, sizeof e);
}

bool same_shape(const cz_pce_dev &e, const r1cs_pce *p) {
    return e.key == p && e.rows == p->rows && e.dict_len == p->dict_len &&
           e.coef_width == p->coef_width && !memcmp(e.nnz, p->nnz, sizeof e.nnz);
}

cuda_status dev_copy(cuda_ctx *c, void **dst, const void *src, size_t bytes, size_t *total,
                     cuda_error *err) {
    cuda_status cs = cz_malloc(dst, bytes, "a circuit's matrices", err);
    if (cs)
        return cs;
    *total += bytes;
    return bytes ? cz_upload(c, *dst, src, bytes, err) : CUDA_OK;
}

cuda_status upload(cuda_ctx *c, cz_pce_dev &e, const r1cs_pce *p, cuda_error *err) {
    e.key = p;
    e.rows = p->rows;
    memcpy(e.nnz, p->nnz, sizeof e.nnz);
    e.dict_len = p->dict_len;
    e.coef_width = p->coef_width;
    cuda_status s = CUDA_OK;
    for (int m = 0; m < 3 && !s; m++) {
        size_t nnz = p->nnz[m];
        if (!(s = dev_copy(c, &e.row_ptr[m], p->row_ptr[m], (p->rows + 1) * 4, &e.bytes, err)) &&
            !(s = dev_copy(c, &e.col[m], p->col[m], nnz * 4, &e.bytes, err)))
            s = dev_copy(c, &e.coef[m], p->coef[m], nnz * p->coef_width, &e.bytes, err);
    }
    if (!s)
        s = dev_copy(c, &e.dict, p->dict, (size_t)p->dict_len * sizeof(fr), &e.bytes, err);
    return s;
}

unsigned evict_others(cz_pce_cache *cache, const r1cs_pce *keep) {
    unsigned n = 0;
    for (cz_pce_dev &e : cache->sets)
        if (e.key && e.key != keep) {
            entry_free(e);
            n++;
        }
    return n;
}

} // namespace

cuda_status cz_pce_get(cz_pce_cache *cache, cuda_ctx *c, const r1cs_pce *p, const cz_pce_dev **out,
                       cuda_error *err) {
    *out = nullptr;
    if (p->rows >= ((uint64_t)1 << 32) || p->coef_width < 2 || p->coef_width > 4 ||
        p->coef_width == 3)
        return cz_fail(err, CUDA_ERR_ARG,
                       "a pce of %llu rows, coefficient width %u: not for the "
                       "GPU",
                       (unsigned long long)p->rows, p->coef_width);
    cz_pce_dev *lru = nullptr, *slot = nullptr;
    for (cz_pce_dev &e : cache->sets) {
        if (e.key == p && same_shape(e, p)) {
            e.last_use = ++cache->clock;
            *out = &e;
            return CUDA_OK;
        }
        if (e.key == p) // the address now holds another recording
            entry_free(e);
        if (!e.key && !slot)
            slot = &e;
        if (e.key && (!lru || e.last_use < lru->last_use))
            lru = &e;
    }
    if (!slot) {
        entry_free(*lru);
        slot = lru;
    }
    cuda_status s = upload(c, *slot, p, err);
    if (s == CUDA_ERR_NO_MEMORY) {
        entry_free(*slot);
        if (evict_others(cache, p) > 0)
            s = upload(c, *slot, p, err);
    }
    if (s) {
        entry_free(*slot);
        return s;
    }
    slot->last_use = ++cache->clock;
    *out = slot;
    return CUDA_OK;
}

void cz_pce_forget(cz_pce_cache *cache, const r1cs_pce *p) {
    for (cz_pce_dev &e : cache->sets)
        if (e.key && (!p || e.key == p))
            entry_free(e);
}

size_t cz_pce_bytes(const cz_pce_cache *cache) {
    size_t n = 0;
    for (const cz_pce_dev &e : cache->sets)
        n += e.key ? e.bytes : 0;
    return n;
}

void cz_witness_release(cz_witness_dev &w) {
    cz_release(w.bits);
    cz_release(w.rank);
    cz_release(w.dense);
}

cuda_status cz_witness_upload_expand(cuda_ctx *c, cz_witness_dev &wd, const r1cs_witness_pack *w,
                                     cudaEvent_t done, dfr *aux, size_t *bytes, cuda_error *err) {
    size_t bb = 2 * w->words * sizeof(uint64_t), rb = (w->words + 1) * sizeof(uint32_t),
           db = w->n_dense * sizeof(fr);
    cuda_status s;
    if ((s = cz_reserve(wd.bits, bb + 8, err)) || (s = cz_reserve(wd.rank, rb, err)) ||
        (s = cz_reserve(wd.dense, db + sizeof(fr), err)) || (s = cz_copy_fence(c, err)))
        return s;
    // isbool and isone are one allocation in the pack (witness_pack.c)
    if ((s = cz_upload_async(c, wd.bits.p, w->isbool, bb, c->up[5], err)) ||
        (s = cz_upload_async(c, wd.rank.p, w->rank, rb, c->up[6], err)) ||
        (db && (s = cz_upload_async(c, wd.dense.p, w->dense, db, done, err))))
        return s;
    if (!db)
        cudaEventRecord(done, c->copy);
    *bytes = bb + rb + db;
    wd.words = w->words;
    cudaStreamWaitEvent(c->stream, done, 0);
    if (w->num_aux) {
        const uint64_t *isbool = (const uint64_t *)wd.bits.p;
        unsigned threads = 256;
        size_t blocks = (w->num_aux + threads - 1) / threads;
        k_expand<<<(unsigned)blocks, threads, 0, c->stream>>>(aux, isbool, isbool + w->words,
                                                              (const uint32_t *)wd.rank.p,
                                                              (const dfr *)wd.dense.p, w->num_aux);
        CZ_LAUNCHED("k_expand");
    }
    return CUDA_OK;
}

cuda_status cz_pce_spmv(cuda_ctx *c, const cz_pce_dev *d, int m, const dfr *in, const dfr *aux,
                        const cz_witness_dev &wd, dfr *out, cuda_error *err) {
    if (!d->rows)
        return CUDA_OK;
    const uint64_t *isbool = (const uint64_t *)wd.bits.p, *isone = isbool + wd.words;
    unsigned threads = 256;
    unsigned blocks = (unsigned)((d->rows + threads - 1) / threads);
    const uint32_t *rp = (const uint32_t *)d->row_ptr[m], *col = (const uint32_t *)d->col[m];
    const dfr *dict = (const dfr *)d->dict;
    if (d->coef_width == 2)
        k_spmv<uint16_t><<<blocks, threads, 0, c->stream>>>(
            out, rp, col, (const uint16_t *)d->coef[m], dict, in, aux, isbool, isone, d->rows);
    else
        k_spmv<uint32_t><<<blocks, threads, 0, c->stream>>>(
            out, rp, col, (const uint32_t *)d->coef[m], dict, in, aux, isbool, isone, d->rows);
    CZ_LAUNCHED("k_spmv");
    return CUDA_OK;
}
