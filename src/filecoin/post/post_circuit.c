/* The FallbackPoSt circuit, its public inputs and the vanilla-proof adapter:
 * see post_circuit.h. */
#include "filecoin/post/post_circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/merkle/merkle_tree.h"
#include "gadget/num.h"
#include "gadget/poseidon_circuit.h"
#include "util/err.h"

void post_shape_for_proof(post_shape *out, const fc_post_proof *p) {
    out->nodes = p->shape->nodes;
    out->sectors = p->sector_count;
    out->challenges = p->challenge_count;
    out->arity_base = p->shape->arity_base;
    out->arity_sub = p->shape->arity_sub;
    out->arity_top = p->shape->arity_top;
}

/* Tree R: Poseidon over the sector's nodes with its arities (base levels 0
 * when they do not fit).  Returns MERKLE_OK or an error. */
static int tree_r(const post_shape *s, por_shape *out) {
    return merkle_shape_for_leaves(out, TREE_HASH_POSEIDON, s->arity_base, s->arity_sub,
                                   s->arity_top, (size_t)s->nodes);
}

int post_shape_check(const post_shape *s) {
    if (s->sectors < 1 || s->challenges < 1 ||
        (uint64_t)s->sectors * s->challenges > ((uint64_t)1 << 24))
        return -1;
    por_shape t;
    return tree_r(s, &t) == MERKLE_OK ? 0 : -1;
}

void post_shape_tree(const post_shape *s, por_shape *out) { (void)tree_r(s, out); }

size_t post_num_public_inputs(const post_shape *s) {
    return (size_t)s->sectors * (1 + (size_t)s->challenges);
}

static gnum alloc_named(r1cs_cs *cs, const char *name, const fr *v) {
    r1cs_push(cs, "%s", name);
    gnum n = gnum_alloc(cs, v);
    r1cs_pop(cs);
    return n;
}

/* Sector::synthesize for real sector k (the witness row), or blank. */
static int sector_synth(r1cs_cs *cs, const post_shape *s, const por_shape *t, const post_witness *w,
                        size_t k) {
    const size_t C = s->challenges, lv = por_shape_levels(t), sb = por_shape_siblings(t);
    gnum comm_r_last = alloc_named(cs, "comm_r_last", w ? &w->comm_r_last[k] : NULL);
    gnum comm_c = alloc_named(cs, "comm_c", w ? &w->comm_c[k] : NULL);
    gnum comm_r = alloc_named(cs, "comm_r", w ? &w->comm_r[k] : NULL);
    r1cs_push(cs, "comm_r_input");
    gnum_inputize(cs, &comm_r);
    r1cs_pop(cs);

    if (poseidon_circuit_hash2_is(cs, "H_comm_c_comm_r_last", comm_c, comm_r_last, comm_r,
                                  "enforce_comm_c_comm_r_last_hash_comm_r"))
        return -1;

    for (size_t j = 0; j < C; j++) {
        const size_t kj = k * C + j;
        por_root leaf = por_root_val(w ? &w->leaf[kj] : NULL), root = por_root_var(comm_r_last);
        por_path p = {w ? w->index + kj * lv : NULL, w ? w->sib + kj * sb : NULL};
        r1cs_push(cs, "challenge_inclusion_%zu", j);
        int r = por_circuit(cs, t, &leaf, &p, &root, 1);
        r1cs_pop(cs);
        if (r)
            return -1;
    }
    return 0;
}

int post_sector_synth(r1cs_cs *cs, const post_shape *s, const post_witness *w, size_t i) {
    por_shape t;
    post_shape_tree(s, &t);
    /* missing sectors repeat the last real one */
    size_t k = w ? (i < w->n_sectors ? i : w->n_sectors - 1) : 0;
    r1cs_segment(cs, POST_SEG_SECTOR, (uint32_t)i);
    r1cs_push(cs, "outer namespace");
    r1cs_push(cs, "sector_%zu", i);
    int r = sector_synth(cs, s, &t, w, k);
    r1cs_pop(cs);
    r1cs_pop(cs);
    return r;
}

int post_witness_valid(const post_shape *s, const post_witness *w) {
    if (post_shape_check(s))
        return -1;
    if (w && (w->n_sectors < 1 || w->n_sectors > s->sectors || !w->comm_r || !w->comm_c ||
              !w->comm_r_last || !w->leaf || !w->index || !w->sib))
        return -1;
    return 0;
}

int post_circuit_synthesize(r1cs_cs *cs, const post_shape *s, const post_witness *w) {
    if (post_witness_valid(s, w))
        return -1;
    int r = 0;
    for (size_t i = 0; r == 0 && i < s->sectors; i++)
        r = post_sector_synth(cs, s, w, i);
    return r;
}

int post_public_inputs(fr *out, const post_shape *s, size_t n_sectors, const fr *comm_r,
                       const uint64_t *challenges, char *err, size_t errlen) {
    if (post_shape_check(s) || n_sectors < 1 || n_sectors > s->sectors)
        return err_set(err, errlen, "%zu sectors do not fit a PoSt circuit of %u", n_sectors,
                       s->sectors);
    const size_t C = s->challenges;
    size_t n = 0;
    for (size_t i = 0; i < n_sectors; i++) {
        out[n++] = comm_r[i];
        for (size_t j = 0; j < C; j++) {
            uint64_t c = challenges[i * C + j];
            if (c >= s->nodes)
                return err_set(err, errlen, "sector %zu challenge %zu: leaf %llu is not below %llu",
                               i, j, (unsigned long long)c, (unsigned long long)s->nodes);
            fr_set_u64(&out[n++], c);
        }
    }
    for (size_t i = n_sectors; i < s->sectors; i++, n += C + 1)
        memcpy(out + n, out + n - (C + 1), (C + 1) * sizeof(fr));
    return 0;
}

/* Checks one inclusion proof against tree t; 0 or -1 with err. */
static int check_path(const fc_inclusion_proof *p, const por_shape *t, char *err, size_t errlen,
                      size_t sector, size_t j) {
    const unsigned levels = por_shape_levels(t);
    if (fc_inclusion_levels(p) != levels || p->n_sub != (t->sub != 0) || p->n_top != (t->top != 0))
        return err_set(err, errlen,
                       "sector %zu proof %zu: %u+%u+%u path elements, the circuit's tree has %u "
                       "(%u-%u-%u)",
                       sector, j, p->n_base, p->n_sub, p->n_top, levels, t->base, t->sub, t->top);
    for (unsigned l = 0; l < levels; l++) {
        const unsigned arity = por_shape_arity(t, l);
        if (p->elems[l].n_hashes != arity - 1 || p->elems[l].index >= arity)
            return err_set(
                err, errlen,
                "sector %zu proof %zu element %u: %u siblings at position %u, arity is %u", sector,
                j, l, p->elems[l].n_hashes, p->elems[l].index, arity);
    }
    return 0;
}

static int to_fr(fr *out, const uint8_t b[32], char *err, size_t errlen, const char *what,
                 size_t sector) {
    if (fr_from_bytes_le(out, b))
        return 0;
    return err_set(err, errlen, "sector %zu: %s is not a canonical field element", sector, what);
}

int post_witness_from_vanilla(post_witness *w, uint64_t *leaf_index, const post_shape *s,
                              const fc_post_vanilla *const *v, size_t n, char *err, size_t errlen) {
    char dummy[8];
    if (!err) {
        err = dummy;
        errlen = sizeof dummy;
    }
    memset(w, 0, sizeof *w);
    if (post_shape_check(s))
        return err_set(err, errlen, "invalid PoSt circuit shape");
    por_shape t;
    post_shape_tree(s, &t);
    size_t ns = 0;
    for (size_t i = 0; i < n; i++)
        ns += v[i]->n_sectors;
    if (ns < 1 || ns > s->sectors)
        return err_set(err, errlen, "%zu sector proofs for a circuit of %u sectors", ns,
                       s->sectors);
    const size_t C = s->challenges, lv = por_shape_levels(&t), sb = por_shape_siblings(&t);
    const size_t nfr = 3 * ns + ns * C * (1 + sb), nidx = ns * C * lv;
    void *mem = malloc(nfr * sizeof(fr) + nidx * sizeof(uint32_t));
    if (!mem)
        return err_set(err, errlen, "out of memory for the PoSt witness");
    fr *comm_r = mem, *comm_c = comm_r + ns, *comm_r_last = comm_c + ns, *leaf = comm_r_last + ns,
       *sib = leaf + ns * C;
    uint32_t *index = (uint32_t *)(sib + ns * C * sb);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t q = 0; q < v[i]->n_sectors; q++, k++) {
            const fc_post_sector_proof *sp = &v[i]->sectors[q];
            if (sp->n_proofs != C) {
                snprintf(err, errlen, "sector %zu has %zu challenge proofs, the circuit %zu", k,
                         sp->n_proofs, C);
                goto fail;
            }
            if (to_fr(&comm_r[k], v[i]->comm_r, err, errlen, "comm_r", k) ||
                to_fr(&comm_c[k], sp->comm_c, err, errlen, "comm_c", k) ||
                to_fr(&comm_r_last[k], sp->comm_r_last, err, errlen, "comm_r_last", k))
                goto fail;
            for (size_t j = 0; j < C; j++) {
                const fc_inclusion_proof *p = &sp->proofs[j];
                const size_t kj = k * C + j;
                if (check_path(p, &t, err, errlen, k, j) ||
                    to_fr(&leaf[kj], p->leaf, err, errlen, "a leaf", k))
                    goto fail;
                size_t o = 0;
                for (unsigned l = 0; l < lv; l++) {
                    index[kj * lv + l] = p->elems[l].index;
                    for (uint32_t h = 0; h < p->elems[l].n_hashes; h++, o++)
                        if (to_fr(&sib[kj * sb + o], p->elems[l].hashes[h], err, errlen,
                                  "a path sibling", k))
                            goto fail;
                }
                if (leaf_index)
                    leaf_index[kj] = fc_inclusion_leaf_index(p);
            }
        }
    }
    *w = (post_witness){ns, comm_r, comm_c, comm_r_last, leaf, index, sib, mem};
    return 0;
fail:
    free(mem);
    return -1;
}

void post_witness_free(post_witness *w) {
    free(w->mem);
    memset(w, 0, sizeof *w);
}
