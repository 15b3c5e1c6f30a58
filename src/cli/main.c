/* cuzk: the command-line entry point.  Each subcommand lives in its own file;
 * this one holds the command table (what argv[1] and argv[2] select, the
 * handler, its line of help) and generates `cuzk help` from it. */
#include <stdio.h>
#include <string.h>

#include "cli/backend_pick.h"
#include "cli/cmd_graph.h"
#include "cli/cmd_c1.h"
#include "cli/cmd_circuit.h"
#include "cli/cmd_pce.h"
#include "cli/bench/cmd_bench_engine.h"
#include "cli/bench/cmd_bench_ab.h"
#include "cli/cmd_groth16.h"
#include "cli/cmd_hash.h"
#include "cli/cmd_post.h"
#include "cli/kind_cmds.h"
#include "cli/porep_params.h"
#include "cli/cmd_seal.h"
#include "cli/cmd_zkey.h"
#include "cli/selftest.h"
#ifdef CUZK_HAVE_DAEMON
#include "cli/cmd_daemon.h"
#include "cli/bench/cmd_bench_client.h"
#endif

#include "cuzk/version.h"
#include "filecoin/kinds.h"

#ifdef CUZK_HAVE_DAEMON
#define IF_DAEMON(f) f
#else
#define IF_DAEMON(f) NULL /* listed in the help, refused as unknown */
#endif

typedef struct {
    const char *names;                 /* argv[1]: one name, or several separated by spaces */
    const char *sub;                   /* argv[2] must be this word (or NULL) */
    int (*sub_match)(const char *arg); /* or satisfy this (or NULL) */
    int (*run)(int argc, char **argv); /* NULL: a help line only */
    int skip;                          /* run gets (argc - skip, argv + skip) */
    const char *synopsis;              /* after "  " in the help; NULL: not listed */
    const char *help;                  /* one line; NULL with a synopsis: a note */
} command;

/* A circuit id's prefix: any kind's "<id_prefix>-" (filecoin/kinds.h). */
/* The synopsis of the row where the kinds' commands go in the help. */
static const char KIND_ROWS[] = "";

/* A help line: longer synopses put their help on the next line. */
static void help_line(FILE *to, const char *synopsis, const char *help);

static int setup_porep_match(const char *a) {
    for (size_t i = 0; fc_kind_at(i); i++) {
        const char *p = fc_kind_at(i)->id_prefix;
        if (strncmp(a, p, strlen(p)) == 0 && a[strlen(p)] == '-')
            return 1;
    }
    return 0;
}

static int cmd_version(int argc, char **argv) {
    (void)argc;
    (void)argv;
    printf("cuzk %s\n", CUZK_VERSION_STRING);
    return 0;
}

static int cmd_help(int argc, char **argv);

/* In help order.  Dispatch takes a kind's command first (kind_cmds.h: "prove
 * porep" wins over "prove"), then the first row whose argv[2] condition
 * holds, then the first plain row of that name, so a row like "prove zkey"
 * wins over "prove" wherever it stands. */
static const command commands[] = {
    {"selftest", NULL, NULL, cmd_selftest, 2, "selftest [--vectors FILE] [--eip2537 FILE]",
     "check the arithmetic"},
    {"setup", NULL, NULL, cmd_setup, 2, "setup --circuit C --params F --vk F",
     "TEST-ONLY parameters for a built-in circuit"},
    {"prove", NULL, NULL, cmd_prove, 2, "prove --circuit C --params F --proof F [--public F]",
     "prove (self-verified)"},
    {"verify", NULL, NULL, cmd_verify, 2, "verify --vk F --proof F --public F",
     "verify a bellperson-format proof"},
    {"prove", "zkey", NULL, cmd_prove_zkey, 3,
     "prove zkey --zkey F --wtns F --proof F --public F [--threads N]",
     "snarkjs .zkey/.wtns (bls12381) -> snarkjs JSON"},
    {"verify", "zkey", NULL, cmd_verify_zkey, 3, "verify zkey --vk F --proof F --public F",
     "verify snarkjs JSON: OK/INVALID"},
    {"bench", "prove", NULL, cmd_bench_prove, 3,
     "bench prove [--circuit random:N] [--threads T] [--reps R]", "per-phase timing"},
    {NULL, NULL, NULL, NULL, 0, "(built-in circuits C: cubic[:X], random:N[:SEED])", NULL},
    {"circuit", NULL, NULL, cmd_circuit, 2, "circuit info porep-2k|...|window-64g | list",
     "Filecoin circuit shape and counts"},
    {"pce", NULL, NULL, cmd_pce, 2,
     "pce build CIRCUIT [--dir D] | info FILE | check FILE | bench FILE --circuit C",
     "record / inspect / validate / time a circuit's .pce matrices"},
    {"bench", "synth", NULL, cmd_bench_synth, 3,
     "bench synth NAME [--reps R] [--witness --threads T] [--pce on|off|on,off]",
     "proving-mode (or witness-only) synthesis speed"},
    {"bench", "engine", NULL, cmd_bench_engine, 3, "bench engine [--jobs N --partitions P]",
     "engine throughput, pipelined vs not"},
    {"bench", "ab", NULL, cmd_bench_ab, 3, "bench ab --workload W --a K=V,.. --b K=V,..",
     "A/B of the switches (--list: them)"},
    {"hash", NULL, NULL, cmd_hash, 2, "hash poseidon --arity A HEX...",
     "Filecoin Poseidon (LE hex in/out)"},
    {NULL, NULL, NULL, NULL, 0, "hash sha256-trunc HEX", "SHA-256 with byte 31 &= 0x3f"},
    {"graph", NULL, NULL, cmd_graph, 2, "graph cache-name|cache-digest PROOF [--out F]",
     "SDR parent cache name / digest"},
    {"daemon", NULL, NULL, IF_DAEMON(cmd_daemon), 2, "daemon --config F [--listen A]",
     "the cuzk.v1 gRPC proving daemon (if built)"},
    {"bench", NULL, IF_DAEMON(cmd_bench_client_matches), IF_DAEMON(cmd_bench_client), 1,
     "bench single|batch|stress|status|preload|metrics [-a ADDR] ...",
     "a daemon's client (if built; `cuzk bench --help`)"},
    /* Rust cuzk-daemon's command line (`cuzk --config F`, systemd units) */
    {"--config -c --listen -l --log-level", NULL, NULL, IF_DAEMON(cmd_daemon), 1, NULL, NULL},
    {"c1", NULL, NULL, cmd_c1, 2, "c1 check [--circuit] FILE | c1 synth [--valid] ...",
     "check a C1 output; make one (random values, or --valid: an invented sector)"},
    {"seal", NULL, NULL, cmd_seal, 2, "seal --registered-proof P ... --out DIR",
     "seal test data (2KiB..512MiB) -> C1"},
    {NULL, NULL, NULL, NULL, 0, "seal update --sector DIR --out DIR | --valid --registered-proof P",
     "SnapDeals update vanilla proofs (--valid: invented, any size)"},
    {"verify-vanilla", NULL, NULL, cmd_verify_vanilla, 2,
     "verify-vanilla --c1 FILE [--miner-id N --sector-number N]", "verify a C1's proofs"},
    {"post-vanilla", NULL, NULL, cmd_post_vanilla, 2,
     "post-vanilla --registered-proof ID --sector-dir D --randomness HEX --out F",
     "PoSt vanilla proof (bincode) of a sealed sector"},
    {"setup", NULL, setup_porep_match, cmd_setup_porep, 2,
     "setup porep-2k|wpost-2k|winning-2k|... --out DIR", "TEST-ONLY parameters (Filecoin names)"},
    /* prove|verify VERB, VERB public-inputs: every kind's (kind_cmds.h) */
    {NULL, NULL, NULL, NULL, 0, KIND_ROWS, NULL},
    {"version --version", NULL, NULL, cmd_version, 2, "version", "print the version"},
    {"help --help -h", NULL, NULL, cmd_help, 2, "help", "this text"},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* The synopsis column: longer synopses put their help on the next line. */
#define HELP_COLUMN 44

static int usage(FILE *to) {
    fprintf(to,
            "cuzk %s - Groth16 proving engine for Filecoin\n"
            "usage: cuzk <command> [args]\n"
            "commands:\n",
            CUZK_VERSION_STRING);
    for (size_t i = 0; i < N_COMMANDS; i++) {
        const command *c = &commands[i];
        if (c->synopsis == KIND_ROWS) {
            for (size_t k = 0; cli_kind_cmds_at(k); k++) {
                const cli_kind_cmds *r = cli_kind_cmds_at(k);
                help_line(to, r->prove_synopsis, r->prove_help);
                help_line(to, r->verify_synopsis, r->verify_help);
                help_line(to, r->inputs_synopsis, r->inputs_help);
            }
        } else if (c->synopsis) {
            help_line(to, c->synopsis, c->help);
        }
    }
    return to == stdout ? 0 : 2;
}

static void help_line(FILE *to, const char *synopsis, const char *help) {
    if (!help)
        fprintf(to, "  %s\n", synopsis);
    else if (strlen(synopsis) <= HELP_COLUMN)
        fprintf(to, "  %-*s %s\n", HELP_COLUMN, synopsis, help);
    else
        fprintf(to, "  %s\n  %-*s %s\n", synopsis, HELP_COLUMN, "", help);
}

static int cmd_help(int argc, char **argv) {
    (void)argc;
    (void)argv;
    return usage(stdout);
}

/* Whether word is one of the space-separated names. */
static int name_in(const char *names, const char *word) {
    size_t n = strlen(word);
    for (const char *p = names; *p;) {
        size_t len = strcspn(p, " ");
        if (len == n && strncmp(p, word, n) == 0)
            return 1;
        p += len + (p[len] == ' ');
    }
    return 0;
}

static const command *find(int argc, char **argv) {
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < N_COMMANDS; i++) {
            const command *c = &commands[i];
            int conditional = c->sub || c->sub_match;
            if (!c->names || !c->run || conditional != (pass == 0) || !name_in(c->names, argv[1]))
                continue;
            if (!conditional)
                return c;
            if (argc > 2 && (c->sub ? strcmp(argv[2], c->sub) == 0 : c->sub_match(argv[2])))
                return c;
        }
    return NULL;
}

/* `cuzk prove|verify VERB ...` and `cuzk VERB ...` of a kind: its handler
 * and how many words it skips, or NULL. */
static int (*find_kind(int argc, char **argv, int *skip))(int, char **) {
    for (size_t k = 0; cli_kind_cmds_at(k); k++) {
        const cli_kind_cmds *r = cli_kind_cmds_at(k);
        *skip = 3;
        if (argc > 2 && strcmp(argv[2], r->verb) == 0 && strcmp(argv[1], "prove") == 0)
            return r->prove;
        if (argc > 2 && strcmp(argv[2], r->verb) == 0 && strcmp(argv[1], "verify") == 0)
            return r->verify;
        *skip = 2;
        if (strcmp(argv[1], r->verb) == 0)
            return r->inputs;
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2)
        return usage(stderr);
    int skip;
    int (*run)(int, char **) = find_kind(argc, argv, &skip);
    if (run)
        return run(argc - skip, argv + skip);
    const command *c = find(argc, argv);
    if (c) {
        int rc = c->run(argc - c->skip, argv + c->skip);
        cli_backends_close();
        return rc;
    }
    fprintf(stderr, "cuzk: unknown command \"%s\"\n", argv[1]);
    return usage(stderr);
}
