/* cuzk engine: the public API of the proving server (DESIGN.md "engine").
 *
 * The daemon (gRPC) and the CLI drive proofs only through this header.  Its
 * enums carry the cuzk.v1 wire numbers, so the server copies them unchanged.
 *
 * Ownership: every pointer passed in is copied before the call returns; every
 * result handed out is owned by the caller and released with the matching
 * _clear/_free function.  All functions are thread-safe. */
#ifndef CUZK_ENGINE_H
#define CUZK_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cuzk.v1.ProofKind */
typedef enum {
    CUZK_KIND_UNSPECIFIED = 0,
    CUZK_KIND_POREP_C2 = 1,
    CUZK_KIND_SNAP_DEALS = 2,
    CUZK_KIND_WINDOW_POST = 3,
    CUZK_KIND_WINNING_POST = 4,
    CUZK_KIND_COUNT = 5
} cuzk_proof_kind;

/* cuzk.v1.Priority; DEFAULT picks the kind's default (Winning CRITICAL,
 * Window HIGH, PoRep and Snap NORMAL). */
typedef enum {
    CUZK_PRIORITY_DEFAULT = 0,
    CUZK_PRIORITY_LOW = 1,
    CUZK_PRIORITY_NORMAL = 2,
    CUZK_PRIORITY_HIGH = 3,
    CUZK_PRIORITY_CRITICAL = 4
} cuzk_priority;

/* Job states.  The last three are final; AwaitProof's status maps
 * COMPLETED/FAILED/CANCELLED one to one and a timed-out wait to TIMEOUT. */
typedef enum {
    CUZK_JOB_QUEUED = 0,
    CUZK_JOB_RUNNING = 1,
    CUZK_JOB_COMPLETED = 2,
    CUZK_JOB_FAILED = 3,
    CUZK_JOB_CANCELLED = 4
} cuzk_job_state;

/* Return codes; the server maps them to gRPC status codes. */
typedef enum {
    CUZK_OK = 0,
    CUZK_E_INVALID = 1,     /* bad request: INVALID_ARGUMENT */
    CUZK_E_UNSUPPORTED = 2, /* kind/proof has no circuit in this build: UNIMPLEMENTED */
    CUZK_E_NOT_FOUND = 3,   /* unknown job id / circuit id: NOT_FOUND */
    CUZK_E_TIMEOUT = 4,     /* await ran past its timeout (the job keeps running) */
    CUZK_E_EXHAUSTED = 5,   /* queue full / over budget: RESOURCE_EXHAUSTED */
    CUZK_E_SHUTDOWN = 6,    /* engine is draining: UNAVAILABLE */
    CUZK_E_INTERNAL = 7,    /* anything else: INTERNAL */
    CUZK_E_EXISTS = 8,      /* request_id already names a different request: ALREADY_EXISTS */
    CUZK_E_DENIED = 9       /* the caller may not (another's job): PERMISSION_DENIED */
} cuzk_status;

#define CUZK_ERROR_LEN 512
#define CUZK_JOB_ID_LEN 128 /* longest job id, NUL included */
#define CUZK_OWNER_LEN 256  /* longest job owner (cuzk_request.owner), NUL included */

/* A proof request: the fields of cuzk.v1.SubmitProofRequest. */
typedef struct {
    const char *request_id; /* idempotency key; NULL or "" = engine assigns a UUIDv4 */
    cuzk_proof_kind kind;
    cuzk_priority priority;
    uint64_t sector_size; /* 0 = derive from registered_proof */
    uint64_t registered_proof;
    const uint8_t *vanilla_proof; /* PoRep C2: the C1 output (Curio wrapper JSON) */
    size_t vanilla_proof_len;
    const uint8_t *const *vanilla_proofs; /* PoSt: per sector; Snap: per partition */
    const size_t *vanilla_proofs_len;
    size_t n_vanilla_proofs;
    uint64_t sector_number;
    uint64_t miner_id;
    const uint8_t *randomness; /* 32 bytes or NULL */
    uint32_t partition_index;
    const uint8_t *comm_r_old, *comm_r_new, *comm_d_new; /* 32 bytes each or NULL */
    /* Request bytes the caller counted already (cuzk_engine_hold_request's
     * *held for the message this request came in): submit takes only what
     * its copies need beyond them, so a caller that holds enough never waits
     * for memory while holding some.  0: submit counts the copies itself. */
    uint64_t held_bytes;
    /* Who submitted it (the daemon: the caller's connection, as gRPC names
     * its peer), the one caller besides a privileged one that may cancel it
     * (cuzk_engine_cancel_as); NULL or "" = anyone.  A request that returns
     * a known job (request_id) leaves that job's owner as it was. */
    const char *owner;
} cuzk_request;

typedef struct {
    char job_id[CUZK_JOB_ID_LEN];
    uint32_t queue_position; /* jobs ahead of it at submit time */
    int existing;            /* 1 when request_id matched a job already known */
} cuzk_submit_info;

/* Milliseconds per stage of one job (AwaitProofResponse's timing fields). */
typedef struct {
    uint64_t queue_wait_ms;
    uint64_t srs_load_ms;
    uint64_t synthesis_ms; /* summed over partitions */
    uint64_t prove_ms;     /* backend time (GPU or CPU), summed over partitions */
    uint64_t verify_ms;    /* self-verification */
    uint64_t total_ms;     /* submit to final state */
} cuzk_job_timings;

typedef struct {
    char job_id[CUZK_JOB_ID_LEN];
    cuzk_job_state state;
    uint8_t *proof; /* 192 bytes per partition, partition order; NULL unless COMPLETED */
    size_t proof_len;
    char error[CUZK_ERROR_LEN]; /* FAILED/CANCELLED: what happened */
    cuzk_job_timings timings;
} cuzk_result;

void cuzk_result_clear(cuzk_result *r);

/* Engine configuration: the [srs] [memory] [gpus] [scheduler] [synthesis]
 * [pipeline] sections of cuzk.toml.  cuzk_engine_config_defaults fills the
 * documented defaults (cuzk.example.toml); 0 means "auto" where noted. */
typedef struct {
    char param_cache[4096]; /* srs.param_cache; "" = FIL_PROOFS_PARAMETER_CACHE, else the default */
    int trust_params;       /* srs.trust_params: skip the published-digest check of parameter
                               files (TRUST_PARAMS=1 in the environment does too) */
    uint64_t memory_budget; /* memory.total_budget in bytes; 0 = auto (MemTotal - margin) */
    uint64_t memory_safety_margin; /* memory.safety_margin */
    uint64_t eviction_min_idle_s;  /* memory.eviction_min_idle: under pressure only (srs.h) */
    int gpu_devices[16];           /* gpus.devices (opened by the caller); n_gpu_devices 0 = all */
    size_t n_gpu_devices;
    unsigned gpu_threads;            /* gpus.gpu_threads: host threads for the prover; 0 = all */
    unsigned gpu_workers_per_device; /* gpus.gpu_workers_per_device */
    /* gpus.memory_limit: device bytes per GPU (a 16 or 24 GiB card's share
     * of a larger one); 0 = all of it */
    uint64_t gpu_memory_limit;
    int use_gpu;                     /* 0 = CPU backend only (the caller opens no GPU) */
    unsigned max_batch_size;         /* scheduler.max_batch_size */
    uint64_t max_batch_wait_ms;      /* scheduler.max_batch_wait_ms */
    int sort_by_type;                /* scheduler.sort_by_type */
    unsigned synthesis_threads;      /* synthesis.threads; 0 = all */
    int pipeline_enabled;            /* pipeline.enabled */
    unsigned synthesis_lookahead;    /* pipeline.synthesis_lookahead */
    unsigned synthesis_concurrency;  /* pipeline.synthesis_concurrency */
    unsigned max_parallel_synthesis; /* pipeline.max_parallel_synthesis */
    unsigned max_gpu_queue_depth;    /* pipeline.max_gpu_queue_depth; 0 = auto */
    unsigned max_pending_jobs;      /* beyond this, submit answers CUZK_E_EXHAUSTED; 0 = no limit */
    unsigned result_keep_count;     /* finished results kept for Await */
    uint64_t result_keep_s;         /* ... and for how long */
    int self_verify;                /* verify every proof before returning it (default 1) */
    int cancel_running_on_shutdown; /* drain: 1 = cancel running jobs, 0 = finish them */
    /* The prover devices, opened by the caller (the engine opens none: the
     * daemon, `cuzk bench engine` and tests hand them in; cli/engine_devices.h
     * opens gpus.devices): each a backend proving on one device, its name
     * ("gpu0") and CUDA ordinal (-1: none).  The caller closes them after
     * cuzk_engine_free.  n_prover_devices 0: the CPU backend. */
    struct cuzk_prover_device {
        const struct groth16_backend *backend;
        int ordinal;
        char name[32];
    } prover_devices[16];
    size_t n_prover_devices;
    /* TEST ONLY: every proof of partition k takes r, s from this hex seed
     * (groth16_rs_from_seed, as `cuzk prove --rs-seed`), so that a test can
     * hold the engine's proofs to the CLI's byte for byte; "" = fresh r, s.
     * Such proofs have no zero knowledge. */
    char test_rs_seed[132];
    /* TEST ONLY: a pce's coefficient dictionary is corrupted in memory when
     * it is loaded, so that its proofs fail self-verification (engine/pce.c). */
    int test_pce_flip;
    /* TEST ONLY (gpus.simulate): N > 0 proves on N simulated devices, each the
     * CPU backend with its own workers, resident sets and memory figure, so
     * multi-device scheduling runs in CI.  0 = real devices. */
    unsigned simulate_devices;
    /* TEST ONLY: bit k set makes every call on device k fail as a device fault
     * (the daemon and `cuzk bench engine` set it from CUZK_TEST_FAIL_DEVICE=k[,k...]). */
    uint32_t test_fail_devices;
    /* TEST ONLY: a simulated device's call lasts at least this long, as a GPU's would. */
    unsigned test_device_delay_ms;
} cuzk_engine_config;

void cuzk_engine_config_defaults(cuzk_engine_config *cfg);

typedef struct cuzk_engine cuzk_engine;

/* Starts the workers.  NULL with err filled on failure. */
cuzk_engine *cuzk_engine_new(const cuzk_engine_config *cfg, char err[CUZK_ERROR_LEN]);
/* Stops accepting work, then finishes or cancels running jobs (per config)
 * and waits for the workers; blocked awaits return.  Idempotent. */
void cuzk_engine_shutdown(cuzk_engine *e);
void cuzk_engine_free(cuzk_engine *e); /* shuts down first if needed */

/* Validates and queues a request.  De-duplication by request_id compares a
 * digest of the request's content (kind, registered proof, sector size and
 * number, miner, randomness, partition, comms, vanilla bytes; not the
 * priority): a known id with the same content returns that job
 * (info->existing = 1) without queueing again; with other content it is
 * CUZK_E_EXISTS naming the id.  A job abandoned by its caller
 * (cuzk_engine_abandon) is no tombstone: the same request under its id
 * starts a new job. */
cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_request *req, cuzk_submit_info *info,
                               char err[CUZK_ERROR_LEN]);
/* The memory budget's share for a received request message (the daemon's
 * gRPC receive limit is the smaller of this and its own maximum): a message
 * is held in several copies while it is submitted (engine/memory.h), and
 * those copies may take at most half the budget, so the other half is left
 * for the work that proves it; a bigger message could be held only by
 * starving the proofs. */
uint64_t cuzk_engine_request_limit(cuzk_engine *e);
/* Counts a received request message of message_len bytes in the budget for
 * as long as the caller holds it and its copies (the daemon: from the
 * payload's arrival until the request is decoded and submitted): *held is
 * what was counted, to be handed to cuzk_engine_release_request and set as
 * the request's held_bytes.  Waits while other requests hold bytes that
 * will come back; CUZK_E_EXHAUSTED naming the budget when it can never fit. */
cuzk_status cuzk_engine_hold_request(cuzk_engine *e, uint64_t message_len, uint64_t *held,
                                     char err[CUZK_ERROR_LEN]);
void cuzk_engine_release_request(cuzk_engine *e, uint64_t held);
/* Waits for a job's final state; timeout_ms 0 = forever.  CUZK_E_TIMEOUT
 * leaves the job running; out->state then holds its current state. */
cuzk_status cuzk_engine_await(cuzk_engine *e, const char *job_id, uint64_t timeout_ms,
                              cuzk_result *out);
/* Queued jobs are removed at once; running jobs stop at the next partition
 * boundary.  *was_running tells which. */
cuzk_status cuzk_engine_cancel(cuzk_engine *e, const char *job_id, int *was_running);
/* cuzk_engine_cancel on behalf of caller: CUZK_E_DENIED (nothing cancelled)
 * when the job has an owner other than caller.  caller NULL is privileged
 * (the daemon's shared secret; in-process callers): any job. */
cuzk_status cuzk_engine_cancel_as(cuzk_engine *e, const char *job_id, const char *caller,
                                  int *was_running);
/* A caller waits for job_id's proof (the server's Prove, after its submit;
 * created: that submit made the job).  Pairs with cuzk_engine_abandon. */
cuzk_status cuzk_engine_attach(cuzk_engine *e, const char *job_id, int created);
/* An attached caller went away (deadline, disconnect).  When it was the last
 * one and a Prove created the job, the job is cancelled like
 * cuzk_engine_cancel, but its id is then free: a retry of the same request
 * starts the proof again.  A job another caller still waits for, one created
 * by SubmitProof, or a final one, stays as it is; *cancelled says which. */
cuzk_status cuzk_engine_abandon(cuzk_engine *e, const char *job_id, int *cancelled);

/* SRS management by circuit id ("porep-2k", "porep-32g", "wpost-32g", ...). */
cuzk_status cuzk_engine_preload_srs(cuzk_engine *e, const char *circuit_id, int *already_loaded,
                                    uint64_t *load_ms, char err[CUZK_ERROR_LEN]);
cuzk_status cuzk_engine_evict_srs(cuzk_engine *e, const char *circuit_id, int *was_loaded,
                                  uint64_t *freed_bytes);
/* Drops one device's resident copy of a set (its host copy stays HOT).
 * CUZK_E_NOT_FOUND for an unknown device index or circuit. */
cuzk_status cuzk_engine_evict_srs_device(cuzk_engine *e, const char *circuit_id, unsigned device,
                                         int *was_resident, uint64_t *freed_bytes);

/* A snapshot for GetStatus and /status. */
typedef struct {
    char circuit_id[64];
    int tier; /* 0 HOT, 1 WARM, 2 COLD: cuzk.v1.SRSStatus.Tier */
    uint64_t size_bytes;
    uint32_t ref_count;
} cuzk_srs_status;

/* A circuit's recorded matrices held by the PCE manager (engine/pce.h). */
typedef struct {
    char circuit_id[64];
    uint64_t bytes;
    uint64_t last_used_secs_ago;
} cuzk_pce_status;

typedef struct {
    unsigned ordinal;
    char name[128];
    uint64_t vram_total_bytes, vram_free_bytes;
    char current_job_id[CUZK_JOB_ID_LEN];
    cuzk_proof_kind current_kind;
} cuzk_gpu_status;

/* One prover device (a GPU, the CPU backend, or a simulated device). */
#define CUZK_DEVICE_SETS 16
typedef struct {
    unsigned index; /* position in the engine's list: the metrics' device label is name */
    int ordinal;    /* CUDA ordinal; -1 for the CPU backend and simulated devices */
    char name[64];  /* "gpu0", "cpu", "sim1" */
    int failed;     /* out of rotation */
    char failed_reason[256];
    unsigned workers, busy_workers;
    char current_job_id[CUZK_JOB_ID_LEN]; /* one of the jobs in progress ("" when idle) */
    cuzk_proof_kind current_kind;
    uint64_t resident_bytes; /* the parameter sets resident on the device */
    unsigned n_resident;
    char resident[CUZK_DEVICE_SETS][64]; /* their circuit ids, most recently used first */
    uint64_t partitions_proven, calls, faults;
    double busy_ms; /* time with at least one call in progress */
} cuzk_device_status;

typedef struct {
    uint64_t uptime_s;
    uint64_t completed, failed, cancelled;
    uint64_t completed_by_kind[CUZK_KIND_COUNT], failed_by_kind[CUZK_KIND_COUNT];
    uint32_t pending_by_kind[CUZK_KIND_COUNT], running_by_kind[CUZK_KIND_COUNT];
    uint64_t memory_budget, memory_in_use; /* bytes: budget and what is accounted now */
    uint64_t pinned_bytes, pinned_limit;
    unsigned synthesis_active, synthesis_max;
    uint64_t self_verify_failures;
    cuzk_gpu_status *gpus; /* owned; cuzk_engine_status_clear frees */
    size_t n_gpus;
    cuzk_srs_status *srs;
    size_t n_srs;
    cuzk_pce_status *pce; /* owned, the pces held (not those that failed) */
    size_t n_pce;
    cuzk_device_status *devices; /* owned: every prover device, GPU or not */
    size_t n_devices;
} cuzk_engine_status;

void cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *out);
void cuzk_engine_status_clear(cuzk_engine_status *s);

/* Prometheus text (the Rust daemon's metric names plus per-stage
 * histograms); caller frees with free(). */
char *cuzk_engine_metrics_text(cuzk_engine *e);

/* Names: "porep-c2", "snap-update", "window-post", "winning-post" (status)
 * and the same with '_' (metric labels). */
const char *cuzk_kind_name(cuzk_proof_kind k);
const char *cuzk_kind_label(cuzk_proof_kind k);
cuzk_priority cuzk_kind_default_priority(cuzk_proof_kind k);
const char *cuzk_status_name(cuzk_status s);

/* ---- per-job stage timeline (added for benchmarks and tests) -----------------
 * Every job records when each stage started and ended, per partition, in
 * milliseconds since the engine started (monotonic clock).  Job-level stages
 * (QUEUE: submit to dispatch; SRS_LOAD: acquiring the parameter set) carry
 * partition -1.  PROVE_WAIT is the time a synthesized partition sat in the
 * bounded queue before a prover took it. */
typedef enum {
    CUZK_STAGE_QUEUE = 0,
    CUZK_STAGE_SRS_LOAD = 1,
    CUZK_STAGE_SYNTHESIS = 2,
    CUZK_STAGE_PROVE_WAIT = 3,
    CUZK_STAGE_PROVE = 4,
    CUZK_STAGE_VERIFY = 5,
    CUZK_STAGE_COUNT = 6
} cuzk_stage;

typedef struct {
    int32_t partition; /* -1 for a job-level stage */
    cuzk_stage stage;
    double start_ms, end_ms;
} cuzk_timeline_event;

typedef struct {
    char job_id[CUZK_JOB_ID_LEN];
    cuzk_proof_kind kind;
    cuzk_priority priority; /* after DEFAULT was resolved */
    cuzk_job_state state;
    char circuit_id[64];
    uint32_t n_partitions;
    uint64_t submit_seq;         /* 1, 2, ... in submit order */
    uint64_t dispatch_seq;       /* 1, 2, ... in the order jobs left the queue; 0 = not yet */
    uint64_t batch_id;           /* the batch it was proven in; 0 = not yet */
    uint32_t batch_size;         /* jobs in that batch */
    uint32_t cpu_retries;        /* partitions re-proven on the CPU after a failed self-check */
    cuzk_timeline_event *events; /* owned; cuzk_job_timeline_clear frees */
    size_t n_events;
} cuzk_job_timeline;

/* The timeline of a job still known to the engine (queued, running, or a
 * finished result not yet pruned); CUZK_E_NOT_FOUND otherwise. */
cuzk_status cuzk_engine_job_timeline(cuzk_engine *e, const char *job_id, cuzk_job_timeline *out);
void cuzk_job_timeline_clear(cuzk_job_timeline *t);
const char *cuzk_stage_name(cuzk_stage s);

#ifdef __cplusplus
}
#endif
#endif
