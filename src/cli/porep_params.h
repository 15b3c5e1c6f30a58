/* Parameter files for the CLI: found by their Filecoin names (a kind's
 * param_stem + ".params" / ".vk" / ".meta") in a directory,
 * matched against the circuit, loaded into memory, and -- for tests only --
 * generated (`cuzk setup porep-2k --out DIR`).  porep_params_load decodes any
 * circuit's .params file (cuzk prove uses it for the built-in circuits too). */
#ifndef CUZK_CLI_POREP_PARAMS_H
#define CUZK_CLI_POREP_PARAMS_H

#include <stddef.h>

#include "filecoin/porep/porep_circuit.h"
#include "filecoin/kinds.h"
#include "filecoin/proof_types.h"
#include "groth16/params.h"

/* What the parameters of a circuit must contain (counting-mode synthesis of
 * the blank circuit). */
typedef struct {
    size_t rows, inputs, aux; /* inputs with ONE; rows with the input rows */
    size_t n_h, n_l, n_a, n_b;
} porep_params_expect;

int porep_params_expect_get(porep_params_expect *out, const porep_shape *s);

/* DIR/STEM.params, .vk and .meta for a sector shape; DIR is dir, else by
 * the one rule of filecoin/param_dir.h ($FIL_PROOFS_PARAMETER_CACHE, else
 * rust-fil-proofs' default /var/tmp/filecoin-proof-parameters).  Returns 0, or -1 if a path is too
 * long. */
int porep_params_paths(char *params, char *vk, char *meta, size_t cap, const char *dir,
                       const fc_sector_shape *shape);

/* The same for any kind's circuit (its row's param_stem). */
int params_paths_of(char *params, char *vk, char *meta, size_t cap, const char *dir,
                    const fc_circuit *c);

/* The same by circuit id ("wpost-2k"). */
int params_paths_by_id(char *params, char *vk, char *meta, size_t cap, const char *dir,
                       const char *circuit_id);

/* What the parameters of a kind's circuit of shape must contain. */
int params_expect_of(porep_params_expect *out, const fc_kind *k, const void *shape);

/* An opened parameter file with every section decoded (curve-checked), or
 * none: file-backed data (groth16/params.h) for provers that read the file. */
typedef struct {
    groth16_params gp;
    g1_affine *h, *l, *a, *b1;
    g2_affine *b2;
    groth16_params_data d;
    int test_only; /* the .meta says these are test parameters */
} porep_params_loaded;

/* Opens path and checks its counts against e (NULL: no check; a zero
 * section count in e: that section not checked), then decodes every point
 * when on_host (else p->d is file-backed).  Returns 0, or -1 with a message
 * in err. */
int porep_params_load(porep_params_loaded *p, const char *path, const char *meta_path,
                      const porep_params_expect *e, unsigned threads, int on_host, char *err,
                      size_t cap);
void porep_params_free(porep_params_loaded *p);

/* Only the structure and counts of an existing file (no point decoding):
 * 0 if params and vk exist and match e, -1 with a message otherwise. */
int porep_params_match(const char *params, const char *vk, const porep_params_expect *e, char *err,
                       size_t cap);

/* `cuzk setup porep-2k|wpost-2k|winning-2k|snap-2k|... --out DIR [--threads N] [--force]`. */
int cmd_setup_porep(int argc, char **argv);

#endif
