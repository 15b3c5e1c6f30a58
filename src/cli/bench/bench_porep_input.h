/* The 2 KiB PoRep input of the porep-2k benchmarks (`cuzk bench ab`,
 * `cuzk bench engine --workload porep-2k`): a C1 output, read from a file
 * or sealed here in memory (a StackedDrg2KiBV1_1 sector of seeded random
 * data, so every run proves the same sector), and the directory of its
 * parameters. */
#ifndef CUZK_CLI_BENCH_POREP_INPUT_H
#define CUZK_CLI_BENCH_POREP_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "sealer/sealer.h"

typedef struct {
    c1_output *c1; /* decoded */
    uint8_t *json; /* the same C1 as Curio sends it (c1.json wrapper), for the engine */
    size_t json_len;
    char origin[160];                 /* "FILE" or "sealed here: ..." */
    uint64_t miner_id, sector_number; /* the C1's identity, sent with each request */
} bench_porep_input;

/* c1_path NULL: seal a 2 KiB V1_1 sector with `seed`.  0, or -1 with a
 * message in err. */
int bench_porep_input_get(bench_porep_input *out, const char *c1_path, uint64_t seed, char *err,
                          size_t cap);
/* The same sealing (c1_path NULL), keeping the sealed sector in *s
 * (fc_sealed_free) so that the other kinds' 2 KiB inputs come from it
 * (`cuzk bench engine --workload mixed`). */
int bench_porep_input_seal(bench_porep_input *out, fc_sealed *s, uint64_t seed, char *err,
                           size_t cap);
void bench_porep_input_free(bench_porep_input *in);

/* dir, else $FIL_PROOFS_PARAMETER_CACHE; checks that the parameter and vk
 * files of the C1's shape are there.  0 with paths filled, or -1 with a
 * message that says how to make test parameters. */
int bench_porep_params(char *params, char *vk, char *meta, size_t path_cap, const char *dir,
                       const c1_output *c1, char *err, size_t cap);

#endif
