/* --backend and --rs-seed for the prove commands (see backend_pick.h). */
#include "cli/backend_pick.h"

#include <stdio.h>
#include <string.h>

#include "groth16/prove_checked.h"

#ifdef CUZK_HAVE_CUDA
#include "cuda/cuda_backend.h"
#endif

const groth16_backend *cli_pick_backend(const char *name) {
    if (!name || strcmp(name, "cpu") == 0)
        return &groth16_backend_cpu;
#ifdef CUZK_HAVE_CUDA
    if (strcmp(name, "cuda") == 0) {
        char why[256] = "";
        const groth16_backend *b = cuda_backend_why(why, sizeof why);
        if (!b)
            fprintf(stderr, "cuzk: --backend cuda: %s\n", why);
        return b;
    }
    fprintf(stderr, "cuzk: unknown --backend \"%s\" (cpu or cuda)\n", name);
#else
    fprintf(stderr, "cuzk: unknown --backend \"%s\" (this build has only cpu: no nvcc)\n", name);
#endif
    return NULL;
}

int cli_rs_from_seed(fr *r, fr *s, const char *seed_hex, size_t k) {
    char why[256];
    if (groth16_rs_from_seed(r, s, seed_hex, k, why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "cuzk: --rs-seed wants 1 to 64 bytes of hex, got \"%s\"\n", seed_hex);
    return -1;
}
