/* The porep-2k benchmark input (see bench_porep_input.h). */
#include "cli/bench/bench_porep_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/porep_params.h"
#include "sealer/sealer.h"
#include "sealer/sealer_data.h"
#include "util/file_read.h"

/* keep: where the sealed sector goes for the caller (fc_sealed_free), else
 * NULL: freed here. */
static int seal_2k(bench_porep_input *out, fc_sealed *keep, uint64_t seed, char *err, size_t cap) {
    const fc_seal_proof *p = fc_seal_proof_by_name("StackedDrg2KiBV1_1");
    if (!p) {
        snprintf(err, cap, "no StackedDrg2KiBV1_1 proof type");
        return -1;
    }
    fc_seal_params sp = {
        .proof = p, .miner_id = 1000 + seed % 5000, .sector_number = 1 + seed % 1000};
    for (int i = 0; i < 32; i++) {
        sp.ticket[i] = (uint8_t)(seed * 31 + (uint64_t)i * 7);
        sp.seed[i] = (uint8_t)(seed * 17 + (uint64_t)i * 13);
    }
    sp.ticket[31] &= 0x3f;
    sp.seed[31] &= 0x3f;
    out->miner_id = sp.miner_id;
    out->sector_number = sp.sector_number;
    const uint64_t size = p->shape->sector_size;
    size_t raw_len = fc_fr32_unpadded_size(size);
    uint8_t *raw = malloc(raw_len);
    if (!raw) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    fc_seal_random_bytes(raw, raw_len, seed);
    uint8_t *padded = fc_seal_pad_sector(raw, raw_len, size);
    free(raw);
    fc_sealed s;
    char why[512];
    int rc = padded ? fc_seal_precommit(&s, &sp, padded, why, sizeof why) : -1;
    free(padded);
    if (rc) {
        snprintf(err, cap, "sealing a 2 KiB sector: %s", padded ? why : "out of memory");
        return -1;
    }
    rc = fc_seal_commit1(&out->c1, &s, why, sizeof why);
    if (rc) {
        snprintf(err, cap, "commit phase 1 of the 2 KiB sector: %s", why);
    } else {
        c1_error ce;
        if (c1_encode_wrapper(&out->json, &out->json_len, out->c1, s.sector_number, &ce) != C1_OK) {
            snprintf(err, cap, "encoding the sealed C1: %s", ce.msg);
            rc = -1;
        }
    }
    snprintf(out->origin, sizeof out->origin,
             "sealed here: StackedDrg2KiBV1_1, random data seed %llu, miner %llu, sector %llu",
             (unsigned long long)seed, (unsigned long long)sp.miner_id,
             (unsigned long long)sp.sector_number);
    if (keep && rc == 0)
        *keep = s;
    else
        fc_sealed_free(&s);
    return rc;
}

int bench_porep_input_get(bench_porep_input *out, const char *c1_path, uint64_t seed, char *err,
                          size_t cap) {
    memset(out, 0, sizeof *out);
    int rc;
    if (!c1_path) {
        rc = seal_2k(out, NULL, seed, err, cap);
    } else {
        snprintf(out->origin, sizeof out->origin, "%s", c1_path);
        char why[256];
        out->json = file_read_all(c1_path, (size_t)1 << 30, &out->json_len, why, sizeof why);
        c1_error ce;
        if (!out->json) {
            snprintf(err, cap, "cannot read %s: %s", c1_path, why);
            rc = -1;
        } else if (c1_decode(&out->c1, out->json, out->json_len, &ce) != C1_OK) {
            snprintf(err, cap, "%s: not a usable C1 output: %s: %s", c1_path,
                     c1_status_str(ce.status), ce.msg);
            rc = -1;
        } else {
            /* a file names its sector only in Curio's wrapper; the miner is
             * cuzk bench's default, 1000 */
            out->miner_id = 1000;
            out->sector_number = out->c1->wrapped ? out->c1->sector_num : 1;
            rc = 0;
        }
    }
    if (rc)
        bench_porep_input_free(out);
    return rc;
}

int bench_porep_input_seal(bench_porep_input *out, fc_sealed *s, uint64_t seed, char *err,
                           size_t cap) {
    memset(out, 0, sizeof *out);
    memset(s, 0, sizeof *s);
    int rc = seal_2k(out, s, seed, err, cap);
    if (rc)
        bench_porep_input_free(out);
    return rc;
}

void bench_porep_input_free(bench_porep_input *in) {
    c1_output_free(in->c1);
    free(in->json);
    memset(in, 0, sizeof *in);
}

int bench_porep_params(char *params, char *vk, char *meta, size_t path_cap, const char *dir,
                       const c1_output *c1, char *err, size_t cap) {
    if (porep_params_paths(params, vk, meta, path_cap, dir, c1->proof->shape)) {
        snprintf(err, cap, "parameter path too long");
        return -1;
    }
    if (access(params, R_OK) != 0 || access(vk, R_OK) != 0) {
        snprintf(err, cap,
                 "no %s parameters: %s is missing.  Give --params-dir DIR (or set "
                 "FIL_PROOFS_PARAMETER_CACHE); TEST-ONLY ones are made with `cuzk setup "
                 "porep-%s --out DIR`",
                 c1->proof->name, params, c1->proof->shape->short_name);
        return -1;
    }
    return 0;
}
