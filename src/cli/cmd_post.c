/* cuzk post-vanilla --registered-proof ID --sector-dir DIR --randomness HEX
 *                   [--slot N] --out FILE
 *
 * Reads what cuzk seal wrote (docs/SEALER.md: sealed = tree R's leaves,
 * p_aux = comm_c || comm_r_last, sector.json = sector number and comm_r),
 * rebuilds tree R and writes the bincode FallbackPoStSectorProof that Curio
 * would send for this sector (WindowPoSt: the sector at `slot` of the
 * partition's proof; WinningPoSt: its 66 challenges). */
#include "cli/cmd_post.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/post/post_vanilla_gen.h"
#include "util/file_write.h"
#include "util/hex.h"

static const char *usage = "cuzk post-vanilla --registered-proof ID --sector-dir DIR "
                           "--randomness HEX32 [--slot N] --out FILE";

static uint8_t *slurp(const char *dir, const char *name, size_t *len) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cuzk post-vanilla: cannot read %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = n > 0 ? malloc((size_t)n) : NULL;
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cuzk post-vanilla: cannot read %s\n", path);
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = b ? (size_t)n : 0;
    return b;
}

static int parse_u64(uint64_t *out, const char *s, const char *what) {
    char *end;
    if (!s || !*s || *s == '-') {
        fprintf(stderr, "cuzk post-vanilla: %s: a number is required\n", what);
        return -1;
    }
    *out = strtoull(s, &end, 10);
    if (*end) {
        fprintf(stderr, "cuzk post-vanilla: %s: \"%s\" is not a number\n", what, s);
        return -1;
    }
    return 0;
}

/* sector_number and comm_r from sector.json. */
static int read_sector_json(const char *dir, uint64_t *number, uint8_t comm_r[32]) {
    char path[4200];
    snprintf(path, sizeof path, "%s/sector.json", dir);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    json_t *n = j ? json_object_get(j, "sector_number") : NULL;
    json_t *r = j ? json_object_get(j, "comm_r") : NULL;
    int ok = n && json_is_integer(n) && json_integer_value(n) >= 0 && r && json_is_string(r) &&
             hex_decode(comm_r, 32, json_string_value(r)) == 32;
    if (ok)
        *number = (uint64_t)json_integer_value(n);
    else
        fprintf(stderr, "cuzk post-vanilla: %s: %s\n", path,
                j ? "needs sector_number and a 32-byte hex comm_r" : je.text);
    json_decref(j);
    return ok ? 0 : -1;
}

int cmd_post_vanilla(int argc, char **argv) {
    const char *proof = NULL, *dir = NULL, *rnd_hex = NULL, *slot_s = "0", *out = NULL;
    const cli_opt opts[] = {{"--registered-proof", &proof},
                            {"--sector-dir", &dir},
                            {"--randomness", &rnd_hex},
                            {"--slot", &slot_s},
                            {"--out", &out}};
    if (cli_parse(argc, argv, opts, sizeof opts / sizeof opts[0], NULL, usage) != 0)
        return 2;
    uint64_t id, slot;
    uint8_t rnd[32];
    if (!proof || !dir || !rnd_hex || !out) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    if (parse_u64(&id, proof, "--registered-proof") || parse_u64(&slot, slot_s, "--slot"))
        return 2;
    const fc_post_proof *p = fc_post_proof_by_id(id);
    if (!p) {
        fprintf(stderr, "cuzk post-vanilla: --registered-proof %s is not a PoSt proof (0..14)\n",
                proof);
        return 2;
    }
    if (hex_decode(rnd, 32, rnd_hex) != 32) {
        fprintf(stderr, "cuzk post-vanilla: --randomness: 64 hex digits expected\n");
        return 2;
    }
    fc_post_sector s = {0};
    size_t n_sealed = 0, n_aux = 0;
    uint8_t *sealed = slurp(dir, "sealed", &n_sealed), *aux = slurp(dir, "p_aux", &n_aux);
    int rc = 1;
    merkle_tree t = {0};
    if (!sealed || !aux || read_sector_json(dir, &s.sector_id, s.comm_r) != 0)
        goto done;
    if (n_aux != 64 || n_sealed != p->shape->sector_size) {
        fprintf(stderr,
                "cuzk post-vanilla: %s holds a %zu-byte sector (p_aux %zu bytes); %s "
                "needs %llu bytes\n",
                dir, n_sealed, n_aux, p->name, (unsigned long long)p->shape->sector_size);
        goto done;
    }
    memcpy(s.comm_c, aux, 32);
    memcpy(s.comm_r_last, aux + 32, 32);
    int mrc = merkle_tree_build(&t, TREE_HASH_POSEIDON, p->shape->arity_base, p->shape->arity_sub,
                                p->shape->arity_top, sealed, n_sealed / 32);
    if (mrc != MERKLE_OK) {
        fprintf(stderr, "cuzk post-vanilla: tree R: %s\n", merkle_strerror(mrc));
        goto done;
    }
    s.tree_r = &t;
    uint8_t *bin = NULL;
    size_t len = 0;
    char err[512];
    if (fc_post_vanilla_generate(&bin, &len, p, &s, rnd, slot, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk post-vanilla: %s\n", err);
        goto done;
    }
    if (file_write_atomic(out, bin, len, err, sizeof err) != 0) {
        fprintf(stderr, "cuzk post-vanilla: %s\n", err);
        free(bin);
        goto done;
    }
    printf("%s: sector %llu, %zu-byte vanilla proof -> %s\n", p->name,
           (unsigned long long)s.sector_id, len, out);
    free(bin);
    rc = 0;
done:
    merkle_tree_free(&t);
    free(sealed);
    free(aux);
    return rc;
}
