/* What `cuzk prove|verify VERB` and `cuzk VERB public-inputs` do the same
 * for every proof kind (filecoin/kinds.h), once the kind's command
 * (cmd_<kind>.c) has parsed its own arguments and prepared its partitions:
 * find the parameters by the kind's stem, load them checked against the
 * circuit, record or load the circuit's pce, prove and self-verify every
 * partition, write the proofs; verify proofs against the derived inputs;
 * print public inputs. */
#ifndef CUZK_CLI_PROVE_KIND_H
#define CUZK_CLI_PROVE_KIND_H

#include <stddef.h>
#include <stdio.h>

#include "cli/prove_args.h"
#include "cli/prove_checked.h"
#include "filecoin/kinds.h"

/* The end of every `cuzk prove VERB` usage line: the shared options. */
#define CLI_PROVE_USAGE_OPTS                                                                    \
    "[--params-dir DIR] [--trust-params] [--out proof.bin] [--threads N] [--backend cpu|cuda] " \
    "[--rs-seed HEX (TEST ONLY: fixed r, s)]   (DIR default: $FIL_PROOFS_PARAMETER_CACHE)"

/* Partition i of a prepared proof (pointers that live as long as ctx), and
 * its number for messages in *label; 0, or -1 after a message. */
typedef int (*cli_part_fn)(void *ctx, size_t i, fc_kind_part *out, unsigned long long *label);

typedef struct {
    const char *cmd;           /* "prove post": messages */
    const char *proof_name;    /* the registered proof, for the last line */
    const fc_circuit *circuit; /* its kind and sector size: parameter stem, pce id */
    const void *shape;         /* the partitions' circuit shape (the blank circuit) */
    size_t n;                  /* partitions */
    cli_part_fn part;
    void *ctx;
    /* 1: every section count of the parameters is checked against a count
     * of the blank circuit; 0: only the public inputs (a count of a large
     * circuit costs tens of seconds) */
    int count_params;
    const char *dir, *out; /* parameter directory (NULL: the default), proof file */
    const cli_prove_opts *o;
    unsigned threads;
} cli_kind_prove;

/* Milliseconds of the phases, summed over partitions. */
typedef struct {
    double params, synth, prove, verify, write;
    groth16_prove_timing p;
} cli_kind_timing;

/* Proves, self-verifies and writes every partition of j (t0: when the
 * command started, for the last line); t (may be NULL) gets the phases.
 * 0 with "CMD: PROOF: P proofs (B bytes) verified and written to OUT in S
 * s" on stdout, or 1 after a message and no file written. */
int cli_prove_kind(const cli_kind_prove *j, double t0, cli_kind_timing *t);

/* `cuzk verify VERB`: n proofs in proof_path against circuit's .vk in dir
 * and the public inputs public_fn gives (cli_verify_partitions).  0 all
 * valid, 1 one invalid, 2 an error (said). */
int cli_verify_kind(const char *cmd, const fc_circuit *circuit, const char *dir,
                    const char *proof_path, int trust, size_t n, const char *what,
                    cli_public_fn public_fn, void *ctx);

/* Public inputs as `cuzk VERB public-inputs` prints them: 32-byte
 * little-endian Fr in hex, one per line. */
void cli_print_inputs(FILE *to, const fr *in, size_t n);

#endif
