/* The streaming sealer (sealer_stream.h) against the in-memory reference
 * (sealer.h) on 2 KiB sectors of every variant (V1, V1_1, Synthetic, NI),
 * zeros and random data, with 1 and 3 threads and tree chunks from 8 leaves
 * (many chunks) to the default (one chunk): commitments, C1 JSON bytes, the
 * layer, tree and replica files are identical.  Also the streamed padding
 * equals fc_seal_pad_sector across its chunk boundaries, and bad inputs (a
 * budget below the minimum, non-Fr32 data, a short or missing `unsealed`)
 * fail with a message naming the problem. */
#include "stream_test_util.h"

/* fc_seal_pad_stream = fc_seal_pad_sector, over several of its 1 MiB steps. */
static void test_pad_stream(void) {
    const uint64_t size = (3u << 20) + 128 * 5;
    size_t raw_n = (size_t)fc_fr32_unpadded_size(size);
    uint8_t *raw = malloc(raw_n);
    char dirbuf[64], err[256];
    const char *dir = ut_mkdtemp(dirbuf);
    CHECK(raw && dir);
    if (!raw || !dir) {
        free(raw);
        return;
    }
    uint64_t seed = check_rand64();
    fc_seal_random_bytes(raw, raw_n, seed);
    uint8_t *ref = fc_seal_pad_sector(raw, raw_n, size);
    for (int mode = 0; mode < 3; mode++) { /* random, file (shorter than the sector), zeros */
        char path[128];
        snprintf(path, sizeof path, "%s/pad", dir);
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        FILE *in = NULL;
        size_t file_n = raw_n - 1000;
        if (mode == 1) {
            CHECK(ut_write(dir, "raw", raw, file_n) == 0);
            snprintf(path, sizeof path, "%s/raw", dir);
            in = fopen(path, "rb");
        }
        CHECK(fd >= 0 &&
              fc_seal_pad_stream(fd, in, mode == 0 ? &seed : NULL, size, err, sizeof err) == 0);
        if (in)
            fclose(in);
        close(fd);
        size_t n;
        uint8_t *got = ut_slurp(dir, "pad", &n);
        uint8_t *want = mode == 0   ? fc_seal_pad_sector(raw, raw_n, size)
                        : mode == 1 ? fc_seal_pad_sector(raw, file_n, size)
                                    : fc_seal_pad_sector(NULL, 0, size);
        CHECK(got && want && n == size && memcmp(got, want, size) == 0);
        free(got);
        free(want);
    }
    /* a file one byte too long */
    CHECK(ut_write(dir, "raw", ref, raw_n + 1) == 0);
    char path[128];
    snprintf(path, sizeof path, "%s/raw", dir);
    FILE *in = fopen(path, "rb");
    snprintf(path, sizeof path, "%s/pad", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    CHECK(in && fd >= 0 && fc_seal_pad_stream(fd, in, NULL, size, err, sizeof err) != 0);
    CHECK(strstr(err, "holds more than the") != NULL);
    if (in)
        fclose(in);
    if (fd >= 0)
        close(fd);
    free(ref);
    free(raw);
    ut_rmdir(dir);
}

static fc_seal_params params(unsigned id, unsigned threads) {
    fc_seal_params p = {.proof = fc_seal_proof_by_id(id),
                        .miner_id = 1000 + check_rand64() % 1000,
                        .sector_number = check_rand64() % 100000,
                        .threads = threads};
    check_rand_bytes(p.ticket, 32);
    check_rand_bytes(p.seed, 32);
    return p;
}

static void test_equal_2k(void) {
    static const unsigned ids[] = {0, 5, 10, 15};
    static const uint64_t chunks[] = {8, 64, 0};
    for (unsigned k = 0; k < 4; k++)
        for (int random = 0; random < 2; random++)
            for (unsigned t = 1; t <= 3; t += 2)
                for (unsigned c = 0; c < 3; c++) {
                    fc_seal_params p = params(ids[k], t);
                    uint8_t raw[2032];
                    check_rand_bytes(raw, sizeof raw);
                    uint8_t *padded =
                        fc_seal_pad_sector(random ? raw : NULL, random ? sizeof raw : 0, 2048);
                    fc_stream_opts o = {.max_chunk = chunks[c]};
                    fc_stream_result res;
                    CHECK(padded && ut_seal_both(&res, &p, o, padded) == 0);
                    free(padded);
                }
}

/* Bad inputs: each fails with its message and leaves no C1. */
static void test_errors(void) {
    fc_seal_params p = params(5, 2);
    char dirbuf[64], err[512];
    const char *dir = ut_mkdtemp(dirbuf);
    CHECK(dir != NULL);
    if (!dir)
        return;
    fc_stream_opts o = {.dir = dir};
    fc_stream_result res;
    c1_output *c = NULL;
    CHECK(fc_seal_stream(&res, &c, &p, &o, err, sizeof err) != 0 && !c);
    CHECK(strstr(err, "/unsealed") != NULL);
    uint8_t *padded = fc_seal_pad_sector(NULL, 0, 2048);
    CHECK(padded && ut_write(dir, "unsealed", padded, 2000) == 0);
    CHECK(fc_seal_stream(&res, &c, &p, &o, err, sizeof err) != 0 && !c);
    CHECK(strstr(err, "holds 2000 bytes") != NULL);
    padded[32 * 37 + 31] |= 0x80;
    padded[32 * 50 + 31] |= 0x40;
    CHECK(ut_write(dir, "unsealed", padded, 2048) == 0);
    CHECK(fc_seal_stream(&res, &c, &p, &o, err, sizeof err) != 0 && !c);
    CHECK(strstr(err, "data node 37 is not Fr32-padded") != NULL);
    padded[32 * 37 + 31] &= 0x3f;
    padded[32 * 50 + 31] &= 0x3f;
    CHECK(ut_write(dir, "unsealed", padded, 2048) == 0);
    o.mem_budget = fc_seal_stream_min_budget(p.proof, p.threads) - 1;
    CHECK(fc_seal_stream(&res, &c, &p, &o, err, sizeof err) != 0 && !c);
    CHECK(strstr(err, "memory budget") && strstr(err, "is below the"));
    o.mem_budget = fc_seal_stream_min_budget(p.proof, p.threads);
    CHECK(fc_seal_stream(&res, &c, &p, &o, err, sizeof err) == 0 && c);
    CHECK(res.mem_peak <= res.mem_budget && res.mem_peak >= 2 * 2048);
    c1_output_free(c);
    free(padded);
    ut_rmdir(dir);
}

int main(void) {
    check_seed("test_sealer_stream");
    test_pad_stream();
    test_equal_2k();
    test_errors();
    return check_finish();
}
