/* The memory budget: one number that bounds what the engine holds.
 *
 *   used = hot parameter sets (decoded points, srs.h)
 *        + recorded matrices (engine/pce.h)
 *        + reservations for partitions in flight
 *        + request bytes
 * and used never exceeds budget: callers reserve before they allocate
 * (mem_fits, then mem_take), and wait on the engine's memory condition, or
 * evict unreferenced parameter sets, when it does not fit.  A partition is
 * reserved at its provider's upper bound plus the prover's working memory
 * for it (groth16_cpu_scratch_bytes) from before synthesis until its proof
 * is stored, so the reservation covers the backend call; its actual bytes
 * are tracked beside it for the record.  When the devices evaluate a/b/c
 * from the recorded matrices (a deferred partition), it is reserved at the
 * peak of making it (r1cs_partition_deferred_peak) and shrunk to what it
 * keeps once made; a partition that must be synthesized classically after
 * all (its pce not available, its witness path failed, or its PCE proof
 * failed self-verification) gives its reservation back and waits for the
 * classic bound, never holding one while waiting (group_reserve_classic,
 * engine/batch.h); so that it need not wait for a batch to end, a batch
 * admitted beside running ones leaves one classic bound free beside the
 * deferred-sized floors (dispatcher.c's fallback_headroom).  A pce that does not fit is not
 * kept (classic synthesis instead) rather than pushing used past budget.
 * The CPU re-proof of a proof that failed self-verification reserves the
 * CPU prover's working memory beyond what its partition holds (all of it
 * after a GPU, which reserves none; with a deferred partition also the
 * a, b, c it expands) like a classic retry, new reservations waiting behind
 * it, and is refused, failing that proof with a message naming the budget,
 * when nothing running could give the memory back.
 *
 * Request bytes: a request's vanilla bytes times MEM_REQUEST_COPIES while
 * it is submitted (the caller's encoded message, its decoded copy, the plan
 * being decoded), then once (the plan) until the job is final.  The daemon
 * counts a received message the same way from its arrival
 * (cuzk_engine_hold_request: MEM_REQUEST_COPIES times the message's bytes,
 * covering the message, protobuf's decoded copy and the plan) until it has
 * freed both, and submit takes no more for a request its caller counted;
 * gRPC refuses a message over cuzk_engine_request_limit before reading it.  They come
 * from a share of the budget that leaves work_max plus the pce matrices
 * free: work_max is the largest working set (parameters + one batch's
 * partition reservations) of any circuit accepted so far, so queued requests can never starve the
 * work that ends them (no deadlock: a queued job waits only for running work, and running work
 * always fits beside every queued request). Peaks are kept for tests and benchmarks.
 *
 * Every function runs under the engine lock. */
#ifndef CUZK_ENGINE_MEMORY_H
#define CUZK_ENGINE_MEMORY_H

#include <stdint.h>

typedef struct {
    uint64_t budget;
    uint64_t srs_bytes;   /* hot parameter sets, loading ones included */
    uint64_t part_bytes;  /* partition reservations (upper bounds) */
    uint64_t part_actual; /* bytes the synthesized partitions own now */
    uint64_t pce_bytes;   /* recorded matrices kept by the PCE manager (engine/pce.h) */
    uint64_t req_bytes;   /* request bytes of submitted, not yet final jobs */
    uint64_t retry_bytes; /* CPU re-proofs' reservations (part of part_bytes) */
    uint64_t work_max;    /* the largest working set accepted (see above) */
    uint64_t peak_used, peak_part_actual, peak_part_bytes, peak_retry_bytes;
    uint64_t waits;         /* times someone had to wait for memory */
    uint64_t shrinks;       /* deferred partitions' reservations shrunk once made */
    uint64_t regrows;       /* reservations given back to wait for the classic bound */
    unsigned retry_waiting; /* classic retries waiting: new reservations hold off */
} mem_budget;

void mem_init(mem_budget *m, uint64_t budget);
static inline uint64_t mem_used(const mem_budget *m) {
    return m->srs_bytes + m->part_bytes + m->pce_bytes + m->req_bytes;
}
static inline int mem_fits(const mem_budget *m, uint64_t need) {
    return need <= m->budget && mem_used(m) <= m->budget - need;
}
/* Accounting; the callers have checked mem_fits. */
void mem_take_srs(mem_budget *m, uint64_t n);
void mem_put_srs(mem_budget *m, uint64_t n);
/* The PCE manager's matrices: taken when a pce is mapped, after the caller
 * made room (engine_pce_make_room), put back when it is unmapped. */
void mem_take_pce(mem_budget *m, uint64_t n);
void mem_put_pce(mem_budget *m, uint64_t n);
void mem_take_parts(mem_budget *m, uint64_t n);
void mem_put_parts(mem_budget *m, uint64_t n);
/* A CPU re-proof's working memory, a partition reservation of its own. */
void mem_take_retry(mem_budget *m, uint64_t n);
void mem_put_retry(mem_budget *m, uint64_t n);
/* Request bytes (see above). */
#define MEM_REQUEST_COPIES 3
/* 1 when n more request bytes fit beside the request bytes held and a
 * work_max working set. */
int mem_request_fits(const mem_budget *m, uint64_t n);
void mem_take_req(mem_budget *m, uint64_t n);
void mem_put_req(mem_budget *m, uint64_t n);
void mem_actual_add(mem_budget *m, uint64_t n);
void mem_actual_sub(mem_budget *m, uint64_t n);

/* budget.total_budget = "auto": MemTotal from /proc/meminfo minus margin
 * (256 GiB when /proc/meminfo cannot be read, as the Rust daemon does). */
uint64_t mem_auto_budget(uint64_t safety_margin);

#endif
