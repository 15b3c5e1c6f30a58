/* cuzk: the command-line entry point.  Each subcommand lives in its own file. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_graph.h"
#include "cli/cmd_c1.h"
#include "cli/cmd_circuit.h"
#include "cli/cmd_bench_engine.h"
#include "cli/cmd_bench_ab.h"
#include "cli/cmd_groth16.h"
#include "cli/cmd_hash.h"
#include "cli/cmd_post.h"
#include "cli/cmd_post_prove.h"
#include "cli/cmd_porep.h"
#include "cli/porep_params.h"
#include "cli/cmd_seal.h"
#include "cli/cmd_zkey.h"
#include "cli/selftest.h"
#ifdef CUZK_HAVE_DAEMON
#include "cli/cmd_daemon.h"
#include "cli/cmd_bench_client.h"
#endif

#include "cuzk/version.h"

static int usage(FILE *to) {
    fprintf(to,
            "cuzk %s - Groth16 proving engine for Filecoin\n"
            "usage: cuzk <command> [args]\n"
            "commands:\n"
            "  selftest [--vectors FILE] [--eip2537 FILE]   check the arithmetic\n"
            "  setup --circuit C --params F --vk F          TEST-ONLY parameters for a built-in "
            "circuit\n"
            "  prove --circuit C --params F --proof F [--public F]   prove (self-verified)\n"
            "  verify --vk F --proof F --public F           verify a bellperson-format proof\n"
            "  prove zkey --zkey F --wtns F --proof F --public F [--threads N]\n"
            "                                   snarkjs .zkey/.wtns (bls12381) -> snarkjs JSON\n"
            "  verify zkey --vk F --proof F --public F      verify snarkjs JSON: OK/INVALID\n"
            "  bench prove [--circuit random:N] [--threads T] [--reps R]   per-phase timing\n"
            "  (built-in circuits C: cubic[:X], random:N[:SEED])\n"
            "  circuit info porep-2k|...|window-64g        Filecoin circuit shape and counts\n"
            "  bench synth porep-2k|porep-8m [--reps R]    proving-mode synthesis speed\n"
            "  bench engine [--jobs N --partitions P]       engine throughput, pipelined vs not\n"
            "  bench ab --workload W --a K=V,.. --b K=V,..  A/B of the switches (--list: them)\n"
            "  hash poseidon --arity A HEX...               Filecoin Poseidon (LE hex in/out)\n"
            "  hash sha256-trunc HEX                        SHA-256 with byte 31 &= 0x3f\n"
            "  graph cache-name|cache-digest PROOF [--out F]   SDR parent cache name / digest\n"
            "  daemon --config F [--listen A]               the cuzk.v1 gRPC proving daemon "
            "(if built)\n"
            "  bench single|batch|stress|status|preload|metrics [-a ADDR] ...   a daemon's client\n"
            "                                   (if built; `cuzk bench --help`)\n"
            "  c1 check FILE                                check a C1 output (JSON or c1.json)\n"
            "  seal --registered-proof P ... --out DIR      seal test data (2KiB..512MiB) -> C1\n"
            "  verify-vanilla --c1 FILE [--miner-id N --sector-number N]   verify a C1's proofs\n"
            "  post-vanilla --registered-proof ID --sector-dir D --randomness HEX --out F\n"
            "                                   PoSt vanilla proof (bincode) of a sealed sector\n"
            "  setup porep-2k|wpost-2k|winning-2k|... --out DIR   TEST-ONLY parameters (Filecoin "
            "names)\n"
            "  prove porep --c1 F --params-dir D [--out P]  PoRep C2: C1 -> verified proof\n"
            "  verify porep --c1 F --proof P --params-dir D verify a PoRep proof: OK/INVALID\n"
            "  porep public-inputs --c1 F [--partition K]   the derived public inputs (hex)\n"
            "  prove post --kind winning|window --vanilla F... --randomness HEX --params-dir D\n"
            "                                   WindowPoSt/WinningPoSt -> verified proof(s)\n"
            "  verify post --kind K --vanilla F... --randomness HEX --proof P   OK/INVALID\n"
            "  post public-inputs --kind K --vanilla F... --randomness HEX   public inputs (hex)\n"
            "  version                                      print the version\n"
            "  help                                         this text\n",
            CUZK_VERSION_STRING);
    return to == stdout ? 0 : 2;
}

int main(int argc, char **argv) {
    if (argc < 2)
        return usage(stderr);
    const char *cmd = argv[1];
    if (strcmp(cmd, "selftest") == 0)
        return cmd_selftest(argc - 2, argv + 2);
    if (strcmp(cmd, "setup") == 0 && argc > 2 &&
        (strncmp(argv[2], "porep-", 6) == 0 || strncmp(argv[2], "wpost-", 6) == 0 ||
         strncmp(argv[2], "winning-", 8) == 0))
        return cmd_setup_porep(argc - 2, argv + 2);
    if (strcmp(cmd, "prove") == 0 && argc > 2 && strcmp(argv[2], "porep") == 0)
        return cmd_prove_porep(argc - 3, argv + 3);
    if (strcmp(cmd, "verify") == 0 && argc > 2 && strcmp(argv[2], "porep") == 0)
        return cmd_verify_porep(argc - 3, argv + 3);
    if (strcmp(cmd, "porep") == 0)
        return cmd_porep(argc - 2, argv + 2);
    if (strcmp(cmd, "prove") == 0 && argc > 2 && strcmp(argv[2], "post") == 0)
        return cmd_prove_post(argc - 3, argv + 3);
    if (strcmp(cmd, "verify") == 0 && argc > 2 && strcmp(argv[2], "post") == 0)
        return cmd_verify_post(argc - 3, argv + 3);
    if (strcmp(cmd, "post") == 0)
        return cmd_post(argc - 2, argv + 2);
    if (strcmp(cmd, "setup") == 0)
        return cmd_setup(argc - 2, argv + 2);
    if (strcmp(cmd, "prove") == 0 && argc > 2 && strcmp(argv[2], "zkey") == 0)
        return cmd_prove_zkey(argc - 3, argv + 3);
    if (strcmp(cmd, "verify") == 0 && argc > 2 && strcmp(argv[2], "zkey") == 0)
        return cmd_verify_zkey(argc - 3, argv + 3);
    if (strcmp(cmd, "prove") == 0)
        return cmd_prove(argc - 2, argv + 2);
    if (strcmp(cmd, "verify") == 0)
        return cmd_verify(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0 && argc > 2 && strcmp(argv[2], "engine") == 0)
        return cmd_bench_engine(argc - 3, argv + 3);
    if (strcmp(cmd, "bench") == 0 && argc > 2 && strcmp(argv[2], "ab") == 0)
        return cmd_bench_ab(argc - 3, argv + 3);
    if (strcmp(cmd, "bench") == 0 && argc > 2 && strcmp(argv[2], "prove") == 0)
        return cmd_bench_prove(argc - 3, argv + 3);
#ifdef CUZK_HAVE_DAEMON
    if (strcmp(cmd, "daemon") == 0)
        return cmd_daemon(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0 && argc > 2 && cmd_bench_client_matches(argv[2]))
        return cmd_bench_client(argc - 1, argv + 1);
    /* Rust cuzk-daemon's command line (`cuzk --config F`, systemd units) */
    if (strcmp(cmd, "--config") == 0 || strcmp(cmd, "-c") == 0 || strcmp(cmd, "--listen") == 0 ||
        strcmp(cmd, "-l") == 0 || strcmp(cmd, "--log-level") == 0)
        return cmd_daemon(argc - 1, argv + 1);
#endif
    if (strcmp(cmd, "circuit") == 0)
        return cmd_circuit(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0 && argc > 2 && strcmp(argv[2], "synth") == 0)
        return cmd_bench_synth(argc - 3, argv + 3);
    if (strcmp(cmd, "hash") == 0)
        return cmd_hash(argc - 2, argv + 2);
    if (strcmp(cmd, "graph") == 0)
        return cmd_graph(argc - 2, argv + 2);
    if (strcmp(cmd, "c1") == 0)
        return cmd_c1(argc - 2, argv + 2);
    if (strcmp(cmd, "seal") == 0)
        return cmd_seal(argc - 2, argv + 2);
    if (strcmp(cmd, "verify-vanilla") == 0)
        return cmd_verify_vanilla(argc - 2, argv + 2);
    if (strcmp(cmd, "post-vanilla") == 0)
        return cmd_post_vanilla(argc - 2, argv + 2);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("cuzk %s\n", CUZK_VERSION_STRING);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
        return usage(stdout);
    fprintf(stderr, "cuzk: unknown command \"%s\"\n", cmd);
    return usage(stderr);
}
