/* PoSt vanilla proofs: Curio's golden 32 GiB WindowPoSt proof decodes, its
 * every path verifies to comm_r_last, Poseidon2(comm_c, comm_r_last) equals
 * comm_r, it re-encodes byte for byte, and damaged copies are rejected with
 * a message naming the field. */
#include <string.h>

#include "check.h"
#include "filecoin/post/post_vanilla.h"
#include "gadget/poseidon.h"

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static int rejects(const uint8_t *b, size_t n, const fc_post_proof *expect, const char *needle) {
    fc_post_vanilla v;
    char err[256] = "";
    int rc = fc_post_vanilla_decode(&v, b, n, expect, err, sizeof err);
    if (rc == 0) {
        fc_post_vanilla_free(&v);
        return 0;
    }
    if (needle && !strstr(err, needle)) {
        fprintf(stderr, "  message \"%s\" lacks \"%s\"\n", err, needle);
        return 0;
    }
    return 1;
}

/* The path recomputes its root (shared merkle_proof verifier), which is comm_r_last. */
static int verifies(const fc_inclusion_proof *p, const uint8_t comm_r_last[32]) {
    merkle_proof m;
    if (fc_inclusion_to_merkle(&m, p, TREE_HASH_POSEIDON) != 0)
        return 0;
    int ok = merkle_proof_verify(&m) == MERKLE_OK && memcmp(m.root, comm_r_last, 32) == 0 &&
             merkle_proof_leaf_index(&m) == fc_inclusion_leaf_index(p);
    merkle_proof_free(&m);
    return ok;
}

int main(void) {
    const char *shared = getenv("CUZK_SHARED");
    char path[4096];
    snprintf(path, sizeof path, "%s/vectors/filecoin/post.vproof", shared ? shared : "../shared");
    size_t len;
    uint8_t *buf = read_file(path, &len);
    CHECK(buf != NULL);
    if (!buf) {
        fprintf(stderr, "cannot read %s\n", path);
        return check_finish();
    }
    CHECK(len == 24960);

    const fc_post_proof *window32 = fc_post_proof_by_id(8); /* postpub.json: PoStProof 8 */
    fc_post_vanilla v;
    char err[256] = "";
    CHECK(fc_post_vanilla_decode(&v, buf, len, window32, err, sizeof err) == 0);
    if (err[0])
        fprintf(stderr, "decode: %s\n", err);
    CHECK(v.sector_id == 1 && v.n_sectors == 1 && v.sectors[0].n_proofs == 10);

    /* Every path verifies natively against comm_r_last, and comm_r binds comm_c and comm_r_last. */
    const fc_post_sector_proof *sp = &v.sectors[0];
    for (size_t i = 0; i < sp->n_proofs; i++) {
        const fc_inclusion_proof *p = &sp->proofs[i];
        CHECK(p->kind == FC_PROOF_SUB && p->n_base == 9 && p->n_sub == 1 && p->n_top == 0);
        CHECK(verifies(p, sp->comm_r_last));
        CHECK(fc_inclusion_leaf_index(p) < (1ull << 30));
    }
    fr in[2], out;
    CHECK(fr_from_bytes_le(&in[0], sp->comm_c) && fr_from_bytes_le(&in[1], sp->comm_r_last));
    CHECK(poseidon_hash(&out, in, 2) == 0);
    uint8_t comm_r[32];
    fr_to_bytes_le(comm_r, &out);
    CHECK_MEM(comm_r, v.comm_r, 32);

    /* Re-encoding gives the same bytes. */
    size_t n = fc_post_vanilla_encode(NULL, &v);
    CHECK(n == len);
    uint8_t *re = malloc(n);
    fc_post_vanilla_encode(re, &v);
    CHECK_MEM(re, buf, len);
    free(re);

    /* A flipped sibling breaks that path's verification (and only that one). */
    uint8_t *bad = malloc(len);
    memcpy(bad, buf, len);
    fc_post_vanilla w;
    bad[0x4c] ^= 1; /* first sibling of the first base element of proof 0 */
    CHECK(fc_post_vanilla_decode(&w, bad, len, window32, err, sizeof err) == 0);
    CHECK(!verifies(&w.sectors[0].proofs[0], w.sectors[0].comm_r_last));
    CHECK(verifies(&w.sectors[0].proofs[1], w.sectors[0].comm_r_last));
    fc_post_vanilla_free(&w);

    /* Structural damage: every truncation, trailing bytes, bad variant, bad index, wrong shape. */
    int all_truncations_rejected = 1;
    for (size_t cut = 0; cut < len; cut += (cut < 256 ? 1 : 97))
        all_truncations_rejected &= rejects(buf, cut, NULL, NULL);
    CHECK(all_truncations_rejected);
    memcpy(bad, buf, len);
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, buf, len);
    longer[len] = 0;
    CHECK(rejects(longer, len + 1, NULL, "trailing"));
    free(longer);
    bad[0x38] = 3; /* variant of proof 0 */
    CHECK(rejects(bad, len, NULL, "inclusion_proofs[0].variant"));
    memcpy(bad, buf, len);
    bad[0x12c] = 8; /* index of base element 0 (after 7 hashes): 8 is not below 8 */
    CHECK(rejects(bad, len, NULL, "base_proof[0].index"));
    memcpy(bad, buf, len);
    bad[0x3c] = 8; /* 8 base elements, decodable but the wrong shape for 32 GiB */
    CHECK(rejects(bad, len, window32, "expected 9 path elements"));
    memcpy(bad, buf, len);
    bad[0x30] = 0xff; /* inclusion proof count far beyond the bytes */
    bad[0x37] = 0x7f;
    CHECK(rejects(bad, len, NULL, "exceeds"));
    CHECK(rejects(buf, len, fc_post_proof_by_id(3), "66 challenges")); /* Winning 32 GiB */
    CHECK(rejects(buf, len, fc_post_proof_by_id(7), "variant"));       /* Window 512 MiB */
    CHECK(rejects(NULL, 0, NULL, "truncated"));
    free(bad);
    fc_post_vanilla_free(&v);
    free(buf);
    return check_finish();
}
