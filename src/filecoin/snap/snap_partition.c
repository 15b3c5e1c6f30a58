/* SnapDeals partitions: decoding, native checks, circuit values (see
 * snap_partition.h). */
#include "filecoin/snap/snap_partition.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/merkle/inclusion_proof.h"
#include "filecoin/merkle/merkle_proof.h"
#include "filecoin/merkle/merkle_tree.h"
#include "filecoin/snap/snap_challenges.h"
#include "gadget/poseidon.h"
#include "util/err.h"

/* err_set's message with a SNAP_E_* code as the return value. */
#define FAIL(code, ...) (err_set(err, errlen, __VA_ARGS__), (code))

int snap_request_proof(const fc_update_proof **out, uint64_t registered_proof, uint64_t sector_size,
                       char *err, size_t errlen) {
    const fc_update_proof *p = fc_update_proof_by_id(registered_proof);
    *out = NULL;
    if (!p)
        return FAIL(SNAP_E_PROOF_TYPE,
                    "registered_proof: %llu is not a RegisteredUpdateProof (0..4)",
                    (unsigned long long)registered_proof);
    if (sector_size != 0 && sector_size != p->sector_size)
        return FAIL(SNAP_E_PROOF_TYPE, "sector_size: %llu, but %s sectors hold %llu bytes",
                    (unsigned long long)sector_size, p->name, (unsigned long long)p->sector_size);
    *out = p;
    return SNAP_OK;
}

static void part_free(snap_partition_values *v) {
    fc_snap_vanilla_free(&v->decoded);
    free(v->challenges); /* the block every array lives in */
    memset(v, 0, sizeof *v);
}

void snap_partition_free(snap_partition *pp) {
    for (size_t i = 0; i < pp->n_parts; i++)
        part_free(&pp->parts[i]);
    free(pp->parts);
    memset(pp, 0, sizeof *pp);
}

static void to_fr(fr *out, const uint8_t b[32]) {
    fr_from_bytes_le(out, b); /* the decoder refused every non-canonical value */
}

/* comm_r = Poseidon2(comm_c, root). */
static int comm_r_matches(const fr *comm_c, const uint8_t root[32], const fr *want) {
    fr in[2] = {*comm_c}, h;
    to_fr(&in[1], root);
    return poseidon_hash(&h, in, 2) == 0 && fr_equal(&h, want);
}

/* a, b in order of the running node's position (index 0: node first). */
static void sha_up(uint8_t cur[32], const uint8_t sib[32], uint32_t index) {
    uint8_t children[64];
    memcpy(children + (index ? 32 : 0), cur, 32);
    memcpy(children + (index ? 0 : 32), sib, 32);
    merkle_hash_node(cur, TREE_HASH_SHA256, children, 2);
}

static int path_ok(const fc_inclusion_proof *ip, tree_hasher h) {
    merkle_proof m;
    int ok = fc_inclusion_to_merkle(&m, ip, h) == 0 && merkle_proof_verify(&m) == MERKLE_OK;
    merkle_proof_free(&m);
    return ok;
}

/* Every sibling of a path, element by element from the leaf. */
static void flatten(fr *out, const fc_inclusion_proof *ip, size_t levels) {
    for (size_t l = 0; l < levels; l++)
        for (uint32_t j = 0; j < ip->elems[l].n_hashes; j++)
            to_fr(out++, ip->elems[l].hashes[j]);
}

typedef struct {
    const snap_partition *pp;
    snap_partition_values *v;
    fr phi;
    uint8_t comm_d_new[32];
    char *err;
    size_t errlen;
} part_ctx;

static const char *const tree_name[3] = {"proof_r_old", "proof_d_new", "proof_r_new"};

/* The per-challenge checks of challenge t (see snap_partition.h). */
static int check_challenge(part_ctx *x, unsigned t) {
    const snap_partition *pp = x->pp;
    const fc_update_proof *p = pp->proof;
    snap_partition_values *v = x->v;
    char *err = x->err;
    size_t errlen = x->errlen;
    const fc_snap_challenge_proof *cp = &v->decoded.challenges[t];
    const fc_inclusion_proof *pr[3] = {&cp->r_old, &cp->d_new, &cp->r_new};
    const uint8_t *root0[3] = {v->decoded.challenges[0].r_old.root, x->comm_d_new,
                               v->decoded.challenges[0].r_new.root};
    const char *root_name[3] = {"root_r_old (challenge_proofs[0].proof_r_old.root)", "comm_d_new",
                                "root_r_new (challenge_proofs[0].proof_r_new.root)"};
    const uint64_t c = v->challenges[t];
    for (int i = 0; i < 3; i++) {
        uint64_t opened = fc_inclusion_leaf_index(pr[i]);
        if (opened != c)
            return FAIL(SNAP_E_CHALLENGE,
                        "challenge_proofs[%u].%s opens node %llu, but challenge %u of partition %u "
                        "is node %llu",
                        t, tree_name[i], (unsigned long long)opened, t, v->k,
                        (unsigned long long)c);
    }
    for (int i = 0; i < 3; i++)
        if (memcmp(pr[i]->root, root0[i], 32) != 0)
            return FAIL(SNAP_E_ROOT_MISMATCH, "challenge_proofs[%u].%s: root is not %s", t,
                        tree_name[i], root_name[i]);
    /* the tree D path shares the partition path with every other challenge */
    const size_t top = pp->l_ap + p->apex_bits;
    for (size_t l = top; l < p->bits; l++)
        if (memcmp(cp->d_new.elems[l].hashes[0], v->decoded.challenges[0].d_new.elems[l].hashes[0],
                   32) != 0)
            return FAIL(SNAP_E_PARTITION_PATH,
                        "challenge_proofs[%u].proof_d_new: partition path sibling %zu differs from "
                        "challenge_proofs[0]'s",
                        t, l - top);
    for (int i = 0; i < 3; i++)
        if (!path_ok(pr[i], i == 1 ? TREE_HASH_SHA256 : TREE_HASH_POSEIDON))
            return FAIL(SNAP_E_ROOT, "challenge_proofs[%u].%s: path does not hash to its root", t,
                        tree_name[i]);
    /* the encoding of the new replica */
    fr old, data, nw, rho, want;
    to_fr(&old, cp->r_old.leaf);
    to_fr(&data, cp->d_new.leaf);
    to_fr(&nw, cp->r_new.leaf);
    snap_rho(&rho, &x->phi, snap_high(c, p->bits, pp->h));
    fr_mul(&want, &data, &rho);
    fr_add(&want, &want, &old);
    if (!fr_equal(&want, &nw))
        return FAIL(SNAP_E_ENCODING,
                    "challenge_proofs[%u] (node %llu): proof_r_new.leaf is not proof_r_old.leaf + "
                    "proof_d_new.leaf * rho (h = %u)",
                    t, (unsigned long long)c, pp->h);
    /* and meets the apex leaf its challenge selects */
    uint8_t cur[32];
    memcpy(cur, cp->d_new.leaf, 32);
    for (size_t l = 0; l < pp->l_ap; l++)
        sha_up(cur, cp->d_new.elems[l].hashes[0], cp->d_new.elems[l].index);
    size_t a = (size_t)(c >> pp->l_ap) & (p->apex_leaves - 1);
    if (memcmp(cur, v->decoded.apex_leaves[a], 32) != 0)
        return FAIL(
            SNAP_E_APEX,
            "challenge_proofs[%u].proof_d_new: the node at height %zu is not apex_leafs[%zu]", t,
            pp->l_ap, a);
    return SNAP_OK;
}

/* The apex tree's root climbs challenge 0's partition path to comm_d_new. */
static int check_apex_root(part_ctx *x) {
    const snap_partition *pp = x->pp;
    const fc_update_proof *p = pp->proof;
    const snap_partition_values *v = x->v;
    char *err = x->err;
    size_t errlen = x->errlen;
    size_t n = p->apex_leaves;
    uint8_t *row = malloc(n * 32);
    if (!row)
        return FAIL(SNAP_E_NOMEM, "out of memory");
    memcpy(row, v->decoded.apex_leaves, n * 32);
    for (; n > 1; n /= 2)
        for (size_t i = 0; i < n / 2; i++) {
            uint8_t h[32]; /* node i of the next row, over nodes 2i, 2i+1 of this one */
            merkle_hash_node(h, TREE_HASH_SHA256, row + 64 * i, 2);
            memcpy(row + 32 * i, h, 32);
        }
    uint8_t cur[32];
    memcpy(cur, row, 32);
    free(row);
    const fc_inclusion_proof *d0 = &v->decoded.challenges[0].d_new;
    for (unsigned j = 0; j < p->partition_bits; j++)
        sha_up(cur, d0->elems[pp->l_ap + p->apex_bits + j].hashes[0], (v->k >> j) & 1);
    if (memcmp(cur, x->comm_d_new, 32) != 0)
        return FAIL(SNAP_E_APEX,
                    "apex_leafs: their tree's root does not climb the partition path of "
                    "challenge_proofs[0].proof_d_new to comm_d_new");
    return SNAP_OK;
}

/* The circuit's flat values of a checked partition. */
static int fill_values(const snap_partition *pp, snap_partition_values *v) {
    const fc_update_proof *p = pp->proof;
    const size_t C = p->challenges, A = p->apex_leaves, pbl = p->partition_bits;
    const size_t sr = pp->r_siblings, lap = pp->l_ap;
    const fc_snap_vanilla *d = &v->decoded;
    const size_t levels_r = fc_inclusion_levels(&d->challenges[0].r_old);
    to_fr(&v->comm_c, d->comm_c);
    to_fr(&v->root_r_old, d->challenges[0].r_old.root);
    to_fr(&v->root_r_new, d->challenges[0].r_new.root);
    for (size_t i = 0; i < A; i++)
        to_fr(&v->apex_leaves[i], d->apex_leaves[i]);
    for (size_t j = 0; j < pbl; j++)
        to_fr(&v->partition_path[j],
              d->challenges[0].d_new.elems[lap + p->apex_bits + j].hashes[0]);
    for (size_t t = 0; t < C; t++) {
        const fc_snap_challenge_proof *cp = &d->challenges[t];
        to_fr(&v->leaf_r_old[t], cp->r_old.leaf);
        to_fr(&v->leaf_d_new[t], cp->d_new.leaf);
        flatten(&v->path_r_old[t * sr], &cp->r_old, levels_r);
        flatten(&v->path_r_new[t * sr], &cp->r_new, levels_r);
        flatten(&v->path_d[t * lap], &cp->d_new, lap);
    }
    return snap_public_inputs(v->inputs, p, v->k, pp->h, &pp->comm_r_old, &pp->comm_d_new,
                              &pp->comm_r_new) == 0
               ? SNAP_OK
               : SNAP_E_PROOF_TYPE;
}

/* One block for the challenges and every fr array of a partition. */
static int alloc_values(const snap_partition *pp, snap_partition_values *v) {
    const fc_update_proof *p = pp->proof;
    const size_t C = p->challenges, sr = pp->r_siblings;
    const size_t n_fr = p->apex_leaves + p->partition_bits + 2 * C + 2 * C * sr + C * pp->l_ap;
    uint8_t *blk = malloc(C * sizeof(uint64_t) + n_fr * sizeof(fr));
    if (!blk)
        return -1;
    v->challenges = (uint64_t *)blk;
    fr *f = (fr *)(blk + C * sizeof(uint64_t));
    v->apex_leaves = f;
    v->partition_path = v->apex_leaves + p->apex_leaves;
    v->leaf_r_old = v->partition_path + p->partition_bits;
    v->leaf_d_new = v->leaf_r_old + C;
    v->path_r_old = v->leaf_d_new + C;
    v->path_r_new = v->path_r_old + C * sr;
    v->path_d = v->path_r_new + C * sr;
    return 0;
}

static int prepare_part(snap_partition *pp, size_t k, const uint8_t *buf, size_t len,
                        const uint8_t comm_d_new[32], char *err, size_t errlen) {
    const fc_update_proof *p = pp->proof;
    snap_partition_values *v = &pp->parts[k];
    v->k = (unsigned)k;
    int rc = fc_snap_vanilla_decode(&v->decoded, buf, len, p, err, errlen);
    if (rc != SNAP_OK)
        return rc;
    if (alloc_values(pp, v) != 0)
        return FAIL(SNAP_E_NOMEM, "out of memory");
    const fc_snap_vanilla *d = &v->decoded;
    fr comm_c;
    to_fr(&comm_c, d->comm_c);
    if (!comm_r_matches(&comm_c, d->challenges[0].r_old.root, &pp->comm_r_old))
        return FAIL(SNAP_E_COMM_R, "Poseidon2(comm_c, challenge_proofs[0].proof_r_old.root) is not "
                                   "comm_r_old");
    if (!comm_r_matches(&comm_c, d->challenges[0].r_new.root, &pp->comm_r_new))
        return FAIL(SNAP_E_COMM_R, "Poseidon2(comm_c, challenge_proofs[0].proof_r_new.root) is not "
                                   "comm_r_new");
    snap_challenges(v->challenges, p, &pp->comm_r_new, v->k);
    part_ctx x = {.pp = pp, .v = v, .err = err, .errlen = errlen};
    memcpy(x.comm_d_new, comm_d_new, 32);
    snap_phi(&x.phi, &pp->comm_d_new, &pp->comm_r_old);
    for (unsigned t = 0; t < p->challenges; t++)
        if ((rc = check_challenge(&x, t)) != SNAP_OK)
            return rc;
    if ((rc = check_apex_root(&x)) != SNAP_OK)
        return rc;
    return fill_values(pp, v);
}

int snap_partition_prepare_h(snap_partition *out, const fc_update_proof *p, unsigned h,
                             const uint8_t *const *vanilla, const size_t *len, size_t n,
                             const uint8_t comm_r_old[32], const uint8_t comm_r_new[32],
                             const uint8_t comm_d_new[32], char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    out->proof = p;
    out->h = h ? h : p->h_default;
    if (!fc_update_h_select(p, out->h))
        return FAIL(SNAP_E_PROOF_TYPE, "h = %u is not one of %s's allowed values", out->h, p->name);
    const char *names[3] = {"comm_r_old", "comm_r_new", "comm_d_new"};
    const uint8_t *bytes[3] = {comm_r_old, comm_r_new, comm_d_new};
    fr *vals[3] = {&out->comm_r_old, &out->comm_r_new, &out->comm_d_new};
    for (int i = 0; i < 3; i++)
        if (!bytes[i] || !fr_from_bytes_le(vals[i], bytes[i]))
            return FAIL(SNAP_E_COMM, "%s: %s", names[i],
                        bytes[i] ? "not a canonical field element" : "missing");
    if (n != p->partitions)
        return FAIL(SNAP_E_COUNT, "vanilla_proofs: %zu partition proofs, %s has %u partitions", n,
                    p->name, p->partitions);
    por_shape rs;
    if (merkle_shape_for_leaves(&rs, TREE_HASH_POSEIDON, p->arity_base, p->arity_sub, p->arity_top,
                                p->nodes) != MERKLE_OK)
        return FAIL(SNAP_E_PROOF_TYPE, "%s: no tree R shape", p->name);
    out->r_siblings = por_shape_siblings(&rs);
    out->l_ap = p->bits - p->partition_bits - p->apex_bits;
    out->parts = calloc(n, sizeof *out->parts);
    if (!out->parts)
        return FAIL(SNAP_E_NOMEM, "out of memory");
    out->n_parts = n;
    char msg[400];
    for (size_t k = 0; k < n; k++) {
        int rc = prepare_part(out, k, vanilla[k], len[k], comm_d_new, msg, sizeof msg);
        if (rc != SNAP_OK) {
            if (rc == SNAP_E_NOMEM)
                err_set(err, errlen, "out of memory");
            else
                err_set(err, errlen, "vanilla_proofs[%zu] (partition %zu): %s", k, k, msg);
            snap_partition_free(out);
            return rc;
        }
    }
    return SNAP_OK;
}

int snap_partition_prepare(snap_partition *out, const fc_update_proof *p,
                           const uint8_t *const *vanilla, const size_t *len, size_t n,
                           const uint8_t comm_r_old[32], const uint8_t comm_r_new[32],
                           const uint8_t comm_d_new[32], char *err, size_t errlen) {
    return snap_partition_prepare_h(out, p, 0, vanilla, len, n, comm_r_old, comm_r_new, comm_d_new,
                                    err, errlen);
}

void snap_partition_witness(snap_witness *w, const snap_partition *pp, size_t k) {
    const snap_partition_values *v = &pp->parts[k];
    *w = (snap_witness){.k = v->k,
                        .h = pp->h,
                        .comm_r_old = pp->comm_r_old,
                        .comm_d_new = pp->comm_d_new,
                        .comm_r_new = pp->comm_r_new,
                        .comm_c = v->comm_c,
                        .root_r_old = v->root_r_old,
                        .root_r_new = v->root_r_new,
                        .apex_leaves = v->apex_leaves,
                        .partition_path = v->partition_path,
                        .leaf_r_old = v->leaf_r_old,
                        .leaf_d_new = v->leaf_d_new,
                        .path_r_old = v->path_r_old,
                        .path_r_new = v->path_r_new,
                        .path_d = v->path_d};
}

int snap_partition_job_init(snap_partition_job *job, const snap_partition *pp, size_t k) {
    memset(job, 0, sizeof *job);
    if (!pp || k >= pp->n_parts)
        return -1;
    int bad = pp->proof->id >= 0 ? snap_shape_for_id(&job->shape, (uint64_t)pp->proof->id)
                                 : snap_shape_for_nodes(&job->shape, pp->proof->nodes);
    if (bad)
        return -1;
    snap_partition_witness(&job->w, pp, k);
    job->inputs = pp->parts[k].inputs;
    return 0;
}

int snap_partition_synthesize(r1cs_cs *cs, void *job) {
    const snap_partition_job *j = job;
    return snap_circuit_synthesize(cs, &j->shape, &j->w);
}
