/* Filecoin's published parameter files and their digests.
 *
 * rust-fil-proofs' parameters.json (the table Curio's fetch-params and
 * rust-fil-proofs' own parameter cache check against) names every .params and
 * .vk file of the v28 circuits with a digest: the BLAKE2b-512 (64-byte
 * output) of the whole file, hex, truncated to its first 32 characters
 * (storage-proofs-core parameter_cache.rs, fil-proofs-param).  The table is in
 * param_digest.c.
 *
 * fc_param_check holds a file with a published name against its digest, so a
 * truncated, corrupted or substituted download is a clear error at load,
 * never a wrong proof later.  Files under other names (test circuits) are not
 * checked.  `cuzk setup` writes TEST-ONLY parameters under the published
 * names, with a FILE.meta saying "test_only": true; their digest can never
 * match, so they are accepted with FC_PARAM_TEST_ONLY (the caller warns)
 * without reading the file. */
#ifndef CUZK_FILECOIN_PARAM_DIGEST_H
#define CUZK_FILECOIN_PARAM_DIGEST_H

#include <stddef.h>

#define FC_PARAM_DIGEST_HEX 32

typedef enum {
    FC_PARAM_VERIFIED = 0,    /* published name, digest matches */
    FC_PARAM_UNPUBLISHED = 1, /* not a published name: nothing to check */
    FC_PARAM_TEST_ONLY = 2,   /* published name, other digest, .meta says test_only */
    FC_PARAM_TRUSTED = 3,     /* the operator vouched for it: nothing read */
    FC_PARAM_MISMATCH = -1,   /* published name, other digest: refuse */
    FC_PARAM_IO = -2          /* the file cannot be read */
} fc_param_check_result;

/* The published digest (32 hex characters) of a file name (no folder), or
 * NULL when the name is not published. */
const char *fc_param_published_digest(const char *file_name);

/* The digest of a file by Filecoin's rule; 0, or -1 with err filled. */
int fc_param_file_digest(const char *path, char hex[FC_PARAM_DIGEST_HEX + 1], char *err,
                         size_t cap);

/* Checks the file at path (its base name decides what is expected).  err
 * explains MISMATCH / IO, and for TEST_ONLY says what the file is. */
fc_param_check_result fc_param_check(const char *path, char *err, size_t cap);

/* The load rule, one copy for the engine and the CLI: trust (the operator's
 * srs.trust_params / --trust-params) or TRUST_PARAMS=1 reads nothing and
 * answers TRUSTED; otherwise fc_param_check.  A result < 0 refuses the file
 * (err says why); TEST_ONLY is accepted, err saying what to warn about. */
fc_param_check_result fc_param_check_load(const char *path, int trust, char *err, size_t cap);

/* TRUST_PARAMS=1 in the environment: the operator vouches for the files (as
 * Curio's fetch-params does), skipping the check. */
int fc_param_trust_env(void);

#endif
