/* PoSt vanilla proof generation (see post_vanilla_gen.h). */
#include "filecoin/post/post_vanilla_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/post/post_challenges.h"
#include "filecoin/post/post_vanilla.h"
#include "util/err.h"

int fc_post_vanilla_generate(uint8_t **out, size_t *len, const fc_post_proof *p,
                             const fc_post_sector *s, const uint8_t randomness[32], uint64_t slot,
                             char *err, size_t errlen) {
    *out = NULL;
    *len = 0;
    const fc_sector_shape *sh = p->shape;
    const merkle_tree *t = s->tree_r;
    por_shape shape;
    if (!t) {
        if (!s->proof_fn ||
            merkle_shape_for_leaves(&shape, TREE_HASH_POSEIDON, sh->arity_base, sh->arity_sub,
                                    sh->arity_top, (size_t)sh->nodes) != MERKLE_OK)
            return err_set(err, errlen, "no tree R for %s", p->name);
    } else if (t->leaves != sh->nodes || t->shape.base != sh->arity_base ||
               t->shape.sub != sh->arity_sub || t->shape.top != sh->arity_top ||
               t->shape.hasher != TREE_HASH_POSEIDON) {
        snprintf(err, errlen, "tree R has %zu leaves in a %u-%u-%u tree; %s needs %llu in %u-%u-%u",
                 t->leaves, t->shape.base, t->shape.sub, t->shape.top, p->name,
                 (unsigned long long)sh->nodes, sh->arity_base, sh->arity_sub, sh->arity_top);
        return -1;
    } else {
        shape = t->shape;
    }
    if (t && memcmp(merkle_tree_root(t), s->comm_r_last, 32) != 0)
        return err_set(err, errlen, "tree R's root is not comm_r_last");
    if (!fc_post_randomness_ok(randomness))
        return err_set(err, errlen, "randomness is not a canonical field element");
    const unsigned n = fc_post_vanilla_challenges(p);
    uint64_t leaf[66];
    if (p->kind == FC_POST_WINNING) {
        for (unsigned j = 0; j < n; j++)
            leaf[j] = fc_post_leaf_challenge(randomness, s->sector_id, j, sh->nodes);
    } else {
        fc_post_sector_leaf_challenges(leaf, p, randomness, s->sector_id, slot);
    }

    /* One arena: proofs, path elements, and the paths' siblings. */
    const unsigned levels = por_shape_levels(&shape);
    const size_t sib = por_shape_siblings(&shape);
    fc_inclusion_proof *proofs = calloc(n, sizeof *proofs);
    fc_path_elem *elems = calloc((size_t)n * levels, sizeof *elems);
    uint8_t *hashes = malloc((size_t)n * sib * 32);
    int rc = -1;
    if (!proofs || !elems || !hashes) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (unsigned j = 0; j < n; j++) {
        merkle_proof mp;
        int mrc = t ? merkle_proof_gen(&mp, t, leaf[j]) : s->proof_fn(s->proof_ctx, leaf[j], &mp);
        if (mrc == MERKLE_OK && !t &&
            (memcmp(&mp.shape, &shape, sizeof shape) != 0 || memcmp(mp.root, s->comm_r_last, 32)))
            mrc = (merkle_proof_free(&mp), MERKLE_ERR_ROOT);
        if (mrc != MERKLE_OK) {
            snprintf(err, errlen, "challenge %u (leaf %llu): %s", j, (unsigned long long)leaf[j],
                     merkle_strerror(mrc));
            goto done;
        }
        memcpy(hashes + (size_t)j * sib * 32, mp.siblings, sib * 32);
        fc_inclusion_proof *ip = &proofs[j];
        ip->kind = sh->arity_top ? FC_PROOF_TOP : sh->arity_sub ? FC_PROOF_SUB : FC_PROOF_SINGLE;
        memcpy(ip->root, mp.root, 32);
        memcpy(ip->leaf, mp.leaf, 32);
        ip->n_base = mp.shape.base_levels;
        ip->n_sub = sh->arity_sub != 0;
        ip->n_top = sh->arity_top != 0;
        ip->elems = &elems[(size_t)j * levels];
        size_t k = 0;
        for (unsigned l = 0; l < levels; l++) {
            fc_path_elem *e = &elems[(size_t)j * levels + l];
            e->n_hashes = por_shape_arity(&shape, l) - 1;
            e->index = mp.index[l];
            e->hashes = (const uint8_t(*)[32])(hashes + ((size_t)j * sib + k) * 32);
            k += e->n_hashes;
        }
        merkle_proof_free(&mp);
    }
    fc_post_sector_proof sp = {.proofs = proofs, .n_proofs = n};
    memcpy(sp.comm_c, s->comm_c, 32);
    memcpy(sp.comm_r_last, s->comm_r_last, 32);
    fc_post_vanilla v = {.sector_id = s->sector_id, .sectors = &sp, .n_sectors = 1};
    memcpy(v.comm_r, s->comm_r, 32);
    *len = fc_post_vanilla_encode(NULL, &v);
    *out = malloc(*len);
    if (!*out) {
        snprintf(err, errlen, "out of memory");
        *len = 0;
        goto done;
    }
    fc_post_vanilla_encode(*out, &v);
    rc = 0;
done:
    free(proofs);
    free(elems);
    free(hashes);
    return rc;
}
