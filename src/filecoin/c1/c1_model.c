/* The C1 model: tree shapes from the registered proof, the one-allocation
 * layout, equality, and a random filler for tests and benchmarks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/c1/c1.h"

const char *c1_status_str(c1_status s) {
    switch (s) {
    case C1_OK:
        return "ok";
    case C1_ERR_SYNTAX:
        return "syntax";
    case C1_ERR_TYPE:
        return "type";
    case C1_ERR_SHAPE:
        return "shape";
    case C1_ERR_RANGE:
        return "range";
    case C1_ERR_PROOF:
        return "proof";
    case C1_ERR_BASE64:
        return "base64";
    case C1_ERR_NO_MEMORY:
        return "no memory";
    case C1_ERR_IO:
        return "io";
    }
    return "unknown";
}

static unsigned log2_u64(uint64_t v) {
    unsigned r = 0;
    while (v > 1) {
        v >>= 1;
        r++;
    }
    return r;
}

/* Lays out element arities and hash offsets once base/sub/top are set. */
static void tree_finish(c1_tree *t) {
    unsigned e = 0, h = 0;
    for (unsigned i = 0; i < t->base_len; i++, e++) {
        t->arity[e] = (uint8_t)t->base_arity;
        t->first[e] = (uint16_t)h;
        h += t->base_arity - 1;
    }
    if (t->sub_arity) {
        t->arity[e] = (uint8_t)t->sub_arity;
        t->first[e++] = (uint16_t)h;
        h += t->sub_arity - 1;
    }
    if (t->top_arity) {
        t->arity[e] = (uint8_t)t->top_arity;
        t->first[e++] = (uint16_t)h;
        h += t->top_arity - 1;
    }
    t->len = e;
    t->hashes = h;
}

void c1_tree_d_shape(c1_tree *t, const fc_sector_shape *s) {
    memset(t, 0, sizeof *t);
    t->kind = C1_TREE_SINGLE;
    t->base_arity = 2;
    t->base_len = s->comm_d_depth;
    tree_finish(t);
}

void c1_tree_r_shape(c1_tree *t, const fc_sector_shape *s) {
    memset(t, 0, sizeof *t);
    uint64_t leaves = s->nodes;
    t->sub_arity = s->arity_sub;
    t->top_arity = s->arity_sub ? s->arity_top : 0;
    if (t->sub_arity)
        leaves /= t->sub_arity;
    if (t->top_arity)
        leaves /= t->top_arity;
    t->kind = t->top_arity ? C1_TREE_TOP : t->sub_arity ? C1_TREE_SUB : C1_TREE_SINGLE;
    t->base_arity = s->arity_base;
    /* rust-fil-proofs base_path_length: log_arity(leaves) for the base tree */
    t->base_len = log2_u64(leaves) / log2_u64(s->arity_base);
    tree_finish(t);
}

static size_t per_challenge(const c1_tree *d, const c1_tree *r, unsigned layers) {
    size_t nd = 2 + d->hashes, nr = 2 + r->hashes;
    return nd + nr + (1 + C1_DRG_PARENTS + C1_EXP_PARENTS) * (layers + nr) +
           (size_t)(layers + 1) * C1_LABEL_PARENTS;
}

size_t c1_nodes_per_challenge(const fc_seal_proof *p) {
    c1_tree d, r;
    c1_tree_d_shape(&d, p->shape);
    c1_tree_r_shape(&r, p->shape);
    return per_challenge(&d, &r, p->shape->layers);
}

static size_t align16(size_t n) { return (n + 15) & ~(size_t)15; }

c1_output *c1_output_alloc(const fc_seal_proof *p, c1_error *err) {
    unsigned L = p->shape->layers;
    size_t nch = (size_t)p->partitions * p->challenges_per_partition;
    c1_tree d, r;
    c1_tree_d_shape(&d, p->shape);
    c1_tree_r_shape(&r, p->shape);
    size_t per = per_challenge(&d, &r, L);
    size_t off_ch = align16(sizeof(c1_output));
    size_t off_lab = off_ch + align16(nch * sizeof(c1_challenge));
    size_t off_arena = off_lab + align16(nch * L * sizeof(c1_labeling));
    size_t total = off_arena + nch * per * C1_NODE_BYTES;
    uint8_t *mem = calloc(1, total);
    if (!mem) {
        if (err) {
            err->status = C1_ERR_NO_MEMORY;
            err->offset = 0;
            snprintf(err->msg, sizeof err->msg, "out of memory allocating %zu bytes for %s", total,
                     p->name);
        }
        return NULL;
    }
    c1_output *c = (c1_output *)mem;
    c->proof = p;
    c->partitions = p->partitions;
    c->challenges = p->challenges_per_partition;
    c->layers = L;
    c->nodes = p->shape->nodes;
    c->tree_d = d;
    c->tree_r = r;
    c->ch = (c1_challenge *)(mem + off_ch);
    c->arena = (c1_node *)(mem + off_arena);
    c->arena_nodes = nch * per;
    c->bytes = total;
    c1_labeling *lab = (c1_labeling *)(mem + off_lab);
    c1_node *n = c->arena;
    for (size_t i = 0; i < nch; i++) {
        c1_challenge *ch = &c->ch[i];
        ch->comm_d.tree = &c->tree_d;
        ch->comm_d.nodes = n;
        n += 2 + d.hashes;
        ch->comm_r_last.tree = &c->tree_r;
        ch->comm_r_last.nodes = n;
        n += 2 + r.hashes;
        for (unsigned k = 0; k < 1 + C1_DRG_PARENTS + C1_EXP_PARENTS; k++) {
            c1_column *col = k == 0                ? &ch->c_x
                             : k <= C1_DRG_PARENTS ? &ch->drg[k - 1]
                                                   : &ch->exp[k - 1 - C1_DRG_PARENTS];
            col->rows = n;
            n += L;
            col->proof.tree = &c->tree_r;
            col->proof.nodes = n;
            n += 2 + r.hashes;
        }
        ch->labeling = lab;
        for (unsigned l = 0; l < L; l++) {
            lab[l].parents = n;
            n += C1_LABEL_PARENTS;
        }
        lab += L;
        ch->encoding.parents = n;
        n += C1_LABEL_PARENTS;
    }
    return c;
}

void c1_output_free(c1_output *c) { free(c); }

uint64_t c1_merkle_path_index(const c1_merkle *m) {
    uint64_t acc = 0;
    for (unsigned e = m->tree->len; e-- > 0;)
        acc = acc * m->tree->arity[e] + m->index[e];
    return acc;
}

static int merkle_equal(const c1_merkle *a, const c1_merkle *b) {
    return memcmp(a->index, b->index, a->tree->len) == 0;
}

static int column_equal(const c1_column *a, const c1_column *b) {
    return a->index == b->index && merkle_equal(&a->proof, &b->proof);
}

static int labeling_equal(const c1_labeling *a, const c1_labeling *b) {
    return a->layer_index == b->layer_index && a->node == b->node;
}

int c1_output_equal(const c1_output *a, const c1_output *b) {
    if (a->proof != b->proof || memcmp(a->comm_r, b->comm_r, 32) ||
        memcmp(a->comm_d, b->comm_d, 32) || memcmp(a->replica_id, b->replica_id, 32) ||
        memcmp(a->seed, b->seed, 32) || memcmp(a->ticket, b->ticket, 32))
        return 0;
    /* Same proof: same layout, so the arenas compare node for node. */
    if (memcmp(a->arena, b->arena, a->arena_nodes * C1_NODE_BYTES) != 0)
        return 0;
    size_t nch = (size_t)a->partitions * a->challenges;
    for (size_t i = 0; i < nch; i++) {
        const c1_challenge *x = &a->ch[i], *y = &b->ch[i];
        if (!merkle_equal(&x->comm_d, &y->comm_d) ||
            !merkle_equal(&x->comm_r_last, &y->comm_r_last) || !column_equal(&x->c_x, &y->c_x) ||
            !labeling_equal(&x->encoding, &y->encoding))
            return 0;
        for (unsigned k = 0; k < C1_DRG_PARENTS; k++)
            if (!column_equal(&x->drg[k], &y->drg[k]))
                return 0;
        for (unsigned k = 0; k < C1_EXP_PARENTS; k++)
            if (!column_equal(&x->exp[k], &y->exp[k]))
                return 0;
        for (unsigned l = 0; l < a->layers; l++)
            if (!labeling_equal(&x->labeling[l], &y->labeling[l]))
                return 0;
    }
    return 1;
}

/* splitmix64 */
static uint64_t rnd(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Path indices that prove leaf (the inverse of c1_merkle_path_index). */
static void set_path_index(c1_merkle *m, uint64_t leaf) {
    for (unsigned e = 0; e < m->tree->len; e++) {
        m->index[e] = (uint8_t)(leaf % m->tree->arity[e]);
        leaf /= m->tree->arity[e];
    }
}

void c1_output_fill_random(c1_output *c, uint64_t seed) {
    uint64_t s = seed;
    uint8_t *bytes = (uint8_t *)c->arena;
    size_t n = c->arena_nodes * C1_NODE_BYTES;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t v = rnd(&s);
        memcpy(bytes + i, &v, 8);
    }
    uint8_t *top[5] = {c->comm_r, c->comm_d, c->replica_id, c->seed, c->ticket};
    for (int t = 0; t < 5; t++)
        for (int i = 0; i < 32; i += 8) {
            uint64_t v = rnd(&s);
            memcpy(top[t] + i, &v, 8);
        }
    size_t nch = (size_t)c->partitions * c->challenges;
    for (size_t i = 0; i < nch; i++) {
        c1_challenge *ch = &c->ch[i];
        uint64_t node = rnd(&s) % c->nodes;
        set_path_index(&ch->comm_d, node);
        set_path_index(&ch->comm_r_last, node);
        ch->c_x.index = (uint32_t)node;
        set_path_index(&ch->c_x.proof, node);
        for (unsigned k = 0; k < C1_DRG_PARENTS + C1_EXP_PARENTS; k++) {
            c1_column *col = k < C1_DRG_PARENTS ? &ch->drg[k] : &ch->exp[k - C1_DRG_PARENTS];
            col->index = (uint32_t)(rnd(&s) % c->nodes);
            set_path_index(&col->proof, col->index);
        }
        for (unsigned l = 0; l < c->layers; l++) {
            ch->labeling[l].layer_index = l + 1;
            ch->labeling[l].node = node;
        }
        ch->encoding.layer_index = c->layers;
        ch->encoding.node = node;
    }
}
