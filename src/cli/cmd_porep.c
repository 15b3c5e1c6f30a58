/* cuzk prove porep / verify porep / porep public-inputs: see cmd_porep.h. */
#include "cli/cmd_porep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/backend_pick.h"
#include "cli/porep_params.h"
#include "cli/prove_args.h"
#include "cli/prove_checked.h"
#include "filecoin/c1/c1.h"
#include "filecoin/porep/porep_inputs.h"
#include "filecoin/porep/porep_partition.h"
#include "groth16/prover.h"
#include "groth16/verify.h"
#include "util/file_write.h"
#include "util/hex.h"
#include "util/parallel.h"
#include "util/timing.h"

/* A decoded C1 file, with its graph where the command derives inputs itself. */
typedef struct {
    c1_output *c;
    fc_graph g;
    int have_graph;
} c1_file;

static void c1_file_free(c1_file *f) {
    c1_output_free(f->c);
    if (f->have_graph)
        fc_graph_free(&f->g);
    memset(f, 0, sizeof *f);
}

/* with_graph 0: only the decoded C1 (porep_c2_prepare builds its own graph). */
static int c1_file_open(c1_file *f, const char *path, const char *cmd, int with_graph) {
    memset(f, 0, sizeof *f);
    c1_error ce;
    if (c1_decode_file(&f->c, path, &ce) != C1_OK) {
        fprintf(stderr, "cuzk %s: %s: not a usable C1 output: %s: %s\n", cmd, path,
                c1_status_str(ce.status), ce.msg);
        return -1;
    }
    if (!with_graph)
        return 0;
    if (fc_graph_init_proof(&f->g, f->c->proof) != 0) {
        fprintf(stderr, "cuzk %s: cannot build the %s graph\n", cmd, f->c->proof->name);
        c1_file_free(f);
        return -1;
    }
    f->have_graph = 1;
    return 0;
}

static void print_inputs(FILE *to, const porep_public *pub) {
    for (size_t i = 0; i < pub->n_inputs; i++) {
        uint8_t b[FR_BYTES];
        char hex[2 * FR_BYTES + 1];
        fr_to_bytes_le(b, &pub->inputs[i]);
        hex_encode(hex, b, FR_BYTES);
        fprintf(to, "%s\n", hex);
    }
}

/* ---- porep public-inputs ----------------------------------------------------------- */

int cmd_porep(int argc, char **argv) {
    const char *usage = "cuzk porep public-inputs --c1 FILE [--partition K]";
    if (argc < 1 || strcmp(argv[0], "public-inputs") != 0) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    const char *file = NULL, *part = NULL;
    const cli_opt opts[] = {{"--c1", &file}, {"--partition", &part}};
    if (cli_parse(argc - 1, argv + 1, opts, 2, NULL, usage))
        return 2;
    if (!file) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    c1_file f;
    if (c1_file_open(&f, file, "porep", 1))
        return 1;
    unsigned first = 0, last = f.c->partitions;
    if (part) {
        char *end;
        unsigned long k = strtoul(part, &end, 10);
        if (*end || !*part || k >= f.c->partitions) {
            fprintf(stderr, "cuzk porep: --partition \"%s\": the C1 output has %u partitions\n",
                    part, f.c->partitions);
            c1_file_free(&f);
            return 2;
        }
        first = (unsigned)k;
        last = first + 1;
    }
    int rc = 0;
    for (unsigned k = first; k < last && rc == 0; k++) {
        porep_public pub;
        char err[512];
        if (porep_c1_public(&pub, f.c, k, &f.g, err, sizeof err)) {
            fprintf(stderr, "cuzk porep: partition %u: %s\n", k, err);
            rc = 1;
            break;
        }
        printf("# %s partition %u: %zu public inputs, 32-byte little-endian Fr, one per line\n",
               f.c->proof->name, k, pub.n_inputs);
        print_inputs(stdout, &pub);
        porep_public_free(&pub);
    }
    c1_file_free(&f);
    return rc;
}

/* ---- prove --------------------------------------------------------------------------- */

typedef struct {
    double decode, params, pub, witness, synth, prove, verify, write, total;
    groth16_prove_timing p; /* summed over partitions */
} porep_timing;

static void timing_print(const porep_timing *t, unsigned partitions) {
    printf("timing (s), %u partition%s:\n", partitions, partitions == 1 ? "" : "s");
    printf("  decode C1          %8.3f\n", t->decode / 1e3);
    printf("  load parameters    %8.3f\n", t->params / 1e3);
    printf("  public inputs      %8.3f  (challenges, graph parents)\n", t->pub / 1e3);
    printf("  witness + check    %8.3f\n", t->witness / 1e3);
    printf("  synthesis          %8.3f\n", t->synth / 1e3);
    printf("  prove              %8.3f  (H %.3f, scalars %.3f, MSM L %.3f A %.3f B1 %.3f "
           "B2 %.3f H %.3f, assemble %.3f)\n",
           t->prove / 1e3, t->p.h_ms / 1e3, t->p.scalars_ms / 1e3, t->p.msm_l_ms / 1e3,
           t->p.msm_a_ms / 1e3, t->p.msm_b1_ms / 1e3, t->p.msm_b2_ms / 1e3, t->p.msm_h_ms / 1e3,
           t->p.assemble_ms / 1e3);
    const groth16_prove_timing *p = &t->p;
    if (p->dev_h_ms + p->dev_l_ms + p->dev_hm_ms > 0) /* a GPU backend: its device time */
        printf("    on the device      (H %.3f, MSM L %.3f A %.3f B1 %.3f B2 %.3f H %.3f)\n",
               p->dev_h_ms / 1e3, p->dev_l_ms / 1e3, p->dev_a_ms / 1e3, p->dev_b1_ms / 1e3,
               p->dev_b2_ms / 1e3, p->dev_hm_ms / 1e3);
    printf("  verify             %8.3f\n", t->verify / 1e3);
    printf("  total              %8.3f\n", t->total / 1e3);
}

typedef struct {
    const char *c1, *dir, *out, *proof, *miner, *sector;
    cli_prove_opts o;
    unsigned threads;
    const r1cs_pce *pce; /* NULL: classic synthesis */
} porep_args;

static int blank_porep(r1cs_cs *cs, void *shape) {
    return porep_circuit_synthesize(cs, shape, NULL);
}

/* Proves prepared partition k into *proof with a's backend, self-verified. */
static int prove_partition(groth16_proof *proof, porep_partition *in, unsigned k,
                           const porep_params_loaded *lp, const groth16_pvk *pvk,
                           const porep_args *a, porep_timing *t) {
    const cli_prover pr = {a->o.backend, a->o.rs_seed, a->threads, a->pce, porep_partition_witness};
    cli_prove_stats st;
    if (cli_prove_checked(proof, "prove porep", k, k, porep_partition_synthesize, in,
                          in->pub.inputs, in->pub.n_inputs, &lp->d, pvk, &pr, &st))
        return -1;
    t->synth += st.synth_ms;
    t->prove += st.prove_ms;
    t->verify += st.verify_ms;
    groth16_prove_timing_add(&t->p, &st.pt);
    fprintf(stderr,
            "prove porep: partition %u: %zu rows, proved in %.1f s (%s backend), verified\n", k,
            st.rows, st.prove_ms / 1e3, a->o.backend->name);
    return 0;
}

static int params_for(char *params, char *vk, char *meta, size_t cap, const porep_args *a,
                      const c1_file *f) {
    if (porep_params_paths(params, vk, meta, cap, a->dir, f->c->proof->shape)) {
        fprintf(stderr, "cuzk: parameter path too long\n");
        return -1;
    }
    return 0;
}

/* The request's identity, as the daemon holds it (porep_c1_identity_check):
 * with --miner-id the C1's replica_id must be that miner's for --sector-number
 * (default: the Curio wrapper's SectorNum).  Without it only the C1 itself is
 * checked (porep_c2_prepare), and stderr says so.  0, 2 usage, 1 mismatch. */
static int identity_check(const porep_args *a, const c1_file *f, const char *cmd) {
    uint64_t miner = 0, sector = 0;
    if (a->sector && !a->miner) {
        fprintf(stderr, "cuzk %s: --sector-number needs --miner-id: the replica_id binds both\n",
                cmd);
        return 2;
    }
    if (!a->miner) {
        fprintf(stderr,
                "%s: miner and sector not given: the C1 is checked against itself only "
                "(give --miner-id and --sector-number to hold it to a sector)\n",
                cmd);
        return 0;
    }
    if (cli_parse_u64(&miner, a->miner, cmd, "--miner-id") ||
        (a->sector && cli_parse_u64(&sector, a->sector, cmd, "--sector-number")))
        return 2;
    if (!a->sector && !f->c->wrapped) {
        fprintf(stderr,
                "cuzk %s: --sector-number: required with --miner-id for a bare C1 (only "
                "Curio's wrapper names its SectorNum)\n",
                cmd);
        return 2;
    }
    if (!a->sector)
        sector = f->c->sector_num;
    char err[512];
    if (porep_c1_identity_check(f->c, miner, sector, err, sizeof err)) {
        fprintf(stderr, "cuzk %s: %s; no proof made\n", cmd, err);
        return 1;
    }
    fprintf(stderr, "%s: identity checked: miner %llu sector %llu reproduce the C1's replica_id\n",
            cmd, (unsigned long long)miner, (unsigned long long)sector);
    return 0;
}

int cmd_prove_porep(int argc, char **argv) {
    const char *usage =
        "cuzk prove porep --c1 FILE [--miner-id N [--sector-number N]] [--params-dir DIR] "
        "[--trust-params] [--out proof.bin] [--threads N] [--backend cpu|cuda] [--rs-seed HEX "
        "(TEST ONLY: fixed r, s to compare backends)]   (DIR default: "
        "$FIL_PROOFS_PARAMETER_CACHE; --sector-number default: the wrapper's SectorNum)";
    porep_args a = {0};
    a.threads = par_cpu_count();
    a.out = "proof.bin";
    a.o.trust_params = cli_take_flag(&argc, argv, "--trust-params") > 0;
    const cli_opt opts[] = {{"--c1", &a.c1},
                            {"--params-dir", &a.dir},
                            {"--out", &a.out},
                            {"--backend", &a.o.backend_name},
                            {"--rs-seed", &a.o.rs_seed},
                            {"--miner-id", &a.miner},
                            {"--miner", &a.miner},
                            {"--sector-number", &a.sector},
                            {"--sector", &a.sector}};
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], &a.threads, usage))
        return 2;
    if (!a.c1) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    if (cli_prove_opts_check(&a.o, "prove porep"))
        return 2;
    porep_timing t;
    memset(&t, 0, sizeof t);
    double t0 = timing_now_ms();
    c1_file f;
    if (c1_file_open(&f, a.c1, "prove porep", 0))
        return 1;
    int idrc = identity_check(&a, &f, "prove porep");
    if (idrc) {
        c1_file_free(&f);
        return idrc;
    }
    const unsigned P = f.c->partitions;
    fprintf(stderr, "prove porep: %s, %u partition%s of %u challenges\n", f.c->proof->name, P,
            P == 1 ? "" : "s", f.c->challenges);
    t.decode = timing_now_ms() - t0;
    porep_c2 c2;
    char err[512];
    if (porep_c2_prepare(&c2, f.c, err, sizeof err)) {
        fprintf(stderr,
                "cuzk prove porep: the C1 output is not a valid vanilla proof: %s; no proof "
                "written\n",
                err);
        c1_file_free(&f);
        return 1;
    }
    t.pub = c2.public_ms;
    t.witness = c2.witness_ms;
    fprintf(stderr, "prove porep: witness checked, public inputs derived (%.1f ms)\n",
            t.pub + t.witness);
    double t1 = timing_now_ms();
    char params[4096], vk[4096], meta[4096];
    porep_params_expect e;
    porep_params_loaded lp;
    int rc = 1;
    if (params_for(params, vk, meta, sizeof params, &a, &f))
        goto done;
    /* every section count of the blank circuit (counting mode), as the engine
     * sizes it: parameters of another circuit are refused before loading */
    if (porep_params_expect_get(&e, &c2.shape)) {
        fprintf(stderr, "cuzk prove porep: cannot count the %s circuit\n", f.c->proof->name);
        goto done;
    }
    groth16_pvk pvk;
    if (cli_params_open(&lp, &pvk, "prove porep", params, meta, &e, a.threads, a.o.trust_params,
                        a.o.backend))
        goto done;
    t.params = timing_now_ms() - t1;
    groth16_proof *proofs = calloc(P, sizeof *proofs);
    if (!proofs) {
        fprintf(stderr, "cuzk prove porep: out of memory\n");
        groth16_pvk_free(&pvk);
        porep_params_free(&lp);
        goto done;
    }
    char cid[64];
    snprintf(cid, sizeof cid, "porep-%s", f.c->proof->shape->short_name);
    r1cs_pce pce;
    if (cli_pce_load(&pce, "prove porep", params, cid, blank_porep, &c2.shape, a.threads))
        a.pce = &pce;
    unsigned k = 0;
    while (k < P && prove_partition(&proofs[k], &c2.parts[k], k, &lp, &pvk, &a, &t) == 0)
        k++;
    if (a.pce)
        pce_free(&pce);
    a.pce = NULL;
    if (k == P) {
        double tw = timing_now_ms();
        uint8_t *bytes = malloc((size_t)P * GROTH16_PROOF_BYTES);
        for (unsigned i = 0; bytes && i < P; i++)
            groth16_proof_write(bytes + (size_t)i * GROTH16_PROOF_BYTES, &proofs[i]);
        size_t n = (size_t)P * GROTH16_PROOF_BYTES;
        char werr[512];
        int ok = bytes && file_write_atomic(a.out, bytes, n, werr, sizeof werr) == 0;
        if (!ok) {
            fprintf(stderr, "cuzk prove porep: %s\n", bytes ? werr : "out of memory");
        } else {
            t.write = timing_now_ms() - tw;
            t.total = timing_now_ms() - t0;
            printf("prove porep: %s: %u proof%s (%zu bytes) verified and written to %s\n",
                   f.c->proof->name, P, P == 1 ? "" : "s", n, a.out);
            timing_print(&t, P);
            if (f.c->proof->variant == FC_POREP_NI)
                printf("note: NI-PoRep goes on chain as a SnarkPack aggregate of these %u "
                       "partition proofs; cuzk does not aggregate yet\n",
                       P);
            rc = 0;
        }
        free(bytes);
    }
    groth16_pvk_free(&pvk);
    free(proofs);
    porep_params_free(&lp);
done:
    porep_c2_free(&c2);
    c1_file_free(&f);
    return rc;
}

/* ---- verify ------------------------------------------------------------------------ */

/* cli_verify_partitions's view of partition i of the C1 file ctx. */
static int verify_public(void *ctx, size_t i, fr **in, size_t *n_in, unsigned long long *label) {
    c1_file *f = ctx;
    porep_public pub;
    char err[512];
    *label = i;
    if (porep_c1_public(&pub, f->c, (unsigned)i, &f->g, err, sizeof err)) {
        fprintf(stderr, "cuzk verify porep: partition %zu: %s\n", i, err);
        return -1;
    }
    *n_in = pub.n_inputs;
    *in = malloc((pub.n_inputs ? pub.n_inputs : 1) * sizeof **in);
    if (*in)
        memcpy(*in, pub.inputs, pub.n_inputs * sizeof **in);
    else
        fprintf(stderr, "cuzk verify porep: out of memory\n");
    porep_public_free(&pub);
    return *in ? 0 : -1;
}

int cmd_verify_porep(int argc, char **argv) {
    const char *usage = "cuzk verify porep --c1 FILE --proof proof.bin [--params-dir DIR] "
                        "[--trust-params]";
    porep_args a = {0};
    a.o.trust_params = cli_take_flag(&argc, argv, "--trust-params") > 0;
    const cli_opt opts[] = {{"--c1", &a.c1}, {"--params-dir", &a.dir}, {"--proof", &a.proof}};
    if (cli_parse(argc, argv, opts, 3, NULL, usage))
        return 2;
    if (!a.c1 || !a.proof) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    double t0 = timing_now_ms();
    c1_file f;
    if (c1_file_open(&f, a.c1, "verify porep", 1))
        return 2;
    const unsigned P = f.c->partitions;
    char params[4096], vk_path[4096], meta[4096];
    if (params_for(params, vk_path, meta, sizeof params, &a, &f)) {
        c1_file_free(&f);
        return 2;
    }
    char what[128];
    snprintf(what, sizeof what, "%s has %u partitions", f.c->proof->name, P);
    int rc = cli_verify_partitions("verify porep", what, a.proof, vk_path, a.o.trust_params, P,
                                   verify_public, &f);
    if (rc == 0)
        printf("OK: %s, %u partition%s verified in %.1f ms\n", f.c->proof->name, P,
               P == 1 ? "" : "s", timing_now_ms() - t0);
    c1_file_free(&f);
    return rc;
}
