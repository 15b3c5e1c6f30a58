/* The engine's devices, opened by its caller (see engine_devices.h). */
#include "cli/engine_devices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/slog.h"

#ifdef CUZK_HAVE_CUDA
#include "cuda/cuda_backend.h"
#include "cuda/cuda_device.h"

static void open_gpus(cli_engine_devices *d, cuzk_engine_config *c) {
    enum { MAX = sizeof c->prover_devices / sizeof c->prover_devices[0] };
    int ords[MAX];
    size_t n = 0;
    char why[256] = "";
    if (c->n_gpu_devices) {
        for (size_t i = 0; i < c->n_gpu_devices && n < MAX; i++)
            ords[n++] = c->gpu_devices[i];
    } else {
        int found = cuda_device_count(why, sizeof why);
        for (int i = 0; i < found && n < MAX; i++)
            ords[n++] = i;
    }
    for (size_t i = 0; i < n && d->n < MAX; i++) {
        cuda_device_set_memory_limit(ords[i], (size_t)c->gpu_memory_limit);
        const groth16_backend *b = cuda_backend_open(ords[i], why, sizeof why);
        if (!b) {
            slog(SLOG_WARN, "engine", "GPU %d not usable (%s): left out", ords[i], why);
            continue;
        }
        struct cuzk_prover_device *pd = &c->prover_devices[c->n_prover_devices++];
        pd->backend = b;
        pd->ordinal = ords[i];
        snprintf(pd->name, sizeof pd->name, "gpu%d", ords[i]);
        d->owned[d->n++] = b;
    }
    if (!d->n)
        slog(SLOG_WARN, "engine", "no usable GPU (%s): proving on the CPU backend",
             why[0] ? why : "none listed");
}
#endif

void cli_engine_devices_open(cli_engine_devices *d, cuzk_engine_config *c) {
    memset(d, 0, sizeof *d);
    c->n_prover_devices = 0;
    if (c->simulate_devices || !c->use_gpu)
        return;
#ifdef CUZK_HAVE_CUDA
    open_gpus(d, c);
#endif
}

void cli_engine_devices_close(cli_engine_devices *d) {
    for (size_t i = 0; i < d->n; i++)
        groth16_backend_close(d->owned[i]);
    d->n = 0;
}

/* "k" or "k,l,...": bit k of the mask per number below 32. */
static uint32_t fail_mask(const char *v) {
    uint32_t mask = 0;
    while (v && *v) {
        char *end;
        long k = strtol(v, &end, 10);
        if (end == v)
            break;
        if (k >= 0 && k < 32)
            mask |= 1u << k;
        v = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            break;
    }
    return mask;
}

void cli_engine_test_hooks(cuzk_engine_config *c) {
    const char *seed = getenv("CUZK_TEST_ONLY_RS_SEED");
    if (seed && *seed)
        snprintf(c->test_rs_seed, sizeof c->test_rs_seed, "%s", seed);
    c->test_fail_devices |= fail_mask(getenv("CUZK_TEST_FAIL_DEVICE"));
}
