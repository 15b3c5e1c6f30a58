#include "cli/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_parse(int argc, char **argv, const cli_opt *opts, size_t n_opts, unsigned *threads,
              const char *usage) {
    for (int i = 0; i < argc; i += 2) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "cuzk: missing value for %s\nusage: %s\n", k, usage);
            return -1;
        }
        if (threads && strcmp(k, "--threads") == 0) {
            char *end;
            long t = strtol(v, &end, 10);
            if (*end || t < 1 || t > 1024) {
                fprintf(stderr, "cuzk: --threads wants 1..1024, got \"%s\"\n", v);
                return -1;
            }
            *threads = (unsigned)t;
            continue;
        }
        size_t j = 0;
        while (j < n_opts && strcmp(k, opts[j].name) != 0)
            j++;
        if (j == n_opts) {
            fprintf(stderr, "cuzk: unknown option %s\nusage: %s\n", k, usage);
            return -1;
        }
        *opts[j].value = v;
    }
    return 0;
}
