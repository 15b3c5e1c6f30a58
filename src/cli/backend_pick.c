/* --backend and --rs-seed for the prove commands (see backend_pick.h). */
#include "cli/backend_pick.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/prove_checked.h"

#ifdef CUZK_HAVE_CUDA
#include "cuda/cuda_backend.h"
#endif

/* The backends this process's command opened (closed by cli_backends_close,
 * after the command, in main.c). */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static const groth16_backend *g_opened[4];
static size_t g_n_opened;

#ifdef CUZK_HAVE_CUDA
/* GPU CUZK_GPU (default 0), opened once per process. */
static const groth16_backend *open_cuda(void) {
    pthread_mutex_lock(&g_lock);
    const groth16_backend *b = NULL;
    for (size_t i = 0; i < g_n_opened && !b; i++)
        if (strcmp(g_opened[i]->name, "cuda") == 0)
            b = g_opened[i];
    char why[256] = "";
    if (!b && g_n_opened < sizeof g_opened / sizeof g_opened[0]) {
        if ((b = cuda_backend_open(cli_gpu_ordinal(), why, sizeof why)))
            g_opened[g_n_opened++] = b;
        else
            fprintf(stderr, "cuzk: --backend cuda: %s\n", why);
    }
    pthread_mutex_unlock(&g_lock);
    return b;
}
#endif

int cli_gpu_ordinal(void) {
    const char *g = getenv("CUZK_GPU");
    return g && *g ? atoi(g) : 0;
}

const groth16_backend *cli_pick_backend(const char *name) {
    if (!name || strcmp(name, "cpu") == 0)
        return &groth16_backend_cpu;
#ifdef CUZK_HAVE_CUDA
    if (strcmp(name, "cuda") == 0)
        return open_cuda();
    fprintf(stderr, "cuzk: unknown --backend \"%s\" (cpu or cuda)\n", name);
#else
    fprintf(stderr, "cuzk: unknown --backend \"%s\" (this build has only cpu: no nvcc)\n", name);
#endif
    return NULL;
}

void cli_backends_close(void) {
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g_n_opened; i++)
        groth16_backend_close(g_opened[i]);
    g_n_opened = 0;
    pthread_mutex_unlock(&g_lock);
}

int cli_rs_from_seed(fr *r, fr *s, const char *seed_hex, size_t k) {
    char why[256];
    if (groth16_rs_from_seed(r, s, seed_hex, k, why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "cuzk: --rs-seed wants 1 to 64 bytes of hex, got \"%s\"\n", seed_hex);
    return -1;
}
