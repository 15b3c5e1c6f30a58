/* Sparse Merkle trees over mostly-zero leaves: see sparse_tree.h. */
#include "sealer/sparse_tree.h"

#include <stdlib.h>
#include <string.h>

#include "field/fr.h"

int sparse_tree_init(sparse_tree *t, tree_hasher h, unsigned base, unsigned sub, unsigned top,
                     uint64_t leaves) {
    memset(t, 0, sizeof *t);
    int rc = merkle_shape_for_leaves(&t->shape, h, base, sub, top, (size_t)leaves);
    if (rc != MERKLE_OK)
        return rc;
    t->leaves = leaves;
    t->levels = por_shape_levels(&t->shape);
    uint8_t children[POR_MAX_ARITY * 32];
    memset(children, 0, sizeof children);
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = por_shape_arity(&t->shape, l);
        for (unsigned k = 0; k < a; k++)
            memcpy(children + 32 * k, t->zero[l], 32);
        rc = merkle_hash_node(t->zero[l + 1], h, children, a);
        if (rc != MERKLE_OK)
            return rc;
    }
    return MERKLE_OK;
}

int sparse_tree_set(sparse_tree *t, uint64_t i, const uint8_t leaf[32]) {
    if (t->built || i >= t->leaves)
        return MERKLE_ERR_INDEX;
    fr v;
    if (t->shape.hasher == TREE_HASH_POSEIDON && !fr_from_bytes_le(&v, leaf))
        return MERKLE_ERR_NOT_FR;
    if (t->count[0] == t->cap0) {
        size_t cap = t->cap0 ? 2 * t->cap0 : 64;
        sparse_node *n = realloc(t->row[0], cap * sizeof *n);
        if (!n)
            return MERKLE_ERR_NOMEM;
        t->row[0] = n;
        t->cap0 = cap;
    }
    sparse_node *e = &t->row[0][t->count[0]++];
    e->index = i;
    memcpy(e->node, leaf, 32);
    return MERKLE_OK;
}

/* Stable order by index, so that of equal indices the last set comes last. */
typedef struct {
    uint64_t index;
    size_t seq;
} order_key;

static int cmp_node(const void *a, const void *b) {
    const sparse_node *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int cmp_key(const void *a, const void *b) {
    const order_key *x = a, *y = b;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static const sparse_node *find(const sparse_node *row, size_t n, uint64_t j) {
    if (n == 0)
        return NULL; /* row may be NULL; bsearch's pointer must not be */
    sparse_node key;
    key.index = j;
    return bsearch(&key, row, n, sizeof *row, cmp_node);
}

/* Sorts the set leaves, keeping the last value of a repeated index. */
static int sort_leaves(sparse_tree *t) {
    size_t n = t->count[0];
    if (n == 0)
        return MERKLE_OK;
    order_key *k = malloc(n * sizeof *k);
    sparse_node *out = malloc(n * sizeof *out);
    if (!k || !out) {
        free(k);
        free(out);
        return MERKLE_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        k[i].index = t->row[0][i].index;
        k[i].seq = i;
    }
    qsort(k, n, sizeof *k, cmp_key);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && k[i + 1].index == k[i].index)
            continue;
        out[m++] = t->row[0][k[i].seq];
    }
    free(k);
    free(t->row[0]);
    t->row[0] = out;
    t->count[0] = m;
    t->cap0 = n;
    return MERKLE_OK;
}

int sparse_tree_build(sparse_tree *t) {
    if (t->built)
        return MERKLE_OK;
    int rc = sort_leaves(t);
    if (rc != MERKLE_OK)
        return rc;
    uint8_t children[POR_MAX_ARITY * 32];
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = por_shape_arity(&t->shape, l);
        const sparse_node *in = t->row[l];
        size_t n = t->count[l], m = 0;
        sparse_node *out = malloc((n ? n : 1) * sizeof *out);
        if (!out)
            return MERKLE_ERR_NOMEM;
        for (size_t i = 0; i < n;) {
            uint64_t parent = in[i].index / a;
            for (unsigned k = 0; k < a; k++)
                memcpy(children + 32 * k, t->zero[l], 32);
            for (; i < n && in[i].index / a == parent; i++)
                memcpy(children + 32 * (in[i].index % a), in[i].node, 32);
            out[m].index = parent;
            rc = merkle_hash_node(out[m].node, t->shape.hasher, children, a);
            if (rc != MERKLE_OK) {
                free(out);
                return rc;
            }
            m++;
        }
        t->row[l + 1] = out;
        t->count[l + 1] = m;
    }
    t->built = 1;
    return MERKLE_OK;
}

const uint8_t *sparse_tree_node(const sparse_tree *t, unsigned l, uint64_t j) {
    const sparse_node *e = find(t->row[l], t->count[l], j);
    return e ? e->node : t->zero[l];
}

const uint8_t *sparse_tree_root(const sparse_tree *t) { return sparse_tree_node(t, t->levels, 0); }

int sparse_tree_proof(merkle_proof *p, const sparse_tree *t, uint64_t i) {
    memset(p, 0, sizeof *p);
    if (!t->built || i >= t->leaves)
        return MERKLE_ERR_INDEX;
    p->shape = t->shape;
    p->siblings = malloc(por_shape_siblings(&t->shape) * 32);
    if (!p->siblings)
        return MERKLE_ERR_NOMEM;
    memcpy(p->leaf, sparse_tree_node(t, 0, i), 32);
    memcpy(p->root, sparse_tree_root(t), 32);
    uint64_t j = i;
    size_t out = 0;
    for (unsigned l = 0; l < t->levels; l++) {
        unsigned a = por_shape_arity(&t->shape, l);
        uint64_t first = j / a * a;
        p->index[l] = (uint32_t)(j % a);
        for (uint64_t k = first; k < first + a; k++)
            if (k != j)
                memcpy(p->siblings + 32 * out++, sparse_tree_node(t, l, k), 32);
        j /= a;
    }
    return MERKLE_OK;
}

void sparse_tree_free(sparse_tree *t) {
    for (unsigned l = 0; l <= POR_MAX_LEVELS; l++)
        free(t->row[l]);
    memset(t, 0, sizeof *t);
}
