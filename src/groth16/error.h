/* One error convention for the groth16 layer: a status code for programs and
 * a message for people.
 *
 * Every function that can fail returns a groth16_status and, when given a
 * non-NULL groth16_error, fills it with the same status and a one-line message
 * that names the thing at fault and, for parsers, its byte offset, e.g.
 * "vk: ic[3] at offset 1252: point is not in the prime-order subgroup". */
#ifndef CUZK_GROTH16_ERROR_H
#define CUZK_GROTH16_ERROR_H

typedef enum {
    GROTH16_OK = 0,
    GROTH16_ERR_TRUNCATED,     /* input shorter than its own layout says */
    GROTH16_ERR_TRAILING,      /* bytes after the last section */
    GROTH16_ERR_LAYOUT,        /* section counts that contradict each other */
    GROTH16_ERR_POINT,         /* bad flags, coordinate >= p, off the curve, outside the subgroup */
    GROTH16_ERR_INFINITY,      /* the point at infinity where the format forbids it */
    GROTH16_ERR_ARG,           /* a caller error: range out of bounds, empty batch, ... */
    GROTH16_ERR_IO,            /* open / read / write / mmap / getrandom failed */
    GROTH16_ERR_NO_MEMORY,     /* allocation failed */
    GROTH16_ERR_MALFORMED_VK,  /* public input count + 1 != n_ic (bellperson's name) */
    GROTH16_ERR_INVALID_PROOF, /* well-formed, but the pairing equation does not hold */
} groth16_status;

#define GROTH16_MSG_BYTES 256

typedef struct {
    groth16_status status;
    char msg[GROTH16_MSG_BYTES];
} groth16_error;

/* A short name for a status ("truncated", "invalid proof", ...). */
const char *groth16_status_str(groth16_status s);

/* Fills *err (if non-NULL) with s and the formatted message; returns s. */
groth16_status groth16_fail(groth16_error *err, groth16_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets *err (if non-NULL) to GROTH16_OK with an empty message. */
void groth16_error_clear(groth16_error *err);

#endif
