/* The default prover behind cuda_backend() (cuda_backend.h): one cuda_prover,
 * opened on first use on the chosen GPU.  The lock guards the pointer's life
 * (a release while a proof runs waits for it); the prover serializes its own
 * calls.  Several GPUs in one process are several cuda_provers. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda/cuda_backend.h"
#include "cuda/cuda_device.h"

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static cuda_prover *g_default;
static int g_ordinal = -1; /* -1: CUZK_GPU, else 0 */

static int ordinal_wanted(void) {
    if (g_ordinal >= 0)
        return g_ordinal;
    const char *env = getenv("CUZK_GPU");
    return env && *env ? atoi(env) : 0;
}

static groth16_status cuda_prove(groth16_proof *proofs, const r1cs_partition *parts, size_t n,
                                 const groth16_params_data *srs, const fr *r, const fr *s,
                                 unsigned threads, groth16_prove_timing *timing,
                                 groth16_error *err) {
    pthread_mutex_lock(&g_lock);
    cuda_error e = {CUDA_OK, ""};
    groth16_status st;
    if (!g_default && cuda_prover_create(&g_default, ordinal_wanted(), &e))
        st = groth16_fail(err,
                          e.status == CUDA_ERR_NO_MEMORY ? GROTH16_ERR_NO_MEMORY : GROTH16_ERR_IO,
                          "cuda: %s", e.msg);
    else
        st = cuda_prover_prove(g_default, proofs, parts, n, srs, r, s, threads, timing, err);
    pthread_mutex_unlock(&g_lock);
    return st;
}

static void cuda_forget(const groth16_params_data *srs) {
    pthread_mutex_lock(&g_lock);
    if (g_default)
        cuda_prover_forget(g_default, srs);
    pthread_mutex_unlock(&g_lock);
}

static void cuda_forget_pce(const struct r1cs_pce *pce) {
    pthread_mutex_lock(&g_lock);
    if (g_default)
        cuda_prover_forget_pce(g_default, pce);
    pthread_mutex_unlock(&g_lock);
}

static const groth16_backend g_backend = {"cuda", cuda_prove,      cuda_forget,
                                          1,      cuda_forget_pce, NULL};

const groth16_backend *cuda_backend_why(char *why, size_t whylen) {
    char msg[256] = "";
    int n = cuda_device_count(msg, sizeof msg);
    if (n <= 0) {
        if (why && whylen)
            snprintf(why, whylen, "%s", n < 0 ? msg : "no CUDA device visible");
        return NULL;
    }
    return &g_backend;
}

const groth16_backend *cuda_backend(void) { return cuda_backend_why(NULL, 0); }

int cuda_backend_set_device(int ordinal) {
    pthread_mutex_lock(&g_lock);
    int rc = g_default && cuda_prover_ordinal(g_default) != ordinal ? -1 : 0;
    if (!rc)
        g_ordinal = ordinal;
    pthread_mutex_unlock(&g_lock);
    return rc;
}

int cuda_backend_device(void) {
    pthread_mutex_lock(&g_lock);
    int o = g_default ? cuda_prover_ordinal(g_default) : ordinal_wanted();
    pthread_mutex_unlock(&g_lock);
    return o;
}

unsigned cuda_backend_resident_sets(void) {
    pthread_mutex_lock(&g_lock);
    unsigned n = g_default ? cuda_prover_resident_sets(g_default) : 0;
    pthread_mutex_unlock(&g_lock);
    return n;
}

void cuda_backend_release(void) {
    pthread_mutex_lock(&g_lock);
    cuda_prover_destroy(g_default);
    g_default = NULL;
    pthread_mutex_unlock(&g_lock);
}

/* ---- one backend per GPU ----------------------------------------------------------- */

/* groth16_backend carries no context, so each ordinal has its own pair of
 * entry points; each slot's lock guards its prover's life as g_lock does. */
typedef struct {
    pthread_mutex_t lock;
    cuda_prover *p;
} gpu_slot;

static gpu_slot g_slots[CUDA_BACKEND_MAX_GPUS] = {
#define SLOT_INIT \
    { PTHREAD_MUTEX_INITIALIZER, NULL }
    SLOT_INIT, SLOT_INIT, SLOT_INIT, SLOT_INIT, SLOT_INIT, SLOT_INIT, SLOT_INIT, SLOT_INIT,
    SLOT_INIT, SLOT_INIT, SLOT_INIT, SLOT_INIT, SLOT_INIT, SLOT_INIT, SLOT_INIT, SLOT_INIT,
#undef SLOT_INIT
};

/* Under the slot's lock: its prover, opened on first use.  0, or the
 * failure in err. */
static groth16_status slot_open(gpu_slot *sl, int o, groth16_error *err) {
    cuda_error e = {CUDA_OK, ""};
    if (sl->p || !cuda_prover_create(&sl->p, o, &e))
        return GROTH16_OK;
    return groth16_fail(err,
                        e.status == CUDA_ERR_NO_MEMORY ? GROTH16_ERR_NO_MEMORY : GROTH16_ERR_IO,
                        "cuda (GPU %d): %s", o, e.msg);
}

static groth16_status slot_prove(int o, groth16_proof *proofs, const r1cs_partition *parts,
                                 size_t n, const groth16_params_data *srs, const fr *r, const fr *s,
                                 unsigned threads, groth16_prove_timing *timing,
                                 groth16_error *err) {
    gpu_slot *sl = &g_slots[o];
    pthread_mutex_lock(&sl->lock);
    groth16_status st = slot_open(sl, o, err);
    if (st == GROTH16_OK)
        st = cuda_prover_prove(sl->p, proofs, parts, n, srs, r, s, threads, timing, err);
    pthread_mutex_unlock(&sl->lock);
    return st;
}

static groth16_status slot_preload(int o, const groth16_params_data *srs, unsigned threads,
                                   groth16_error *err) {
    gpu_slot *sl = &g_slots[o];
    pthread_mutex_lock(&sl->lock);
    groth16_status st = slot_open(sl, o, err);
    if (st == GROTH16_OK)
        st = cuda_prover_preload(sl->p, srs, threads, err);
    pthread_mutex_unlock(&sl->lock);
    return st;
}

static void slot_forget(int o, const groth16_params_data *srs) {
    gpu_slot *sl = &g_slots[o];
    pthread_mutex_lock(&sl->lock);
    if (sl->p)
        cuda_prover_forget(sl->p, srs);
    pthread_mutex_unlock(&sl->lock);
}

static void slot_forget_pce(int o, const struct r1cs_pce *pce) {
    gpu_slot *sl = &g_slots[o];
    pthread_mutex_lock(&sl->lock);
    if (sl->p)
        cuda_prover_forget_pce(sl->p, pce);
    pthread_mutex_unlock(&sl->lock);
}

#define SLOT_FNS(o)                                                                            \
    static groth16_status slot_prove_##o(                                                      \
        groth16_proof *pr, const r1cs_partition *pa, size_t n, const groth16_params_data *srs, \
        const fr *r, const fr *s, unsigned t, groth16_prove_timing *tm, groth16_error *er) {   \
        return slot_prove(o, pr, pa, n, srs, r, s, t, tm, er);                                 \
    }                                                                                          \
    static void slot_forget_##o(const groth16_params_data *srs) { slot_forget(o, srs); }       \
    static void slot_forget_pce_##o(const struct r1cs_pce *pce) { slot_forget_pce(o, pce); }   \
    static groth16_status slot_preload_##o(const groth16_params_data *srs, unsigned t,         \
                                           groth16_error *er) {                                \
        return slot_preload(o, srs, t, er);                                                    \
    }
SLOT_FNS(0)
SLOT_FNS(1)
SLOT_FNS(2)
SLOT_FNS(3)
SLOT_FNS(4)
SLOT_FNS(5)
SLOT_FNS(6)
SLOT_FNS(7)
SLOT_FNS(8)
SLOT_FNS(9)
SLOT_FNS(10)
SLOT_FNS(11)
SLOT_FNS(12)
SLOT_FNS(13)
SLOT_FNS(14)
SLOT_FNS(15)
#undef SLOT_FNS

#define SLOT_BE(o) \
    { "cuda", slot_prove_##o, slot_forget_##o, 1, slot_forget_pce_##o, slot_preload_##o }
static const groth16_backend g_slot_backends[CUDA_BACKEND_MAX_GPUS] = {
    SLOT_BE(0),  SLOT_BE(1),  SLOT_BE(2),  SLOT_BE(3),  SLOT_BE(4),  SLOT_BE(5),
    SLOT_BE(6),  SLOT_BE(7),  SLOT_BE(8),  SLOT_BE(9),  SLOT_BE(10), SLOT_BE(11),
    SLOT_BE(12), SLOT_BE(13), SLOT_BE(14), SLOT_BE(15),
};
#undef SLOT_BE

const groth16_backend *cuda_backend_for(int ordinal, char *why, size_t whylen) {
    char msg[256] = "";
    int n = cuda_device_count(msg, sizeof msg);
    if (n <= 0 || ordinal < 0 || ordinal >= n || ordinal >= CUDA_BACKEND_MAX_GPUS) {
        if (why && whylen) {
            if (n < 0)
                snprintf(why, whylen, "%s", msg);
            else
                snprintf(why, whylen, "no GPU %d (%d visible, at most %d used)", ordinal, n,
                         CUDA_BACKEND_MAX_GPUS);
        }
        return NULL;
    }
    return &g_slot_backends[ordinal];
}

void cuda_backend_release_all(void) {
    for (int o = 0; o < CUDA_BACKEND_MAX_GPUS; o++) {
        pthread_mutex_lock(&g_slots[o].lock);
        cuda_prover_destroy(g_slots[o].p);
        g_slots[o].p = NULL;
        pthread_mutex_unlock(&g_slots[o].lock);
    }
}
