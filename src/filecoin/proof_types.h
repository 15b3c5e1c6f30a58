/* Filecoin registered proofs and the shapes they fix (filecoin-facts.md §2.2,
 * §3.6, §1.4): sector sizes, layers, partitions, challenges, tree arities, and
 * the Filecoin names of their parameter files.
 *
 * The numeric ids are the chain's (go-state-types abi): RegisteredSealProof
 * 0..19, RegisteredPoStProof 0..14, RegisteredUpdateProof 0..4. */
#ifndef CUZK_FILECOIN_PROOF_TYPES_H
#define CUZK_FILECOIN_PROOF_TYPES_H

#include <stddef.h>
#include <stdint.h>

enum { FC_SECTOR_SIZES = 5 };

/* One sector size's tree and graph shape. */
typedef struct {
    uint64_t sector_size;                      /* bytes */
    uint64_t nodes;                            /* 32-byte nodes */
    const char *short_name;                    /* "2k", "8m", "512m", "32g", "64g" (circuit ids) */
    const char *size_name;                     /* "2KiB", ... as in Rust enum names */
    unsigned layers;                           /* L */
    unsigned arity_base, arity_sub, arity_top; /* tree R and tree C: 8-0-0, 8-8-0, 8-8-2 */
    unsigned comm_d_depth;                     /* log2(nodes) */
} fc_sector_shape;

typedef enum {
    FC_POREP_V1 = 0,        /* ApiVersion V1_0_0 */
    FC_POREP_V1_1 = 1,      /* V1_1_0 */
    FC_POREP_SYNTHETIC = 2, /* V1_1_Feat_SyntheticPoRep: V1_2_0 */
    FC_POREP_NI = 3         /* V1_2_Feat_NonInteractivePoRep: V1_2_0 */
} fc_porep_variant;

typedef struct {
    unsigned id; /* RegisteredSealProof */
    const fc_sector_shape *shape;
    fc_porep_variant variant;
    const char *name;         /* "StackedDrg2KiBV1_1", ... (serde variant name) */
    const char *vanilla_name; /* "StackedDrg2KiBV1" (VanillaSealProof variant) */
    unsigned partitions;
    unsigned challenges_per_partition;
    unsigned api_minor; /* 0 = V1_0_0, 1 = V1_1_0, 2 = V1_2_0 */
} fc_seal_proof;

typedef enum { FC_POST_WINNING = 0, FC_POST_WINDOW = 1 } fc_post_kind;

typedef struct {
    unsigned id; /* RegisteredPoStProof */
    const fc_sector_shape *shape;
    fc_post_kind kind;
    int grindability_fix;     /* Window V1_1 (ids 10..14): proofs-api V1_2 */
    const char *name;         /* "StackedDrgWindow32GiBV1_1", ... */
    unsigned sector_count;    /* sectors per partition, as in the parameter identifier */
    unsigned challenge_count; /* challenges per sector, as in the parameter identifier */
} fc_post_proof;

/* Shapes by index 0..4 (2 KiB .. 64 GiB) and by byte size (NULL if none). */
const fc_sector_shape *fc_shape_at(unsigned i);
const fc_sector_shape *fc_shape_by_size(uint64_t sector_size);

/* Registered proofs by number or by name; NULL if unknown. */
const fc_seal_proof *fc_seal_proof_by_id(uint64_t id);
const fc_seal_proof *fc_seal_proof_by_name(const char *name);
const fc_post_proof *fc_post_proof_by_id(uint64_t id);

/* porep_id: id as u64 LE, nonce 0 as u64 LE, 16 zero bytes (§2.2). */
void fc_porep_id(uint8_t out[32], const fc_seal_proof *p);

/* Parameter identifier strings (§1.4) and file stems
 * "v28-<prefix>-<sha256hex(identifier)>" (append ".params"/".vk"/".meta").
 * Return the length written, or 0 if cap is too small. */
size_t fc_porep_param_identifier(char *out, size_t cap, const fc_sector_shape *s);
size_t fc_porep_param_stem(char *out, size_t cap, const fc_sector_shape *s);
size_t fc_post_param_identifier(char *out, size_t cap, const fc_post_proof *p);
size_t fc_post_param_stem(char *out, size_t cap, const fc_post_proof *p);

/* An empty-sector-update (SnapDeals) shape (rust-fil-proofs
 * storage-proofs-update constants.rs; docs/SNAPDEALS.md 1.3).  The five
 * registered ones (RegisteredUpdateProof 0..4) come from
 * fc_update_proof_by_id; fc_update_proof_for_nodes also fills the test-only
 * sizes upstream allows (1 KiB .. 32 KiB, 16 MiB) for count tests. */
#define FC_UPDATE_HS 6
typedef struct {
    int id;                       /* RegisteredUpdateProof, -1 for a test-only size */
    const fc_sector_shape *shape; /* NULL for a test-only size */
    const char *name;             /* "StackedDrg2KiBV1", ...; "test" for test sizes */
    uint64_t sector_size, nodes;
    unsigned bits;                             /* log2(nodes): challenge bits */
    unsigned arity_base, arity_sub, arity_top; /* tree R: 8-0-0, 8-8-0, 8-8-2, ... */
    unsigned partitions, partition_bits;       /* P, log2(P) */
    unsigned challenges;                       /* per partition */
    unsigned apex_leaves, apex_bits;           /* per partition's apex tree */
    unsigned hs[FC_UPDATE_HS];                 /* the h values h_select picks from */
    unsigned h_default;                        /* hs[3] */
    unsigned rand_bits;                        /* bits - partition_bits */
    unsigned challenges_per_digest;            /* 254 / rand_bits */
    unsigned digests;                          /* per partition */
} fc_update_proof;

/* RegisteredUpdateProof 0..4 (StackedDrg2KiBV1 .. 64GiBV1); NULL otherwise. */
const fc_update_proof *fc_update_proof_by_id(uint64_t id);
/* Fills out for one of upstream's 11 allowed node counts (2^5 .. 2^10, 2^18,
 * 2^19, 2^24, 2^30, 2^31); -1 for any other. */
int fc_update_proof_for_nodes(fc_update_proof *out, uint64_t nodes);
/* h_select = 1 << (first i with hs[i] == h), 0 if h is not allowed.  For the
 * small sizes (hs all 1) h = 1 gives 1, not 8. */
uint64_t fc_update_h_select(const fc_update_proof *p, unsigned h);

/* "empty_sector_update::PublicParams{ sector_nodes: N }" and the stem
 * "v28-empty-sector-update-<tree display>-<sha256hex>".  0 if cap is too small. */
size_t fc_update_param_identifier(char *out, size_t cap, const fc_update_proof *p);
size_t fc_update_param_stem(char *out, size_t cap, const fc_update_proof *p);

/* Tree display name "merkletree-poseidon_hasher-8-8-0". */
size_t fc_tree_display(char *out, size_t cap, const fc_sector_shape *s);

#endif
