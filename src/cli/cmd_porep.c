/* cuzk prove porep / verify porep / porep public-inputs: see cmd_porep.h. */
#include "cli/cmd_porep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/backend_pick.h"
#include "cli/kind_cmds.h"
#include "cli/prove_kind.h"
#include "filecoin/c1/c1.h"
#include "filecoin/porep/porep_inputs.h"
#include "filecoin/porep/porep_partition.h"
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
        cli_print_inputs(stdout, pub.inputs, pub.n_inputs);
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
} porep_args;

/* The PoRep circuit of f's sector size (its parameter files, its pce). */
static int porep_circuit(fc_circuit *c, const c1_file *f, const char *cmd) {
    const fc_kind *k = fc_kind_by_id_prefix("porep");
    if (k && k->circuit_at(k, c, (unsigned)(f->c->proof->shape - fc_shape_at(0))) == 0)
        return 0;
    fprintf(stderr, "cuzk %s: %s has no circuit\n", cmd, f->c->proof->name);
    return -1;
}

/* The prepared partitions as the shared flow reads them. */
static int porep_part(void *ctx, size_t i, fc_kind_part *out, unsigned long long *label) {
    porep_partition *p = &((porep_c2 *)ctx)->parts[i];
    *label = i;
    *out = (fc_kind_part){
        porep_partition_synthesize, p, porep_partition_witness, p, p->pub.inputs, p->pub.n_inputs};
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
    int rc = 1;
    fc_circuit c;
    if (porep_circuit(&c, &f, "prove porep"))
        goto done;
    /* every section count of the blank circuit (counting mode), as the engine
     * sizes it: parameters of another circuit are refused before loading */
    const cli_kind_prove j = {.cmd = "prove porep",
                              .proof_name = f.c->proof->name,
                              .circuit = &c,
                              .shape = &c2.shape,
                              .n = P,
                              .part = porep_part,
                              .ctx = &c2,
                              .count_params = 1,
                              .dir = a.dir,
                              .out = a.out,
                              .o = &a.o,
                              .threads = a.threads};
    cli_kind_timing kt;
    if (cli_prove_kind(&j, t0, &kt) == 0) {
        t.params = kt.params;
        t.synth = kt.synth;
        t.prove = kt.prove;
        t.verify = kt.verify;
        t.write = kt.write;
        t.p = kt.p;
        t.total = timing_now_ms() - t0;
        timing_print(&t, P);
        if (f.c->proof->variant == FC_POREP_NI)
            printf("note: NI-PoRep goes on chain as a SnarkPack aggregate of these %u "
                   "partition proofs; cuzk does not aggregate yet\n",
                   P);
        rc = 0;
    }
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
    char what[128];
    snprintf(what, sizeof what, "%s has %u partitions", f.c->proof->name, P);
    fc_circuit c;
    int rc = porep_circuit(&c, &f, "verify porep")
                 ? 2
                 : cli_verify_kind("verify porep", &c, a.dir, a.proof, a.o.trust_params, P, what,
                                   verify_public, &f);
    if (rc == 0)
        printf("OK: %s, %u partition%s verified in %.1f ms\n", f.c->proof->name, P,
               P == 1 ? "" : "s", timing_now_ms() - t0);
    c1_file_free(&f);
    return rc;
}

const cli_kind_cmds cli_cmds_porep = {
    .verb = "porep",
    .prove = cmd_prove_porep,
    .verify = cmd_verify_porep,
    .inputs = cmd_porep,
    .prove_synopsis = "prove porep --c1 F --params-dir D [--out P]",
    .prove_help = "PoRep C2: C1 -> verified proof",
    .verify_synopsis = "verify porep --c1 F --proof P --params-dir D",
    .verify_help = "verify a PoRep proof: OK/INVALID",
    .inputs_synopsis = "porep public-inputs --c1 F [--partition K]",
    .inputs_help = "the derived public inputs (hex)",
};
