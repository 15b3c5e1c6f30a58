/* libFuzzer target for the daemon's configuration: util/toml's parser and
 * the key table of server/config.c.  Any input: it is accepted, or refused
 * with a message; an accepted one prints (--check-config's TOML) and that
 * text parses again to the same settings. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/config.h"
#include "util/slog.h"

#define must(cond)                                                                             \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "fuzz_config: property failed at line %d: %s\n", __LINE__, #cond); \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int quiet;
    if (!quiet) {
        slog_set_level(SLOG_OFF); /* deprecated-key warnings */
        quiet = 1;
    }
    cuzk_config a;
    char err[CUZK_ERROR_LEN];
    if (cuzk_config_parse_text(&a, (const char *)data, size, "fuzz.toml", err) != 0) {
        must(err[0] != 0);
        return 0;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cuzk_config_print(f, &a);
    fclose(f);
    cuzk_config b;
    if (cuzk_config_parse_text(&b, text, len, "printed.toml", err) != 0) {
        fprintf(stderr, "printed config does not parse: %s\n%s\n", err, text);
        abort();
    }
    char *text2 = NULL;
    size_t len2 = 0;
    f = open_memstream(&text2, &len2);
    cuzk_config_print(f, &b);
    fclose(f);
    must(len == len2 && memcmp(text, text2, len) == 0);
    free(text);
    free(text2);
    return 0;
}
