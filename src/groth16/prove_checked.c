/* Synthesize, check, prove, self-verify, retry: see prove_checked.h. */
#include "groth16/prove_checked.h"

#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/err.h"
#include "util/hex.h"
#include "util/slog.h"
#include "util/timing.h"

static void derive(fr *out, const uint8_t *seed, size_t n, char tag, size_t k) {
    uint8_t buf[64 + 1 + 8], h[SHA256_DIGEST_LENGTH];
    memcpy(buf, seed, n);
    buf[n] = (uint8_t)tag;
    for (int i = 0; i < 8; i++)
        buf[n + 1 + i] = (uint8_t)((uint64_t)k >> (8 * i));
    SHA256(buf, n + 9, h);
    fr_from_bytes_le_reduce(out, h);
}

int groth16_rs_from_seed(fr *r, fr *s, const char *seed_hex, size_t k, char *err, size_t cap) {
    uint8_t seed[64];
    long n = hex_decode(seed, sizeof seed, seed_hex);
    if (n <= 0)
        return err_set(err, cap, "an r, s seed is 1 to 64 bytes of hex, not \"%.140s\"", seed_hex);
    derive(r, seed, (size_t)n, 'r', k);
    derive(s, seed, (size_t)n, 's', k);
    return 0;
}

int groth16_synthesize_checked(r1cs_partition *out, r1cs_synth_fn synth, void *arg,
                               const fr *inputs, size_t n_inputs, char *err, size_t cap) {
    memset(out, 0, sizeof *out);
    r1cs_cs *cs = r1cs_cs_new(R1CS_PROVE, R1CS_VALUES, NULL);
    if (!cs)
        return err_set(err, cap, "out of memory");
    int rc = 0;
    if (r1cs_synthesize(cs, synth, arg) != R1CS_OK || r1cs_take_partition(cs, out) != 0) {
        rc = err_set(err, cap, "synthesis failed: %s", r1cs_error_message(cs));
    } else {
        int same = out->num_inputs == n_inputs + 1;
        for (size_t i = 0; same && i < n_inputs; i++)
            same = fr_equal(&out->input[i + 1], &inputs[i]);
        if (!same)
            rc = err_set(err, cap,
                         "internal: the circuit's public inputs differ from the derived ones");
    }
    if (rc)
        r1cs_partition_free(out);
    r1cs_cs_free(cs);
    return rc;
}

static int same_inputs(const fr *input, size_t n_in, const fr *inputs, size_t n_inputs) {
    int same = n_in == n_inputs + 1;
    for (size_t i = 0; same && i < n_inputs; i++)
        same = fr_equal(&input[i + 1], &inputs[i]);
    return same;
}

/* aux is large: 2 MiB-aligned and advised huge so its first touch by the
 * witness threads faults in big pages. */
static fr *alloc_aux(size_t n) {
    size_t bytes = (n ? n : 1) * sizeof(fr), huge = (size_t)2 << 20;
    bytes = (bytes + huge - 1) / huge * huge;
    void *p = NULL;
    if (posix_memalign(&p, huge, bytes))
        return NULL;
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

/* The pce path: 0, 1 out of memory, -1 another failure (why in err). */
static int synth_pce(r1cs_partition *out, const groth16_synth_source *src, const fr *inputs,
                     size_t n_inputs, char *err, size_t cap) {
    const r1cs_pce *p = src->pce;
    fr *input = malloc((p->num_inputs ? p->num_inputs : 1) * sizeof(fr));
    fr *aux = alloc_aux(p->num_aux);
    if (!input || !aux) {
        free(input);
        free(aux);
        return err_set(err, cap, "out of memory"), 1;
    }
    unsigned t = src->threads ? src->threads : 1;
    if (src->witness(src->witness_arg, p, t, input, aux, err, cap)) {
        free(input);
        free(aux);
        return -1;
    }
    if (!same_inputs(input, p->num_inputs, inputs, n_inputs)) {
        free(input);
        free(aux);
        return err_set(err, cap, "the witness's public inputs differ from the derived ones");
    }
    int rc = src->defer_abc ? pce_partition_deferred(p, input, aux, t, out, err, cap)
                            : pce_partition(p, input, aux, t, out, err, cap); /* own both */
    if (rc)
        return strstr(err, "out of memory") ? 1 : -1;
    return 0;
}

int groth16_synthesize_source(r1cs_partition *out, const groth16_synth_source *src,
                              const fr *inputs, size_t n_inputs, int *fell_back, char *note,
                              size_t note_cap, char *err, size_t cap) {
    if (fell_back)
        *fell_back = 0;
    if (note && note_cap)
        note[0] = 0;
    if (src->pce && src->witness) {
        memset(out, 0, sizeof *out);
        char why[384];
        int r = synth_pce(out, src, inputs, n_inputs, why, sizeof why);
        if (r == 0)
            return 0;
        if (r == 1)
            return err_set(err, cap, "out of memory");
        if (src->no_fallback)
            return err_set(err, cap, "pce synthesis failed: %s", why);
        if (fell_back)
            *fell_back = 1;
        if (note && note_cap)
            snprintf(note, note_cap, "pce synthesis failed (%.200s); classic synthesis used", why);
    }
    return groth16_synthesize_checked(out, src->synth, src->arg, inputs, n_inputs, err, cap);
}

static int verify_one(const groth16_pvk *pvk, const groth16_proof *proof, const r1cs_partition *p,
                      char *why, size_t cap) {
    groth16_error ge = {0};
    if (groth16_verify(pvk, proof, p->input + 1, p->num_inputs - 1, &ge) == GROTH16_OK)
        return 0;
    return err_set(why, cap, "%s", ge.msg);
}

/* Partition k once more on the CPU backend (same r, s), verified. */
static void retry_cpu(groth16_proof *proof, groth16_proof_check *c, const r1cs_partition *p,
                      size_t k, const groth16_params_data *srs, const groth16_pvk *pvk,
                      const groth16_prove_opts *o) {
    char first[sizeof c->msg], why[256];
    snprintf(first, sizeof first, "%s", c->msg);
    const groth16_retry_guard *g = o->retry_guard;
    if (g && g->acquire(g->ctx, p, why, sizeof why)) {
        snprintf(c->msg, sizeof c->msg, "%.150s; not proved again on the CPU backend: %.180s",
                 first, why);
        return;
    }
    c->retried = 1;
    /* a large partition takes minutes on the CPU: say so before, not only after */
    slog(SLOG_WARN, "groth16",
         "partition %zu: %s; proving it again on the CPU backend rows=%zu threads=%u", k, first,
         p->num_constraints, o->threads);
    groth16_error ge = {0};
    if (groth16_backend_prove(&groth16_backend_cpu, proof, p, 1, srs, o->r ? &o->r[k] : NULL,
                              o->s ? &o->s[k] : NULL, o->threads, NULL, &ge) != GROTH16_OK) {
        snprintf(c->msg, sizeof c->msg, "%.180s; cpu prover: %.180s", first, ge.msg);
    } else if (verify_one(pvk, proof, p, why, sizeof why)) {
        snprintf(c->msg, sizeof c->msg,
                 "%.160s; self-verification failed on the CPU backend too: %.160s", first, why);
    } else {
        c->ok = 1;
        snprintf(c->msg, sizeof c->msg, "%.180s; proved again on the CPU backend", first);
    }
    if (g)
        g->release(g->ctx, p);
}

size_t groth16_check_proofs(groth16_proof *proofs, groth16_proof_check *chk,
                            const r1cs_partition *parts, size_t n, const groth16_params_data *srs,
                            const groth16_pvk *pvk, const groth16_prove_opts *o, groth16_status st,
                            const char *backend_msg) {
    memset(chk, 0, n * sizeof *chk);
    size_t good = 0;
    for (size_t k = 0; k < n; k++) {
        groth16_proof_check *c = &chk[k];
        double t1 = timing_now_ms();
        char why[256];
        if (st != GROTH16_OK) {
            snprintf(c->msg, sizeof c->msg, "%s prover: %.300s", o->backend->name,
                     backend_msg ? backend_msg : "failed");
        } else if (!o->self_verify) {
            c->ok = 1;
        } else if (verify_one(pvk, &proofs[k], &parts[k], why, sizeof why)) {
            c->verify_failed = 1;
            snprintf(c->msg, sizeof c->msg, "self-verification failed: %s", why);
        } else {
            c->ok = 1;
        }
        if (!c->ok)
            retry_cpu(&proofs[k], c, &parts[k], k, srs, pvk, o);
        c->verify_ms = timing_now_ms() - t1;
        good += c->ok != 0;
    }
    return good;
}

size_t groth16_prove_checked(groth16_proof *proofs, groth16_proof_check *chk,
                             const r1cs_partition *parts, size_t n, const groth16_params_data *srs,
                             const groth16_pvk *pvk, const groth16_prove_opts *o,
                             groth16_prove_timing *timing, double *prove_ms) {
    groth16_error ge = {0};
    double t0 = timing_now_ms();
    groth16_status st = groth16_backend_prove(o->backend, proofs, parts, n, srs, o->r, o->s,
                                              o->threads, timing, &ge);
    if (prove_ms)
        *prove_ms = timing_now_ms() - t0;
    return groth16_check_proofs(proofs, chk, parts, n, srs, pvk, o, st, ge.msg);
}

int groth16_prove_one_checked(groth16_proof *proof, const groth16_synth_source *src,
                              const fr *inputs, size_t n_inputs, const groth16_params_data *srs,
                              const groth16_pvk *pvk, const groth16_prove_opts *o,
                              groth16_one_stats *st, char *err, size_t cap) {
    memset(st, 0, sizeof *st);
    double t0 = timing_now_ms();
    r1cs_partition part;
    if (groth16_synthesize_source(&part, src, inputs, n_inputs, &st->fell_back, st->note,
                                  sizeof st->note, err, cap))
        return -1;
    st->pce = src->pce && src->witness && !st->fell_back;
    st->synth_ms = timing_now_ms() - t0;
    st->rows = part.num_constraints;
    size_t good =
        groth16_prove_checked(proof, &st->chk, &part, 1, srs, pvk, o, &st->pt, &st->prove_ms);
    st->verify_ms = st->chk.verify_ms;
    r1cs_partition_free(&part);
    if (!good)
        return err_set(err, cap, "%s", st->chk.msg);
    return 0;
}
