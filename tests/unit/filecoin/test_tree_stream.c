/* tree_stream (chunked, file-backed trees) against merkle_tree_build and
 * merkle_proof_gen on random canonical leaves: SHA-256 binary, Poseidon
 * base 8, 8-ary with a sub level (32 GiB's shape), and with sub and top
 * (64 GiB's), base 4 and 2 with sub/top; leaves stored in the file or
 * read from a separate leaf file; 1 and 3 threads; chunks from the smallest
 * (base leaves) to the whole base tree.  The file must hold exactly the rows
 * from first_row up, the root must match, and every proof read back from the
 * files must equal the in-memory one.  Then: a budget too small for any
 * chunk is refused with a message, and a failing leaf callback's message is
 * passed on. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"
#include "sealer/seal_io.h"
#include "sealer/tree_stream.h"

typedef struct {
    const uint8_t *leaves;
    int fail_at; /* leaf index whose chunk fails, or -1 */
} leaf_src;

static int leaf_fn(void *ctx, uint64_t first, size_t n, uint8_t *out, uint8_t *scratch, char *err,
                   size_t cap) {
    (void)scratch;
    leaf_src *s = ctx;
    if (s->fail_at >= 0 && (uint64_t)s->fail_at >= first && (uint64_t)s->fail_at < first + n) {
        snprintf(err, cap, "leaf source broken at %d", s->fail_at);
        return -1;
    }
    memcpy(out, s->leaves + first * 32, n * 32);
    return 0;
}

static int tmpfile_fd(char path[64]) {
    snprintf(path, 64, "/tmp/cuzk_tree_XXXXXX");
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    return fd;
}

static void one(tree_hasher h, unsigned base, unsigned sub, unsigned top, size_t n,
                unsigned first_row, unsigned threads, uint64_t max_chunk) {
    uint8_t *leaves = malloc(n * 32);
    CHECK(leaves != NULL);
    if (!leaves)
        return;
    check_rand_bytes(leaves, n * 32);
    for (size_t i = 0; i < n; i++)
        leaves[32 * i + 31] &= 0x1f; /* canonical Fr */
    merkle_tree ref;
    CHECK(merkle_tree_build(&ref, h, base, sub, top, leaves, n) == MERKLE_OK);
    tree_stream t;
    CHECK(tree_stream_layout(&t, h, base, sub, top, n, first_row) == MERKLE_OK);
    char p1[64], p2[64];
    int fd = tmpfile_fd(p1), lfd = tmpfile_fd(p2);
    CHECK(fd >= 0 && lfd >= 0 && fc_pwrite_full(lfd, leaves, n * 32, 0) == 0);
    fc_seal_mem mem;
    fc_seal_mem_init(&mem, 64u << 20);
    leaf_src src = {leaves, -1};
    tree_stream_params p = {fd, threads, max_chunk, leaf_fn, &src, 0, &mem};
    char err[256];
    int rc = tree_stream_build(&t, &p, err, sizeof err);
    CHECK(rc == 0);
    if (rc)
        fprintf(stderr, "tree_stream_build: %s\n", err);
    CHECK(atomic_load(&mem.cur) == 0 && atomic_load(&mem.peak) > 0);
    CHECK_MEM(t.root, merkle_tree_root(&ref), 32);
    CHECK(lseek(fd, 0, SEEK_END) == (off_t)t.file_bytes);
    uint8_t *row = malloc(n * 32);
    for (unsigned l = first_row; row && l <= ref.levels; l++)
        CHECK(fc_pread_full(fd, row, ref.width[l] * 32, t.offset[l]) == 0 &&
              memcmp(row, ref.row[l], ref.width[l] * 32) == 0);
    free(row);
    for (int k = 0; k < 12; k++) {
        uint64_t i = k == 0 ? 0 : k == 1 ? n - 1 : check_rand64() % n;
        merkle_proof a, b;
        CHECK(merkle_proof_gen(&a, &ref, i) == MERKLE_OK);
        CHECK(tree_stream_proof(&b, &t, fd, lfd, i) == MERKLE_OK);
        CHECK_MEM(a.leaf, b.leaf, 32);
        CHECK_MEM(a.root, b.root, 32);
        CHECK_MEM(a.index, b.index, sizeof a.index);
        CHECK(a.siblings && b.siblings &&
              memcmp(a.siblings, b.siblings, 32 * por_shape_siblings(&a.shape)) == 0);
        CHECK(merkle_proof_verify(&b) == MERKLE_OK);
        merkle_proof_free(&a);
        merkle_proof_free(&b);
    }
    merkle_proof q;
    CHECK(tree_stream_proof(&q, &t, fd, lfd, n) == MERKLE_ERR_INDEX);
    merkle_tree_free(&ref);
    free(leaves);
    close(fd);
    close(lfd);
}

static void errors(void) {
    size_t n = 512;
    uint8_t *leaves = calloc(n, 32);
    tree_stream t;
    CHECK(leaves && tree_stream_layout(&t, TREE_HASH_POSEIDON, 8, 0, 0, n, 1) == MERKLE_OK);
    char path[64], err[256];
    int fd = tmpfile_fd(path);
    fc_seal_mem mem;
    fc_seal_mem_init(&mem, 200); /* not even 8 leaves of buffer */
    leaf_src src = {leaves, -1};
    tree_stream_params p = {fd, 2, 0, leaf_fn, &src, 0, &mem};
    CHECK(tree_stream_build(&t, &p, err, sizeof err) != 0 && strstr(err, "memory budget"));
    fc_seal_mem_init(&mem, 1u << 20);
    src.fail_at = 300;
    p.max_chunk = 64;
    CHECK(tree_stream_build(&t, &p, err, sizeof err) != 0 &&
          strstr(err, "leaf source broken at 300"));
    CHECK(atomic_load(&mem.cur) == 0);
    CHECK(tree_stream_layout(&t, TREE_HASH_POSEIDON, 8, 0, 0, 500, 1) == MERKLE_ERR_LEAVES);
    close(fd);
    free(leaves);
}

int main(void) {
    check_seed("test_tree_stream");
    static const uint64_t chunks[] = {1, 64, 4096, 0};
    for (unsigned c = 0; c < 4; c++)
        for (unsigned th = 1; th <= 3; th += 2)
            for (unsigned fr = 0; fr <= 1; fr++) {
                one(TREE_HASH_SHA256, 2, 0, 0, 1024, fr, th, chunks[c]);
                one(TREE_HASH_POSEIDON, 8, 0, 0, 512, fr, th, chunks[c]);
                one(TREE_HASH_POSEIDON, 8, 8, 0, 512, fr, th, chunks[c]);
                one(TREE_HASH_POSEIDON, 8, 8, 2, 1024, fr, th, chunks[c]);
                one(TREE_HASH_POSEIDON, 4, 2, 2, 256, fr, th, chunks[c]);
                one(TREE_HASH_POSEIDON, 2, 4, 0, 64, fr, th, chunks[c]);
            }
    errors();
    return check_finish();
}
