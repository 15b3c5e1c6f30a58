/* The registered-proof tables.  Every number here is from filecoin-facts.md
 * §2.2 / §3.6 / §1.4; the parameter file names derived from them are checked
 * against the published names in tests/unit/filecoin/test_proof_types.c. */
#include "filecoin/proof_types.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "filecoin/hash/sha256_native.h"
#include "util/hex.h"

static const fc_sector_shape g_shapes[FC_SECTOR_SIZES] = {
    {2048ull, 64ull, "2k", "2KiB", 2, 8, 0, 0, 6},
    {8ull << 20, 1ull << 18, "8m", "8MiB", 2, 8, 0, 0, 18},
    {512ull << 20, 1ull << 24, "512m", "512MiB", 2, 8, 0, 0, 24},
    {32ull << 30, 1ull << 30, "32g", "32GiB", 11, 8, 8, 0, 30},
    {64ull << 30, 1ull << 31, "64g", "64GiB", 11, 8, 8, 2, 31},
};

/* RegisteredSealProof ids: 5 sizes for each of V1, V1_1, Synthetic, NI. */
static const char *const g_seal_suffix[4] = {"V1", "V1_1", "V1_1_Feat_SyntheticPoRep",
                                             "V1_2_Feat_NonInteractivePoRep"};
static fc_seal_proof g_seal[20];
static char g_seal_names[20][64];
static char g_vanilla_names[FC_SECTOR_SIZES][32];

/* RegisteredPoStProof ids: Winning V1 0..4, Window V1 5..9, Window V1_1 10..14. */
static fc_post_proof g_post[15];
static char g_post_names[15][64];

/* Windowed PoSt sectors per partition (rust-fil-proofs WINDOW_POST_SECTOR_COUNT). */
static const unsigned g_window_sectors[FC_SECTOR_SIZES] = {2, 2, 2, 2349, 2300};

static void build_tables(void) {
    for (unsigned s = 0; s < FC_SECTOR_SIZES; s++)
        snprintf(g_vanilla_names[s], sizeof g_vanilla_names[s], "StackedDrg%sV1",
                 g_shapes[s].size_name);
    for (unsigned v = 0; v < 4; v++) {
        for (unsigned s = 0; s < FC_SECTOR_SIZES; s++) {
            unsigned id = v * 5 + s;
            int big = g_shapes[s].sector_size >= (32ull << 30);
            fc_seal_proof *p = &g_seal[id];
            snprintf(g_seal_names[id], sizeof g_seal_names[id], "StackedDrg%s%s",
                     g_shapes[s].size_name, g_seal_suffix[v]);
            p->id = id;
            p->shape = &g_shapes[s];
            p->variant = (fc_porep_variant)v;
            p->name = g_seal_names[id];
            p->vanilla_name = g_vanilla_names[s];
            if (v == FC_POREP_NI)
                p->partitions = big ? 126 : 13;
            else
                p->partitions = big ? 10 : 1;
            p->challenges_per_partition = big ? 18 : 2;
            p->api_minor = v == FC_POREP_V1 ? 0 : v == FC_POREP_V1_1 ? 1 : 2;
        }
    }
    for (unsigned g = 0; g < 3; g++) {
        for (unsigned s = 0; s < FC_SECTOR_SIZES; s++) {
            unsigned id = g * 5 + s;
            fc_post_proof *p = &g_post[id];
            p->id = id;
            p->shape = &g_shapes[s];
            p->kind = g == 0 ? FC_POST_WINNING : FC_POST_WINDOW;
            p->grindability_fix = g == 2;
            snprintf(g_post_names[id], sizeof g_post_names[id], "StackedDrg%s%s%s",
                     g == 0 ? "Winning" : "Window", g_shapes[s].size_name, g == 2 ? "V1_1" : "V1");
            p->name = g_post_names[id];
            /* Winning: 66 challenges of one sector are laid out as 66 one-challenge
             * sectors in the circuit (the parameter identifier says so). */
            p->sector_count = g == 0 ? 66 : g_window_sectors[s];
            p->challenge_count = g == 0 ? 1 : 10;
        }
    }
}

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static void tables(void) { pthread_once(&g_once, build_tables); }

const fc_sector_shape *fc_shape_at(unsigned i) { return i < FC_SECTOR_SIZES ? &g_shapes[i] : NULL; }

const fc_sector_shape *fc_shape_by_size(uint64_t sector_size) {
    for (unsigned i = 0; i < FC_SECTOR_SIZES; i++)
        if (g_shapes[i].sector_size == sector_size)
            return &g_shapes[i];
    return NULL;
}

const fc_seal_proof *fc_seal_proof_by_id(uint64_t id) {
    tables();
    return id < 20 ? &g_seal[id] : NULL;
}

const fc_seal_proof *fc_seal_proof_by_name(const char *name) {
    tables();
    for (unsigned i = 0; name && i < 20; i++)
        if (strcmp(g_seal[i].name, name) == 0)
            return &g_seal[i];
    return NULL;
}

const fc_post_proof *fc_post_proof_by_id(uint64_t id) {
    tables();
    return id < 15 ? &g_post[id] : NULL;
}

void fc_porep_id(uint8_t out[32], const fc_seal_proof *p) {
    memset(out, 0, 32);
    uint64_t id = p->id;
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(id >> (8 * i)); /* bytes 8..15: nonce 0 */
}

/* snprintf into a fixed buffer; 0 when it does not fit. */
static size_t put(size_t cap, int n) { return n > 0 && (size_t)n < cap ? (size_t)n : 0; }

size_t fc_tree_display(char *out, size_t cap, const fc_sector_shape *s) {
    return put(cap, snprintf(out, cap, "merkletree-poseidon_hasher-%u-%u-%u", s->arity_base,
                             s->arity_sub, s->arity_top));
}

size_t fc_porep_param_identifier(char *out, size_t cap, const fc_sector_shape *s) {
    char tree[64];
    fc_tree_display(tree, sizeof tree, s);
    unsigned challenges = s->sector_size >= (32ull << 30) ? 18 : 2;
    return put(cap, snprintf(out, cap,
                             "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph"
                             "{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: %llu; "
                             "degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges "
                             "{ layers: %u, max_count: %u }, tree: %s }",
                             (unsigned long long)s->nodes, s->layers, challenges, tree));
}

size_t fc_post_param_identifier(char *out, size_t cap, const fc_post_proof *p) {
    return put(cap, snprintf(out, cap,
                             "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, "
                             "sector_count: %u}",
                             (unsigned long long)p->shape->sector_size, p->challenge_count,
                             p->sector_count));
}

/* "v28-<prefix>-<sha256hex(identifier)>" */
static size_t stem(char *out, size_t cap, const char *prefix, const char *identifier) {
    uint8_t d[32];
    char hex[65];
    sha256_native(d, identifier, strlen(identifier));
    hex_encode(hex, d, 32);
    return put(cap, snprintf(out, cap, "v28-%s-%s", prefix, hex));
}

size_t fc_porep_param_stem(char *out, size_t cap, const fc_sector_shape *s) {
    char id[512], tree[64], prefix[160];
    if (!fc_porep_param_identifier(id, sizeof id, s))
        return 0;
    fc_tree_display(tree, sizeof tree, s);
    snprintf(prefix, sizeof prefix, "stacked-proof-of-replication-%s-sha256_hasher", tree);
    return stem(out, cap, prefix, id);
}

size_t fc_post_param_stem(char *out, size_t cap, const fc_post_proof *p) {
    char id[256], tree[64], prefix[160];
    if (!fc_post_param_identifier(id, sizeof id, p))
        return 0;
    fc_tree_display(tree, sizeof tree, p->shape);
    snprintf(prefix, sizeof prefix, "proof-of-spacetime-fallback-%s", tree);
    return stem(out, cap, prefix, id);
}

/* ---- empty sector update (storage-proofs-update constants.rs) ---- */

/* Tree R shapes validate_tree_r_shape allows, by log2(nodes). */
static int update_tree_shape(unsigned bits, unsigned *base, unsigned *sub, unsigned *top) {
    static const struct {
        unsigned bits, sub, top;
    } shapes[] = {{5, 4, 0},  {6, 0, 0},  {7, 2, 0},  {8, 4, 0},  {9, 8, 0}, {10, 8, 2},
                  {18, 0, 0}, {19, 2, 0}, {24, 0, 0}, {30, 8, 0}, {31, 8, 2}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        if (shapes[i].bits == bits) {
            *base = 8;
            *sub = shapes[i].sub;
            *top = shapes[i].top;
            return 0;
        }
    }
    return -1;
}

int fc_update_proof_for_nodes(fc_update_proof *out, uint64_t nodes) {
    memset(out, 0, sizeof *out);
    if (nodes == 0 || (nodes & (nodes - 1)) != 0)
        return -1;
    unsigned bits = 0;
    while ((1ull << bits) < nodes)
        bits++;
    if (update_tree_shape(bits, &out->arity_base, &out->arity_sub, &out->arity_top))
        return -1;
    out->id = -1;
    out->name = "test";
    out->nodes = nodes;
    out->sector_size = nodes << 5;
    out->shape = fc_shape_by_size(out->sector_size);
    out->bits = bits;
    out->partitions = nodes <= (1u << 8)    ? 1
                      : nodes <= (1u << 10) ? 2
                      : nodes <= (1u << 19) ? 4
                                            : 16;
    while ((1u << out->partition_bits) < out->partitions)
        out->partition_bits++;
    out->challenges = nodes <= (1u << 19) ? 10 : 86;
    out->apex_leaves = nodes <= (1u << 8) ? 8 : 128;
    out->apex_bits = nodes <= (1u << 8) ? 3 : 7;
    for (unsigned i = 0; i < FC_UPDATE_HS; i++)
        out->hs[i] = nodes <= (1u << 10) ? 1 : 7 + i;
    out->h_default = out->hs[3];
    out->rand_bits = bits - out->partition_bits;
    out->challenges_per_digest = 254 / out->rand_bits; /* Fr::CAPACITY */
    out->digests = (out->challenges + out->challenges_per_digest - 1) / out->challenges_per_digest;
    return 0;
}

static fc_update_proof g_update[FC_SECTOR_SIZES];
static char g_update_names[FC_SECTOR_SIZES][32];

static void build_update(void) {
    for (unsigned s = 0; s < FC_SECTOR_SIZES; s++) {
        fc_update_proof *p = &g_update[s];
        fc_update_proof_for_nodes(p, g_shapes[s].nodes);
        snprintf(g_update_names[s], sizeof g_update_names[s], "StackedDrg%sV1",
                 g_shapes[s].size_name);
        p->id = (int)s;
        p->name = g_update_names[s];
    }
}

static pthread_once_t g_update_once = PTHREAD_ONCE_INIT;

const fc_update_proof *fc_update_proof_by_id(uint64_t id) {
    pthread_once(&g_update_once, build_update);
    return id < FC_SECTOR_SIZES ? &g_update[id] : NULL;
}

uint64_t fc_update_h_select(const fc_update_proof *p, unsigned h) {
    for (unsigned i = 0; i < FC_UPDATE_HS; i++)
        if (p->hs[i] == h)
            return 1ull << i;
    return 0;
}

size_t fc_update_param_identifier(char *out, size_t cap, const fc_update_proof *p) {
    return put(cap, snprintf(out, cap, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
                             (unsigned long long)p->nodes));
}

size_t fc_update_param_stem(char *out, size_t cap, const fc_update_proof *p) {
    char id[128], prefix[160];
    if (!fc_update_param_identifier(id, sizeof id, p))
        return 0;
    snprintf(prefix, sizeof prefix, "empty-sector-update-merkletree-poseidon_hasher-%u-%u-%u",
             p->arity_base, p->arity_sub, p->arity_top);
    return stem(out, cap, prefix, id);
}
