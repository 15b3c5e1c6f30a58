/* Open, or record and write, a shape's PCE: see pce_cache.h. */
#include "r1cs/pce_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "util/err.h"
#include "util/timing.h"

int pce_record(r1cs_synth_fn blank, void *arg, const char *circuit_id, const char *stem,
               r1cs_pce *out, char *err, size_t cap) {
    double t0 = timing_now_ms();
    r1cs_cs *cs = r1cs_cs_new(R1CS_RECORD, 0, NULL);
    if (!cs)
        return err_set(err, cap, "out of memory");
    int rc = 0;
    if (r1cs_synthesize(cs, blank, arg) != R1CS_OK)
        rc = err_set(err, cap, "recording the blank circuit failed: %s", r1cs_error_message(cs));
    else
        rc = pce_from_recording(cs, circuit_id, stem, (uint64_t)(timing_now_ms() - t0), out, err,
                                cap);
    r1cs_cs_free(cs);
    return rc ? -1 : 0;
}

/* A loaded file against the parameters' stem and the blank circuit's counts
 * (pce_open checked rows, inputs and aux already); 0 or -1 with the
 * difference.  The circuit id is not compared: `cuzk pce build window-2k`
 * and the engine's "wpost-2k" name one shape, which the stem identifies. */
static int check_nnz(const r1cs_pce *p, const pce_shape_counts *c, const char *stem, char *err,
                     size_t cap) {
    if (stem && p->params_stem[0] && strcmp(p->params_stem, stem) != 0)
        return err_set(err, cap, "recorded for the parameters %.100s, not %.100s", p->params_stem,
                       stem);
    for (int m = 0; c && m < 3; m++)
        if (c->nnz[m] && c->nnz[m] != p->nnz[m])
            return err_set(err, cap, "matrix %c has %llu non-zeros, the circuit %llu", "ABC"[m],
                           (unsigned long long)p -> nnz[m], (unsigned long long)c -> nnz[m]);
    return 0;
}

/* 1 with *out filled, 0 when there is no file, -1 when it was refused
 * (renamed to .bad, the reason in info->note). */
static int try_open(const char *path, const pce_expect *ex, const pce_shape_counts *c,
                    const char *stem, unsigned threads, r1cs_pce *out, pce_obtain_info *info) {
    if (access(path, F_OK) != 0)
        return 0;
    char why[400];
    if (pce_open(path, ex, threads, out, why, sizeof why) == 0) {
        if (check_nnz(out, c, stem, why, sizeof why) == 0)
            return 1;
        pce_free(out);
    }
    char bad[4200];
    snprintf(bad, sizeof bad, "%s.bad", path);
    info->refused = 1;
    if (rename(path, bad) != 0)
        snprintf(info->note, sizeof info->note, "%s refused (%.300s), not renamed: %s", path, why,
                 strerror(errno));
    else
        snprintf(info->note, sizeof info->note, "%s refused (%.300s), renamed to .bad", path, why);
    return -1;
}

int pce_obtain(const char *dir, const char *circuit_id, const char *stem, r1cs_synth_fn blank,
               void *blank_arg, const pce_shape_counts *counts, unsigned threads, r1cs_pce *out,
               pce_obtain_info *info, char *err, size_t cap) {
    memset(out, 0, sizeof *out);
    memset(info, 0, sizeof *info);
    double t0 = timing_now_ms();
    const pce_expect ex = {NULL, counts ? counts->rows : 0, counts ? counts->num_inputs : 0,
                           counts ? counts->num_aux : 0};
    char path[4096], lock[4120];
    if (!dir || !*dir || !stem || !*stem || strchr(stem, '/'))
        goto memory;
    if ((size_t)snprintf(path, sizeof path, "%s/%s.pce", dir, stem) >= sizeof path)
        goto memory;
    snprintf(lock, sizeof lock, "%s.lock", path);
    if (try_open(path, &ex, counts, stem, threads, out, info) == 1)
        goto loaded;
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(info->note + strlen(info->note), sizeof info->note - strlen(info->note),
                 "%s%s: %s; kept in memory", info->note[0] ? "; " : "", lock, strerror(errno));
        goto memory;
    }
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
        ;
    /* another process may have written it while we waited */
    if (try_open(path, &ex, counts, stem, threads, out, info) == 1) {
        close(fd);
        goto loaded;
    }
    if (pce_record(blank, blank_arg, circuit_id, stem, out, err, cap)) {
        close(fd);
        return -1;
    }
    info->built = 1;
    char why[400];
    if (check_nnz(out, counts, NULL, why, sizeof why) != 0) {
        close(fd);
        pce_free(out);
        return err_set(err, cap, "the recording of %s differs from its count: %s", circuit_id, why);
    }
    if (pce_write(out, path, threads, why, sizeof why) != 0) {
        info->in_memory = 1;
        size_t l = strlen(info->note);
        snprintf(info->note + l, sizeof info->note - l, "%snot written (%.300s); kept in memory",
                 l ? "; " : "", why);
    }
    close(fd);
    info->ms = timing_now_ms() - t0;
    return 0;
loaded:
    info->loaded = 1;
    info->ms = timing_now_ms() - t0;
    return 0;
memory:
    if (pce_record(blank, blank_arg, circuit_id, stem, out, err, cap))
        return -1;
    info->built = info->in_memory = 1;
    info->ms = timing_now_ms() - t0;
    return 0;
}
