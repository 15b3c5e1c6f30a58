/* PreloadSRS (cuzk_engine_preload_srs): a parameter set made HOT on the host
 * (srs.h) and resident on every usable GPU, so that the first proof after it
 * pays for neither.  A 32 GiB set's upload reads and converts tens of GB of
 * points: when no job runs, every core decodes; the GPUs upload in parallel
 * (each reads the file for its own copy).  A GPU that cannot take the set now
 * (out of device memory, a fault) is logged and left to upload it at its
 * first proof, which also finds a faulty device: preload fails only when the
 * host set cannot be loaded. */
#include <pthread.h>
#include <string.h>

#include "engine/engine_internal.h"
#include "util/err.h"

typedef struct {
    engine_device *d;
    const groth16_params_data *data;
    unsigned threads;
    groth16_status st;
    groth16_error err;
} upload;

static void *upload_run(void *arg) {
    upload *u = arg;
    memset(&u->err, 0, sizeof u->err);
    u->st = groth16_backend_preload(u->d->backend, u->data, u->threads, &u->err);
    return NULL;
}

/* Under the lock, s acquired: the devices that should take s now. */
static unsigned uploads_wanted(cuzk_engine *e, const srs_set *s, upload *u) {
    unsigned n = 0;
    for (unsigned i = 0; i < e->n_devices; i++) {
        engine_device *d = &e->devices[i];
        if (d->failed || !d->backend || !d->backend->preload || device_resident(d, s))
            continue;
        u[n++] = (upload){d, &s->data, 0, GROTH16_OK, {0}};
    }
    /* every core when the engine is idle, else the provers' share */
    const int idle = !e->n_active && !e->synth_active && !e->prove_active;
    unsigned cores = idle ? e->synth_cores + e->prover_threads : e->prover_threads;
    for (unsigned k = 0; k < n; k++)
        u[k].threads = cores / n ? cores / n : 1;
    return n;
}

/* Without the lock: the uploads, in parallel. */
static void uploads_run(upload *u, unsigned n) {
    pthread_t tid[ENGINE_MAX_DEVICES];
    int started[ENGINE_MAX_DEVICES] = {0};
    for (unsigned k = 0; k < n; k++)
        started[k] = k + 1 < n && pthread_create(&tid[k], NULL, upload_run, &u[k]) == 0;
    for (unsigned k = 0; k < n; k++)
        if (!started[k])
            upload_run(&u[k]);
    for (unsigned k = 0; k < n; k++)
        if (started[k])
            pthread_join(tid[k], NULL);
}

cuzk_status cuzk_engine_preload_srs(cuzk_engine *e, const char *circuit_id, int *already_loaded,
                                    uint64_t *load_ms, char err[CUZK_ERROR_LEN]) {
    int d1;
    uint64_t d2;
    if (!already_loaded)
        already_loaded = &d1;
    if (!load_ms)
        load_ms = &d2;
    *already_loaded = 0;
    *load_ms = 0;
    if (!e || !circuit_id) {
        err_set(err, CUZK_ERROR_LEN, "missing circuit id");
        return CUZK_E_INVALID;
    }
    char msg[CUZK_ERROR_LEN] = "";
    pthread_mutex_lock(&e->mu);
    cuzk_status st = CUZK_OK;
    srs_set *s = srs_lookup(&e->srs, circuit_id, &st, msg);
    double ms = 0;
    if (s) {
        int hot = s->tier == SRS_HOT && !s->loading;
        st = srs_acquire(&e->srs, s, 0, 0, 0, &ms, msg);
        if (st == CUZK_OK) {
            upload u[ENGINE_MAX_DEVICES];
            unsigned n = uploads_wanted(e, s, u);
            *already_loaded = hot && n == 0;
            if (n) {
                pthread_mutex_unlock(&e->mu);
                double t0 = timing_now_ms();
                uploads_run(u, n);
                ms += timing_now_ms() - t0;
                pthread_mutex_lock(&e->mu);
            }
            for (unsigned k = 0; k < n; k++) {
                if (u[k].st == GROTH16_OK)
                    device_use(u[k].d, s, engine_now(e));
                else
                    engine_log("device %s: %s not made resident at preload (%s); its first "
                               "proof uploads it",
                               u[k].d->name, circuit_id, u[k].err.msg);
            }
            srs_release(&e->srs, s);
        }
    }
    *load_ms = (uint64_t)(ms + 0.5);
    pthread_mutex_unlock(&e->mu);
    if (st != CUZK_OK)
        err_set(err, CUZK_ERROR_LEN, "%s", msg);
    return st;
}
