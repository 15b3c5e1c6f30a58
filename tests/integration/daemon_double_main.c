/* cuzk_daemon_test: `cuzk daemon` linked with the engine TEST DOUBLE
 * (engine_double.c) instead of the real engine, for the server's tests. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_daemon.h"

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "daemon") == 0)
        return cmd_daemon(argc - 2, argv + 2);
    fprintf(stderr, "usage: cuzk_daemon_test daemon [options]  (engine TEST DOUBLE)\n");
    return 2;
}
