/* Merkle node hashes as circuits: see tree_hash.h. */
#include "gadget/tree_hash.h"

#include <stdlib.h>

#include "gadget/multipack.h"
#include "gadget/poseidon_circuit.h"
#include "gadget/sha256.h"

size_t tree_hash_reverse_bit_numbering(gbool *out, const gbool *in, size_t n) {
    size_t padded = (n + 7) / 8 * 8;
    for (size_t byte = 0; byte < padded; byte += 8)
        for (size_t j = 0; j < 8; j++) {
            size_t src = byte + 7 - j;
            out[byte + j] = src < n ? in[src] : gbool_const(0);
        }
    return padded;
}

int tree_hash_sha256_bits(r1cs_cs *cs, const gbool *bits, size_t nbits, gnum *out) {
    if (nbits % 8 != 0)
        return -1;
    gbool be[256], le[256];
    r1cs_push(cs, "hash");
    int r = gsha256(cs, be, bits, nbits);
    r1cs_pop(cs);
    if (r != 0)
        return -1;
    tree_hash_reverse_bit_numbering(le, be, 256);
    r1cs_push(cs, "pack_le");
    *out = multipack_pack_bits(cs, le, MULTIPACK_CHUNK);
    r1cs_pop(cs);
    return 0;
}

int tree_hash_sha256_leaf_bits(r1cs_cs *cs, const gbool *left, size_t nleft, const gbool *right,
                               size_t nright, gnum *out) {
    if (nleft > 256 || nright > 256)
        return -1;
    gbool pre[512];
    size_t n = tree_hash_reverse_bit_numbering(pre, left, nleft);
    n += tree_hash_reverse_bit_numbering(pre + n, right, nright);
    return tree_hash_sha256_bits(cs, pre, n, out);
}

static int sha256_children(r1cs_cs *cs, const gnum *children, unsigned n, gnum *out) {
    if (n == 0 || n > TREE_HASH_SHA256_MAX_CHILDREN)
        return -1;
    gbool *bits = malloc((size_t)n * 256 * sizeof *bits);
    if (!bits)
        return -1;
    for (unsigned i = 0; i < n; i++) {
        gbool le[GNUM_BITS];
        r1cs_push(cs, "%u_num_into_bits", i);
        gnum_to_bits_le(cs, &children[i], le);
        r1cs_pop(cs);
        tree_hash_reverse_bit_numbering(bits + (size_t)i * 256, le, GNUM_BITS);
    }
    int r = tree_hash_sha256_bits(cs, bits, (size_t)n * 256, out);
    free(bits);
    return r;
}

int tree_hash_circuit(r1cs_cs *cs, tree_hasher h, const gnum *children, unsigned n, gnum *out) {
    switch (h) {
    case TREE_HASH_POSEIDON:
        return poseidon_circuit_hash(cs, children, n, out);
    case TREE_HASH_SHA256:
        return sha256_children(cs, children, n, out);
    }
    return -1;
}
