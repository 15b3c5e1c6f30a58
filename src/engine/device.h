/* The engine's prover devices: one entry per GPU in gpus.devices (a
 * cuda_prover each), else the CPU backend as one device, or, for tests,
 * gpus.simulate = N simulated devices on the CPU backend.
 *
 * Each device has its own prover workers (gpus.gpu_workers_per_device for a
 * GPU or a simulated device; one for the CPU backend, which spreads one call
 * over the prover cores), its table of resident parameter sets and their
 * bytes (a GPU uploads a set on first use and keeps it: cuda_srs_cache.cuh),
 * and its counters.  The table mirrors the device's cache by its rules: a
 * set enters it when a partition is proven there, leaves when the LRU cap
 * (the gpu_srs_sets switch) pushes it out, when the set is demoted on the
 * host (srs.h; every device forgets it), or by cuzk_engine_evict_srs_device.
 * A GPU that drops sets early to make room for a large proof is not seen:
 * the table then overstates what is resident until the next use or evict,
 * which costs at most one upload where affinity expected none.
 *
 * A device fails (taken out of rotation for good) when its backend returns an
 * error that is not the job's fault (GROTH16_ERR_IO: the runtime, the
 * driver, a lost device) or when a test injects one; the partition it held
 * goes back to the queue for another device.
 *
 * Everything here runs under the engine lock; this file does not include
 * engine_internal.h. */
#ifndef CUZK_ENGINE_DEVICE_H
#define CUZK_ENGINE_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "engine/srs.h"
#include "groth16/backend.h"

#define ENGINE_MAX_DEVICES 16
/* The most sets a device keeps resident; the cap in force is the CUDA
 * prover's own, the gpu_srs_sets switch (CUZK_GPU_SRS_SETS, default 4), so
 * that the table and the device agree. */
#define ENGINE_DEVICE_SETS 16

typedef struct {
    const srs_set *set;
    uint64_t bytes;
    double last_used_ms;
} engine_resident;

typedef struct {
    unsigned index;
    int ordinal; /* CUDA ordinal, -1 otherwise */
    char name[64];
    int simulated;
    const groth16_backend *backend;
    unsigned workers, busy;
    int failed;
    char why[256];
    char job[CUZK_JOB_ID_LEN]; /* the job the latest call started with */
    cuzk_proof_kind kind;
    engine_resident res[ENGINE_DEVICE_SETS];
    unsigned n_res;
    uint64_t res_bytes;
    uint64_t calls, partitions, faults;
    double busy_ms, busy_since;
} engine_device;

/* Fills d as device number index. */
void device_init(engine_device *d, unsigned index, int ordinal, const char *name, int simulated,
                 const groth16_backend *be, unsigned workers);
int device_resident(const engine_device *d, const srs_set *s);
/* A partition of s was proven on d at now_ms: s is resident (most recently
 * used).  A set pushed out by the cap leaves the table; the device's cache
 * has dropped it by the same rule. */
void device_use(engine_device *d, const srs_set *s, double now_ms);
/* Drops s from d's table and the backend's copy; the bytes it held (0 if
 * it was not resident). */
uint64_t device_forget(engine_device *d, const srs_set *s);
/* As device_forget, the table only (the caller tells the backend). */
uint64_t device_drop(engine_device *d, const srs_set *s);
/* A call starts / ends on d (busy time counts while any call runs). */
void device_begin(engine_device *d, const char *job_id, cuzk_proof_kind kind, double now_ms);
void device_end(engine_device *d, double now_ms);
/* Takes d out of rotation with a reason (logged by the caller). */
void device_fail(engine_device *d, const char *why);
/* Fills a status entry (circuit ids of the resident sets, LRU order). */
void device_status(const engine_device *d, double now_ms, cuzk_device_status *out);

#endif
