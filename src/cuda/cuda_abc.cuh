// a, b, c on the GPU (issue #30): a circuit's recorded matrices (r1cs/pce.h)
// resident on the device, the compact witness (r1cs/witness_pack.h) expanded
// there, and the SpMV that writes a, b, c straight into the H step's
// buffers, so the host never holds them.  One cache per prover (per GPU),
// serialized by the prover's lock like the parameter sets.
#ifndef CUZK_CUDA_ABC_CUH
#define CUZK_CUDA_ABC_CUH

#include "cuda/cuda_internal.cuh"

extern "C" {
#include "r1cs/pce.h"
#include "r1cs/witness_pack.h"
}

// One recorded circuit on the device: the three compact CSR matrices and the
// dictionary, as in the pce (u16 or u32 coefficient indexes).
struct cz_pce_dev {
    const r1cs_pce *key;
    uint64_t rows, nnz[3];
    uint32_t dict_len, coef_width;
    void *row_ptr[3], *col[3], *coef[3], *dict;
    size_t bytes;
    unsigned long long last_use;
};

#define CZ_PCE_MAX_SETS 4

struct cz_pce_cache {
    cz_pce_dev sets[CZ_PCE_MAX_SETS];
    unsigned long long clock;
};

// The device copy of p (uploaded now if it is not: least recently used out
// first; out of device memory evicts the other circuits and tries once more).
cuda_status cz_pce_get(cz_pce_cache *cache, cuda_ctx *c, const r1cs_pce *p, const cz_pce_dev **out,
                       cuda_error *err);
// Drops p's copy (NULL: every copy).
void cz_pce_forget(cz_pce_cache *cache, const r1cs_pce *p);
size_t cz_pce_bytes(const cz_pce_cache *cache);

// A deferred witness on the device: the bitmaps (kept for the SpMV's bit
// path), the ranks and the dense values; the expanded aux goes to the
// caller's buffer.
struct cz_witness_dev {
    dbuf bits, rank, dense;
    size_t words; // of the last upload: isone starts at bits + words
};
void cz_witness_release(cz_witness_dev &w);

// Queues the pack's upload on the copy stream (event `done` after it) and,
// on the compute stream after it, the expansion into aux (w->num_aux dfr).
// *bytes gets what was sent.
cuda_status cz_witness_upload_expand(cuda_ctx *c, cz_witness_dev &wd, const r1cs_witness_pack *w,
                                     cudaEvent_t done, dfr *aux, size_t *bytes, cuda_error *err);

// out[j] = <M_j, z> for every row j of matrix m (0 A, 1 B, 2 C), z = (in,
// aux), on the compute stream; the bit path reads wd's bitmaps.
cuda_status cz_pce_spmv(cuda_ctx *c, const cz_pce_dev *d, int m, const dfr *in, const dfr *aux,
                        const cz_witness_dev &wd, dfr *out, cuda_error *err);

#endif
