/* Registered proofs: ids, names, porep_id, and parameter file names that must
 * equal the published ones (rust-fil-proofs parameters.json, facts §1.4). */
#include <string.h>

#include "check.h"
#include "filecoin/proof_types.h"

static void expect_stem(size_t n, const char *got, const char *want) {
    CHECK(n == strlen(want));
    CHECK(strcmp(got, want) == 0);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "  got  %s\n  want %s\n", got, want);
}

int main(void) {
    char buf[256];
    /* PoRep: one parameter set per size, shared by all four variants. */
    expect_stem(fc_porep_param_stem(buf, sizeof buf, fc_shape_at(0)), buf,
                "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f");
    expect_stem(fc_porep_param_stem(buf, sizeof buf, fc_shape_at(3)), buf,
                "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
                "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820");
    expect_stem(fc_porep_param_stem(buf, sizeof buf, fc_shape_at(4)), buf,
                "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
                "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2");
    /* PoSt 32 GiB: window (id 8 and its V1_1 twin 13 share parameters) and winning. */
    expect_stem(fc_post_param_stem(buf, sizeof buf, fc_post_proof_by_id(8)), buf,
                "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc");
    expect_stem(fc_post_param_stem(buf, sizeof buf, fc_post_proof_by_id(13)), buf,
                "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc");
    expect_stem(fc_post_param_stem(buf, sizeof buf, fc_post_proof_by_id(3)), buf,
                "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e");
    CHECK(fc_porep_param_stem(buf, 40, fc_shape_at(0)) == 0); /* too small: refused */

    /* ids and names (go-state-types abi numbering) */
    CHECK(strcmp(fc_seal_proof_by_id(8)->name, "StackedDrg32GiBV1_1") == 0);
    CHECK(strcmp(fc_seal_proof_by_id(13)->name, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep") == 0);
    CHECK(strcmp(fc_seal_proof_by_id(19)->name, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep") ==
          0);
    CHECK(strcmp(fc_seal_proof_by_id(5)->vanilla_name, "StackedDrg2KiBV1") == 0);
    CHECK(fc_seal_proof_by_name("StackedDrg2KiBV1_1") == fc_seal_proof_by_id(5));
    CHECK(fc_seal_proof_by_name("StackedDrg2KiBV9") == NULL);
    CHECK(fc_seal_proof_by_id(20) == NULL);
    CHECK(fc_post_proof_by_id(15) == NULL);
    CHECK(fc_seal_proof_by_id(8)->partitions == 10 && fc_seal_proof_by_id(18)->partitions == 126);
    CHECK(fc_seal_proof_by_id(15)->partitions == 13 && fc_seal_proof_by_id(0)->partitions == 1);
    CHECK(fc_seal_proof_by_id(9)->challenges_per_partition == 18);
    CHECK(fc_post_proof_by_id(13)->grindability_fix && !fc_post_proof_by_id(8)->grindability_fix);
    CHECK(fc_shape_by_size(34359738368ull) == fc_shape_at(3) && fc_shape_by_size(4096) == NULL);

    uint8_t id[32], want[32] = {13};
    fc_porep_id(id, fc_seal_proof_by_id(13));
    CHECK_MEM(id, want, 32);
    return check_finish();
}
