/* The prover backend interface (DESIGN.md section 2), at two levels.
 *
 * groth16_backend is what the engine and the CLI hold:
 *   prove(batch of synthesized partitions, parameter set, r[], s[]) -> proofs.
 * Every backend implements it over groth16_prove_with (prover.c), which owns
 * what is the same everywhere: r and s, the shape check, and the assembly of
 * A, B, C (prover.h's formulas).  Below it a backend supplies only
 * groth16_sums_ops: the H step and the MSM sums of one proof.  The assembly
 * sees the sums as points, not how they were added up, so for the same r, s
 * every backend gives the same bytes. */
#ifndef CUZK_GROTH16_BACKEND_H
#define CUZK_GROTH16_BACKEND_H

#include "groth16/params.h"
#include "groth16/proof.h"
#include "groth16/prove_timing.h"
#include "msm/msm.h"
#include "r1cs/partition.h"

/* One proof's shape, from groth16_shape_check: H's domain m = 2^log_m >= rows,
 * n_in inputs, n_aux aux variables, and b_inputs = the inputs in B's density,
 * where the aux part of b_g1 / b_g2 starts. */
typedef struct {
    unsigned log_m;
    size_t m, n_in, n_aux, b_inputs;
} groth16_shape;

/* The MSM sums of one proof, prover.h's L, A', B1, B2 and H (the last over
 * H's first m - 1 coefficients, h_poly.h). */
typedef struct {
    g1_jac l, a, b1, h;
    g2_jac b2;
} groth16_sums;

/* What a backend computes.  sums: H and the five sums of partition p, whose
 * shape groth16_shape_check has accepted against srs; fills t's phase times
 * (h_ms, scalars_ms, msm_*_ms and the device times) and leaves total_ms and
 * assemble_ms to the caller.  Returns GROTH16_OK or an error with a message.
 * note (may be NULL): printed after a proof's CUZK_TIMING line.  max_log_m:
 * the largest H domain the backend handles. */
typedef struct {
    const char *name;
    unsigned max_log_m;
    groth16_status (*sums)(void *self, groth16_sums *out, const r1cs_partition *p,
                           const groth16_params_data *srs, const groth16_shape *shape,
                           unsigned threads, groth16_prove_timing *t, groth16_error *err);
    void (*note)(void *self, const groth16_prove_timing *t, size_t index);
    /* 1: sums takes deferred partitions (partition.h) as they are; 0: they
     * are expanded on the host first (pce_partition_expand). */
    int deferred;
} groth16_sums_ops;

/* The prover over a backend's sums: n partitions sharing srs, r and s as in
 * groth16_prove_cpu (NULL: fresh from getrandom(2)), timing (n entries) may
 * be NULL; self goes to ops' calls.  Stops at the first error. */
groth16_status groth16_prove_with(const groth16_sums_ops *ops, void *self, groth16_proof *proofs,
                                  const r1cs_partition *parts, size_t n,
                                  const groth16_params_data *srs, const fr *r, const fr *s,
                                  unsigned threads, groth16_prove_timing *timing,
                                  groth16_error *err);

/* The checks before any work: delta not the identity, rows within
 * max_log_m's domain, and srs's section counts matching p's counts and
 * densities (a mismatch names the section).  Fills *shape. */
groth16_status groth16_shape_check(groth16_shape *shape, const r1cs_partition *p,
                                   const groth16_params_data *srs, unsigned max_log_m,
                                   groth16_error *err);

/* A, B, C from the sums with randomness r, s (prover.h's formulas). */
void groth16_assemble(groth16_proof *proof, const groth16_sums *sums, const groth16_vk *vk,
                      const fr *r, const fr *s);

/* Host bytes the CPU backend's sums (prover_cpu.c) allocate for one proof
 * of rows constraints, n_in inputs and n_aux aux variables on threads
 * threads, beyond the partition itself: H's three copies of a, b, c over
 * the domain m = 2^ceil(log2 rows) and the NTT domain's tables; canonical
 * scalars of inputs, aux and H; for the largest MSM its signed digits and
 * index lists; per thread one G2 window's buckets (affine and Jacobian) and
 * batch buffers; all alive together, plus an eighth for the allocator.  An
 * upper bound: the engine reserves it with each partition (engine/memory.h). */
uint64_t groth16_cpu_scratch_bytes(uint64_t rows, uint64_t n_in, uint64_t n_aux, unsigned threads);

/* The CPU's sums (prover_cpu.c); self is unused. */
extern const groth16_sums_ops groth16_sums_cpu;

/* What a backend reports of its device (groth16_backend's info). */
typedef struct {
    char name[64];                /* e.g. the GPU's product name */
    uint64_t mem_free, mem_total; /* device memory in bytes; 0 when unknown */
} groth16_device_info;

/* A prover backend: an object.  self is its state (NULL for the stateless
 * CPU backend), passed to every call; a backend opened by a constructor
 * (cuda_backend_open) is owned by its caller and given back with
 * groth16_backend_close.  Callers go through the groth16_backend_* wrappers
 * below. */
typedef struct groth16_backend groth16_backend;
struct groth16_backend {
    const char *name;
    void *self;
    /* As groth16_prove_cpu: n partitions sharing srs; r, s NULL for fresh
     * randomness; timing (n entries) may be NULL. */
    groth16_status (*prove)(void *self, groth16_proof *proofs, const r1cs_partition *parts,
                            size_t n, const groth16_params_data *srs, const fr *r, const fr *s,
                            unsigned threads, groth16_prove_timing *timing, groth16_error *err);
    /* Optional (NULL: nothing to do): the caller is about to free srs's points,
     * so a backend that keeps copies (a GPU's resident bases) drops them. */
    void (*forget)(void *self, const groth16_params_data *srs);
    /* 1: evaluates a deferred partition's a/b/c itself (on the device), so
     * synthesis should leave them deferred when the switch gpu_abc is on. */
    int abc_on_device;
    /* Optional: the caller is about to free a recorded circuit (r1cs/pce.h)
     * whose matrices the backend may keep on its device. */
    void (*forget_pce)(void *self, const struct r1cs_pce *pce);
    /* Optional (NULL: nothing to do): make srs's points resident now (a GPU
     * uploads its bases, decoding a file-backed set on threads threads), so
     * that the first proof with them does not pay for it. */
    groth16_status (*preload)(void *self, const groth16_params_data *srs, unsigned threads,
                              groth16_error *err);
    /* Optional: fills *out (0), or -1 with a message. */
    int (*info)(void *self, groth16_device_info *out, char *err, size_t cap);
    /* Optional: frees self and the backend itself (an owned backend). */
    void (*close)(groth16_backend *b);
};

static inline groth16_status
groth16_backend_prove(const groth16_backend *b, groth16_proof *proofs, const r1cs_partition *parts,
                      size_t n, const groth16_params_data *srs, const fr *r, const fr *s,
                      unsigned threads, groth16_prove_timing *timing, groth16_error *err) {
    return b->prove(b->self, proofs, parts, n, srs, r, s, threads, timing, err);
}

static inline void groth16_backend_forget(const groth16_backend *b,
                                          const groth16_params_data *srs) {
    if (b && b->forget)
        b->forget(b->self, srs);
}

static inline void groth16_backend_forget_pce(const groth16_backend *b,
                                              const struct r1cs_pce *pce) {
    if (b && b->forget_pce)
        b->forget_pce(b->self, pce);
}

/* Whether b keeps its own copy of parameter sets (it has forget/preload). */
static inline int groth16_backend_keeps_params(const groth16_backend *b) { return b && b->forget; }

static inline groth16_status groth16_backend_preload(const groth16_backend *b,
                                                     const groth16_params_data *srs,
                                                     unsigned threads, groth16_error *err) {
    return b->preload ? b->preload(b->self, srs, threads, err) : GROTH16_OK;
}

/* b's device: 0, or -1 (no such query: "" in err, else its message). */
static inline int groth16_backend_info(const groth16_backend *b, groth16_device_info *out,
                                       char *err, size_t cap) {
    if (b && b->info)
        return b->info(b->self, out, err, cap);
    if (err && cap)
        err[0] = 0;
    return -1;
}

/* Closes an owned backend (nothing for the CPU backend); b may be NULL.
 * An owned backend was allocated by its constructor, so const is only the
 * holder's promise not to change it. */
static inline void groth16_backend_close(const groth16_backend *b) {
    if (b && b->close)
        b->close((groth16_backend *)b);
}

/* Whether provers on these backends want a parameter set's points decoded
 * into host memory (switch params_host; automatic: unless every one keeps
 * its own copy, as a GPU does) or left in the file (params.h's file-backed
 * data: each reader decodes a chunk at a time and keeps nothing). */
int groth16_params_on_host(const groth16_backend *const *backends, size_t n);

/* Whether partitions for b should be made deferred (partition.h). */
int groth16_backend_defers_abc(const groth16_backend *b);

/* The CPU backend (always present). */
extern const groth16_backend groth16_backend_cpu;

/* The backend called `name` ("cpu"), or NULL if this build has none such. */
const groth16_backend *groth16_backend_find(const char *name);

#endif
