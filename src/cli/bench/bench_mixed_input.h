/* The inputs of `cuzk bench engine --workload mixed`: one request of each
 * proof kind (PoRep C2, SnapDeals, WindowPoSt, WinningPoSt), proven again
 * and again, and what the bench's own verifier needs for it.
 *
 * Where they come from: files (a C1 output, a `cuzk seal update` snap.json,
 * PoSt vanilla proofs with their randomness: the outputs of `cuzk c1 synth
 * --valid`, `cuzk seal update` and `cuzk post-vanilla` at any sector size),
 * or at 2 KiB, made here in memory from ONE sealed sector, as the porep-2k
 * workload seals it: its C1, its WindowPoSt and WinningPoSt vanilla proofs
 * (tree R), and a SnapDeals update of its replica with random data.
 *
 * Public inputs are derived here natively from what the request carries,
 * as a chain verifier does (the C1's replica_id/seed/comm_r, the PoSt
 * replicas and randomness, the three Snap commitments), not taken from the
 * engine, so that every proof the engine returns is checked a second time. */
#ifndef CUZK_CLI_BENCH_MIXED_INPUT_H
#define CUZK_CLI_BENCH_MIXED_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "field/fr.h"
#include "filecoin/kinds.h"

/* The mix's kinds, in --mix order. */
typedef enum { MIX_POREP = 0, MIX_SNAP, MIX_WINDOW, MIX_WINNING, MIX_KINDS } bench_mix_kind;

#define BENCH_MIX_MAX_VANILLA 64

typedef struct {
    bench_mix_kind mk;
    cuzk_proof_kind kind;
    fc_circuit circuit; /* its parameter set: circuit id, .vk */
    uint64_t sector_size;
    /* the request's fields */
    uint64_t registered_proof, miner_id, sector_number;
    uint8_t *blob; /* PoRep: the C1 as Curio sends it */
    size_t blob_len;
    uint8_t *van[BENCH_MIX_MAX_VANILLA]; /* PoSt: per sector; Snap: per partition */
    size_t van_len[BENCH_MIX_MAX_VANILLA], n_van;
    uint8_t rnd[32];
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
    /* the verifier's side: n_parts rows of n_inputs */
    fr *inputs;
    size_t n_inputs, n_parts;
    char origin[256]; /* where it came from, for the header */
} bench_mix_input;

/* The files of each kind (NULL: none given). */
typedef struct {
    const char *c1;
    const char *snap_json;
    const char *window_vanilla; /* FILE[,FILE...]: the sectors of one partition */
    const char *window_rnd, *winning_vanilla, *winning_rnd;
} bench_mix_files;

const char *bench_mix_kind_name(bench_mix_kind k); /* "porep", "snap", "window", "winning" */

/* Reads the given inputs of the kinds with want[k] set into in[k] (in[k].kind
 * 0 when not given).  0, or -1 with a message in err. */
int bench_mix_inputs_read(bench_mix_input in[MIX_KINDS], const int want[MIX_KINDS],
                          const bench_mix_files *f, char *err, size_t cap);

/* Seals one 2 KiB sector (StackedDrg2KiBV1_1, random data of seed) and makes
 * the inputs of the wanted kinds that in[] does not hold yet.  0, or -1. */
int bench_mix_inputs_make_2k(bench_mix_input in[MIX_KINDS], const int want[MIX_KINDS],
                             uint64_t seed, char *err, size_t cap);

/* The request of in (pointers into in), with its kind's default priority. */
void bench_mix_request(cuzk_request *r, const bench_mix_input *in, const char *id);

void bench_mix_input_free(bench_mix_input *in);

#endif
