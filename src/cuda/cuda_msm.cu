// Multi-scalar multiplication on the GPU (G1 and G2), Pippenger with signed
// digits, all on the device:
//   1. classify: scalars to canonical form (from Montgomery, or checked < r);
//      density bitmaps map scalar i to its base by rank; zeros are dropped,
//      ones listed apart (bit_fast_path), the rest listed for Pippenger.
//   2. digits: each listed scalar gives W = ceil(256 / c) signed c-bit digits
//      d in (-2^(c-1), 2^(c-1)]; entry key = window << (c-1) | (|d| - 1),
//      value = base index | sign << 31; zero digits get a key past all buckets.
//   3. one CUB radix sort of the entries by key.
//   4. accumulation by segments (msm_accumulate.cuh).
//   5. bucket reduction, the CPU's final combination (msm_reduce.cuh).
// Steps 1-3 are here, 4-5 in one file per field type (msm.cuh says why);
// buckets and sums are XYZZ (curve.cuh).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <new>
#include <stdlib.h>
#include <string.h>

#include "cuda/msm.cuh"

extern "C" {
#include "curve/g1.h"
#include "curve/g2.h"
}

// ---- 1. classify -------------------------------------------------------------

__global__ void k_popc(const uint64_t *w, uint32_t *out, size_t words) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < words)
        out[i] = (uint32_t)__popcll(w[i]);
}

// Appends v to list at a warp-aggregated slot of *count.
static __device__ __forceinline__ void append(bool want, uint32_t *count, uint32_t *list,
                                              uint32_t v, uint32_t *list2, uint32_t v2) {
    unsigned mask = __ballot_sync(0xffffffffu, want);
    if (!mask)
        return;
    int lane = threadIdx.x & 31, leader = __ffs(mask) - 1;
    uint32_t base = 0;
    if (lane == leader)
        base = atomicAdd(count, (uint32_t)__popc(mask));
    base = __shfl_sync(0xffffffffu, base, leader);
    if (want) {
        uint32_t slot = base + (uint32_t)__popc(mask & ((1u << lane) - 1));
        list[slot] = v;
        if (list2)
            list2[slot] = v2;
    }
}

// counts[0] = ones, counts[1] = others; bad = lowest non-canonical index.
__global__ void k_classify(const dfr *in, dfr *canon, size_t n, int mont, const uint64_t *dens,
                           const uint32_t *dens_prefix, int fast, uint32_t *counts, uint32_t *ones,
                           uint32_t *oth_s, uint32_t *oth_b, unsigned long long *bad) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    bool live = i < n;
    int cls = 0;
    uint32_t bi = (uint32_t)i;
    if (live) {
        bool present = true;
        if (dens) {
            uint64_t w = dens[i >> 6];
            unsigned bit = (unsigned)(i & 63);
            present = (w >> bit) & 1;
            bi = dens_prefix[i >> 6] + (uint32_t)__popcll(w & ((1ull << bit) - 1));
        }
        if (present) {
            dfr s = x_ld(in + i);
            if (mont) {
                f_from_mont(s, s);
            } else if (!f_is_canonical(s)) {
                atomicMin(bad, (unsigned long long)i);
                present = false;
            }
            if (present) {
                stv(canon + i, s);
                uint32_t hi = 0;
#pragma unroll
                for (int k = 1; k < 8; k++)
                    hi |= s.v[k];
                if (hi == 0 && s.v[0] == 0)
                    cls = 0;
                else if (fast && hi == 0 && s.v[0] == 1)
                    cls = 1;
                else
                    cls = 2;
            }
        }
    }
    append(cls == 1, counts, ones, bi, nullptr, 0);
    append(cls == 2, counts + 1, oth_s, (uint32_t)i, oth_b, bi);
}

// ---- 2. digits -----------------------------------------------------------------

__global__ void k_digits(const dfr *canon, const uint32_t *oth_s, const uint32_t *oth_b, uint32_t m,
                         unsigned c, unsigned windows, uint32_t *keys, uint32_t *vals) {
    uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m)
        return;
    dfr s = x_ld(canon + oth_s[j]);
    uint32_t b = oth_b[j];
    uint32_t half = 1u << (c - 1), mask = (1u << c) - 1, carry = 0;
    uint32_t none = windows << (c - 1);
    for (unsigned w = 0; w < windows; w++) {
        unsigned off = w * c, limb = off >> 5, sh = off & 31;
        uint64_t two = s.v[limb];
        if (limb + 1 < 8)
            two |= (uint64_t)s.v[limb + 1] << 32;
        uint32_t d = (uint32_t)(two >> sh) & mask;
        d += carry;
        uint32_t key, val;
        if (d > half) {
            uint32_t neg = (1u << c) - d; // digit d - 2^c <= 0
            carry = 1;
            // d = 2^c (all ones plus a carry) is the digit 0 with a carry out
            key = neg ? ((w << (c - 1)) | (neg - 1)) : none;
            val = b | 0x80000000u;
        } else {
            carry = 0;
            key = d ? ((w << (c - 1)) | (d - 1)) : none;
            val = b;
        }
        keys[(size_t)w * m + j] = key;
        vals[(size_t)w * m + j] = val;
    }
}

static unsigned auto_window(size_t n) {
    if (n <= 1024)
        return 8;
    unsigned lg = 0;
    while (((size_t)1 << (lg + 1)) <= n)
        lg++;
    int c = (int)lg - 4;
    if (c < 8)
        c = 8;
    if (c > 20)
        c = 20;
    return (unsigned)c;
}

// ---- 3. the MSM prepared: steps 1 to 3 ------------------------------------------

cuda_status cz_msm_prepare(cuda_ctx *c, const cuda_bases *bs, size_t first, size_t rec,
                           const dfr *scal, int mont, const uint64_t *density, size_t n,
                           unsigned window, int fast, msm_prep *p, cuda_msm_stats *stats,
                           cuda_error *err) {
    if (n >= 0x80000000u)
        return cz_fail(err, CUDA_ERR_ARG, "MSM of %zu scalars: at most 2^31 - 1", n);
    memset(p, 0, sizeof *p);
    size_t need = 0;
    size_t words = (n + 63) / 64;
    cuda_status s;
    CZ_TRY(cudaEventRecord(c->ev[0], c->stream));
    const uint64_t *d_dens = nullptr;
    const uint32_t *d_pref = nullptr;
    if (density) {
        if ((s = cz_reserve(c->dens, words * 8, err)) ||
            (s = cz_reserve(c->dens_prefix, words * 4 + 4, err)) ||
            (s = cz_upload(c, c->dens.p, density, words * 8, err)))
            return s;
        uint32_t *pc = (uint32_t *)c->dens_prefix.p;
        k_popc<<<(unsigned)((words + 255) / 256), 256, 0, c->stream>>>((const uint64_t *)c->dens.p,
                                                                       pc, words);
        CZ_LAUNCHED("k_popc");
        size_t tmp = 0;
        CZ_TRY(cub::DeviceScan::ExclusiveSum(nullptr, tmp, pc, pc, words, c->stream));
        if ((s = cz_reserve(c->cub_tmp, tmp, err)))
            return s;
        CZ_TRY(cub::DeviceScan::ExclusiveSum(c->cub_tmp.p, tmp, pc, pc, words, c->stream));
        d_dens = (const uint64_t *)c->dens.p;
        d_pref = pc;
        // the number of bases the density selects
        uint64_t last_w = density[words - 1];
        if (n % 64)
            last_w &= (1ull << (n % 64)) - 1;
        uint32_t pre_last = 0;
        CZ_TRY(cudaMemcpyAsync(&pre_last, pc + words - 1, 4, cudaMemcpyDeviceToHost, c->stream));
        CZ_TRY(cudaStreamSynchronize(c->stream));
        need = pre_last + (size_t)__builtin_popcountll(last_w);
    } else {
        need = n;
    }
    if (first + need > bs->n)
        return cz_fail(err, CUDA_ERR_ARG, "MSM needs bases [%zu, %zu) but only %zu are resident",
                       first, first + need, bs->n);
    // classify
    if ((s = cz_reserve(c->scal, n * sizeof(dfr), err)) ||
        (s = cz_reserve(c->idx_one, n * 4, err)) || (s = cz_reserve(c->idx_other, n * 8, err)) ||
        (s = cz_reserve(c->count, 64, err)))
        return s;
    uint32_t *counts = (uint32_t *)c->count.p;
    unsigned long long *bad = (unsigned long long *)((char *)c->count.p + 8);
    CZ_TRY(cudaMemsetAsync(counts, 0, 8, c->stream));
    CZ_TRY(cudaMemsetAsync(bad, 0xff, 8, c->stream));
    uint32_t *ones = (uint32_t *)c->idx_one.p;
    uint32_t *oth_s = (uint32_t *)c->idx_other.p, *oth_b = oth_s + n;
    k_classify<<<(unsigned)((n + 255) / 256), 256, 0, c->stream>>>(
        scal, (dfr *)c->scal.p, n, mont, d_dens, d_pref, fast, counts, ones, oth_s, oth_b, bad);
    CZ_LAUNCHED("k_classify");
    uint32_t hc[2];
    unsigned long long hbad;
    CZ_TRY(cudaMemcpyAsync(hc, counts, 8, cudaMemcpyDeviceToHost, c->stream));
    CZ_TRY(cudaMemcpyAsync(&hbad, bad, 8, cudaMemcpyDeviceToHost, c->stream));
    CZ_TRY(cudaEventRecord(c->ev[1], c->stream));
    CZ_TRY(cudaStreamSynchronize(c->stream));
    if (hbad != ~0ull)
        return cz_fail(err, CUDA_ERR_SCALAR, "MSM scalar %llu is not canonical (>= r)", hbad);
    size_t n_one = hc[0], n_oth = hc[1];
    stats->n_one = n_one;
    stats->n_other = n_oth;
    stats->n_zero = n - n_one - n_oth;
    // digits and sort
    unsigned cw = window ? window : auto_window(n_oth);
    if (cw < 8 || cw > 24)
        return cz_fail(err, CUDA_ERR_ARG, "MSM window %u outside [8, 24]", cw);
    unsigned windows = (256 + cw - 1) / cw;
    stats->window_bits = cw;
    stats->windows = windows;
    size_t m = n_oth * windows;
    uint32_t none = windows << (cw - 1);
    unsigned end_bit = ceil_log2((size_t)none + 1);
    if (m) {
        if ((s = cz_reserve(c->keys, m * 4, err)) || (s = cz_reserve(c->vals, m * 4, err)) ||
            (s = cz_reserve(c->keys2, m * 4, err)) || (s = cz_reserve(c->vals2, m * 4, err)))
            return s;
        k_digits<<<(unsigned)((n_oth + 127) / 128), 128, 0, c->stream>>>(
            (const dfr *)c->scal.p, oth_s, oth_b, (uint32_t)n_oth, cw, windows,
            (uint32_t *)c->keys.p, (uint32_t *)c->vals.p);
        CZ_LAUNCHED("k_digits");
        size_t tmp = 0;
        CZ_TRY(cub::DeviceRadixSort::SortPairs(
            nullptr, tmp, (uint32_t *)c->keys.p, (uint32_t *)c->keys2.p, (uint32_t *)c->vals.p,
            (uint32_t *)c->vals2.p, m, 0, (int)end_bit, c->stream));
        if ((s = cz_reserve(c->cub_tmp, tmp, err)))
            return s;
        CZ_TRY(cub::DeviceRadixSort::SortPairs(
            c->cub_tmp.p, tmp, (uint32_t *)c->keys.p, (uint32_t *)c->keys2.p, (uint32_t *)c->vals.p,
            (uint32_t *)c->vals2.p, m, 0, (int)end_bit, c->stream));
    }
    p->n_one = n_one;
    p->m = m;
    p->cw = cw;
    p->windows = windows;
    p->none = none;
    p->keys = (const uint32_t *)c->keys2.p;
    p->vals = (const uint32_t *)c->vals2.p;
    p->ones = ones;
    p->bases = (const char *)bs->d + first * rec;
    return CUDA_OK;
}

// The most scalars one piece of an MSM takes.  The working set grows with
// the scalars (their canonical copy, the classified lists, and per window the
// digit keys and values twice over plus the sort's scratch): at 2^27 it is
// larger than what an 80 GB card has beside a 32 GiB parameter set, so such
// an MSM runs in pieces that fit the free memory within the device's limit
// (the scratch this context already holds counted as free), their sums added.  gpu_msm_piece fixes
// the size instead (tests, benchmarks).
template <class F> static size_t msm_piece(const cuda_ctx *c, size_t n, unsigned window) {
    long forced = switch_get(SW_GPU_MSM_PIECE);
    if (forced > 0) {
        size_t f = (size_t)forced & ~(size_t)63; // density words stay whole
        return f && f < n ? f : n;
    }
    size_t free_b = n <= ((size_t)1 << 20) ? (size_t)-1 : cz_device_avail();
    if (free_b == (size_t)-1)
        return n;
    const dbuf *held[] = {&c->scal,  &c->idx_one, &c->idx_other, &c->keys,   &c->vals,
                          &c->keys2, &c->vals2,   &c->cub_tmp,   &c->buckets};
    size_t avail = free_b;
    for (const dbuf *b : held)
        avail += b->bytes;
    avail -= avail / 8; // allocator granularity, the sort's small buffers, other streams
    for (size_t k = 1;; k++) {
        size_t piece = (n + k - 1) / k;
        piece = (piece + 63) & ~(size_t)63; // density words stay whole
        unsigned cw = window ? window : auto_window(piece);
        size_t windows = (256 + cw - 1) / cw;
        size_t need = piece * (sizeof(dfr) + 12 + windows * 24) +
                      (windows << (cw - 1)) * sizeof(xyzz<F>) * 5 / 4;
        if (need <= avail || piece <= ((size_t)1 << 20))
            return piece < n ? piece : n;
    }
}

static size_t popcount_words(const uint64_t *w, size_t words) {
    size_t r = 0;
    for (size_t i = 0; i < words; i++)
        r += (size_t)__builtin_popcountll(w[i]);
    return r;
}

template <class F>
static cuda_status msm_dev(cuda_ctx *c, xyzz<F> *out, const cuda_bases *bs, size_t first,
                           const dfr *scal, int mont, const uint64_t *density, size_t n,
                           unsigned window, int fast, cuda_msm_stats *st, cuda_error *err) {
    cuda_msm_stats stats;
    memset(&stats, 0, sizeof stats);
    x_set_inf(*out);
    cuda_status s = CUDA_OK;
    size_t piece = n ? msm_piece<F>(c, n, window) : 0;
    for (size_t off = 0; off < n && s == CUDA_OK; off += piece) {
        size_t len = n - off < piece ? n - off : piece;
        // a piece's bases start after those its predecessors' density selected
        size_t f = first + (density ? popcount_words(density, off / 64) : off);
        msm_prep p;
        cuda_msm_stats ps;
        memset(&ps, 0, sizeof ps);
        xyzz<F> part;
        x_set_inf(part);
        s = cz_msm_prepare(c, bs, f, sizeof(affine<F>), scal + off, mont,
                           density ? density + off / 64 : nullptr, len, window, fast, &p, &ps, err);
        if (s == CUDA_OK)
            s = cz_msm_sum<F>(c, p, &part, &ps, err);
        if (s != CUDA_OK)
            break;
        x_add(*out, part);
        stats.n_zero += ps.n_zero;
        stats.n_one += ps.n_one;
        stats.n_other += ps.n_other;
        stats.window_bits = ps.window_bits;
        stats.windows = ps.windows;
        stats.classify_ms += ps.classify_ms;
        stats.sort_ms += ps.sort_ms;
        stats.buckets_ms += ps.buckets_ms;
        stats.reduce_ms += ps.reduce_ms;
        stats.total_ms += ps.total_ms;
        stats.pieces++;
    }
    if (s == CUDA_OK && st)
        *st = stats;
    return s;
}

cuda_status cz_msm_g1_dev(cuda_ctx *c, g1x *out, const cuda_bases *b, size_t first,
                          const dfr *dev_scalars, int mont, const uint64_t *density, size_t n,
                          unsigned window, int fast, cuda_msm_stats *st, cuda_error *err) {
    if (b->g2)
        return cz_fail(err, CUDA_ERR_ARG, "G1 MSM given G2 bases");
    return msm_dev<dfp>(c, out, b, first, dev_scalars, mont, density, n, window, fast, st, err);
}

cuda_status cz_msm_g2_dev(cuda_ctx *c, g2x *out, const cuda_bases *b, size_t first,
                          const dfr *dev_scalars, int mont, const uint64_t *density, size_t n,
                          unsigned window, int fast, cuda_msm_stats *st, cuda_error *err) {
    if (!b->g2)
        return cz_fail(err, CUDA_ERR_ARG, "G2 MSM given G1 bases");
    return msm_dev<dfp2>(c, out, b, first, dev_scalars, mont, density, n, window, fast, st, err);
}

// ---- public C API ------------------------------------------------------------------

cuda_status cz_bases_alloc(cuda_ctx *c, cuda_bases **out, size_t n, int g2, cuda_error *err) {
    *out = nullptr;
    if (!c)
        return cz_fail(err, CUDA_ERR_ARG, "cuda_bases_upload: NULL argument");
    CZ_TRY(cudaSetDevice(c->ordinal));
    cuda_bases *b = new (std::nothrow) cuda_bases();
    if (!b)
        return cz_fail(err, CUDA_ERR_NO_MEMORY, "out of host memory");
    b->ctx = c;
    b->n = n;
    b->g2 = g2;
    size_t size = g2 ? sizeof(g2_affine) : sizeof(g1_affine);
    cuda_status s = cz_malloc(&b->d, n * size, g2 ? "G2 bases" : "G1 bases", err);
    if (s) {
        delete b;
        return s;
    }
    *out = b;
    return CUDA_OK;
}

cuda_status cz_bases_write(cuda_bases *b, size_t first, const void *pts, size_t count,
                           cuda_error *err) {
    size_t size = b->g2 ? sizeof(g2_affine) : sizeof(g1_affine);
    if (first > b->n || count > b->n - first || (!pts && count))
        return cz_fail(err, CUDA_ERR_ARG, "cuda_bases_write: [%zu, +%zu) outside %zu bases", first,
                       count, b->n);
    CZ_TRY(cudaSetDevice(b->ctx->ordinal));
    return cz_upload(b->ctx, (char *)b->d + first * size, pts, count * size, err);
}

static cuda_status upload_bases(cuda_ctx *c, cuda_bases **out, const void *pts, size_t n, int g2,
                                cuda_error *err) {
    *out = nullptr;
    if (!pts && n)
        return cz_fail(err, CUDA_ERR_ARG, "cuda_bases_upload: NULL argument");
    cuda_bases *b = nullptr;
    cuda_status s = cz_bases_alloc(c, &b, n, g2, err);
    if (s || (s = cz_bases_write(b, 0, pts, n, err))) {
        cuda_bases_free(b);
        return s;
    }
    *out = b;
    return CUDA_OK;
}

extern "C" cuda_status cuda_bases_upload_g1(cuda_ctx *c, cuda_bases **out, const g1_affine *pts,
                                            size_t n, cuda_error *err) {
    static_assert(sizeof(g1_affine) == sizeof(g1a), "G1 layout");
    return upload_bases(c, out, pts, n, 0, err);
}

extern "C" cuda_status cuda_bases_upload_g2(cuda_ctx *c, cuda_bases **out, const g2_affine *pts,
                                            size_t n, cuda_error *err) {
    static_assert(sizeof(g2_affine) == sizeof(g2a), "G2 layout");
    return upload_bases(c, out, pts, n, 1, err);
}

extern "C" void cuda_bases_free(cuda_bases *b) {
    if (!b)
        return;
    cudaSetDevice(b->ctx->ordinal);
    cudaFree(b->d);
    delete b;
}

extern "C" size_t cuda_bases_count(const cuda_bases *b) { return b ? b->n : 0; }

extern "C" cuda_msm_config cuda_msm_config_default(void) {
    cuda_msm_config c;
    c.window_bits = 0;
    c.bit_fast_path = 1;
    c.montgomery = 0;
    return c;
}

template <class F, class J>
static cuda_status msm_host(cuda_ctx *c, J *out, const cuda_bases *b, size_t first,
                            const void *scalars, const uint64_t *density, size_t n,
                            const cuda_msm_config *cfg, cuda_msm_stats *st, cuda_error *err,
                            void (*conv)(J *, const xyzz<F> *)) {
    if (!c || !out || !b || (!scalars && n))
        return cz_fail(err, CUDA_ERR_ARG, "cuda_msm: NULL argument");
    cuda_msm_config d = cuda_msm_config_default();
    if (!cfg)
        cfg = &d;
    CZ_TRY(cudaSetDevice(c->ordinal));
    cuda_status s = cz_reserve(c->misc, n * sizeof(dfr) + 16, err);
    if (s)
        return s;
    cudaEvent_t e0, e1;
    CZ_TRY(cudaEventCreate(&e0));
    CZ_TRY(cudaEventCreate(&e1));
    cudaEventRecord(e0, c->stream);
    s = cz_upload(c, c->misc.p, scalars, n * sizeof(dfr), err);
    cudaEventRecord(e1, c->stream);
    cudaEventSynchronize(e1);
    float copy_ms = 0;
    cudaEventElapsedTime(&copy_ms, e0, e1);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (s)
        return s;
    xyzz<F> r;
    cuda_msm_stats stats;
    s = msm_dev<F>(c, &r, b, first, (const dfr *)c->misc.p, cfg->montgomery, density, n,
                   cfg->window_bits, cfg->bit_fast_path, &stats, err);
    if (s)
        return s;
    stats.copy_ms = copy_ms;
    if (st)
        *st = stats;
    conv(out, &r);
    return CUDA_OK;
}

extern "C" cuda_status cuda_msm_g1(cuda_ctx *c, g1_jac *out, const cuda_bases *b, size_t first,
                                   const void *scalars, const uint64_t *density, size_t n,
                                   const cuda_msm_config *cfg, cuda_msm_stats *st,
                                   cuda_error *err) {
    if (b && b->g2)
        return cz_fail(err, CUDA_ERR_ARG, "G1 MSM given G2 bases");
    return msm_host<dfp, g1_jac>(c, out, b, first, scalars, density, n, cfg, st, err,
                                 cz_g1x_to_jac);
}

extern "C" cuda_status cuda_msm_g2(cuda_ctx *c, g2_jac *out, const cuda_bases *b, size_t first,
                                   const void *scalars, const uint64_t *density, size_t n,
                                   const cuda_msm_config *cfg, cuda_msm_stats *st,
                                   cuda_error *err) {
    if (b && !b->g2)
        return cz_fail(err, CUDA_ERR_ARG, "G2 MSM given G1 bases");
    return msm_host<dfp2, g2_jac>(c, out, b, first, scalars, density, n, cfg, st, err,
                                  cz_g2x_to_jac);
}
