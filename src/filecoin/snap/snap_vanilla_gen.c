/* SnapDeals update and vanilla proof generation (see snap_vanilla_gen.h). */
#include "filecoin/snap/snap_vanilla_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/fr.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/snap/snap_challenges.h"
#include "filecoin/snap/snap_vanilla.h"
#include "gadget/poseidon.h"
#include "util/err.h"

/* Poseidon2 (MerkleTree tag) of two canonical 32-byte values: comm_r. */
static int comm_r_of(uint8_t out[32], const uint8_t comm_c[32], const uint8_t root[32]) {
    fr in[2], h;
    if (!fr_from_bytes_le(&in[0], comm_c) || !fr_from_bytes_le(&in[1], root) ||
        poseidon_hash(&h, in, 2) != 0)
        return -1;
    fr_to_bytes_le(out, &h);
    return 0;
}

static unsigned pick_h(const fc_update_proof *p, unsigned h) {
    if (h == 0)
        return p->h_default;
    return fc_update_h_select(p, h) ? h : 0;
}

int fc_snap_encode_nodes(uint8_t *out, const uint8_t *old_nodes, const uint8_t *data_nodes,
                         uint64_t first, uint64_t count, const fc_update_proof *p, unsigned h,
                         const uint8_t comm_d_new[32], const uint8_t comm_r_old[32], char *err,
                         size_t errlen) {
    fr d, r, phi;
    if (!(h = pick_h(p, h)))
        return err_set(err, errlen, "h is not one of %s's allowed values", p->name);
    if (first > p->nodes || count > p->nodes - first)
        return err_set(err, errlen, "nodes %llu + %llu: past the sector's %llu",
                       (unsigned long long)first, (unsigned long long)count,
                       (unsigned long long)p->nodes);
    if (!fr_from_bytes_le(&d, comm_d_new) || !fr_from_bytes_le(&r, comm_r_old))
        return err_set(err, errlen, "comm_d_new or comm_r_old is not a canonical field element");
    snap_phi(&phi, &d, &r);
    const unsigned shift = p->bits - h;
    uint64_t cur_hi = UINT64_MAX;
    fr rho;
    for (uint64_t i = 0; i < count; i++) {
        const uint64_t node = first + i;
        const uint8_t *o = old_nodes + 32 * i, *x = data_nodes + 32 * i;
        fr ov, dv, t;
        if (!fr_from_bytes_le(&ov, o))
            return err_set(err, errlen, "old replica node %llu is not a canonical field element",
                           (unsigned long long)node);
        if ((x[31] & 0xc0) || !fr_from_bytes_le(&dv, x))
            return err_set(err, errlen, "data node %llu is not Fr32-padded (top bits set)",
                           (unsigned long long)node);
        if (node >> shift != cur_hi) { /* rho changes only every 2^(bits-h) nodes */
            cur_hi = node >> shift;
            snap_rho(&rho, &phi, cur_hi);
        }
        fr_mul(&t, &dv, &rho);
        fr_add(&t, &t, &ov);
        fr_to_bytes_le(out + 32 * i, &t);
    }
    return 0;
}

void fc_snap_update_free(fc_snap_update *u) {
    merkle_tree_free(&u->tree_r_old);
    merkle_tree_free(&u->tree_d_new);
    merkle_tree_free(&u->tree_r_new);
    memset(u, 0, sizeof *u);
}

static int build_tree(merkle_tree *t, const fc_update_proof *p, int tree_d, const uint8_t *leaves,
                      const char *name, char *err, size_t errlen) {
    int rc = tree_d ? merkle_tree_build(t, TREE_HASH_SHA256, 2, 0, 0, leaves, p->nodes)
                    : merkle_tree_build(t, TREE_HASH_POSEIDON, p->arity_base, p->arity_sub,
                                        p->arity_top, leaves, p->nodes);
    if (rc != MERKLE_OK)
        return err_set(err, errlen, "%s: %s", name, merkle_strerror(rc));
    return 0;
}

int fc_snap_update_build(fc_snap_update *u, const fc_update_proof *p, unsigned h,
                         const uint8_t comm_c[32], const uint8_t *old_replica, const uint8_t *data,
                         uint8_t *new_replica, char *err, size_t errlen) {
    memset(u, 0, sizeof *u);
    u->proof = p;
    if (!(u->h = pick_h(p, h)))
        return err_set(err, errlen, "h %u is not one of %s's allowed values", h, p->name);
    memcpy(u->comm_c, comm_c, 32);
    uint8_t *enc = new_replica ? new_replica : malloc((size_t)p->nodes * 32);
    if (!enc)
        return err_set(err, errlen, "out of memory");
    int rc = -1;
    if (build_tree(&u->tree_r_old, p, 0, old_replica, "tree R old", err, errlen) ||
        build_tree(&u->tree_d_new, p, 1, data, "tree D new", err, errlen))
        goto done;
    memcpy(u->root_r_old, merkle_tree_root(&u->tree_r_old), 32);
    memcpy(u->comm_d_new, merkle_tree_root(&u->tree_d_new), 32);
    if (comm_r_of(u->comm_r_old, comm_c, u->root_r_old) != 0) {
        err_set(err, errlen, "comm_c is not a canonical field element");
        goto done;
    }
    if (fc_snap_encode_nodes(enc, old_replica, data, 0, p->nodes, p, u->h, u->comm_d_new,
                             u->comm_r_old, err, errlen) != 0 ||
        build_tree(&u->tree_r_new, p, 0, enc, "tree R new", err, errlen))
        goto done;
    memcpy(u->root_r_new, merkle_tree_root(&u->tree_r_new), 32);
    comm_r_of(u->comm_r_new, comm_c, u->root_r_new);
    rc = 0;
done:
    if (!new_replica)
        free(enc);
    if (rc)
        fc_snap_update_free(u);
    return rc;
}

/* The proof of leaf c in t as an fc_inclusion_proof whose elements and
 * siblings go to *elems / *hashes (advanced past them). */
static int prove_leaf(fc_inclusion_proof *ip, fc_path_elem **elems, uint8_t **hashes,
                      const fc_snap_tree_src *t, uint64_t c) {
    merkle_proof mp;
    if (t->proof(&mp, t->tree, c) != MERKLE_OK)
        return -1;
    const por_shape *s = &t->shape;
    const unsigned levels = por_shape_levels(s);
    ip->kind = s->top ? FC_PROOF_TOP : s->sub ? FC_PROOF_SUB : FC_PROOF_SINGLE;
    memcpy(ip->root, mp.root, 32);
    memcpy(ip->leaf, mp.leaf, 32);
    ip->n_base = s->base_levels;
    ip->n_sub = s->sub != 0;
    ip->n_top = s->top != 0;
    ip->elems = *elems;
    const uint8_t *sib = mp.siblings;
    for (unsigned l = 0; l < levels; l++) {
        fc_path_elem *e = (*elems)++;
        e->n_hashes = por_shape_arity(s, l) - 1;
        e->index = mp.index[l];
        e->hashes = (const uint8_t(*)[32]) * hashes;
        memcpy(*hashes, sib, 32 * (size_t)e->n_hashes);
        *hashes += 32 * (size_t)e->n_hashes;
        sib += 32 * (size_t)e->n_hashes;
    }
    merkle_proof_free(&mp);
    return 0;
}

static int dense_proof(merkle_proof *out, const void *tree, uint64_t i) {
    return merkle_proof_gen(out, tree, i);
}

static const uint8_t *dense_node(const void *tree, unsigned l, uint64_t j) {
    return merkle_tree_node(tree, l, (size_t)j);
}

static fc_snap_tree_src dense_src(const merkle_tree *t) {
    fc_snap_tree_src s = {.tree = t, .shape = t->shape, .proof = dense_proof, .node = dense_node};
    return s;
}

void fc_snap_update_trees(fc_snap_trees *out, const fc_snap_update *u) {
    memset(out, 0, sizeof *out);
    out->proof = u->proof;
    memcpy(out->comm_c, u->comm_c, 32);
    memcpy(out->comm_r_new, u->comm_r_new, 32);
    out->r_old = dense_src(&u->tree_r_old);
    out->d_new = dense_src(&u->tree_d_new);
    out->r_new = dense_src(&u->tree_r_new);
}

int fc_snap_vanilla_generate(uint8_t **out, size_t *len, const fc_snap_update *u, unsigned k,
                             char *err, size_t errlen) {
    fc_snap_trees t;
    fc_snap_update_trees(&t, u);
    return fc_snap_vanilla_write(out, len, &t, k, err, errlen);
}

int fc_snap_vanilla_write(uint8_t **out, size_t *len, const fc_snap_trees *tr, unsigned k,
                          char *err, size_t errlen) {
    *out = NULL;
    *len = 0;
    const fc_update_proof *p = tr->proof;
    if (k >= p->partitions)
        return err_set(err, errlen, "partition %u: %s has %u", k, p->name, p->partitions);
    const unsigned C = p->challenges, A = p->apex_leaves;
    const unsigned apex_row = p->bits - p->partition_bits - p->apex_bits;
    const fc_snap_tree_src *td = &tr->d_new;
    /* a binary tree of 2^bits leaves: its apex row holds P x A nodes */
    if (td->shape.hasher != TREE_HASH_SHA256 || td->shape.base != 2 || td->shape.sub ||
        por_shape_levels(&td->shape) != p->bits)
        return err_set(err, errlen, "tree D is not a binary SHA-256 tree of 2^%u leaves", p->bits);
    const size_t lv_r = por_shape_levels(&tr->r_old.shape),
                 sib_r = por_shape_siblings(&tr->r_old.shape);
    const size_t lv_d = p->bits, sib_d = por_shape_siblings(&td->shape);
    if (por_shape_levels(&tr->r_new.shape) != lv_r || por_shape_siblings(&tr->r_new.shape) != sib_r)
        return err_set(err, errlen, "tree R old and new differ in shape");
    uint64_t *ch = malloc(C * sizeof *ch);
    fc_snap_challenge_proof *cps = calloc(C, sizeof *cps);
    fc_path_elem *elems = calloc((size_t)C * (2 * lv_r + lv_d), sizeof *elems);
    uint8_t *hashes = malloc((size_t)C * (2 * sib_r + sib_d) * 32);
    uint8_t(*apex)[32] = malloc((size_t)A * 32);
    fr comm_r_new;
    int rc = -1;
    if (!ch || !cps || !elems || !hashes || !apex) {
        err_set(err, errlen, "out of memory");
        goto done;
    }
    if (!fr_from_bytes_le(&comm_r_new, tr->comm_r_new)) {
        err_set(err, errlen, "comm_r_new is not a canonical field element");
        goto done;
    }
    snap_challenges(ch, p, &comm_r_new, k);
    fc_path_elem *e = elems;
    uint8_t *hs = hashes;
    for (unsigned t = 0; t < C; t++)
        if (prove_leaf(&cps[t].r_old, &e, &hs, &tr->r_old, ch[t]) ||
            prove_leaf(&cps[t].d_new, &e, &hs, td, ch[t]) ||
            prove_leaf(&cps[t].r_new, &e, &hs, &tr->r_new, ch[t])) {
            err_set(err, errlen, "challenge %u (node %llu): no proof", t,
                    (unsigned long long)ch[t]);
            goto done;
        }
    for (unsigned a = 0; a < A; a++)
        memcpy(apex[a], td->node(td->tree, apex_row, (uint64_t)k * A + a), 32);
    fc_snap_vanilla v = {.apex_leaves = (const uint8_t(*)[32])apex,
                         .n_apex = A,
                         .challenges = cps,
                         .n_challenges = C};
    memcpy(v.comm_c, tr->comm_c, 32);
    *len = fc_snap_vanilla_encode(NULL, &v);
    if (!(*out = malloc(*len))) {
        *len = 0;
        err_set(err, errlen, "out of memory");
        goto done;
    }
    fc_snap_vanilla_encode(*out, &v);
    rc = 0;
done:
    free(ch);
    free(cps);
    free(elems);
    free(hashes);
    free(apex);
    return rc;
}
