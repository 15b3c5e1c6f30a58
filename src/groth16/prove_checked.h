/* The one way a proof is made and handed out, by the engine's workers and by
 * every `cuzk prove …` / `cuzk bench` command:
 *
 *   synthesize (proving mode) -> the circuit's public inputs must equal the
 *   natively derived ones -> prove (any backend, r and s fresh or fixed) ->
 *   self-verify against the vk -> a proof that fails (or a backend error) is
 *   proved once more on the CPU backend, with the same r and s, and verified.
 *
 * Synthesis and proving are two calls because the engine runs them on
 * different threads (pipeline.c); groth16_prove_one_checked chains them for
 * callers that prove one partition at a time.  Messages go into the caller's
 * buffers, never to stderr. */
#ifndef CUZK_GROTH16_PROVE_CHECKED_H
#define CUZK_GROTH16_PROVE_CHECKED_H

#include <stddef.h>

#include "groth16/backend.h"
#include "groth16/verify.h"
#include "r1cs/cs.h"
#include "r1cs/pce.h"

/* Proving-mode synthesis of synth(cs, arg) into *out, whose public inputs
 * (after ONE) must be inputs[0..n_inputs).  Returns 0, or -1 with a message
 * ("synthesis failed: …", "out of memory", "internal: the circuit's public
 * inputs differ from the derived ones") and *out empty. */
int groth16_synthesize_checked(r1cs_partition *out, r1cs_synth_fn synth, void *arg,
                               const fr *inputs, size_t n_inputs, char *err, size_t cap);

/* A witness generator over a recorded shape: fills input (p->num_inputs,
 * ONE first) and aux (p->num_aux) exactly as classic synthesis allocates
 * them, on threads threads.  0, or -1 with a message. */
typedef int (*groth16_witness_fn)(void *arg, const r1cs_pce *p, unsigned threads, fr *input,
                                  fr *aux, char *err, size_t cap);

/* Where a partition's a, b, c come from: classic synthesis of synth(cs, arg),
 * or, when pce and witness are set, witness-only generation + the recorded
 * matrices (witness_arg, threads threads). */
typedef struct {
    r1cs_synth_fn synth;
    void *arg;
    const r1cs_pce *pce;
    groth16_witness_fn witness;
    void *witness_arg;
    unsigned threads;
    /* with a pce: leave a, b, c (and the full aux) to the backend, the
     * deferred partition of partition.h (groth16_backend_defers_abc) */
    int defer_abc;
    /* a failed pce path is an error instead of classic synthesis here (the
     * engine falls back itself, within its memory reservation) */
    int no_fallback;
} groth16_synth_source;

/* groth16_synthesize_checked through src: with a pce, the witness on
 * src->threads threads, the public inputs checked, then pce_partition.  If
 * that fails for any reason but out of memory, classic synthesis is used
 * instead (unless src->no_fallback: then it is an error, "pce synthesis
 * failed: ..."): *fell_back (may be NULL) is set and note (may be NULL) says why.
 * The result is byte for byte classic synthesis's.  0, or -1 as
 * groth16_synthesize_checked. */
int groth16_synthesize_source(r1cs_partition *out, const groth16_synth_source *src,
                              const fr *inputs, size_t n_inputs, int *fell_back, char *note,
                              size_t note_cap, char *err, size_t cap);

/* The memory of a CPU re-proof, which the caller may have to find first
 * (the engine reserves it in its budget): acquire returns 0 to go ahead, or
 * -1 with a message in why to refuse the re-proof (the proof then fails with
 * that message); release follows every acquire that returned 0. */
typedef struct {
    int (*acquire)(void *ctx, const r1cs_partition *p, char *why, size_t cap);
    void (*release)(void *ctx, const r1cs_partition *p);
    void *ctx;
} groth16_retry_guard;

typedef struct {
    const groth16_backend *backend;
    unsigned threads;
    const fr *r, *s;                        /* one per partition, or NULL for fresh values */
    int self_verify;                        /* 0: hand out what the backend returns unchecked */
    const groth16_retry_guard *retry_guard; /* NULL: the CPU re-proof just runs */
} groth16_prove_opts;

/* What became of one partition's proof. */
typedef struct {
    int ok;            /* the proof may be handed out */
    int verify_failed; /* the backend's proof failed self-verification */
    int retried;       /* proved again on the CPU backend */
    double verify_ms;  /* self-verification, with the retry when there was one */
    char msg[384];     /* why not ok, or what the retry fixed */
} groth16_proof_check;

/* The check step, called directly after a backend call on the n partitions
 * (sharing srs, pvk its prepared vk) whose outcome was st (backend_msg its
 * message when not GROTH16_OK): each proof is self-verified (o->self_verify)
 * against its own input[1..], and one that fails, or every one when the
 * call failed, is proved once more on the CPU backend with the same r, s
 * (within o->retry_guard when set) and verified.  o->backend names the backend in messages.  chk
 * has n entries.  Returns the number of good proofs. */
size_t groth16_check_proofs(groth16_proof *proofs, groth16_proof_check *chk,
                            const r1cs_partition *parts, size_t n, const groth16_params_data *srs,
                            const groth16_pvk *pvk, const groth16_prove_opts *o, groth16_status st,
                            const char *backend_msg);

/* Proves the n partitions (sharing srs, pvk its prepared vk) in one backend
 * call, then groth16_check_proofs; each one's public inputs are its own
 * input[1..].  chk has n entries; timing (n entries, the backend's
 * breakdown) and prove_ms (the backend call) may be NULL.  Returns the number
 * of good proofs. */
size_t groth16_prove_checked(groth16_proof *proofs, groth16_proof_check *chk,
                             const r1cs_partition *parts, size_t n, const groth16_params_data *srs,
                             const groth16_pvk *pvk, const groth16_prove_opts *o,
                             groth16_prove_timing *timing, double *prove_ms);

/* TEST ONLY: r and s for proof number k (the partition index) derived from
 * a hex seed: SHA-256(seed || "r"/"s" || k as 8 little-endian bytes),
 * reduced mod r.  The CLI's --rs-seed and the engine's
 * CUZK_TEST_ONLY_RS_SEED use it, so backends, the CLI and the daemon can be
 * compared byte for byte.  Whoever knows the seed can strip a proof's zero
 * knowledge; production proofs draw r, s from getrandom(2).  Returns 0, or
 * -1 with a message if the seed is not 1..64 bytes of hex. */
int groth16_rs_from_seed(fr *r, fr *s, const char *seed_hex, size_t k, char *err, size_t cap);

typedef struct {
    double synth_ms, prove_ms, verify_ms;
    size_t rows;
    groth16_prove_timing pt; /* the backend's breakdown */
    groth16_proof_check chk;
    int pce;       /* synthesized through the pce */
    int fell_back; /* the pce path failed; classic synthesis was used */
    char note[256];
} groth16_one_stats;

/* One partition: groth16_synthesize_source, then groth16_prove_checked
 * (o->r, o->s: one value each, or NULL).  Returns 0 with a good *proof, or
 * -1 with a message in err. */
int groth16_prove_one_checked(groth16_proof *proof, const groth16_synth_source *src,
                              const fr *inputs, size_t n_inputs, const groth16_params_data *srs,
                              const groth16_pvk *pvk, const groth16_prove_opts *o,
                              groth16_one_stats *st, char *err, size_t cap);

#endif
