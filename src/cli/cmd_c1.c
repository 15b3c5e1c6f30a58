#include "cli/cmd_c1.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "filecoin/c1/c1.h"
#include "util/file_write.h"
#include "util/hex.h"

static const char *usage = "cuzk c1 check FILE | cuzk c1 synth --proof NAME|ID [--seed N] "
                           "[--wrapper SECTOR_NUM] --out FILE";

static int check(const char *path) {
    const char *file = strcmp(path, "-") == 0 ? "/dev/stdin" : path;
    struct stat st;
    long long size = stat(file, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : -1;
    c1_output *c;
    c1_error err;
    if (c1_decode_file(&c, file, &err) != C1_OK) {
        fprintf(stderr, "cuzk c1 check: %s: %s error: %s (byte %zu)\n", path,
                c1_status_str(err.status), err.msg, err.offset);
        return 1;
    }
    char comm_d[65], comm_r[65], wrap[64] = "", bytes[48] = "";
    if (size >= 0)
        snprintf(bytes, sizeof bytes, "; file %lld bytes", size);
    hex_encode(comm_d, c->comm_d, 32);
    hex_encode(comm_r, c->comm_r, 32);
    if (c->wrapped)
        snprintf(wrap, sizeof wrap, ", Curio wrapper SectorNum %" PRIu64, c->sector_num);
    const fc_sector_shape *s = c->proof->shape;
    printf(
        "ok: %s (id %u), %u partitions x %u challenges, %u layers, tree %u-%u-%u, sector %" PRIu64
        " bytes%s%s, decoded %zu bytes; comm_d %s comm_r %s\n",
        c->proof->name, c->proof->id, c->partitions, c->challenges, c->layers, s->arity_base,
        s->arity_sub, s->arity_top, s->sector_size, bytes, wrap, c->bytes, comm_d, comm_r);
    c1_output_free(c);
    return 0;
}

static int synth(int argc, char **argv) {
    const char *proof = NULL, *seed = "1", *wrapper = NULL, *out = NULL;
    const cli_opt opts[] = {
        {"--proof", &proof}, {"--seed", &seed}, {"--wrapper", &wrapper}, {"--out", &out}};
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, usage) != 0)
        return 2;
    if (!proof || !out) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    const fc_seal_proof *p = fc_seal_proof_by_name(proof);
    char *end;
    if (!p) {
        unsigned long long id = strtoull(proof, &end, 10);
        p = *end || !*proof ? NULL : fc_seal_proof_by_id(id);
    }
    if (!p) {
        fprintf(stderr, "cuzk c1 synth: unknown registered proof \"%s\"\n", proof);
        return 2;
    }
    unsigned long long sv = strtoull(seed, &end, 0), num = 0;
    if (*end || !*seed) {
        fprintf(stderr, "cuzk c1 synth: bad --seed \"%s\"\n", seed);
        return 2;
    }
    if (wrapper) {
        num = strtoull(wrapper, &end, 10);
        if (*end || !*wrapper) {
            fprintf(stderr, "cuzk c1 synth: bad --wrapper sector number \"%s\"\n", wrapper);
            return 2;
        }
    }
    c1_error err;
    c1_output *c = c1_output_alloc(p, &err);
    if (!c) {
        fprintf(stderr, "cuzk c1 synth: %s\n", err.msg);
        return 1;
    }
    c1_output_fill_random(c, sv);
    uint8_t *bytes;
    size_t len;
    c1_status st =
        wrapper ? c1_encode_wrapper(&bytes, &len, c, num, &err) : c1_encode(&bytes, &len, c, &err);
    c1_output_free(c);
    if (st != C1_OK) {
        fprintf(stderr, "cuzk c1 synth: %s\n", err.msg);
        return 1;
    }
    char werr[512];
    int bad = file_write_atomic(out, bytes, len, werr, sizeof werr) != 0;
    free(bytes);
    if (bad) {
        fprintf(stderr, "cuzk c1 synth: %s\n", werr);
        return 1;
    }
    printf("%s: synthetic %s (random values, not a proof), %zu bytes\n", out, p->name, len);
    return 0;
}

int cmd_c1(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[0], "check") == 0)
        return check(argv[1]);
    if (argc >= 1 && strcmp(argv[0], "synth") == 0)
        return synth(argc - 1, argv + 1);
    fprintf(stderr, "usage: %s\n", usage);
    return 2;
}
