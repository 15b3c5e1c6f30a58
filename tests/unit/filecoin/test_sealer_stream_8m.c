/* An 8 MiB V1_1 sector (2^18 nodes) sealed by the streaming sealer under
 * the smallest budget it accepts (two layers, 16 MiB, plus its buffers) and
 * by the in-memory reference: the seal succeeds, the ledger's peak stays
 * within the budget and holds at least the two layers, and commitments, C1
 * JSON bytes, layer, tree and replica files are identical.  Then a budget
 * one byte smaller is refused with a message naming it.  Seconds in a
 * Release build; labelled `slow` in sanitizer builds. */
#include "stream_test_util.h"

int main(void) {
    check_seed("test_sealer_stream_8m");
    const uint64_t size = 8u << 20;
    size_t n = (size_t)fc_fr32_unpadded_size(size);
    uint8_t *raw = malloc(n);
    CHECK(raw != NULL);
    if (!raw)
        return check_finish();
    check_rand_bytes(raw, n);
    uint8_t *padded = fc_seal_pad_sector(raw, n, size);
    free(raw);
    fc_seal_params p = {
        .proof = fc_seal_proof_by_id(6), .miner_id = 1000, .sector_number = 42, .threads = 3};
    check_rand_bytes(p.ticket, 32);
    check_rand_bytes(p.seed, 32);
    uint64_t min = fc_seal_stream_min_budget(p.proof, p.threads);
    CHECK(min >= 2 * size && min < 2 * size + (8u << 20));
    fc_stream_opts o = {.mem_budget = min};
    fc_stream_result res;
    CHECK(padded && ut_seal_both(&res, &p, o, padded) == 0);
    CHECK(res.mem_budget == min);
    CHECK(res.mem_peak <= min && res.mem_peak >= 2 * size);
    fprintf(stderr, "8 MiB: ledger peak %llu of a %llu byte budget\n",
            (unsigned long long)res.mem_peak, (unsigned long long)res.mem_budget);

    char dirbuf[64], err[512];
    const char *dir = ut_mkdtemp(dirbuf);
    CHECK(dir && padded && ut_write(dir, "unsealed", padded, size) == 0);
    if (dir) {
        fc_stream_opts small = {.dir = dir, .mem_budget = min - 1};
        c1_output *c = NULL;
        CHECK(fc_seal_stream(&res, &c, &p, &small, err, sizeof err) != 0 && !c);
        CHECK(strstr(err, "memory budget") && strstr(err, "8MiB"));
        ut_rmdir(dir);
    }
    free(padded);
    return check_finish();
}
