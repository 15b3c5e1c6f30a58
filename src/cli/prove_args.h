/* What `cuzk prove|verify porep|post|snap` share: numbers, the
 * --trust-params flag, the published-digest check of the parameter files
 * they load (filecoin/param_digest.h: the engine's rule, one copy), opening
 * the parameters or the vk, and reading a file of concatenated proofs. */
#ifndef CUZK_CLI_PROVE_ARGS_H
#define CUZK_CLI_PROVE_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "cli/porep_params.h"
#include "groth16/backend.h"
#include "groth16/prover.h"
#include "groth16/verify.h"

/* A decimal u64 (no sign, no blanks); -1 after "cuzk CMD: WHAT: ..." */
int cli_parse_u64(uint64_t *out, const char *s, const char *cmd, const char *what);

/* Removes every argv entry equal to flag (a flag without a value) and
 * returns how many there were. */
int cli_take_flag(int *argc, char **argv, const char *flag);

/* The options every prove command takes besides its inputs. */
typedef struct {
    const char *backend_name, *rs_seed;
    const groth16_backend *backend;
    int trust_params; /* --trust-params (TRUST_PARAMS=1 counts too) */
} cli_prove_opts;

/* --rs-seed checked and the backend picked; 0, or -1 after a message.  A
 * seed prints the TEST-ONLY warning. */
int cli_prove_opts_check(cli_prove_opts *o, const char *cmd);

/* path's digest against Filecoin's published one (fc_param_check_load):
 * 0 (a TEST-ONLY or trusted file with a note on stderr), or -1 after
 * "cuzk CMD: <why>" for a mismatch or an unreadable file. */
int cli_param_digest(const char *cmd, const char *path, int trust);

/* Digest, load (counts against e) and prepared vk of a .params file for
 * proving on backend (its points decoded or left in the file as
 * groth16_params_on_host says); 0, or -1 after a message with nothing left
 * to free.  On 0 the caller frees both (groth16_pvk_free, porep_params_free). */
int cli_params_open(porep_params_loaded *lp, groth16_pvk *pvk, const char *cmd, const char *params,
                    const char *meta, const porep_params_expect *e, unsigned threads, int trust,
                    const groth16_backend *backend);

/* Digest, load and prepare of a .vk file into zeroed vk and pvk; 0, or -1
 * after a message (both are safe to free either way). */
int cli_vk_open(groth16_vk *vk, groth16_pvk *pvk, const char *cmd, const char *vk_path, int trust);

/* Exactly n proofs of GROTH16_PROOF_BYTES from path (what names them in
 * the length message, "3 partitions of X"); 0, or -1 after a message. */
int cli_proofs_read(groth16_proof *proofs, size_t n, const char *path, const char *cmd,
                    const char *what);

/* The public inputs of partition i into *in (n_in of them, freed by the
 * caller with free()), and its number for messages in *label; 0, or -1
 * after a message. */
typedef int (*cli_public_fn)(void *ctx, size_t i, fr **in, size_t *n_in, unsigned long long *label);

/* `cuzk verify ...` of n partitions: exactly n proofs from proof_path
 * (what names them for the length message), the .vk at vk_path (its digest
 * checked unless trust), each proof against public(ctx, i); prints
 * "INVALID (partition K)" for each that fails.  0 when every one verified,
 * 1 when one is invalid, 2 on an error (said). */
int cli_verify_partitions(const char *cmd, const char *what, const char *proof_path,
                          const char *vk_path, int trust, size_t n, cli_public_fn public_fn,
                          void *ctx);

#endif
