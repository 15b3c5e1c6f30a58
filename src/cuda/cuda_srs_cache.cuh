// Parameter sets resident in device memory (cuda_srs_cache.cu), one cache per
// prover (per GPU).  A daemon proves PoRep, WindowPoSt and WinningPoSt with
// different sets; uploading one over the other at every switch would cost
// seconds at 32 GiB.  So up to CUZK_GPU_SRS_SETS sets (default 4) stay
// resident, least recently used out first, and a failed upload (out of device
// memory) evicts the others and tries once more.  The caller serializes (the
// prover's lock).
#ifndef CUZK_CUDA_SRS_CACHE_CUH
#define CUZK_CUDA_SRS_CACHE_CUH

#include "cuda/cuda_internal.cuh"

extern "C" {
#include "groth16/params.h"
}

struct cz_srs {
    cuda_bases *h, *l, *a, *b1, *b2;
};

#define CZ_SRS_MAX_SETS 16

// A set is known by its address, its five base arrays (address + count) and
// its file (a file-backed set's, params.h): the engine's SRS manager frees a
// set only when no proof uses it, and a new set at the same addresses with the
// same counts would be a reload of the same file, but the arrays are compared
// too so that a reused address is not enough.
struct cz_srs_entry {
    const groth16_params_data *key;
    const void *ptrs[6]; // the five arrays and the file (a file-backed set's)
    size_t counts[5];
    cz_srs b;
    unsigned long long last_use;
};

struct cz_srs_cache {
    cz_srs_entry sets[CZ_SRS_MAX_SETS];
    unsigned long long clock;
};

// The resident copy of srs on c's device, the G2 bases included (uploaded
// now if it is not).  A file-backed section (params.h) is decoded from the
// file on `threads` threads a chunk at a time.
cuda_status cz_srs_get(cz_srs_cache *cache, cuda_ctx *c, const groth16_params_data *srs,
                       unsigned threads, const cz_srs **out, cuda_error *err);
// Evicts srs's copy, if resident (its host points are about to be freed).
void cz_srs_forget(cz_srs_cache *cache, const groth16_params_data *srs);
// Evicts every set except `keep` (NULL: all); returns how many went.
unsigned cz_srs_evict_others(cz_srs_cache *cache, const groth16_params_data *keep);
// Number of sets resident now.
unsigned cz_srs_count(const cz_srs_cache *cache);

#endif
