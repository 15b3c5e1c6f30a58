/* Filecoin's published parameter digests (see param_digest.h). */
#include "filecoin/param_digest.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filecoin/hash/blake2b.h"
#include "util/err.h"

/* The v28 entries of rust-fil-proofs' parameters.json (commit 87348a74):
 * file name, digest. */
static const struct {
    const char *name, *digest;
} published[] = {
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
     "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c.params",
     "c3ad7bb549470b82ad52ed070aebb4f4"},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
     "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c.vk",
     "994c5b7d450ca9da348c910689f2dc7f"},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
     "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63.params",
     "5aedd2cf3e5c0a15623d56a1b43110ad"},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
     "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63.vk",
     "abd80269054d391a734febdac0d2e687"},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
     "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.params",
     "311f92a3e75036ced01b1c0025f1fa0c"},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
     "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.vk",
     "eadad9784969890d30f2749708c79771"},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
     "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params",
     "1b3cfd761a961543f9eb273e435a06a2"},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
     "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.vk",
     "3a6941983754737fde880d29c7094905"},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
     "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params",
     "1a392e7b759fb18e036c7559b5ece816"},
    {"v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
     "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.vk",
     "80e366df2f1011953c2d01c7b7c9ee8e"},
    {"v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0-"
     "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params",
     "b69983b5d7a97a20f43b3d5ff2a4ed04"},
    {"v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0-"
     "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.vk",
     "1ac05784f304129f74c5184190c1ec78"},
    {"v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-2-"
     "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params",
     "a6d4f96e2b641a6d7a1a8e6dc1155c8a"},
    {"v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-2-"
     "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.vk",
     "8e8fb9e2c56eb5d740d0de135305a7b8"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params",
     "7610b9f82bfc88405b7a832b651ce2f6"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk",
     "0e0958009936b9d5e515ec97b8cb792d"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9.params",
     "1a7d4a9c8a502a497ed92a54366af33f"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9.vk",
     "4dae975de4f011f101f5a2f86d1daaba"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params",
     "82c88066be968bb550a05e30ff6c2413"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.vk",
     "ffd79788d614d27919ae5bd2d94eacb6"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331.params",
     "700171ecf7334e3199437c930676af82"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331.vk",
     "79ebb55f56fda427743e35053edad8fc"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9.params",
     "c49499bb76a0762884896f9683403f55"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9.vk",
     "34d4feeacd9abf788d69ef1bb4d8fd00"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781.params",
     "827359440349fe8f5a016e7598993b79"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781.vk",
     "bd2cd62f65c1ab84f19ca27e97b7c731"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params",
     "2cf49eb26f1fee94c85781a390ddb4c8"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.vk",
     "0f8ec542485568fa3468c066e9fed82b"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params",
     "d84f79a16fe40e9e25a36e2107bb1ba0"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.vk",
     "fc02943678dd119e69e7fab8420e8819"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.params",
     "3810b7780ac0e299b22ae70f1f94c9bc"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.vk",
     "59d2bf1857adc59a4f08fcf2afaa916b"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c.params",
     "2170a91ad5bae22ea61f2ea766630322"},
    {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c.vk",
     "6d3789148fb6466d07ee1e24d6292fd6"},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params",
     "434fb1338ecfaf0f59256f30dde4968f"},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk",
     "dc1ade9929ade1708238f155343044ac"},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.params",
     "6c77597eb91ab936c1cef4cf19eba1b3"},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.vk",
     "065179da19fbe515507267677f02823e"},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.params",
     "09e612e4eeb7a0eb95679a88404f960c"},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.vk",
     "b687beb9adbd9dabe265a7e3620813e4"},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
     "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params",
     "6a388072a518cf46ebd661f5cc46900a"},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
     "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.vk",
     "0c7b4aac1c40fdb7eb82bc355b41addf"},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
     "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params",
     "1801f8a6e1b00bceb00cc27314bb5ce3"},
    {"v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
     "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.vk",
     "a89884252c04c298d0b3c81bfd884164"},
};

const char *fc_param_published_digest(const char *file_name) {
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++)
        if (strcmp(published[i].name, file_name) == 0)
            return published[i].digest;
    return NULL;
}

int fc_param_file_digest(const char *path, char hex[FC_PARAM_DIGEST_HEX + 1], char *err,
                         size_t cap) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(err, cap, "%s: %s", path, strerror(errno));
    blake2b_ctx c;
    blake2b_init(&c, BLAKE2B_OUT_MAX, NULL, 0); /* the 64-byte hash, then truncated */
    enum { CHUNK = 1 << 20 };
    unsigned char *buf = malloc(CHUNK);
    if (!buf) {
        fclose(f);
        return err_set(err, cap, "%s: out of memory", path);
    }
    size_t n;
    while ((n = fread(buf, 1, CHUNK, f)) > 0)
        blake2b_update(&c, buf, n);
    int bad = ferror(f);
    free(buf);
    fclose(f);
    if (bad)
        return err_set(err, cap, "%s: read error", path);
    uint8_t d[BLAKE2B_OUT_MAX];
    blake2b_final(&c, d);
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < FC_PARAM_DIGEST_HEX / 2; i++) {
        hex[2 * i] = hx[d[i] >> 4];
        hex[2 * i + 1] = hx[d[i] & 15];
    }
    hex[FC_PARAM_DIGEST_HEX] = 0;
    return 0;
}

/* FILE.meta beside FILE.params / FILE.vk says "test_only": true (cuzk setup). */
static int test_only_meta(const char *path) {
    char meta[4400];
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return 0;
    if (snprintf(meta, sizeof meta, "%.*s.meta", (int)(dot - path), path) >= (int)sizeof meta)
        return 0;
    json_error_t je;
    json_t *m = json_load_file(meta, 0, &je);
    int t = m && json_is_true(json_object_get(m, "test_only"));
    json_decref(m);
    return t;
}

fc_param_check_result fc_param_check(const char *path, char *err, size_t cap) {
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    const char *want = fc_param_published_digest(name);
    if (!want)
        return FC_PARAM_UNPUBLISHED;
    /* made here from random toxic waste: the digest cannot match, and reading
     * a 32 GiB set's file whole to show that would cost minutes */
    if (access(path, R_OK) == 0 && test_only_meta(path)) {
        err_set(err, cap,
                "%s: TEST-ONLY parameters under Filecoin's published name (its .meta says "
                "test_only; published digest %s, not checked): proofs will not verify on chain",
                path, want);
        return FC_PARAM_TEST_ONLY;
    }
    char got[FC_PARAM_DIGEST_HEX + 1];
    if (fc_param_file_digest(path, got, err, cap))
        return FC_PARAM_IO;
    if (strcmp(got, want) == 0)
        return FC_PARAM_VERIFIED;
    err_set(err, cap,
            "%s: digest %s is not Filecoin's published %s (truncated, corrupted or another "
            "file: fetch it again, or set TRUST_PARAMS=1 / srs.trust_params to use it anyway)",
            path, got, want);
    return FC_PARAM_MISMATCH;
}

int fc_param_trust_env(void) {
    const char *t = getenv("TRUST_PARAMS");
    return t && strcmp(t, "1") == 0;
}

fc_param_check_result fc_param_check_load(const char *path, int trust, char *err, size_t cap) {
    if (trust || fc_param_trust_env())
        return FC_PARAM_TRUSTED;
    return fc_param_check(path, err, cap);
}
