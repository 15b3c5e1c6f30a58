#include "cli/cmd_c1.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "filecoin/c1/c1.h"
#include "filecoin/porep/porep_partition.h"
#include "r1cs/cs.h"
#include "sealer/seal_synth_valid.h"
#include "util/file_write.h"
#include "util/hex.h"
#include "util/timing.h"

static const char *usage =
    "cuzk c1 check [--circuit [--partition K]] FILE | cuzk c1 synth [--valid] --proof NAME|ID "
    "[--seed N] [--miner N --sector N] [--data-nodes N] [--wrapper SECTOR_NUM] --out FILE "
    "[--post-proof ID --randomness HEX32 [--slot N] --post-out FILE]";

/* Removes the flag `name` (it takes no value) from argv; 1 if it was there. */
static int take_flag(int *argc, char **argv, const char *name) {
    int found = 0, m = 0;
    for (int i = 0; i < *argc; i++) {
        if (strcmp(argv[i], name) == 0)
            found = 1;
        else
            argv[m++] = argv[i];
    }
    *argc = m;
    return found;
}

static int parse_u64(unsigned long long *out, const char *s, const char *what) {
    char *end;
    *out = strtoull(s, &end, 0);
    if (*end || !*s || *s == '-') {
        fprintf(stderr, "cuzk c1: bad %s \"%s\"\n", what, s);
        return -1;
    }
    return 0;
}

/* Every partition (or only `only`) synthesized in the checking mode: each
 * constraint evaluated on the witness the vanilla proofs give. */
static int circuit_check(const c1_output *c, long only) {
    char err[512];
    porep_c2 c2;
    double t0 = timing_now_ms();
    if (porep_c2_prepare(&c2, c, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk c1 check: circuit: %s\n", err);
        return 1;
    }
    printf("  witness prepared and checked natively (%.0f ms)\n", timing_now_ms() - t0);
    if (only >= (long)c2.n_partitions) {
        fprintf(stderr, "cuzk c1 check: --partition %ld: the proof has %u partitions\n", only,
                c2.n_partitions);
        porep_c2_free(&c2);
        return 2;
    }
    int bad = 0;
    for (unsigned k = 0; k < c2.n_partitions && !bad; k++) {
        if (only >= 0 && k != (unsigned long)only)
            continue;
        t0 = timing_now_ms();
        r1cs_cs *cs = r1cs_cs_new(R1CS_COUNT, R1CS_VALUES, NULL);
        r1cs_counts n;
        int rc = cs ? porep_partition_synthesize(cs, &c2.parts[k]) : -1;
        if (rc == 0)
            rc = r1cs_finish(cs);
        if (rc == 0)
            rc = r1cs_get_counts(cs, &n);
        if (rc != 0 || !n.checked) {
            fprintf(stderr, "cuzk c1 check: partition %u: synthesis failed (%d)\n", k, rc);
            bad = 1;
        } else if (!n.satisfied) {
            fprintf(stderr, "cuzk c1 check: partition %u: NOT satisfied: constraint %zu (%s)\n", k,
                    n.first_unsatisfied, n.unsatisfied_path ? n.unsatisfied_path : "?");
            bad = 1;
        } else {
            printf("  partition %u: %zu constraints satisfied (%.1f s)\n", k, n.constraints,
                   (timing_now_ms() - t0) / 1e3);
        }
        r1cs_cs_free(cs);
    }
    porep_c2_free(&c2);
    return bad;
}

static int check(int argc, char **argv) {
    int circuit = take_flag(&argc, argv, "--circuit");
    const char *part = NULL;
    if (argc == 3 && strcmp(argv[0], "--partition") == 0) {
        part = argv[1];
        argv += 2;
        argc -= 2;
    } else if (argc == 3 && strcmp(argv[1], "--partition") == 0) {
        part = argv[2];
        argc -= 2;
    }
    unsigned long long only = 0;
    if (argc != 1 || (part && (!circuit || parse_u64(&only, part, "--partition") != 0))) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    const char *path = argv[0];
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
    int rc = circuit ? circuit_check(c, part ? (long)only : -1) : 0;
    if (circuit && rc == 0)
        printf("ok: circuit satisfied in the checking mode\n");
    c1_output_free(c);
    return rc;
}

/* A PoSt vanilla proof of the invented sector, when asked for. */
typedef struct {
    const char *proof, *randomness, *slot, *out;
} post_req;

static int write_post(const fc_synth_sector *sec, const post_req *q) {
    unsigned long long id, slot = 0;
    uint8_t rnd[32];
    if (parse_u64(&id, q->proof, "--post-proof") != 0 ||
        (q->slot && parse_u64(&slot, q->slot, "--slot") != 0))
        return -1;
    const fc_post_proof *pp = fc_post_proof_by_id(id);
    if (!pp) {
        fprintf(stderr, "cuzk c1 synth: --post-proof %s is not a PoSt proof (0..14)\n", q->proof);
        return -1;
    }
    if (hex_decode(rnd, 32, q->randomness) != 32) {
        fprintf(stderr, "cuzk c1 synth: --randomness: 64 hex digits expected\n");
        return -1;
    }
    uint8_t *bin;
    size_t len;
    char err[512];
    if (fc_synth_valid_post(&bin, &len, sec, pp, rnd, slot, err, sizeof err) != 0 ||
        file_write_atomic(q->out, bin, len, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk c1 synth: PoSt: %s\n", err);
        return -1;
    }
    free(bin);
    printf("%s: %s vanilla proof of sector %llu, %zu bytes\n", q->out, pp->name,
           (unsigned long long)sec->hdr.sector_number, len);
    return 0;
}

/* A valid C1 of an invented sector (seal_synth_valid.h), and its PoSt
 * vanilla proof when q->out is set. */
static c1_output *synth_valid(const fc_seal_proof *p, unsigned long long seed, const char *miner,
                              const char *sector, const char *data_nodes, const post_req *q) {
    unsigned long long m = 1000, s = 1, d = 16;
    if ((miner && parse_u64(&m, miner, "--miner") != 0) ||
        (sector && parse_u64(&s, sector, "--sector") != 0) ||
        (data_nodes && parse_u64(&d, data_nodes, "--data-nodes") != 0))
        return NULL;
    if (d > 1u << 20) {
        fprintf(stderr, "cuzk c1 synth: --data-nodes %llu: at most %u\n", d, 1u << 20);
        return NULL;
    }
    fc_synth_valid_params vp = {p, m, s, seed, (unsigned)d};
    fc_synth_sector sec;
    char err[512];
    double t0 = timing_now_ms();
    c1_output *c = NULL;
    if (fc_synth_valid_sector(&sec, &vp, err, sizeof err) != 0 ||
        fc_synth_valid_commit1(&c, &sec, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk c1 synth: %s\n", err);
        fc_synth_sector_free(&sec);
        return NULL;
    }
    char hc[65], hr[65];
    hex_encode(hc, sec.hdr.comm_c, 32);
    hex_encode(hr, sec.hdr.comm_r_last, 32);
    printf("invented sector: miner %llu sector %llu, %zu challenged nodes, %zu columns, %.0f ms; "
           "comm_c %s comm_r_last %s\n",
           m, s, sec.n_challenged, sec.n_cols, timing_now_ms() - t0, hc, hr);
    if (q->out && write_post(&sec, q) != 0) {
        c1_output_free(c);
        c = NULL;
    }
    fc_synth_sector_free(&sec);
    return c;
}

static int synth(int argc, char **argv) {
    int valid = take_flag(&argc, argv, "--valid");
    const char *proof = NULL, *seed = "1", *wrapper = NULL, *out = NULL, *miner = NULL,
               *sector = NULL, *data_nodes = NULL;
    post_req q = {NULL, NULL, NULL, NULL};
    const cli_opt opts[] = {{"--proof", &proof},
                            {"--seed", &seed},
                            {"--wrapper", &wrapper},
                            {"--out", &out},
                            {"--miner", &miner},
                            {"--sector", &sector},
                            {"--data-nodes", &data_nodes},
                            {"--post-proof", &q.proof},
                            {"--randomness", &q.randomness},
                            {"--slot", &q.slot},
                            {"--post-out", &q.out}};
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, usage) != 0)
        return 2;
    int post_any = q.proof || q.randomness || q.slot || q.out;
    if (!proof || !out || (!valid && (miner || sector || data_nodes || post_any)) ||
        (post_any && (!q.proof || !q.randomness || !q.out))) {
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
    if (valid && wrapper && !sector)
        sector = wrapper; /* the wrapper's SectorNum is the sector's number */
    c1_error err;
    c1_output *c =
        valid ? synth_valid(p, sv, miner, sector, data_nodes, &q) : c1_output_alloc(p, &err);
    if (!c) {
        if (!valid)
            fprintf(stderr, "cuzk c1 synth: %s\n", err.msg);
        return 1;
    }
    if (!valid)
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
    printf("%s: synthetic %s (%s), %zu bytes\n", out, p->name,
           valid ? "valid: an invented sector, never sealed" : "random values, not a proof", len);
    return 0;
}

int cmd_c1(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[0], "check") == 0)
        return check(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "synth") == 0)
        return synth(argc - 1, argv + 1);
    fprintf(stderr, "usage: %s\n", usage);
    return 2;
}
