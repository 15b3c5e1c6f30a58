/* cuzk_daemon_test: `cuzk daemon` linked with the engine TEST DOUBLE
 * (engine_double.c) instead of the real engine, for the server's tests. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_daemon.h"

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "daemon") == 0)
        return cmd_daemon(argc - 2, argv + 2);
    /* as src/cli/main.c: Rust cuzk-daemon's `cuzk --config F` form */
    if (argc > 1 && (strcmp(argv[1], "--config") == 0 || strcmp(argv[1], "-c") == 0 ||
                     strcmp(argv[1], "--listen") == 0 || strcmp(argv[1], "-l") == 0 ||
                     strcmp(argv[1], "--log-level") == 0))
        return cmd_daemon(argc - 1, argv + 1);
    fprintf(stderr, "usage: cuzk_daemon_test daemon [options]  (engine TEST DOUBLE)\n");
    return 2;
}
