/* The SDR label circuit and its native form: see label_circuit.h. */
#include "filecoin/porep/label_circuit.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/hash/sha256_native.h"
#include "gadget/multipack.h"
#include "gadget/sha256.h"
#include "gadget/tree_hash.h"

#define MSG_BITS (8 * LABEL_MESSAGE_BYTES)

int label_circuit_create(r1cs_cs *cs, gnum *out, const gbool *replica_id, size_t id_bits,
                         const gbool *parents, const gu32 *layer, const gu64 *node) {
    if (id_bits < 32 || id_bits > 256)
        return -1;
    gbool *msg = malloc(MSG_BITS * sizeof *msg);
    if (!msg)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < 256; i++)
        msg[n++] = i < id_bits ? replica_id[i] : gbool_const(0);
    gu32_to_bits_be(msg + n, layer);
    n += 32;
    gu64_to_bits_be(msg + n, node);
    n += 64;
    while (n < 512)
        msg[n++] = gbool_const(0);
    memcpy(msg + n, parents, (size_t)LABEL_PARENTS * 256 * sizeof *msg);
    n += (size_t)LABEL_PARENTS * 256;

    gbool be[256], le[256];
    r1cs_push(cs, "hash");
    int r = gsha256(cs, be, msg, n);
    r1cs_pop(cs);
    free(msg);
    if (r != 0)
        return -1;
    tree_hash_reverse_bit_numbering(le, be, 256);
    r1cs_push(cs, "result_num");
    *out = multipack_pack_bits(cs, le, MULTIPACK_CHUNK);
    r1cs_pop(cs);
    return 0;
}

void label_native(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                  const uint8_t *parents) {
    uint8_t msg[LABEL_MESSAGE_BYTES] = {0};
    memcpy(msg, replica_id, 32);
    for (int i = 0; i < 4; i++)
        msg[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        msg[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    if (parents)
        memcpy(msg + 64, parents, 32 * LABEL_PARENTS);
    sha256_trunc_native(out, msg, parents ? LABEL_MESSAGE_BYTES : 64);
}

void label_alloc_bytes_be(r1cs_cs *cs, gbool *out, const uint8_t *bytes, size_t n) {
    for (size_t i = 0; i < 8 * n; i++) {
        r1cs_push(cs, "bit %zu", i);
        out[i] = gbool_alloc(cs, bytes ? (bytes[i / 8] >> (7 - i % 8)) & 1 : -1);
        r1cs_pop(cs);
    }
}
