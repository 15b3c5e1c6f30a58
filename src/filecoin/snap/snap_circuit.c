/* The SnapDeals partition circuit: see snap_circuit.h.  Each step names the
 * upstream gadget it mirrors (circuit.rs, gadgets.rs). */
#include "filecoin/snap/snap_circuit.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/snap/snap_challenges.h"
#include "gadget/insertion.h"
#include "gadget/multipack.h"
#include "gadget/num.h"
#include "gadget/poseidon_circuit.h"
#include "gadget/tree_hash.h"

static int shape_from(snap_shape *out) {
    const fc_update_proof *p = &out->p;
    unsigned sub_bits = p->arity_sub == 8 ? 3 : p->arity_sub == 4 ? 2 : p->arity_sub == 2 ? 1 : 0;
    unsigned top_bits = p->arity_top == 2 ? 1 : 0;
    out->tree_r = (por_shape){TREE_HASH_POSEIDON, p->arity_base, p->arity_sub, p->arity_top,
                              (p->bits - sub_bits - top_bits) / 3};
    out->l_ap = p->bits - p->partition_bits - p->apex_bits;
    out->tree_d_low = (por_shape){TREE_HASH_SHA256, 2, 0, 0, out->l_ap};
    if (por_shape_check(&out->tree_r) || por_shape_index_bits(&out->tree_r) != p->bits ||
        por_shape_check(&out->tree_d_low))
        return -1;
    out->r_siblings = por_shape_siblings(&out->tree_r);
    return 0;
}

int snap_shape_for_id(snap_shape *out, uint64_t id) {
    const fc_update_proof *p = fc_update_proof_by_id(id);
    if (!p)
        return -1;
    memset(out, 0, sizeof *out);
    out->p = *p;
    return shape_from(out);
}

int snap_shape_for_nodes(snap_shape *out, uint64_t nodes) {
    memset(out, 0, sizeof *out);
    if (fc_update_proof_for_nodes(&out->p, nodes))
        return -1;
    return shape_from(out);
}

int snap_shape_poseidon_for_nodes(snap_shape *out, uint64_t nodes) {
    memset(out, 0, sizeof *out);
    fc_update_proof *p = &out->p;
    if (fc_update_proof_for_nodes(p, nodes))
        return -1;
    /* one partition of all C x P challenges, no apex tree
     * (challenge_count_poseidon, PublicParams::from_sector_size_poseidon) */
    p->id = -1;
    p->name = "poseidon";
    p->challenges *= p->partitions;
    p->partitions = 1;
    p->partition_bits = 0;
    p->apex_leaves = 0;
    p->apex_bits = 0;
    p->rand_bits = p->bits;
    p->challenges_per_digest = 254 / p->bits;
    p->digests = (p->challenges + p->challenges_per_digest - 1) / p->challenges_per_digest;
    out->poseidon = 1;
    if (shape_from(out))
        return -1;
    out->tree_d_low = out->tree_r; /* tree D has tree R's shape */
    out->l_ap = 0;
    return 0;
}

void snap_witness_sizes_get(const snap_shape *s, snap_witness_sizes *out) {
    out->apex_leaves = s->p.apex_leaves;
    out->partition_path = s->p.partition_bits;
    out->leaves = s->p.challenges;
    out->path_r = (size_t)s->p.challenges * s->r_siblings;
    out->path_d = (size_t)s->p.challenges * (s->poseidon ? s->r_siblings : s->l_ap);
}

uint64_t snap_circuit_constraints(const snap_shape *s) {
    const fc_update_proof *p = &s->p;
    const uint64_t p2 = poseidon_circuit_constraints(2);
    const uint64_t sha2 = 45379, shal = sha2 + insertion_constraints(1); /* hash2, tree D level */
    uint64_t por_r = 1;
    for (unsigned l = 0; l < por_shape_levels(&s->tree_r); l++) {
        unsigned a = por_shape_arity(&s->tree_r, l), b = a == 8 ? 3 : a == 4 ? 2 : 1;
        por_r += insertion_constraints(b) + poseidon_circuit_constraints(a);
    }
    if (s->poseidon) /* no partition packing, no apex tree; three tree-R-shaped paths */
        return 1 + (FC_UPDATE_HS + 1) + 3 + p2 + 2 * (p2 + 1) + p->digests * (1 + p2 + 256) +
               (uint64_t)p->challenges * (2 * FC_UPDATE_HS + 1 + p2 + 2 + 3 * por_r);
    uint64_t top = 1 + (p->partition_bits + FC_UPDATE_HS + 1) + 1 + 3 + p2 + 2 * (p2 + 1) +
                   (p->apex_leaves - 1) * sha2 + p->partition_bits * shal + 1 +
                   p->digests * (1 + p2 + 256);
    uint64_t per =
        2 * FC_UPDATE_HS + 1 + p2 + 2 + 2 * por_r + (p->apex_leaves - 1) + s->l_ap * shal + 1;
    return top + p->challenges * per;
}

/* ---- small pieces --------------------------------------------------------- */

static gnum alloc_opt(r1cs_cs *cs, const fr *v, const char *name) {
    r1cs_push(cs, "%s", name);
    gnum r = gnum_alloc(cs, v);
    r1cs_pop(cs);
    return r;
}

/* (a) * (ONE) = (b) */
static void enforce_eq(r1cs_cs *cs, const char *name, r1cs_var a, r1cs_var b) {
    r1cs_lc la = R1CS_LC_INIT, one = R1CS_LC_INIT, lb = R1CS_LC_INIT;
    r1cs_lc_add_var(&la, a);
    r1cs_lc_add_var(&one, R1CS_ONE);
    r1cs_lc_add_var(&lb, b);
    r1cs_enforce(cs, name, &la, &one, &lb);
}

/* P2c(a, b), in the caller's namespace. */
static int gen_hash(r1cs_cs *cs, const gnum *a, const gnum *b, gnum *out) {
    fr tag;
    snap_gen_tag(&tag);
    gnum pre[2] = {*a, *b};
    return poseidon_circuit_hash_tagged(cs, pre, 2, &tag, out);
}

/* apex_por: the apex tree, then the partition path up to comm_d. */
static int apex_por(r1cs_cs *cs, const snap_shape *s, const gnum *leaves, const gbool *part_bits,
                    const gnum *part_path, const gnum *comm_d) {
    const unsigned A = s->p.apex_leaves, pbl = s->p.partition_bits;
    gnum *row = malloc(A * sizeof *row);
    if (!row)
        return -1;
    memcpy(row, leaves, A * sizeof *row);
    for (unsigned r = 0, n = A; n > 1; r++, n /= 2) {
        for (unsigned i = 0; i < n / 2; i++) {
            gnum pair[2] = {row[2 * i], row[2 * i + 1]};
            r1cs_push(cs, "apex_tree generation hash (tree_row=%u, siblings=%u)", r, i);
            int rc = tree_hash_circuit(cs, TREE_HASH_SHA256, pair, 2, &row[i]);
            r1cs_pop(cs);
            if (rc) {
                free(row);
                return -1;
            }
        }
    }
    gnum root = row[0];
    free(row);
    r1cs_push(cs, "partition-tree por");
    int rc = 0;
    if (pbl == 0) { /* no path: only the root row */
        enforce_eq(cs, "calculated root == provided root", root.var, comm_d->var);
    } else {
        por_shape part = {TREE_HASH_SHA256, 2, 0, 0, pbl};
        rc = por_no_challenge_input(cs, &part, part_bits, pbl, &root, part_path, comm_d);
    }
    r1cs_pop(cs);
    return rc;
}

/* get_challenge_high_bits: sum_s pack(c_bits[bits - hs[s] ..]) * h_select[s]. */
static gnum challenge_high(r1cs_cs *cs, const snap_shape *s, const gbool *c_bits,
                           const gbool *hsel) {
    const unsigned bits = s->p.bits;
    gnum terms[FC_UPDATE_HS];
    int known = 1;
    fr sum;
    fr_set_zero(&sum);
    for (unsigned i = 0; i < FC_UPDATE_HS; i++) {
        const unsigned h = s->p.hs[i];
        r1cs_push(cs, "c_high (h=%u, k=%u)", h, i);
        gnum high = multipack_pack_bits(cs, c_bits + bits - h, h);
        r1cs_pop(cs);
        int sv = gbool_value(hsel[i]);
        fr v;
        int kv = sv >= 0 && (sv == 0 || high.has_val);
        if (sv == 1)
            v = high.val;
        else
            fr_set_zero(&v);
        terms[i] = alloc_opt(cs, kv ? &v : NULL, "c_high_or_zero");
        if (kv)
            fr_add(&sum, &sum, &v);
        else
            known = 0;
        R1CS_LC_ONLY(cs) {
            r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, c = R1CS_LC_INIT;
            r1cs_lc_add_var(&a, high.var);
            r1cs_lc_add_var(&b, hsel[i].var);
            r1cs_lc_add_var(&c, terms[i].var);
            r1cs_enforcef(cs, &a, &b, &c, "c_high_or_zero == c_high * h_select_bit (h=%u, k=%u)", h,
                          i);
        }
    }
    gnum sel = alloc_opt(cs, known ? &sum : NULL, "c_high_selected");
    if (!r1cs_wants_lcs(cs))
        return sel;
    r1cs_lc a = R1CS_LC_INIT, one = R1CS_LC_INIT, c = R1CS_LC_INIT;
    for (unsigned i = 0; i < FC_UPDATE_HS; i++)
        r1cs_lc_add_var(&a, terms[i].var);
    r1cs_lc_add_var(&one, R1CS_ONE);
    r1cs_lc_add_var(&c, sel.var);
    r1cs_enforce(cs, "c_high_selected == dot(c_highs, h_select_bits)", &a, &one, &c);
    return sel;
}

/* label_r_new: p = d * rho, new = old + p, (old + p) * (ONE) = (new). */
static gnum label_r_new(r1cs_cs *cs, const gnum *old, const gnum *d, const gnum *rho) {
    r1cs_push(cs, "label_d_new * rho");
    gnum p = gnum_mul(cs, d, rho);
    r1cs_pop(cs);
    fr v;
    int known = old->has_val && p.has_val;
    if (known)
        fr_add(&v, &old->val, &p.val);
    gnum n = alloc_opt(cs, known ? &v : NULL, "label_r_new");
    if (!r1cs_wants_lcs(cs))
        return n;
    r1cs_lc a = R1CS_LC_INIT, one = R1CS_LC_INIT, c = R1CS_LC_INIT;
    r1cs_lc_add_var(&a, old->var);
    r1cs_lc_add_var(&a, p.var);
    r1cs_lc_add_var(&one, R1CS_ONE);
    r1cs_lc_add_var(&c, n.var);
    r1cs_enforce(cs, "label_r_new == label_r_old + label_d_new * rho", &a, &one, &c);
    return n;
}

static void alloc_many(r1cs_cs *cs, gnum *out, const fr *vals, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++) {
        r1cs_push(cs, "%s %zu", name, i);
        out[i] = gnum_alloc(cs, vals ? &vals[i] : NULL);
        r1cs_pop(cs);
    }
}

/* ---- the circuit ------------------------------------------------------------ */

void snap_prefix_free(snap_prefix *x) {
    free(x->apex);
    free(x->part_path);
    free(x->top_bits);
    free(x->c_bits);
    memset(x, 0, sizeof *x);
}

static int prefix_alloc(snap_prefix *x, const snap_shape *s) {
    const fc_update_proof *p = &s->p;
    memset(x, 0, sizeof *x);
    x->apex = malloc((p->apex_leaves + 1) * sizeof(gnum));
    x->part_path = malloc((p->partition_bits + 1) * sizeof(gnum));
    x->top_bits = malloc((p->partition_bits + FC_UPDATE_HS) * sizeof(gbool));
    x->c_bits = malloc((size_t)p->challenges * p->bits * sizeof(gbool));
    if (!x->apex || !x->part_path || !x->top_bits || !x->c_bits) {
        snap_prefix_free(x);
        return -1;
    }
    return 0;
}

size_t snap_path_scratch(const snap_shape *s) {
    return s->r_siblings > s->l_ap ? s->r_siblings : s->l_ap;
}

/* gen_challenge_bits: fills every challenge's rand_bits low bits of c_bits. */
static int gen_challenge_bits(r1cs_cs *cs, const snap_shape *s, const gnum *comm_r_new,
                              const gnum *partition, gbool *c_bits) {
    const fc_update_proof *p = &s->p;
    const unsigned rb = p->rand_bits, cpd = p->challenges_per_digest, D = p->digests;
    gbool db[GNUM_BITS];
    fr dcoef;
    fr_set_u64(&dcoef, D);
    unsigned t = 0;
    for (unsigned j = 0; j < D; j++) {
        fr iv, jf;
        fr_set_u64(&jf, j);
        if (partition->has_val) {
            fr_mul(&iv, &partition->val, &dcoef);
            fr_add(&iv, &iv, &jf);
        }
        r1cs_push(cs, "digest_index_%u", j);
        gnum idx = gnum_alloc(cs, partition->has_val ? &iv : NULL);
        r1cs_pop(cs);
        R1CS_LC_ONLY(cs) {
            r1cs_lc a = R1CS_LC_INIT, one = R1CS_LC_INIT, c = R1CS_LC_INIT;
            r1cs_lc_add_term(&a, partition->var, &dcoef);
            r1cs_lc_add_term(&a, R1CS_ONE, &jf);
            r1cs_lc_add_var(&one, R1CS_ONE);
            r1cs_lc_add_var(&c, idx.var);
            r1cs_enforcef(cs, &a, &one, &c, "digest_index_%u == k * digests_per_partition + %u", j,
                          j);
        }
        gnum digest;
        r1cs_push(cs, "digest_%u", j);
        int rc = gen_hash(cs, comm_r_new, &idx, &digest);
        r1cs_pop(cs);
        if (rc)
            return -1;
        r1cs_push(cs, "digest_%u_bits", j);
        gnum_to_bits_le_packed(cs, &digest, GNUM_BITS, db);
        r1cs_pop(cs);
        for (unsigned i = 0; i < cpd && t < p->challenges; i++, t++)
            memcpy(c_bits + (size_t)t * p->bits, db + (size_t)i * rb, rb * sizeof(gbool));
    }
    return 0;
}

int snap_challenge_synth(r1cs_cs *cs, const snap_shape *s, const snap_witness *w,
                         const snap_prefix *x, unsigned t, gnum *path) {
    const fc_update_proof *p = &s->p;
    const size_t sr = s->r_siblings;
    const gbool *c_bits = x->c_bits + (size_t)t * p->bits;
    const gbool *hsel = x->top_bits + p->partition_bits;
    gnum high, rho, leaf_old, leaf_d, leaf_new, apex_leaf;
    if (t >= p->challenges)
        return -1;
    r1cs_push(cs, "get_challenge_high_bits (c_index=%u)", t);
    high = challenge_high(cs, s, c_bits, hsel);
    r1cs_pop(cs);
    r1cs_push(cs, "rho (c_index=%u)", t);
    int rc = gen_hash(cs, &x->phi, &high, &rho);
    r1cs_pop(cs);
    r1cs_push(cs, "leaf_r_old (c_index=%u)", t);
    leaf_old = gnum_alloc(cs, w ? &w->leaf_r_old[t] : NULL);
    r1cs_pop(cs);
    r1cs_push(cs, "leaf_d_new (c_index=%u)", t);
    leaf_d = gnum_alloc(cs, w ? &w->leaf_d_new[t] : NULL);
    r1cs_pop(cs);
    r1cs_push(cs, "leaf_r_new (c_index=%u)", t);
    leaf_new = label_r_new(cs, &leaf_old, &leaf_d, &rho);
    r1cs_pop(cs);

    alloc_many(cs, path, w ? w->path_r_old + (size_t)t * sr : NULL, sr, "path_r_old sibling");
    r1cs_push(cs, "por tree_r_old (c_index=%u)", t);
    rc |= por_no_challenge_input(cs, &s->tree_r, c_bits, p->bits, &leaf_old, path, &x->roots[0]);
    r1cs_pop(cs);
    alloc_many(cs, path, w ? w->path_r_new + (size_t)t * sr : NULL, sr, "path_r_new sibling");
    r1cs_push(cs, "por tree_r_new (c_index=%u)", t);
    rc |= por_no_challenge_input(cs, &s->tree_r, c_bits, p->bits, &leaf_new, path, &x->roots[1]);
    r1cs_pop(cs);

    if (s->poseidon) { /* tree D new is tree-R shaped, its root comm_d_new */
        alloc_many(cs, path, w ? w->path_d + (size_t)t * sr : NULL, sr, "path_d_new sibling");
        r1cs_push(cs, "por tree_d_new (c_index=%u)", t);
        rc |= por_no_challenge_input(cs, &s->tree_r, c_bits, p->bits, &leaf_d, path, &x->comm_d);
        r1cs_pop(cs);
        return rc ? -1 : 0;
    }
    r1cs_push(cs, "select_apex_leaf (c_index=%u)", t);
    rc |= insertion_select(cs, &apex_leaf, x->apex, c_bits + s->l_ap, p->apex_bits);
    r1cs_pop(cs);
    alloc_many(cs, path, w ? w->path_d + (size_t)t * s->l_ap : NULL, s->l_ap,
               "path_to_apex_leaf sibling");
    r1cs_push(cs, "por to_apex_leaf (c_index=%u)", t);
    rc |= por_no_challenge_input(cs, &s->tree_d_low, c_bits, s->l_ap, &leaf_d, path, &apex_leaf);
    r1cs_pop(cs);
    return rc ? -1 : 0;
}

int snap_prefix_synth(r1cs_cs *cs, const snap_shape *s, const snap_witness *w, snap_prefix *x) {
    const fc_update_proof *p = &s->p;
    const unsigned pbl = p->partition_bits, nb = pbl + FC_UPDATE_HS;
    uint64_t h_select = 0;
    memset(x, 0, sizeof *x);
    if (w) {
        h_select = fc_update_h_select(p, w->h);
        if (w->k >= p->partitions || !h_select)
            return -1;
    }
    if (prefix_alloc(x, s))
        return -1;
    int rc = 0;

    /* k_and_h_select, its bits, the partition number */
    fr x0v;
    if (w)
        fr_set_u64(&x0v, (uint64_t)w->k | (h_select << pbl));
    /* (the Poseidon variant: h_select alone; pbl = 0 and k = 0 there) */
    gnum x0 = alloc_opt(cs, w ? &x0v : NULL, s->poseidon ? "h_select" : "k_and_h_select");
    r1cs_push(cs, "%s (public input)", s->poseidon ? "h_select" : "k_and_h_select");
    gnum_inputize(cs, &x0);
    r1cs_pop(cs);
    gnum_to_bits_le_packed(cs, &x0, nb, x->top_bits);
    const gbool *part_bits = x->top_bits;
    gnum partition;
    memset(&partition, 0, sizeof partition);
    if (!s->poseidon) {
        r1cs_push(cs, "pack partition bits");
        partition = multipack_pack_bits(cs, part_bits, pbl);
        r1cs_pop(cs);
    }

    /* the public commitments and phi */
    static const char *const comm_names[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    gnum comm[3];
    for (int i = 0; i < 3; i++) {
        const fr *v = !w       ? NULL
                      : i == 0 ? &w->comm_r_old
                      : i == 1 ? &w->comm_d_new
                               : &w->comm_r_new;
        comm[i] = alloc_opt(cs, v, comm_names[i]);
        r1cs_push(cs, "%s_input", comm_names[i]);
        gnum_inputize(cs, &comm[i]);
        r1cs_pop(cs);
    }
    x->comm_d = comm[1];
    r1cs_push(cs, "phi");
    rc |= gen_hash(cs, &comm[1], &comm[0], &x->phi);
    r1cs_pop(cs);

    /* private values outside the challenges */
    gnum comm_c = alloc_opt(cs, w ? &w->comm_c : NULL, "comm_c");
    x->roots[0] = alloc_opt(cs, w ? &w->root_r_old : NULL, "root_r_old");
    x->roots[1] = alloc_opt(cs, w ? &w->root_r_new : NULL, "root_r_new");
    alloc_many(cs, x->apex, w ? w->apex_leaves : NULL, p->apex_leaves, "apex_leaf");
    alloc_many(cs, x->part_path, w ? w->partition_path : NULL, pbl, "partition_path_sibling");

    /* comm_r = P2(comm_c, root_r), old and new */
    for (int i = 0; i < 2; i++) {
        gnum pre[2] = {comm_c, x->roots[i]}, calc;
        r1cs_push(cs, "comm_r_%s_calc", i ? "new" : "old");
        rc |= poseidon_circuit_hash(cs, pre, 2, &calc);
        r1cs_pop(cs);
        R1CS_LC_ONLY(cs) {
            enforce_eq(cs,
                       i ? "enforce comm_r_new_calc == comm_r_new"
                         : "enforce comm_r_old_calc == comm_r_old",
                       calc.var, comm[i ? 2 : 0].var);
        }
    }

    if (s->poseidon) { /* an unconstrained zero stands for the partition */
        fr zero;
        fr_set_zero(&zero);
        partition = alloc_opt(cs, w ? &zero : NULL, "gen_challenge_bits partition zero");
    } else {
        r1cs_push(cs, "apex_gadget");
        rc |= apex_por(cs, s, x->apex, part_bits, x->part_path, &comm[1]);
        r1cs_pop(cs);
    }

    r1cs_push(cs, "gen_challenge_bits");
    rc |= gen_challenge_bits(cs, s, &comm[2], &partition, x->c_bits);
    r1cs_pop(cs);
    /* each challenge's bits: its random bits, then k's */
    for (unsigned t = 0; t < p->challenges; t++)
        memcpy(x->c_bits + (size_t)t * p->bits + p->rand_bits, part_bits, pbl * sizeof(gbool));
    if (rc) {
        snap_prefix_free(x);
        return -1;
    }
    return 0;
}

int snap_circuit_synthesize(r1cs_cs *cs, const snap_shape *s, const snap_witness *w) {
    snap_prefix x;
    if (snap_prefix_synth(cs, s, w, &x))
        return -1;
    gnum *path = malloc(snap_path_scratch(s) * sizeof *path + 1);
    int rc = path ? 0 : -1;
    for (unsigned t = 0; t < s->p.challenges && !rc; t++) {
        r1cs_segment(cs, SNAP_SEGMENT_CHALLENGE, t);
        rc |= snap_challenge_synth(cs, s, w, &x, t, path);
    }
    free(path);
    snap_prefix_free(&x);
    return rc ? -1 : 0;
}
