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

static const groth16_backend g_backend = {"cuda", cuda_prove, cuda_forget, 1, cuda_forget_pce};

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
