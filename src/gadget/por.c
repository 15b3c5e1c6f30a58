/* PoR circuits: see por.h.  The order of allocations and constraints is
 * upstream's: PoRCircuit::synthesize walks base, sub and top sub-paths
 * (SubPath::synthesize), then packs the path bits, then the root. */
#include "gadget/por.h"

#include "gadget/insertion.h"
#include "gadget/multipack.h"
#include "gadget/poseidon.h"

static int pow2_arity(unsigned a) { return a >= 2 && a <= POR_MAX_ARITY && (a & (a - 1)) == 0; }

static unsigned log2u(unsigned a) {
    unsigned k = 0;
    while ((1u << k) < a)
        k++;
    return k;
}

unsigned por_shape_levels(const por_shape *s) {
    return s->base_levels + (s->sub > 0) + (s->top > 0);
}

unsigned por_shape_arity(const por_shape *s, unsigned l) {
    if (l < s->base_levels)
        return s->base;
    l -= s->base_levels;
    if (s->sub && l == 0)
        return s->sub;
    if (s->sub && s->top && l == 1)
        return s->top;
    return 0;
}

size_t por_shape_siblings(const por_shape *s) {
    size_t n = 0;
    for (unsigned l = 0; l < por_shape_levels(s); l++)
        n += por_shape_arity(s, l) - 1;
    return n;
}

unsigned por_shape_index_bits(const por_shape *s) {
    unsigned n = 0;
    for (unsigned l = 0; l < por_shape_levels(s); l++)
        n += log2u(por_shape_arity(s, l));
    return n;
}

int por_shape_check(const por_shape *s) {
    if (s->hasher != TREE_HASH_POSEIDON && s->hasher != TREE_HASH_SHA256)
        return -1;
    if (!pow2_arity(s->base) || (s->sub && !pow2_arity(s->sub)) ||
        (s->top && !pow2_arity(s->top)) || (s->top && !s->sub))
        return -1;
    if (por_shape_levels(s) > POR_MAX_LEVELS || por_shape_levels(s) == 0)
        return -1;
    if (por_shape_index_bits(s) > 63)
        return -1;
    if (s->hasher == TREE_HASH_POSEIDON &&
        (!poseidon_arity_supported(s->base) || (s->sub && !poseidon_arity_supported(s->sub)) ||
         (s->top && !poseidon_arity_supported(s->top))))
        return -1;
    return 0;
}

static gnum root_num(r1cs_cs *cs, const por_root *r, const char *ns) {
    if (r->allocated)
        return r->num;
    r1cs_push(cs, "%s", ns);
    gnum n = gnum_alloc(cs, r->num.has_val ? &r->num.val : NULL);
    r1cs_pop(cs);
    return n;
}

/* One path element: cur = H(insert(cur, bits, siblings)). */
static int ascend(r1cs_cs *cs, const por_shape *s, gnum *cur, const gbool *bits, unsigned nbits,
                  const gnum *siblings, unsigned arity, const char *insert_ns, const char *hash_ns,
                  unsigned height) {
    gnum pre[POR_MAX_ARITY];
    if (insert_ns)
        r1cs_push(cs, insert_ns, height);
    int r = insertion_insert(cs, pre, cur, bits, nbits, siblings);
    if (insert_ns)
        r1cs_pop(cs);
    if (r != 0)
        return -1;
    r1cs_push(cs, hash_ns, height);
    r = tree_hash_circuit(cs, s->hasher, pre, arity, cur);
    r1cs_pop(cs);
    return r;
}

int por_circuit(r1cs_cs *cs, const por_shape *s, const por_root *value, const por_path *path,
                const por_root *root, int private_root) {
    if (por_shape_check(s) != 0)
        return -1;
    const unsigned levels = por_shape_levels(s);
    const int known = path && path->index && path->siblings;
    if (known)
        for (unsigned l = 0; l < levels; l++)
            if (path->index[l] >= por_shape_arity(s, l))
                return -1;

    gnum cur = root_num(cs, value, "value");
    gbool path_bits[64];
    unsigned nbits = 0;
    size_t sib_off = 0;
    static const char *const part_ns[3] = {"base", "sub", "top"};
    unsigned l = 0;
    for (int part = 0; part < 3; part++) {
        unsigned count = part == 0 ? s->base_levels : part == 1 ? (s->sub > 0) : (s->top > 0);
        if (count == 0)
            continue;
        r1cs_push(cs, "%s", part_ns[part]);
        for (unsigned i = 0; i < count; i++, l++) {
            const unsigned arity = por_shape_arity(s, l), kbits = log2u(arity);
            r1cs_push(cs, "merkle tree hash %u", i);
            gbool bits[8];
            for (unsigned b = 0; b < kbits; b++) {
                r1cs_push(cs, "index bit %u", b);
                bits[b] = gbool_is(gbit_alloc(cs, known ? (int)((path->index[l] >> b) & 1) : -1));
                r1cs_pop(cs);
                path_bits[nbits++] = bits[b];
            }
            gnum sib[POR_MAX_ARITY];
            for (unsigned k = 0; k + 1 < arity; k++) {
                r1cs_push(cs, "path element %u", k);
                sib[k] = gnum_alloc(cs, known ? &path->siblings[sib_off + k] : NULL);
                r1cs_pop(cs);
            }
            sib_off += arity - 1;
            int r = ascend(cs, s, &cur, bits, kbits, sib, arity, NULL,
                           "computation of commitment hash", 0);
            r1cs_pop(cs);
            if (r != 0) {
                r1cs_pop(cs);
                return -1;
            }
        }
        r1cs_pop(cs);
    }

    r1cs_push(cs, "path");
    multipack_pack_into_inputs(cs, path_bits, nbits);
    r1cs_pop(cs);

    gnum rt = root_num(cs, root, "root_value");
    R1CS_LC_ONLY(cs) {
        r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, c = R1CS_LC_INIT;
        r1cs_lc_add_var(&a, cur.var);
        r1cs_lc_add_var(&b, R1CS_ONE);
        r1cs_lc_add_var(&c, rt.var);
        r1cs_enforce(cs, "enforce root is correct", &a, &b, &c);
    }
    if (!private_root) {
        r1cs_push(cs, "root");
        gnum_inputize(cs, &rt);
        r1cs_pop(cs);
    }
    return 0;
}

int por_no_challenge_input(r1cs_cs *cs, const por_shape *s, const gbool *challenge_bits,
                           size_t nbits, const gnum *leaf, const gnum *path_values,
                           const gnum *root) {
    if (por_shape_check(s) != 0 || nbits != por_shape_index_bits(s))
        return -1;
    for (size_t i = 0; i < nbits; i++)
        if (challenge_bits[i].kind != GBOOL_IS)
            return -1; /* upstream takes Vec<AllocatedBit> */
    gnum cur = *leaf;
    size_t bit = 0, sib = 0;
    for (unsigned l = 0; l < por_shape_levels(s); l++) {
        const unsigned arity = por_shape_arity(s, l), kbits = log2u(arity);
        if (ascend(cs, s, &cur, challenge_bits + bit, kbits, path_values + sib, arity,
                   "merkle proof insert (height=%u)", "merkle proof hash (height=%u)", l) != 0)
            return -1;
        bit += kbits;
        sib += arity - 1;
    }
    R1CS_LC_ONLY(cs) {
        r1cs_lc a = R1CS_LC_INIT, b = R1CS_LC_INIT, c = R1CS_LC_INIT;
        r1cs_lc_add_var(&a, cur.var);
        r1cs_lc_add_var(&b, R1CS_ONE);
        r1cs_lc_add_var(&c, root->var);
        r1cs_enforce(cs, "calculated root == provided root", &a, &b, &c);
    }
    return 0;
}

size_t por_public_inputs(fr out[2], uint64_t challenge, const fr *root, int private_root) {
    fr_set_u64(&out[0], challenge);
    if (private_root)
        return 1;
    out[1] = *root;
    return 2;
}
