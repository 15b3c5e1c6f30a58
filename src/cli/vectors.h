/* Known-answer vectors in cuzk's JSON Lines format (docs/VECTORS.md):
 *   {"op": NAME, "in": [hex, ...], "out": [hex, ...]}
 *   {"op": NAME, "in": [hex, ...], "err": true}
 * Each case runs the op on the inputs; it passes when the outputs match
 * byte for byte, or, for "err" cases, when the inputs are rejected. */
#ifndef CUZK_CLI_VECTORS_H
#define CUZK_CLI_VECTORS_H

#include <stddef.h>

typedef enum {
    VECTOR_PASS = 0,
    VECTOR_FAIL,     /* the op ran and disagreed with the case */
    VECTOR_MALFORMED /* the line is not a well-formed case (counts as a failure) */
} vector_result;

/* Checks one case; on anything but a pass, writes a reason into why. */
vector_result vectors_check_line(const char *line, char *why, size_t whylen);

/* Checks every case of a file; prints failures and "N passed, N failed".
 * Returns 0 when all passed, 1 otherwise, 2 if the file cannot be read. */
int vectors_check_file(const char *path, int verbose);

/* Names of the supported ops, NULL-terminated (for docs and --help). */
const char *const *vectors_op_names(void);

#endif
