/* The CUDA backend as an object (cuda_backend.h): a groth16_backend whose
 * self is one GPU's slot.  The slot's lock guards the prover's life (a close
 * while a proof runs waits for it); the prover serializes its own calls. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda/cuda_backend.h"
#include "cuda/cuda_device.h"

typedef struct {
    groth16_backend be; /* first: the object handed out */
    pthread_mutex_t lock;
    cuda_prover *p;
    int ordinal;
} cuda_slot;

/* Under the slot's lock: its prover, opened on first use.  0, or the
 * failure in err. */
static groth16_status slot_open(cuda_slot *sl, groth16_error *err) {
    cuda_error e = {CUDA_OK, ""};
    if (sl->p || !cuda_prover_create(&sl->p, sl->ordinal, &e))
        return GROTH16_OK;
    return groth16_fail(err,
                        e.status == CUDA_ERR_NO_MEMORY ? GROTH16_ERR_NO_MEMORY : GROTH16_ERR_IO,
                        "cuda (GPU %d): %s", sl->ordinal, e.msg);
}

static groth16_status slot_prove(void *self, groth16_proof *proofs, const r1cs_partition *parts,
                                 size_t n, const groth16_params_data *srs, const fr *r, const fr *s,
                                 unsigned threads, groth16_prove_timing *timing,
                                 groth16_error *err) {
    cuda_slot *sl = self;
    pthread_mutex_lock(&sl->lock);
    groth16_status st = slot_open(sl, err);
    if (st == GROTH16_OK)
        st = cuda_prover_prove(sl->p, proofs, parts, n, srs, r, s, threads, timing, err);
    pthread_mutex_unlock(&sl->lock);
    return st;
}

static groth16_status slot_preload(void *self, const groth16_params_data *srs, unsigned threads,
                                   groth16_error *err) {
    cuda_slot *sl = self;
    pthread_mutex_lock(&sl->lock);
    groth16_status st = slot_open(sl, err);
    if (st == GROTH16_OK)
        st = cuda_prover_preload(sl->p, srs, threads, err);
    pthread_mutex_unlock(&sl->lock);
    return st;
}

static void slot_forget(void *self, const groth16_params_data *srs) {
    cuda_slot *sl = self;
    pthread_mutex_lock(&sl->lock);
    if (sl->p)
        cuda_prover_forget(sl->p, srs);
    pthread_mutex_unlock(&sl->lock);
}

static void slot_forget_pce(void *self, const struct r1cs_pce *pce) {
    cuda_slot *sl = self;
    pthread_mutex_lock(&sl->lock);
    if (sl->p)
        cuda_prover_forget_pce(sl->p, pce);
    pthread_mutex_unlock(&sl->lock);
}

/* The runtime's queries need no prover (and no lock). */
static int slot_info(void *self, groth16_device_info *out, char *err, size_t cap) {
    cuda_slot *sl = self;
    cuda_device_info info;
    size_t free_b = 0, total_b = 0;
    if (cuda_device_query(sl->ordinal, &info, err, cap) ||
        cuda_device_memory(sl->ordinal, &free_b, &total_b, err, cap))
        return -1;
    snprintf(out->name, sizeof out->name, "%s", info.name);
    out->mem_free = free_b;
    out->mem_total = total_b;
    return 0;
}

static void slot_close(groth16_backend *b) {
    cuda_slot *sl = (cuda_slot *)b;
    pthread_mutex_lock(&sl->lock);
    cuda_prover_destroy(sl->p);
    sl->p = NULL;
    pthread_mutex_unlock(&sl->lock);
    pthread_mutex_destroy(&sl->lock);
    free(sl);
}

groth16_backend *cuda_backend_open(int ordinal, char *why, size_t whylen) {
    char msg[256] = "";
    int n = cuda_device_count(msg, sizeof msg);
    if (n <= 0 || ordinal < 0 || ordinal >= n) {
        if (why && whylen) {
            if (n < 0)
                snprintf(why, whylen, "%s", msg);
            else if (n == 0)
                snprintf(why, whylen, "no CUDA device visible");
            else
                snprintf(why, whylen, "no GPU %d (%d visible)", ordinal, n);
        }
        return NULL;
    }
    cuda_slot *sl = calloc(1, sizeof *sl);
    if (!sl) {
        if (why && whylen)
            snprintf(why, whylen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&sl->lock, NULL);
    sl->ordinal = ordinal;
    sl->be = (groth16_backend){.name = "cuda",
                               .self = sl,
                               .prove = slot_prove,
                               .forget = slot_forget,
                               .abc_on_device = 1,
                               .forget_pce = slot_forget_pce,
                               .preload = slot_preload,
                               .info = slot_info,
                               .close = slot_close};
    return &sl->be;
}

cuda_prover *cuda_backend_prover(const groth16_backend *b) {
    cuda_slot *sl = b && b->close == slot_close ? (cuda_slot *)b : NULL;
    if (!sl)
        return NULL;
    pthread_mutex_lock(&sl->lock);
    cuda_prover *p = sl->p;
    pthread_mutex_unlock(&sl->lock);
    return p;
}

unsigned cuda_backend_resident_sets(const groth16_backend *b) {
    cuda_slot *sl = b && b->close == slot_close ? (cuda_slot *)b : NULL;
    if (!sl)
        return 0;
    pthread_mutex_lock(&sl->lock);
    unsigned n = sl->p ? cuda_prover_resident_sets(sl->p) : 0;
    pthread_mutex_unlock(&sl->lock);
    return n;
}
