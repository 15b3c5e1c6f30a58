#include "groth16/backend.h"

#include <string.h>

#include "ntt/ntt.h"
#include "util/switches.h"

const groth16_backend *groth16_backend_find(const char *name) {
    if (name && strcmp(name, groth16_backend_cpu.name) == 0)
        return &groth16_backend_cpu;
    return NULL;
}

int groth16_params_on_host(const groth16_backend *const *backends, size_t n) {
    long v = switch_get(SW_PARAMS_HOST);
    if (v == 1 || v == 2)
        return v == 1;
    for (size_t i = 0; i < n; i++)
        if (!groth16_backend_keeps_params(backends[i])) /* it proves from the host's points */
            return 1;
    return n == 0;
}

uint64_t groth16_cpu_scratch_bytes(uint64_t rows, uint64_t n_in, uint64_t n_aux, unsigned threads) {
    const uint64_t fr_bytes = sizeof(fr), batch = 2048; /* msm's batch-affine batch */
    uint64_t m = 2;
    while (m < rows)
        m <<= 1;
    uint64_t layer = m < ((uint64_t)1 << NTT_MAX_LOG_BLOCK) ? m : (uint64_t)1 << NTT_MAX_LOG_BLOCK;
    uint64_t h = 3 * m * fr_bytes + (m / 2 + 1 + 2 * layer) * fr_bytes;
    uint64_t scalars = (n_in + n_aux + m) * fr_bytes;
    uint64_t n = n_aux > m ? n_aux : m;
    unsigned c = msm_auto_window((size_t)n, 1);
    uint64_t windows = (256 + c - 1) / c;
    uint64_t msm = n * (2 * windows + 2 * sizeof(uint32_t));
    uint64_t per_thread =
        ((uint64_t)1 << c) * (sizeof(g2_affine) + sizeof(g2_jac) + 1) +
        batch * (3 * sizeof(g2_affine) + 2 * sizeof(fp2) + 2 * sizeof(uint32_t) + 1);
    uint64_t total = h + scalars + msm + (uint64_t)(threads ? threads : 1) * per_thread;
    return total + total / 8;
}
