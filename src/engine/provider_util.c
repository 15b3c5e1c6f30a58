/* Shared by the circuit providers (see provider_util.h). */
#include "engine/provider_util.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "filecoin/circuit_counts.h"
#include "groth16/prove_checked.h"
#include "util/slog.h"

enum { SIZE_CACHE = 32 };

static pthread_mutex_t size_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char id[ENGINE_CIRCUIT_ID_LEN];
    uint64_t bytes;
    pce_shape_counts counts; /* a loaded pce is held against them */
} size_cache[SIZE_CACHE];
static size_t size_cached;

uint64_t provider_partition_bytes(const char *circuit_id, r1cs_synth_fn blank, void *arg) {
    pthread_mutex_lock(&size_mu);
    for (size_t i = 0; i < size_cached; i++)
        if (strcmp(size_cache[i].id, circuit_id) == 0) {
            uint64_t b = size_cache[i].bytes;
            pthread_mutex_unlock(&size_mu);
            return b;
        }
    pthread_mutex_unlock(&size_mu);
    pce_shape_counts sc = {0};
    const fc_circuit_counts *known = fc_circuit_counts_find(circuit_id);
    if (known) {
        sc = (pce_shape_counts){
            known->rows, known->inputs, known->aux, {known->nnz[0], known->nnz[1], known->nnz[2]}};
    } else { /* counted outside the lock: a large circuit takes seconds, once */
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, 0, NULL);
        r1cs_counts c;
        if (cs && r1cs_synthesize(cs, blank, arg) == R1CS_OK && r1cs_get_counts(cs, &c) == 0)
            sc = (pce_shape_counts){
                c.constraints_total, c.inputs, c.aux, {c.nnz_a, c.nnz_b, c.nnz_c}};
        r1cs_cs_free(cs);
    }
    uint64_t bytes = 0;
    if (sc.rows)
        bytes = sc.rows * 3 * sizeof(fr) + (sc.num_inputs + sc.num_aux) * sizeof(fr) +
                (sc.num_inputs + 2 * sc.num_aux) / 8 + 4096;
    pthread_mutex_lock(&size_mu);
    if (bytes && size_cached < SIZE_CACHE) {
        snprintf(size_cache[size_cached].id, ENGINE_CIRCUIT_ID_LEN, "%s", circuit_id);
        size_cache[size_cached].counts = sc;
        size_cache[size_cached++].bytes = bytes;
    }
    pthread_mutex_unlock(&size_mu);
    return bytes;
}

int provider_shape_counts(const char *circuit_id, pce_shape_counts *out) {
    int rc = -1;
    pthread_mutex_lock(&size_mu);
    for (size_t i = 0; i < size_cached && rc; i++)
        if (strcmp(size_cache[i].id, circuit_id) == 0) {
            *out = size_cache[i].counts;
            rc = 0;
        }
    pthread_mutex_unlock(&size_mu);
    return rc;
}

groth16_synth_source provider_source(r1cs_synth_fn synth, void *arg, groth16_witness_fn witness,
                                     void *witness_arg, const engine_pce_use *use) {
    groth16_synth_source s = {synth, arg, NULL, witness, witness_arg, 1, 0, 0};
    if (use) {
        s.pce = use->pce;
        s.threads = use->threads ? use->threads : 1;
        s.defer_abc = use->defer_abc;
        s.no_fallback = use->no_fallback;
    }
    return s;
}

cuzk_status provider_synthesize(r1cs_partition *out, const groth16_synth_source *src,
                                const fr *inputs, size_t n_inputs, const char *what,
                                char err[CUZK_ERROR_LEN]) {
    char msg[CUZK_ERROR_LEN - 64], note[256];
    int fell_back = 0;
    int rc = groth16_synthesize_source(out, src, inputs, n_inputs, &fell_back, note, sizeof note,
                                       msg, sizeof msg);
    if (fell_back)
        slog(SLOG_WARN, "pce", "%s: %s", what, note);
    if (rc == 0)
        return CUZK_OK;
    snprintf(err, CUZK_ERROR_LEN, "%s: %s", what, msg);
    return strcmp(msg, "out of memory") == 0 ? CUZK_E_EXHAUSTED : CUZK_E_INTERNAL;
}
