/* An invented SnapDeals update: see seal_synth_snap.h. */
#include "sealer/seal_synth_snap.h"

#include <stdio.h>
#include <string.h>

#include "field/fr.h"
#include "filecoin/hash/sha256_native.h"
#include "filecoin/snap/snap_challenges.h"
#include "gadget/poseidon.h"
#include "util/err.h"

/* Deterministic random bytes: SHA-256 of a domain tag, the seed, a purpose
 * and a counter, top two bits cleared (a canonical Fr and Fr32 data alike). */
enum { R_COMM_C = 1, R_OLD_NODE, R_OLD_VALUE, R_DATA_NODE, R_DATA_VALUE };

static void rnd(uint8_t out[32], uint64_t seed, uint32_t what, uint64_t i) {
    uint8_t msg[16 + 8 + 4 + 8];
    memcpy(msg, "cuzk synth-snap ", 16);
    for (int b = 0; b < 8; b++) {
        msg[16 + b] = (uint8_t)(seed >> (8 * b));
        msg[28 + b] = (uint8_t)(i >> (8 * b));
    }
    for (int b = 0; b < 4; b++)
        msg[24 + b] = (uint8_t)(what >> (8 * b));
    sha256_native(out, msg, sizeof msg);
    sha256_trim_fr32(out);
}

static uint64_t rnd_node(uint64_t seed, uint32_t what, uint64_t i, uint64_t nodes) {
    uint8_t b[32];
    rnd(b, seed, what, i);
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v |= (uint64_t)b[k] << (8 * k);
    return v & (nodes - 1); /* nodes is a power of two */
}

static int tree_err(const char *name, int rc, char *err, size_t cap) {
    return err_set(err, cap, "tree %s: %s", name, merkle_strerror(rc));
}

/* comm_r = Poseidon2(comm_c, root) (MerkleTree tag). */
static void comm_r_of(uint8_t out[32], const fr *comm_c, const uint8_t root[32]) {
    fr in[2], h;
    in[0] = *comm_c;
    fr_from_bytes_le(&in[1], root); /* a Poseidon root is canonical */
    poseidon_hash(&h, in, 2);
    fr_to_bytes_le(out, &h);
}

/* `nodes` random nodes (positions `where`, values `what`) into t, built. */
static int fill(sparse_tree *t, const fc_synth_snap_params *p, uint32_t where, uint32_t what,
                const char *name, char *err, size_t cap) {
    for (unsigned i = 0; i < p->nodes; i++) {
        uint8_t v[32];
        rnd(v, p->seed, what, i);
        int rc = sparse_tree_set(t, rnd_node(p->seed, where, i, p->proof->nodes), v);
        if (rc != MERKLE_OK)
            return tree_err(name, rc, err, cap);
    }
    int rc = sparse_tree_build(t);
    return rc == MERKLE_OK ? 0 : tree_err(name, rc, err, cap);
}

/* new[i] = old[i] + data[i] * rho(i >> (bits - h)) at every node set in the
 * old replica or the data (both sorted rows), into tree R new. */
static int encode(fc_synth_snap *s, char *err, size_t cap) {
    const fc_update_proof *p = s->proof;
    const sparse_node *o = s->r_old.row[0], *d = s->d_new.row[0];
    const size_t no = s->r_old.count[0], nd = s->d_new.count[0];
    const unsigned shift = p->bits - s->h;
    fr phi, cd, cr, rho;
    fr_from_bytes_le(&cd, s->comm_d_new);
    fr_from_bytes_le(&cr, s->comm_r_old);
    snap_phi(&phi, &cd, &cr);
    uint64_t cur_hi = UINT64_MAX;
    for (size_t a = 0, b = 0; a < no || b < nd;) {
        uint64_t i = b == nd || (a < no && o[a].index < d[b].index) ? o[a].index : d[b].index;
        fr ov, dv, t;
        fr_from_bytes_le(&ov, a < no && o[a].index == i ? o[a++].node : s->r_old.zero[0]);
        fr_from_bytes_le(&dv, b < nd && d[b].index == i ? d[b++].node : s->d_new.zero[0]);
        if (i >> shift != cur_hi) {
            cur_hi = i >> shift;
            snap_rho(&rho, &phi, cur_hi);
        }
        uint8_t v[32];
        fr_mul(&t, &dv, &rho);
        fr_add(&t, &t, &ov);
        fr_to_bytes_le(v, &t);
        int rc = sparse_tree_set(&s->r_new, i, v);
        if (rc != MERKLE_OK)
            return tree_err("R new", rc, err, cap);
    }
    int rc = sparse_tree_build(&s->r_new);
    return rc == MERKLE_OK ? 0 : tree_err("R new", rc, err, cap);
}

static int init_r(sparse_tree *t, const fc_update_proof *p, const char *name, char *err,
                  size_t cap) {
    int rc = sparse_tree_init(t, TREE_HASH_POSEIDON, p->arity_base, p->arity_sub, p->arity_top,
                              p->nodes);
    return rc == MERKLE_OK ? 0 : tree_err(name, rc, err, cap);
}

static int make(fc_synth_snap *s, const fc_synth_snap_params *p, char *err, size_t cap) {
    const fc_update_proof *u = p->proof;
    if (p->nodes > FC_SYNTH_SNAP_MAX_NODES)
        return err_set(err, cap, "%u set nodes: at most %u", p->nodes, FC_SYNTH_SNAP_MAX_NODES);
    s->h = p->h ? p->h : u->h_default;
    if (!fc_update_h_select(u, s->h))
        return err_set(err, cap, "h %u is not one of %s's allowed values", p->h, u->name);
    fr comm_c;
    rnd(s->comm_c, p->seed, R_COMM_C, 0);
    fr_from_bytes_le(&comm_c, s->comm_c);
    int rc;
    if (init_r(&s->r_old, u, "R old", err, cap) || init_r(&s->r_new, u, "R new", err, cap))
        return -1;
    if ((rc = sparse_tree_init(&s->d_new, TREE_HASH_SHA256, 2, 0, 0, u->nodes)) != MERKLE_OK)
        return tree_err("D new", rc, err, cap);
    if (fill(&s->r_old, p, R_OLD_NODE, R_OLD_VALUE, "R old", err, cap) ||
        fill(&s->d_new, p, R_DATA_NODE, R_DATA_VALUE, "D new", err, cap))
        return -1;
    memcpy(s->root_r_old, sparse_tree_root(&s->r_old), 32);
    memcpy(s->comm_d_new, sparse_tree_root(&s->d_new), 32);
    comm_r_of(s->comm_r_old, &comm_c, s->root_r_old);
    if (encode(s, err, cap) != 0)
        return -1;
    memcpy(s->root_r_new, sparse_tree_root(&s->r_new), 32);
    comm_r_of(s->comm_r_new, &comm_c, s->root_r_new);
    return 0;
}

int fc_synth_snap_make(fc_synth_snap *s, const fc_synth_snap_params *p, char *err, size_t cap) {
    memset(s, 0, sizeof *s);
    s->proof = p->proof;
    if (!p->proof)
        return err_set(err, cap, "no registered update proof");
    if (make(s, p, err, cap) != 0) {
        fc_synth_snap_free(s);
        return -1;
    }
    return 0;
}

static int sparse_proof(merkle_proof *out, const void *tree, uint64_t i) {
    return sparse_tree_proof(out, tree, i);
}

static const uint8_t *sparse_node_at(const void *tree, unsigned l, uint64_t j) {
    return sparse_tree_node(tree, l, j);
}

static fc_snap_tree_src sparse_src(const sparse_tree *t) {
    fc_snap_tree_src s = {
        .tree = t, .shape = t->shape, .proof = sparse_proof, .node = sparse_node_at};
    return s;
}

void fc_synth_snap_trees(fc_snap_trees *out, const fc_synth_snap *s) {
    memset(out, 0, sizeof *out);
    out->proof = s->proof;
    memcpy(out->comm_c, s->comm_c, 32);
    memcpy(out->comm_r_new, s->comm_r_new, 32);
    out->r_old = sparse_src(&s->r_old);
    out->d_new = sparse_src(&s->d_new);
    out->r_new = sparse_src(&s->r_new);
}

int fc_synth_snap_write(fc_seal_snap_result *r, const fc_synth_snap *s, const char *dir, char *err,
                        size_t cap) {
    memset(r, 0, sizeof *r);
    r->proof = s->proof;
    r->h = s->h;
    memcpy(r->comm_c, s->comm_c, 32);
    memcpy(r->comm_r_last_old, s->root_r_old, 32);
    memcpy(r->comm_r_last_new, s->root_r_new, 32);
    memcpy(r->comm_r_old, s->comm_r_old, 32);
    memcpy(r->comm_d_new, s->comm_d_new, 32);
    memcpy(r->comm_r_new, s->comm_r_new, 32);
    fc_snap_trees t;
    fc_synth_snap_trees(&t, s);
    return fc_seal_snap_write_proofs(r, dir, &t, err, cap);
}

void fc_synth_snap_free(fc_synth_snap *s) {
    sparse_tree_free(&s->r_old);
    sparse_tree_free(&s->d_new);
    sparse_tree_free(&s->r_new);
    memset(s, 0, sizeof *s);
}
